package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// anthropicRequest is what the fake Anthropic endpoint received.
type anthropicRequest struct {
	Model     string             `json:"model"`
	System    string             `json:"-"`      // the system text, from RawSystem
	RawSystem json.RawMessage    `json:"system"` // a string, or text blocks (with a breakpoint)
	MaxTokens int                `json:"max_tokens"`
	Stream    bool               `json:"stream"`
	Messages  []anthropicMessage `json:"messages"`
	Tools     []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
}

func decodeAnthropic(t *testing.T, r received) anthropicRequest {
	t.Helper()
	var a anthropicRequest
	if err := json.Unmarshal(r.Raw, &a); err != nil {
		t.Fatal(err)
	}
	if json.Unmarshal(a.RawSystem, &a.System) != nil {
		var blocks []struct{ Text string }
		json.Unmarshal(a.RawSystem, &blocks)
		for _, b := range blocks {
			a.System += b.Text
		}
	}
	return a
}

func blockTypes(m anthropicMessage) []string {
	var out []string
	for _, b := range m.Content {
		out = append(out, b.(map[string]any)["type"].(string))
	}
	return out
}

// TestAnthropicToolLoop runs a full loop against an Anthropic-format
// scripted provider: thinking, text and two tool_use blocks (one without
// arguments), results back as tool_result blocks in one user message with
// the signed thinking block returned, then the final answer.
func TestAnthropicToolLoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	fp := newFakeProvider(t,
		check(replay(t, "anthropic_tools.sse"), func(r received) {
			a := decodeAnthropic(t, r)
			if r.Path != "/v1/messages" || r.Header.Get("x-api-key") != "sk-test-0123456789abcdef" || r.Header.Get("anthropic-version") != anthropicVersion {
				t.Errorf("path %s headers %v", r.Path, r.Header)
			}
			if !strings.HasPrefix(a.System, "You are yaicli") || a.MaxTokens != 1024 || !a.Stream || len(a.Messages) != 1 || a.Messages[0].Role != roleUser {
				t.Errorf("first request = %+v", a)
			}
			if len(a.Tools) != 12 || !json.Valid(a.Tools[0].InputSchema) {
				t.Errorf("tools = %+v", a.Tools)
			}
		}),
		check(replay(t, "anthropic_text.sse"), func(r received) {
			a := decodeAnthropic(t, r)
			if len(a.Messages) != 3 {
				t.Fatalf("second request has %d messages: %+v", len(a.Messages), a.Messages)
			}
			asst, results := a.Messages[1], a.Messages[2]
			if got := strings.Join(blockTypes(asst), ","); asst.Role != roleAssistant || got != "thinking,text,tool_use,tool_use" {
				t.Errorf("assistant blocks = %s", got)
			}
			if sig := asst.Content[0].(map[string]any)["signature"]; sig != "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" {
				t.Errorf("thinking signature not sent back: %v", sig)
			}
			if in := asst.Content[3].(map[string]any)["input"]; in == nil {
				t.Errorf("argument-less tool_use has no input object")
			}
			if got := strings.Join(blockTypes(results), ","); results.Role != roleUser || got != "tool_result,tool_result" {
				t.Errorf("results = %s", got)
			}
			first := results.Content[0].(map[string]any)
			if first["tool_use_id"] != "toolu_01T1x1fJ34qAmk2tNTrN7Up6" || !strings.Contains(first["content"].(string), "notes.txt") {
				t.Errorf("tool_result = %v", first)
			}
			second := results.Content[1].(map[string]any)
			if second["tool_use_id"] != "toolu_01VHY6ex2iR1jqJFZNhFBLf4" || !strings.Contains(second["content"].(string), "unknown tool") {
				t.Errorf("unknown tool result = %v", second)
			}
		}))
	r := runBinaryIn(t, fp, dir, e2e{args: []string{"what is here?"}, env: []string{"YAI_PROVIDER=anthropic"}})
	if r.code != 0 || r.stdout != "Let me check.\nThe directory holds notes.txt.\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "I should look at the directory") {
		t.Errorf("thinking not shown on stderr: %s", r.stderr)
	}
}

func TestAnthropicNonStreaming(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, check(fail(200, `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"Hi there."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":4}}`),
		func(r received) {
			if a := decodeAnthropic(t, r); a.Stream {
				t.Error("stream requested with --no-stream")
			}
		}))
	r := runBinary(t, fp, e2e{args: []string{"--no-stream", "hi"}, env: []string{"YAI_PROVIDER=anthropic"}})
	if r.code != 0 || r.stdout != "Hi there.\n" {
		t.Errorf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestAnthropicErrors: overloaded mid-stream is retried; 529 too; the
// context-length wording heals.
func TestAnthropicErrors(t *testing.T) {
	slowTest(t)
	t.Parallel()
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	tooLong, _ := os.ReadFile("testdata/errors/ctx_anthropic.400.json")
	fp := newFakeProvider(t, replay(t, "anthropic_overloaded.sse"), fail(529, overloaded, "Retry-After", "0"), replay(t, "anthropic_text.sse"))
	r := runBinary(t, fp, e2e{args: []string{"q"}, env: []string{"YAI_PROVIDER=anthropic"}})
	if r.code != 0 || len(fp.chats()) != 3 || strings.Count(r.stderr, "overloaded; retry") != 2 {
		t.Errorf("code %d after %d requests; stderr %s", r.code, len(fp.chats()), r.stderr)
	}
	fp = newFakeProvider(t, replay(t, "anthropic_text.sse"), fail(400, string(tooLong)), replay(t, "anthropic_text.sse"))
	r = runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "a\nb\n", env: []string{"YAI_PROVIDER=anthropic"}})
	if r.code != 0 || !strings.Contains(r.stderr, "retrying once") || len(fp.chats()) != 3 {
		t.Errorf("code %d; stderr %s", r.code, r.stderr)
	}
}

func TestAnthropicMessagesMerge(t *testing.T) {
	h := []message{{Role: roleSystem, Content: "a"}, {Role: roleSystem, Content: "b"}, {Role: roleUser, Content: "q1"}, {Role: roleUser, Content: "q2"},
		{Role: roleAssistant, ToolCalls: []toolCall{call("1", "x", ""), call("2", "y", "{bad")}},
		{Role: roleTool, ToolCallID: "1", Content: "r1"}, {Role: roleTool, ToolCallID: "2", Content: "r2"}, {Role: roleUser, Content: "more"}}
	system, msgs := anthropicMessages(h)
	if system != "a\n\nb" || len(msgs) != 3 {
		t.Fatalf("system %q, %d messages: %+v", system, len(msgs), msgs)
	}
	if got := strings.Join(blockTypes(msgs[2]), ","); got != "tool_result,tool_result,text" {
		t.Errorf("results and the next question merge into one user message: %s", got)
	}
	for _, b := range msgs[1].Content {
		if string(b.(map[string]any)["input"].(json.RawMessage)) != "{}" {
			t.Errorf("bad or empty arguments not sent as {}: %v", b)
		}
	}
}

// TestAnthropicNonStreamingToolLoop: the same loop without streaming.
func TestAnthropicNonStreamingToolLoop(t *testing.T) {
	t.Parallel()
	toolUse := `{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_01A","name":"fs_list_directory","input":{"directory_path":"."}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":400,"output_tokens":30}}`
	done := `{"id":"msg_03","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"Listed."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":500,"output_tokens":3}}`
	fp := newFakeProvider(t, fail(200, toolUse), check(fail(200, done), func(r received) {
		a := decodeAnthropic(t, r)
		if len(a.Messages) != 3 || strings.Join(blockTypes(a.Messages[1]), ",") != "text,tool_use" || strings.Join(blockTypes(a.Messages[2]), ",") != "tool_result" {
			t.Errorf("second request = %+v", a.Messages)
		}
		if in := a.Messages[1].Content[1].(map[string]any)["input"].(map[string]any); in["directory_path"] != "." {
			t.Errorf("tool_use input = %v", in)
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"--no-stream", "list"}, env: []string{"YAI_PROVIDER=anthropic"}})
	if r.code != 0 || r.stdout != "Checking.\nListed.\n" {
		t.Errorf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// marksOf is where an Anthropic body carries cache_control: "tool:NAME",
// "system", or "m<i>b<j>:TYPE" for message i's block j; and the ttls seen.
func marksOf(t *testing.T, body []byte) (marks []string, ttls []string) {
	t.Helper()
	var req struct {
		Tools    []map[string]any
		System   json.RawMessage
		Messages []struct{ Content []map[string]any }
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	note := func(where string, b map[string]any) {
		if cc, ok := b["cache_control"].(map[string]any); ok {
			marks = append(marks, where)
			ttl, _ := cc["ttl"].(string)
			ttls = append(ttls, ttl)
		}
	}
	for _, tl := range req.Tools {
		note("tool:"+tl["name"].(string), tl)
	}
	var system []map[string]any
	json.Unmarshal(req.System, &system)
	for _, b := range system {
		note("system", b)
	}
	for i, m := range req.Messages {
		for j, b := range m.Content {
			note(fmt.Sprintf("m%db%d:%s", i, j, b["type"]), b)
		}
	}
	return marks, ttls
}

// TestCacheBreakpoints: the system prompt is marked (the last tool when
// there is none), then the request's last block, the last block before
// the newest assistant message (where the previous request ended),
// however many results the round added, and the block 20 before that
// one; never a thinking block; at most four; none
// with PROMPT_CACHE=off; the 1-hour ttl with PROMPT_CACHE_TTL=1h.
func TestCacheBreakpoints(t *testing.T) {
	tools := []toolSpec{{Type: "function", Function: toolFunction{Name: "alpha", Parameters: json.RawMessage(`{}`)}},
		{Type: "function", Function: toolFunction{Name: "beta", Parameters: json.RawMessage(`{}`)}}}
	many := message{Role: roleAssistant, Content: "reading all", thinking: []thinkingBlock{{Type: "thinking", Thinking: "hm", Signature: "s"}}}
	var results []message
	for i := range 12 {
		id := fmt.Sprint("c", i)
		many.ToolCalls = append(many.ToolCalls, call(id, "alpha", "{}"))
		results = append(results, message{Role: roleTool, ToolCallID: id, Content: "out " + id})
	}
	sys := message{Role: roleSystem, Content: "you are yaicli"}
	first := []message{sys, {Role: roleUser, Content: "q1"}}
	loop := append([]message{sys, {Role: roleUser, Content: "q1"}, {Role: roleAssistant, Content: "a1"}, {Role: roleUser, Content: "q2"}, many}, results...)
	next := append(append([]message{}, loop...), message{Role: roleAssistant, Content: "a2"}, message{Role: roleUser, Content: "q3"})
	for _, c := range []struct {
		name  string
		h     []message
		tools []toolSpec
		env   map[string]string
		want  string
		ttl   string
	}{
		{"first request", first, tools, nil, "system m0b0:text", ""},
		{"a round of 12 results after thinking", loop, tools, nil, "system m2b0:text m4b11:tool_result", ""},
		// 20 blocks before where the previous request ended: m4's 12 results, m3's last 8 calls
		{"the next question", next, tools, nil, "system m3b5:tool_use m4b11:tool_result m6b0:text", ""},
		{"without tools", next, nil, nil, "system m3b5:tool_use m4b11:tool_result m6b0:text", ""},
		{"without a system prompt", next[1:], tools, nil, "tool:beta m3b5:tool_use m4b11:tool_result m6b0:text", ""},
		{"1-hour cache", first, tools, map[string]string{"YAI_PROMPT_CACHE_TTL": "1h"}, "system m0b0:text", "1h"},
		{"off", next, tools, map[string]string{"YAI_PROMPT_CACHE": "off"}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := map[string]string{"YAI_PROVIDER": "anthropic", "YAI_MODEL": "claude-sonnet-4-5"}
			for k, v := range c.env {
				env[k] = v
			}
			cfg, _ := load(t, "", env, nil)
			body, err := anthropicWire{}.body(cfg.client(), chatRequest{Messages: c.h, Tools: c.tools})
			if err != nil {
				t.Fatal(err)
			}
			marks, ttls := marksOf(t, body)
			if got := strings.Join(marks, " "); got != c.want || len(marks) > maxBreakpoints {
				t.Errorf("breakpoints = %q, want %q", got, c.want)
			}
			for _, ttl := range ttls {
				if ttl != c.ttl {
					t.Errorf("ttl %q, want %q", ttl, c.ttl)
				}
			}
		})
	}
}

// TestCacheBreakpointAtChange: when a request changes the history (a
// reduction masked a result) the block before the first change is marked,
// in the deepest mark's place, so the request reads what earlier ones
// wrote up to there; a request that only appends is marked as without
// the memory.
func TestCacheBreakpointAtChange(t *testing.T) {
	cfg, _ := load(t, "", map[string]string{"YAI_PROVIDER": "anthropic", "YAI_MODEL": "claude-sonnet-4-5"}, nil)
	sys := message{Role: roleSystem, Content: "you are yaicli"}
	var h []message
	h = append(h, sys, message{Role: roleUser, Content: "q1"})
	for i := range 12 {
		id := fmt.Sprint("c", i)
		h = append(h, message{Role: roleAssistant, ToolCalls: []toolCall{call(id, "alpha", "{}")}}, message{Role: roleTool, ToolCallID: id, Content: "out " + id})
	}
	w := anthropicWire{sent: &sentBlocks{}}
	mark := func(h []message) string {
		body, err := w.body(cfg.client(), chatRequest{Messages: h})
		if err != nil {
			t.Fatal(err)
		}
		marks, _ := marksOf(t, body)
		return strings.Join(marks, " ")
	}
	grown := append(append([]message{}, h...), message{Role: roleAssistant, Content: "a1"}, message{Role: roleUser, Content: "q2"})
	stateless, _ := marksOf(t, must(anthropicWire{}.body(cfg.client(), chatRequest{Messages: grown})))
	if mark(h); mark(grown) != strings.Join(stateless, " ") {
		t.Errorf("a request that only appends is marked otherwise than without the memory")
	}
	masked := append([]message{}, grown...)
	masked[7].Content = "[masked old tool output: alpha]" // the third call's result, m6b0 on the wire
	if got := mark(masked); got != "system m5b0:tool_use m24b0:tool_result m26b0:text" {
		t.Errorf("after a change at m6b0: marks %q, want the block before it (m5b0) in the deepest mark's place", got)
	}
	// The rounds after the reduction mark where it ended what came before
	// its newest round (m24b0, the base), every time, so that entry stays
	// alive for the next reduction, which changes the history after it.
	next := masked
	for i, want := range []string{"system m24b0:tool_result m26b0:text m28b0:tool_result", "system m24b0:tool_result m28b0:tool_result m30b0:tool_result"} {
		id := fmt.Sprint("d", i)
		next = append(append([]message{}, next...), message{Role: roleAssistant, ToolCalls: []toolCall{call(id, "alpha", "{}")}}, message{Role: roleTool, ToolCallID: id, Content: "out " + id})
		if got := mark(next); got != want {
			t.Errorf("round %d after the reduction: marks %q, want %q", i+1, got, want)
		}
	}
	stateless, _ = marksOf(t, must(anthropicWire{}.body(cfg.client(), chatRequest{Messages: next})))
	if strings.Contains(strings.Join(stateless, " "), "m24b0") {
		t.Errorf("without the memory the base is marked: %v", stateless)
	}
	// The next reduction masks a result after the base: the block before
	// it is marked, and becomes the base of the rounds after.
	again := append([]message{}, next...)
	again[len(again)-3].Content = "[masked old tool output: alpha]" // d0's result, m28b0
	if got := mark(again); got != "system m27b0:tool_use m28b0:tool_result m30b0:tool_result" {
		t.Errorf("after a change at m28b0: marks %q, want the block before it (m27b0)", got)
	}
}

// must is b, failing the test on err.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestCacheBreakpointsProperties: for random histories, with and without
// thinking blocks and tools, sent in turn through one wire (which marks
// where a history changed), a body never carries more than four marks,
// none on a thinking block or an empty text, and always one on its last
// markable block.
func TestCacheBreakpointsProperties(t *testing.T) {
	cfg, _ := load(t, "", map[string]string{"YAI_PROVIDER": "anthropic"}, nil)
	w := anthropicWire{sent: &sentBlocks{}}
	r := rand.New(rand.NewSource(33))
	for i := 0; i < 300; i++ {
		h := randomHistory(r, 1+r.Intn(6))
		for j := range h {
			if h[j].Role == roleAssistant && r.Intn(2) == 0 {
				h[j].thinking = []thinkingBlock{{Type: "thinking", Thinking: "t", Signature: "s"}}
			}
		}
		h = append(h, message{Role: roleUser, Content: "next"})
		var tools []toolSpec
		if r.Intn(2) == 0 {
			tools = []toolSpec{{Type: "function", Function: toolFunction{Name: "x", Parameters: json.RawMessage(`{}`)}}}
		}
		body, _ := w.body(cfg.client(), chatRequest{Messages: h, Tools: tools})
		marks, _ := marksOf(t, body)
		_, msgs := anthropicMessages(h)
		last := fmt.Sprintf("m%db%d:", len(msgs)-1, len(msgs[len(msgs)-1].Content)-1)
		if len(marks) > maxBreakpoints || len(marks) == 0 || !strings.HasPrefix(marks[len(marks)-1], last) || strings.Contains(strings.Join(marks, " "), "thinking") {
			t.Fatalf("history %d: marks %v (last block %s)", i, marks, last)
		}
	}
}

// TestOpenRouterAnthropicParts: an anthropic/ model on OpenRouter gets
// the marks on content parts of the system prompt, the last message and
// where the previous request ended; other models and PROMPT_CACHE=off
// get plain messages.
func TestOpenRouterAnthropicParts(t *testing.T) {
	h := []message{{Role: roleSystem, Content: "sys"}, {Role: roleUser, Content: "q"},
		{Role: roleAssistant, ToolCalls: []toolCall{call("c1", "alpha", "{}")}}, {Role: roleTool, ToolCallID: "c1", Content: "out"}}
	for _, c := range []struct {
		model, cache string
		want         int
	}{{"anthropic/claude-sonnet-4.5", "auto", 3}, {"openai/gpt-4.1", "auto", 0}, {"anthropic/claude-sonnet-4.5", "off", 0}} {
		cfg, _ := load(t, "", map[string]string{"YAI_PROVIDER": "openrouter", "YAI_MODEL": c.model, "YAI_PROMPT_CACHE": c.cache}, nil)
		body, _ := openaiWire{provider: "openrouter"}.body(cfg.client(), chatRequest{Messages: h})
		var req struct {
			Messages []struct {
				Role       string
				Content    json.RawMessage
				ToolCallID string `json:"tool_call_id"`
			}
		}
		json.Unmarshal(body, &req)
		marked := 0
		for _, m := range req.Messages {
			var parts []map[string]any
			if json.Unmarshal(m.Content, &parts) == nil && len(parts) == 1 && parts[0]["cache_control"] != nil {
				marked++
			}
		}
		if marked != c.want || req.Messages[3].ToolCallID != "c1" || strings.Contains(string(body), "prompt_cache_key") {
			t.Errorf("%s PROMPT_CACHE=%s: %d marked messages, want %d: %s", c.model, c.cache, marked, c.want, body)
		}
	}
}

// TestAnthropicErrorEventHeals: Anthropic's event: error with a
// context-length message after some text heals like an HTTP rejection.
func TestAnthropicErrorEventHeals(t *testing.T) {
	t.Parallel()
	rejected := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Part\"}}\n\n" +
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 208310 tokens > 200000 maximum\"}}\n\n"
	ok := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"healed\"}}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	stream := func(body string) step {
		return func(w http.ResponseWriter, _ received) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, body)
		}
	}
	fp := newFakeProvider(t, stream(ok), stream(rejected), stream(ok))
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "first " + bigPrompt(2000) + "\nsecond\n",
		env: []string{"YAI_PROVIDER=anthropic", "YAI_MODEL=claude-sonnet-4-20250514"}})
	if r.code != 0 || r.stdout != "healed\nhealed\n" || !strings.Contains(r.stderr, "its partial text is discarded, not written to the output") { // the partial "Part" is held from the pipe
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestAnthropicErrorEventWithoutType: an event named error is an error even
// when its data lacks "type" (proxies in front of the Messages API).
func TestAnthropicErrorEventWithoutType(t *testing.T) {
	body := "event: error\ndata: {\"error\":{\"message\":\"prompt is too long: 208310 tokens > 200000 maximum\"}}\n\n"
	_, err := anthropicWire{provider: "anthropic"}.stream(strings.NewReader(body), streamSink{})
	if !errors.Is(err, errContextLength) {
		t.Fatalf("stream error = %v, want a context-length rejection", err)
	}
}
