package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// reasoningStream streams reasoning_content pieces, then the answer.
func reasoningStream(reasoning, answer string) string {
	ev := []string{chunkJSON(map[string]any{"role": "assistant", "content": ""}, nil)}
	for _, r := range strings.SplitAfter(reasoning, " ") {
		ev = append(ev, chunkJSON(map[string]any{"reasoning_content": r}, nil))
	}
	ev = append(ev, chunkJSON(map[string]any{"content": answer}, nil), chunkJSON(map[string]any{}, "stop"), usageJSON(-1))
	return sseBody(ev...)
}

// TestReasoningView: reasoning ends its own line before the answer; on a
// terminal it sits between a label and a rule, dim unless NO_COLOR.
func TestReasoningView(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal bool
		env      map[string]string
		want     string
	}{
		{"piped", false, nil, "Let me think.\n"},
		{"terminal", true, nil, "\x1b[2m── thinking ──\x1b[0m\n\x1b[2;3mLet me \x1b[0m\x1b[2;3mthink.\x1b[0m\n\x1b[2m── answer ──\x1b[0m\n"},
		{"NO_COLOR", true, map[string]string{"NO_COLOR": "1"}, "── thinking ──\nLet me think.\n── answer ──\n"},
		{"TERM=dumb", true, map[string]string{"TERM": "dumb"}, "── thinking ──\nLet me think.\n── answer ──\n"},
	} {
		var b bytes.Buffer
		r := newReasoningView(&b, tc.terminal, func(k string) string { return tc.env[k] })
		r.write("Let me ")
		r.write("think.")
		r.end()
		r.end() // a second end adds nothing
		if b.String() != tc.want {
			t.Errorf("%s: reasoning drawn as %q, want %q", tc.name, b.String(), tc.want)
		}
	}
}

// TestReasoningFlags: reasoning is on stderr, on a line of its own before
// the answer's; --hide-reasoning drops it, --show-reasoning overrides
// SHOW_REASONING=false; stdout has the answer alone.
func TestReasoningFlags(t *testing.T) {
	t.Parallel()
	body := reasoningStream("Let me think about this carefully.", "The answer is 42.")
	for _, tc := range []struct {
		name       string
		args, env  []string
		wantStderr string
	}{
		{"default", []string{"q"}, nil, "Let me think about this carefully.\n"},
		{"hide", []string{"--hide-reasoning", "q"}, nil, ""},
		{"show beats config", []string{"q", "--show-reasoning"}, []string{"YAI_SHOW_REASONING=false"}, "Let me think about this carefully.\n"},
		{"config off", []string{"q"}, []string{"YAI_SHOW_REASONING=false"}, ""},
	} {
		f := newFakeProvider(t, sse(body))
		r := runBinary(t, f, e2e{args: tc.args, env: tc.env})
		if r.stdout != "The answer is 42.\n" || r.stderr != tc.wantStderr || r.code != 0 {
			t.Errorf("%s: stdout %q, stderr %q, exit %d; want stderr %q", tc.name, r.stdout, r.stderr, r.code, tc.wantStderr)
		}
	}
}

// TestTmuxReasoning: on a terminal the reasoning and the answer are on
// separate lines, the reasoning labelled and dim, the answer not.
func TestTmuxReasoning(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, sse(reasoningStream("Let me think about this carefully.", "The answer is 42.")))
	s := launchTmux(t, f, "sh -c "+quoteAll([]string{binary + " q; echo EXIT=$?; sleep 30"})[0])
	sc := s.waitFor("EXIT=0")
	if !strings.Contains(sc, "── thinking ──\nLet me think about this carefully.\n── answer ──\nThe answer is 42.\n") {
		t.Errorf("reasoning and answer not apart:\n%s", sc)
	}
	colour := s.screenSGR()
	if !strings.Contains(colour, "\x1b[2m") || !strings.Contains(colour, "\x1b[3m") && !strings.Contains(colour, ";3m") {
		t.Errorf("reasoning is not dim and italic:\n%q", colour)
	}
	for _, line := range strings.Split(colour, "\n") {
		if strings.Contains(line, "The answer is 42.") && strings.Contains(line, "\x1b[2") {
			t.Errorf("the answer is drawn dim: %q", line)
		}
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
