package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Ollama's OpenAI-compatible endpoint (/v1/chat/completions) takes no
// options: it runs every request at the server's default context (4096
// tokens unless OLLAMA_CONTEXT_LENGTH or the Modelfile says otherwise),
// whatever the client sends. Only the native /api/chat honours a context
// size per request, as options.num_ctx. So with NUM_CTX set, yaicli speaks
// the native API to Ollama: the same conversation, in its shape (tool
// arguments as objects, images as base64 lists, tool results named by
// tool_name), answered as newline-delimited JSON. Without NUM_CTX nothing
// changes.

// ollamaWire is Ollama's native chat API.
type ollamaWire struct{ provider string }

// usesOllamaNative reports whether requests go to Ollama's native API.
func usesOllamaNative(o clientOptions) bool { return o.provider == providerOllama && o.NumCtx > 0 }

// requestURL is where a wire format's requests go: the path under
// BASE_URL, or for Ollama's native API under the server's root (BASE_URL
// without its /v1).
func requestURL(o clientOptions, w wireFormat) string {
	if _, ok := w.(ollamaWire); ok {
		return strings.TrimSuffix(o.baseURL, "/v1") + w.path() // as serverRoot (modelwindow.go) finds the root
	}
	return endpoint(o.baseURL, w.path())
}

// isStreamType reports whether a response's Content-Type is a stream to
// read event by event: SSE, or Ollama's newline-delimited JSON.
func isStreamType(ct string) bool {
	return strings.HasPrefix(ct, "text/event-stream") || strings.HasPrefix(ct, "application/x-ndjson")
}

// path is the native chat endpoint under the server's root.
func (ollamaWire) path() string { return "/api/chat" }

// auth sets a bearer token when there is a key (a proxy in front of
// Ollama may want one; Ollama itself takes none).
func (ollamaWire) auth(h http.Header, key string) {
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
}

// ollamaMessage is one message of the native API.
type ollamaMessage struct {
	Role       string           `json:"role"`
	Content    string           `json:"content"`
	Thinking   string           `json:"thinking,omitempty"`
	Images     []string         `json:"images,omitempty"`
	ToolCalls  []ollamaToolCall `json:"tool_calls,omitempty"`
	ToolName   string           `json:"tool_name,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

// ollamaToolCall is a tool call of the native API: arguments are a JSON
// object, not a string holding one.
type ollamaToolCall struct {
	ID       string `json:"id,omitempty"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// body builds a native request: the sampling settings go in options, with
// num_ctx; EXTRA_BODY and EXCLUDE_PARAMS apply last (to options too).
func (ollamaWire) body(o clientOptions, req chatRequest) ([]byte, error) {
	opts := map[string]any{"num_ctx": o.NumCtx, "temperature": o.temperature, "top_p": o.topP}
	if req.MaxTokens > 0 {
		opts["num_predict"] = req.MaxTokens
	}
	if o.TopK != nil {
		opts["top_k"] = *o.TopK
	}
	if o.Seed != nil {
		opts["seed"] = *o.Seed
	}
	if o.FrequencyPenalty != nil {
		opts["frequency_penalty"] = *o.FrequencyPenalty
	}
	if o.PresencePenalty != nil {
		opts["presence_penalty"] = *o.PresencePenalty
	}
	for _, k := range o.excludeParams {
		delete(opts, k)
	}
	b := map[string]any{"model": o.model, "messages": ollamaMessages(req.Messages), "stream": o.stream, "options": opts}
	if len(req.Tools) > 0 {
		b["tools"] = req.Tools
	}
	if o.reasoningEffort != "" {
		b["think"] = strings.ToLower(o.reasoningEffort) // low, medium, high, as Ollama's think takes them
	}
	return json.Marshal(finishBody(o, b))
}

// ollamaMessages converts the conversation. Ollama's vision models do not
// see images in tool results, so those follow the round's tool results in
// a user message, as for OpenAI.
func ollamaMessages(h []message) []ollamaMessage {
	out := make([]ollamaMessage, 0, len(h))
	var pending []string
	var note []string
	for i, m := range h {
		om := ollamaMessage{Role: m.Role, Content: m.Content, Thinking: m.reasoning, ToolCallID: m.ToolCallID}
		if m.Role == roleTool {
			om.ToolName = m.Name
		}
		for _, tc := range m.ToolCalls {
			var c ollamaToolCall
			c.ID, c.Function.Name, c.Function.Arguments = tc.ID, tc.Function.Name, json.RawMessage(tc.Function.Arguments)
			if !json.Valid(c.Function.Arguments) || strings.TrimSpace(tc.Function.Arguments) == "" {
				c.Function.Arguments = json.RawMessage("{}")
			}
			om.ToolCalls = append(om.ToolCalls, c)
		}
		for _, img := range m.images {
			switch {
			case img.url != "": // the native API takes base64 only
				om.Content = strings.TrimSpace(om.Content + "\n\n[image " + img.url + " left out: Ollama takes image files, not URLs]")
			case m.Role == roleTool:
				pending = append(pending, img.data)
				note = append(note, fmt.Sprintf("The image %s read by %s (call %s).", img.label(), m.Name, m.ToolCallID))
			default:
				om.Images = append(om.Images, img.data)
			}
		}
		out = append(out, om)
		if len(pending) > 0 && (i+1 == len(h) || h[i+1].Role != roleTool) {
			out = append(out, ollamaMessage{Role: roleUser, Content: strings.Join(note, "\n"), Images: pending})
			pending, note = nil, nil
		}
	}
	return out
}

// ollamaChunk is one line of a native answer (or the whole of one).
type ollamaChunk struct {
	Message struct {
		Content   string           `json:"content"`
		Thinking  string           `json:"thinking"`
		ToolCalls []ollamaToolCall `json:"tool_calls"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
}

// add folds one chunk into the assembler: text (with <think> spans
// split off), thinking, whole tool calls, and at the end the reason and
// the counts.
func (ch *ollamaChunk) add(a *assembler) error {
	a.reason(ch.Message.Thinking)
	if ch.Message.Content != "" {
		text, reasoning := a.think.split(ch.Message.Content)
		a.reason(reasoning)
		a.emit(text)
	}
	for _, tc := range ch.Message.ToolCalls {
		d := toolCallDelta{Index: json.RawMessage(strconv.Itoa(len(a.calls))), ID: tc.ID, Type: "function"}
		d.Function.Name, d.Function.Arguments = tc.Function.Name, string(tc.Function.Arguments)
		a.call(&d)
	}
	if ch.Done {
		a.r.FinishReason = cmp.Or(ch.DoneReason, "stop") // stop, length, load
		a.r.Usage = usage{PromptTokens: ch.PromptEvalCount, CompletionTokens: ch.EvalCount}
	}
	return a.err
}

// stream reads newline-delimited JSON until the line with done.
func (w ollamaWire) stream(body io.Reader, sink streamSink) (reply, error) {
	a := &assembler{provider: w.provider, sink: sink}
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64*1024), maxSSEEvent)
	done := false
	for !done && sc.Scan() {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if e := bodyError(w.provider, line); e != nil {
			return a.finish(), e
		}
		var ch ollamaChunk
		if json.Unmarshal(line, &ch) != nil {
			continue
		}
		if err := ch.add(a); err != nil {
			return a.finish(), err
		}
		done = ch.Done
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = &limitError{what: "one line of the answer stream", limit: maxSSEEvent}
		}
		return a.finish(), cutOff(err, w.provider)
	}
	r := a.finish()
	if !done {
		return r, errors.New(`the stream ended before the answer was complete (no "done": true); try again`)
	}
	return r, nil
}

// whole reads a non-streamed native answer.
func (w ollamaWire) whole(b []byte, sink streamSink) (reply, error) {
	if e := bodyError(w.provider, b); e != nil {
		return reply{}, e
	}
	var ch ollamaChunk
	if err := json.Unmarshal(b, &ch); err != nil {
		return reply{}, fmt.Errorf("provider answered with something that is not JSON: %.200q", b)
	}
	ch.Done = true
	a := &assembler{provider: w.provider, sink: sink}
	err := ch.add(a)
	return a.finish(), err
}
