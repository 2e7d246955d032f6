package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountTokensFamilies runs yaicli --count-tokens -M with one model of
// each family on check samples of several kinds and languages, and wants
// the family named and its estimate within the band of the real count.
func TestCountTokensFamilies(t *testing.T) {
	t.Parallel()
	samples := loadFiles(t, []string{"testdata/tokens/check/set1.jsonl"})
	picked := map[string]sample{}
	for _, s := range samples {
		switch s.Cat {
		case "code_go", "ps_aux", "json", "ui_hi", "man_de", "ui_zh_CN", "ui_ru", "git_diff":
			if _, ok := picked[s.Cat]; !ok {
				picked[s.Cat] = s
			}
		}
	}
	dir := t.TempDir()
	var files []string
	var all []sample
	for cat, s := range picked {
		p := filepath.Join(dir, cat+".txt")
		if err := os.WriteFile(p, []byte(s.Text), 0o644); err != nil {
			t.Fatal(err)
		}
		files, all = append(files, p), append(all, s)
	}
	for model, fam := range map[string]string{
		"gpt-4o": "o200k", "gpt-4-turbo": "cl100k", "claude-sonnet-4-5": "claude", "meta-llama/Llama-3.1-8B-Instruct": "llama3",
		"qwen3:8b": "qwen", "deepseek-chat": "deepseek", "gemma3:12b": "gemma",
	} {
		r := runBinary(t, nil, e2e{args: append([]string{"--count-tokens", "-M", model}, files...), noProvider: true})
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != len(files)+1 {
			t.Fatalf("--count-tokens -M %s of %d files printed %d lines, want one per file and the total:\n%s", model, len(files), len(lines), r.stdout)
		}
		sum := 0
		for k, line := range lines[:len(files)] {
			var each int
			if _, err := fmt.Sscanf(line, "~%d tokens", &each); err != nil || !strings.HasSuffix(line, "  "+files[k]) {
				t.Errorf("--count-tokens -M %s: line %q, want ~N tokens and %s", model, line, files[k])
			}
			sum += each
		}
		var n int
		var gotFam, gotModel string
		if _, err := fmt.Sscanf(lines[len(files)], "~%d tokens (%s family: %s", &n, &gotFam, &gotModel); err != nil || r.code != 0 || n != sum {
			t.Fatalf("--count-tokens -M %s: code %d, stdout %q, stderr %q", model, r.code, r.stdout, r.stderr)
		}
		if want := fmt.Sprintf("(%s family: %s)\n", fam, model); !strings.HasSuffix(r.stdout, want) {
			t.Errorf("--count-tokens -M %s = %q, want it to end in %q", model, r.stdout, want)
		}
		real := 0
		for _, s := range all {
			real += realCount(s, fam)
		}
		if ratio := float64(n) / float64(real); ratio < targetLow || ratio > targetHigh {
			t.Errorf("--count-tokens -M %s = %d, real %d: %.2f, want within [%.2f, %.2f]", model, n, real, ratio, targetLow, targetHigh)
		}
	}
}

// TestCountReaderBlocks: --count-tokens reads its inputs a block at a time;
// the blocks' estimates add up to the whole text's (within 0.1%), a line
// longer than a block is cut between characters, never inside one, and an
// empty input is nothing.
func TestCountReaderBlocks(t *testing.T) {
	slowTest(t)
	t.Parallel()
	for in, want := range map[string]int{
		"ab\ncd": 3, "abcd": 4, "ab\xc3": 2, "ab\xe6\xbc": 2, "a\xe6\xbc\xa2": 4, "\xf0\x9f\x98": 0, "a\n\xe6\xbc": 2,
	} {
		if got := blockCut([]byte(in)); got != want {
			t.Errorf("blockCut(%q) = %d, want %d", in, got, want)
		}
	}
	var b strings.Builder
	for _, s := range loadSampleFile(t, "testdata/tokens/check/set8.jsonl") {
		b.WriteString(s.Text + "\n")
	}
	prose := b.String()
	long := strings.Repeat("é漢字ü", countBlock/9+1) // one line of two-, three- and two-byte characters past a block
	for name, text := range map[string]string{
		"prose": strings.Repeat(prose, countBlock/len(prose)*2+1), "long line": long, "long line after prose": prose + long + "\n" + prose, "empty": "",
	} {
		for _, f := range []family{o200kFamily, gemmaFamily, genericFamily} {
			got, err := countReader(f, strings.NewReader(text))
			whole := f.tokens(text)
			// each block rounds, and its scripts choose their tiers alone
			if err != nil || math.Abs(float64(got-whole)) > max(3, float64(whole)/1000) {
				t.Errorf("%s, %s family: blocks %d, whole %d (err %v)", name, f.name, got, whole, err)
			}
		}
	}
}
