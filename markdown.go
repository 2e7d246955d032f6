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
	// height is the terminal's height now; <= 0 or nil: unknown, taken as
	// heightUnknown. A live preview never takes more rows than it has.
	height func() int
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
	slab   slab         // the text of the lines received lately
	fence  string       // the open code fence's marker, "" outside one
	hl     *highlighter // the open code block's colours; nil: none
	code   highlighter  // what hl points to, kept for the next block
	held   string       // a line that may head a table, waiting for the next
	cols   int          // the open table's columns, 0: none
	tcells []string     // its cells, row by row (header first), cols a row
	align  []byte       // its columns' alignment: 'l', 'c' or 'r'
	out    []byte       // what this Write draws
	segs   []seg        // scratch for wrapping
	sgrs   map[style]string
	sgrHot [64]struct { // in front of sgrs: row looks one up at every change of style
		st style
		s  string
	}
	pad    bool    // rows are padded to the width (table cells)
	shown  int     // bytes of part shown as a live preview
	pieces []piece // scratch for inline parsing
	cut    []piece // scratch: pieces without their trailing spaces
	cell   []byte  // scratch: a table row's cells, drawn
	spans  [][2]int
	bar    []byte // a table's column border, drawn
	// scratch for laying a table out, kept for the next table: every
	// cell's pieces in one slice, where each cell's end, one row's cells,
	// where each cell's wrapped rows start
	tpieces []piece
	tends   []int
	trow    [][]piece
	tfirst  []int
	twidth  []int // the columns' natural widths, then their widths
	// where the live preview ends: rows below its first and the column on
	// the last (the width at a row's end: the next character goes on the
	// next row), laid out at width pw
	prow, pcol, pw int
	full           bool // the preview filled the screen: it stays as it is until its line ends
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
		m.line(m.slab.bytes(m.part, p[:i]))
		m.part = m.part[:0]
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
// A preview stops growing before it takes more rows than the screen has:
// rows scrolled off its top are out of unpreview's reach, and the drawn
// line would follow a stale copy of them.
func (m *markdown) preview() {
	if m.full || m.held != "" || m.cols > 0 || len(m.part) == m.shown {
		return
	}
	w := m.o.width()
	if w <= 0 || m.shown > 0 && w != m.pw { // resized: unpreview works out how it lies now
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
	indent := ""
	if m.shown == 0 {
		m.prow, m.pcol, m.pw = 0, 0, w
		if m.fence != "" {
			indent = "    "
		}
	}
	chunk := m.part[m.shown:end]
	plain := printable(chunk) // as it is: nothing to replace, a cell a byte
	var text string
	row, col := layCells(m.prow, m.pcol, w, len(indent))
	if plain {
		row, col = layCells(row, col, w, len(chunk))
	} else {
		text = previewText(chunk)
		row, col = lay(row, col, w, text)
	}
	if row > 0 && row >= m.height() { // a first row always fits: no need to ask the terminal
		m.full = true
		return
	}
	m.out = append(m.out, indent...)
	if plain {
		m.out = append(m.out, chunk...)
	} else {
		m.out = append(m.out, text...)
	}
	m.prow, m.pcol = row, col
	m.shown = end
}

// previewText is how a preview shows b: its control bytes gone, a tab a space.
func previewText(b []byte) string {
	return sanitize(strings.ReplaceAll(string(b), "\t", " "))
}

// lay is where the end of a preview moves to from row, col (rows below
// its first, the column on the last) on a terminal w cells wide when text
// is drawn there. A character the row has no room for goes to the next,
// as a terminal puts it: a wide one can leave a row a cell short.
func lay(row, col, w int, text string) (int, int) {
	for _, r := range text {
		switch cw := runeWidth(r); {
		case cw == 2 && col+2 > w:
			row, col = row+1, 2
		case cw > 0:
			row, col = layCells(row, col, w, cw)
		}
	}
	return row, col
}

// layCells is lay for n one-cell characters.
func layCells(row, col, w, n int) (int, int) {
	col += n
	if col > w {
		k := (col - 1) / w // the rows it runs on to
		row, col = row+k, col-k*w
	}
	return row, col
}

// heightUnknown is the height taken for a terminal that does not say: the
// smallest in common use.
const heightUnknown = 24

// height is the terminal's height now.
func (m *markdown) height() int {
	if m.o.height != nil {
		if h := m.o.height(); h > 0 {
			return h
		}
	}
	return heightUnknown
}

// printable reports whether b is all printable ASCII, 0x20 to 0x7e.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
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
	m.full = false
	if m.shown == 0 {
		return
	}
	m.out = append(m.out, '\r')
	up := m.prow
	if w := m.o.width(); w > 0 && w != m.pw {
		// Resized: the terminal rewrapped the preview to its new width
		// (tmux, VTE, iTerm2 do), as the line editor takes it to.
		indent := ""
		if m.fence != "" {
			indent = "    "
		}
		up, _ = lay(0, 0, w, indent+previewText(m.part[:m.shown]))
	}
	if up > 0 {
		m.out = append(m.out, "\x1b["...)
		m.out = strconv.AppendInt(m.out, int64(up), 10)
		m.out = append(m.out, 'A')
	}
	m.out = append(m.out, "\x1b[J"...)
	m.shown, m.prow, m.pcol = 0, 0, 0
}

// flushAnswer ends the answer: its last line without a newline, a held
// line, an open table and an unclosed code fence, so the next answer
// starts fresh.
func (m *markdown) flushAnswer() {
	if len(m.part) > 0 {
		m.line(m.slab.bytes(m.part, nil))
		m.part = m.part[:0]
	}
	m.endHeld()
	m.endTable()
	m.fence, m.hl = "", nil
	m.emit()
}

// slab holds strings the renderer makes, the text of each line above all,
// one after another in buffers of slabSize bytes: each string is a slice
// of one, so lines cost an allocation per slabSize bytes, not one each. A
// strings.Builder never changes the bytes it has handed out (a write past
// its capacity goes to a new buffer), so a line held for a table stays as
// it was; a buffer lives on while a string still points into it.
type slab struct{ b strings.Builder }

// slabSize is the size of a slab's buffers: about a hundred lines.
const slabSize = 4096

// room makes room for n more bytes and returns where they will start.
func (s *slab) room(n int) int {
	if s.b.Cap()-s.b.Len() < n {
		s.b.Reset()
		s.b.Grow(max(n, slabSize))
	}
	return s.b.Len()
}

// bytes is a and b as one string.
func (s *slab) bytes(a, b []byte) string {
	at := s.room(len(a) + len(b))
	s.b.Write(a)
	s.b.Write(b)
	return s.b.String()[at:]
}

// join is a + b.
func (s *slab) join(a, b string) string {
	at := s.room(len(a) + len(b))
	s.b.WriteString(a)
	s.b.WriteString(b)
	return s.b.String()[at:]
}

// tabs is tabsTo(t, stop), made in the slab.
func (s *slab) tabs(t string, stop int) string {
	if strings.IndexByte(t, '\t') < 0 {
		return t
	}
	at := s.room(tabbedLen(t, stop))
	writeTabsTo(&s.b, t, stop)
	return s.b.String()[at:]
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
	if n := len(raw); n > 0 && raw[n-1] == '\r' {
		raw = raw[:n-1]
	}
	s := safeLine(raw)
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
		if m.openTable(h, s) {
			return
		}
		m.block(h)
	}
	if m.cols > 0 {
		if isTableRow(s) {
			m.tcells = appendRow(m.tcells, s, m.cols)
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

// safeLine is sanitize(s) without its copies for the usual line, text
// that needs no change: non-ASCII letters are checked here, character by
// character, instead of sending the line down sanitize's copying path.
func safeLine(s string) string {
	for i := 0; i < len(s); {
		if i+8 <= len(s) && printable8(word8(s, i)) { // prose is mostly printable ASCII
			i += 8
			continue
		}
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if c < utf8.RuneSelf || r == utf8.RuneError && n == 1 || isControl(r) {
			return sanitize(s)
		}
		i += n
	}
	return s
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
	s = m.slab.tabs(s, 8)
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
		m.hl = m.code.start(name, m.o.theme)
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
	s = m.slab.tabs(s, 4) // Go's tabs at 8 would push code off a narrow terminal
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
	if c, ok := firstByte(s); ok && c != marker[0] { // a line of code, told without trimming it
		return false
	}
	t := strings.TrimSpace(s)
	if len(s)-len(strings.TrimLeft(s, " ")) > 3 || len(t) < len(marker) {
		return false
	}
	return strings.Trim(t, marker[:1]) == ""
}

// firstByte is the first byte of s after its leading spaces, ok when it
// is ASCII and no space of any kind, so the first byte strings.TrimSpace(s)
// would leave too.
func firstByte(s string) (byte, bool) {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i == len(s) {
		return 0, false
	}
	c := s[i]
	return c, c < utf8.RuneSelf && c > ' '
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
	m.out = m.restyle(m.out, 0, stRule)
	m.out = appendRule(m.out, w)
	m.out = append(m.restyle(m.out, stRule, 0), '\n')
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
		head = m.slab.join(first, marker)
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

// sgr is the escape that sets st from the reset state, made once per
// style and kept.
func (m *markdown) sgr(st style) string {
	// A multiplicative hash: the styles one answer uses (bold, a link,
	// bold in a heading, italic in a quote...) get slots of their own,
	// where folding the bits put bold, links and headings in one.
	hot := &m.sgrHot[uint32(st)*0x9e3779b1>>26]
	if hot.st == st && hot.s != "" {
		return hot.s
	}
	s, ok := m.sgrs[st]
	if !ok {
		s = m.makeSGR(st)
		m.sgrs[st] = s
	}
	hot.st, hot.s = st, s
	return s
}

// makeSGR builds the escape that sets st from the reset state.
func (m *markdown) makeSGR(st style) string {
	p := m.o.theme
	b := make([]byte, 0, 32)
	b = append(b, "\x1b["...)
	for _, a := range [...]struct {
		bit  style
		code string
	}{{stBold, "1"}, {stDim, "2"}, {stItalic, "3"}, {stUnder, "4"}, {stStrike, "9"}, {stHeading, p.heading}, {stQuote, p.quote},
		{stRule, p.rule}, {stLabel, p.label}, {stLink, p.link + ";4"}, {stURL, p.url}, {stCode, p.code}} {
		if st&a.bit != 0 && a.code != "" {
			if len(b) > len("\x1b[") {
				b = append(b, ';')
			}
			b = append(b, a.code...)
		}
	}
	return string(append(b, 'm'))
}

// rules is appendRule's source: 32 box-drawing horizontals.
const rules = "────────────────────────────────"

// appendRule appends n horizontal lines (─), many at a time.
func appendRule(b []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(rules)/len("─"))
		b = append(b, rules[:k*len("─")]...)
		n -= k
	}
	return b
}

// renderOptions are the settings the renderer reads (PRETTY, CODE_THEME,
// JUSTIFY), taken from the configuration by its reader (config.render),
// so the renderer itself never reads config.
type renderOptions struct {
	pretty         bool
	theme, justify string
}

// answerWriter is where answers are written: a Markdown renderer on a
// terminal (unless PRETTY=false), else w itself, so piped output is the
// model's text byte for byte. size is the terminal's width and height
// now. NO_COLOR and TERM=dumb draw without any escape sequence: no
// colour, and no live preview, which moves the cursor and erases (ESC[J).
func answerWriter(o renderOptions, w io.Writer, terminal bool, env func(string) string, size func() (int, int)) io.Writer {
	if !terminal || !o.pretty {
		return w
	}
	plain := env("TERM") == "dumb" || env("NO_COLOR") != ""
	return newMarkdown(w, mdOptions{
		color:   !plain,
		width:   func() int { cols, _ := size(); return cols },
		height:  func() int { _, rows := size(); return rows },
		theme:   palettes[o.theme],
		justify: o.justify,
		live:    !plain,
	})
}

// terminalWidth reads the width of the terminal behind w when asked, so a
// resized window wraps the next line to its new width; 0 when unknown.
func terminalWidth(w io.Writer) func() int {
	size := terminalSize(w)
	return func() int {
		cols, _ := size()
		return cols
	}
}

// terminalSize reads the width and height of the terminal behind w when
// asked; 0, 0 when unknown.
func terminalSize(w io.Writer) func() (int, int) {
	return func() (int, int) {
		f, ok := w.(interface{ Fd() uintptr })
		if !ok {
			return 0, 0
		}
		cols, rows, err := term.GetSize(int(f.Fd()))
		if err != nil {
			return 0, 0
		}
		return cols, rows
	}
}
