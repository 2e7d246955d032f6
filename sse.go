package main

import (
	"bufio"
	"bytes"
	"io"
)

// sseEvent is one server-sent event: its optional event name and its data
// lines joined with "\n".
type sseEvent struct {
	name string
	data string
}

// sseReader splits a text/event-stream into events. It accepts LF and CRLF,
// skips comments (": keep-alive", ": OPENROUTER PROCESSING"), joins
// multi-line data, and treats the end of the body as the end of the last
// event, so a stream without [DONE] still yields everything it carried.
// An event (one line of it included) longer than maxSSEEvent is an error, so
// a line that never ends or data lines that never stop cannot fill memory.
type sseReader struct {
	br   *bufio.Reader
	line []byte // the current line; reused, it grows to the longest line seen
	data []byte // the current event's data; reused too
	max  int
}

// newSSEReader reads events from r.
func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 64*1024), max: maxSSEEvent}
}

// errTooBig is what an event over the limit returns; the caller blames it
// on the provider or server it reads from.
func (s *sseReader) errTooBig() error {
	return &limitError{what: "one server-sent event", limit: int64(s.max)}
}

// next returns the next event with data, or io.EOF at a clean end of body.
// Other read errors (a cut connection) are returned as they are.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	s.data = s.data[:0]
	hasData := false
	for {
		line, err := s.readLine()
		if _, big := err.(*limitError); big {
			return sseEvent{}, err
		}
		if len(line) > 0 || err == nil {
			line = bytes.TrimRight(line, "\r\n")
			if len(line) == 0 {
				if hasData {
					ev.data = string(s.data)
					return ev, nil
				}
				ev.name = ""
			} else if !s.field(line, &ev, &hasData) {
				return sseEvent{}, s.errTooBig()
			}
		}
		if err != nil {
			if hasData {
				ev.data = string(s.data)
				return ev, nil
			}
			return sseEvent{}, err
		}
	}
}

// readLine returns the next line with its end, or what is left before the
// body's end or a read error, with that error. It holds at most max bytes.
// A line inside the read buffer is returned as it lies there, valid until
// the next read (next is done with it by then); only a longer one is
// gathered into s.line.
func (s *sseReader) readLine() ([]byte, error) {
	frag, err := s.br.ReadSlice('\n')
	if len(frag) > s.max+16 { // room for "data: " and the CRLF, which are not data
		return nil, s.errTooBig()
	}
	if err != bufio.ErrBufferFull {
		return frag, err
	}
	s.line = append(s.line[:0], frag...)
	for {
		frag, err := s.br.ReadSlice('\n')
		if len(s.line)+len(frag) > s.max+16 {
			return nil, s.errTooBig()
		}
		s.line = append(s.line, frag...)
		if err != bufio.ErrBufferFull {
			return s.line, err
		}
	}
}

// field applies one non-empty line to the event being built; false when the
// event's data would pass the limit.
func (s *sseReader) field(line []byte, ev *sseEvent, hasData *bool) bool {
	if line[0] == ':' {
		return true
	}
	name, value, found := bytes.Cut(line, []byte(":"))
	if !found {
		value = nil
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(name) {
	case "data":
		if len(s.data)+1+len(value) > s.max {
			return false
		}
		if *hasData {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, value...)
		*hasData = true
	case "event":
		ev.name = string(value)
	case "error": // llama.cpp writes "error: {...}" instead of a data event
		ev.name = "error"
		s.data = append(s.data[:0], value...)
		*hasData = true
	}
	return true
}
