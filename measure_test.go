package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// oldShellJSON is execute_shell_command's result as it was before text
// results: one JSON object with the output as an escaped string.
func oldShellJSON(command, output string) string {
	b, _ := json.Marshal(map[string]any{"command": command, "output": output, "exit_code": 0})
	return string(b)
}

// TestTextResultTokens measures, with the project's estimator (gpt-4o's
// family), what a shell result costs the model as text against the JSON
// of before, on real outputs of this machine: the whole result (what a
// result under the cap, or a page of its spill file, costs) and the
// capped one (TOOL_OUTPUT_MAX_CHARS 32000), with the output lines each
// shows. A command this machine lacks is skipped. Figures: go test -v -run
// TestTextResultTokens.
func TestTextResultTokens(t *testing.T) {
	fam := familyOf("gpt-4o").orGeneric()
	for _, cmd := range []string{"seq 1 200000", "ls -la /usr/bin", "go env", "go build -n -a -o /dev/null .", "dmesg", "ps aux"} {
		out, err := exec.Command("sh", "-c", cmd+" 2>&1").Output()
		if err != nil || len(out) == 0 {
			t.Logf("%s: skipped (%v)", cmd, err)
			continue
		}
		text := string(out)
		old := newClipper(32000, nil)
		old.Write([]byte(oldShellJSON(cmd, text)))
		oc := old.finish()
		cl := newClipper(32000, nil)
		cl.Write(out)
		cl.label(shellHeader(cmd, 0, "", false), shellHolds)
		nc := cl.finish()
		oldWhole, newWhole := fam.tokens(oc.text(0)), fam.tokens(nc.text(0))
		oldCap, newCap := oc.text(32000), nc.text(32000)
		// A capped result holds its marker's lines too, so neither can show
		// more output lines than the output has.
		total := strings.Count(text, "\n")
		oldLines := min(strings.Count(readableJSON(oldCap), "\n"), total)
		newLines := min(strings.Count(newCap, "\n")-3, total)
		oldPer, newPer := float64(fam.tokens(oldCap))/float64(oldLines), float64(fam.tokens(newCap))/float64(newLines)
		oldPage, newPage := pageOf(oldShellJSON(cmd, text)), pageOf(text)
		t.Logf("%-30s %7d bytes %6d lines | whole: JSON %6d tokens, text %6d (%+.1f%%) | capped at 32000: JSON %5d lines shown at %.2f tokens/line, text %5d at %.2f (%+.1f%%) | a 12000-char page: JSON %4d lines %.2f t/l, text %4d %.2f",
			cmd, len(out), total, oldWhole, newWhole, 100*float64(newWhole-oldWhole)/float64(oldWhole),
			oldLines, oldPer, newLines, newPer, 100*(newPer-oldPer)/oldPer,
			strings.Count(oldPage.text, `\n`), float64(fam.tokens(oldPage.json))/float64(max(strings.Count(oldPage.text, `\n`), 1)),
			strings.Count(newPage.text, "\n"), float64(fam.tokens(newPage.json))/float64(max(strings.Count(newPage.text, "\n"), 1)))
		// Per-line figures only compare when both results are cut: a whole
		// text beside a cut JSON shows other lines than it (ps aux's long
		// middle ones), so then the whole costs are what compare.
		bothCut := !nc.whole() && !oc.whole()
		if newWhole > oldWhole+8 || newLines < oldLines || bothCut && newPer > oldPer*1.01 || utf8.RuneCountInString(newCap) > 32000 {
			t.Errorf("%s: text costs %d tokens whole (JSON %d), shows %d lines capped at %.2f tokens a line (JSON %d at %.2f)", cmd, newWhole, oldWhole, newLines, newPer, oldLines, oldPer)
		}
	}
}

// page is one fs_read_file page of a spill file: the window's text and
// the result's JSON as the model reads it.
type page struct{ text, json string }

// pageOf is the page at offset 1000, limit 12000, of a spill file holding
// spill: fs_read_file's JSON escapes it once more.
func pageOf(spill string) page {
	w := runeSlice(spill, 1000, 12000)
	b, _ := json.Marshal(map[string]any{"content": w, "offset": 1000, "limit": 12000})
	return page{text: w, json: string(b)}
}
