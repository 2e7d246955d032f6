package main

// This file holds the stream's idle deadline: a request whose answer
// stops arriving for the timeout is cancelled, however long it has run.

import (
	"context"
	"io"
	"time"
)

// idleReader cancels the request when no bytes arrive within d.
type idleReader struct {
	r io.Reader
	t *time.Timer
	d time.Duration
}

// idleTimeout wraps r so that d without a byte cancels the request with errIdle.
func idleTimeout(r io.Reader, d time.Duration, cancel context.CancelCauseFunc) io.Reader {
	if d <= 0 {
		return r
	}
	return &idleReader{r: r, d: d, t: time.AfterFunc(d, func() { cancel(errIdle) })}
}

// Read reads and restarts the idle timer.
func (i *idleReader) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	i.t.Reset(i.d)
	if err != nil {
		i.t.Stop()
	}
	return n, err
}
