package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// anthropicVersion is the Messages API version yaicli speaks.
const anthropicVersion = "2023-06-01"

// anthropicWire is Anthropic's Messages API. The conversation stays in
// OpenAI's shape everywhere else; it is converted here, at the edge.
type anthropicWire struct {
	provider string
	sent     *sentBlocks // the last request's message blocks; nil: not kept
}

// path is the Messages endpoint under BASE_URL.
func (anthropicWire) path() string { return "/messages" }

// auth sets the key header and the API version Anthropic requires.
func (anthropicWire) auth(h http.Header, key string) {
	h.Set("x-api-key", key)
	h.Set("anthropic-version", anthropicVersion)
}

// body builds a Messages request; EXTRA_BODY and EXCLUDE_PARAMS apply last.
func (w anthropicWire) body(o clientOptions, req chatRequest) ([]byte, error) {
	system, msgs := anthropicMessages(req.Messages)
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = 1024 // the API requires it
	}
	b := map[string]any{"model": o.model, "messages": msgs, "max_tokens": maxTokens, "stream": o.stream}
	if system != "" {
		b["system"] = system
	}
	if budget, ok := anthropicThinking(o.sampling, o.reasoningEffort); ok {
		b["thinking"] = map[string]any{"type": "enabled", "budget_tokens": budget}
		b["max_tokens"] = max(maxTokens, budget+1024) // thinking counts against max_tokens, which must exceed it
	} else {
		b["temperature"] = o.temperature // with thinking, only the default is allowed
		if o.topP != 1 {
			b["top_p"] = o.topP
		}
		if o.TopK != nil { // nor top_k
			b["top_k"] = *o.TopK
		}
	}
	if len(req.Tools) > 0 {
		var tools []map[string]any
		for _, t := range req.Tools {
			tools = append(tools, map[string]any{"name": t.Function.Name, "description": t.Function.Description, "input_schema": t.Function.Parameters})
		}
		b["tools"] = tools
	}
	cacheBreakpoints(o.sampling, b, msgs, w.sent)
	return json.Marshal(finishBody(o, b))
}

// maxBreakpoints is how many blocks of one request may carry
// cache_control: the Messages API answers 400 to a fifth.
const maxBreakpoints = 4

// cacheMark is the cache_control of a breakpoint, with PROMPT_CACHE_TTL.
func cacheMark(ttl string) map[string]any {
	m := map[string]any{"type": "ephemeral"}
	if ttl == "1h" {
		m["ttl"] = "1h"
	}
	return m
}

// cacheBreakpoints marks where Anthropic's cache ends a prefix, unless
// PROMPT_CACHE=off: the system prompt, which stays the same all session
// (the last tool instead when there is none: the tools come first, so the
// system prompt's mark holds them too), and messageBreakpoints' in the
// messages. Nothing is cached without a mark, and a read finds only what
// an earlier request wrote at a mark. sent (nil: no memory) says where a
// reduction changed the history; then the last block before the change
// takes the place of the deepest message mark: this request reads what
// the earlier ones wrote up to there, which the other marks, 20 blocks'
// look-back from the newest blocks, may not reach. Between reductions the
// deepest mark holds the base (sent.base).
func cacheBreakpoints(s sampling, b map[string]any, msgs []anthropicMessage, sent *sentBlocks) {
	changed := sent.changedAt(msgs)
	if !s.PromptCache {
		return
	}
	used := 0
	_, hasSystem := b["system"].(string)
	if tools, ok := b["tools"].([]map[string]any); ok && len(tools) > 0 && !hasSystem {
		tools[len(tools)-1]["cache_control"] = cacheMark(s.CacheTTL)
		used++
	}
	if system, ok := b["system"].(string); ok {
		b["system"] = []any{map[string]any{"type": "text", "text": system, "cache_control": cacheMark(s.CacheTTL)}}
		used++
	}
	marks := messageBreakpoints(msgs, maxBreakpoints-used)
	deepest := markableBefore(msgs, changed)
	if changed < 0 {
		deepest = sent.baseBlock(msgs)
	}
	if deepest != nil && !slices.ContainsFunc(marks, func(m map[string]any) bool { return sameBlock(m, deepest) }) {
		if len(marks) == maxBreakpoints-used {
			marks = marks[:len(marks)-1]
		}
		marks = append(marks, deepest)
	}
	if changed >= 0 {
		var base map[string]any // none when the request has no earlier round
		if len(marks) > 1 {
			base = marks[1]
		}
		sent.setBase(msgs, base)
	}
	for _, blk := range marks {
		blk["cache_control"] = cacheMark(s.CacheTTL)
	}
}

// sameBlock reports whether a and b are the same block (map).
func sameBlock(a, b map[string]any) bool {
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

// markableBefore is the last block that may carry cache_control among
// the first n blocks of msgs, counted across messages; nil when n < 1 or
// none may.
func markableBefore(msgs []anthropicMessage, n int) map[string]any {
	var last map[string]any
	k := 0
	for _, m := range msgs {
		for _, b := range m.Content {
			if k++; k > n {
				return last
			}
			if markable(b) {
				last = b.(map[string]any)
			}
		}
	}
	return last
}

// sentBlocks remembers the message blocks of the last request sent, as
// hashes, to find where the next one first differs: the session's
// requests share a client, so a reduction's change shows here. base is
// the block (its index, counted across messages; 0: none) where the
// request after the last reduction ended what came before its newest
// round: the ladder masks the oldest outputs first and leaves older stubs
// as they are, so the next reduction changes the history after it. Every
// request until then marks it, so its cache entry, read each time, stays
// alive past the five minutes since it was written, and the request after
// that reduction reads the history up to it.
type sentBlocks struct {
	mu     sync.Mutex
	hashes [][32]byte
	base   int
}

// baseBlock is the base block in msgs, nil when there is none (no
// reduction yet, or s nil).
func (s *sentBlocks) baseBlock(msgs []anthropicMessage) map[string]any {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	n := s.base
	s.mu.Unlock()
	if n <= 0 {
		return nil
	}
	return markableBefore(msgs, n)
}

// setBase makes blk, a block of msgs, the base (nil: none).
func (s *sentBlocks) setBase(msgs []anthropicMessage, blk map[string]any) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.base = 0
	s.mu.Unlock()
	k := 0
	for _, m := range msgs {
		for _, b := range m.Content {
			k++
			if c, ok := b.(map[string]any); ok && sameBlock(c, blk) {
				s.mu.Lock()
				s.base = k
				s.mu.Unlock()
				return
			}
		}
	}
}

// changedAt is the index of msgs' first block that differs from the last
// request's, when it does before that request's end (a reduction changed
// the history; a request that only appends gives -1), and keeps msgs'
// blocks for the next request. s nil: -1.
func (s *sentBlocks) changedAt(msgs []anthropicMessage) int {
	if s == nil {
		return -1
	}
	var hashes [][32]byte
	for _, m := range msgs {
		for _, b := range m.Content {
			j, _ := json.Marshal(b)
			hashes = append(hashes, sha256.Sum256(append([]byte(m.Role), j...)))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.hashes
	s.hashes = hashes
	for i, h := range prev {
		if i >= len(hashes) || h != hashes[i] {
			return i
		}
	}
	return -1
}

// messageBreakpoints picks at most n blocks to mark: the last markable
// block of the request, which writes the whole conversation for the next
// round, and the last of the messages before the newest assistant one,
// which is where the previous request ended and wrote: this round reads
// it exactly, however many tool results the round added (the API looks
// back only 20 blocks from a mark for an earlier write). A third goes
// lookBack blocks before that one: when a reduction changed a result
// further back than one look-back, this round still reads what an
// earlier round wrote before it, instead of only the system prompt.
func messageBreakpoints(msgs []anthropicMessage, n int) []map[string]any {
	last, at := lastMarkable(msgs, len(msgs))
	if last == nil || n <= 0 {
		return nil
	}
	out := []map[string]any{last}
	for i := len(msgs) - 2; i > 0 && n > 1; i-- {
		if msgs[i].Role != roleAssistant {
			continue
		}
		if prev, _ := lastMarkable(msgs, i); prev != nil && at >= i {
			out = append(out, prev)
			if deep := blockBefore(msgs, i, lookBack); deep != nil && n > 2 {
				out = append(out, deep)
			}
		}
		break
	}
	return out
}

// lookBack is how many blocks before a mark the API looks for a prefix
// an earlier request wrote.
const lookBack = 20

// blockBefore is the last block that may carry cache_control among those
// more than back blocks before the end of msgs[:end], or nil.
func blockBefore(msgs []anthropicMessage, end, back int) map[string]any {
	seen := 0
	for i := end - 1; i >= 0; i-- {
		for j := len(msgs[i].Content) - 1; j >= 0; j-- {
			if seen++; seen > back && markable(msgs[i].Content[j]) {
				return msgs[i].Content[j].(map[string]any)
			}
		}
	}
	return nil
}

// markable reports whether a content block may carry cache_control: not
// a thinking block (the API refuses a mark there) nor an empty text.
func markable(b any) bool {
	blk, ok := b.(map[string]any)
	return ok && blk["type"] != "thinking" && blk["type"] != "redacted_thinking" && !(blk["type"] == "text" && blk["text"] == "")
}

// lastMarkable is the last block of msgs[:end] that may carry
// cache_control, and the index of its message: not a thinking block (the
// API refuses a mark there) nor an empty text; nil when there is none.
func lastMarkable(msgs []anthropicMessage, end int) (map[string]any, int) {
	for i := end - 1; i >= 0; i-- {
		for j := len(msgs[i].Content) - 1; j >= 0; j-- {
			if markable(msgs[i].Content[j]) {
				return msgs[i].Content[j].(map[string]any), i
			}
		}
	}
	return nil, -1
}

// markedParts is the conversation for an Anthropic model behind an
// OpenAI-compatible endpoint that passes cache_control through on content
// parts (OpenRouter's anthropic/*): the same breakpoints as on the
// Messages API (the tools have no place for one there), each on a
// message whose content becomes one text part; the rest stays as is.
func markedParts(h []message, mark map[string]any) []any {
	marks := map[int]bool{}
	for i := 0; i < len(h) && h[i].Role == roleSystem; i++ {
		clear(marks)
		marks[i] = true
	}
	if n := len(h); n > 0 {
		marks[n-1] = true
		for i := n - 2; i > 0; i-- {
			if h[i].Role == roleAssistant {
				marks[i-1] = true
				break
			}
		}
	}
	out := make([]any, len(h))
	for i, m := range h {
		out[i] = m
		if !marks[i] || m.Role == roleAssistant || m.Content == "" {
			continue
		}
		p := map[string]any{"role": m.Role, "content": []any{map[string]any{"type": "text", "text": m.Content, "cache_control": mark}}}
		if m.ToolCallID != "" {
			p["tool_call_id"] = m.ToolCallID
		}
		if m.Name != "" {
			p["name"] = m.Name
		}
		out[i] = p
	}
	return out
}

// anthropicMessage is one message of the Messages API.
type anthropicMessage struct {
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

// anthropicMessages converts the conversation: system messages become the
// top-level system text, tool calls tool_use blocks, tool results
// tool_result blocks in a user message, and consecutive messages of one role
// are merged, as the API wants alternating roles.
func anthropicMessages(h []message) (string, []anthropicMessage) {
	var system []string
	var out []anthropicMessage
	add := func(role string, blocks ...any) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			return
		}
		out = append(out, anthropicMessage{Role: role, Content: blocks})
	}
	text := func(s string) []any {
		if s == "" {
			return nil
		}
		return []any{map[string]any{"type": "text", "text": s}}
	}
	for _, m := range h {
		switch m.Role {
		case roleSystem:
			system = append(system, m.Content)
		case roleUser:
			add(roleUser, text(m.Content)...)
			for _, img := range m.images {
				add(roleUser, anthropicImage(img))
			}
		case roleAssistant:
			var blocks []any
			for _, t := range m.thinking {
				blocks = append(blocks, t)
			}
			blocks = append(blocks, text(m.Content)...)
			for _, tc := range m.ToolCalls {
				input := json.RawMessage(tc.Function.Arguments)
				if !json.Valid(input) || strings.TrimSpace(tc.Function.Arguments) == "" {
					input = json.RawMessage("{}")
				}
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": tc.ID, "name": tc.Function.Name, "input": input})
			}
			add(roleAssistant, blocks...)
		case roleTool:
			add(roleUser, anthropicToolResult(m))
		}
	}
	return strings.Join(system, "\n\n"), out
}

// anthropicBlock is a content block being assembled from stream events.
// The JSON fields are the block as it starts (or as a whole answer has it);
// deltas grow in builders, so many small ones cost linear time.
type anthropicBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Text      string          `json:"text"`
	Input     json.RawMessage `json:"input"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	text      strings.Builder
	thinking  strings.Builder
	signature strings.Builder
	partial   strings.Builder
}

// anthropicUsage is the token usage Anthropic reports.
type anthropicUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
}

// prompt is the whole prompt size, cached parts included.
func (u anthropicUsage) prompt() int {
	return u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
}

// input sets the prompt side of r from u: the whole prompt and the parts
// read from and written to the cache. message_delta's counts, when it has
// them, are cumulative and replace message_start's.
func (u anthropicUsage) input(r *usage) {
	if u.prompt() <= 0 {
		return
	}
	r.PromptTokens, r.CachedTokens, r.CacheWriteTokens = u.prompt(), u.CacheReadInputTokens, u.CacheCreationInputTokens
}

// anthropicEvent is any event of the Messages stream.
type anthropicEvent struct {
	Type    string `json:"type"`
	Message struct {
		Usage anthropicUsage `json:"usage"`
	} `json:"message"`
	Index        int             `json:"index"`
	ContentBlock *anthropicBlock `json:"content_block"`
	Delta        struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
}

// anthropicReply collects blocks by index into a reply.
type anthropicReply struct {
	provider string
	sink     streamSink
	blocks   map[int]*anthropicBlock
	size     int // bytes of text and thinking so far, against maxAnswerText
	r        reply
}

// apply folds one stream event into the reply; it returns the error that
// ends the stream: a limit broken, an index out of range.
func (a *anthropicReply) apply(ev *anthropicEvent) error {
	switch ev.Type {
	case "message_start":
		ev.Message.Usage.input(&a.r.Usage)
	case "content_block_start":
		if ev.ContentBlock == nil {
			return nil
		}
		if err := a.check(ev.Index, len(ev.ContentBlock.Text)+len(ev.ContentBlock.Thinking)); err != nil {
			return err
		}
		a.blocks[ev.Index] = ev.ContentBlock
		a.show(ev.ContentBlock.Text, ev.ContentBlock.Thinking)
	case "content_block_delta":
		return a.delta(ev)
	case "message_delta":
		if ev.Delta.StopReason != "" {
			a.r.FinishReason = ev.Delta.StopReason
		}
		if ev.Usage != nil {
			a.r.Usage.CompletionTokens = ev.Usage.OutputTokens
			ev.Usage.input(&a.r.Usage)
		}
	}
	return nil
}

// delta applies a content_block_delta to its block.
func (a *anthropicReply) delta(ev *anthropicEvent) error {
	d := &ev.Delta
	if err := a.check(ev.Index, len(d.Text)+len(d.Thinking)); err != nil {
		return err
	}
	b := a.blocks[ev.Index]
	if b == nil {
		b = &anthropicBlock{Type: "text"}
		a.blocks[ev.Index] = b
	}
	switch d.Type {
	case "text_delta":
		b.text.WriteString(d.Text)
		a.show(d.Text, "")
	case "input_json_delta":
		if b.partial.Len()+len(d.PartialJSON) > maxToolArgs {
			return &limitError{side: "provider " + a.provider, what: "one tool call's arguments", limit: maxToolArgs}
		}
		b.partial.WriteString(d.PartialJSON)
	case "thinking_delta":
		b.thinking.WriteString(d.Thinking)
		a.show("", d.Thinking)
	case "signature_delta":
		if b.signature.Len()+len(d.Signature) > maxToolArgs {
			return &limitError{side: "provider " + a.provider, what: "one thinking block's signature", limit: maxToolArgs}
		}
		b.signature.WriteString(d.Signature)
	}
	return nil
}

// check admits a block index and n more bytes of text or thinking.
func (a *anthropicReply) check(index, n int) error {
	if index < 0 || index >= maxToolCalls {
		return brokenPeer("provider %s sent a content block with index %d; an answer's blocks are numbered 0 to %d, so the stream is broken; try again", a.provider, index, maxToolCalls-1)
	}
	if a.size += n; a.size > maxAnswerText {
		return &limitError{side: "provider " + a.provider, what: "one answer's text", limit: maxAnswerText}
	}
	return nil
}

// show streams answer text and thinking to the sink as they arrive.
func (a *anthropicReply) show(text, thinking string) {
	if text != "" && a.sink.text != nil {
		a.sink.text(text)
	}
	if thinking != "" && a.sink.reasoning != nil {
		a.sink.reasoning(thinking)
	}
}

// finish turns the blocks, in index order, into the assistant message.
func (a *anthropicReply) finish() reply {
	idx := make([]int, 0, len(a.blocks))
	for i := range a.blocks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	m := message{Role: roleAssistant}
	var text strings.Builder
	for _, i := range idx {
		b := a.blocks[i]
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
			text.WriteString(b.text.String())
		case "tool_use":
			args := b.partial.String()
			if args == "" {
				args = string(b.Input)
			}
			if strings.TrimSpace(args) == "" || args == "null" {
				args = "{}" // a tool without arguments streams partial_json ""
			}
			m.ToolCalls = append(m.ToolCalls, toolCall{ID: b.ID, Type: "function", Function: functionCall{Name: b.Name, Arguments: args}})
		case "thinking", "redacted_thinking":
			m.thinking = append(m.thinking, thinkingBlock{Type: b.Type, Thinking: b.Thinking + b.thinking.String(), Signature: b.Signature + b.signature.String(), Data: b.Data})
		}
	}
	uniqueCallIDs(m.ToolCalls)
	m.Content = text.String()
	a.r.Message = m
	return a.r
}

// stream reads a Messages event stream until message_stop.
func (w anthropicWire) stream(body io.Reader, sink streamSink) (reply, error) {
	a := &anthropicReply{provider: w.provider, sink: sink, blocks: map[int]*anthropicBlock{}}
	sr := newSSEReader(body)
	stopped := false
	for !stopped {
		ev, err := sr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return a.finish(), cutOff(err, w.provider)
		}
		var e anthropicEvent
		if json.Unmarshal([]byte(ev.data), &e) != nil {
			continue
		}
		if ev.name == "error" { // a proxy's error event may lack "type"
			e.Type = "error"
		}
		switch e.Type {
		case "error":
			return a.finish(), classify(w.provider, 0, []byte(ev.data))
		case "message_stop":
			stopped = true
		default:
			if err := a.apply(&e); err != nil {
				return a.finish(), err
			}
		}
	}
	r := a.finish()
	if !stopped && r.FinishReason == "" {
		return r, errors.New("the stream ended before the answer was complete (no message_stop); try again")
	}
	return r, nil
}

// whole reads a non-streamed Messages response.
func (w anthropicWire) whole(b []byte, sink streamSink) (reply, error) {
	var resp struct {
		Type       string            `json:"type"`
		Content    []*anthropicBlock `json:"content"`
		StopReason string            `json:"stop_reason"`
		Usage      anthropicUsage    `json:"usage"`
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		return reply{}, fmt.Errorf("provider answered with something that is not JSON: %.200q", b)
	}
	if resp.Type == "error" {
		return reply{}, classify(w.provider, 0, b)
	}
	if len(resp.Content) > maxToolCalls {
		return reply{}, brokenPeer("provider %s answered with %d content blocks, more than yaicli takes in one answer (%d); try again", w.provider, len(resp.Content), maxToolCalls)
	}
	a := &anthropicReply{provider: w.provider, sink: sink, blocks: map[int]*anthropicBlock{}}
	for i, blk := range resp.Content {
		if blk == nil {
			continue
		}
		a.blocks[i] = blk
		a.show(blk.Text, blk.Thinking)
	}
	a.r.FinishReason = resp.StopReason
	a.r.Usage = usage{CompletionTokens: resp.Usage.OutputTokens}
	resp.Usage.input(&a.r.Usage)
	return a.finish(), nil
}

// anthropicImage is an image content block of Anthropic's Messages API.
func anthropicImage(img imagePart) map[string]any {
	if img.url != "" {
		return map[string]any{"type": "image", "source": map[string]any{"type": "url", "url": img.url}}
	}
	return map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": img.mediaType, "data": img.data}}
}

// anthropicToolResult is a tool_result block: its text, and the images
// the tool read beside it, which Anthropic takes inside the result.
func anthropicToolResult(m message) map[string]any {
	b := map[string]any{"type": "tool_result", "tool_use_id": m.ToolCallID, "content": m.Content}
	if len(m.images) > 0 {
		parts := []any{map[string]any{"type": "text", "text": m.Content}}
		for _, img := range m.images {
			parts = append(parts, anthropicImage(img))
		}
		b["content"] = parts
	}
	return b
}
