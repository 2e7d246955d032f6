package main

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestClassifyProviderBodies runs every body in testdata/errors: ctx_* must
// be context-length rejections, not_* must not.
func TestClassifyProviderBodies(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.json")
	if len(files) < 20 {
		t.Fatalf("only %d error bodies found", len(files))
	}
	numbers := map[string][2]int{ // limit, actual
		"ctx_openai": {4097, 4619}, "ctx_anthropic": {200000, 208310}, "ctx_gemini": {1048576, 1200293},
		"ctx_deepseek": {131072, 131134}, "ctx_vllm": {16384, 19591}, "ctx_llamacpp": {123904, 124315},
		"ctx_moonshot": {262144, 269030}, "ctx_mistral": {32768, 40500}, "ctx_openrouter": {128000, 150012},
		"ctx_xai": {131072, 145002}, "ctx_lmstudio": {4096, 0}, "ctx_dashscope": {30720, 0}, "ctx_vllm_v1": {32768, 40000},
		"ctx_anthropic_max_tokens": {200000, 197742}, "ctx_vllm_max_tokens": {16384, 9591},
	}
	maxTokensBlamed := map[string]bool{"ctx_anthropic_max_tokens": true, "ctx_vllm_max_tokens": true, "ctx_together": true, "ctx_deepseek": true, "ctx_vllm": true}
	for _, f := range files {
		base := filepath.Base(f)
		parts := strings.Split(base, ".")
		name := parts[0]
		status, _ := strconv.Atoi(parts[1])
		body, _ := os.ReadFile(f)
		t.Run(name, func(t *testing.T) {
			e := classify("p", status, body, nil)
			isCtx := errors.Is(e, errContextLength)
			if want := strings.HasPrefix(name, "ctx_"); isCtx != want {
				t.Fatalf("classify(%s) context length = %v, want %v (kind %v)", name, isCtx, want, e.Kind)
			}
			if e.Message == "" {
				t.Errorf("no message extracted from %s", body)
			}
			if n, ok := numbers[name]; ok && (e.Limit != n[0] || e.Actual != n[1]) {
				t.Errorf("classify(%s) numbers = %d, %d; want %d, %d", name, e.Limit, e.Actual, n[0], n[1])
			}
			if isCtx && e.MaxTokens != maxTokensBlamed[name] {
				t.Errorf("classify(%s) blames max_tokens = %v, want %v", name, e.MaxTokens, maxTokensBlamed[name])
			}
		})
	}
}

func TestClassifyKinds(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   errKind
	}{
		{401, `{"error":{"message":"Incorrect API key"}}`, kindAuth},
		{403, `{"error":"forbidden"}`, kindAuth},
		{429, `{"error":{"message":"slow down"}}`, kindRateLimit},
		{503, `{"error":{"message":"busy"}}`, kindOverloaded},
		{529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, kindOverloaded},
		{500, `{"error":{"message":"Overloaded"}}`, kindOverloaded},
		{500, `{"error":{"message":"internal"}}`, kindOther},
		{400, `not json at all`, kindOther},
	} {
		if got := classify("p", tc.status, []byte(tc.body), nil).Kind; got != tc.want {
			t.Errorf("classify(%d, %s) = %v, want %v", tc.status, tc.body, got, tc.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{"": 0, "3": 3 * time.Second, "0.5": 500 * time.Millisecond, "junk": 0,
		now.Add(10 * time.Second).Format(http.TimeFormat): 10 * time.Second} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}
