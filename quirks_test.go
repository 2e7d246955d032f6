package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProviderQuirks replays streams of real OpenAI-compatible servers
// whose shapes differ from OpenAI's own.
func TestProviderQuirks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("n"), 0o644)
	toolsThenDone := func(name string, wantCalls int) []step {
		return []step{replay(t, name), check(sse(textStream("done")), func(r received) {
			m := r.messages()
			var results int
			for _, x := range m {
				if x.Role == "tool" {
					results++
				}
			}
			if results != wantCalls || orphans(m) != 0 {
				t.Errorf("%s: %d tool results, want %d; orphans %d", name, results, wantCalls, orphans(m))
			}
		})}
	}
	for _, tc := range []struct {
		name       string
		steps      []step
		stdin      string
		wantStdout string
		wantStderr string
		wantCode   int
	}{
		{name: "azure empty first chunk", steps: []step{replay(t, "azure_text.sse")}, wantStdout: "Hello from Azure.\n"},
		{name: "gemini calls without index, stop after tool calls", steps: toolsThenDone("gemini_tools.sse", 2), wantStdout: "done\n"},
		{name: "xai whole call in one delta", steps: toolsThenDone("xai_tools.sse", 1), wantStdout: "done\n"},
		{name: "openrouter comments and finish_reason error", steps: []step{replay(t, "openrouter_error_finish.sse")},
			wantStdout: "Starting\n", wantStderr: `finish_reason "error"`, wantCode: 1},
		{name: "deepseek usage on the finish chunk", steps: []step{replay(t, "deepseek_usage_on_finish.sse")}, wantStdout: "Done.\n"},
		{name: "llama.cpp error line heals", steps: []step{replay(t, "llamacpp_error.sse"), replay(t, "llamacpp_error.sse")},
			wantStderr: `rejected the request as too long \(9000 tokens > 8192\)`, wantCode: 4},
		{name: "ollama silent truncation warned", steps: []step{replay(t, "ollama_truncated.sse")}, stdin: strings.Repeat("log line number something\n", 2000),
			wantStdout: "I only see the end.\n", wantStderr: "counted 2048 prompt tokens for a request estimated at \\d+; it probably cut the conversation"},
		{name: "openai CRLF comments", steps: []step{replay(t, "openai_text_crlf.sse")}, wantStdout: "The sky is blue because of Rayleigh scattering.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fp := newFakeProvider(t, tc.steps...)
			r := runBinaryIn(t, fp, dir, e2e{args: []string{"q"}, stdin: tc.stdin})
			if r.code != tc.wantCode || r.stdout != tc.wantStdout {
				t.Errorf("code %d stdout %q, want %d %q; stderr %s", r.code, r.stdout, tc.wantCode, tc.wantStdout, r.stderr)
			}
			if tc.wantStderr != "" && !matches(tc.wantStderr, r.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.wantStderr)
			}
		})
	}
}

// TestDeepSeekReasoningSentBack: in a tool loop, DeepSeek's thinking mode
// needs the assistant's reasoning_content back in the next request.
func TestDeepSeekReasoningSentBack(t *testing.T) {
	t.Parallel()
	first := sseBody(
		`{"id":"d1","object":"chat.completion.chunk","model":"deepseek-v4-pro","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"I need the listing."},"finish_reason":null}]}`,
		`{"id":"d1","object":"chat.completion.chunk","model":"deepseek-v4-pro","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_00_x","type":"function","function":{"name":"fs_list_directory","arguments":"{\"directory_path\":\".\"}"}}]},"finish_reason":null}]}`,
		`{"id":"d1","object":"chat.completion.chunk","model":"deepseek-v4-pro","choices":[{"index":0,"delta":{"content":""},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":900,"completion_tokens":40,"total_tokens":940}}`,
	)
	fp := newFakeProvider(t, sse(first), check(sse(textStream("listed")), func(r received) {
		var body struct {
			Messages []map[string]any `json:"messages"`
		}
		json.Unmarshal(r.Raw, &body)
		asst := body.Messages[len(body.Messages)-2]
		if asst["role"] != "assistant" || asst["reasoning_content"] != "I need the listing." {
			t.Errorf("assistant message sent back = %v", asst)
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"list"}, env: []string{"YAI_PROVIDER=deepseek"}})
	if r.code != 0 || r.stdout != "listed\n" {
		t.Errorf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestModelWithoutTools: Ollama refuses tools for some models; the run goes
// on without them, and says so once.
func TestModelWithoutTools(t *testing.T) {
	t.Parallel()
	refusal := `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`
	fp := newFakeProvider(t, fail(400, refusal), check(sse(textStream("plain answer")), func(r received) {
		if r.Body["tools"] != nil {
			t.Error("tools sent again after the refusal")
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"hi"}, env: []string{"YAI_PROVIDER=ollama", "YAI_MODEL=gemma:2b"}})
	if r.code != 0 || r.stdout != "plain answer\n" || strings.Count(r.stderr, "takes no tools") != 1 {
		t.Errorf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}
