package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// samplingKeys are the request fields the provider settings may add.
var samplingKeys = []string{"top_k", "seed", "frequency_penalty", "presence_penalty", "extra_body", "thinking"}

// bodyJSON renders a request field for comparison, "" when absent.
func bodyJSON(b map[string]any, k string) string {
	v, ok := b[k]
	if !ok {
		return ""
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// TestSamplingSentOnlyWhenSet drives the binary against fake providers
// speaking OpenAI's, Gemini's and Anthropic's formats and reads what each
// request carried: nothing of the settings when unset, each in the
// provider's field when set.
func TestSamplingSentOnlyWhenSet(t *testing.T) {
	all := []string{"YAI_TOP_K=40", "YAI_SEED=-7", "YAI_FREQUENCY_PENALTY=0.5", "YAI_PRESENCE_PENALTY=-1.25"}
	tests := []struct {
		name   string
		sse    string
		env    []string
		want   map[string]string // field -> JSON; every other sampling key absent
		absent []string          // other fields that must not be sent
	}{
		{name: "openai, none set", sse: "openai_text.sse", want: map[string]string{}},
		{name: "openai, all set", sse: "openai_text.sse", env: all,
			want: map[string]string{"top_k": "40", "seed": "-7", "frequency_penalty": "0.5", "presence_penalty": "-1.25"}},
		{name: "gemini thinking budget", sse: "openai_text.sse",
			env:    []string{"YAI_PROVIDER=gemini", "YAI_MODEL=gemini-2.5-flash", "YAI_THINKING_BUDGET=800", "YAI_REASONING_EFFORT=low"},
			want:   map[string]string{"extra_body": `{"google":{"thinking_config":{"include_thoughts":true,"thinking_budget":800}}}`},
			absent: []string{"reasoning_effort"}},
		{name: "gemini thinking off", sse: "openai_text.sse", env: []string{"YAI_PROVIDER=gemini", "YAI_THINKING_BUDGET=0"},
			want: map[string]string{"extra_body": `{"google":{"thinking_config":{"include_thoughts":true,"thinking_budget":0}}}`}},
		{name: "anthropic, none set", sse: "anthropic_text.sse", env: []string{"YAI_PROVIDER=anthropic", "YAI_MODEL=claude-sonnet-4-5"},
			want: map[string]string{}},
		{name: "anthropic top_k", sse: "anthropic_text.sse", env: []string{"YAI_PROVIDER=anthropic", "YAI_TOP_K=5"},
			want: map[string]string{"top_k": "5"}},
		{name: "anthropic thinking budget raises max_tokens", sse: "anthropic_text.sse",
			env:  []string{"YAI_PROVIDER=anthropic", "YAI_THINKING_BUDGET=2000", "YAI_MAX_TOKENS=1024"},
			want: map[string]string{"thinking": `{"budget_tokens":2000,"type":"enabled"}`}, absent: []string{"temperature"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeProvider(t, replay(t, tt.sse))
			res := runBinary(t, f, e2e{args: []string{"q"}, env: tt.env})
			if res.code != 0 {
				t.Fatalf("exit %d, stderr %s", res.code, res.stderr)
			}
			if strings.Contains(res.stderr, "is not sent") || strings.Contains(res.stderr, "using default") {
				t.Errorf("unexpected warning: %s", res.stderr)
			}
			body := f.chats()[0].Body
			for _, k := range samplingKeys {
				if got, want := bodyJSON(body, k), tt.want[k]; got != want {
					t.Errorf("body[%s] = %s, want %q", k, got, want)
				}
			}
			for _, k := range tt.absent {
				if _, ok := body[k]; ok {
					t.Errorf("body has %s = %s, want it left out", k, bodyJSON(body, k))
				}
			}
			if tt.want["thinking"] != "" {
				if mt, _ := body["max_tokens"].(float64); mt <= 2000 {
					t.Errorf("max_tokens = %v with a 2000-token thinking budget; Anthropic needs it greater", mt)
				}
			}
		})
	}
}

// TestSamplingValidation: a value out of range stops the run (exit 2,
// saying where to fix it); one the provider has no field for is warned
// about at load and not sent.
func TestSamplingValidation(t *testing.T) {
	tests := []struct {
		name, provider, key, value, warn string
	}{
		{"top_k zero", "openai", "TOP_K", "0", `TOP_K="0" from the environment (YAI_TOP_K): expected a whole number >= 1, or empty for none; set YAI_TOP_K to one, or unset it for none`},
		{"top_k word", "openai", "TOP_K", "many", `TOP_K="many" from the environment (YAI_TOP_K): expected a whole number >= 1`},
		{"seed word", "openai", "SEED", "1.5", `SEED="1.5" from the environment (YAI_SEED): expected a whole number`},
		{"penalty high", "openai", "FREQUENCY_PENALTY", "2.5", `FREQUENCY_PENALTY="2.5" from the environment (YAI_FREQUENCY_PENALTY): expected a number from -2 to 2`},
		{"penalty NaN", "openai", "PRESENCE_PENALTY", "NaN", `PRESENCE_PENALTY="NaN" from the environment (YAI_PRESENCE_PENALTY): expected a number from -2 to 2`},
		{"thinking below -1", "gemini", "THINKING_BUDGET", "-2", `THINKING_BUDGET="-2" from the environment (YAI_THINKING_BUDGET): expected a whole number of tokens >= -1`},
		{"thinking small for anthropic", "anthropic", "THINKING_BUDGET", "512", "THINKING_BUDGET=512 from env is not sent: Anthropic takes a thinking budget of 1024 tokens or more"},
		{"thinking for openai", "openai", "THINKING_BUDGET", "4096", "THINKING_BUDGET=4096 from env is not sent: it is sent to PROVIDER=anthropic and gemini only"},
		{"seed for anthropic", "anthropic", "SEED", "3", "SEED=3 from env is not sent: Anthropic's Messages API has no seed"},
		{"penalty for anthropic", "anthropic", "PRESENCE_PENALTY", "1", "PRESENCE_PENALTY=1 from env is not sent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"YAI_PROVIDER": tt.provider, "YAI_" + tt.key: tt.value}
			var warn strings.Builder
			c, err := loadConfig(configSources{env: func(k string) string { return env[k] }, tmpDir: t.TempDir()}, &warn)
			if err != nil {
				if !strings.Contains(err.Error(), tt.warn) || strings.Contains(tt.warn, "is not sent") {
					t.Errorf("error = %q, want %q", err, tt.warn)
				}
				return
			}
			if !strings.Contains(warn.String(), tt.warn) {
				t.Errorf("warning = %q, want %q", warn.String(), tt.warn)
			}
			o := c.client()
			b := map[string]any{}
			openaiSampling(o.sampling, o.provider, b)
			if len(b) > 0 {
				t.Errorf("after the warning the request still carries %v", b)
			}
			if _, ok := anthropicThinking(o.sampling, o.reasoningEffort); ok {
				t.Errorf("after the warning an Anthropic request would still think")
			}
		})
	}
}

// TestAnthropicTopKWhileThinking: top_k is dropped with a warning when
// thinking is on, as Anthropic refuses the pair.
func TestAnthropicTopKWhileThinking(t *testing.T) {
	env := map[string]string{"YAI_PROVIDER": "anthropic", "YAI_TOP_K": "5", "YAI_REASONING_EFFORT": "low"}
	var warn strings.Builder
	c, err := loadConfig(configSources{env: func(k string) string { return env[k] }, tmpDir: t.TempDir()}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := anthropicWire{provider: "anthropic"}.body(c.client(), chatRequest{Messages: []message{{Role: roleUser, Content: "q"}}, MaxTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	var b map[string]any
	json.Unmarshal(raw, &b)
	if _, ok := b["top_k"]; ok || !strings.Contains(warn.String(), "refuses top_k while thinking") {
		t.Errorf("body %s, warning %q; want no top_k and a warning", raw, warn.String())
	}
	if mt, _ := b["max_tokens"].(float64); mt <= float64(anthropicBudgets["low"]) {
		t.Errorf("max_tokens = %v, want above the %d-token budget", mt, anthropicBudgets["low"])
	}
}
