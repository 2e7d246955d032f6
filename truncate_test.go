package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestCapFor(t *testing.T) {
	for _, tc := range []struct {
		tool         string
		global, want int
	}{
		{"fs_read_file", 32000, 64000}, {"fetch_webpage", 32000, 100000}, {"fs_search_files", 32000, 48000},
		{"fs_list_directory", 32000, 48000}, {"execute_shell_command", 32000, 32000}, {"web_search", 32000, 32000},
		{"mcp__x__y", 32000, 32000}, {"fs_read_file", 16000, 32000}, {"fetch_webpage", 0, 0},
	} {
		if got := capFor(tc.tool, tc.global); got != tc.want {
			t.Errorf("capFor(%s, %d) = %d, want %d", tc.tool, tc.global, got, tc.want)
		}
	}
}

func TestTruncateTable(t *testing.T) {
	long := strings.Repeat("a", 5000) + strings.Repeat("z", 5000)
	multi := strings.Repeat("日本語テキスト", 1000) // 3-byte runes at every cut
	for _, tc := range []struct {
		name string
		in   string
		cap  int
	}{
		{"under", "short", 100}, {"at", strings.Repeat("x", 100), 100}, {"over", long, 2000},
		{"multibyte", multi, 2000}, {"cap 0 keeps all", long, 0}, {"tiny cap", long, 50}, {"emoji", strings.Repeat("🙂x", 3000), 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := truncate(tc.in, tc.cap)
			got := c.text(tc.cap)
			n := utf8.RuneCountInString(tc.in)
			if !utf8.ValidString(got) {
				t.Errorf("truncate(%s) is not valid UTF-8", tc.name)
			}
			if tc.cap == 0 || n <= tc.cap {
				if got != tc.in {
					t.Errorf("truncate(%s, %d) changed a result within the cap", tc.name, tc.cap)
				}
				return
			}
			if m := utf8.RuneCountInString(got); m > tc.cap {
				t.Errorf("truncate(%s, %d) = %d chars, want <= cap", tc.name, tc.cap, m)
			}
			if tc.cap >= 1000 && (!strings.Contains(got, "characters omitted") || got[:10] != tc.in[:10] || !strings.HasSuffix(got, lastRunes(tc.in, 10))) {
				t.Errorf("truncate(%s) lacks head, marker or tail: %.200q", tc.name, got)
			}
		})
	}
}

// TestMarkerOffsetPointsAtOmitted: the paging call in the marker starts at
// the first omitted character and the omitted count is exact.
func TestMarkerOffsetPointsAtOmitted(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "line %05d ü\n", i)
	}
	s := b.String()
	dir := t.TempDir()
	cl := newClipper(4000, spillOpener(dir, "execute_shell_command", time.Date(2026, 11, 4, 12, 34, 56, 0, time.UTC)))
	cl.Write([]byte(s))
	c := cl.finish()
	got := c.text(4000)
	re := regexp.MustCompile(`\[… (\d+) characters omitted \(of (\d+)\) … full output: "([^"]+)"\nread more with fs_read_file: (\{.*\})`)
	m := re.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("marker not found in %q", got)
	}
	if m[3] != filepath.Join(dir, "20261104-123456-execute_shell_command.txt") {
		t.Errorf("spill path = %s", m[3])
	}
	var call struct {
		FilePaths []string `json:"file_paths"`
		Offset    int      `json:"offset"`
		Limit     int      `json:"limit"`
	}
	if err := json.Unmarshal([]byte(m[4]), &call); err != nil {
		t.Fatalf("paging call is not JSON: %v: %s", err, m[4])
	}
	head := got[:strings.Index(got, "\n[…")]
	omitted, _ := strconv.Atoi(m[1])
	if call.Offset != utf8.RuneCountInString(head) || call.FilePaths[0] != m[3] || call.Limit != pageLimit {
		t.Errorf("paging call = %+v, head is %d chars", call, utf8.RuneCountInString(head))
	}
	tail := got[strings.LastIndex(got, "]\n")+2:]
	if call.Offset+omitted+utf8.RuneCountInString(tail) != utf8.RuneCountInString(s) {
		t.Errorf("head %d + omitted %d + tail %d != %d", call.Offset, omitted, utf8.RuneCountInString(tail), utf8.RuneCountInString(s))
	}
	full, _ := os.ReadFile(m[3])
	if string(full) != s {
		t.Errorf("spill file holds %d bytes, want the %d of the result", len(full), len(s))
	}
	if w := readWindow(t.Context(), m[3], "utf-8", call.Offset, omitted); w.Content != string([]rune(s)[call.Offset:call.Offset+omitted]) {
		t.Errorf("paging the spill file did not return the omitted characters")
	}
}

func TestSpillFailureStillTruncates(t *testing.T) {
	ro := t.TempDir()
	os.Chmod(ro, 0o500)
	t.Cleanup(func() { os.Chmod(ro, 0o700) })
	if os.Getuid() == 0 {
		// root ignores directory modes: use a path under a regular file instead.
		file := filepath.Join(ro, "file")
		os.Chmod(ro, 0o700)
		os.WriteFile(file, nil, 0o600)
		ro = file
	}
	cl := newClipper(1000, spillOpener(filepath.Join(ro, "sub"), "execute_shell_command", time.Now()))
	cl.Write([]byte(strings.Repeat("x", 5000)))
	got := cl.finish().text(1000)
	if !strings.Contains(got, "the full output could not be saved: creating") || strings.Contains(got, "fs_read_file") {
		t.Errorf("marker without spill = %q", got)
	}
	if utf8.RuneCountInString(got) > 1000 {
		t.Errorf("over the cap: %d", utf8.RuneCountInString(got))
	}
}

func TestErrorLinesListed(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		if i == 2500 {
			b.WriteString("--- FAIL: TestImportant (0.01s)\n")
			continue
		}
		fmt.Fprintf(&b, "ok line %d\n", i)
	}
	got := truncate(b.String(), 4000).text(4000)
	if !strings.Contains(got, "error-like lines in the omitted part:\n  --- FAIL: TestImportant (0.01s)") {
		t.Errorf("hidden failure not listed: %q", got[1500:2700])
	}
}

func TestShrinkRerender(t *testing.T) {
	s := strings.Repeat("0123456789", 3000)
	c := truncate(s, 8000)
	small := c.text(2000)
	if utf8.RuneCountInString(small) > 2000 || small[:20] != s[:20] || !strings.HasSuffix(small, s[len(s)-20:]) {
		t.Errorf("re-render at 2000 = %q", small)
	}
}

func FuzzTruncate(f *testing.F) {
	f.Add("hello world", 5)
	f.Add(strings.Repeat("日本", 500), 300)
	f.Add("x\nerror: boom\ny", 4)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 4096 || !utf8.ValidString(s) {
			return
		}
		c := truncate(s, max)
		got := c.text(max)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8")
		}
		if max > 0 && utf8.RuneCountInString(got) > max {
			t.Fatalf("len %d > cap %d", utf8.RuneCountInString(got), max)
		}
		if !c.omitted {
			if c.head != s {
				t.Fatalf("kept text differs")
			}
			return
		}
		// head + omitted middle + tail reconstructs s.
		runes := []rune(s)
		h, tl := []rune(c.head), []rune(c.tail)
		if string(runes[:len(h)]) != c.head || string(runes[len(runes)-len(tl):]) != c.tail || c.total != len(runes) {
			t.Fatalf("head/tail are not the prefix/suffix of s")
		}
	})
}

func BenchmarkClipper(b *testing.B) {
	chunk := []byte(strings.Repeat("2026-11-04 12:00:00 INFO request served in 12ms path=/api/v1/items\n", 4000))
	b.SetBytes(int64(len(chunk)))
	cl := newClipper(32000, func() (io.WriteCloser, string, error) { return nopCloser{io.Discard}, "/dev/null", nil })
	for b.Loop() {
		cl.Write(chunk)
	}
	cl.finish()
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestSpillFileCapped: a result that outgrows TOOL_OUTPUT_SPILL_MAX_BYTES
// (cat /dev/zero) stops growing on disk at the cap, on a character
// boundary; memory stays the head and tail; the marker says the file was
// cut too, and the model still sees the tail and the true total.
func TestSpillFileCapped(t *testing.T) {
	dir := t.TempDir()
	cl := newClipper(2000, spillOpener(dir, "execute_shell_command", time.Unix(0, 0))).spillingAtMost(10001)
	chunk := []byte(strings.Repeat("日", 1000)) // 3000 bytes a Write: the cap falls inside a character
	for i := 0; i < 1000; i++ {
		cl.Write(chunk)
	}
	cl.label("$ cat big\nexit code: 0\noutput:\n", shellHolds)
	c := cl.finish()
	st, err := os.Stat(c.onDisk())
	if err != nil || st.Size() != 9999 {
		t.Fatalf("spill file: %v, %d bytes, want 9999 (the whole characters within 10001)", err, st.Size())
	}
	got := c.text(2000)
	if !strings.Contains(got, "cut on disk too: the file holds only its first 9999 bytes (TOOL_OUTPUT_SPILL_MAX_BYTES)") ||
		!strings.Contains(got, "(of 1000000)") || !strings.HasSuffix(got, "日日日") || utf8.RuneCountInString(got) > 2000 {
		t.Errorf("capped spill's text: %.600q", got)
	}
}

// TestTextClipLines: a text result's head and tail are cut at line
// breaks when lines are short, within a long line otherwise, and the
// offset in the marker is where the omitted text starts in the file.
func TestTextClipLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		line func(i int) string
	}{
		{"short lines", func(i int) string { return fmt.Sprintf("line %d\n", i) }},
		{"long lines", func(i int) string { return strings.Repeat(strconv.Itoa(i%10), 3000) + "\n" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			for i := 0; b.Len() < 200000; i++ {
				b.WriteString(tc.line(i))
			}
			full := b.String()
			dir := t.TempDir()
			cl := newClipper(8000, spillOpener(dir, "execute_shell_command", time.Unix(0, 0)))
			io.WriteString(cl, full)
			cl.label("$ gen\nexit code: 0\noutput:\n", shellHolds)
			c := cl.finish()
			got := c.text(8000)
			head, rest, _ := strings.Cut(strings.TrimPrefix(got, "$ gen\nexit code: 0\noutput:\n"), "\n[… ")
			_, tail, _ := strings.Cut(rest, "]\n")
			call, _ := markerCall(got)
			off := num(call, "offset")
			if head != full[:len(head)] || !strings.HasSuffix(full, tail) || off != utf8.RuneCountInString(head) || utf8.RuneCountInString(got) > 8000 {
				t.Fatalf("head %d chars, offset %d, tail %d chars: not the text's own parts", len(head), off, len(tail))
			}
			short := tc.name == "short lines"
			atBreak := (strings.HasSuffix(head, "\n") || full[len(head)] == '\n') && full[len(full)-len(tail)-1] == '\n'
			if short != atBreak {
				t.Errorf("cut at line breaks = %v, want %v (head ends %q, tail starts %q)", atBreak, short, lastRunes(head, 10), firstRunes(tail, 10))
			}
		})
	}
}
