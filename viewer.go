package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// viewerFullMax bounds how much of a spill file the viewer reads.
const viewerFullMax = 1 << 20

// viewerEntry is one tool output of the turn.
type viewerEntry struct {
	name, caption string
	chars         int    // characters in the full result
	model         string // the text the model received
	path          string // spill file, "" when the model saw everything
	spillErr      string
	full          string // the spill file's text, read on first need
	fullLoaded    bool
	running       bool          // the call running now: model is its output so far, growing
	elapsed       time.Duration // running: how long it has run, said to the second
}

// viewerState is everything the viewer shows; updateViewer and renderViewer are pure.
type viewerState struct {
	entries  []viewerEntry
	sel      int
	bodyPane bool // Tab moves focus between the list and the body
	scroll   int
	showFull bool // f: the spilled full file instead of the model's text
	// follow keeps the body at its end as a running output grows (tail
	// -f); set when the viewer opens on a running call and by End, ended
	// by any other move.
	follow bool
}

// viewerEntries turns the turn's tool outputs into viewer entries.
func viewerEntries(outs []toolOutput) []viewerEntry {
	var es []viewerEntry
	for _, o := range underTheirCall(outs) {
		name := o.name
		if o.under != "" { // a sub-agent's call, under its run_subagent
			name = "↳ " + name
		}
		e := viewerEntry{name: name, caption: o.caption, chars: o.clip.chars(), model: o.clip.modelText(), path: o.clip.onDisk(), running: o.running, elapsed: o.elapsed}
		if err := o.clip.spillError(); err != nil {
			e.spillErr = err.Error()
		}
		es = append(es, e)
	}
	return es
}

// body is the text of the selected entry in the current mode.
func (s *viewerState) body() string {
	if len(s.entries) == 0 {
		return "No tool output in this turn."
	}
	e := s.entries[s.sel]
	if e.running && e.model == "" {
		return "(" + e.runningLabel() + ": no output yet)"
	}
	if !s.showFull || e.running {
		return e.model
	}
	switch {
	case e.path == "" && e.spillErr != "":
		return "The full output could not be saved: " + e.spillErr
	case e.path == "":
		return e.model // nothing was cut: the model saw it all
	}
	return e.full
}

// viewerQuit is returned by updateViewer when the viewer should close.
type viewerAction int

const (
	viewerStay viewerAction = iota
	viewerClose
)

// updateViewer applies one key for a screen of the given height.
func updateViewer(s viewerState, k key, height int) (viewerState, viewerAction) {
	page := max(height-4, 1)
	if k.kind != keyUnknown && k.kind != keyResize && k.kind != keyTab {
		s.follow = false // a move of the person's: End follows again
	}
	switch {
	case k.kind == keyEsc, k.kind == keyRune && k.r == 'q', k.kind == keyCtrl && (k.r == 'o' || k.r == 'c'):
		return s, viewerClose
	case k.kind == keyTab, k.kind == keyLeft && s.bodyPane, k.kind == keyRight && !s.bodyPane:
		s.bodyPane = !s.bodyPane
	case k.kind == keyUp || k.kind == keyRune && k.r == 'k':
		if s.bodyPane {
			s.scroll = max(s.scroll-1, 0)
		} else if s.sel > 0 {
			s.sel, s.scroll = s.sel-1, 0
		}
	case k.kind == keyDown || k.kind == keyRune && k.r == 'j':
		if s.bodyPane {
			s.scroll++
		} else if s.sel < len(s.entries)-1 {
			s.sel, s.scroll = s.sel+1, 0
		}
	case k.kind == keyPgUp:
		s.scroll = max(s.scroll-page, 0)
	case k.kind == keyPgDn || k.kind == keyRune && k.r == ' ':
		s.scroll += page
	case k.kind == keyHome || k.kind == keyRune && k.r == 'g':
		s.scroll = 0
	case k.kind == keyEnd || k.kind == keyRune && k.r == 'G':
		s.scroll = 1 << 30 // render clamps it
		s.follow = true
	case k.kind == keyRune && k.r == 'f':
		s.showFull, s.scroll = !s.showFull, 0
	}
	return s, viewerStay
}

// wrapText breaks text into rows of at most width cells, with control
// characters made visible and tabs expanded, so nothing a tool printed can
// move the cursor or change colours.
func wrapText(text string, width int) []string {
	var rows []string
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		line = expandTabs(sanitize(strings.TrimSuffix(line, "\r")))
		if line == "" {
			rows = append(rows, "")
			continue
		}
		var row strings.Builder
		w := 0
		for _, r := range line {
			rw := runeWidth(r)
			if w+rw > width {
				rows = append(rows, row.String())
				row.Reset()
				w = 0
			}
			row.WriteRune(r)
			w += rw
		}
		rows = append(rows, row.String())
	}
	return rows
}

// renderViewer draws the viewer as exactly height rows of exactly width cells.
func renderViewer(s viewerState, width, height int) []string {
	width, height = max(width, 20), max(height, 5)
	listW := min(max(width/3, 16), 40)
	bodyW := width - listW - 1
	rows := []string{fitWidthMarked(" Tool outputs · ↑/↓ select · Tab pane · PgUp/PgDn scroll · f full/model · q close", width)}
	body, bodyH := s.layout(width, height)
	scroll := min(s.scroll, max(len(body)-bodyH, 0))
	// Each entry takes two rows: the tool's name, then the size and the
	// caption (the command or path, which tells calls of one tool apart).
	// The list scrolls to keep the selection in view.
	top := max(0, s.sel-max(bodyH/2, 1)+1)
	for i := 0; i < bodyH; i++ {
		left := ""
		if n := top + i/2; n < len(s.entries) {
			e := s.entries[n]
			switch {
			case i%2 == 1 && e.running:
				left = "    running " + shortDuration(e.elapsed) + " · " + humanChars(e.chars) + " " + sanitize(e.caption)
			case i%2 == 1:
				left = "    " + humanChars(e.chars) + " " + sanitize(e.caption)
			case n == s.sel && !s.bodyPane:
				left = "▶ " + e.name
			case n == s.sel:
				left = "> " + e.name
			default:
				left = "  " + e.name
			}
		}
		right := ""
		if scroll+i < len(body) {
			right = body[scroll+i]
		}
		rows = append(rows, fitWidthMarked(left, listW)+"│"+fitWidth(right, bodyW))
	}
	for _, r := range s.status(scroll, len(body), bodyH, width) {
		rows = append(rows, fitWidth(r, width))
	}
	return rows
}

// layout is the body's rows and how many of them show at once on a screen
// of this size: the screen less the title and the status rows.
func (s viewerState) layout(width, height int) (body []string, bodyH int) {
	width, height = max(width, 20), max(height, 5)
	body = wrapText(readableJSON(s.body()), width-min(max(width/3, 16), 40)-1)
	return body, max(height-1-len(s.status(0, 0, 0, width)), 1)
}

// clampScroll keeps the scroll position within the body, so that after
// End (which scrolls "to the end" however far that is) PgUp and ↑ move at
// once.
func (s viewerState) clampScroll(width, height int) viewerState {
	body, bodyH := s.layout(width, height)
	s.scroll = min(s.scroll, max(len(body)-bodyH, 0))
	return s
}

// status is the bottom rows: what is shown and where the rest is. The
// spill path is never cut (it is there to be copied): when the line is too
// wide it gets a row of its own, wrapped only when wider than the screen.
func (s viewerState) status(scroll, total, page, width int) []string {
	if len(s.entries) == 0 {
		return []string{""}
	}
	e := s.entries[s.sel]
	what := "model-visible text"
	switch {
	case e.running:
		what = e.runningLabel() + ": output so far, growing (End follows it)"
	case s.showFull:
		what = "full output"
		if e.path != "" && len(e.full) >= viewerFullMax {
			what += " (first 1 MB)"
		}
	}
	pos := fmt.Sprintf("rows %d-%d of %d", min(scroll+1, total), min(scroll+page, total), total)
	where := e.path
	if where == "" {
		where = "not spilled"
	}
	line := fmt.Sprintf(" %d/%d · %s · %s", s.sel+1, len(s.entries), what, pos)
	if e.running {
		return []string{line}
	}
	if all := line + " · " + sanitize(where); stringWidth(all) <= width || e.path == "" {
		return []string{all}
	}
	return append([]string{line}, wrapText(where, width)...)
}

// runningLabel names a running call's tool and how long it has run:
// "execute_shell_command running 12s".
func (e viewerEntry) runningLabel() string {
	return sanitize(e.name) + " running " + shortDuration(e.elapsed)
}

// shortDuration writes a duration to the second: 0s, 12s, 2m05s, 1h02m.
func shortDuration(d time.Duration) string {
	s := int(max(d, 0).Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
}

// humanChars writes a character count briefly: 950, 12.3k, 1.2M.
func humanChars(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%d", n)
}

// loadFull reads the selected entry's spill file, up to viewerFullMax bytes
// cut on a character boundary.
func (s *viewerState) loadFull() {
	if len(s.entries) == 0 {
		return
	}
	e := &s.entries[s.sel]
	if e.fullLoaded || e.path == "" {
		return
	}
	e.fullLoaded = true
	f, err := os.Open(e.path)
	if err != nil {
		e.full = "Cannot read the spill file: " + err.Error()
		return
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, viewerFullMax))
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1] // the cap cut a character
	}
	e.full = string(b)
}

// screen is where the viewer draws: the terminal, or a fake in tests.
type screen interface {
	size() (w, h int)
	draw(rows []string)
}

// runViewer shows entries until the person closes the viewer. next returns
// the next key (ok false when input ended or was cancelled).
func runViewer(sc screen, entries []viewerEntry, next func() (key, bool)) {
	runLiveViewer(sc, func() []viewerEntry { return entries }, next)
}

// runLiveViewer is runViewer over outputs that change while it is open: a
// running call's output grows, a finished call's result takes its place,
// the next call starts. entries is read before every draw; next returns
// keyUnknown when no key came for a while, so the screen keeps up, and a
// draw that would not change the screen is not sent.
func runLiveViewer(sc screen, entries func() []viewerEntry, next func() (key, bool)) {
	s := viewerState{entries: entries()}
	for i, e := range s.entries {
		if e.running { // opened while a tool runs: show it, following its end
			s.sel, s.follow = i, true
		}
	}
	var drawn []string
	tick := false // the last wait ended without a key: draw only a change
	for {
		w, h := sc.size()
		if s.showFull {
			s.loadFull()
		}
		if s.follow {
			s.scroll = 1 << 30
		}
		s = s.clampScroll(w, h)
		if rows := renderViewer(s, w, h); !tick || !slices.Equal(rows, drawn) {
			sc.draw(rows)
			drawn = rows
		}
		k, ok := next()
		if !ok {
			return
		}
		tick = k.kind == keyUnknown
		var act viewerAction
		if s, act = updateViewer(s, k, h); act == viewerClose {
			return
		}
		s = s.refreshed(entries())
	}
}

// refreshed is s over the outputs as they are now: the selection kept,
// a spill file already read kept, and while following, the selection
// moved on to the call that runs after the one it followed.
func (s viewerState) refreshed(now []viewerEntry) viewerState {
	old := s.entries
	for i := range now {
		if i < len(old) && old[i].fullLoaded && old[i].path == now[i].path && !now[i].running {
			now[i].full, now[i].fullLoaded = old[i].full, true
		}
	}
	if s.follow && s.sel < len(old) && old[s.sel].running && s.sel < len(now) && !now[s.sel].running {
		for i := s.sel + 1; i < len(now); i++ {
			if now[i].running {
				s.sel, s.scroll = i, 0
			}
		}
	}
	s.entries = now
	s.sel = max(min(s.sel, len(now)-1), 0)
	return s
}

// ttyScreen draws on a terminal's alternate screen.
type ttyScreen struct {
	out     screenWriter
	getSize func() (int, int)
}

// size is the terminal's size now.
func (t ttyScreen) size() (int, int) { return t.getSize() }

// draw writes the rows from the top left corner.
func (t ttyScreen) draw(rows []string) {
	var d drawing
	d.ctl(ctlHome)
	for i, r := range rows {
		if i > 0 {
			d.ctl(ctlNewline)
		}
		d.text(r)
	}
	t.out.draw(d)
}

// Escape sequences around the viewer: alternate screen and hidden cursor.
const (
	enterAltScreen = "\x1b[?1049h\x1b[?25l\x1b[2J"
	leaveAltScreen = "\x1b[?25h\x1b[?1049l"
)
