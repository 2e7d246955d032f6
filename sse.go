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
type sseReader struct {
	br *bufio.Reader
}

// newSSEReader reads events from r.
func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 64*1024)}
}

// next returns the next event with data, or io.EOF at a clean end of body.
// Other read errors (a cut connection) are returned as they are.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	var data []byte
	hasData := false
	for {
		line, err := s.br.ReadBytes('\n')
		if len(line) > 0 || err == nil {
			line = bytes.TrimRight(line, "\r\n")
			if len(line) == 0 {
				if hasData {
					ev.data = string(data)
					return ev, nil
				}
				ev.name = ""
			} else {
				s.field(line, &ev, &data, &hasData)
			}
		}
		if err != nil {
			if hasData {
				ev.data = string(data)
				return ev, nil
			}
			return sseEvent{}, err
		}
	}
}

// field applies one non-empty line to the event being built.
func (s *sseReader) field(line []byte, ev *sseEvent, data *[]byte, hasData *bool) {
	if line[0] == ':' {
		return
	}
	name, value, found := bytes.Cut(line, []byte(":"))
	if !found {
		value = nil
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(name) {
	case "data":
		if *hasData {
			*data = append(*data, '\n')
		}
		*data = append(*data, value...)
		*hasData = true
	case "event":
		ev.name = string(value)
	case "error": // llama.cpp writes "error: {...}" instead of a data event
		ev.name = "error"
		*data = append((*data)[:0], value...)
		*hasData = true
	}
}
