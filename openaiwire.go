package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// OpenAI's chat completions wire, spoken by most providers: the request
// body shaped from the conversation (its images as parts, DeepSeek's
// reasoning beside its messages), and the answer read back, streamed or
// whole, through the assembler every wire shares (provider.go).

// openaiImage is an image content part of OpenAI's chat completions.
func openaiImage(img imagePart) map[string]any {
	return map[string]any{"type": "image_url", "image_url": map[string]any{"url": img.dataURL()}}
}

// partsMessage is a message whose content is a list of parts, as OpenAI
// takes text with images.
type partsMessage struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

// openaiMessages shapes the conversation for OpenAI's wire: plain when it
// has no images (each message as wrap makes it); otherwise a user
// message's images become image_url parts beside its text, and, since
// OpenAI takes images in user messages only, the images of tool results
// follow the round's last tool message in one user message that says
// which call read them.
func openaiMessages(h []message, wrap func(message) any) []any {
	out := make([]any, 0, len(h)+1)
	var pending []any // tool-result images waiting for the end of the round
	for i, m := range h {
		switch {
		case m.Role == roleUser && len(m.images) > 0:
			var parts []any
			if m.Content != "" {
				parts = append(parts, map[string]any{"type": "text", "text": m.Content})
			}
			for _, img := range m.images {
				parts = append(parts, openaiImage(img))
			}
			out = append(out, partsMessage{Role: roleUser, Content: parts})
		default:
			out = append(out, wrap(m))
		}
		if m.Role == roleTool {
			for _, img := range m.images {
				pending = append(pending, map[string]any{"type": "text", "text": fmt.Sprintf("The image %s read by %s (call %s):", img.label(), m.Name, m.ToolCallID)}, openaiImage(img))
			}
		}
		if len(pending) > 0 && (i+1 == len(h) || h[i+1].Role != roleTool) {
			out = append(out, partsMessage{Role: roleUser, Content: pending})
			pending = nil
		}
	}
	return out
}

// openaiWire is OpenAI's chat completions format, spoken by most providers.
type openaiWire struct{ provider string }

// path is the chat completions endpoint under BASE_URL.
func (openaiWire) path() string { return "/chat/completions" }

// auth sets the bearer token, when there is a key; Azure OpenAI takes
// the key in an api-key header instead.
func (w openaiWire) auth(h http.Header, key string) {
	switch {
	case key == "":
	case w.provider == providerAzure:
		h.Set("api-key", key)
	default:
		h.Set("Authorization", "Bearer "+key)
	}
}

// body builds the JSON request body, EXTRA_BODY and EXCLUDE_PARAMS applied last.
func (openaiWire) body(o clientOptions, req chatRequest) ([]byte, error) {
	var msgs any = req.Messages
	if o.provider == "deepseek" {
		msgs = withReasoning(req.Messages)
	}
	if hasImages(req.Messages) {
		wrap := func(m message) any { return m }
		if o.provider == "deepseek" {
			wrap = func(m message) any { return withReasoning([]message{m})[0] }
		}
		msgs = openaiMessages(req.Messages, wrap)
	} else if o.PromptCache && marksParts(o.provider, o.model) {
		msgs = markedParts(req.Messages, cacheMark(o.CacheTTL))
	}
	b := map[string]any{
		"model":       o.model,
		"messages":    msgs,
		"stream":      o.stream,
		"temperature": o.temperature,
		"top_p":       o.topP,
	}
	if req.MaxTokens > 0 {
		b["max_tokens"] = req.MaxTokens
	}
	if o.stream {
		b["stream_options"] = map[string]any{"include_usage": true}
	}
	if len(req.Tools) > 0 {
		b["tools"] = req.Tools
	}
	if o.reasoningEffort != "" {
		b["reasoning_effort"] = o.reasoningEffort
	}
	if o.PromptCache && takesCacheKey(o.provider) && req.cacheKey != "" {
		b["prompt_cache_key"] = req.cacheKey
	}
	openaiSampling(o.sampling, o.provider, b)
	return json.Marshal(finishBody(o, b))
}

// reasoningMessage is a message with its reasoning_content, as DeepSeek's
// thinking mode requires back on every assistant message of a tool loop
// (it answers 400 without them, and ignores them elsewhere).
type reasoningMessage struct {
	message
	ReasoningContent string `json:"reasoning_content,omitempty"`
}

// withReasoning attaches each assistant message's reasoning for DeepSeek.
func withReasoning(h []message) []reasoningMessage {
	out := make([]reasoningMessage, len(h))
	for i, m := range h {
		out[i] = reasoningMessage{message: m}
		if m.Role == roleAssistant {
			out[i].ReasoningContent = m.reasoning
		}
	}
	return out
}

// stream consumes an SSE body until [DONE] or its end.
func (w openaiWire) stream(body io.Reader, sink streamSink) (reply, error) {
	a := &assembler{provider: w.provider, sink: sink}
	sr := newSSEReader(body)
	done := false
	for !done {
		ev, err := sr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return a.finish(), cutOff(err, w.provider)
		}
		if strings.TrimSpace(ev.data) == "[DONE]" {
			done = true
			continue
		}
		if ev.name == "error" { // llama.cpp's "error:" lines, other servers' error events
			return a.finish(), classify(w.provider, 0, []byte(ev.data))
		}
		var ch chunk
		if !fastChunk(ev.data, &ch) { // ssefast.go: the common deltas; it declines any event with an error
			data := []byte(ev.data)                         // once: this loop runs for every delta
			if e := bodyError(w.provider, data); e != nil { // every shape, with or without choices
				return a.finish(), e
			}
			if err := json.Unmarshal(data, &ch); err != nil {
				continue // a keep-alive or vendor event we do not understand
			}
		}
		if err := a.add(&ch); err != nil {
			return a.finish(), err
		}
	}
	r := a.finish()
	if r.FinishReason == "error" { // OpenRouter: the upstream provider failed mid-answer
		return r, errors.New(`the provider ended the answer with finish_reason "error"; try again`)
	}
	if !done && r.FinishReason == "" {
		return r, errors.New("the stream ended before the answer was complete (no finish_reason, no [DONE]); try again")
	}
	return r, nil
}

// whole reads a non-streamed JSON response.
func (w openaiWire) whole(b []byte, sink streamSink) (reply, error) {
	var ch chunk
	if err := json.Unmarshal(b, &ch); err != nil {
		return reply{}, fmt.Errorf("provider answered with something that is not JSON: %.200q", b)
	}
	if e := bodyError(w.provider, b); e != nil {
		return reply{}, e
	}
	a := &assembler{provider: w.provider, sink: sink}
	err := a.add(&ch)
	return a.finish(), err
}
