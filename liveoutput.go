package main

import (
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// liveKeep bounds what the viewer keeps of a running call's output: its
// first and its last liveKeep bytes (the whole output goes on to the
// clipper and the spill file as before).
const liveKeep = 128 << 10

// liveOutput is the output of the tool call running now, as far as it has
// come, for the viewer (Ctrl+O while a tool runs): written after the run's
// secrets are replaced, read while the call goes on.
type liveOutput struct {
	name, caption string
	mu            sync.Mutex
	head          []byte // the first liveKeep bytes
	tail          ring   // the last liveKeep bytes after the head
	n             int64  // bytes written in all
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

// output is the call as a running entry of the turn's outputs: its text
// so far (all of it, or its head, a line saying how much is left out and
// its tail), cut to whole characters.
func (l *liveOutput) output() toolOutput {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := append([]byte(nil), l.head...)
	if kept := int64(len(l.head) + len(l.tail.buf)); kept < l.n {
		b = b[:len(b)-splitRune(b)] // the head cut a character
		b = fmt.Appendf(b, "\n… %s not shown while it runs …\n", humanBytes(l.n-kept))
		tail := l.tail.ordered()
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:] // the ring cut a character
		}
		b = append(b, tail...)
	} else {
		b = append(b, l.tail.ordered()...)
	}
	b = b[:len(b)-splitRune(b)] // a character still arriving
	text := string(b)
	return toolOutput{name: l.name, caption: l.caption, clip: wholeClip(text, utf8.RuneCountInString(text)), running: true}
}

// ordered is the ring's bytes, oldest first.
func (r *ring) ordered() []byte {
	if !r.full {
		return r.buf
	}
	return append(append([]byte(nil), r.buf[r.next:]...), r.buf[:r.next]...)
}

// goLive starts recording the output of the call about to run as the
// turn's running output and returns where the call writes: cl and the
// record. The record is dropped when the call's result joins the outputs
// (call), in the same step, so the viewer sees the one or the other.
func (tb *toolbox) goLive(name, args string, cl io.Writer) io.Writer {
	l := &liveOutput{name: name, caption: tb.red.text(caption(args)), tail: ring{buf: make([]byte, 0, liveKeep)}}
	tb.mu.Lock()
	tb.live = l
	tb.mu.Unlock()
	return io.MultiWriter(cl, newRedactWriter(l, tb.red))
}

// withLive is outs and, after them, the running call's output so far.
// The caller holds tb.mu.
func (tb *toolbox) withLive(outs []toolOutput) []toolOutput {
	if tb.live == nil {
		return outs
	}
	return append(outs, tb.live.output())
}
