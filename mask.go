package main

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Masking is the first thing the ladder (ladder.go) gives up when a request
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
	if m.Role != "tool" || !pagesFiles(m.Name) || !strings.HasPrefix(m.Content, `{"total_files":`) ||
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
		if m.Role != "tool" || isStub(m.Content) {
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
		perToken = float64(n) / float64(max(est(message{Role: "tool", Content: strconv.Quote(s)}), 1))
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
	if m.Role != "tool" || !pagesFiles(m.Name) || !strings.HasPrefix(m.Content, `{"path":`) {
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
		if m.Role == "tool" && isStub(m.Content) {
			n++
			saved += max(stubTokens(m.Content)-est(m), 0)
		}
	}
	return n, saved
}
