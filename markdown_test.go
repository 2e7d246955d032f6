package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// renderMD draws src through the renderer, written in the given chunks.
func renderMD(o mdOptions, chunks ...string) string {
	var b bytes.Buffer
	m := newMarkdown(&b, o)
	for _, c := range chunks {
		m.Write([]byte(c))
	}
	m.flushAnswer()
	return b.String()
}

// goldenOptions are the two ways goldens are drawn: colour, and NO_COLOR.
func goldenOptions() map[string]mdOptions {
	w := func() int { return 60 }
	return map[string]mdOptions{
		".golden":       {color: true, width: w, theme: palettes["monokai"], justify: "default"},
		".plain.golden": {color: false, width: w, theme: palettes["monokai"], justify: "default"},
	}
}

// TestMarkdownGolden renders testdata/markdown/*.md at 60 columns, with
// colour (NAME.golden) and without (NAME.plain.golden); go test -run
// MarkdownGolden -update rewrites them.
func TestMarkdownGolden(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "markdown", "*.md"))
	if len(inputs) == 0 {
		t.Fatal("no testdata/markdown/*.md")
	}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		for suffix, o := range goldenOptions() {
			golden := strings.TrimSuffix(in, ".md") + suffix
			t.Run(filepath.Base(golden), func(t *testing.T) {
				got := renderMD(o, string(src))
				if *update_ {
					os.WriteFile(golden, []byte(got), 0o644)
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("render(%s) differs from %s:\n%s", in, golden, got)
				}
			})
		}
	}
}

// TestMarkdownChunks: an answer cut in two at every byte, and one fed a
// byte at a time, draws exactly what the whole answer draws.
func TestMarkdownChunks(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob(filepath.Join("testdata", "markdown", "*.md"))
	for _, in := range inputs {
		src, _ := os.ReadFile(in)
		s := string(src)
		for suffix, o := range goldenOptions() {
			whole := renderMD(o, s)
			for k := 0; k <= len(s); k++ {
				if got := renderMD(o, s[:k], s[k:]); got != whole {
					t.Fatalf("%s%s cut at byte %d:\n%q\nwant\n%q", in, suffix, k, got, whole)
				}
			}
			bytewise := make([]string, len(s))
			for i := 0; i < len(s); i++ { // bytes, not runes: UTF-8 is cut too
				bytewise[i] = s[i : i+1]
			}
			if got := renderMD(o, bytewise...); got != whole {
				t.Errorf("%s%s a byte at a time:\n%q\nwant\n%q", in, suffix, got, whole)
			}
		}
	}
}

// TestMarkdownEscapes: the only escapes drawn are the renderer's own SGR
// (none without colour), whatever control bytes the model sent.
func TestMarkdownEscapes(t *testing.T) {
	src, _ := os.ReadFile(filepath.Join("testdata", "markdown", "hostile.md"))
	for suffix, o := range goldenOptions() {
		got := renderMD(o, string(src))
		for i := 0; i < len(got); i++ {
			c := got[i]
			switch {
			case c == 0x1b:
				j := i + 2
				for j < len(got) && (isDigit(got[j]) || got[j] == ';') {
					j++
				}
				if !o.color || i+1 >= len(got) || got[i+1] != '[' || j >= len(got) || got[j] != 'm' {
					t.Fatalf("%s: escape at %d is not the renderer's SGR: %q", suffix, i, got[i:min(i+12, len(got))])
				}
			case c < 0x20 && c != '\n', c == 0x7f:
				t.Fatalf("%s: control byte %#x at %d: %q", suffix, c, i, got)
			}
		}
		if strings.Contains(got, "\u009b") {
			t.Errorf("%s: a C1 control passed through", suffix)
		}
	}
}

// TestMarkdownBlocks checks single constructs, each drawn without colour
// at 30 columns.
func TestMarkdownBlocks(t *testing.T) {
	o := mdOptions{width: func() int { return 30 }, justify: "default"}
	for _, tc := range []struct{ name, in, want string }{
		{"heading markers go", "### Third\n", "Third\n"},
		{"closing hashes go", "## Two ##\n", "Two\n───\n"},
		{"not a heading", "#hashtag\n", "#hashtag\n"},
		{"emphasis", "a **b** _c_ `d` ~~e~~\n", "a b c d e\n"},
		{"escaped star", `\*not\*` + "\n", "*not*\n"},
		{"double backtick span", "`` a`b ``\n", "a`b\n"},
		{"link with same text", "[https://x.io](https://x.io)\n", "https://x.io\n"},
		{"image", "![logo](a.png)\n", "image: logo (a.png)\n"},
		{"wraps at words", "one two three four five six seven eight\n", "one two three four five six\nseven eight\n"},
		{"long word is cut", strings.Repeat("x", 35) + "\n", strings.Repeat("x", 30) + "\n" + strings.Repeat("x", 5) + "\n"},
		{"wide characters wrap by cells", strings.Repeat("日", 16) + "\n", strings.Repeat("日", 15) + "\n日\n"},
		{"rule", "***\n", strings.Repeat("─", 30) + "\n"},
		{"tilde fence", "~~~\n# not a heading\n~~~\n", "    # not a heading\n"},
		{"unclosed fence ends with the answer", "```\ncode", "    code\n"},
		{"pipe line without delimiter row", "| just text |\nnext\n", "| just text |\nnext\n"},
		{"table", "|a|b|\n|-|-|\n|1|2|\n", "┌───┬───┐\n│ a │ b │\n├───┼───┤\n│ 1 │ 2 │\n└───┴───┘\n"},
		{"crlf", "line\r\n", "line\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderMD(o, tc.in); got != tc.want {
				t.Errorf("render(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestMarkdownJustify: JUSTIFY places each row's spare cells.
func TestMarkdownJustify(t *testing.T) {
	in := "aa bb cc dd ee ff gg hh\n"
	for _, tc := range []struct{ justify, want string }{
		{"left", "aa bb cc dd ee\nff gg hh\n"},
		{"right", "  aa bb cc dd ee\n        ff gg hh\n"},
		{"center", " aa bb cc dd ee\n    ff gg hh\n"},
		{"full", "aa  bb  cc dd ee\nff gg hh\n"},
	} {
		o := mdOptions{width: func() int { return 16 }, justify: tc.justify}
		if got := renderMD(o, in); got != tc.want {
			t.Errorf("justify %s: render(%q) = %q, want %q", tc.justify, in, got, tc.want)
		}
	}
}

// BenchmarkMarkdown renders a 10 KB answer mixing prose, lists, code and
// a table, in colour at 100 columns, in 20-byte chunks as a stream
// delivers it; b.SetBytes makes -bench report MB/s. The machine it runs on
// may be shared, so it reports the process's CPU time per answer too
// (cpu-ns/op, GC included), which other loads do not inflate.
func BenchmarkMarkdown(b *testing.B) {
	var src strings.Builder
	showcase, _ := os.ReadFile(filepath.Join("testdata", "markdown", "showcase.md"))
	for src.Len() < 10*1024 {
		src.Write(showcase)
		src.WriteString("\nA paragraph of ordinary prose that runs well past the width of the terminal, with **some bold**, a `code span` and plain words, as answers mostly are.\n\n")
	}
	s := src.String()[:10*1024]
	o := mdOptions{color: true, width: func() int { return 100 }, theme: palettes["monokai"], justify: "default"}
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	before := cpuTime()
	for b.Loop() {
		m := newMarkdown(io.Discard, o)
		for i := 0; i < len(s); i += 20 {
			m.Write([]byte(s[i:min(i+20, len(s))]))
		}
		m.flushAnswer()
	}
	cpu := float64(cpuTime()-before) / float64(b.N)
	b.ReportMetric(cpu, "cpu-ns/op")
	b.ReportMetric(float64(len(s))/cpu*1e3, "cpu-MB/s")
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// emulate plays terminal output on a screen w cells wide, as a terminal
// does with the few controls the renderer sends (newline, carriage
// return, cursor up, erase below, SGR), and returns the screen's text.
func emulate(out string, w int) string {
	text, _ := emulateIn(out, w, 0)
	return text
}

// emulateIn is emulate on a screen h rows high (0: as high as it takes),
// with the rows scrolled off its top kept above it, as a terminal's
// scrollback keeps them: text is the scrollback and the screen, and lost
// counts the rows cursor-up moves asked for above the screen's top row,
// where a terminal stops them.
func emulateIn(out string, w, h int) (text string, lost int) {
	var rows [][]rune
	r, c, top := 0, 0, 0 // top: the screen's first row
	down := func() {
		r, c = r+1, 0
		if h > 0 && r-top >= h {
			top = r - h + 1
		}
	}
	put := func(ch rune) {
		cw := max(runeWidth(ch), 1)
		if c+cw > w {
			down()
		}
		for len(rows) <= r {
			rows = append(rows, nil)
		}
		for len(rows[r]) < c+cw {
			rows[r] = append(rows[r], ' ')
		}
		rows[r][c] = ch
		if cw == 2 {
			rows[r][c+1] = 0
		}
		c += cw
	}
	for i := 0; i < len(out); {
		switch {
		case out[i] == '\n':
			down()
			i++
		case out[i] == '\r':
			c = 0
			i++
		case out[i] == 0x1b:
			j := i + 2
			for j < len(out) && (isDigit(out[j]) || out[j] == ';') {
				j++
			}
			n, _ := strconv.Atoi(out[i+2 : j])
			switch out[j] {
			case 'A':
				lost += max(top-(r-n), 0)
				r = max(r-n, top)
			case 'J':
				if r < len(rows) {
					rows[r] = rows[r][:min(c, len(rows[r]))]
					rows = rows[:r+1]
				}
			}
			i = j + 1
		default:
			ch, size := utf8.DecodeRuneInString(out[i:])
			put(ch)
			i += size
		}
	}
	var b strings.Builder
	for _, row := range rows {
		b.WriteString(strings.TrimRight(strings.ReplaceAll(string(row), "\x00", ""), " "))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n"), lost
}

// TestMarkdownLivePreview: on a terminal a line shows as it arrives and is
// replaced by its drawn form when complete; however the answer is cut,
// the screen ends as the whole answer draws it.
func TestMarkdownLivePreview(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob(filepath.Join("testdata", "markdown", "*.md"))
	for _, in := range inputs {
		src, _ := os.ReadFile(in)
		s := string(src)
		for suffix, o := range goldenOptions() {
			want := emulate(renderMD(o, s), 60)
			live := o
			live.live = true
			for k := 0; k <= len(s); k++ {
				if got := emulate(renderMD(live, s[:k], s[k:]), 60); got != want {
					t.Fatalf("%s%s live, cut at byte %d, screen:\n%s\nwant\n%s", in, suffix, k, got, want)
				}
			}
			var chunks []string
			for i := 0; i < len(s); i += 7 {
				chunks = append(chunks, s[i:min(i+7, len(s))])
			}
			if got := emulate(renderMD(live, chunks...), 60); got != want {
				t.Errorf("%s%s live, 7-byte chunks, screen:\n%s\nwant\n%s", in, suffix, got, want)
			}
		}
	}
	// The preview itself: what has come of an unfinished line is on screen.
	var b bytes.Buffer
	m := newMarkdown(&b, mdOptions{live: true, width: func() int { return 20 }})
	m.Write([]byte("Some **bold** and a very long line that wra"))
	if got := emulate(b.String(), 20); got != "Some **bold** and a\nvery long line that\nwra" {
		t.Errorf("preview screen = %q", got)
	}
	m.Write([]byte("ps\n"))
	if got := emulate(b.String(), 20); got != "Some bold and a very\nlong line that wraps" {
		t.Errorf("screen after the line ends = %q", got)
	}
}

// TestIsMarkup: the bit tests name exactly the bytes inline markup starts with.
func TestIsMarkup(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := strings.IndexByte("\\`*_~[!<", byte(c)) >= 0
		if got := isMarkup(byte(c)); got != want {
			t.Errorf("isMarkup(%q) = %v, want %v", byte(c), got, want)
		}
	}
}

// TestMarkdownPreviewHeight: a line longer than the screen is high is
// previewed only while it fits, so the preview's rows never scroll off
// the top, where erasing it could not reach: the finished line is drawn
// once, nothing is left twice in the scrollback, and no cursor-up move
// asks for rows above the screen.
func TestMarkdownPreviewHeight(t *testing.T) {
	t.Parallel()
	const w, h = 20, 5
	words := strings.Repeat("streamed words wrap ", 15) // 300 cells: 15+ rows at 20
	for _, tc := range []struct{ name, src string }{
		{"paragraph", "Intro line.\n\n" + words + "end.\nAfter.\n"},
		{"code line", "```\n" + strings.Repeat("x := 1; ", 30) + "\n```\nAfter.\n"},
		{"list item", "- " + words + "\n- next\n"},
		{"unfinished at the end", "Intro.\n" + words},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := mdOptions{width: func() int { return w }, height: func() int { return h }, justify: "default"}
			want, _ := emulateIn(renderMD(o, tc.src), w, h)
			o.live = true
			for n := 1; n <= 23; n += 2 {
				var chunks []string
				for i := 0; i < len(tc.src); i += n {
					chunks = append(chunks, tc.src[i:min(i+n, len(tc.src))])
				}
				got, lost := emulateIn(renderMD(o, chunks...), w, h)
				if lost > 0 {
					t.Errorf("%d-byte chunks: cursor-up asked for %d rows above the screen", n, lost)
				}
				if got != want {
					t.Fatalf("%d-byte chunks, screen and scrollback:\n%s\nwant\n%s", n, got, want)
				}
			}
		})
	}
	// While the line is unfinished its first rows show, up to the screen's height.
	var b bytes.Buffer
	m := newMarkdown(&b, mdOptions{live: true, width: func() int { return w }, height: func() int { return h }})
	for i := 0; i < len(words); i += 10 {
		m.Write([]byte(words[i : i+10]))
	}
	got, lost := emulateIn(b.String(), w, h)
	if rows := strings.Count(got, "\n") + 1; lost > 0 || rows < h-1 || rows > h || !strings.HasPrefix(got, "streamed words wrap") {
		t.Errorf("preview of a %d-cell line at %dx%d = %d rows (lost %d):\n%s\nwant its first %d rows", len(words), w, h, rows, lost, got, h)
	}
}

// TestMarkdownPreviewWide: a preview of wide characters takes the rows the
// terminal gives them, a row ending a cell short when the next character
// does not fit, so erasing it moves up over all of them.
func TestMarkdownPreviewWide(t *testing.T) {
	t.Parallel()
	for _, w := range []int{5, 7, 9} {
		for _, src := range []string{"Intro.\n" + strings.Repeat("日本", 12) + "\nAfter.\n", "x" + strings.Repeat("a日", 15) + "\nAfter.\n"} {
			o := mdOptions{width: func() int { return w }, height: func() int { return 100 }, justify: "default"}
			want, _ := emulateIn(renderMD(o, src), w, 100)
			o.live = true
			for n := 1; n <= 7; n++ {
				var chunks []string
				for i := 0; i < len(src); i += n {
					chunks = append(chunks, src[i:min(i+n, len(src))])
				}
				if got, _ := emulateIn(renderMD(o, chunks...), w, 100); got != want {
					t.Fatalf("%q at width %d in %d-byte chunks, screen:\n%s\nwant\n%s", src, w, n, got, want)
				}
			}
		}
	}
}

// TestMarkdownPreviewResize: after a resize the preview stops growing, and
// erasing it moves up over the rows the terminal rewrapped it to, no more
// (the answer's lines above stay) and no fewer (no stale rows).
func TestMarkdownPreviewResize(t *testing.T) {
	for _, tc := range []struct {
		to   int
		want string // how the complete line's drawing starts
	}{
		{10, "\r\x1b[4A\x1b[J"}, // 50 cells: 5 rows at 10
		{60, "\r\x1b[J"},        // one row at 60
		{20, "\r\x1b[2A\x1b[J"}, // not resized: 3 rows
	} {
		var b bytes.Buffer
		width := 20
		m := newMarkdown(&b, mdOptions{live: true, width: func() int { return width }, height: func() int { return 40 }})
		m.Write([]byte(strings.Repeat("a", 50)))
		width = tc.to
		b.Reset()
		m.Write([]byte("bbb"))
		if b.Len() > 0 && tc.to != 20 {
			t.Errorf("resized to %d: the preview grew: %q", tc.to, b.String())
		}
		b.Reset()
		m.Write([]byte("\n"))
		if got := b.String(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("resized from 20 to %d: line drawn as %q, want it to start %q", tc.to, got, tc.want)
		}
	}
}

// answerVia writes answer, in 5-byte chunks as a stream delivers it,
// through the writer answerWriter picks for the configuration (config.ini
// text, YAI_* environment and command-line arguments) and the edge (a
// terminal or not, TERM, NO_COLOR), ends the answer as the agent does, and
// returns the bytes written.
func answerVia(t *testing.T, answer, file string, args []string, env map[string]string, terminal bool) string {
	t.Helper()
	o, err := parseArgs(args)
	if err != nil {
		t.Fatalf("parseArgs(%q): %v", args, err)
	}
	if file != "" {
		file = "[core]\n" + file + "\n"
	}
	cfg, warn := load(t, file, env, o.overrides)
	if warn != "" {
		t.Fatalf("config warnings: %s", warn)
	}
	var b bytes.Buffer
	w := answerWriter(cfg.render(), &b, terminal, func(k string) string { return env[k] }, func() (int, int) { return 30, 24 })
	for i := 0; i < len(answer); i += 5 {
		w.Write([]byte(answer[i:min(i+5, len(answer))]))
	}
	if m, ok := w.(*markdown); ok {
		m.flushAnswer()
	}
	return b.String()
}

// codeAnswer is an answer with a heading, bold, a Go code block and a line
// to justify.
const codeAnswer = "# Title\n\nSome **bold** text.\n\n```go\nfunc f() string { return \"s\" } // c\n```\n\naa bb cc dd ee ff gg hh ii jj kk\n"

// keywordIn is how theme draws a keyword: "func" in its keyword colour.
func keywordIn(theme string) string {
	return "\x1b[" + palettes[theme].keyword + "mfunc\x1b[0m"
}

// TestAnswerWriter: from the configuration and the edge to the bytes an
// answer is written as. CODE_THEME picks the palette, from the file or
// the environment; NO_COLOR and TERM=dumb draw without any escape (no
// SGR, and no live preview, whose redraw moves the cursor and erases with
// ESC[J); --plain and PRETTY=false
// write the model's text as it came, as a pipe always gets it; JUSTIFY
// reaches the renderer from the file, the environment and --justify.
func TestAnswerWriter(t *testing.T) {
	hostile := "é\t\x1b[31mred\x1b[0m **raw** # not drawn\r\n```\nunclosed"
	drawn := func(t *testing.T, got string) { // the screen it leaves has no Markdown markers
		t.Helper()
		screen := emulate(got, 30)
		for _, marker := range []string{"**", "# Title", "```"} {
			if strings.Contains(screen, marker) {
				t.Errorf("Markdown marker %q left on the screen:\n%s", marker, screen)
			}
		}
	}
	for _, tc := range []struct {
		name     string
		file     string
		args     []string
		env      map[string]string
		terminal bool
		answer   string
		check    func(t *testing.T, got, answer string)
	}{
		{name: "piped: the model's bytes", answer: hostile, env: map[string]string{"TERM": "xterm-256color"}},
		{name: "piped, whatever the theme and justification", answer: codeAnswer, file: "CODE_THEME=dracula\nJUSTIFY=full"},
		{name: "--plain on a terminal", args: []string{"--plain"}, terminal: true, answer: codeAnswer},
		{name: "--plain after the prompt", args: []string{"question", "--plain"}, terminal: true, answer: hostile},
		{name: "YAI_PRETTY=false", env: map[string]string{"YAI_PRETTY": "false"}, terminal: true, answer: codeAnswer},
		{name: "PRETTY=false in the file", file: "PRETTY=false", terminal: true, answer: codeAnswer},
		{name: "default theme", terminal: true, answer: codeAnswer, check: func(t *testing.T, got, _ string) {
			drawn(t, got)
			if !strings.Contains(got, keywordIn("monokai")) {
				t.Errorf("no monokai keyword %q in %q", keywordIn("monokai"), got)
			}
		}},
		{name: "CODE_THEME=dracula in the file", file: "CODE_THEME=dracula", terminal: true, answer: codeAnswer, check: func(t *testing.T, got, _ string) {
			drawn(t, got)
			if !strings.Contains(got, keywordIn("dracula")) || strings.Contains(got, keywordIn("monokai")) {
				t.Errorf("want dracula's keyword %q, not monokai's, in %q", keywordIn("dracula"), got)
			}
		}},
		{name: "YAI_CODE_THEME=nord over the file's dracula", file: "CODE_THEME=dracula", env: map[string]string{"YAI_CODE_THEME": "nord"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if !strings.Contains(got, keywordIn("nord")) || strings.Contains(got, keywordIn("dracula")) {
					t.Errorf("want nord's keyword %q, not dracula's, in %q", keywordIn("nord"), got)
				}
			}},
		{name: "NO_COLOR", env: map[string]string{"NO_COLOR": "1", "TERM": "xterm-256color"}, terminal: true, answer: codeAnswer + hostile,
			check: func(t *testing.T, got, _ string) {
				drawn(t, got)
				if sgr := sgrRE.FindString(got); sgr != "" {
					t.Errorf("SGR %q with NO_COLOR: %q", sgr, got)
				}
				if i := strings.IndexByte(got, 0x1b); i >= 0 { // no ESC at all: no ESC[J, no cursor move of a live preview
					t.Errorf("ESC at %d with NO_COLOR: %q", i, got)
				}
				if !strings.Contains(got, "func f() string") {
					t.Errorf("code missing: %q", got)
				}
			}},
		{name: "TERM=dumb", env: map[string]string{"TERM": "dumb"}, terminal: true, answer: codeAnswer + hostile,
			check: func(t *testing.T, got, _ string) {
				drawn(t, got)
				if i := strings.IndexAny(got, "\x1b\r"); i >= 0 {
					t.Errorf("escape or carriage return at %d on a dumb terminal: %q", i, got)
				}
				if !strings.Contains(got, "Some bold text.\n") {
					t.Errorf("bold not drawn as plain text: %q", got)
				}
			}},
		{name: "JUSTIFY=right in the file", file: "JUSTIFY=right", env: map[string]string{"TERM": "dumb"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if want := "\n aa bb cc dd ee ff gg hh ii jj\n                            kk\n"; !strings.HasSuffix(got, want) {
					t.Errorf("right-justified at 30: %q, want it to end %q", got, want)
				}
			}},
		{name: "YAI_JUSTIFY=center", env: map[string]string{"TERM": "dumb", "YAI_JUSTIFY": "center"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if want := "\naa bb cc dd ee ff gg hh ii jj\n              kk\n"; !strings.HasSuffix(got, want) {
					t.Errorf("centred at 30: %q, want it to end %q", got, want)
				}
			}},
		{name: "--justify full over the file's left", file: "JUSTIFY=left", args: []string{"--justify", "full"}, env: map[string]string{"TERM": "dumb"}, terminal: true, answer: codeAnswer,
			check: func(t *testing.T, got, _ string) {
				if want := "\naa  bb cc dd ee ff gg hh ii jj\nkk\n"; !strings.HasSuffix(got, want) {
					t.Errorf("fully justified at 30: %q, want it to end %q", got, want)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := answerVia(t, tc.answer, tc.file, tc.args, tc.env, tc.terminal)
			if tc.check == nil { // not drawn: byte for byte what the model sent
				if got != tc.answer {
					t.Errorf("answer written as %q, want %q", got, tc.answer)
				}
				return
			}
			tc.check(t, got, tc.answer)
		})
	}
}

// cutByContextError is a stream that answers in part and then ends in an
// in-stream context-length error, as OpenRouter sends one.
func cutByContextError(partial string) string {
	return "data: " + chunkJSON(map[string]any{"role": "assistant", "content": partial}, nil) + "\n\n" +
		`data: {"error":{"message":"This endpoint's maximum context length is 8192 tokens. However, you requested about 9100 tokens (8100 of text input, 1000 in the output). Please reduce the length of either one, or use the \"middle-out\" transform to compress your prompt automatically.","code":400,"metadata":{"provider_name":null}}}` + "\n\n"
}

// TestOneAnswerPerFile: `yaicli "q" > file` where the first stream is
// cut by a context-length error and retried: the file holds exactly the
// retried answer; the partial one never reaches it. Default settings: no
// -y, a temp HOME, no custom directories.
func TestOneAnswerPerFile(t *testing.T) {
	t.Parallel()
	// A first round that says something before its tool call: its text is
	// final once its request ends, whatever the next request does.
	textThenRead := strings.Replace(toolStream(fakeCall{"c1", "fs_read_file", `{"file_paths": ["go.mod"]}`}),
		`"content":null`, `"content":"Looking."`, 1)
	for _, tc := range []struct {
		name  string
		steps []step
		want  string
	}{
		{"cut, then retried", []step{sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer."))}, "The whole answer.\n"},
		{"a tool round, then cut and retried", []step{sse(textThenRead), sse(cutByContextError("Partial")), sse(textStream("Done."))}, "Looking.\nDone.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fp := newFakeProvider(t, tc.steps...)
			r := runBinary(t, fp, e2e{args: []string{"q"}})
			if r.code != 0 || r.stdout != tc.want || len(fp.chats()) != len(tc.steps) {
				t.Fatalf("code %d after %d requests, stdout %q, want %q; stderr:\n%s", r.code, len(fp.chats()), r.stdout, tc.want, r.stderr)
			}
			if !strings.Contains(r.stderr, "its partial text is discarded, not written to the output") {
				t.Errorf("the discarded answer is not told on stderr:\n%s", r.stderr)
			}
		})
	}
}

// TestTmuxStruckPartialAnswer: on a terminal the partial answer streams,
// and when a retry voids it a line says so and a rule strikes it before
// the retried answer.
func TestTmuxStruckPartialAnswer(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
	s := launchTmux(t, fp, "sh -c "+quoteAll([]string{binary + " q; echo ONE-SHOT-DONE; sleep 60"})[0])
	sc := s.waitFor("ONE-SHOT-DONE")
	inOrder(t, sc, "The partial answer, cut", "the partial answer above is discarded", strings.TrimSuffix(strikeRule, "\n"), "The whole answer.", "ONE-SHOT-DONE")
}

// inOrder fails t unless screen shows each of wants, one after another.
func inOrder(t *testing.T, screen string, wants ...string) {
	t.Helper()
	at := 0
	for _, want := range wants {
		i := strings.Index(screen[at:], want)
		if i < 0 {
			t.Fatalf("screen lacks %q after the one before:\n%s", want, screen)
		}
		at += i + len(want)
	}
}

// TestOneAnswerInARealFile: the binary run as `yaicli q > answer.txt`
// (stdout a regular file: written as it streams, cut back when voided)
// and as `yaicli q > answer.txt 2>&1` (stderr in the same file: held):
// the file holds the retried answer once and never the partial one.
func TestOneAnswerInARealFile(t *testing.T) {
	t.Parallel()
	for _, sameFile := range []bool{false, true} {
		fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
		env, _ := e2eEnv(t, fp, e2e{})
		path := filepath.Join(t.TempDir(), "answer.txt")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		cmd := exec.Command(binary, "q")
		cmd.Env, cmd.Stdout, cmd.Stderr = env, f, &errb
		if sameFile {
			cmd.Stderr = f
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		err = cmd.Run()
		f.Close()
		got, _ := os.ReadFile(path)
		answer := string(got)
		if sameFile {
			answer = strings.Join(slices.DeleteFunc(strings.SplitAfter(answer, "\n"), func(l string) bool { return strings.HasPrefix(l, "yaicli: ") }), "")
		}
		if err != nil || answer != "The whole answer.\n" || strings.Contains(string(got), "partial answer, cut") {
			t.Errorf("2>&1 %v: %v; the file holds %q, want the retried answer once; stderr %s", sameFile, err, got, errb.String())
		}
	}
}

// TestTmuxREPLStrikesPartialAnswer: in the terminal REPL too, a partial
// answer that a retry voids is struck: the line, the rule, the answer.
func TestTmuxREPLStrikesPartialAnswer(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
	s := startTmux(t, fp, "--chat")
	s.typeText("q")
	s.send("Enter")
	sc := s.waitFor("The whole answer.")
	inOrder(t, sc, "The partial answer, cut", "the partial answer above is discarded", strings.TrimSuffix(strikeRule, "\n"), "The whole answer.")
}

// TestDiscardToldOnceInJSON: in stream-json a discarded partial answer is
// one text.discard event, not also a notice carrying the text mode's line.
func TestDiscardToldOnceInJSON(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(cutByContextError("The partial answer, cut")), sse(textStream("The whole ", "answer.")))
	r := runBinary(t, fp, e2e{args: []string{"--output-format", "stream-json", "q"}})
	if r.code != 0 {
		t.Fatalf("code %d; stderr:\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, `"text.discard"`); n != 1 {
		t.Errorf("%d text.discard events, want 1:\n%s", n, r.stdout)
	}
	if strings.Contains(r.stdout+r.stderr, "partial answer above is discarded") {
		t.Errorf("the text mode's discard line is also reported:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
}
