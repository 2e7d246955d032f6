package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
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
	kindQuota                 // plan or billing exhausted: no wait helps
	kindOutputCap             // max_tokens over the model's output cap: lower it
	kindTooLarge              // the body is over a byte cap: shrink the biggest parts
	kindServer                // 500, 502, 504: the provider failed; retry a hosted one
	kindNoModel               // the server does not know MODEL: fix MODEL
	kindNotAPI                // what answered is no chat API (a web page, 404, 501): fix BASE_URL
)

// String says the kind in words, for messages.
func (k errKind) String() string {
	return [...]string{"error", "authentication failed", "rate limited", "overloaded", "context length exceeded", "tools not supported",
		"quota or billing limit reached", "max_tokens over the model's output cap", "request too large", "server error",
		"model not found", "not a chat API"}[k]
}

// errContextLength is matched by errors.Is on an *apiError of kindContextLength.
var errContextLength = errors.New("context length exceeded")

// apiError is a provider's rejection, classified. Limit and Actual are the
// window and the request size in tokens when the provider's words name them.
type apiError struct {
	Provider  string
	Status    int // 0 when the error came inside a 200 stream
	Kind      errKind
	Message   string // the provider's own words
	Limit     int
	Actual    int
	MaxTokens bool // the provider blames max_tokens (output reserve), not the prompt
	Cap       int  // an output cap's stated maximum for max_tokens
	// CharLimit and CharActual are a pre-check's figures in characters:
	// they scale the heal's target, and never become a token window.
	CharLimit, CharActual int
	RetryAfter            time.Duration
	// Server names where the request went when BASE_URL is not the
	// provider's own ("the server at 127.0.0.1:8080"): PROVIDER=openai is
	// then only the wire format, and "provider openai" would mislead.
	Server string
}

// who names where the rejection came from: "provider openai", or the
// server by its host when BASE_URL is custom.
func (e *apiError) who() string {
	if e.Server != "" {
		return e.Server
	}
	return "provider " + e.Provider
}

// Error says which provider rejected what, in its own words.
func (e *apiError) Error() string {
	where := "rejected the request"
	switch {
	case e.Kind == kindNotAPI:
		where = "answered, but not as a chat API"
	case e.Status == 0:
		where = "sent an error mid-stream"
	}
	who := e.who()
	s := fmt.Sprintf("%s %s: %s", who, where, e.Kind)
	if e.Kind == kindNotAPI {
		s = who + " " + where
	}
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// healTarget is the token size a healed request aims at, from the figures
// the rejection states: under the window less the output reserve in
// tokens, or the measured size scaled by the characters allowed over the
// characters sent; 0 when it states neither (the heal then drops a turn
// group or halves). measured is the rejected request as trimming counts it.
func (e *apiError) healTarget(measured, maxTokens int) int {
	switch {
	case e.Limit > 0:
		return max((e.Limit-maxTokens)*9/10, 1)
	case e.CharLimit > 0 && e.CharActual > e.CharLimit && measured > 0:
		return max(int(int64(measured)*int64(e.CharLimit)/int64(e.CharActual))*9/10, 1)
	}
	return 0
}

// Is lets errors.Is(err, errContextLength) find a context-length rejection.
func (e *apiError) Is(target error) bool {
	return target == errContextLength && e.Kind == kindContextLength
}

// classify turns a status and body into an apiError, by what the words
// mean (errclass.go), never by the provider's name.
func classify(provider string, status int, body []byte) *apiError {
	e := &apiError{Provider: provider, Status: status, Message: errorMessage(body)}
	t := readError(body)
	e.Kind = kindOf(status, t, e)
	if (e.Kind == kindOther && (status == 400 || status == 0) || status == 404) && isNoToolsText(t.raw) {
		e.Kind = kindNoTools // OpenRouter says it with a 404: "No endpoints found that support tool use"
	}
	return e
}

// isNoToolsText recognises servers refusing tools for this model: Ollama
// ("does not support tools"), vLLM without a tool parser, others.
func isNoToolsText(t string) bool {
	for _, p := range []string{"does not support tools", "tools is not supported", "tool use is not supported",
		"does not support function calling", "function calling is not enabled", "--enable-auto-tool-choice", "found that support tool use"} {
		if strings.Contains(t, p) {
			return true
		}
	}
	return false
}

// errorMessage extracts the human text from the error body shapes providers
// use: {"error":{"message"}}, {"error":"..."}, [{"error":...}] (Gemini),
// {"message":...} (vLLM), {"type":"error","error":{...}} (Anthropic).
func errorMessage(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		s := strings.TrimSpace(htmlTitle(string(body)))
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		return s
	}
	return findMessage(v)
}

// htmlTitle is the <title> of an HTML error page (a proxy's 413), else s.
func htmlTitle(s string) string {
	i := strings.Index(strings.ToLower(s), "<title>")
	j := strings.Index(strings.ToLower(s), "</title>")
	if i >= 0 && j > i {
		return s[i+len("<title>") : j]
	}
	return s
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
		if m := findMessage(t["detail"]); m != "" {
			return m // FastAPI: a string, or validation errors [{"msg": ...}]
		}
		if m, ok := t["msg"].(string); ok {
			return m
		}
		if b, ok := t["base_resp"].(map[string]any); ok { // MiniMax
			if m, ok := b["status_msg"].(string); ok && m != "" && m != "success" {
				return m
			}
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
	if t, err := http.ParseTime(v); err == nil && !now.IsZero() && t.After(now) { // no clock: the date means nothing
		return t.Sub(now)
	}
	return 0
}

// bodyError returns the rejection a stream event or a whole 200 body
// carries, or nil: an "error" member with or without choices (OpenRouter
// puts one beside finish_reason "error"), vLLM's {"object":"error"}, a
// {"type":"error"} event, MiniMax's base_resp with a non-zero status_code.
func bodyError(provider string, data []byte) *apiError {
	if !containsFold(data, "error") && !containsFold(data, "base_resp") {
		return nil // most events are deltas: a scan spares decoding each one twice
	}
	var v struct {
		Error    json.RawMessage `json:"error"`
		Object   string          `json:"object"`
		Type     string          `json:"type"`
		BaseResp *struct {
			StatusCode int `json:"status_code"`
		} `json:"base_resp"`
	}
	if json.Unmarshal(data, &v) != nil {
		return nil
	}
	switch e := strings.TrimSpace(string(v.Error)); {
	case e != "" && e != "null" && e != `""` && e != "{}":
	case v.Object == "error" || v.Type == "error":
	case v.BaseResp != nil && v.BaseResp.StatusCode != 0:
	default:
		return nil
	}
	return classify(provider, 0, data)
}

// retryable says whether err is worth the same request again, why in
// words, and how long the provider asked to wait (0: back off). Timeouts
// and server failures of a hosted provider are retried; a local server's
// 500 is usually the same answer again.
func retryable(err error, local bool) (string, time.Duration, bool) {
	var ae *apiError
	if errors.As(err, &ae) {
		switch ae.Kind {
		case kindRateLimit, kindOverloaded:
			return ae.Kind.String(), ae.RetryAfter, true
		case kindServer:
			return fmt.Sprintf("failed (HTTP %d)", ae.Status), ae.RetryAfter, !local
		}
		return "", 0, false
	}
	if isTimeout(err) {
		return "did not answer in time", 0, true
	}
	return "", 0, false
}

// isLocal reports a server on this machine or the local network, whose
// 500s are its own deterministic answer rather than a passing failure.
func isLocal(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate())
}

// containsFold reports whether data holds word in any case, as
// encoding/json matches keys; it allocates nothing.
func containsFold(data []byte, word string) bool {
	for i := 0; i+len(word) <= len(data); i++ {
		if c := data[i] | 0x20; c == word[0] && bytes.EqualFold(data[i:i+len(word)], []byte(word)) {
			return true
		}
	}
	return false
}

// isTimeout reports a transport timeout: no response headers, a dial or
// TLS timeout, or a stream silent longer than TIMEOUT.
func isTimeout(err error) bool {
	var ne net.Error
	return err != nil && (errors.Is(err, errIdle) || errors.As(err, &ne) && ne.Timeout())
}

// errIdle is the cause when the stream goes silent longer than TIMEOUT.
var errIdle = errors.New("the provider stopped sending for longer than TIMEOUT; raise TIMEOUT or try again")

// smallRequest is a request no model's window refuses: the system prompt
// and a question of a few words. A server that refuses one as too long
// runs the model at a smaller context than it says.
const smallRequest = 2048

// smallerThanReported is the advice for a request refused as too long by
// a server whose real window is smaller than the one it reported
// (llama.cpp's n_ctx, Ollama's num_ctx), or that refuses a small request
// it counts as small too: "" when neither is the case. last is the second
// refusal, sent the estimate of the request, reported the window the
// server had reported (0: none), stuck whether nothing could be trimmed.
func smallerThanReported(last *apiError, sent, reported int, stuck bool) string {
	limit := ""
	if last.Limit > 0 {
		limit = fmt.Sprintf(" (it says %d tokens", last.Limit)
		if reported > last.Limit {
			limit += fmt.Sprintf(", though it reported %d", reported)
		}
		limit += ")"
	}
	small := sent > 0 && sent < smallRequest && (last.Actual == 0 || last.Actual < smallRequest) // the server, too, counts few
	switch {
	case reported > 0 && last.Limit > 0 && last.Limit < reported, stuck && small:
		return fmt.Sprintf("the server refused a request of ~%d tokens as too long: it runs the model with a smaller window than it reports%s; "+
			"start it with a larger context (llama.cpp: --ctx-size, n_ctx; Ollama: NUM_CTX or OLLAMA_CONTEXT_LENGTH), or set CONTEXT_WINDOW to the window it really has", sent, limit)
	}
	return ""
}
