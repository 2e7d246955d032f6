package main

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Masking is the first thing the ladder (trim.go) gives up when a request
// is over its budget: the bulk of old tool outputs, not the conversation.
// A result (outside the newest CONTEXT_KEEP_GROUPS turn groups first, then
// inside them but for the current round's) is replaced by a stub
// naming the tool, its first line or two, its size, the spill file holding
// its full text and a ready fs_read_file paging call (the truncation
// marker's contract), so the model can read it back; the question, the
// answer and the call/result pairing stay as they were.

// defaultTrimTarget is CONTEXT_TRIM_TARGET's default, used where a
// config has none.
const defaultTrimTarget = 0.6

// stubPathStandIn is as long as a typical spill path; a result is priced
// against a stub carrying it before anything is written to disk.
var stubPathStandIn = strings.Repeat("x", 90)

// fullText is where a result's full text is: a spill file already written
// (path set), or the text itself, to be written before it is masked.
type fullText struct {
	path   string
	text   string   // the full text when path is ""; else its head
	total  int      // characters; -1: not counted yet (see size)
	offset int      // where text starts in the file at path: a page of a file starts anywhere
	page   bool     // text is one page of the file at path, read with fs_read_file
	more   []string // the other files of a list read (page set): read again together
}

// paths are the files holding the full text: path, and the other files
// of a list read.
func (f fullText) paths() []string { return append([]string{f.path}, f.more...) }

// listPageOf reads tool message m as a list read of fs_read_file: the
// windows' files, read again with the same offset (a list read gives every
// file one), the first window's text as its head. ok is false when m is
// not one or a file in it failed.
func listPageOf(m message) (fullText, bool) {
	var l fileList
	if m.Role != roleTool || !pagesFiles(m.Name) || !strings.HasPrefix(m.Content, `{"total_files":`) ||
		json.Unmarshal([]byte(m.Content), &l) != nil || len(l.Files) == 0 || l.ErrorCount > 0 {
		return fullText{}, false
	}
	f := fullText{path: l.Files[0].Path, text: l.Files[0].Content, offset: l.Files[0].Offset, page: true}
	for _, fw := range l.Files {
		if !fw.Success || fw.Path == "" || fw.Offset != f.offset {
			return fullText{}, false
		}
		f.total += fw.ReturnedChars
		if !slices.Contains(f.paths(), fw.Path) {
			f.more = append(f.more, fw.Path)
		}
	}
	return f, true
}

// sourceOf finds the full text of tool message m.
func sourceOf(m message) fullText {
	if fw, ok := filePageOf(m); ok { // a page is in its own file already: never spilled again
		return fullText{path: fw.Path, text: fw.Content, total: fw.ReturnedChars, offset: fw.Offset, page: true}
	}
	if l, ok := listPageOf(m); ok { // a list read: its files hold it, read again with the same call
		return l
	}
	if c := m.clip; c != nil {
		switch {
		case c.onDisk() != "":
			return fullText{path: c.onDisk(), text: c.headText(), total: c.chars()}
		case c.whole():
			return fullText{text: c.headText(), total: c.chars()}
		}
		// cut, but its spill failed: what the model saw is all there is
	} else if loc := findMarker(m.Content); loc != nil {
		total, _ := strconv.Atoi(m.Content[loc[2]:loc[3]])
		if path, err := strconv.Unquote(m.Content[loc[4]:loc[5]]); err == nil {
			return fullText{path: path, text: m.Content[:loc[0]], total: total}
		}
	}
	return fullText{text: m.Content, total: -1} // counted when needed: most are not
}

// size is the full text's length in characters.
func (f fullText) size() int {
	if f.total < 0 {
		return utf8.RuneCountInString(f.text)
	}
	return f.total
}

// Why stubFor did not mask a result.
const (
	stubbed  = iota
	notWorth // the stub would not give back at least half of what it costs
	notSaved // its full text is not on disk and could not be written
)

// stubFor returns m, which costs cost tokens, masked, and the tokens that
// gives back, writing its full text to disk through spill first when it is
// not there yet; or why it declines: a stub must give back at least half of
// what m costs, and masking never loses what the model saw. Its paging call
// suggests pageLimit characters (stubWithin fits it to a room).
func stubFor(m message, cost int, est func(message) int, spill func(*message)) (message, int, int) {
	return stubWithin(m, cost, est, spill, 0)
}

// stubWithin is stubFor with the stub's paging call suggesting what fits
// room tokens (0: pageLimit characters).
func stubWithin(m message, cost int, est func(message) int, spill func(*message), room int) (message, int, int) {
	src := sourceOf(m)
	if src.path == "" && spill == nil {
		return m, 0, notSaved
	}
	src.total = src.size()
	limit := pageChars(room, src.text, est)
	if src.page { // read again as it was, or less where less fits
		limit = min(limit, max(src.total, minPage))
	}
	s := m
	s.clip, s.images = nil, nil // an image read by a tool is read again from its path, named in the text
	s.Content = stubText(m.Name, src.total, cost, append([]string{stubPathStandIn}, src.more...), src.offset, limit)
	if est(s)*2 > cost {
		return m, 0, notWorth
	}
	if src.path == "" {
		tmp := message{Name: m.Name, clip: wholeClip(src.text, src.total)}
		spill(&tmp)
		if tmp.clip.onDisk() == "" {
			return m, 0, notSaved
		}
		src.path = tmp.clip.onDisk()
	}
	s.Content = stubText(m.Name, src.total, cost, src.paths(), src.offset, limit)
	if after := est(s); after < cost {
		return s, cost - after, stubbed
	}
	return m, 0, notWorth
}

// maskReport says what mask did.
type maskReport struct {
	at, saved []int // index of each result masked, and the tokens it gave back
	unsaved   int   // results left whole because their text could not be saved
}

// maskSpan is the part of a history masking may change, h[from:to], and
// the room (tokens) its stubs' paging calls are fitted to (0: pageLimit).
type maskSpan struct{ from, to, room int }

// maskRange replaces the tool results in span by stubs, oldest first,
// until total (the request's estimate, of which h's messages are part) is
// at most target; stubs are never masked again. It returns the new history
// (h itself when nothing changed; h is never modified) and total. costs
// are the messages' prices when known (nil: est prices them); spill
// writes a message's clip head to disk and sets its path (nil: only
// results already on disk are masked).
func maskRange(h []message, costs []int, total, target int, span maskSpan, est func(message) int, spill func(*message)) ([]message, int, maskReport) {
	var rep maskReport
	var out []message
	for i := span.from; i < span.to && total > target; i++ {
		m := h[i]
		if m.Role != roleTool || isStub(m.Content) {
			continue
		}
		cost := 0
		if costs != nil {
			cost = costs[i]
		} else {
			cost = est(m)
		}
		s, freed, why := stubWithin(m, cost, est, spill, span.room)
		if why == notSaved && spill != nil {
			rep.unsaved++
		}
		if why != stubbed {
			continue
		}
		if out == nil {
			out = append([]message(nil), h...)
		}
		out[i] = s
		total -= freed
		rep.at, rep.saved = append(rep.at, i), append(rep.saved, freed)
	}
	if out == nil {
		return h, total, rep
	}
	return out, total, rep
}

// pageChars is the limit, in characters, of a page that fits room tokens
// of the request when its text is like sample: priced as fs_read_file
// returns it (escaped in JSON, in its envelope), within minPage and
// pageLimit. room 0 or less: pageLimit, the room being unknown.
func pageChars(room int, sample string, est func(message) int) int {
	if room <= 0 {
		return pageLimit
	}
	s := firstRunes(sample, 4000)
	n := utf8.RuneCountInString(s)
	perToken := 3.0 // a conservative stand-in for text with no sample
	if n > 0 {
		perToken = float64(n) / float64(max(est(message{Role: roleTool, Content: strconv.Quote(s)}), 1))
	}
	chars := int(float64(room-pageEnvelope) * perToken * 0.9)
	return min(max(chars, minPage), pageLimit)
}

// pageEnvelope is about what fs_read_file's fields and a marker around a
// page cost, in tokens.
const pageEnvelope = 100

// filePage is what masking reads of a page of a file, fs_read_file's answer
// for one path (its fileWindow): where the page is, and its text.
type filePage struct {
	Path          string `json:"path"`
	Success       bool   `json:"success"`
	Content       string `json:"content"`
	Offset        int    `json:"offset"`
	ReturnedChars int    `json:"returned_chars"`
}

// filePageOf reads tool message m as one page of one file, a continuation
// marker after it ignored: its full text is that file, never spilled again.
func filePageOf(m message) (filePage, bool) {
	if m.Role != roleTool || !pagesFiles(m.Name) || !strings.HasPrefix(m.Content, `{"path":`) {
		return filePage{}, false
	}
	var p filePage
	if json.NewDecoder(strings.NewReader(m.Content)).Decode(&p) != nil || !p.Success || p.Path == "" || p.ReturnedChars == 0 {
		return filePage{}, false
	}
	return p, true
}

// maskedIn counts the stubs in h and the tokens they give back.
func maskedIn(h []message, est func(message) int) (n, saved int) {
	for _, m := range h {
		if m.Role == roleTool && isStub(m.Content) {
			n++
			saved += max(stubTokens(m.Content)-est(m), 0)
		}
	}
	return n, saved
}

// roomFloor is the fewest characters a budget-derived cap leaves a result:
// below it a result stops being useful, and its paging call fetches more.
const roomFloor = 2000

// lastFloor is the fewest characters rung c leaves a result when the
// usual floor would leave the request over its limit: the marker and a
// little of the head, so that no turn group has to go for it.
const lastFloor = 800

// budgetCapNote ends the marker of a result cut to the room left, so the
// model knows why it is shorter than the tool's own cap.
const budgetCapNote = "the cap came from the token budget: this result's share of the room left in the request (CONTEXT_BUDGET_TOKENS), not the tool's own cap"

// capAbove cuts one round's tool results (rs, changed in place) so that
// together they cost at most room tokens: each gets an equal share, and a
// share a smaller result leaves unused goes to the larger ones. None is cut
// below floor characters or grows past what it was (its per-tool cap); a
// result cut so is first written to disk through spill. It returns how
// many it cut.
func capAbove(rs []message, room, floor int, est func(message) int, spill func(*message)) int {
	costs := make([]int, len(rs))
	sum := 0
	for i, m := range rs {
		costs[i] = est(m)
		sum += costs[i]
	}
	if sum <= room {
		return 0
	}
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return costs[order[a]] < costs[order[b]] })
	left, cut := max(room, 0), 0
	for k, i := range order {
		share := left / (len(order) - k)
		if costs[i] <= share {
			left -= costs[i]
			continue
		}
		for _, j := range order[k:] {
			if capToFloor(&rs[j], share, floor, est, spill) {
				cut++
			}
		}
		break
	}
	return cut
}

// capToFloor re-renders tool message m to cost about tokens, not under
// floor characters, with the budget note in its marker. It reports
// whether m got shorter.
func capToFloor(m *message, tokens, floor int, est func(message) int, spill func(*message)) bool {
	return capWith(m, tokens, floor, budgetCapNote, est, spill)
}

// capWith re-renders tool message m to cost about tokens, not under
// floor characters, its marker ending with why. It reports whether m got
// shorter.
func capWith(m *message, tokens, floor int, why string, est func(message) int, spill func(*message)) bool {
	chars := utf8.RuneCountInString(m.Content)
	if m.Role != roleTool || isStub(m.Content) || chars <= floor {
		return false
	}
	orig, cost := m.Content, est(*m)
	render := cutter(m, spill, why)
	n := chars
	for i := 0; i < 6 && cost > tokens && n > floor; i++ {
		n = max(floor, int(float64(n)*float64(tokens)/float64(cost)*0.97))
		m.Content = render(n)
		cost = est(*m)
	}
	if utf8.RuneCountInString(m.Content) >= chars {
		m.Content = orig
		return false
	}
	return true
}

// fileWindowOf is result m as fs_read_file's window of one file, when it is
// a page (filePageOf).
func fileWindowOf(m message) (fileWindow, bool) {
	var fw fileWindow
	if _, ok := filePageOf(m); !ok || json.NewDecoder(strings.NewReader(m.Content)).Decode(&fw) != nil {
		return fileWindow{}, false
	}
	return fw, true
}

// pageCut is page fw cut to n characters of its content (at a line's end
// when one is near) and a marker continuing in the same file at the next
// offset, next characters at a time: a page is never spilled again.
func pageCut(fw fileWindow, n, next int) string {
	shown := utf8.RuneCountInString(fw.Content)
	content := firstRunes(fw.Content, n)
	if i := strings.LastIndexByte(content, '\n'); i >= 0 && i+1 >= len(content)*3/4 {
		content = content[:i+1]
	}
	kept := utf8.RuneCountInString(content)
	// The window's own note (a capped read's next page) named where the
	// window it had stopped: the cut note names the one way on now.
	fw.Content, fw.ReturnedChars, fw.Truncated, fw.Note = content, kept, true, ""
	return jsonText(fw) + pageCutNote(fw.Path, kept, shown, fw.Offset+kept, max(next, minPage))
}

// cutter is how result m is rendered within n characters, its full text
// kept reachable: a page of a file is cut and continues in that file;
// anything else is written to disk first, if it was not, and clipped
// with its marker (noting why, when why is set). nil: m is not cut.
func cutter(m *message, spill func(*message), why string) func(n int) string {
	if m.Role != roleTool || isStub(m.Content) {
		return nil
	}
	if render, ok := listCutter(*m); ok { // a list read: each window continues in its file (fstools.go)
		m.clip = nil
		return render
	}
	if fw, ok := fileWindowOf(*m); ok {
		m.clip = nil // the file holds the full text; nothing here is to be spilled
		around := utf8.RuneCountInString(pageCut(fw, 0, pageLimit))
		return func(n int) string { k := max(n-around, 0); return pageCut(fw, k, k) }
	}
	if m.clip == nil {
		m.clip = truncate(m.Content, 0)
	}
	keepOnDisk(m, spill) // at most once: a spilled or failed clip is not tried again
	if why != "" {
		m.clip = m.clip.noting(why)
	}
	return m.clip.text
}

// minShrunk is the smallest a result cut for a byte cap gets, in
// characters: the marker and a little of the head and tail.
const minShrunk = 1500

// shrinkLargest cuts the largest tool results and the attached-files
// message, biggest first, to half their length (not below minShrunk)
// until the conversation's text is half what it was, for a byte cap. It
// returns the new history and how many messages it cut.
func shrinkLargest(h []message, spill func(*message)) ([]message, int) {
	h = append([]message(nil), h...)
	total := 0
	var idx []int
	for i, m := range h {
		total += len(m.Content)
		attached := m.Role == roleSystem && strings.HasPrefix(m.Content, attachedHeader)
		if (m.Role == roleTool || attached) && utf8.RuneCountInString(m.Content) > minShrunk {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(x, y int) bool { return len(h[idx[x]].Content) > len(h[idx[y]].Content) })
	saved, n := 0, 0
	for _, i := range idx {
		if saved >= total/2 {
			break
		}
		m := &h[i]
		before := len(m.Content)
		render := cutter(m, spill, "")
		if m.Role != roleTool {
			m.clip = truncate(m.Content, 0) // the attached files: their own text stays on disk
			render = m.clip.text
		}
		if render == nil {
			continue
		}
		m.Content = render(max(utf8.RuneCountInString(m.Content)/2, minShrunk))
		saved += before - len(m.Content)
		n++
	}
	return h, n
}

// keepOnDisk writes a whole result (one never cut, so never spilled) to
// disk through spill before it is cut, at most once: a spilled or failed
// clip is not tried again.
func keepOnDisk(m *message, spill func(*message)) {
	if m.clip.needsSpill() && spill != nil {
		spill(m)
	}
}

// cutRound is rungs c and e: this round's results, h[round:], share what
// is left of to once everything older is counted, the largest cut first
// (capAbove), none under floor characters; spare leaves a page of a file
// whole (it was asked for at a length suggested to fit). costs follow.
func (l ladder) cutRound(h []message, costs, orig []int, total, to, round, floor int, spare bool, rep *trimReport) ([]message, int) {
	if round == len(h) {
		return h, total
	}
	h = append([]message(nil), h...)
	rest := total
	for _, c := range costs[round:] {
		rest -= c
	}
	if spare {
		capSparing(h[round:], to-rest, floor, l.est, l.spill)
	} else {
		capAbove(h[round:], to-rest, floor, l.est, l.spill)
	}
	return h, l.recost(h, costs, orig, total, round, rep)
}

// recost prices this round's results, h[round:], again after a cut: costs,
// the total it returns and rep's shrinking follow.
func (l ladder) recost(h []message, costs, orig []int, total, round int, rep *trimReport) int {
	for i := round; i < len(h); i++ {
		c := l.est(h[i])
		if c < costs[i] && costs[i] == orig[i] { // once a result, however often it is cut
			rep.shrunk++
		}
		rep.shrunkSaved += costs[i] - c
		total -= costs[i] - c
		costs[i] = c
	}
	return total
}

// capSparing is capAbove to roomFloor for the results of rs that are not
// pages of a file: a page was asked for at a length suggested to fit, and
// is never cut again while the request is within its limit. The pages'
// cost comes off room first.
func capSparing(rs []message, room, floor int, est func(message) int, spill func(*message)) {
	var others []message
	var at []int
	for i, m := range rs {
		if _, page := filePageOf(m); page {
			room -= est(m)
			continue
		}
		others, at = append(others, m), append(at, i)
	}
	capAbove(others, room, floor, est, spill)
	for k, i := range at {
		rs[i] = others[k]
	}
}

// loopCapNote ends the marker of a result held to its share of the budget.
const loopCapNote = "the cap came from the token budget: one result takes at most its share of CONTEXT_BUDGET_TOKENS, so the rounds after it fit; read the rest in pages"

// holdToShare returns h with the fresh results h[start:] each cut to
// resultShare, its full text kept on disk, when an earlier round of the
// same turn (the last turn group) had results, or the budget is small; h
// itself when none is cut. A page of a file is as long as the model asked.
// held is how many were cut, saved the tokens they gave back. h is never
// modified.
func (l ladder) holdToShare(h []message, start int) (out []message, held, saved int) {
	starts := l.starts // found by admit, once a request
	if l.limit <= 0 || len(starts) == 0 || !l.small() && !hasTool(h[starts[len(starts)-1]:start]) {
		return h, 0, 0
	}
	limit, floor := l.resultShare(), roomFloor
	if l.small() {
		floor = lastFloor // a small budget's share is under roomFloor's cost of dense text (digits: 2000 characters, ~900 tokens)
	}
	for i := start; i < len(h); i++ {
		if h[i].Role != roleTool {
			continue
		}
		cost := l.est(h[i])
		_, page := filePageOf(h[i])
		files, list := listPageOf(h[i])
		if cost <= limit || (page || list) && cost <= 2*limit {
			continue // a page of a file (or of a list of files) as long as was suggested enters as asked
		}
		if out == nil {
			out = append([]message(nil), h...)
		}
		least := floor
		if list {
			least = max(floor, listFloor*len(files.paths())) // each window keeps some lines beside its path and note
		}
		if capWith(&out[i], limit, least, loopCapNote, l.est, l.spill) {
			held++
			saved += cost - l.est(out[i])
		}
	}
	if out == nil {
		return h, 0, 0
	}
	return out, held, saved
}

// listFloor is the fewest characters a list read held to its share keeps
// for each of its files: the window's path and note, and a few lines.
const listFloor = 1200

// hasTool reports whether any of ms is a tool result.
func hasTool(ms []message) bool {
	for _, m := range ms {
		if m.Role == roleTool {
			return true
		}
	}
	return false
}
