package main

// This file assembles a reply from the chat-completions stream (and the
// whole answers shaped like it): text, reasoning and tool calls folded in
// fragment by fragment within the answer's limits, and every call given an
// id of its own.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// openaiUsage is the usage object of the chat completions wire, with the
// cache fields each provider puts there: OpenAI, Gemini, xAI and OpenRouter
// in prompt_tokens_details (OpenRouter also cache_write_tokens), DeepSeek
// as prompt_cache_hit_tokens next to prompt_cache_miss_tokens.
type openaiUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens     int `json:"cached_tokens"`
		CacheWriteTokens int `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens  int `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens int `json:"prompt_cache_miss_tokens"`
}

// norm is the usage in yaicli's shape. DeepSeek's hit and miss add up to
// its prompt_tokens; when a server gives them without it, they are the
// prompt.
func (u *openaiUsage) norm() usage {
	n := usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, CachedTokens: u.PromptCacheHitTokens}
	if d := u.PromptTokensDetails; d != nil {
		n.CachedTokens = max(n.CachedTokens, d.CachedTokens)
		n.CacheWriteTokens = d.CacheWriteTokens
	}
	if n.PromptTokens <= 0 && u.PromptCacheHitTokens+u.PromptCacheMissTokens > 0 {
		n.PromptTokens = u.PromptCacheHitTokens + u.PromptCacheMissTokens
	}
	return n
}

// chunk is one streamed (or whole) chat completion object.
type chunk struct {
	Choices []struct {
		Delta        delta  `json:"delta"`
		Message      delta  `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *openaiUsage `json:"usage"`
}

// delta is the part of a choice that carries text, reasoning and tool calls.
type delta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is one fragment of a streamed tool call. The index is kept
// raw: any JSON value may arrive there, and only a small whole number is one.
type toolCallDelta struct {
	Index    json.RawMessage `json:"index"`
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// callBuild is a tool call being assembled; its arguments grow in a
// builder, so thousands of small fragments cost linear time.
type callBuild struct {
	id, name string
	args     strings.Builder
}

// assembler builds a reply from deltas. The first limit broken is kept in
// err and ends the stream.
type assembler struct {
	provider string
	sink     streamSink
	think    thinkSplitter
	text     strings.Builder
	why      strings.Builder
	calls    []*callBuild
	r        reply
	err      error
}

// add folds one chunk into the reply, streaming its text and reasoning; it
// returns the error that ends the stream: a limit broken, a bad index.
func (a *assembler) add(ch *chunk) error {
	if ch.Usage != nil {
		if u := ch.Usage.norm(); u.PromptTokens > 0 {
			a.r.Usage = u
		}
	}
	for _, c := range ch.Choices {
		d := c.Delta
		if d.Content == "" && d.ToolCalls == nil && d.ReasoningContent == "" && d.Reasoning == "" {
			d = c.Message
		}
		if c.FinishReason != "" {
			a.r.FinishReason = c.FinishReason
		}
		a.reason(d.ReasoningContent + d.Reasoning)
		if d.Content != "" {
			text, reasoning := a.think.split(d.Content)
			a.reason(reasoning)
			a.emit(text)
		}
		for i := range d.ToolCalls {
			a.call(&d.ToolCalls[i])
		}
		if a.err != nil {
			return a.err
		}
	}
	return nil
}

// call folds one tool-call fragment in. Without an index (Gemini), a
// fragment that names a tool starts a call and one that does not continues
// the last.
func (a *assembler) call(tc *toolCallDelta) {
	if a.err != nil {
		return
	}
	idx := len(a.calls)
	switch raw := strings.TrimSpace(string(tc.Index)); {
	case raw != "" && raw != "null":
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n >= maxToolCalls {
			a.err = brokenPeer("provider %s sent a tool call with index %.40s; an answer's tool calls are numbered 0 to %d, so the stream is broken; try again", a.provider, raw, maxToolCalls-1)
			return
		}
		idx = n
	case tc.ID == "" && tc.Function.Name == "" && len(a.calls) > 0:
		idx = len(a.calls) - 1
	}
	if idx >= maxToolCalls {
		a.err = brokenPeer("provider %s sent more than %d tool calls in one answer (yaicli's limit); try again", a.provider, maxToolCalls)
		return
	}
	for len(a.calls) <= idx {
		a.calls = append(a.calls, &callBuild{})
	}
	call := a.calls[idx]
	if tc.ID != "" {
		call.id = tc.ID
	}
	if tc.Function.Name != "" {
		call.name = tc.Function.Name
	}
	if call.args.Len()+len(tc.Function.Arguments) > maxToolArgs {
		a.err = &limitError{side: "provider " + a.provider, what: "one tool call's arguments", limit: maxToolArgs}
		return
	}
	call.args.WriteString(tc.Function.Arguments)
}

// room reports whether s still fits the answer's limit, recording the
// error when it does not.
func (a *assembler) room(s string) bool {
	if a.err == nil && a.text.Len()+a.why.Len()+len(s) > maxAnswerText {
		a.err = &limitError{side: "provider " + a.provider, what: "one answer's text", limit: maxAnswerText}
	}
	return a.err == nil
}

// reason keeps reasoning text and shows it.
func (a *assembler) reason(s string) {
	if s == "" || !a.room(s) {
		return
	}
	a.why.WriteString(s)
	if a.sink.reasoning != nil {
		a.sink.reasoning(s)
	}
}

// emit keeps answer text and streams it.
func (a *assembler) emit(s string) {
	if s == "" || !a.room(s) {
		return
	}
	a.text.WriteString(s)
	if a.sink.text != nil {
		a.sink.text(s)
	}
}

// finish returns the assembled reply; calls without a name are dropped, and
// ids that are missing or repeat are made unique, so every call gets
// exactly one result.
func (a *assembler) finish() reply {
	text, reasoning := a.think.flush()
	a.reason(reasoning)
	a.emit(text)
	a.r.Message = message{Role: roleAssistant, Content: a.text.String(), reasoning: a.why.String()}
	for _, c := range a.calls {
		if c.name == "" {
			continue // an index gap; nothing the model can get a result for
		}
		a.r.Message.ToolCalls = append(a.r.Message.ToolCalls, toolCall{ID: c.id, Type: "function", Function: functionCall{Name: c.name, Arguments: c.args.String()}})
	}
	uniqueCallIDs(a.r.Message.ToolCalls)
	return a.r
}

// uniqueCallIDs gives every call an id of its own, in place, as validate
// would: a missing id becomes call_N, a repeated one gets a _N suffix. A
// result is matched to its call by id, so two calls sharing one would leave
// one of them without its result.
func uniqueCallIDs(calls []toolCall) {
	fresh, _ := freshIDs(calls, map[string]bool{})
	copy(calls, fresh)
}

// freshIDs returns calls with every id unused so far (marking them used),
// copying the slice only when an id changes. renamed maps each id as the
// results know it to the ids its calls now have, in order.
func freshIDs(calls []toolCall, used map[string]bool) ([]toolCall, map[string][]string) {
	renamed := map[string][]string{}
	changed := false
	out := calls
	for i, tc := range calls {
		id := tc.ID
		if id == "" || used[id] {
			if !changed {
				out, changed = append([]toolCall(nil), calls...), true
			}
			base := id
			if base == "" {
				base = "call"
			}
			for n := i; used[id] || id == ""; n++ {
				id = fmt.Sprintf("%s_%d", base, n)
			}
			out[i].ID = id
		}
		used[id] = true
		renamed[tc.ID] = append(renamed[tc.ID], id)
	}
	return out, renamed
}
