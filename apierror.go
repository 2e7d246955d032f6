package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// errKind is what a caller does about a provider error.
type errKind int

const (
	kindOther         errKind = iota
	kindAuth                  // fix the key
	kindRateLimit             // wait and retry
	kindOverloaded            // wait and retry
	kindContextLength         // make the request smaller and retry
	kindNoTools               // the model takes no tools: retry without them
)

// String says the kind in words, for messages.
func (k errKind) String() string {
	return [...]string{"error", "authentication failed", "rate limited", "overloaded", "context length exceeded", "tools not supported"}[k]
}

// errContextLength is matched by errors.Is on an *apiError of kindContextLength.
var errContextLength = errors.New("context length exceeded")

// apiError is a provider's rejection, classified. Limit and Actual are the
// window and the request size in tokens when the provider's words name them.
type apiError struct {
	Provider   string
	Status     int // 0 when the error came inside a 200 stream
	Kind       errKind
	Message    string // the provider's own words
	Limit      int
	Actual     int
	MaxTokens  bool // the provider blames max_tokens (output reserve), not the prompt
	RetryAfter time.Duration
}

// Error says which provider rejected what, in its own words.
func (e *apiError) Error() string {
	where := "rejected the request"
	if e.Status == 0 {
		where = "sent an error mid-stream"
	}
	s := fmt.Sprintf("provider %s %s: %s", e.Provider, where, e.Kind)
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is lets errors.Is(err, errContextLength) find a context-length rejection.
func (e *apiError) Is(target error) bool {
	return target == errContextLength && e.Kind == kindContextLength
}

// classify turns a status and body into an apiError.
func classify(provider string, status int, body []byte, header http.Header) *apiError {
	e := &apiError{Provider: provider, Status: status, Message: errorMessage(body)}
	text := strings.ToLower(string(body))
	switch {
	case status == 401 || status == 403:
		e.Kind = kindAuth
	case status == 429 || isRateLimitText(text):
		e.Kind = kindRateLimit
	case status == 529 || status == 503 || strings.Contains(text, "overloaded"):
		e.Kind = kindOverloaded
	case isContextLength(text, e):
		e.Kind = kindContextLength
	case status == 400 && isNoToolsText(text):
		e.Kind = kindNoTools
	}
	if header != nil {
		e.RetryAfter = parseRetryAfter(header.Get("Retry-After"), time.Now())
	}
	return e
}

// isRateLimitText catches token-per-minute limits that name tokens but are
// not about the context window (Groq 413, Bedrock throttling, OpenAI TPM).
func isRateLimitText(t string) bool {
	for _, p := range []string{"rate_limit", "rate limit", "tokens per min", "(tpm)", "throttl", "too many requests"} {
		if strings.Contains(t, p) {
			return true
		}
	}
	return false
}

// isNoToolsText recognises servers refusing tools for this model: Ollama
// ("does not support tools"), vLLM without a tool parser, others.
func isNoToolsText(t string) bool {
	for _, p := range []string{"does not support tools", "tools is not supported", "tool use is not supported",
		"does not support function calling", "function calling is not enabled", "--enable-auto-tool-choice"} {
		if strings.Contains(t, p) {
			return true
		}
	}
	return false
}

// contextPhrases are provider wordings of a context-length rejection, lower case.
var contextPhrases = []string{
	"context_length_exceeded",                      // OpenAI, Azure, Groq, OpenAI Responses
	"maximum context length",                       // OpenAI, DeepSeek, vLLM, Mistral, OpenRouter, Together
	"prompt is too long",                           // Anthropic
	"exceeds the context window",                   // OpenAI Responses
	"exceeds the maximum number of tokens allowed", // Gemini
	"exceeds the available context size",           // llama.cpp
	"exceed_context_size_error",                    // llama.cpp
	"reduce the length of the messages",            // OpenAI family
	"input length exceeds the context length",      // Ollama
	"exceeded model token limit",                   // Moonshot / Kimi
	"exceed context limit",                         // Anthropic, max_tokens counted
	"maximum prompt length",                        // xAI
	"maximum model length",                         // vLLM v1
	"context length of only",                       // LM Studio
	"context the overflows",                        // LM Studio
	"greater than the context length",              // LM Studio
	"range of input length should be",              // Qwen / DashScope
	"input is too long for requested model",        // Bedrock
	"too large for model with",                     // Mistral
	"context window exceeded",                      // various gateways
	"model_context_window_exceeded",                // Anthropic stop reason, some proxies
	"`inputs` tokens + `max_new_tokens`",           // Together / TGI
}

// contextNumbers pull the window (limit) and the request size (actual) out
// of the provider's words; group indexes are 0 when the text lacks one.
var contextNumbers = []struct {
	re            *regexp.Regexp
	limit, actual int
}{
	{regexp.MustCompile(`maximum context length is (\d+) tokens\. however, (?:your messages resulted in|you requested(?: about)?) (\d+)`), 1, 2},
	{regexp.MustCompile(`maximum context length is (\d+) tokens and your request has (\d+) input`), 1, 2},
	{regexp.MustCompile(`prompt contains (\d+) tokens.*?(\d+) maximum context length`), 2, 1},
	{regexp.MustCompile(`maximum context length is (\d+)`), 1, 0},
	{regexp.MustCompile(`prompt is too long: (\d+) tokens > (\d+)`), 2, 1},
	{regexp.MustCompile(`input length and .max_tokens. exceed context limit: (\d+) \+ \d+ > (\d+)`), 2, 1},
	{regexp.MustCompile(`input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)`), 2, 1},
	{regexp.MustCompile(`request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)`), 2, 1},
	{regexp.MustCompile(`exceeded model token limit: (\d+) \(requested: (\d+)\)`), 1, 2},
	{regexp.MustCompile(`maximum prompt length is (\d+) but the request contains (\d+)`), 1, 2},
	{regexp.MustCompile(`\(length (\d+)\) is longer than the maximum model length of (\d+)`), 2, 1},
	{regexp.MustCompile(`context length of only (\d+)`), 1, 0},
	{regexp.MustCompile(`range of input length should be \[1, (\d+)\]`), 1, 0},
	{regexp.MustCompile(`exceeds the context window of (\d+)`), 1, 0},
}

// isContextLength reports whether lower-cased text is a context-length
// rejection and fills e's numbers from it.
func isContextLength(text string, e *apiError) bool {
	found := false
	for _, p := range contextPhrases {
		if strings.Contains(text, p) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	for _, n := range contextNumbers {
		m := n.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if n.limit > 0 && e.Limit == 0 {
			e.Limit, _ = strconv.Atoi(m[n.limit])
		}
		if n.actual > 0 && e.Actual == 0 {
			e.Actual, _ = strconv.Atoi(m[n.actual])
		}
	}
	e.MaxTokens = strings.Contains(text, "max_tokens` exceed") || strings.Contains(text, "in the completion") ||
		strings.Contains(text, "'max_tokens' or 'max_completion_tokens' is too large") ||
		strings.Contains(text, "max_new_tokens")
	return true
}

// errorMessage extracts the human text from the error body shapes providers
// use: {"error":{"message"}}, {"error":"..."}, [{"error":...}] (Gemini),
// {"message":...} (vLLM), {"type":"error","error":{...}} (Anthropic).
func errorMessage(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		s := strings.TrimSpace(string(body))
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		return s
	}
	return findMessage(v)
}

// findMessage digs the first "message" string out of a decoded error body.
func findMessage(v any) string {
	switch t := v.(type) {
	case []any:
		if len(t) > 0 {
			return findMessage(t[0])
		}
	case string:
		return t
	case map[string]any:
		if e, ok := t["error"]; ok {
			if m := findMessage(e); m != "" {
				return m
			}
		}
		if m, ok := t["message"].(string); ok {
			return m
		}
		if m, ok := t["detail"].(string); ok {
			return m
		}
	}
	return ""
}

// parseRetryAfter reads seconds or an HTTP date; 0 when absent or bad.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// hint says what a person should do about err, or "" when nothing helps.
func hint(err error, c *config) string {
	var ae *apiError
	if !errors.As(err, &ae) {
		return ""
	}
	switch ae.Kind {
	case kindAuth:
		if v := presets[c.Provider].keyEnv; v != "" {
			return "check the key in API_KEY / YAI_API_KEY or " + v
		}
		return "check the key in API_KEY / YAI_API_KEY"
	case kindRateLimit, kindOverloaded:
		return "the provider is busy; wait a moment and try again"
	case kindContextLength:
		var he *healError
		if errors.As(err, &he) && he.stuck {
			return "the current message alone is too big for this model: send less (pipe through head or tail, attach fewer files), or use a model with a larger window"
		}
		if ae.MaxTokens {
			return "lower MAX_TOKENS (--max-tokens), run /compact, or lower CONTEXT_BUDGET_TOKENS"
		}
		return "run /compact in the REPL, or lower CONTEXT_BUDGET_TOKENS or TOOL_OUTPUT_MAX_CHARS"
	}
	return ""
}
