package main

import (
	"encoding/json"
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
			if !strings.HasPrefix(a.System, "You are yaicli") || a.MaxTokens != 1024 || !a.Stream || len(a.Messages) != 1 || a.Messages[0].Role != "user" {
				t.Errorf("first request = %+v", a)
			}
			if len(a.Tools) != 11 || !json.Valid(a.Tools[0].InputSchema) {
				t.Errorf("tools = %+v", a.Tools)
			}
		}),
		check(replay(t, "anthropic_text.sse"), func(r received) {
			a := decodeAnthropic(t, r)
			if len(a.Messages) != 3 {
				t.Fatalf("second request has %d messages: %+v", len(a.Messages), a.Messages)
			}
			asst, results := a.Messages[1], a.Messages[2]
			if got := strings.Join(blockTypes(asst), ","); asst.Role != "assistant" || got != "thinking,text,tool_use,tool_use" {
				t.Errorf("assistant blocks = %s", got)
			}
			if sig := asst.Content[0].(map[string]any)["signature"]; sig != "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" {
				t.Errorf("thinking signature not sent back: %v", sig)
			}
			if in := asst.Content[3].(map[string]any)["input"]; in == nil {
				t.Errorf("argument-less tool_use has no input object")
			}
			if got := strings.Join(blockTypes(results), ","); results.Role != "user" || got != "tool_result,tool_result" {
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
	h := []message{{Role: "system", Content: "a"}, {Role: "system", Content: "b"}, {Role: "user", Content: "q1"}, {Role: "user", Content: "q2"},
		{Role: "assistant", ToolCalls: []toolCall{call("1", "x", ""), call("2", "y", "{bad")}},
		{Role: "tool", ToolCallID: "1", Content: "r1"}, {Role: "tool", ToolCallID: "2", Content: "r2"}, {Role: "user", Content: "more"}}
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
