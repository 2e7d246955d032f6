package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// rpcReader reads newline-delimited JSON-RPC messages from an MCP server's
// stdout. A message up to maxRPCMessage is decoded in memory; a longer one
// is streamed to an unlinked temporary file (the server may answer a
// tools/call with hundreds of megabytes) while its top-level "id" is picked
// out for routing, up to maxRPCSpill, past which the server is cut off.
type rpcReader struct {
	br       *bufio.Reader
	line     []byte
	max      int   // bytes of one message held in memory
	spillMax int64 // bytes of one message streamed to disk
	tmpDir   string
	whole    bool // the message is the whole stream (an HTTP body), newlines and all
}

// newRPCReader reads messages from r, spilling big ones under tmpDir ("" =
// the system's temporary directory).
func newRPCReader(r io.Reader, tmpDir string) *rpcReader {
	return &rpcReader{br: bufio.NewReaderSize(r, 64*1024), max: maxRPCMessage, spillMax: maxRPCSpill, tmpDir: tmpDir}
}

// bigMessage is a message too long to hold in memory, in a temporary file
// that is already unlinked: closing it frees the disk.
type bigMessage struct {
	f    *os.File
	size int64
}

// Error says what the message was, for callers that cannot stream it.
func (b *bigMessage) Error() string {
	return fmt.Sprintf("the answer is %s, more than the %s yaicli holds in memory for one JSON-RPC message", sizeText(b.size), sizeText(maxRPCMessage))
}

// next returns the next message; lines that are not JSON-RPC are skipped.
// It returns io.EOF (or the read error) when the stream ends, and a
// *limitError when one message passes spillMax.
func (r *rpcReader) next() (rpcMessage, error) {
	for {
		line, err := r.readLine()
		if big, ok := err.(*bigStart); ok {
			m, err := r.spill(big.head)
			if err != nil || len(m.ID) > 0 || m.Error != nil {
				return m, err
			}
			continue // too big and not a response: nothing to route it to
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var m rpcMessage
			if json.Unmarshal(line, &m) == nil {
				return m, nil
			}
		}
		if err != nil {
			return rpcMessage{}, err
		}
	}
}

// readWhole reads the stream as one message (an HTTP response body),
// spilling it like a long line when it passes r.max.
func (r *rpcReader) readWhole() (rpcMessage, error) {
	r.whole = true
	head, err := io.ReadAll(io.LimitReader(r.br, int64(r.max)+1))
	if err != nil {
		return rpcMessage{}, err
	}
	if len(head) > r.max {
		return r.spill(head)
	}
	var m rpcMessage
	err = json.Unmarshal(head, &m)
	return m, err
}

// bigStart is readLine's signal that the line passed r.max: head is what
// was read of it so far.
type bigStart struct{ head []byte }

// Error is never shown: next handles bigStart.
func (*bigStart) Error() string { return "message longer than the in-memory limit" }

// readLine returns the next line, or a *bigStart once it passes r.max.
func (r *rpcReader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		frag, err := r.br.ReadSlice('\n')
		r.line = append(r.line, frag...)
		if len(r.line) > r.max {
			return nil, &bigStart{head: r.line}
		}
		if err != bufio.ErrBufferFull {
			return r.line, err
		}
	}
}

// spill streams the rest of a long line to a temporary file and returns it
// as a message with the id it carried and the file attached.
func (r *rpcReader) spill(head []byte) (rpcMessage, error) {
	f, err := os.CreateTemp(r.tmpDir, "yaicli-mcp-*.json")
	if err != nil {
		return rpcMessage{}, r.drain(fmt.Errorf("keeping a long message from the server: %w", err))
	}
	os.Remove(f.Name()) // unlinked: nothing is left behind, whatever happens
	var sn topSniffer
	size := int64(0)
	write := func(p []byte) error {
		sn.feed(p)
		size += int64(len(p))
		if size > r.spillMax {
			return &limitError{what: "one JSON-RPC message", limit: r.spillMax}
		}
		_, err := f.Write(p)
		return err
	}
	err = write(head)
	done := !r.whole && bytes.HasSuffix(head, []byte("\n"))
	for err == nil && !done {
		frag, rerr := r.br.ReadSlice('\n')
		if len(frag) > 0 {
			err = write(frag)
		}
		switch {
		case err != nil:
		case rerr == bufio.ErrBufferFull:
		case rerr != nil:
			err = rerr
		default:
			done = !r.whole
		}
	}
	if err != nil && err != io.EOF {
		f.Close()
		return rpcMessage{}, err
	}
	return sn.message(f, size), nil
}

// drain skips the rest of the current line and returns why.
func (r *rpcReader) drain(why error) error {
	for {
		_, err := r.br.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return why
		}
	}
}

// topSniffer picks the top-level members of a JSON object as it streams
// by, without holding it: the raw "id" (if short) and whether "method",
// "result" and "error" are present.
type topSniffer struct {
	depth         int
	inStr, esc    bool
	inKey         bool
	expectKey     bool
	key, cur      []byte
	id            []byte
	idLong        bool
	method        bool
	result, error bool
}

// feed scans the next bytes.
func (s *topSniffer) feed(p []byte) {
	for _, c := range p {
		if s.inStr {
			s.stringByte(c)
			continue
		}
		switch c {
		case '{', '[':
			if s.depth == 1 && string(s.cur) == "id" {
				s.idLong = true // an object or array is no id
			}
			s.depth++
			s.expectKey = s.depth == 1 && c == '{'
		case '}', ']':
			s.depth--
		case ':':
			if s.depth == 1 {
				s.cur = append(s.cur[:0], s.key...)
				s.expectKey = false
				s.present()
			}
		case ',':
			if s.depth == 1 {
				s.expectKey, s.cur = true, s.cur[:0]
			}
		case ' ', '\t', '\n', '\r':
		case '"':
			s.inStr = true
			if s.depth == 1 && s.expectKey {
				s.inKey, s.key = true, s.key[:0]
			} else {
				s.capture(c)
			}
		default:
			s.capture(c)
		}
	}
}

// stringByte scans one byte inside a string: a key, the id, or any value.
func (s *topSniffer) stringByte(c byte) {
	switch {
	case s.esc:
		s.esc = false
	case c == '\\':
		s.esc = true
	case c == '"':
		s.inStr = false
		if s.inKey {
			s.inKey = false
			return
		}
	}
	if s.inKey {
		if len(s.key) < 16 {
			s.key = append(s.key, c)
		}
		return
	}
	s.capture(c)
}

// present notes which member's value starts.
func (s *topSniffer) present() {
	switch string(s.cur) {
	case "method":
		s.method = true
	case "result":
		s.result = true
	case "error":
		s.error = true
	case "id":
		s.id, s.idLong = s.id[:0], false
	}
}

// capture keeps the bytes of the id's value, while it is short.
func (s *topSniffer) capture(c byte) {
	if s.depth != 1 || string(s.cur) != "id" {
		return
	}
	if len(s.id) >= 128 {
		s.idLong = true
		return
	}
	s.id = append(s.id, c)
}

// message is what was sniffed, as a message: a response with the file, an
// error response, or nothing routable.
func (s *topSniffer) message(f *os.File, size int64) rpcMessage {
	m := rpcMessage{JSONRPC: "2.0"}
	if s.idLong || s.method || !json.Valid(s.id) || len(s.id) == 0 {
		f.Close()
		return m
	}
	m.ID = json.RawMessage(append([]byte(nil), s.id...))
	if s.error && !s.result {
		f.Close()
		m.Error = &rpcError{Code: -32603, Message: fmt.Sprintf("the server's error answer is %s, more than the %s yaicli reads", sizeText(size), sizeText(maxRPCMessage))}
		return m
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		m.Error = &rpcError{Code: -32603, Message: "reading back a long answer: " + err.Error()}
		return m
	}
	m.big = &bigMessage{f: f, size: size}
	return m
}

// writeBig streams a tools/call answer too long for memory into the tool
// result as it is (raw JSON-RPC, valid JSON inside the result's JSON), so
// the clipper spills it in full and the model gets its head and tail.
func writeBig(w io.Writer, server, tool string, big *bigMessage) error {
	defer big.f.Close()
	note := fmt.Sprintf("the server's answer is %s, more than yaicli decodes in memory (%s): it is given raw", sizeText(big.size), sizeText(maxRPCMessage))
	head, _ := json.Marshal(map[string]string{"server": server, "tool": tool, "note": note})
	if _, err := w.Write(append(head[:len(head)-1], `,"answer":`...)); err != nil {
		return err
	}
	if err := copyRunes(w, io.LimitReader(big.f, big.size)); err != nil {
		return fmt.Errorf("reading back the long answer of MCP server %s: %w", server, err)
	}
	_, err := io.WriteString(w, "}\n")
	return err
}

// copyRunes copies r to w in writes that hold whole UTF-8 sequences, as the
// clipper needs. (The message's own newline stays: JSON allows it there.)
func copyRunes(w io.Writer, r io.Reader) error {
	buf := make([]byte, 64*1024)
	carry := 0
	for {
		n, err := r.Read(buf[carry:])
		n += carry
		cut := n
		if err == nil {
			cut = runeCut(buf[:n])
		}
		if cut > 0 {
			if _, werr := w.Write(buf[:cut]); werr != nil {
				return werr
			}
		}
		carry = copy(buf, buf[cut:n])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// runeCut is the length of p's longest prefix that ends on a character
// boundary (an incomplete sequence at the end is held back; invalid bytes
// are not, so nothing waits forever).
func runeCut(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if utf8.FullRune(p[i:]) {
				return len(p)
			}
			return i
		}
	}
	return len(p)
}
