package main

import (
	"slices"
	"sort"
)

// The rungs below masking (f, c, c', d, e and the person's words), which
// reduce (trim.go) climbs down once masking leaves a request above its
// mark: the stubs folded into one index line, this round's results cut,
// masked rounds and older turn groups let go. They follow the costs and
// the turn groups reduce found, and mark what goes rather than remove it.

// toTarget is the rungs after masking, which take the request of h (total
// tokens) down to the mark (a heal: to its limit) once masking leaves it
// above: the index's, this round's results' and the older turn groups'.
// gone marks what goes; costs and rep follow.
func (l ladder) toTarget(h []message, costs, orig []int, total, round, kept int, collapse bool, gone []bool, rep *trimReport) ([]message, int) {
	// f. the stubs fold into one index line when they take more than their
	// share of the limit (stubShare), oldest first: older turn groups'
	// rounds, then the current turn's but its newest, whose calls stay.
	f := &folder{end: l.foldEnd(h, round), round: round, groups: map[int]bool{}}
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
	round     int          // where this round's results begin: rung e may still cut them
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
	if host < 0 || l.least(h, costs, f.round, total)+costs[host]+l.est(idx) > l.limit {
		// No index, or none that fits the limit even with this round's
		// results cut to their floor (a tiny limit, after a heal): the
		// request must fit; the stubs' files stay on disk unnamed.
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

// least is what the request of h (total tokens) comes to with this
// round's results, h[round:], cut to their floor by rung e: the index is
// written when it fits beside that, as e then cuts them to make room.
func (l ladder) least(h []message, costs []int, round, total int) int {
	for i := round; i < len(h); i++ {
		total -= max(costs[i]-minFloor, 0) // minFloor characters cost at most as many tokens
	}
	return total
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
		// results are all small go (c'), then their rounds and answers
		// (d), as they would have had the index been counted, before this
		// round's results are cut.
		if !collapse || !l.roomByDrop(h, costs, orig, &total, total-(need-to), gone, rep) {
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
		// Nothing more can go: the index names fewer files, to fit the room
		// left beside this round's results at their floor (rung e cuts them
		// for it: a file the index does not name is lost to the model).
		idx, _ = l.planIndex(h, costs, gone, f.end, to-l.least(h, costs, f.round, total)-costs[host])
	}
	return idx, host, total
}

// roomByDrop takes the request of h (total tokens) towards target for
// the index: the masked rounds of older turn groups go (c'), else their
// rounds and answers (d: the first group's last, its words staying). It
// reports whether anything went.
func (l ladder) roomByDrop(h []message, costs, orig []int, total *int, target int, gone []bool, rep *trimReport) bool {
	was := *total
	if *total = l.collapse(h, costs, orig, *total, l.lastStart(h), gone, rep, target); *total < was {
		return true
	}
	for first := 1; first >= 0 && *total == was && !l.words; first-- {
		*total = l.dropRounds(h, costs, orig, *total, target, first, gone, rep)
	}
	return *total < was
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

// lastStart is where the newest turn group of h begins (len(h): none).
func (l ladder) lastStart(h []message) int {
	if starts := l.starts; len(starts) > 0 {
		return starts[len(starts)-1]
	}
	return len(h)
}
