package main

import (
	"slices"
	"sort"
)

// The ladder is every reduction of the conversation in one place: fitting
// a request to the budget before it is sent, taking a round's tool results
// in (admit), and healing a context-length rejection (with the provider's
// numbers as the limit) all climb it, cheapest loss first; the reductions
// a person asks for by name, /compact N and INTERACTIVE_ROUND, are here
// too (keepGroups, keptRounds):
//
//  0. a model-written summary of old turn groups, when COMPACT_MODE or
//     AUTO_COMPACT_PERCENT ask for one (compact.go; the agent runs it before
//     fitting, as it costs a request);
//  a. old tool outputs, outside the newest CONTEXT_KEEP_GROUPS turn groups,
//     become stubs naming their spill files, oldest first;
//  b. then the outputs inside the kept groups, except the current round's:
//     the kept groups are a preference, which yields before anyone's words;
//  c. then, still over the limit, this round's largest results are cut,
//     each keeping its full text on disk (a page of a file continues in that
//     file, nothing is spilled again);
//  d. only then whole turn groups go, oldest first, never the newest, so no
//     tool message loses its call: while still over the limit, or, not in a
//     heal, down to the mark when that makes room for another round like
//     this one, and then the session's first turn group (its task) stays.
//
// Once a request is over its limit, every rung goes down to the low-water
// mark (CONTEXT_TRIM_TARGET of the limit), not just under the limit: the
// next turns then fit as they are, and the provider's prompt cache, which
// a change anywhere in the history rewrites from there on, survives them.
// Masking oldest first and cutting only the newest results keep the
// system prompt and the tool schemas untouched. Every report adds up:
// before - saved - shrunk - dropped = after.

// ladder is the reduction of one request: its limit and mark, and how
// it prices and keeps messages.
type ladder struct {
	limit int // over it, the ladder runs
	mark  int // the low-water mark every rung goes down to
	keep  int // CONTEXT_KEEP_GROUPS: newest turn groups masked only after the older ones
	fixed int // tokens outside the messages: the tool schemas
	// words drops turn groups only while over the limit, and only down to
	// it: a heal's retry keeps what a person said; a rejection is rare.
	words bool
	est   func(message) int // prices one message
	spill func(*message)    // writes a result whole to disk before it is cut; nil: only what is on disk
	// starts is where each turn group of the request begins, found once
	// when it enters the ladder (reduce, admit): no rung moves them.
	starts []int
}

// trimPolicy says when trimming starts and how far it goes.
type trimPolicy struct {
	limit  int // the budget: over it, trimming starts
	target int // the low-water mark it reduces to (CONTEXT_TRIM_TARGET of limit)
	keep   int // newest turn groups whose tool results are masked last
}

// reduce climbs the ladder when the request of h is over the limit, and
// returns the history (h itself when nothing changed; h is never modified)
// and what each rung did. It runs in time linear in the messages, each
// priced once: the rungs after pricing follow the costs, not the estimator.
func (l ladder) reduce(h []message) ([]message, trimReport) {
	if l.starts == nil {
		l.starts = groupStarts(h) // once a request: no rung changes where groups begin
	}
	costs, total := l.price(h)
	rep := trimReport{before: total, after: total}
	if l.limit <= 0 || total <= l.limit {
		return h, rep
	}
	orig := append([]int(nil), costs...)
	mark := min(l.mark, l.limit)
	round := roundStart(h)
	kept := min(l.keptStart(h), round)
	room := min(max(l.limit-mark, l.limit/5), l.resultShare()) // a stub's page enters whole, and leaves room for more rounds
	var masks maskReport
	maskTo := 0
	if mark >= l.limit {
		maskTo = mark
	}
	// a and b mask every old output at once, not just down to the mark
	// (unless the mark is the limit: CONTEXT_TRIM_TARGET=1 trims to it):
	// a mask rewrites the provider's prompt cache from the first result it
	// changes, so masking a few now and the next few a round later pays
	// that rewrite every few rounds; all at once, the next reduction comes
	// many rounds later and changes only results newer than these.
	// a. old outputs, outside the kept turn groups, oldest first.
	h, total = l.mask(h, costs, total, maskTo, maskSpan{from: 0, to: kept, room: room}, &masks, &rep)
	// b. the kept groups' outputs, but not this round's.
	h, total = l.mask(h, costs, total, maskTo, maskSpan{from: kept, to: round, room: room}, &masks, &rep)
	gone := make([]bool, len(h)) // messages that go: removed at the end, so indexes hold
	h, total = l.toTarget(h, costs, orig, total, round, kept, maskTo == 0, gone, &rep)
	out := remaining(h, gone)
	for k, i := range masks.at {
		if !gone[i] {
			rep.masked++
			rep.saved += masks.saved[k]
		}
	}
	rep.after = total
	return out, rep
}

// toTarget is the rungs after masking, which take the request of h (total
// tokens) down to the mark (a heal: to its limit) once masking leaves it
// above: the index's, this round's results' and the older turn groups'.
// gone marks what goes; costs and rep follow.
func (l ladder) toTarget(h []message, costs, orig []int, total, round, kept int, collapse bool, gone []bool, rep *trimReport) ([]message, int) {
	// f. the stubs fold into one index line when they take more than their
	// share of the limit (stubShare), oldest first: older turn groups'
	// rounds, then the current turn's but its newest, whose calls stay.
	f := &folder{end: l.foldEnd(h, round), groups: map[int]bool{}}
	total = l.foldStubs(f, h, costs, orig, total, gone, rep)
	to := l.dropTarget(min(l.mark, l.limit))
	// c. this round's largest results share what is left of the target,
	// none under roomFloor: never a page the model asked for, whose length
	// was suggested to fit.
	if total > to {
		h, total = l.cutRound(h, costs, orig, total, to, round, roomFloor, true, rep)
	}
	// c'. the stubs of old turn groups go with their rounds, oldest first,
	// once all are masked; the person's words and the answers stay. Then
	// those of the kept groups but the newest.
	// d. then the rounds and answers of whole turn groups, oldest first;
	// what the person wrote in them stays, and the session's first turn
	// group (its task, as first said) stays whole while the others can make
	// room. A drop changes the first message after the system prompt, so
	// the provider's prompt cache is written again whole; every reduction
	// goes to the mark, so that is rare.
	if total > to {
		total = l.toMark(h, costs, orig, total, to, kept, collapse, gone, rep)
	}

	// The index names the spill files of every stub that went (f, c', d),
	// and folds more rounds (f) rather than stand above the target.
	f.next = 0 // c' and d may have left older rounds that fold now
	h, total = l.writeIndex(f, h, costs, orig, total, to, collapse, gone, rep)
	// e. what still stands above the target is this round's own: cut
	// further, pages too, each cut naming its one ready call, so that
	// after any reduction the request is at or under the mark and the
	// next rounds append (a heal: under its limit).
	for _, floor := range []int{lastFloor, minFloor} { // the pages the model asked for last
		for _, spare := range []bool{true, false} {
			if total > to {
				h, total = l.cutRound(h, costs, orig, total, to, round, floor, spare, rep)
			}
		}
	}
	// Only then the person's oldest words, when they alone are the weight.
	if total > to {
		total = l.cutWords(h, costs, orig, total, to, gone, rep)
	}
	return h, total
}

// fit is the request of h made to fit the limit: the ladder climbed when
// it is over (reduce), the history valid whatever happened. It is the
// entrance for fitting a request and for a heal's retry (words set).
func (l ladder) fit(h []message) ([]message, trimReport) {
	out, rep := l.reduce(h)
	return validate(out), rep
}

// toMark is rungs c' and d: masked rounds go (when collapse), then the
// rounds and answers of turn groups, until total is at most to. gone and
// rep follow.
func (l ladder) toMark(h []message, costs, orig []int, total, to, kept int, collapse bool, gone []bool, rep *trimReport) int {
	if collapse {
		total = l.collapse(h, costs, orig, total, kept, gone, rep, to)
		total = l.collapse(h, costs, orig, total, l.lastStart(h), gone, rep, to)
	}
	if total > to {
		first := 1
		if total > l.limit && total-l.droppable(h, costs, gone) > to {
			first = 0
		}
		total = l.dropRounds(h, costs, orig, total, to, first, gone, rep)
	}
	if total > to && !l.words {
		// Still above the mark: the first group's rounds and answer too,
		// before this round's own results are cut (its words stay).
		total = l.dropRounds(h, costs, orig, total, to, 0, gone, rep)
	}
	return total
}

// dropTarget is where rung d drops to: the mark, or in a heal the limit
// (a rejection is rare; the retry keeps what it can).
func (l ladder) dropTarget(mark int) int {
	if l.words {
		return l.limit
	}
	return mark
}

// collapse is rung c': in the turn groups before h[to:], the tool rounds
// (the calls and their results) of a group whose every result is a stub
// (or too small for one) go, oldest first, while total is over target,
// the person's words and the answers staying; costs and gone follow.
func (l ladder) collapse(h []message, costs, orig []int, total, to int, gone []bool, rep *trimReport, target int) int {
	starts := l.groups(h)
	for g := 0; g+1 < len(starts) && starts[g+1] <= to && total > target; g++ {
		lo, hi := starts[g], starts[g+1]
		all, any := true, false
		for i := lo; i < hi; i++ {
			if h[i].Role == roleTool && !gone[i] {
				any = true
				all = all && (isStub(h[i].Content) || costs[i] <= smallResult)
			}
		}
		if !any || !all {
			continue
		}
		for i := lo; i < hi; i++ {
			if !gone[i] && (h[i].Role == roleTool || h[i].Role == roleAssistant && len(h[i].ToolCalls) > 0) {
				gone[i] = true
				total -= costs[i]
				rep.tokens += orig[i]
			}
		}
		rep.collapsed++
	}
	return total
}

// stubShare is the part of the limit the stubs of masked outputs may
// take in one request: past it, older ones fold into one index line.
const stubShare = 10

// minFloor is the fewest characters rung e leaves a result when even
// lastFloor leaves the request above its target: the marker, its ready
// call and a line of the head.
const minFloor = 300

// folder folds tool rounds into the index, oldest first, in h[:end]: the
// rounds of older turn groups, then the current turn's but its newest
// (foldEnd), whose calls stay, so the model sees what it did last; the
// index names the calls of the current turn that went (writeIndex).
type folder struct {
	next, end int
	groups    map[int]bool // turn groups a round of which went: each counts once as collapsed
	// cur is what of the current turn went, and base what the request
	// with its index stood at before: when folding the current turn's
	// rounds does not make the request smaller (its index costs more
	// than they), they come back (writeIndex).
	cur  []int
	base int
}

// foldNext folds the oldest tool round left in h[f.next:f.end] whose
// results are all stubs (stubRound): its call and results go. It returns
// the tokens of the stubs that went; ok is false when none is left.
func (l ladder) foldNext(f *folder, h []message, costs, orig []int, total *int, gone []bool, rep *trimReport) (stubs int, ok bool) {
	for ; f.next < f.end; f.next++ {
		i := f.next
		end := stubRound(h, i, gone)
		if end < 0 || isStubIndex(h[i+1].Content) { // an index goes into the next one only with something new (writeIndex)
			continue
		}
		if end-i > 2 && !hostable(h, gone, f.end) {
			continue // a round of many calls cannot carry the index: it goes only beside one that can
		}
		cur := i >= l.lastStart(h)
		if cur && len(f.cur) == 0 {
			f.base = l.need(h, costs, gone, f.end, *total)
		}
		for k := i; k < end; k++ {
			gone[k] = true
			*total -= costs[k]
			rep.tokens += orig[k]
			if k > i {
				stubs += costs[k]
			}
			if cur {
				f.cur = append(f.cur, k)
			}
		}
		g := max(sort.SearchInts(l.starts, i+1)-1, 0)
		if !f.groups[g] {
			f.groups[g] = true
			rep.collapsed++
		}
		f.next = end
		return stubs, true
	}
	return 0, false
}

// foldEnd is where folding stops in h: the call of the newest tool round
// of the current turn before this round's (round: where this round's
// results begin), whose call and stub stay; the current turn's start when
// it has none.
func (l ladder) foldEnd(h []message, round int) int {
	last := l.lastStart(h)
	j := round
	if round < len(h) {
		j = round - 1 // this round's call
	}
	for i := j - 1; i >= last; i-- {
		if h[i].Role == roleAssistant && len(h[i].ToolCalls) > 0 {
			return i
		}
	}
	return last
}

// foldStubs is rung f: when the stubs of h take more than a stubShare-th
// of the limit, the tool rounds whose results are all stubs go, oldest
// first (f), until the stubs take half that; writeIndex names their files
// in one line. The answers and the person's words stay; costs and gone
// follow, and each turn group folded counts as collapsed.
func (l ladder) foldStubs(f *folder, h []message, costs, orig []int, total int, gone []bool, rep *trimReport) int {
	stubs := 0
	for i, m := range h {
		if m.Role == roleTool && !gone[i] && isStub(m.Content) {
			stubs += costs[i]
		}
	}
	if stubs*stubShare <= l.limit {
		return total
	}
	for 2*stubs*stubShare > l.limit {
		n, ok := l.foldNext(f, h, costs, orig, &total, gone, rep)
		if !ok {
			break
		}
		stubs -= n
	}
	return total
}

// stubRound is the end of the tool round h[i] begins when every one of its
// results is a stub (or the index) and none went; -1 otherwise.
func stubRound(h []message, i int, gone []bool) int {
	if h[i].Role != roleAssistant || len(h[i].ToolCalls) == 0 || gone[i] {
		return -1
	}
	j := i + 1
	for ; j < len(h) && h[j].Role == roleTool; j++ {
		if gone[j] || !isStub(h[j].Content) {
			return -1
		}
	}
	if j == i+1 {
		return -1
	}
	return j
}

// writeIndex keeps the files of every stub that went (rungs c', d and f)
// named in one index line, and the current turn's calls that went: the
// newest tool round of one call that went with a stub stays, its result
// the index (an earlier index's files and calls in it, that index's round
// gone). Before it is written, while the request with it would stand
// above to, more of the rounds f may fold go into it: the index replaces
// them, so what it costs never pushes this round's results under their
// size. h itself when no stub went.
func (l ladder) writeIndex(f *folder, h []message, costs, orig []int, total, to int, collapse bool, gone []bool, rep *trimReport) ([]message, int) {
	var earlier []int // an earlier index goes into the new one
	for i := 0; i < f.end; i++ {
		if end := stubRound(h, i, gone); end > 0 && isStubIndex(h[i+1].Content) {
			for k := i; k < end; k++ {
				gone[k] = true
				total -= costs[k]
				rep.tokens += orig[k]
				earlier = append(earlier, k)
			}
		}
	}
	idx, host, total := l.roomForIndex(f, h, costs, orig, total, to, collapse, gone, rep)
	if host < 0 || total+costs[host]+l.est(idx) > l.limit {
		// No index, or none that fits the limit (a tiny one, after a heal):
		// the request must fit; the stubs' files stay on disk unnamed.
		return h, total
	}
	if !newStubGone(h, gone, earlier, f.end) { // nothing new to name: the index stays as it was
		return h, comeBack(earlier, costs, orig, total, gone, rep)
	}
	h = append([]message(nil), h...)
	h[host+1] = idx
	for k := host; k <= host+1; k++ { // back, as it was but for the index: said as a cut
		gone[k] = false
		rep.tokens -= orig[k]
		c := l.est(h[k])
		rep.shrunkSaved += costs[k] - c
		costs[k] = c
		total += c
	}
	return h, total
}

// roomForIndex is the index writeIndex writes, the round that carries it
// (host; -1: none) and the request's total without it: while the request
// with it would stand above to, more rounds fold into it (f), then older
// groups' rounds of small results go (c'); the current turn's rounds
// come back when their index costs more than they did; and when nothing
// more can go, the index names fewer files, to fit the room.
func (l ladder) roomForIndex(f *folder, h []message, costs, orig []int, total, to int, collapse bool, gone []bool, rep *trimReport) (message, int, int) {
	var idx message
	host := -1
	for {
		idx, host = l.planIndex(h, costs, gone, f.end, l.limit)
		need := total
		if host >= 0 {
			need += costs[host] + l.est(idx)
		}
		if need <= to {
			break
		}
		if _, ok := l.foldNext(f, h, costs, orig, &total, gone, rep); ok {
			continue
		}
		// Nothing left to fold: the rounds of older turn groups whose
		// results are all small go (c'), as they would have had the
		// index been counted, before this round's results are cut.
		if !collapse {
			break
		}
		was := total
		if total = l.collapse(h, costs, orig, total, l.lastStart(h), gone, rep, total-(need-to)); total == was {
			break
		}
	}
	if len(f.cur) > 0 && l.need(h, costs, gone, f.end, total) >= f.base {
		// The current turn's rounds cost less than the index naming
		// them: they stay as they were.
		total = comeBack(f.cur, costs, orig, total, gone, rep)
		if g := len(l.starts) - 1; f.groups[g] {
			rep.collapsed--
		}
		idx, host = l.planIndex(h, costs, gone, f.end, l.limit)
	}
	if host >= 0 && total+costs[host]+l.est(idx) > to {
		// Nothing more can go: the index names fewer files, to fit the room.
		idx, _ = l.planIndex(h, costs, gone, f.end, to-total-costs[host])
	}
	return idx, host, total
}

// comeBack brings the messages ks back after they went: total and rep
// follow.
func comeBack(ks, costs, orig []int, total int, gone []bool, rep *trimReport) int {
	for _, k := range ks {
		gone[k] = false
		total += costs[k]
		rep.tokens -= orig[k]
	}
	return total
}

// need is what the request of h (total tokens) comes to with the index
// of the stubs gone in h[:end].
func (l ladder) need(h []message, costs []int, gone []bool, end, total int) int {
	if idx, host := l.planIndex(h, costs, gone, end, l.limit); host >= 0 {
		total += costs[host] + l.est(idx)
	}
	return total
}

// hostable reports whether a round in h[:end] can carry the index: an
// earlier index's, or one of one call that went with a stub.
func hostable(h []message, gone []bool, end int) bool {
	for i := range end {
		if stubRoundGone(h, i) && (gone[i] || isStubIndex(h[i+1].Content)) {
			return true
		}
	}
	return false
}

// newStubGone reports whether a stub in h[:end] went that is not one of
// the earlier index's messages.
func newStubGone(h []message, gone []bool, earlier []int, end int) bool {
	for i := range end {
		if gone[i] && h[i].Role == "tool" && isStub(h[i].Content) && !slices.Contains(earlier, i) {
			return true
		}
	}
	return false
}

// planIndex is the index of the stubs gone in h[:end], in at most room
// tokens when it can be (it names one file at the fewest), and host, the
// round that carries it (its result replaced by the index); host is -1
// when no stub went.
func (l ladder) planIndex(h []message, costs []int, gone []bool, end, room int) (message, int) {
	var paths []string
	var done []string
	var doneBy []int // the call each of done is from (-1: an earlier index's)
	n, host := 0, -1
	last := l.lastStart(h)
	for i, m := range h[:end] {
		if !gone[i] || m.Role != roleTool || !isStub(m.Content) {
			continue
		}
		files, count := stubFiles(m.Content)
		paths, n = append(paths, files...), n+count
		j := i - 1
		for h[j].Role == roleTool {
			j--
		}
		if j >= last { // the current turn's: what was done, so it is not done again
			for _, d := range stubDone(m.Content) {
				done, doneBy = append(done, d), append(doneBy, -1)
			}
			if j+1 == i {
				for _, c := range h[j].ToolCalls {
					done, doneBy = append(done, doneCall(c)), append(doneBy, j)
				}
			}
		}
		if gone[j] && stubRoundGone(h, j) {
			host = j
		}
	}
	if host < 0 || len(paths) == 0 {
		return message{}, -1
	}
	var said []string // the host's own call stays in sight: not said twice
	for k, d := range done {
		if doneBy[k] != host {
			said = append(said, d)
		}
	}
	done = said
	// The index takes what the stubs that stay leave of their share, and
	// no more than room.
	left := min(l.limit/stubShare, room)
	for i, m := range h {
		if !gone[i] && i != host+1 && m.Role == roleTool && isStub(m.Content) {
			left -= costs[i]
		}
	}
	idx := h[host+1]
	idx.clip, idx.images = nil, nil
	page := pageChars(l.resultShare(), "", l.est)
	for chars := 3 * max(left-indexEnvelope, 0); ; chars = chars * 8 / 10 {
		idx.Content = stubIndex(n, done, paths, chars, page)
		if chars < 40 || l.est(idx) <= left {
			break // the fewest: one file named
		}
	}
	return idx, host
}

// indexEnvelope is about what an index costs besides its files' names,
// in tokens: its words, its ready call and the message around it.
const indexEnvelope = 90

// stubRoundGone reports whether h[i] is a tool round of one call whose
// result is a stub.
func stubRoundGone(h []message, i int) bool {
	return h[i].Role == roleAssistant && len(h[i].ToolCalls) == 1 && i+1 < len(h) && h[i+1].Role == roleTool &&
		isStub(h[i+1].Content) && (i+2 == len(h) || h[i+2].Role != roleTool)
}

// groups is where each turn group of h begins, and len(h) after the last.
func (l ladder) groups(h []message) []int {
	return append(l.starts[:len(l.starts):len(l.starts)], len(h))
}

// smallResult is the most tokens a result may cost and still go with its
// round unmasked: one too small to be worth a stub (a status line, a
// short listing), which a stub would not shorten.
const smallResult = 300

// remaining is h without the messages gone marks (h itself when none is).
func remaining(h []message, gone []bool) []message {
	if !slices.Contains(gone, true) {
		return h
	}
	out := make([]message, 0, len(h))
	for i, m := range h {
		if !gone[i] {
			out = append(out, m)
		}
	}
	return out
}

// droppable is what dropping the rounds of every turn group but the first
// and the newest would give back: all but the person's words.
func (l ladder) droppable(h []message, costs []int, gone []bool) int {
	starts := l.starts
	n := 0
	if len(starts) > 2 {
		for i := starts[1]; i < starts[len(starts)-1]; i++ {
			if !gone[i] && h[i].Role != roleUser {
				n += costs[i]
			}
		}
	}
	return n
}

// wordsShare is the part of the limit the person's own words in dropped
// turn groups may keep: past it, the oldest are cut, and that is said.
const wordsShare = 4

// dropRounds is rung d: from the first-th turn group on (0: the oldest),
// oldest first, never the newest, everything but the person's words goes
// until total is at most target; costs price h, orig as it came.
func (l ladder) dropRounds(h []message, costs, orig []int, total, target, first int, gone []bool, rep *trimReport) int {
	starts := l.groups(h)
	for g := first; g+2 < len(starts) && total > target; g++ {
		dropped := false
		for i := starts[g]; i < starts[g+1]; i++ {
			if gone[i] || h[i].Role == roleUser {
				continue
			}
			gone[i], dropped = true, true
			total -= costs[i]
			rep.tokens += orig[i] // a group costs what it did before any rung: its stubs saved nothing
		}
		if dropped {
			rep.groups++
		}
	}
	return total
}

// cutWords cuts the person's oldest words of dropped turn groups (never
// the newest group's, nor the first's while the request is within its
// limit) while total is over target and they are more than their share of
// the limit.
func (l ladder) cutWords(h []message, costs, orig []int, total, target int, gone []bool, rep *trimReport) int {
	starts := l.starts
	if len(starts) < 2 {
		return total
	}
	from := starts[min(1, len(starts)-1)]
	if total > l.limit {
		from = starts[0] // over the limit still: the first group's words, too, when they are the weight
	}
	words := 0
	for i := from; i < starts[len(starts)-1]; i++ {
		if !gone[i] && h[i].Role == roleUser {
			words += costs[i]
		}
	}
	for i := from; i < starts[len(starts)-1] && total > target && (words > l.limit/wordsShare || total > l.limit); i++ {
		if gone[i] || h[i].Role != roleUser {
			continue
		}
		gone[i] = true
		total -= costs[i]
		words -= costs[i]
		rep.words++
		rep.tokens += orig[i]
	}
	return total
}

// price is each message's tokens and the request's total.
func (l ladder) price(h []message) ([]int, int) {
	costs := make([]int, len(h))
	total := l.fixed
	for i, m := range h {
		costs[i] = l.est(m)
		total += costs[i]
	}
	return costs, total
}

// mask is rungs a and b: the results in span become stubs, oldest first,
// until total is at most mark; costs follow.
func (l ladder) mask(h []message, costs []int, total, mark int, span maskSpan, all *maskReport, rep *trimReport) ([]message, int) {
	out, total, mr := maskRange(h, costs, total, mark, span, l.est, l.spill)
	for k, i := range mr.at {
		costs[i] -= mr.saved[k]
	}
	all.at, all.saved = append(all.at, mr.at...), append(all.saved, mr.saved...)
	rep.unsaved += mr.unsaved
	return out, total
}

// priceOf is what the messages ms cost.
func (l ladder) priceOf(ms []message) int {
	n := 0
	for _, m := range ms {
		n += l.est(m)
	}
	return n
}

// admit takes a round's fresh results, h[start:], into the history. Each
// is first held to its share of the budget (resultShare; a turn's first
// round only on a small budget). When they do not fit the limit even with
// the request over the limit, that is a reduction now, going to the mark
// like any other (reduce), so that the room their paging calls are fitted
// to is the room the next request has. Then every marker's paging call is given a
// limit that fits the request as it will be when the page enters: the
// budget, less this request and the call that asks for the page, and no
// more than a result's share, so that the page leaves room for the rounds
// after it.
func (l ladder) admit(h []message, start int) ([]message, trimReport) {
	l.starts = groupStarts(h) // once a request: holding results and the rungs change no group's start
	_, before := l.price(h)
	h, held, heldSaved := l.holdToShare(h, start)
	total := before - heldSaved
	rep := trimReport{before: total, after: total}
	fresh := len(h) - start // at the end of h, whatever older groups go
	if total > l.limit {
		h, rep = l.reduce(h)
	}
	// A result held to its share is a result cut to fit: said like rung
	// c's cuts, in the same report, so the events, the notice and
	// /context tell one story.
	rep.before, rep.shrunk, rep.shrunkSaved = before, rep.shrunk+held, rep.shrunkSaved+heldSaved
	room := max(min(l.limit-rep.after-callReserve, l.resultShare()), 1) // 1: the fewest a page may ask (minPage)
	for i := len(h) - fresh; i < len(h); i++ {
		was := l.est(h[i])
		pageIn(&h[i], room, l.est)
		d := l.est(h[i]) - was // a limit of other digits: the report still adds up
		rep.after, rep.shrunkSaved = rep.after+d, rep.shrunkSaved-d
	}
	return h, rep
}

// resultShare is the most tokens one fresh result may take: the room
// between the mark and the limit shared by roundsAfter rounds, so that
// after a reduction to the mark that many rounds append before the next
// (a sixteenth of the budget at the default mark); at least loopShare of
// it, and at a mark at the limit a tenth of a small budget.
func (l ladder) resultShare() int {
	gap := l.limit - min(l.mark, l.limit)
	if gap < l.limit/smallShare {
		return max(l.limit/loopShare, min(loopShareFloor, l.limit/smallShare))
	}
	return max(gap/roundsAfter, l.limit/(3*loopShare))
}

// small reports whether the budget is small: its results are held to
// their share from a turn's first round on.
func (l ladder) small() bool { return l.limit < smallBudget }

// fixedParts is what of h no trimming drops: its leading system messages
// (lead), and those with its last turn group (turn).
func fixedParts(h []message) (lead, turn []message) {
	n := leadLen(h)
	lead = h[:n:n]
	starts := groupStarts(h)
	if len(starts) == 0 {
		return lead, h
	}
	return lead, append(lead, h[starts[len(starts)-1]:]...)
}

// lastStart is where the newest turn group of h begins (len(h): none).
func (l ladder) lastStart(h []message) int {
	if starts := l.starts; len(starts) > 0 {
		return starts[len(starts)-1]
	}
	return len(h)
}

// roundStart is where the current round's results begin: the tool
// messages ending h (len(h) when it ends with anything else).
func roundStart(h []message) int {
	i := len(h)
	for i > 0 && h[i-1].Role == roleTool {
		i--
	}
	return i
}

// keptStart is where the newest keep turn groups of h begin (at least
// one: the current turn).
func (l ladder) keptStart(h []message) int {
	starts := l.starts
	keep := max(l.keep, 1)
	if len(starts) <= keep {
		return leadLen(h)
	}
	return starts[len(starts)-keep]
}

// keptRounds is h after a turn: whole while it has at most
// INTERACTIVE_ROUND turn groups; past that, the session's first group (the
// task, as first said) and the newest, CONTEXT_TRIM_TARGET of them in all,
// in one go; dropped is how many groups went. Dropping the oldest group
// every turn would change the start of the history each turn, and the
// provider's prompt cache would be written again whole every turn; dropped
// to the mark, the next drop is that many turns away. round and share are
// those two settings.
func keptRounds(h []message, round int, share float64) (kept []message, dropped int) {
	limit := max(round, 1)
	starts := groupStarts(h)
	if len(starts) <= limit {
		return h, 0
	}
	if share <= 0 || share > 1 {
		share = defaultTrimTarget
	}
	keep := max(int(float64(limit)*share), min(limit, 2)) // the first and the newest, when the setting leaves room for two
	if keep < 2 {
		return keepGroups(h, keep), len(starts) - keep
	}
	out := append([]message(nil), h[:starts[1]]...) // the lead and the first group
	return append(out, h[starts[len(starts)-keep+1]:]...), len(starts) - keep
}

// keepGroups is /compact N, and keptRounds' when it keeps fewer than two:
// the lead and the newest n turn groups, the older ones gone whole. The
// person asked for it by name (/compact N, INTERACTIVE_ROUND), so what they
// wrote in those groups goes with them: the rule that a person's words
// stay is the budget's rungs' (toMark), which the person did not ask for.
func keepGroups(h []message, n int) []message {
	starts := groupStarts(h)
	drop := len(starts) - n
	if drop <= 0 || len(starts) == 0 {
		return h
	}
	out := append([]message(nil), h[:leadLen(h)]...)
	if drop >= len(starts) {
		return out
	}
	return append(out, h[starts[drop]:]...)
}

// A turn group is one user message plus the assistant and tool messages that
// follow it. Trimming drops whole groups, oldest first, so an assistant
// message with tool_calls never loses its results; leading system messages
// always stay.

// leadLen is the number of leading system messages.
func leadLen(h []message) int {
	n := 0
	for n < len(h) && h[n].Role == roleSystem {
		n++
	}
	return n
}

// groupStarts returns the index where each turn group begins. Messages
// between the lead and the first user message form a group of their own.
func groupStarts(h []message) []int {
	lead := leadLen(h)
	var starts []int
	for i := lead; i < len(h); i++ {
		if i == lead || h[i].Role == roleUser {
			starts = append(starts, i)
		}
	}
	return starts
}

// cancelledResult is the content given to a tool call that has no result.
const cancelledResult = `{"success": false, "error": "no result: cancelled"}`

// validate repairs a history so no provider sees an orphan: tool messages
// without their assistant tool_calls message are dropped, duplicates too, a
// call without a result gets a "no result: cancelled" tool message right
// after the results it has, and a call id used before in the history (or
// missing) is replaced by a fresh one, its results following it in order.
// Two calls sharing an id cannot both be answered: providers match a result
// to its call by id.
func validate(h []message) []message {
	out := make([]message, 0, len(h))
	used := map[string]bool{}
	for i := 0; i < len(h); i++ {
		m := h[i]
		if m.Role == roleTool {
			continue // reached only when not right after its call: an orphan
		}
		if m.Role != roleAssistant || len(m.ToolCalls) == 0 {
			out = append(out, m)
			continue
		}
		var renamed map[string][]string
		m.ToolCalls, renamed = freshIDs(m.ToolCalls, used)
		out = append(out, m)
		want := map[string]bool{}
		for _, tc := range m.ToolCalls {
			want[tc.ID] = true
		}
		for i+1 < len(h) && h[i+1].Role == roleTool {
			i++
			r := h[i]
			if q := renamed[r.ToolCallID]; len(q) > 0 {
				r.ToolCallID, renamed[r.ToolCallID] = q[0], q[1:]
			}
			if want[r.ToolCallID] {
				delete(want, r.ToolCallID)
				out = append(out, r)
			}
		}
		for _, tc := range m.ToolCalls {
			if want[tc.ID] {
				out = append(out, message{Role: roleTool, ToolCallID: tc.ID, Name: tc.Function.Name, Content: cancelledResult})
			}
		}
	}
	return out
}

// sameHistory compares histories as the provider would see them: the
// fields that go on the wire, not the local records beside them.
func sameHistory(a, b []message) bool {
	return slices.EqualFunc(a, b, func(x, y message) bool {
		return x.Role == y.Role && x.Content == y.Content && x.ToolCallID == y.ToolCallID &&
			x.Name == y.Name && slices.Equal(x.ToolCalls, y.ToolCalls)
	})
}
