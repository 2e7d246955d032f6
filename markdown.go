package main

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// style is a set of text attributes of a piece of an answer.
type style uint16

const (
	stBold style = 1 << iota
	stItalic
	stUnder
	stStrike
	stDim
	stCode    // inline code
	stLink    // a link's text
	stURL     // a link's address
	stHeading // a heading's text
	stQuote   // block-quote text
	stRule    // rules, bullets, table borders
	stLabel   // a code block's language label
)

// mdOptions are how answers are drawn, decided at the edge from the
// configuration, the environment and the terminal.
type mdOptions struct {
	color   bool       // SGR colours and attributes; false: laid out, no escapes
	width   func() int // the terminal's width now; <= 0: unknown, nothing is wrapped
	theme   palette
	justify string // JUSTIFY: default, left, center, right or full
	// live shows a line's text as it arrives, before the line is complete,
	// and replaces it with the drawn line when it is: on a terminal a long
	// paragraph must not sit invisible until its newline.
	live bool
}

// markdown is a writer that draws streamed Markdown on a terminal. Each
// line is drawn once it is complete, a code block line by line, a table
// when its last row has come; nothing drawn is ever redrawn. Text is
// sanitised before any SGR of its own is added, so the model's control
// bytes never reach the terminal.
type markdown struct {
	w      io.Writer
	o      mdOptions
	part   []byte       // the line being received
	fence  string       // the open code fence's marker, "" outside one
	hl     *highlighter // the open code block's colours; nil: none
	held   string       // a line that may head a table, waiting for the next
	table  [][]string   // the open table's rows (header first), nil: none
	align  []byte       // its columns' alignment: 'l', 'c' or 'r'
	out    []byte       // what this Write draws
	segs   []seg        // scratch for wrapping
	sgrs   map[style]string
	pad    bool    // rows are padded to the width (table cells)
	shown  int     // bytes of part shown as a live preview
	pcells int     // cells the preview takes
	pieces []piece // scratch for inline parsing
	cell   []byte  // scratch: a table row's cells, drawn
	spans  [][2]int
	bar    []byte // a table's column border, drawn
}

// newMarkdown draws Markdown written to it on w.
func newMarkdown(w io.Writer, o mdOptions) *markdown {
	if o.width == nil {
		o.width = func() int { return 0 }
	}
	return &markdown{w: w, o: o, sgrs: map[style]string{}}
}

// Write takes the next chunk of the answer, cut anywhere, and draws the
// lines it completes.
func (m *markdown) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			m.part = append(m.part, p...)
			break
		}
		if len(m.part) > 0 {
			m.part = append(m.part, p[:i]...)
			m.line(string(m.part))
			m.part = m.part[:0]
		} else {
			m.line(string(p[:i]))
		}
		p = p[i+1:]
	}
	if m.o.live {
		m.preview()
	}
	return n, m.emit()
}

// preview shows the part of a line received so far, as plain text: the
// bytes not shown yet, up to the last whole character. Lines that may
// become a table or a fence are not previewed: they will look different.
func (m *markdown) preview() {
	w := m.o.width()
	if w <= 0 || m.held != "" || m.table != nil || len(m.part) == m.shown {
		return
	}
	if m.shown == 0 {
		t := bytes.TrimLeft(m.part, " ")
		if len(t) == 0 || t[0] == '|' || m.fence == "" && (bytes.HasPrefix(t, []byte("``")) || bytes.HasPrefix(t, []byte("~~"))) {
			return
		}
	}
	end := len(m.part)
	for end > m.shown && !utf8.FullRune(m.part[lastRuneStart(m.part[:end]):end]) {
		end = lastRuneStart(m.part[:end])
	}
	if end <= m.shown {
		return
	}
	text := sanitize(strings.ReplaceAll(string(m.part[m.shown:end]), "\t", " "))
	if m.shown == 0 && m.fence != "" {
		text = "    " + text
	}
	m.out = append(m.out, text...)
	m.pcells += cells(text)
	m.shown = end
}

// lastRuneStart is where the last (maybe partial) character of b starts.
func lastRuneStart(b []byte) int {
	i := len(b) - 1
	for i > 0 && !utf8.RuneStart(b[i]) && len(b)-i < utf8.UTFMax {
		i--
	}
	return max(i, 0)
}

// unpreview erases the live preview: back to its first row, cleared to
// the end of the screen, so the drawn line takes its place.
func (m *markdown) unpreview() {
	if m.shown == 0 {
		return
	}
	m.out = append(m.out, '\r')
	if w := m.o.width(); w > 0 && m.pcells > w {
		m.out = append(m.out, "\x1b["...)
		m.out = strconv.AppendInt(m.out, int64((m.pcells-1)/w), 10)
		m.out = append(m.out, 'A')
	}
	m.out = append(m.out, "\x1b[J"...)
	m.shown, m.pcells = 0, 0
}

// flushAnswer ends the answer: its last line without a newline, a held
// line, an open table and an unclosed code fence, so the next answer
// starts fresh.
func (m *markdown) flushAnswer() {
	if len(m.part) > 0 {
		m.line(string(m.part))
		m.part = m.part[:0]
	}
	m.endHeld()
	m.endTable()
	m.fence, m.hl = "", nil
	m.emit()
}

// emit writes what has been drawn.
func (m *markdown) emit() error {
	if len(m.out) == 0 {
		return nil
	}
	_, err := m.w.Write(m.out)
	m.out = m.out[:0]
	return err
}

// line draws one complete source line, or keeps it for a table.
func (m *markdown) line(raw string) {
	m.unpreview()
	s := sanitize(strings.TrimSuffix(raw, "\r"))
	if m.fence != "" {
		if isFenceEnd(s, m.fence) {
			m.fence, m.hl = "", nil
			return
		}
		m.codeLine(s)
		return
	}
	if m.held != "" {
		h := m.held
		m.held = ""
		if al, ok := delimiterRow(s, len(splitRow(h))); ok {
			m.table, m.align = [][]string{splitRow(h)}, al
			return
		}
		m.block(h)
	}
	if m.table != nil {
		if isTableRow(s) {
			m.table = append(m.table, splitRow(s))
			return
		}
		m.endTable()
	}
	if isTableRow(s) {
		m.held = s
		return
	}
	m.block(s)
}

// endHeld draws a held line that no delimiter row followed.
func (m *markdown) endHeld() {
	if m.held != "" {
		h := m.held
		m.held = ""
		m.block(h)
	}
}

// block draws a line outside code blocks and tables.
func (m *markdown) block(s string) {
	s = expandTabs(s)
	t := strings.TrimLeft(s, " ")
	indent := len(s) - len(t)
	switch {
	case t == "":
		m.out = append(m.out, '\n')
	case indent <= 3 && m.openFence(t):
	case indent <= 3 && isRule(t):
		m.rule()
	case indent <= 3 && headingLevel(t) > 0:
		m.heading(t)
	case t[0] == '>':
		m.quote(t)
	default:
		if bullet, rest, ok := listItem(t); ok {
			pad := spaces(indent)
			m.para(rest, 0, pad, bullet, spaces(indent+cells(bullet)))
			return
		}
		m.para(t, 0, spaces(indent), "", spaces(indent))
	}
}

// openFence starts a code block when t is a fence: ``` or ~~~ (or more),
// then the language.
func (m *markdown) openFence(t string) bool {
	c := t[0]
	if c != '`' && c != '~' {
		return false
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	info := strings.TrimSpace(t[n:])
	if n < 3 || c == '`' && strings.Contains(info, "`") {
		return false
	}
	m.fence = t[:n]
	name, _, _ := strings.Cut(info, " ")
	name = strings.TrimPrefix(strings.Trim(name, "{}"), ".")
	m.hl = nil
	if m.o.color {
		m.hl = newHighlighter(name, m.o.theme)
	}
	if name != "" {
		m.out = append(m.out, "  "...)
		m.out = m.paint(m.out, stLabel, name)
		m.out = append(m.out, '\n')
	}
	return true
}

// codeLine draws one line of a code block, indented, never wrapped (code
// copied from the terminal keeps its lines).
func (m *markdown) codeLine(s string) {
	s = codeTabs(s)
	m.out = append(m.out, "    "...)
	if m.hl != nil {
		m.out = m.hl.line(m.out, s)
	} else {
		m.out = append(m.out, s...)
	}
	m.out = append(m.out, '\n')
}

// isFenceEnd reports whether s closes the fence opened by marker: the same
// character, at least as many, nothing after.
func isFenceEnd(s, marker string) bool {
	t := strings.TrimSpace(s)
	if len(s)-len(strings.TrimLeft(s, " ")) > 3 || len(t) < len(marker) {
		return false
	}
	return strings.Trim(t, marker[:1]) == ""
}

// isRule reports a thematic break: three or more of one of - * _, spaces
// between allowed.
func isRule(t string) bool {
	c := t[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case c:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

// rule draws a horizontal rule across the terminal (40 cells when its
// width is unknown).
func (m *markdown) rule() {
	w := m.o.width()
	if w <= 0 {
		w = 40
	}
	m.out = m.paint(m.out, stRule, strings.Repeat("─", w))
	m.out = append(m.out, '\n')
}

// headingLevel is the level of an ATX heading ("## x" is 2), 0 for none.
func headingLevel(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' {
		return 0
	}
	return n
}

// heading draws a heading: bold and coloured, h1 underlined too; without
// colour h1 and h2 are underlined with a rule of their width.
func (m *markdown) heading(t string) {
	level := headingLevel(t)
	text := strings.TrimSpace(t[level:])
	text = strings.TrimSpace(strings.TrimRight(text, "#")) // closing hashes
	st := stBold | stHeading
	if level == 1 {
		st |= stUnder
	}
	if level > 2 {
		st = stBold
	}
	m.para(text, st, "", "", "")
	if !m.o.color && level <= 2 {
		w := min(m.width0(stringWidth(text)), stringWidth(text))
		ch := "═"
		if level == 2 {
			ch = "─"
		}
		m.out = append(m.out, strings.Repeat(ch, w)...)
		m.out = append(m.out, '\n')
	}
}

// width0 is the terminal width, or def when unknown.
func (m *markdown) width0(def int) int {
	if w := m.o.width(); w > 0 {
		return w
	}
	return def
}

// quote draws a block-quote line: a bar per level, the text in italics.
func (m *markdown) quote(t string) {
	depth := 0
	for len(t) > 0 && t[0] == '>' {
		depth++
		t = strings.TrimPrefix(t[1:], " ")
	}
	bars := strings.Repeat("│ ", depth)
	if bullet, rest, ok := listItem(t); ok {
		m.para(rest, stQuote|stItalic, bars, bullet, bars+spaces(cells(bullet)))
		return
	}
	m.para(t, stQuote|stItalic, bars, "", bars)
}

// listItem splits a list item into its marker, as drawn, and its text.
func listItem(t string) (bullet, rest string, ok bool) {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		rest = strings.TrimLeft(t[2:], " ")
		switch {
		case strings.HasPrefix(rest, "[ ] "):
			return "☐ ", rest[4:], true
		case strings.HasPrefix(rest, "[x] "), strings.HasPrefix(rest, "[X] "):
			return "☑ ", rest[4:], true
		}
		return "• ", rest, true
	}
	n := 0
	for n < len(t) && n < 9 && isDigit(t[n]) {
		n++
	}
	if n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && t[n+1] == ' ' {
		return t[:n+1] + " ", strings.TrimLeft(t[n+2:], " "), true
	}
	return "", "", false
}

// para draws inline text wrapped to the terminal: first is drawn before
// the first row, then marker; rest before the others.
func (m *markdown) para(text string, base style, first, marker, rest string) {
	pieces := m.inline(text, base, m.pieces[:0])
	m.pieces = pieces
	head := first
	if marker != "" {
		head = first + marker
	}
	m.wrap(pieces, head, rest, m.o.width(), m.o.justify)
}

// paint appends s in style st (nothing added without colour).
func (m *markdown) paint(b []byte, st style, s string) []byte {
	if !m.o.color || st == 0 {
		return append(b, s...)
	}
	b = append(b, m.sgr(st)...)
	b = append(b, s...)
	return append(b, "\x1b[0m"...)
}

// sgr is the escape that sets st from the reset state.
func (m *markdown) sgr(st style) string {
	if s, ok := m.sgrs[st]; ok {
		return s
	}
	p := m.o.theme
	var parts []string
	add := func(bit style, code string) {
		if st&bit != 0 && code != "" {
			parts = append(parts, code)
		}
	}
	add(stBold, "1")
	add(stDim, "2")
	add(stItalic, "3")
	add(stUnder, "4")
	add(stStrike, "9")
	add(stHeading, p.heading)
	add(stQuote, p.quote)
	add(stRule, p.rule)
	add(stLabel, p.label)
	add(stLink, p.link+";4")
	add(stURL, p.url)
	add(stCode, p.code)
	s := "\x1b[" + strings.Join(parts, ";") + "m"
	m.sgrs[st] = s
	return s
}

// piece is a run of text in one style.
type piece struct {
	text string
	st   style
}

// inline parses emphasis, code spans and links of one line into pieces.
// A delimiter without its closing partner is text, as in CommonMark.
func (m *markdown) inline(s string, base style, out []piece) []piece {
	start := 0
	for i := 0; i < len(s); {
		if start < i && isMarkup(s[i]) { // the text before a possible delimiter
			out = append(out, piece{s[start:i], base})
			start = i
		}
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):

			start, i = i+1, i+2
			continue
		case c == '`':
			n := runOf(s, i, '`')
			if j := closingTicks(s, i+n, n); j >= 0 {
				out = append(out, piece{trimCodeSpan(s[i+n : j]), base | stCode})
				i = j + n
				start = i
				continue
			}
			i += n
			continue
		case c == '*' || c == '_' || c == '~':
			n := runOf(s, i, c)
			if j, bits := emphasis(s, i, n); j >= 0 {
				out = m.inline(s[i+n:j], base|bits, out)
				i = j + n
				start = i
				continue
			}
			i += n
			continue
		case c == '[' || c == '!' && i+1 < len(s) && s[i+1] == '[':
			if label, url, end, ok := link(s, i); ok {
				if c == '!' {
					out = append(out, piece{"image: ", base | stDim})
				}
				out = m.inline(label, base|stLink, out)
				if url != label {
					out = append(out, piece{" (" + url + ")", base | stURL})
				}
				i, start = end, end
				continue
			}
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 && isAutolink(s[i+1:i+j]) {
				out = append(out, piece{s[i+1 : i+j], base | stLink})
				i += j + 1
				start = i
				continue
			}
		}
		i++
	}
	if start < len(s) {
		out = append(out, piece{s[start:], base})
	}
	return out
}

// isMarkup reports the bytes inline markup starts with.
func isMarkup(c byte) bool {
	return c == '\\' || c == '`' || c == '*' || c == '_' || c == '~' || c == '[' || c == '!' || c == '<'
}

// runOf is how many c start s at i.
func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingTicks is where a run of exactly n backticks starts in s from i,
// or -1.
func closingTicks(s string, i, n int) int {
	for i < len(s) {
		k := strings.IndexByte(s[i:], '`')
		if k < 0 {
			return -1
		}
		i += k
		r := runOf(s, i, '`')
		if r == n {
			return i
		}
		i += r
	}
	return -1
}

// trimCodeSpan strips one space each side of a code span's text when both
// are there, as CommonMark does (so "“ `x` “" shows `x`).
func trimCodeSpan(s string) string {
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.TrimSpace(s) != "" {
		return s[1 : len(s)-1]
	}
	return s
}

// emphasis finds the closing run for the run of n delimiters at s[i]: it
// returns where it starts and the style it gives, or -1. An opening run is
// followed by a non-space, a closing one preceded by one; "_" does not
// open or close inside a word (snake_case stays text), "~" needs two.
func emphasis(s string, i, n int) (int, style) {
	c := s[i]
	if n > 3 || c == '~' && n != 2 || i+n >= len(s) || s[i+n] == ' ' {
		return -1, 0
	}
	if c == '_' && i > 0 && isIdent(s[i-1]) {
		return -1, 0
	}
	for j := i + n; j < len(s); {
		k := strings.IndexByte(s[j:], c)
		if k < 0 {
			return -1, 0
		}
		j += k
		r := runOf(s, j, c)
		if r == n && s[j-1] != ' ' && (c != '_' || j+r == len(s) || !isIdent(s[j+r])) && j > i+n {
			switch {
			case c == '~':
				return j, stStrike
			case n == 1:
				return j, stItalic
			case n == 2:
				return j, stBold
			}
			return j, stBold | stItalic
		}
		j += r
	}
	return -1, 0
}

// link parses [text](url) at s[i] (or ![alt](url)): its text, its URL
// (without a title) and where it ends.
func link(s string, i int) (label, url string, end int, ok bool) {
	open := i
	if s[i] == '!' {
		open++
	}
	close := strings.Index(s[open:], "](")
	if close < 0 {
		return "", "", 0, false
	}
	close += open
	stop := strings.IndexByte(s[close+2:], ')')
	if stop < 0 {
		return "", "", 0, false
	}
	label = s[open+1 : close]
	if strings.Contains(label, "]") {
		return "", "", 0, false
	}
	url, _, _ = strings.Cut(strings.TrimSpace(s[close+2:close+2+stop]), " ")
	return label, strings.Trim(url, "<>"), close + 3 + stop, true
}

// isAutolink reports the inside of <https://...> or <mailto:...>.
func isAutolink(s string) bool {
	return !strings.ContainsAny(s, " <") && (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "mailto:"))
}

// isPunct reports ASCII punctuation, which a backslash makes literal.
func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// seg is a word, or the spaces between words, with its width in cells.
type seg struct {
	text  string
	st    style
	w     int
	space bool
}

// cells is the width of s: its length when it is ASCII.
func cells(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return len(s[:i]) + wideCells(s[i:])
		}
	}
	return len(s)
}

// wideCells is cells of text with non-ASCII in it: Latin, Greek and
// Cyrillic letters take one cell without a look at the width tables.
func wideCells(s string) int {
	n := 0
	for _, r := range s {
		if r < 0x300 || r >= 0x370 && r < 0x483 || r >= 0x2010 && r < 0x2070 || r >= 0x2500 && r < 0x2600 {
			n++
			continue
		}
		n += runeWidth(r)
	}
	return n
}

// wrap lays pieces out in rows of width cells (no limit when <= 0):
// first before the first row, rest before the others, justified.
func (m *markdown) wrap(pieces []piece, first, rest string, width int, justify string) {
	segs := m.segs[:0]
	for _, p := range pieces {
		t := p.text
		for t != "" {
			k := strings.IndexByte(t, ' ')
			switch {
			case k == 0:
				n := 1
				for n < len(t) && t[n] == ' ' {
					n++
				}
				segs = append(segs, seg{text: t[:n], st: p.st, w: n, space: true})
				t = t[n:]
			case k < 0:
				segs = append(segs, seg{text: t, st: p.st, w: cells(t)})
				t = ""
			default:
				segs = append(segs, seg{text: t[:k], st: p.st, w: cells(t[:k])})
				t = t[k:]
			}
		}
	}
	m.segs = segs
	if width <= 0 || !m.pad && justify != "right" && justify != "center" && cells(first)+widthOf(segs) <= width {
		m.row(first, segs, 0, "")
		return
	}
	prefix := first
	wFirst, wRest := cells(first), cells(rest)
	segs = splitWide(segs, max(min(width-wFirst, width-wRest), 1))
	for pw := wFirst; len(segs) > 0; pw = wRest {
		avail := max(width-pw, 1)
		n := fitRow(segs, avail)
		row := trimSpaces(segs[:n])
		segs = segs[n:]
		for len(segs) > 0 && segs[0].space {
			segs = segs[1:]
		}
		m.row(prefix, row, max(avail-widthOf(row), 0), justifyFor(justify, len(segs) == 0))
		prefix = rest
	}
}

// fitRow is how many segs fit in avail cells: whole words, unless one
// word is wider than the row, which is then cut between its segs (each
// seg is no wider than a row; splitWide made sure).
func fitRow(segs []seg, avail int) int {
	used := 0
	for i, s := range segs {
		if used+s.w > avail {
			if s.space {
				return i
			}
			if k := wordStart(segs, i); k > 0 {
				return k
			}
			return max(i, 1)
		}
		used += s.w
	}
	return len(segs)
}

// splitWide cuts words wider than w cells into pieces of w cells.
func splitWide(segs []seg, w int) []seg {
	wide := false
	for _, s := range segs {
		wide = wide || s.w > w
	}
	if !wide {
		return segs
	}
	var out []seg
	for _, s := range segs {
		for s.w > w {
			head, tail := cutCells(s.text, w)
			if head == "" { // a wide character in a one-cell row
				_, n := utf8.DecodeRuneInString(tail)
				head, tail = tail[:n], tail[n:]
			}
			out = append(out, seg{text: head, st: s.st, w: cells(head)})
			s = seg{text: tail, st: s.st, w: cells(tail)}
		}
		out = append(out, s)
	}
	return out
}

// wordStart is the index of the first seg of the word segs[i] is part of.
func wordStart(segs []seg, i int) int {
	for i > 0 && !segs[i-1].space {
		i--
	}
	return i
}

// widthOf is the cells segs take.
func widthOf(segs []seg) int {
	n := 0
	for _, s := range segs {
		n += s.w
	}
	return n
}

// trimSpaces drops spaces at the end of a row.
func trimSpaces(row []seg) []seg {
	for len(row) > 0 && row[len(row)-1].space {
		row = row[:len(row)-1]
	}
	return row
}

// cutCells splits s after at most w cells, on a rune boundary.
func cutCells(s string, w int) (string, string) {
	used := 0
	for i, r := range s {
		rw := runeWidth(r)
		if used+rw > w {
			return s[:i], s[i:]
		}
		used += rw
	}
	return s, ""
}

// justifyFor is how a row is justified: JUSTIFY=full leaves a paragraph's
// last row flush left, as typesetting does.
func justifyFor(justify string, last bool) string {
	if justify == "full" && last {
		return "left"
	}
	return justify
}

// row draws one row: prefix, then segs with slack cells to spare placed
// by justify.
func (m *markdown) row(prefix string, segs []seg, slack int, justify string) {
	b := m.out
	if strings.TrimSpace(prefix) != "" {
		b = m.paint(b, stRule, prefix)
	} else {
		b = append(b, prefix...)
	}
	switch justify {
	case "right":
		b = append(b, spaces(slack)...)
	case "center":
		b = append(b, spaces(slack/2)...)
	}
	gaps := 0
	if justify == "full" {
		for _, s := range segs {
			if s.space {
				gaps++
			}
		}
	}
	cur := style(0)
	for _, s := range segs {
		if s.st != cur && m.o.color {
			if cur != 0 {
				b = append(b, "\x1b[0m"...)
			}
			if s.st != 0 {
				b = append(b, m.sgr(s.st)...)
			}
			cur = s.st
		}
		b = append(b, s.text...)
		if s.space && gaps > 0 {
			extra := slack / gaps
			if slack%gaps > 0 {
				extra++
			}
			b = append(b, spaces(extra)...)
			slack -= extra
			gaps--
		}
	}
	if cur != 0 {
		b = append(b, "\x1b[0m"...)
	}
	if m.pad && justify != "right" {
		b = append(b, spaces(slack-slack/2*boolInt(justify == "center"))...)
	}
	m.out = append(b, '\n')
}

// isTableRow reports a line that could be a table row: it starts with |.
func isTableRow(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) > 1 && t[0] == '|'
}

// splitRow splits a table row into its cells' text, honouring \|.
func splitRow(s string) []string {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = t[:len(t)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, strings.TrimSpace(strings.ReplaceAll(t[start:i], `\|`, "|")))
			start = i + 1
		}
	}
	return append(cells, strings.TrimSpace(strings.ReplaceAll(t[start:], `\|`, "|")))
}

// delimiterRow reports the |---|:--:| row under a table's header of n
// columns, and the columns' alignment.
func delimiterRow(s string, n int) ([]byte, bool) {
	if !isTableRow(s) {
		return nil, false
	}
	cells := splitRow(s)
	if len(cells) != n {
		return nil, false
	}
	al := make([]byte, n)
	for i, c := range cells {
		body := strings.Trim(c, ":")
		if len(body) == 0 || strings.Trim(body, "-") != "" {
			return nil, false
		}
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			al[i] = 'c'
		case strings.HasSuffix(c, ":"):
			al[i] = 'r'
		default:
			al[i] = 'l'
		}
	}
	return al, true
}

// endTable lays the open table out to the terminal's width and draws it:
// columns as wide as their widest cell when they fit, else shared out and
// the cells wrapped; the header bold, borders drawn with box characters.
func (m *markdown) endTable() {
	rows := m.table
	if rows == nil {
		return
	}
	m.table = nil
	n := len(rows[0])
	cellPieces := make([][][]piece, len(rows))
	natural := make([]int, n)
	for r, row := range rows {
		cellPieces[r] = make([][]piece, n)
		for c := range n {
			text := ""
			if c < len(row) {
				text = row[c]
			}
			st := style(0)
			if r == 0 {
				st = stBold
			}
			cellPieces[r][c] = m.inline(text, st, nil)
			natural[c] = max(natural[c], piecesWidth(cellPieces[r][c]), 1)
		}
	}
	widths := fitColumns(natural, m.o.width())
	m.border("┌", "┬", "┐", widths)
	for r := range rows {
		m.tableRow(cellPieces[r], widths)
		if r == 0 && len(rows) > 1 {
			m.border("├", "┼", "┤", widths)
		}
	}
	m.border("└", "┴", "┘", widths)
}

// piecesWidth is the cells pieces take on one row.
func piecesWidth(ps []piece) int {
	n := 0
	for _, p := range ps {
		n += cells(p.text)
	}
	return n
}

// fitColumns shares width (<= 0: unlimited) out among columns that want
// natural cells each: narrow columns keep their width, wide ones split the
// rest evenly. Borders take 3 cells a column and one more.
func fitColumns(natural []int, width int) []int {
	n := len(natural)
	out := append([]int(nil), natural...)
	avail := width - 3*n - 1
	if width <= 0 || widthSum(natural) <= avail {
		return out
	}
	fixed := make([]bool, n)
	for left := n; left > 0; {
		share := max(avail/left, 1)
		changed := false
		for i, w := range natural {
			if !fixed[i] && w <= share {
				fixed[i], out[i], changed = true, w, true
				avail -= w
				left--
			}
		}
		if !changed {
			extra := max(avail-share*left, 0)
			for i := range natural {
				if !fixed[i] {
					out[i] = share
					if extra > 0 {
						out[i]++
						extra--
					}
				}
			}
			break
		}
	}
	return out
}

// widthSum adds widths up.
func widthSum(ws []int) int {
	n := 0
	for _, w := range ws {
		n += w
	}
	return n
}

// border draws a table's horizontal border.
func (m *markdown) border(left, mid, right string, widths []int) {
	if m.o.color {
		m.out = append(m.out, m.sgr(stRule)...)
	}
	m.out = append(m.out, left...)
	for i, w := range widths {
		if i > 0 {
			m.out = append(m.out, mid...)
		}
		for range w + 2 {
			m.out = append(m.out, "─"...)
		}
	}
	m.out = append(m.out, right...)
	if m.o.color {
		m.out = append(m.out, "\x1b[0m"...)
	}
	m.out = append(m.out, '\n')
}

// tableRow draws one table row, its cells wrapped to their columns.
func (m *markdown) tableRow(cellPieces [][]piece, widths []int) {
	m.cell = m.cell[:0]
	m.spans = m.spans[:0]
	first := make([]int, len(widths)+1) // cell c's rows are spans[first[c]:first[c+1]]
	height := 1
	for c, ps := range cellPieces {
		first[c] = len(m.spans)
		m.cellLines(ps, widths[c], m.align[c])
		height = max(height, len(m.spans)-first[c])
	}
	first[len(widths)] = len(m.spans)
	bar := m.paint(m.bar[:0], stRule, "│")
	m.bar = bar
	for r := range height {
		m.out = append(m.out, bar...)
		for c, w := range widths {
			m.out = append(m.out, ' ')
			if k := first[c] + r; k < first[c+1] {
				m.out = append(m.out, m.cell[m.spans[k][0]:m.spans[k][1]]...)
			} else {
				m.out = append(m.out, spaces(w)...)
			}
			m.out = append(m.out, ' ')
			m.out = append(m.out, bar...)
		}
		m.out = append(m.out, '\n')
	}
}

// cellLines wraps a cell's pieces to w cells, each row padded to w, into
// m.cell, and records each row's span of it.
func (m *markdown) cellLines(ps []piece, w int, align byte) {
	out := m.out
	m.out = m.cell
	mark := len(m.out)
	justify := "left"
	switch align {
	case 'c':
		justify = "center"
	case 'r':
		justify = "right"
	}
	m.pad = true
	m.wrap(ps, "", "", w, justify)
	m.pad = false
	if len(m.out) == mark {
		m.out = append(m.out, spaces(w)...)
		m.out = append(m.out, '\n')
	}
	for i := mark; i < len(m.out); {
		j := i + bytes.IndexByte(m.out[i:], '\n')
		m.spans = append(m.spans, [2]int{i, j})
		i = j + 1
	}
	m.cell, m.out = m.out, out
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// codeTabs expands tabs in code to stops of 4 cells: Go's tabs at 8
// would push code off a narrow terminal.
func codeTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
			continue
		}
		b.WriteRune(r)
		col += runeWidth(r)
	}
	return b.String()
}

// blanks is spaces' source: most indents are shorter.
const blanks = "                                                                "

// spaces is n spaces, without allocating for the usual indents.
func spaces(n int) string {
	if n <= len(blanks) {
		return blanks[:n]
	}
	return strings.Repeat(" ", n)
}

// answerWriter is where answers are written: a Markdown renderer on a
// terminal (unless PRETTY=false), else w itself, so piped output is the
// model's text byte for byte. NO_COLOR or TERM=dumb draw it without any
// escape sequence.
func answerWriter(cfg *config, w io.Writer, terminal bool, env func(string) string, width func() int) io.Writer {
	if !terminal || !cfg.Pretty {
		return w
	}
	return newMarkdown(w, mdOptions{
		color:   env("NO_COLOR") == "" && env("TERM") != "dumb",
		width:   width,
		theme:   palettes[cfg.CodeTheme],
		justify: cfg.Justify,
		live:    true,
	})
}

// terminalWidth reads the width of the terminal behind w when asked, so a
// resized window wraps the next line to its new width; 0 when unknown.
func terminalWidth(w io.Writer) func() int {
	return func() int {
		f, ok := w.(interface{ Fd() uintptr })
		if !ok {
			return 0
		}
		cols, _, err := term.GetSize(int(f.Fd()))
		if err != nil {
			return 0
		}
		return cols
	}
}
