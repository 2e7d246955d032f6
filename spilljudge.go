package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A sensitive spill is a spill file in TOOL_OUTPUT_DIR's sensitive part
// (sensitiveSpillDir): the place is the mark. A read of it by any tool
// (the ready paging call, fs_read_file, a search, a listing, a copy, @file
// and /add) is judged as a sensitive place is, asked every time and
// refused without a terminal; the fence never grants it; the viewer shows
// it to the person only. The mark is a directory, not a flag beside the
// file: a fenced process cannot reach the directory at all (so it can
// neither read, forge nor move a file out of it), and a spill is written
// there first and moved out only once the call's output is judged clean,
// so a call cut short, a failed move or a crash leave it marked.

// spillDirOf is where the output of a call with args is spilled: dir, or
// its sensitive part when the call's judgement found a sensitive file.
func spillDirOf(dir string, args map[string]any) string {
	if dir != "" && readSensitive(args) {
		return filepath.Join(dir, sensitiveSpillDir)
	}
	return dir
}

// readSensitive reports whether the approval judged a file the call reads
// sensitive (readsKey).
func readSensitive(args map[string]any) bool {
	j, ok := args[readsKey].(judged)
	if !ok {
		return false
	}
	for _, rc := range j.files {
		if rc.sensitive != "" {
			return true
		}
	}
	return false
}

// spillJudge judges one call's output as the fs tools judge a file's
// content, as it streams: it is sensitive when the call read a sensitive
// place it was allowed (spillDirOf), when the output holds a private key
// or a cloud secret (holdsKey, on the raw output), or when the
// redactor took a secret of this run out of it (the mark appears more
// often in what is kept than in what the tool printed): a command that
// printed that read a file holding it, and what else that file holds the
// redactor does not know.
type spillJudge struct {
	dir, tool string // TOOL_OUTPUT_DIR, the tool (for the file's name)
	now       time.Time
	read      bool // the call read a sensitive place it was allowed
	raw, kept markCount
	key       keyScan
	staged    string // the spill file, written in the sensitive part
}

// newSpillJudge starts judging a call of tool with args, spilled under dir.
func newSpillJudge(dir, tool string, args map[string]any, now time.Time) *spillJudge {
	return &spillJudge{dir: dir, tool: tool, now: now, read: readSensitive(args)}
}

// open is the clipper's spill opener: the file is made in the sensitive
// part (marked until judged clean), and what is written to it is counted.
func (j *spillJudge) open() (io.WriteCloser, string, error) {
	if j.dir == "" {
		return spillOpener("", j.tool, j.now)()
	}
	if err := spillRoom(j.dir); err != nil { // TOOL_OUTPUT_DIR itself is named when it is refused or full
		return nil, "", err
	}
	f, p, err := spillOpener(filepath.Join(j.dir, sensitiveSpillDir), j.tool, j.now)()
	if err != nil {
		return nil, "", err
	}
	j.staged = p
	return keptWriter{f, j}, p, nil
}

// keptWriter is the spill file, counting the marks of what it is given
// (the output after redaction).
type keptWriter struct {
	io.WriteCloser
	j *spillJudge
}

// Write counts p's marks and writes it.
func (k keptWriter) Write(p []byte) (int, error) {
	k.j.kept.add(p)
	return k.WriteCloser.Write(p)
}

// watch returns w with the raw output judged on its way (before the
// redactor: the tool's own bytes).
func (j *spillJudge) watch(w io.Writer) io.Writer { return rawJudged{w, j} }

// rawJudged passes the raw output on, judging it.
type rawJudged struct {
	w io.Writer
	j *spillJudge
}

// Write judges p and passes it on.
func (r rawJudged) Write(p []byte) (int, error) {
	r.j.raw.add(p)
	r.j.key.add(p)
	return r.w.Write(p)
}

// sensitive says why c, the finished output, is a sensitive spill ("" when
// it is not).
func (j *spillJudge) sensitive(c *clip) string {
	kept := j.kept.n
	if c.whole() {
		kept = strings.Count(c.headText(), redactedMark)
	}
	switch {
	case j.read:
		return "the call read a sensitive place"
	case j.key.found:
		return "the output holds a private key or a cloud secret"
	case kept > j.raw.n:
		return "the output held a secret of this run (redacted)"
	}
	return ""
}

// settle is c with its spill file where its judgement puts it: a sensitive
// output stays in the sensitive part (a whole one is written there now, so
// masking it later never spills it elsewhere); a clean one is moved out to
// TOOL_OUTPUT_DIR. A move that fails leaves it marked.
func (j *spillJudge) settle(c *clip) *clip {
	if why := j.sensitive(c); why != "" {
		if c.whole() && c.onDisk() == "" && j.dir != "" {
			if s := c.spilled(spillOpener(filepath.Join(j.dir, sensitiveSpillDir), j.tool, j.now)); s.spillError() == nil {
				return s
			}
		}
		return c
	}
	if j.staged == "" || c.onDisk() != j.staged {
		return c
	}
	if p, err := unstage(j.staged, j.dir, spillBase(j.tool, j.now)); err == nil {
		return c.withSpill(p, nil)
	}
	return c
}

// unstage moves a spill file judged clean from the sensitive part to dir,
// under the first of its names free there (never over another file), and
// returns its new path (base: the name without its suffix).
func unstage(staged, dir, base string) (string, error) {
	if err := privateDir(dir, os.Geteuid(), "TOOL_OUTPUT_DIR"); err != nil {
		return "", err
	}
	for i := 1; i < 1000; i++ {
		name := base + ".txt"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.txt", base, i)
		}
		p := filepath.Join(dir, name)
		err := os.Link(staged, p)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if err := os.Remove(staged); err != nil {
			os.Remove(p) // two names: keep the marked one
			return "", err
		}
		return p, nil
	}
	return "", fmt.Errorf("too many spill files named %s in %s", base, dir)
}

// markCount counts the redactor's mark in a stream, across writes.
type markCount struct {
	n     int
	carry []byte // the last len(mark)-1 bytes
}

// add counts the marks p holds or completes.
func (m *markCount) add(p []byte) {
	mark := []byte(redactedMark)
	m.n += bytes.Count(p, mark)
	if len(m.carry) > 0 { // marks that start in the carry and end in p
		m.n += bytes.Count(append(append([]byte(nil), m.carry...), p[:min(len(p), len(mark)-1)]...), mark)
	}
	m.carry = append(m.carry, p[max(0, len(p)-len(mark)+1):]...)
	m.carry = m.carry[max(0, len(m.carry)-len(mark)+1):]
}

// keyScan looks for a key (holdsKey) in a stream, across writes: the
// judgement runs only where a hint of one is (keyHints).
type keyScan struct {
	found bool
	tail  []byte // the last keyOverlap bytes
}

// add scans p after what came before.
func (k *keyScan) add(p []byte) {
	if k.found || len(p) == 0 {
		return
	}
	head := append(append([]byte(nil), k.tail...), p[:min(len(p), keyOverlap)]...)
	if hasKeyHint(head) || hasKeyHint(p) {
		k.found = holdsKey(append(append([]byte(nil), k.tail...), p...))
	}
	k.tail = append(k.tail, p[max(0, len(p)-keyOverlap):]...)
	k.tail = k.tail[max(0, len(k.tail)-keyOverlap):]
}

// hasKeyHint reports whether b holds one of keyHints.
func hasKeyHint(b []byte) bool {
	for _, h := range keyHints {
		if bytes.Contains(b, h) {
			return true
		}
	}
	return false
}
