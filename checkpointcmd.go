package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The checkpoints as the session and the toolbox use them: the toolbox
// saves what a call will change before it runs and logs what it changed
// after (checkpointBefore, checkpointAfter); the session opens and closes
// turns, and /undo and /rewind take turns back (checkpoint.go: the store).

// cpTarget is one path a call is about to change.
type cpTarget struct {
	path    string
	shallow bool   // a directory the call makes to hold files
	movedTo string // the source of a move: where it goes
	before  string // its print before the call, to tell what changed
}

// cpCall is one call between what it saved and its log entry.
type cpCall struct {
	tool    string
	targets []cpTarget
	states  []pathState
}

// writtenTargets are the paths a permitted call of t will change, read
// from its definition (writtenPaths, tools.go: its written path arguments
// as judged, or its plan's), each after the directories a write makes to
// hold it, and a move's source last, as it is taken back first: by moving
// it back.
func (tb *toolbox) writtenTargets(t tool, args map[string]any) []cpTarget {
	src, dest, moving := movePlanned(args)
	var ts, moved []cpTarget
	made := map[string]bool{}
	for _, p := range t.writtenPaths(args) {
		if p = tb.realWritten(p); p == "" {
			continue
		}
		if d := firstMissing(filepath.Dir(p)); d != "" && !made[d] {
			made[d] = true
			ts = append(ts, cpTarget{path: d, shallow: true})
		}
		if moving && p == src {
			moved = append(moved, cpTarget{path: p, movedTo: dest})
			continue
		}
		ts = append(ts, cpTarget{path: p})
	}
	return append(ts, moved...)
}

// realWritten is a written path as the change reaches it: as judged when
// absolute (a write's real file, a planned operation's leaf, never
// followed again), else judged now as a write is; "" when it cannot be.
func (tb *toolbox) realWritten(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	rc := tb.perm.writeCheck(p)
	if rc.err != nil {
		return ""
	}
	return rc.path
}

// movePlanned is the source and destination of a planned move
// (fs_file_operations' plan, fsops.go), which is taken back by moving it
// back rather than by a copy of what it moved.
func movePlanned(args map[string]any) (src, dest string, ok bool) {
	p, ok := args[planKey].(planned)
	if !ok || p.err != nil || p.op.op != "move" {
		return "", "", false
	}
	return p.op.path, p.op.dest, true
}

// tracked reports whether t's changes are checkpointed: a tool whose
// definition names paths it may write (written, planned, or used in ways
// not known, as an MCP tool's) is; one that changes things otherwise (a
// shell command) is not, and /rewind says so.
func tracked(t tool) bool {
	for _, pa := range t.paths {
		if pa.use != pathReads {
			return true
		}
	}
	return !t.changes
}

// firstMissing is the outermost directory of path (path included) that
// does not exist, which making path makes; "" when path exists.
func firstMissing(path string) string {
	missing := ""
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = p
		if filepath.Dir(p) == p {
			return missing
		}
	}
}

// checkpointNote is what the approval question says of the paths a call
// would change that are not saved (too large); "" when all are.
func (tb *toolbox) checkpointNote(t tool, args map[string]any) string {
	if tb.cp == nil || !tb.cp.o.on {
		return ""
	}
	var b strings.Builder
	for _, tg := range tb.writtenTargets(t, args) {
		fi, err := os.Lstat(tg.path)
		if err != nil || tg.movedTo != "" {
			continue
		}
		if size, n := sizeUnder(tg.path, fi); size > tb.cp.o.maxFileBytes || n > cpTreeMax {
			fmt.Fprintf(&b, "checkpoint: %s is not saved first (%s): /undo could not bring it back\n", sanitize(tg.path), tb.cp.tooLarge(size, n)) // shown, never obeyed
		}
	}
	return b.String()
}

// checkpointBefore saves what a permitted call is about to change, and
// tells the person, before the change, of a path it cannot save; nil when
// the call changes no tracked path (a call of a tool whose changes are
// not tracked is noted in the turn).
func (tb *toolbox) checkpointBefore(t tool, args map[string]any) *cpCall {
	cp := tb.cp
	if cp == nil || !cp.inTurn() {
		return nil
	}
	if !tracked(t) {
		cp.untracked(t.name)
		return nil
	}
	ts := tb.writtenTargets(t, args)
	if len(ts) == 0 {
		return nil
	}
	cp.hold()
	cp.created = nil
	c := &cpCall{tool: t.name}
	for _, tg := range ts {
		s := pathState{Kind: cpMoved, To: tg.movedTo}
		if tg.movedTo == "" {
			s = cp.snapshot(tg.path)
		}
		if tg.before = s.print(); tg.before == "" { // a file's print is its saved copy's: read once
			tg.before = fingerprint(tg.path, !tg.shallow)
		}
		if s.Kind == cpUnsaved {
			fmt.Fprintf(tb.preview, "yaicli: checkpoint: %s is not saved (%s); /undo cannot bring back what it holds now\n", sanitize(tg.path), sanitize(s.Why))
		}
		c.targets, c.states = append(c.targets, tg), append(c.states, s)
	}
	return c
}

// checkpointAfter logs what the call changed, a checkpoint event for each
// path, and keeps the store within CHECKPOINT_MAX_MB.
func (tb *toolbox) checkpointAfter(c *cpCall) {
	if c == nil {
		return
	}
	cp := tb.cp
	t := cp.turn()
	t.Calls++
	for i, tg := range c.targets {
		after := fingerprint(tg.path, !tg.shallow)
		if after == tg.before {
			continue // the call failed, or changed nothing here
		}
		s := c.states[i]
		if s.Kind == cpMoved {
			s.Print = fingerprint(s.To, true)
		}
		t.Changes = append(t.Changes, pathChange{Call: t.Calls, Tool: c.tool, Path: tg.path, Before: s, After: after, Shallow: tg.shallow})
		tb.ev.event("checkpoint", map[string]any{"id": tb.callID, "tool": c.tool, "turn": t.N, "path": tb.red.text(tg.path),
			"before": s.Kind, "saved": s.Kind != cpUnsaved, "bytes": s.Size, "why": s.Why})
	}
	cp.dropUnused() // under the shared lock still: the log names what it keeps
	if err := cp.writeLog(); err != nil && !cp.told {
		cp.told = true
		fmt.Fprintf(tb.preview, "yaicli: checkpoints could not be kept (%v); /undo will not know this turn's changes\n", err)
	}
	cp.release()
	for _, g := range cp.bound() {
		fmt.Fprintf(tb.preview, "yaicli: checkpoints: %s evicted to keep the store within CHECKPOINT_MAX_MB=%d\n", g, cp.o.maxBytes>>20)
	}
}

// inTurn reports whether a turn is open for the calls to log into.
func (st *cpStore) inTurn() bool { return st.turnOpen }

// turn is the open turn.
func (st *cpStore) turn() *cpTurn { return &st.sess.Turns[len(st.sess.Turns)-1] }

// untracked notes that the open turn ran name, whose changes are not
// tracked.
func (st *cpStore) untracked(name string) {
	t := st.turn()
	for _, n := range t.Untracked {
		if n == name {
			return
		}
	}
	t.Untracked = append(t.Untracked, name)
	st.dirty = true
}

// begin opens turn n+1 for the user message content (typed: the line as
// the person wrote it).
func (st *cpStore) begin(typed, content string) {
	line, _, _ := strings.Cut(strings.TrimSpace(typed), "\n")
	st.sess.Turns = append(st.sess.Turns, cpTurn{N: len(st.sess.Turns) + 1, Question: firstRunes(line, 80), Key: messageKey(content)})
	st.turnOpen, st.dirty = true, true
}

// end closes the open turn and writes the log, unless its last call did.
func (st *cpStore) end() {
	if !st.turnOpen {
		return
	}
	st.turnOpen = false
	if st.dirty {
		st.writeLog()
	}
}

// messageKey names a user message's text, to find its turn in a history.
func messageKey(content string) string {
	h := sha256.Sum256([]byte(content))
	return hex.EncodeToString(h[:8])
}

// undoTurn takes back t's changes, newest first; a change is restored
// only where what its call left is still there.
func (st *cpStore) undoTurn(t *cpTurn) []restoreResult {
	var out []restoreResult
	vacated := map[string]bool{}
	for i := len(t.Changes) - 1; i >= 0; i-- {
		out = append(out, st.restore(t.Changes[i], vacated))
	}
	t.Undone = true
	return out
}

// checkpoints is the session's store; nil when off or without tools.
func (s *session) checkpoints() *cpStore {
	if s.agent == nil || s.agent.tools == nil {
		return nil
	}
	return s.agent.tools.cp
}

// cpOff says why there is nothing to take back when the store is off.
func (s *session) cpOff(cmd string) bool {
	if s.checkpoints() != nil {
		return false
	}
	why := "checkpoints are off (CHECKPOINTS=false)"
	if s.agent == nil || s.agent.tools == nil {
		why = "the tools are off (ENABLE_FUNCTIONS=false), so no file was changed"
	}
	fmt.Fprintf(s.out, "%s: nothing to take back: %s\n", cmd, why)
	return true
}

// undo is /undo: the newest turn not taken back whose file changes are
// taken back, newest first; a path changed since is left and named.
func (s *session) undo(_ []string, _ string) {
	if s.cpOff("/undo") {
		return
	}
	cp := s.checkpoints()
	var t *cpTurn
	for i := len(cp.sess.Turns) - 1; i >= 0 && t == nil; i-- {
		if tt := &cp.sess.Turns[i]; !tt.Undone && len(tt.Changes) > 0 {
			t = tt
		}
	}
	if t == nil {
		fmt.Fprintln(s.out, "/undo: no file changes to take back in this session (yaicli's file tools changed nothing, or /undo took it all back)")
		s.untrackedSaid(cp.sess.Turns)
		return
	}
	res := cp.undoTurn(t)
	cp.writeLog()
	fmt.Fprintf(s.out, "undid turn %d (%q):\n", t.N, t.Question)
	s.sayRestored(res, t)
	s.save()
}

// untrackedSaid names the turns of ts that ran tools whose changes are not
// tracked.
func (s *session) untrackedSaid(ts []cpTurn) {
	for _, t := range ts {
		if len(t.Untracked) > 0 && !t.Undone {
			fmt.Fprintf(s.out, "  turn %d ran %s: what they changed is not tracked and stays as it is\n", t.N, strings.Join(t.Untracked, ", "))
		}
	}
}

// sayRestored tells what a take-back did, path by path (a path changed
// several times once, left if any of its changes was), notes for the
// model what the files are now (cpNote), and an event for each path.
func (s *session) sayRestored(res []restoreResult, t *cpTurn) {
	var order []string
	last := map[string]restoreResult{}
	for _, r := range res {
		if _, seen := last[r.path]; !seen {
			order = append(order, r.path)
		}
		if prev, seen := last[r.path]; !seen || prev.outcome == "restored" {
			last[r.path] = r
		}
		s.ev.event("checkpoint.restore", map[string]any{"turn": t.N, "path": s.red.text(r.path), "outcome": r.outcome, "why": r.why})
	}
	restored, left := 0, []string{}
	for _, p := range order {
		r := last[p]
		if r.outcome == "restored" {
			restored++
			fmt.Fprintf(s.out, "  restored %s\n", s.shownPath(p))
			continue
		}
		left = append(left, s.shownPath(p))
		fmt.Fprintf(s.out, "  left %s: %s\n", s.shownPath(p), r.why)
	}
	if len(t.Untracked) > 0 {
		fmt.Fprintf(s.out, "  turn %d also ran %s: what they changed is not tracked and stays as it is\n", t.N, strings.Join(t.Untracked, ", "))
	}
	if len(order) == 0 {
		fmt.Fprintln(s.out, "  no file changes to take back")
		return
	}
	fmt.Fprintf(s.out, "%s restored, %d left as %s\n", plural(restored, "path"), len(left), map[bool]string{true: "they are", false: "it is"}[len(left) != 1])
	note := fmt.Sprintf("[yaicli: the person took back the file changes of an earlier turn (%q) with /undo: %s are as they were before it", t.Question, plural(restored, "path"))
	if len(left) > 0 {
		note += "; left as they are (changed since): " + strings.Join(left, ", ")
	}
	s.cpNote += note + "]\n\n" // a second /undo before the next question adds its own
}

// shownPath is p as the person reads it: relative to the workspace when
// inside it.
func (s *session) shownPath(p string) string {
	if ws := s.o.perms.workDir; ws != "" {
		for _, base := range []string{ws, resolvePath(ws, "/")} {
			if rel, err := filepath.Rel(base, p); err == nil && insideDir(p, base) && rel != "." {
				return rel
			}
		}
	}
	return p
}

// rewind is /rewind: alone, the turns of the session; with N, the files
// as they were before turn N, and turns N onward gone from the
// conversation, so the next request holds none of them.
func (s *session) rewind(f []string, _ string) {
	if s.cpOff("/rewind") {
		return
	}
	cp := s.checkpoints()
	if len(f) < 2 {
		s.listTurns(cp.sess.Turns)
		return
	}
	n, err := strconv.Atoi(f[1])
	switch {
	case len(cp.sess.Turns) == 0:
		fmt.Fprintln(s.out, "/rewind: no turns in this session yet")
		return
	case err != nil || n < 1 || n > len(cp.sess.Turns):
		fmt.Fprintf(s.out, "/rewind takes the number of a turn from /rewind's list (1-%d)\n", len(cp.sess.Turns))
		return
	}
	var res []restoreResult
	var untracked []string
	for i := len(cp.sess.Turns) - 1; i >= n-1; i-- {
		t := &cp.sess.Turns[i]
		if !t.Undone {
			res = append(res, cp.undoTurn(t)...)
		}
		if len(t.Untracked) > 0 {
			untracked = append(untracked, fmt.Sprintf("turn %d ran %s: what they changed is not tracked and stays as it is", t.N, strings.Join(t.Untracked, ", ")))
		}
		if t.Evicted {
			untracked = append(untracked, fmt.Sprintf("turn %d's saved copies were evicted (CHECKPOINT_MAX_MB): its files stay as they are", t.N))
		}
	}
	cut := turnCut(s.hist, leadLen(s.hist), cp.sess.Turns, n)
	dropped := len(cp.sess.Turns) - n + 1
	cp.sess.Turns = cp.sess.Turns[:n-1]
	cp.writeLog()
	s.hist = validate(s.hist[:cut])
	s.cpNote = ""
	fmt.Fprintf(s.out, "rewound to before turn %d: %s dropped from the conversation\n", n, plural(dropped, "turn"))
	s.sayRestored(res, &cpTurn{N: n})
	s.cpNote = "" // the model never saw what was taken back: nothing to tell it
	for _, u := range untracked {
		fmt.Fprintf(s.out, "  %s\n", u)
	}
	s.save()
}

// listTurns is /rewind's list: each turn's question and the paths it
// changed, and what it ran that is not tracked.
func (s *session) listTurns(ts []cpTurn) {
	if len(ts) == 0 {
		fmt.Fprintln(s.out, "no turns in this session yet")
		return
	}
	for _, t := range ts {
		fmt.Fprintf(s.out, "%3d. %s\n", t.N, t.Question)
		var paths []string
		seen := map[string]bool{}
		for _, c := range t.Changes {
			if !seen[c.Path] {
				seen[c.Path] = true
				paths = append(paths, s.shownPath(c.Path))
			}
		}
		switch {
		case t.Evicted:
			fmt.Fprintln(s.out, "     its saved copies were evicted (CHECKPOINT_MAX_MB): its files cannot be taken back")
		case len(paths) > 0:
			state := "changed"
			if t.Undone {
				state = "changed (taken back by /undo)"
			}
			fmt.Fprintf(s.out, "     %s: %s\n", state, strings.Join(paths, ", "))
		default:
			fmt.Fprintln(s.out, "     no files changed by yaicli's file tools")
		}
		if len(t.Untracked) > 0 {
			fmt.Fprintf(s.out, "     ran %s: what they changed is not tracked\n", strings.Join(t.Untracked, ", "))
		}
	}
	fmt.Fprintln(s.out, "/rewind N puts the files back as they were before turn N and drops turns N onward from the conversation; /undo takes back the last turn's file changes only")
}

// turnCut is where turn n begins in h (after its lead of lead messages):
// the user messages are matched to the turns by their keys from the
// newest back, so turns the history lost (trimmed, compacted) are
// skipped; where no key matches (a saved chat's text was redacted), the
// turns are counted back from the newest user message.
func turnCut(h []message, lead int, ts []cpTurn, n int) int {
	cut, j := len(h), len(ts)-1
	for i := len(h) - 1; i >= lead && j >= n-1; i-- {
		if h[i].Role != roleUser {
			continue
		}
		k := messageKey(h[i].Content)
		for m := j; m >= n-1; m-- {
			if ts[m].Key == k {
				cut, j = i, m-1
				break
			}
		}
	}
	if cut < len(h) {
		return cut
	}
	want := len(ts) - n + 1
	for i := len(h) - 1; i >= lead && want > 0; i-- {
		if h[i].Role == roleUser {
			cut, want = i, want-1
		}
	}
	return cut
}

// cpContext is /context's line on the checkpoints.
func (s *session) cpContext() {
	cp := s.checkpoints()
	if cp == nil {
		return
	}
	changed := 0
	for _, t := range cp.sess.Turns {
		if len(t.Changes) > 0 && !t.Undone {
			changed++
		}
	}
	used := int64(0)
	if cp.open() == nil {
		used = cp.usage()
	}
	fmt.Fprintf(s.out, "checkpoints: %s of this session can be taken back (/undo, /rewind); the store takes %s of CHECKPOINT_MAX_MB=%d (%s)\n",
		plural(changed, "turn"), mib(used), cp.o.maxBytes>>20, cp.o.dir)
}

// chatExtra is what a saved chat keeps beside its history: the attached
// files and the checkpoint session.
func (s *session) chatExtra() savedChat {
	c := savedChat{Attached: s.attachedPaths()}
	if cp := s.checkpoints(); cp != nil {
		c.Checkpoints = cp.sess.ID
	}
	return c
}

// resumeCheckpoints continues a loaded chat's checkpoint session (id),
// so /undo and /rewind reach its turns; a chat without one starts anew.
func (s *session) resumeCheckpoints(id string) {
	cp := s.checkpoints()
	switch {
	case cp == nil:
	case id == "":
		cp.fresh()
	case !cp.resume(id):
		fmt.Fprintln(s.out, "this chat's checkpoints are gone (evicted to keep CHECKPOINT_MAX_MB, or removed): /undo cannot take back its earlier turns")
	}
}
