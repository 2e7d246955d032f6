package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update_ = flag.Bool("update", false, "rewrite golden files")

// sampleEntries are two outputs; the first is spilled to a file of a fixed
// name, so golden screens do not depend on where temp directories are.
func sampleEntries(t *testing.T) []viewerEntry {
	spill := filepath.Join("testdata", "viewer", "spill.txt")
	full := `{"command":"make","output":"` + strings.Repeat(`line\n`, 50) + `FAIL: TestX\n","exit_code":2}`
	if b, err := os.ReadFile(spill); err != nil || string(b) != full {
		t.Fatalf("%s must hold the sample spill: %v", spill, err)
	}
	return []viewerEntry{
		{name: "execute_shell_command", caption: "make", chars: len(full), model: `{"command":"make","output":"line\nline\n[… 200 characters omitted …]\nFAIL: TestX\n","exit_code":2}`, path: spill},
		{name: "fs_read_file", caption: "日本語.txt", chars: 40, model: "colour \x1b[31mred\x1b[0m\ttab\n日本語テキスト and wide 🙂 text that is long enough to wrap around the body pane"},
	}
}

// TestViewerGolden renders fixed states at several sizes against
// testdata/viewer/*.golden (go test -run ViewerGolden -update rewrites them).
func TestViewerGolden(t *testing.T) {
	entries := sampleEntries(t)
	var many []viewerEntry // a long agent turn: more outputs than the list has rows
	for i := range 30 {
		many = append(many, viewerEntry{name: "execute_shell_command", caption: fmt.Sprintf("step %d", i+1), chars: 10, model: fmt.Sprintf("output %d", i+1)})
	}
	for _, tc := range []struct {
		name string
		s    viewerState
		w, h int
	}{
		{"first_80x24", viewerState{entries: entries}, 80, 24},
		{"second_40x12", viewerState{entries: entries, sel: 1}, 40, 12},
		{"full_body_120x30", viewerState{entries: entries, showFull: true, bodyPane: true, scroll: 45}, 120, 30},
		{"empty_60x8", viewerState{}, 60, 8},
		{"many_scrolled_60x10", viewerState{entries: many, sel: 24}, 60, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s
			if s.showFull {
				s.loadFull()
			}
			rows := renderViewer(s, tc.w, tc.h)
			if len(rows) != tc.h {
				t.Fatalf("%d rows, want %d", len(rows), tc.h)
			}
			for i, r := range rows {
				if w := stringWidth(r); w != tc.w {
					t.Errorf("row %d is %d cells wide, want %d: %q", i, w, tc.w, r)
				}
				if strings.ContainsAny(r, "\x1b\t\r") {
					t.Errorf("row %d carries a raw control character: %q", i, r)
				}
			}
			got := strings.Join(rows, "\n") + "\n"
			golden := filepath.Join("testdata", "viewer", tc.name+".golden")
			if *update_ {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("renderViewer(%s) differs from %s:\n%s", tc.name, golden, got)
			}
		})
	}
}

func TestViewerUpdate(t *testing.T) {
	s := viewerState{entries: sampleEntries(t)}
	steps := []struct {
		k     key
		check func(viewerState) bool
	}{
		{key{kind: keyDown}, func(s viewerState) bool { return s.sel == 1 }},
		{key{kind: keyDown}, func(s viewerState) bool { return s.sel == 1 }}, // clamps
		{key{kind: keyTab}, func(s viewerState) bool { return s.bodyPane }},
		{key{kind: keyDown}, func(s viewerState) bool { return s.scroll == 1 && s.sel == 1 }},
		{key{kind: keyPgDn}, func(s viewerState) bool { return s.scroll == 21 }},
		{key{kind: keyPgUp}, func(s viewerState) bool { return s.scroll == 1 }},
		{key{kind: keyRune, r: 'f'}, func(s viewerState) bool { return s.showFull && s.scroll == 0 }},
		{key{kind: keyTab}, func(s viewerState) bool { return !s.bodyPane }},
		{key{kind: keyUp}, func(s viewerState) bool { return s.sel == 0 }},
	}
	for i, st := range steps {
		var act viewerAction
		s, act = updateViewer(s, st.k, 24)
		if act != viewerStay || !st.check(s) {
			t.Fatalf("step %d (%+v): state %+v", i, st.k, s)
		}
	}
	for _, k := range []key{{kind: keyRune, r: 'q'}, {kind: keyEsc}, ctrl('o'), ctrl('c')} {
		if _, act := updateViewer(s, k, 24); act != viewerClose {
			t.Errorf("%+v did not close the viewer", k)
		}
	}
}

// fakeScreen records what the viewer drew.
type fakeScreen struct {
	w, h  int
	draws [][]string
}

func (f *fakeScreen) size() (int, int)   { return f.w, f.h }
func (f *fakeScreen) draw(rows []string) { f.draws = append(f.draws, rows) }

// TestRunViewerFakeTerminal feeds raw bytes one per read through the key
// decoder into the viewer loop.
func TestRunViewerFakeTerminal(t *testing.T) {
	input := []byte("\x1b[B" + "f" + "\x1b[6~" + "q")
	var pending []byte
	next := func() (key, bool) {
		for len(input) > 0 {
			pending = append(pending, input[0])
			input = input[1:]
			if k, n := decodeKey(pending); n > 0 {
				pending = pending[n:]
				return k, true
			}
		}
		return key{}, false
	}
	sc := &fakeScreen{w: 60, h: 10}
	entries := sampleEntries(t)
	runViewer(sc, entries, next)
	if len(sc.draws) != 4 {
		t.Fatalf("%d draws, want 4 (initial, down, f, pgdn; q closes)", len(sc.draws))
	}
	last := strings.Join(sc.draws[3], "\n")
	if !strings.Contains(last, "2/2 · full output") {
		t.Errorf("final screen:\n%s", last)
	}
}

// TestViewerEndThenBack: after End, PgUp and ↑ scroll back at once (End
// is not a trap that only Home leaves), and Home is the top.
func TestViewerEndThenBack(t *testing.T) {
	long := viewerEntry{name: "execute_shell_command", caption: "seq", chars: 5000, model: strings.Repeat("row\n", 200) + "last row"}
	keys := []key{{kind: keyTab}, {kind: keyEnd}, {kind: keyPgUp}, {kind: keyUp}, {kind: keyEnd}, {kind: keyUp}}
	next := func() (key, bool) {
		if len(keys) == 0 {
			return key{}, false
		}
		k := keys[0]
		keys = keys[1:]
		return k, true
	}
	sc := &fakeScreen{w: 60, h: 12}
	runViewer(sc, []viewerEntry{long}, next)
	status := func(i int) string { return sc.draws[i][len(sc.draws[i])-1] }
	for i, want := range []string{"rows 192-201 of 201", "rows 184-193 of 201", "rows 183-192 of 201", "rows 192-201 of 201", "rows 191-200 of 201"} {
		if got := status(i + 2); !strings.Contains(got, want) {
			t.Errorf("draw %d: status %q, want %q", i+2, got, want)
		}
	}
}

// TestViewerStatusKeepsPath: a spill path too long for the status line
// gets a row of its own, whole, so it can be copied; wider than the
// screen, it wraps without losing a character.
func TestViewerStatusKeepsPath(t *testing.T) {
	path := "/home/someone/.local/state/yaicli/chats/tool-outputs/20261205-005812-execute_shell_command.txt"
	s := viewerState{entries: []viewerEntry{{name: "execute_shell_command", caption: "make", chars: 9000, model: "x", path: path}}}
	for _, w := range []int{100, 120, 60} {
		rows := renderViewer(s, w, 20)
		if len(rows) != 20 {
			t.Fatalf("width %d: %d rows, want 20", w, len(rows))
		}
		var tail string
		for _, r := range rows[1:] {
			if i := strings.Index(r, "/home/"); i >= 0 || tail != "" {
				tail += strings.TrimRight(r[max(i, 0):], " ")
			}
		}
		if !strings.HasSuffix(tail, path) && tail != path {
			t.Errorf("width %d: the status rows hold %q, want the whole path %q:\n%s", w, tail, path, strings.Join(rows, "\n"))
		}
	}
}

// TestLiveViewerFollowsRunningOutput: opened while a call runs, the viewer
// selects it and follows its end as it grows, draws again only when the
// screen changes (a wait without a key that changes nothing draws nothing),
// stops following at the person's move, and shows the result when it takes
// the running output's place.
func TestLiveViewerFollowsRunningOutput(t *testing.T) {
	done := viewerEntry{name: "fs_read_file", caption: "a.txt", chars: 3, model: "abc"}
	lines := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "line %d\n", i)
		}
		return b.String()
	}
	now := []viewerEntry{done, {name: "execute_shell_command", caption: "make", running: true, chars: 21, model: lines(3), elapsed: 12400 * time.Millisecond}}
	steps := []func(){
		func() {}, // a tick: nothing changed
		func() { now[1].model = lines(40) },
		func() {}, // the person scrolls up a page (the key below)
		func() { now[1].model = lines(60) },
		func() {
			now[1] = viewerEntry{name: "execute_shell_command", caption: "make", chars: 500, model: "exit code: 0\n" + lines(60)}
		},
	}
	keys := []key{{kind: keyUnknown}, {kind: keyUnknown}, {kind: keyPgUp}, {kind: keyUnknown}, {kind: keyUnknown}}
	i := 0
	next := func() (key, bool) {
		if i == len(steps) {
			return key{}, false
		}
		steps[i]()
		k := keys[i]
		i++
		return k, true
	}
	sc := &fakeScreen{w: 110, h: 12} // wide enough for the status row's "of N"
	runLiveViewer(sc, func() []viewerEntry { return append([]viewerEntry(nil), now...) }, next)
	screen := func(d int) string { return strings.Join(sc.draws[d], "\n") }
	if len(sc.draws) != 5 {
		for d := range sc.draws {
			t.Logf("draw %d:\n%s", d, screen(d))
		}
		t.Fatalf("%d draws, want 5 (open, grown, scrolled up, the scroll kept while it grows, finished)", len(sc.draws))
	}
	for d, want := range []string{"line 3", "line 40", "line 32", "rows 23-32 of 60", "2/2 · model-visible text"} {
		if !strings.Contains(screen(d), want) {
			t.Errorf("draw %d lacks %q:\n%s", d, want, screen(d))
		}
	}
	if !strings.Contains(screen(0), "2/2 · execute_shell_command running 12s: output so far") || !strings.Contains(screen(0), "running 12s · 21 make") {
		t.Errorf("opened on the running call:\n%s", screen(0))
	}
	if strings.Contains(screen(3), "line 60") {
		t.Errorf("followed the end after the person scrolled:\n%s", screen(3))
	}
}

// TestRunningLabelNamesToolAndTime: the viewer's label for a running call
// names its tool and how long it has run, by the run's clock, to the
// second; with no output yet the body says the same.
func TestRunningLabelNamesToolAndTime(t *testing.T) {
	tb, _ := testToolbox(t, "auto", nil)
	clock := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	tb.now = func() time.Time { return clock }
	tb.goLive(shellTool(), `{"shell_command":"make"}`, io.Discard)
	clock = clock.Add(65*time.Second + 300*time.Millisecond)
	s := viewerState{entries: viewerEntries(tb.snapshot())}
	screen := strings.Join(renderViewer(s, 120, 12), "\n")
	for _, want := range []string{"execute_shell_command running 1m05s: output so far", "running 1m05s · 0 make"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the viewer lacks %q:\n%s", want, screen)
		}
	}
	if b := s.body(); b != "(execute_shell_command running 1m05s: no output yet)" {
		t.Errorf("body with no output: %q", b)
	}
	for d, want := range map[time.Duration]string{0: "0s", 400 * time.Millisecond: "0s", 59 * time.Second: "59s", 3725 * time.Second: "1h02m"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %s, want %s", d, got, want)
		}
	}
}
