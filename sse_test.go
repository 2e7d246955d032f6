package main

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAllEvents(r io.Reader) ([]sseEvent, error) {
	sr := newSSEReader(r)
	var out []sseEvent
	for {
		ev, err := sr.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, in string
		want     []sseEvent
	}{
		{"simple", "data: a\n\ndata: b\n\n", []sseEvent{{data: "a"}, {data: "b"}}},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []sseEvent{{data: "a"}, {data: "b"}}},
		{"comments skipped", ": keep-alive\n\ndata: a\n\n: OPENROUTER PROCESSING\n\n", []sseEvent{{data: "a"}}},
		{"multi-line data", "data: {\"a\":\ndata: 1}\n\n", []sseEvent{{data: "{\"a\":\n1}"}}},
		{"event name", "event: error\ndata: {}\n\n", []sseEvent{{name: "error", data: "{}"}}},
		{"no space after colon", "data:x\n\n", []sseEvent{{data: "x"}}},
		{"no trailing blank line", "data: a\n\ndata: last", []sseEvent{{data: "a"}, {data: "last"}}},
		{"unknown fields ignored", "id: 7\nretry: 10\ndata: a\n\n", []sseEvent{{data: "a"}}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// One byte per read: events split across reads must still parse.
			got, err := readAllEvents(iotest.OneByteReader(strings.NewReader(tc.in)))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("events(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("event %d of %q = %+v, want %+v", i, tc.in, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestSSEReaderCut(t *testing.T) {
	r := io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(io.ErrUnexpectedEOF))
	got, err := readAllEvents(r)
	if len(got) != 2 || !errors.Is(err, io.ErrUnexpectedEOF) && err != nil {
		t.Errorf("cut stream: events %+v, err %v", got, err)
	}
}

func FuzzSSEReader(f *testing.F) {
	f.Add("data: a\n\ndata: b\r\n\r\n: c\n\nevent: e\ndata: x\ndata: y\n\n")
	f.Add("data: [DONE]\n\n")
	f.Fuzz(func(t *testing.T, in string) {
		events, err := readAllEvents(strings.NewReader(in))
		if err != nil {
			t.Fatalf("reading from memory failed: %v", err)
		}
		total := 0
		for _, e := range events {
			total += len(e.data)
		}
		if total > len(in) {
			t.Errorf("events carry %d bytes of data from %d bytes of input", total, len(in))
		}
	})
}
