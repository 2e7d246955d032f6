package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// pageLimit is the largest limit a marker's paging call suggests: well
// below fs_read_file's own cap, so a page is not truncated again. Within
// it, the suggestion fits the room left in the request (clip.paging).
const pageLimit = 12000

// capFor is the character cap for the result of the built-in called
// tool, from its definition (tool.cap): the per-tool caps of the
// specification scale with TOOL_OUTPUT_MAX_CHARS (0 = no cap).
func capFor(tool string, global int) int {
	t, _ := builtinNamed(tool)
	return t.capOf(global)
}

// clip is a tool result as the model sees it: the head and tail of the full
// text, which is total characters long and (when path is set) on disk. It
// is read through its methods; a changed clip is a new one, as messages
// share them.
type clip struct {
	head, tail string
	total      int    // characters in the full text
	cap        int    // the tool's cap (capFor) the model sees it within; 0: whole
	path       string // spill file, "" when not written
	spillErr   error  // why the spill file could not be written
	errLines   []errLine
	omitted    bool   // head+tail do not cover the text
	why        string // why the cap is below the tool's own (budgetCapNote), for the marker
	page       int    // the limit the marker's paging call suggests; 0: pageLimit
	// label heads a text result (a command and its exit code) and is not
	// part of its text: the spill file holds the text alone, as printed,
	// and holds says so in the marker. A labelled text is cut at line
	// breaks where its lines are short.
	label, holds string
	lines        int   // lines of the full text (a JSON text's \n escapes count as breaks)
	diskBytes    int64 // >0: the spill file was cut at this many bytes (TOOL_OUTPUT_SPILL_MAX_BYTES)
	// sent is the text the model was sent when the agent cut it below
	// modelText (capped to the room of its round); "" when it was not.
	sent string
}

// wholeClip is a result whose full text is held: text, total characters.
func wholeClip(text string, total int) *clip { return &clip{head: text, tail: text, total: total} }

// modelText is the text the model was given: within the tool's cap, or
// what the agent sent after capping it further (asSent).
func (c *clip) modelText() string {
	if c.sent != "" {
		return c.sent
	}
	return c.text(c.cap)
}

// asSent is c as the model was sent it: text, when the agent cut the
// result after the tool ran. c itself is left as it is (messages share it).
func (c *clip) asSent(text string) *clip {
	if text == c.text(c.cap) {
		return c
	}
	n := *c
	n.sent = text
	return &n
}

// lineCount is how many lines the full text has (0: it is empty).
func (c *clip) lineCount() int { return c.lines }

// chars is the full text's length in characters.
func (c *clip) chars() int { return c.total }

// whole reports whether the kept head is the full text (nothing was cut).
func (c *clip) whole() bool { return !c.omitted }

// headText is the kept head: the full text when whole.
func (c *clip) headText() string { return c.head }

// onDisk is the spill file holding the full text, "" when none.
func (c *clip) onDisk() string { return c.path }

// spillError is why the full text could not be written to disk; nil when
// it was, or when it never had to be.
func (c *clip) spillError() error { return c.spillErr }

// errLineCount is how many error-like lines of the omitted part it lists.
func (c *clip) errLineCount() int { return len(c.errLines) }

// noting is c with why added to its marker (why its cap is lower).
func (c *clip) noting(why string) *clip {
	n := *c
	n.why = why
	return &n
}

// paging is c with its marker suggesting pages of n characters: what fits
// the room left in the request (mask.go's pageChars).
func (c *clip) paging(n int) *clip {
	p := *c
	p.page = n
	return &p
}

// pageSize is the limit c's marker suggests.
func (c *clip) pageSize() int {
	if c.page > 0 {
		return min(c.page, pageLimit)
	}
	return pageLimit
}

// withSpill is c with its full text at path, or not saved for err.
func (c *clip) withSpill(path string, err error) *clip {
	n := *c
	n.path, n.spillErr = path, err
	return &n
}

// needsSpill reports whether c holds a whole text not yet on disk, which
// must be written there before it is cut, and was not tried before.
func (c *clip) needsSpill() bool { return !c.omitted && c.path == "" && c.spillErr == nil }

// spilled is c with its (whole) text written to a file open creates; a
// spill that fails part-way is removed, so no partial file passes for the
// whole, and the marker then says why.
func (c *clip) spilled(open func() (io.WriteCloser, string, error)) *clip {
	f, path, err := open()
	if err == nil {
		_, err = io.WriteString(f, c.head)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			err = discardPartial(path, err)
		}
	}
	if err != nil {
		return c.withSpill("", err)
	}
	return c.withSpill(path, nil)
}

// text renders the model-visible text within max characters (0 = the
// whole head and tail as kept): the label, then the text or its head and
// tail around the marker. A smaller max gives a shorter head and tail of
// the same full text, so a result can be shrunk again later.
func (c *clip) text(max int) string {
	if c.label == "" {
		return c.body(max)
	}
	if max > 0 {
		max = max - utf8.RuneCountInString(c.label)
		if max <= 0 {
			return firstRunes(c.label, max+utf8.RuneCountInString(c.label))
		}
	}
	return c.label + readableText(c.body(max))
}

// body renders the text without its label within max characters.
func (c *clip) body(max int) string {
	if !c.omitted {
		if max <= 0 || c.total <= max {
			return c.head
		}
	}
	if max <= 0 {
		max = utf8.RuneCountInString(c.head) + utf8.RuneCountInString(c.tail) + 2000
	}
	// Reserve room for the widest marker this clip can produce: the real
	// numbers are never wider, and at most errLinesShown lines are listed.
	reserve := utf8.RuneCountInString(c.marker(c.total, c.total, nil))
	withLines := len(c.errLines) > 0
	if withLines && max-reserve-errLinesReserve >= max/2 {
		reserve += errLinesReserve
	} else {
		withLines = false
	}
	room := max - reserve
	if room < 0 {
		return firstRunes(c.marker(0, c.total, nil), max)
	}
	h := min(room/2, utf8.RuneCountInString(c.head))
	t := min(room-h, utf8.RuneCountInString(c.tail))
	if c.label != "" {
		h, t = lineCut(c.head, h, t, c.tail)
	}
	var lines []string
	if withLines {
		lines = linesText(within(c.errLines, h, c.total-t))
	}
	mark := c.marker(h, c.total-h-t, lines)
	return firstRunes(c.head, h) + mark + lastRunes(c.tail, t)
}

// lineSnap is how far, in bytes, a cut moves back (the head's end) or on
// (the tail's start) to fall on a line break: lines shorter than this are
// shown whole or not at all; a longer one is cut where the room ends.
const lineSnap = 400

// lineCut moves the head's end (h characters of head) back and the tail's
// start (the last t characters of tail) on to line breaks within lineSnap,
// and returns the new lengths.
func lineCut(head string, h, t int, tail string) (int, int) {
	hs := firstRunes(head, h)
	if len(hs) < len(head) && head[len(hs)] != '\n' && !strings.HasSuffix(hs, "\n") {
		if i := strings.LastIndexByte(hs, '\n'); i >= 0 && len(hs)-1-i <= lineSnap {
			h -= utf8.RuneCountInString(hs[i+1:])
		}
	}
	ts := lastRunes(tail, t)
	if before := tail[:len(tail)-len(ts)]; before != "" && !strings.HasSuffix(before, "\n") {
		if i := strings.IndexByte(ts, '\n'); i >= 0 && i < lineSnap {
			t -= utf8.RuneCountInString(ts[:i+1])
		}
	}
	return h, t
}

// readableText is s as valid UTF-8 for the model: each byte that is not
// UTF-8, and each NUL (which some providers refuse in a request), becomes
// one U+FFFD, so character counts stay the same and offsets into the
// spill file still hold. Other control characters (a colour escape) stay:
// they are what the command printed, and screens sanitise their own copy.
func readableText(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == 0 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 0 {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

// marker is the note that replaces the omitted middle.
func (c *clip) marker(offset, omitted int, lines []string) string {
	var b strings.Builder
	b.WriteString(omittedHead(omitted, c.total))
	switch {
	case c.path != "":
		b.WriteString(fullOutputAt(c.path))
		if c.holds != "" {
			b.WriteString(" (" + c.holds + ")")
		}
		if c.diskBytes > 0 {
			fmt.Fprintf(&b, "; the output was cut on disk too: the file holds only its first %d bytes (TOOL_OUTPUT_SPILL_MAX_BYTES)", c.diskBytes)
		}
		b.WriteString("\n" + readMoreCall([]string{c.path}, offset, c.pageSize()))
	case c.spillErr != nil:
		fmt.Fprintf(&b, " the full output could not be saved: %s", c.spillErr)
	default:
		b.WriteString(" the full output was not kept")
	}
	if len(lines) > 0 {
		b.WriteString("\nerror-like lines in the omitted part:")
		for _, l := range lines {
			b.WriteString("\n  " + l)
		}
	}
	if c.why != "" {
		b.WriteString("\n" + c.why)
	}
	b.WriteString("]\n")
	return b.String()
}

// clipper receives a tool result's text as it is produced and keeps
// memory bounded by the cap: the head, a ring of the tail, and, once the
// text outgrows the cap, everything streamed to the spill file, itself
// cut at spillMax bytes. A character split between two Writes is held
// until the rest comes, so the file gets every byte as it came.
type clipper struct {
	cap      int
	buf      []byte // everything until the cap is passed; then the head
	tail     ring
	total    int
	spilled  bool
	open     func() (io.WriteCloser, string, error)
	file     io.WriteCloser
	path     string
	spillErr error
	errs     errScan
	red      *redactWriter // replaces secrets before anything is kept; nil: none
	redactor *redactor     // the same, for a label
	carry    []byte        // the start of a character split by a Write
	breaks   int           // line breaks: newline bytes
	escaped  int           // line breaks as the \n escapes of a JSON text
	last     byte          // the last byte taken
	spillMax int64         // bytes the spill file may take (0: no cap)
	written  int64         // bytes written to the spill file
	diskCut  bool          // the spill file was cut at spillMax
	header   string        // a text result's header (labeler)
	holds    string        // what its spill file holds
}

// defaultSpillMax is TOOL_OUTPUT_SPILL_MAX_BYTES's default: 64 MiB on disk
// for one result, so a command that never stops printing (cat /dev/zero)
// cannot fill the disk before its timeout.
const defaultSpillMax = 64 << 20

// newClipper starts a result with the given cap (0 = unlimited); open
// creates the spill file on first need, which takes at most
// defaultSpillMax bytes (spillingAtMost changes it).
func newClipper(cap int, open func() (io.WriteCloser, string, error)) *clipper {
	return &clipper{cap: cap, open: open, tail: ring{buf: make([]byte, 0, 4*cap+4)}, spillMax: defaultSpillMax}
}

// spillingAtMost caps the spill file at n bytes (0: no cap).
func (c *clipper) spillingAtMost(n int64) *clipper {
	c.spillMax = n
	return c
}

// redacting makes c replace r's secrets before the text is kept, shown or
// spilled; a secret split across two Writes is replaced too.
func (c *clipper) redacting(r *redactor) *clipper {
	if !r.empty() {
		c.red = &redactWriter{w: clipTaker{c}, r: r}
		c.redactor = r
	}
	return c
}

// label is labeler's: header heads the text for the model, and the marker
// says the spill file holds what holds says (the text without the header).
func (c *clipper) label(header, holds string) {
	if c.redactor != nil {
		header = c.redactor.text(header)
	}
	c.header, c.holds = header, holds
}

// labeler is a result writer that takes a text result's header apart from
// its text: a tool writing plain text (a command's output, a page's text)
// gives it its header when done, so the text itself can be spilled as it
// came and the header still reaches the model.
type labeler interface {
	label(header, holds string)
}

// clipTaker is the clipper below its redaction.
type clipTaker struct{ c *clipper }

// Write keeps p.
func (t clipTaker) Write(p []byte) (int, error) { return t.c.take(p) }

// Write takes the next part of the result.
func (c *clipper) Write(p []byte) (int, error) {
	n := len(p)
	if len(c.carry) > 0 {
		p = append(c.carry, p...)
		c.carry = nil
	}
	if k := splitRune(p); k > 0 {
		c.carry = append([]byte(nil), p[len(p)-k:]...)
		p = p[:len(p)-k]
	}
	if c.red != nil {
		c.red.Write(p)
	} else {
		c.take(p)
	}
	return n, nil
}

// splitRune is how many bytes at the end of p begin a character whose
// rest has not come yet (0 when p ends on a whole one or on bytes that are
// not UTF-8 at all).
func splitRune(p []byte) int {
	for k := 1; k <= 3 && k <= len(p); k++ {
		b := p[len(p)-k]
		if utf8.RuneStart(b) {
			if b >= 0xC0 && !utf8.FullRune(p[len(p)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// take keeps p, the next part of the result after redaction.
func (c *clipper) take(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := utf8.RuneCount(p)
	c.breaks += bytes.Count(p, []byte{'\n'})
	c.escaped += bytes.Count(p, []byte(`\n`))
	c.last = p[len(p)-1]
	if !c.spilled {
		c.buf = append(c.buf, p...)
		c.total += n
		if c.cap > 0 && c.total > c.cap {
			c.startSpill()
		}
		return len(p), nil
	}
	c.errs.scan(p, c.total)
	c.total += n
	c.tail.write(p)
	c.writeFile(p)
	return len(p), nil
}

// startSpill moves from buffering to streaming once the cap is passed.
func (c *clipper) startSpill() {
	c.spilled = true
	all := c.buf
	c.errs.from = c.cap/2 - 2000 // the head never reaches past cap/2
	c.errs.scan(all, 0)
	c.tail.write(all)
	if c.open != nil {
		c.file, c.path, c.spillErr = c.open()
	} else {
		c.spillErr = errors.New("no spill directory")
	}
	c.writeFile(all)
	// Keep only the head: the first cap characters are the most it can need.
	cut := len(firstRunes(string(all), c.cap))
	c.buf = append([]byte(nil), all[:cut]...)
}

// writeFile appends p to the spill file, up to spillMax bytes (cut
// before a character that would pass it); a failure stops spilling,
// removes the partial file and is kept for the marker.
func (c *clipper) writeFile(p []byte) {
	if c.file == nil || c.diskCut {
		return
	}
	if c.spillMax > 0 && c.written+int64(len(p)) > c.spillMax {
		k := int(c.spillMax - c.written)
		for k > 0 && k < len(p) && !utf8.RuneStart(p[k]) {
			k--
		}
		p, c.diskCut = p[:k], true
	}
	c.written += int64(len(p))
	if _, err := c.file.Write(p); err != nil {
		c.file.Close()
		c.spillErr = discardPartial(c.path, fmt.Errorf("writing %s: %w", c.path, err))
		c.file, c.path = nil, ""
	}
}

// discardPartial removes a spill file whose writing failed part-way (a full
// disk), so it is never taken for the whole output; if it cannot be removed
// it is renamed to .partial. The error returned says which.
func discardPartial(path string, why error) error {
	err := os.Remove(path)
	switch {
	case err == nil || errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w; the partial file was removed", why)
	case os.Rename(path, path+".partial") == nil:
		return fmt.Errorf("%w; the partial file was renamed to %s.partial", why, path)
	}
	return fmt.Errorf("%w; the partial file %s could not be removed (%v): it is incomplete", why, path, err)
}

// finish closes the spill file and returns the clip.
func (c *clipper) finish() *clip {
	if len(c.carry) > 0 { // a character that never got its rest
		p := c.carry
		c.carry = nil
		if c.red != nil {
			c.red.Write(p)
		} else {
			c.take(p)
		}
	}
	if c.red != nil {
		c.red.Close()
		c.red = nil
	}
	if !c.spilled {
		s := string(c.buf)
		return &clip{head: s, tail: s, total: c.total, cap: c.cap, label: c.header, holds: c.holds, lines: c.lineCount()}
	}
	if c.file != nil {
		if err := c.file.Close(); err != nil {
			c.spillErr = discardPartial(c.path, fmt.Errorf("closing %s: %w", c.path, err))
			c.path = ""
		}
	}
	cl := &clip{head: string(c.buf), tail: c.tail.lastRunes(c.cap), total: c.total, cap: c.cap, path: c.path,
		spillErr: c.spillErr, omitted: true, errLines: append(c.errs.first, c.errs.last...),
		label: c.header, holds: c.holds, lines: c.lineCount()}
	if c.diskCut && c.path != "" {
		cl.diskBytes = c.written
	}
	return cl
}

// lineCount is the lines of the text taken: a text result's newline
// bytes, or for JSON text its \n escapes as well, as a person reads it.
func (c *clipper) lineCount() int {
	if c.total == 0 {
		return 0
	}
	n := c.breaks
	if c.header == "" {
		n += c.escaped
	}
	if c.last != '\n' {
		n++
	}
	return n
}

// truncate clips a whole result held in memory (no spill file).
func truncate(s string, max int) *clip {
	c := newClipper(max, nil)
	c.Write([]byte(s))
	return c.finish()
}

// ring keeps the last cap(buf) bytes written.
type ring struct {
	buf  []byte
	next int
	full bool
}

// write appends p, keeping the last cap(buf) bytes.
func (r *ring) write(p []byte) {
	size := cap(r.buf)
	if size == 0 {
		return
	}
	if len(p) >= size {
		r.buf = append(r.buf[:0], p[len(p)-size:]...)
		r.next, r.full = 0, true
		return
	}
	for len(p) > 0 {
		if !r.full {
			room := size - len(r.buf)
			n := min(room, len(p))
			r.buf = append(r.buf, p[:n]...)
			p = p[n:]
			if len(r.buf) == size {
				r.full, r.next = true, 0
			}
			continue
		}
		n := copy(r.buf[r.next:], p)
		p = p[n:]
		r.next = (r.next + n) % size
	}
}

// lastRunes returns up to n whole characters from the end of the ring.
func (r *ring) lastRunes(n int) string {
	var b []byte
	if r.full {
		b = append(append([]byte(nil), r.buf[r.next:]...), r.buf[:r.next]...)
	} else {
		b = r.buf
	}
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:] // the ring cut a character; drop its remains
	}
	return lastRunes(string(b), n)
}

// errScan remembers error-like lines of the text with their character
// offsets, bounded: the first few and the most recent few.
type errScan struct {
	from  int // offsets before this are in the head anyway
	first []errLine
	last  []errLine
}

// errLine is an error-like line and the character offset where it starts.
type errLine struct {
	at   int
	text string
}

const (
	errLinesShown   = 8
	errLineMaxChar  = 160
	errLinesReserve = 40 + errLinesShown*(errLineMaxChar+3) // header and indented lines
)

// errWords are what marks a line as worth listing; both raw lines and the
// escaped \n of JSON text separate lines.
var errWords = [][]byte{[]byte("error"), []byte("Error"), []byte("ERROR"), []byte("fail"), []byte("Fail"), []byte("FAIL"),
	[]byte("panic"), []byte("Panic"), []byte("Traceback"), []byte("exit status"), []byte("exit code")}

// errAnchors find the errWords by what they share after their first
// letter (back bytes into them): seven searches for eleven words.
var errAnchors = []struct {
	mid   []byte
	back  int
	words [][]byte
}{
	{[]byte("rror"), 1, [][]byte{[]byte("error"), []byte("Error")}}, {[]byte("RROR"), 1, [][]byte{[]byte("ERROR")}},
	{[]byte("ail"), 1, [][]byte{[]byte("fail"), []byte("Fail")}}, {[]byte("AIL"), 1, [][]byte{[]byte("FAIL")}},
	{[]byte("anic"), 1, [][]byte{[]byte("panic"), []byte("Panic")}}, {[]byte("Traceback"), 0, [][]byte{[]byte("Traceback")}},
	{[]byte("xit "), 1, [][]byte{[]byte("exit status"), []byte("exit code")}},
}

// scan records the error-like lines of p, whose first character is at
// offset base of the text. It stays linear in len(p) however many lines
// match: offsets are counted once, and only lines that can be kept are read.
func (e *errScan) scan(p []byte, base int) {
	var hits []int
	for _, a := range errAnchors { // fewer passes than words: a search per word was most of a large output's cost
		for off := 0; ; {
			i := bytes.Index(p[off:], a.mid)
			if i < 0 {
				break
			}
			if at := off + i - a.back; at >= 0 && slices.ContainsFunc(a.words, func(w []byte) bool { return bytes.HasPrefix(p[at:], w) }) {
				hits = append(hits, at)
			}
			off += i + len(a.mid)
		}
	}
	if len(hits) == 0 {
		return
	}
	sort.Ints(hits)
	type span struct{ start, end int }
	var lines []span
	for _, i := range hits {
		if len(lines) > 0 && i < lines[len(lines)-1].end {
			continue // another word on a line already taken
		}
		start, end := lineAround(p, i)
		lines = append(lines, span{start, end})
	}
	if need := 2*errLinesShown - len(e.first); len(lines) > need+errLinesShown {
		lines = append(lines[:max(need, 0)], lines[len(lines)-errLinesShown:]...)
	}
	pos, runes := 0, 0
	for _, l := range lines {
		runes += utf8.RuneCount(p[pos:l.start])
		pos = l.start
		if at := base + runes; at >= e.from {
			e.add(errLine{at: at, text: firstRunes(strings.TrimSpace(string(p[l.start:l.end])), errLineMaxChar)})
		}
	}
}

// add keeps l among the first lines or the most recent ones.
func (e *errScan) add(l errLine) {
	if len(e.first) < 2*errLinesShown {
		e.first = append(e.first, l)
		return
	}
	if len(e.last) == errLinesShown {
		e.last = e.last[1:]
	}
	e.last = append(e.last, l)
}

// within returns the lines whose offsets fall in [lo, hi), in text
// order, without repeats, at most errLinesShown.
func within(lines []errLine, lo, hi int) []errLine {
	seen := map[int]bool{}
	var in []errLine
	for _, l := range lines {
		if l.at >= lo && l.at < hi && !seen[l.at] {
			seen[l.at] = true
			in = append(in, l)
		}
	}
	sort.Slice(in, func(i, j int) bool { return in[i].at < in[j].at })
	return in[:min(len(in), errLinesShown)]
}

// linesText is the text of the lines.
func linesText(lines []errLine) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, l.text)
	}
	return out
}

// lineAround finds the line holding p[i]; lines end at a newline byte or at
// the two characters \n of JSON text.
func lineAround(p []byte, i int) (start, end int) {
	start = i
	for start > 0 && p[start-1] != '\n' && !(start > 1 && p[start-2] == '\\' && p[start-1] == 'n') {
		start--
	}
	end = i
	for end < len(p) && p[end] != '\n' && !(p[end] == '\\' && end+1 < len(p) && p[end+1] == 'n') {
		end++
	}
	for start < end && !utf8.RuneStart(p[start]) {
		start++
	}
	return start, end
}
