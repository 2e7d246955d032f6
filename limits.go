package main

import (
	"errors"
	"fmt"
)

// Every input that arrives from outside has a size limit, so a broken or
// hostile provider or MCP server cannot make yaicli grow without bound. The
// sizes are far above what a working peer sends, and low enough that one
// input at its limit keeps the process well under 64 MiB above idle (the
// data is held about twice: the bytes read and the strings decoded).
const (
	// maxSSEEvent bounds one server-sent event (and so one line of it):
	// providers send a few hundred bytes per delta; the biggest real events
	// carry a whole tool call's arguments at once (Gemini), which
	// maxToolArgs bounds below this.
	maxSSEEvent = 8 << 20

	// maxBody bounds a non-streamed answer after decompression: the answer
	// text and the tool calls' arguments with JSON's escaping. A gzip bomb
	// stops here instead of expanding a thousandfold in memory.
	maxBody = 16 << 20

	// maxAnswerText bounds one answer's text and reasoning together: models
	// write at most ~128k output tokens (about 512 KB); sixteen times that
	// is a stream that will not stop, not an answer.
	maxAnswerText = 8 << 20

	// maxToolArgs bounds one tool call's arguments: a call that writes a
	// file carries the file, and no model writes more than its output cap
	// (about 512 KB) in one answer.
	maxToolArgs = 4 << 20

	// maxToolCalls bounds the tool calls (Anthropic: content blocks) of one
	// answer. Models call a handful in parallel; OpenAI offers at most 128
	// tools a request. An index outside [0, maxToolCalls) is a broken stream.
	maxToolCalls = 128

	// maxRPCMessage bounds one JSON-RPC message from an MCP server held in
	// memory: tool lists and ordinary results are kilobytes. A tools/call
	// result beyond it is streamed to disk and into the tool-output clipper
	// instead (spilled in full, truncated for the model), up to maxRPCSpill.
	maxRPCMessage = 4 << 20

	// maxRPCSpill bounds a tools/call result streamed to disk: a gigabyte
	// is more than any model will page through, and a server that sends
	// more is not ending its message at all.
	maxRPCSpill = 1 << 30

	// maxImageBytes bounds one image file read for --image or fs_read_image:
	// OpenAI's documented limit for one image is 20 MB, so yaicli refuses
	// nothing a provider takes. It is the one input above the 64 MiB rule:
	// it is a local file the person named or allowed the read of, never a
	// peer's stream, and the conversation holds its base64 (a third more)
	// and each request body a copy of that. Measured (BenchmarkImageRSS):
	// a 5 MB PNG peaks the process at 45 MiB, a 19 MB one at 159 MiB.
	maxImageBytes = 20 << 20

	// maxPipedPrompt bounds the text piped into a one-shot question
	// (cat log | yaicli "why does it fail?"): it is sent whole, and 16 MiB
	// is about four million tokens, past every model's window, so more is
	// a mistake to say at once rather than read into memory and send.
	maxPipedPrompt = 16 << 20

	// anthropicMaxImageBase64 is Anthropic's limit for one image, which it
	// measures on the base64 it receives (its rejection reads "image
	// exceeds 5 MB maximum: 15908784 bytes > 5242880 bytes").
	anthropicMaxImageBase64 = 5 << 20

	// anthropicMaxImageSide is the most pixels a side Anthropic takes.
	anthropicMaxImageSide = 8000
)

// limitError is an input that broke one of the limits above: who sent it,
// what it was, and the limit. It ends the turn; the history is kept.
type limitError struct {
	side  string // "provider openai", "MCP server files"; filled in by the caller that knows
	what  string // "one server-sent event"
	limit int64
}

// Error names the side, the input and the limit, on one line.
func (e *limitError) Error() string {
	side := e.side
	if side == "" {
		side = "the peer"
	}
	return fmt.Sprintf("%s sent more than %s in %s (yaicli's limit); the turn was stopped there and the conversation before it is kept", side, sizeText(e.limit), e.what)
}

// blame fills in the side of a limit error that a lower layer returned
// without knowing who it was reading from; other errors pass unchanged.
func blame(err error, side string) error {
	var le *limitError
	if errors.As(err, &le) && le.side == "" {
		le.side = side
	}
	return err
}

// sizeText renders a byte count the way people read it: 8 MiB, 300 KiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// peerError is a stream that breaks the protocol past repair (a tool-call
// index no answer can have): like a limitError it is the peer's fault, said
// in one line, and not a transport failure to retry.
type peerError struct{ msg string }

// Error is the message as it was built.
func (e *peerError) Error() string { return e.msg }

// brokenPeer builds a peerError from a format and arguments.
func brokenPeer(format string, args ...any) error {
	return &peerError{msg: fmt.Sprintf(format, args...)}
}
