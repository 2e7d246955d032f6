package main

import (
	"fmt"
	"sync"
	"time"
	"unicode/utf8"
)

// liveKeep bounds what the viewer keeps of a running call's output: its
// first and its last liveKeep bytes (the whole output goes on to the
// clipper and the spill file as before).
const liveKeep = 128 << 10

// liveOutput is the output of the tool call running now, as far as it has
// come, for the viewer (Ctrl+O while a tool runs): the toolbox writes the
// call's output to it as it comes, the viewer reads it while the call goes
// on. What it keeps is redacted when it is read (clip), not as it is
// written: a command's 40 MB pass the redactor once (the clipper's), not
// twice, and nothing is held back, so the last line shows as soon as it
// is written (a possible start of a key there is shorter than a run, and
// the run it begins is redacted once more of it is kept).
type liveOutput struct {
	name, caption string
	red           *redactor // the run's secrets, replaced in what is read
	mu            sync.Mutex
	head          []byte    // the first liveKeep bytes
	tail          ring      // the last liveKeep bytes after the head
	n             int64     // bytes written in all
	started       time.Time // when the call began, by the run's clock: the viewer says how long it runs
	read          *clip     // the last clip read, while n is readN
	readN         int64
}

// newLiveOutput records the output of a call of name (caption: its
// command or path, for the viewer's list).
func newLiveOutput(name, caption string) *liveOutput {
	return &liveOutput{name: name, caption: caption, tail: ring{buf: make([]byte, 0, liveKeep)}}
}

// ranFor is how long the call has run by now (nil: no clock, 0).
func (l *liveOutput) ranFor(now func() time.Time) time.Duration {
	if now == nil || l.started.IsZero() {
		return 0
	}
	return now().Sub(l.started)
}

// Write keeps p's head and tail.
func (l *liveOutput) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n += int64(len(p))
	rest := p
	if room := liveKeep - len(l.head); room > 0 {
		k := min(room, len(rest))
		l.head = append(l.head, rest[:k]...)
		rest = rest[k:]
	}
	l.tail.write(rest)
	return len(p), nil
}

// clip is the output so far as a whole clip, with the run's secrets
// replaced: all of it, or its head, a line saying how much is left out
// and its tail (each redacted on its own), cut to whole characters.
func (l *liveOutput) clip() *clip {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.read != nil && l.readN == l.n { // the viewer redraws more often than a quiet command writes
		return l.read
	}
	var b []byte
	if kept := int64(len(l.head) + len(l.tail.buf)); kept < l.n {
		head := l.head[:len(l.head)-splitRune(l.head)] // the head cut a character
		b = append(b, l.red.text(string(head))...)
		b = fmt.Appendf(b, "\n… %s not shown while it runs …\n", humanBytes(l.n-kept))
		tail := l.tail.ordered()
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:] // the ring cut a character
		}
		tail = tail[:len(tail)-splitRune(tail)] // a character still arriving
		b = append(b, l.red.text(string(tail))...)
	} else {
		all := append(append([]byte(nil), l.head...), l.tail.ordered()...)
		b = append(b, l.red.text(string(all[:len(all)-splitRune(all)]))...) // a character still arriving
	}
	l.read, l.readN = wholeClip(string(b), utf8.RuneCount(b)), l.n
	return l.read
}

// ordered is the ring's bytes, oldest first.
func (r *ring) ordered() []byte {
	if !r.full {
		return r.buf
	}
	return append(append([]byte(nil), r.buf[r.next:]...), r.buf[:r.next]...)
}
