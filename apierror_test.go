package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// errorBody is one file of testdata/errors: NAME.STATUS.EXT, where NAME
// starts with its class (ctx_ or not_<class>_), STATUS is the HTTP status
// it is sent with (200: inside a 200 answer), EXT is json, html or sse (a
// whole event stream).
type errorBody struct {
	path, name, ext string
	status          int
	body            []byte
}

// errorBodies reads testdata/errors and, when YAI_ERROR_BODIES names more
// directories (comma-separated), those too: bodies kept out of fitting, or
// a reviewer's own.
func errorBodies(t testing.TB) []errorBody {
	t.Helper()
	dirs := []string{"testdata/errors"}
	if extra := os.Getenv("YAI_ERROR_BODIES"); extra != "" {
		dirs = append(dirs, strings.Split(extra, ",")...)
	}
	var out []errorBody
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.*"))
		for _, f := range files {
			parts := strings.Split(filepath.Base(f), ".")
			status, err := strconv.Atoi(parts[min(1, len(parts)-1)])
			if len(parts) != 3 || err != nil {
				continue // SOURCES.md and the like
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, errorBody{path: f, name: parts[0], status: status, ext: parts[2], body: b})
		}
	}
	if len(out) < 40 {
		t.Fatalf("only %d error bodies found", len(out))
	}
	return out
}

// wantKind is the kind a body's name promises; ok is false for a not_ body
// of no named class (it must only not be a context-length rejection).
func wantKind(name string) (errKind, bool) {
	if strings.HasPrefix(name, "ctx_") {
		return kindContextLength, true
	}
	class, _, _ := strings.Cut(strings.TrimPrefix(name, "not_"), "_")
	k, ok := map[string]errKind{"auth": kindAuth, "rate": kindRateLimit, "quota": kindQuota, "outcap": kindOutputCap, "bytes": kindTooLarge,
		"string": kindOther, "image": kindOther, "other": kindOther, "overloaded": kindOverloaded, "server": kindServer,
		"model": kindNoModel, "api": kindNotAPI}[class]
	return k, ok
}

// streamError is the rejection an event stream carries, read as the client reads it.
func streamError(b errorBody) error {
	_, err := openaiWire{provider: "p"}.stream(strings.NewReader(string(b.body)), streamSink{})
	return err
}

// classifyBody classifies a body the way the client meets it.
func classifyBody(b errorBody) *apiError {
	var ae *apiError
	switch {
	case b.ext == "sse":
		errors.As(streamError(b), &ae)
	case b.status == 200:
		ae = bodyError("p", b.body)
	default:
		ae = classify("p", b.status, b.body)
	}
	return ae
}

// TestClassifyProviderBodies: every body in testdata/errors is classified as
// its name says, with its numbers where it states them, and has a source.
func TestClassifyProviderBodies(t *testing.T) {
	t.Parallel()
	numbers := map[string][2]int{ // limit, actual
		"ctx_openai": {4097, 4619}, "ctx_anthropic": {200000, 208310}, "ctx_gemini": {1048576, 1200293},
		"ctx_deepseek": {131072, 131134}, "ctx_vllm": {16384, 19591}, "ctx_llamacpp": {123904, 124315},
		"ctx_moonshot": {262144, 269030}, "ctx_mistral": {32768, 40500}, "ctx_openrouter": {128000, 150012},
		"ctx_xai": {131072, 145002}, "ctx_lmstudio": {4096, 9000}, "ctx_dashscope": {30720, 0}, "ctx_vllm_v1": {32768, 40000},
		"ctx_anthropic_max_tokens": {200000, 197742}, "ctx_vllm_max_tokens": {16384, 9591},
		"ctx_vllm_engine": {4096, 25938}, "ctx_together_v2": {32768, 40123}, "ctx_copilot": {64000, 138898},
		"ctx_llamacpp_shift": {8192, 14429}, "ctx_cohere": {2048, 6354}, "ctx_vllm_output_tokens": {131072, 28673},
		"ctx_together_tgi": {1024, 1244}, "ctx_vertex_nonumbers": {1048576, 0}, "ctx_minimax": {0, 0}, "ctx_ollama_cloud": {0, 0},
		"ctx_cerebras": {40000, 42328}, "ctx_vertex": {1048576, 1251952}, "ctx_lmstudio_nkeep": {7424, 15028},
		"ctx_llamacpp_python": {2048, 2138}, "ctx_vllm_scheduler": {2048, 2664},
		"ctx_siliconflow_seq": {32768, 163280}, "ctx_reduce_current": {32768, 40961}, "ctx_zhipu_code": {0, 0},
		"ctx_zhipu_upstream": {0, 0}, "ctx_chars_precheck": {0, 0}, "ctx_chars_input": {0, 0},
	}
	chars := map[string][2]int{"ctx_chars_precheck": {524288, 612004}, "ctx_chars_input": {1000000, 1203377}, "ctx_openai": {0, 0}}
	caps := map[string]int{"not_outcap_anthropic": 64000, "not_outcap_openai": 4096, "not_outcap_groq": 8000,
		"not_outcap_deepseek": 8192, "not_outcap_groq_window": 16384, "not_outcap_groq_completion": 40960,
		"not_outcap_doubao": 12288, "not_outcap_fireworks": 4096}
	maxTokensBlamed := map[string]bool{"ctx_anthropic_max_tokens": true, "ctx_vllm_max_tokens": true, "ctx_together": true,
		"ctx_deepseek": true, "ctx_vllm": true, "ctx_vllm_output_tokens": true, "ctx_together_max_new": true, "ctx_openrouter": true}
	sources, _ := os.ReadFile("testdata/errors/SOURCES.md")
	for _, b := range errorBodies(t) {
		t.Run(b.name+"."+strconv.Itoa(b.status), func(t *testing.T) {
			e := classifyBody(b)
			if e == nil {
				t.Fatalf("%s: not read as a provider error at all", b.path)
			}
			want, named := wantKind(b.name)
			if isCtx := e.Kind == kindContextLength; named && e.Kind != want || !named && isCtx {
				t.Fatalf("classify(%s) = %v, want %v (named %v)", b.path, e.Kind, want, named)
			}
			if e.Message == "" {
				t.Errorf("no message extracted from %s", b.body)
			}
			if n, ok := numbers[b.name]; ok && (e.Limit != n[0] || e.Actual != n[1]) {
				t.Errorf("classify(%s) numbers = %d, %d; want %d, %d", b.name, e.Limit, e.Actual, n[0], n[1])
			}
			if n, ok := chars[b.name]; ok && (e.CharLimit != n[0] || e.CharActual != n[1]) {
				t.Errorf("classify(%s) characters = %d, %d; want %d, %d", b.name, e.CharLimit, e.CharActual, n[0], n[1])
			}
			if c, ok := caps[b.name]; ok && e.Cap != c {
				t.Errorf("classify(%s) cap = %d, want %d", b.name, e.Cap, c)
			}
			if mt, ok := maxTokensBlamed[b.name]; ok && e.MaxTokens != mt {
				t.Errorf("classify(%s) blames max_tokens = %v, want %v", b.name, e.MaxTokens, mt)
			}
			if strings.HasPrefix(b.path, "testdata/errors/") && !strings.Contains(string(sources), filepath.Base(b.path)) {
				t.Errorf("%s has no source in testdata/errors/SOURCES.md", b.path)
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
		{500, `{"error":{"message":"internal"}}`, kindServer},
		{502, `<html>Bad Gateway</html>`, kindServer},
		{400, `not json at all`, kindOther},
		{404, `{"error":{"message":"The model gpt-9 does not exist or you do not have access to it."}}`, kindNoModel},
		{404, `{"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}}`, kindNoModel},
		{400, `{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`, kindNoModel},
		{404, `{"detail":"Not Found"}`, kindNotAPI},
		{404, `{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}`, kindNotAPI}, // llama-server
		{404, `{"error":{"message":"No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/guides/routing/provider-selection","code":404}}`, kindNoTools},
		{404, `{"error":{"message":"No endpoints found for mistralai/mistral-7b-instruct:free.","code":404}}`, kindOther},
		{400, `{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools"}}`, kindNoTools},
		{400, `{"error":{"message":"messages: at least one message is required"}}`, kindOther},
		{400, `{"error":{"message":"Input should be a valid list"}}`, kindOther},
		{400, `{"error":{"message":"tools: the number of tools exceeds the maximum of 128"}}`, kindOther},
		{429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota"}}`, kindQuota},
		{400, `{"error":{"message":"max_tokens must be at most 4096"}}`, kindOutputCap},
		{413, `{"error":{"message":"prompt has 300000 tokens, the limit is 200000"}}`, kindContextLength},
		{413, `{"error":{"message":"Payload Too Large"}}`, kindTooLarge},
		{500, `{"error":{"message":"upstream failed: the prompt is too long for this model"}}`, kindContextLength},
		{400, `{"error":{"message":"max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens"}}`, kindOutputCap},
		{422, `{"object":"error","message":{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required"}]}}`, kindOther},
		{429, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit; please reduce the prompt length or the maximum tokens requested, or try again later."}}`, kindRateLimit},
		{400, `{"error":{"message":"Unable to submit request because it has a maxOutputTokens value of 100000 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again."}}`, kindOutputCap},
		{400, `{"error":{"message":"Invalid 'messages': array too long. Expected an array with maximum length 2048, but got an array with length 3000 instead."}}`, kindOther},
		{400, `{"object":"error","message":"Input length (40000) exceeds model's maximum context length (32768).","code":400}`, kindContextLength},
		{400, `{"message":"too many tokens: size limit exceeded by 11326 tokens. Try using shorter or fewer inputs."}`, kindContextLength},
		{400, `{"error":"model requires more tokens than context allows (n_ctx=4096)"}`, kindContextLength},
		{500, `{"error":{"message":"CUDA out of memory. Tried to allocate 20.00 MiB"}}`, kindServer},
	} {
		e := classify("p", tc.status, []byte(tc.body))
		if got := e.Kind; got != tc.want {
			t.Errorf("classify(%d, %s) = %v, want %v", tc.status, tc.body, got, tc.want)
		}
		if strings.Contains(tc.body, "(exclusive)") && e.Cap != 65536 {
			t.Errorf("cap of an exclusive range = %d, want 65536", e.Cap)
		}
	}
}

// TestBodyErrorShapes: each shape servers use for an error inside a 200
// answer is read as an error with the provider's own message; ordinary
// chunks are not.
func TestBodyErrorShapes(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"error":{"message":"upstream overloaded","code":502},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`, "upstream overloaded"},
		{`{"error":{"message":"Provider disconnected unexpectedly","code":"server_error"}}`, "Provider disconnected unexpectedly"},
		{`{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","code":400}`, "maximum context length"},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "Overloaded"},
		{`{"error":"the input length exceeds the context length"}`, "the input length exceeds"},
		{`{"base_resp":{"status_code":2013,"status_msg":"invalid params, context window exceeds limit"}}`, "context window exceeds limit"},
		{`{"id":"c","choices":[{"delta":{"content":"hi"}}],"error":null}`, ""},
		{`{"base_resp":{"status_code":0,"status_msg":"success"},"choices":[]}`, ""},
	} {
		e := bodyError("p", []byte(tc.data))
		switch {
		case tc.want == "" && e != nil:
			t.Errorf("bodyError(%s) = %v, want none", tc.data, e)
		case tc.want != "" && (e == nil || !strings.Contains(e.Message, tc.want)):
			t.Errorf("bodyError(%s) = %v, want a message with %q", tc.data, e, tc.want)
		}
	}
}

// TestContextHintFitsMode: a one-shot run is never told to run /compact.
func TestContextHintFitsMode(t *testing.T) {
	cfg := &config{Provider: "openai", Timeout: 60 * time.Second}
	for _, body := range []string{`{"error":{"message":"prompt is too long: 208310 tokens > 200000 maximum"}}`,
		`{"error":{"message":"input length and max_tokens exceed context limit: 197742 + 8192 > 200000"}}`} {
		err := &healError{model: "m", last: classify("p", 400, []byte(body))}
		if h := errorHint(err, cfg.failures(nil).hints, false); h == "" || strings.Contains(h, "/compact") {
			t.Errorf("one-shot hint(%s) = %q", body, h)
		}
		if h := errorHint(err, cfg.failures(nil).hints, true); !strings.Contains(h, "/compact") {
			t.Errorf("REPL hint(%s) = %q, want /compact", body, h)
		}
	}
	timeout := fmt.Errorf("talking to p: %w", context.DeadlineExceeded)
	if h := errorHint(timeout, cfg.failures(nil).hints, false); !strings.Contains(h, "TIMEOUT") {
		t.Errorf("timeout hint = %q, want TIMEOUT named", h)
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

// BenchmarkClassify prices classifying one rejection body.
func BenchmarkClassify(b *testing.B) {
	body, _ := os.ReadFile("testdata/errors/ctx_vllm_output_tokens.400.json")
	for i := 0; i < b.N; i++ {
		classify("p", 400, body)
	}
}

// TestContextShapesByMeaning: the four shapes issue 31 found unrecognised,
// each in words no fixture uses (characters stated instead of tokens; a
// limit that "must be less than" a sequence length; "reduce the length …
// current length is N while limit is M"; a short vendor message with a
// numeric code), heal with their figures; and the look-alikes beside them
// (auth, quota, rate, image, byte cap, one value too long, an invalid
// parameter) are never a context-length rejection.
func TestContextShapesByMeaning(t *testing.T) {
	for _, tc := range []struct {
		status        int
		body          string
		want          errKind
		limit, actual int // in tokens
		chars         [2]int
	}{
		{400, `{"error":{"message":"Your prompt has 250000 characters, which is more than the 200000 characters allowed."}}`, kindContextLength, 0, 0, [2]int{200000, 250000}},
		{400, `{"error":"messages too long: 98,765 chars exceeds 65,536 chars"}`, kindContextLength, 0, 0, [2]int{65536, 98765}},
		{400, `{"message":"The conversation exceeds the maximum of 120000 characters (got 130500 characters)."}`, kindContextLength, 0, 0, [2]int{120000, 130500}},
		{400, `{"error":{"message":"prompt length 9000 must be less than max_seq_len 8192"}}`, kindContextLength, 8192, 9000, [2]int{}},
		{400, `{"detail":"Input sequence length (5000) must be less than or equal to max_sequence_length (4096)"}`, kindContextLength, 4096, 5000, [2]int{}},
		{400, `{"error":"The number of prompt_tokens (70001) must be less than max_model_len (65536)"}`, kindContextLength, 65536, 70001, [2]int{}},
		{400, `{"error":{"message":"Please shorten your messages. Current length is 9000, limit is 8192."}}`, kindContextLength, 8192, 9000, [2]int{}},
		{400, `{"msg":"Reduce the size of the conversation: current length 140000 exceeds the limit 131072"}`, kindContextLength, 131072, 140000, [2]int{}},
		{400, `{"code":"1261","msg":"Prompt exceeds max length"}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"error":{"code":40301,"message":"Input exceeds max length"}}`, kindContextLength, 0, 0, [2]int{}},
		{0, `{"status":400,"code":"20231","message":"Context exceeds the maximum length"}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"error":{"message":"[1261] Prompt exceeds max length","code":"1261"}}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"error_code":336007,"error_msg":"the max length of current question is 4800"}`, kindContextLength, 4800, 0, [2]int{}},
		{400, `{"error":{"code":"1261","message":"Prompt 超长"}}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"error":{"message":"输入长度超过模型上下文限制 (32768 tokens)","code":"InvalidParameter"}}`, kindContextLength, 32768, 0, [2]int{}},
		{400, `{"error":{"message":"model max length exceeded, max length:8192","type":"invalid_request_error"}}`, kindContextLength, 8192, 0, [2]int{}},
		{400, `{"error":{"message":"The prompt is too long: 140000, model maximum context length: 131072"}}`, kindContextLength, 131072, 140000, [2]int{}},
		{422, `{"error":"Input validation error: inputs must have less than 1024 tokens. Given: 2000","error_type":"validation"}`, kindContextLength, 1024, 2000, [2]int{}},
		{400, `{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again."}}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"error":{"message":"Requested tokens exceed context window of 8192"}}`, kindContextLength, 8192, 0, [2]int{}},
		{400, `{"error":{"message":"litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError","code":"400"}}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"errors":[{"message":"AiError: AiError: Context window limit exceeded","code":3036}],"success":false}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"header":{"code":10907,"message":"token数量超过上限","sid":"cht000b"}}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"error":{"message":"输入长度超过限制","code":"InvalidParameter"}}`, kindContextLength, 0, 0, [2]int{}},
		{400, `{"error_code":"BAD_REQUEST","message":"Input length 10000 exceeds max input length 8192"}`, kindContextLength, 8192, 10000, [2]int{}},

		{401, `{"error":{"message":"Invalid Authentication","code":"1000"}}`, kindAuth, 0, 0, [2]int{}},
		{402, `{"error":{"message":"Prompt exceeds the max length your credits allow","code":"402"}}`, kindQuota, 0, 0, [2]int{}},
		{429, `{"error":{"message":"Rate limit reached. Please reduce the length of your messages or try again in 20s","code":"1302"}}`, kindRateLimit, 0, 0, [2]int{}},
		{400, `{"error":{"message":"Image too large: the max length of an image is 20MB"}}`, kindOther, 0, 0, [2]int{}},
		{413, `{"error":"Request Entity Too Large: body exceeds max length 10485760 bytes"}`, kindTooLarge, 0, 0, [2]int{}},
		{400, `{"error":{"message":"messages[0].content: max length exceeded (1048576 characters)"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"user must be less than 64 characters"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"'metadata.tag' exceeds max length of 512 characters"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"Invalid 'messages[2].name': string too long. Expected a string with maximum length 64."}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"top_k must be less than or equal to 100"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"Invalid parameter: n must be less than 128","code":"1210"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"messages: array too long, max length 2048"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"stop: max length exceeded, maximum 4 sequences"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"'messages' must contain at most 2048 items"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"InvalidParameter: image size exceeds the limit of 10MB"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"BadRequestError: temperature must be less than or equal to 1.0"}}`, kindOther, 0, 0, [2]int{}},
		{401, `{"error":{"message":"AuthenticationError: Incorrect API key provided"}}`, kindAuth, 0, 0, [2]int{}},
		{400, `{"error":{"message":"Message content must be less than 256,000 characters"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"The 'stop' field exceeds the max length of 4"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"message":"metadata value exceeds max length of 512 characters"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content.1.image.source.base64.data: image exceeds 5 MB maximum: 6291456 bytes > 5242880 bytes"}}`, kindOther, 0, 0, [2]int{}},
		{400, `{"error":{"code":400,"message":"Request payload size exceeds the limit: 20971520 bytes.","status":"INVALID_ARGUMENT"}}`, kindTooLarge, 0, 0, [2]int{}},
		{429, `{"error":{"message":"You have exceeded the maximum number of characters per month for your plan","code":"quota"}}`, kindQuota, 0, 0, [2]int{}},
		{400, `{"error":{"message":"max_tokens is too large: 200000. This model supports at most 16384 completion tokens, whereas you provided 200000.","param":"max_tokens","code":"invalid_value"}}`, kindOutputCap, 0, 0, [2]int{}},
	} {
		e := classify("p", tc.status, []byte(tc.body))
		if e.Kind != tc.want {
			t.Errorf("classify(%d, %s) = %v, want %v", tc.status, tc.body, e.Kind, tc.want)
			continue
		}
		if e.Limit != tc.limit || e.Actual != tc.actual || e.CharLimit != tc.chars[0] || e.CharActual != tc.chars[1] {
			t.Errorf("classify(%s) figures = %d/%d tokens, %d/%d chars; want %d/%d, %v", tc.body, e.Limit, e.Actual, e.CharLimit, e.CharActual, tc.limit, tc.actual, tc.chars)
		}
	}
}

// TestHealTarget: the heal aims under a stated token window less the
// output reserve, or scales the measured size by the characters allowed;
// a rejection that states nothing gives no target.
func TestHealTarget(t *testing.T) {
	for _, tc := range []struct {
		e                   apiError
		measured, maxTokens int
		want                int
	}{
		{apiError{Limit: 8192}, 9000, 1024, 6451},
		{apiError{CharLimit: 500000, CharActual: 1000000}, 300000, 0, 135000},
		{apiError{CharLimit: 500000}, 300000, 0, 0},
		{apiError{}, 300000, 0, 0},
	} {
		if got := tc.e.healTarget(tc.measured, tc.maxTokens); got != tc.want {
			t.Errorf("healTarget(%+v, %d, %d) = %d, want %d", tc.e, tc.measured, tc.maxTokens, got, tc.want)
		}
	}
}

// answerWith sends a collected body the way its file name says: an error
// status, a 200 JSON answer, or a whole event stream.
func answerWith(b errorBody) step {
	if b.ext == "sse" {
		return func(w http.ResponseWriter, _ received) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(b.body)
		}
	}
	status := b.status
	if b.ext == "html" {
		return func(w http.ResponseWriter, _ received) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			w.Write(b.body)
		}
	}
	return fail(status, string(b.body))
}

// TestErrorBodiesEndToEnd drives every body of testdata/errors through the
// real binary and a scripted provider, and checks the handling its name
// promises: context length heals once; an output cap lowers max_tokens and
// retries the same messages; a byte cap shrinks the tool output once and
// learns no window; rate limits and overloads retry the same request; a
// quota, and everything else, fails at once with the provider's message.
// No look-alike is ever answered by trimming the conversation.
func TestErrorBodiesEndToEnd(t *testing.T) {
	for _, b := range errorBodies(t) {
		t.Run(b.name+"."+b.ext, func(t *testing.T) {
			t.Parallel()
			kind, named := wantKind(b.name)
			switch {
			case kind == kindContextLength:
				checkHeals(t, b)
			case kind == kindOutputCap:
				checkLowersMaxTokens(t, b)
			case kind == kindTooLarge:
				checkShrinksOnce(t, b)
			case (kind == kindRateLimit || kind == kindOverloaded) && b.ext != "sse":
				checkRetriesSame(t, b)
			case !named:
				checkNeverShrunk(t, b)
			default:
				checkFailsAsIs(t, b, kind == kindQuota)
			}
		})
	}
}

// checkHeals: the second turn is rejected; the retry carries fewer
// messages, no orphan, and the answer; a partial answer is declared discarded.
func checkHeals(t *testing.T, b errorBody) {
	fp := newFakeProvider(t, sse(textStream("one")), answerWith(b), sse(textStream("healed")))
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "first " + bigPrompt(2000) + "\nsecond\n"})
	if r.code != 0 || !strings.HasPrefix(r.stdout, "one\n") || !strings.HasSuffix(r.stdout, "healed\n") {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "retrying once"); n != 1 || len(fp.chats()) != 3 {
		t.Fatalf("%d retry notices, %d requests; stderr:\n%s", n, len(fp.chats()), r.stderr)
	}
	if strings.Contains(string(b.body), `"content":"`) && !strings.Contains(r.stderr, "its partial text is discarded, not written to the output") {
		t.Errorf("a partial answer was streamed but not declared discarded:\n%s", r.stderr)
	}
	reqs := fp.chats()
	rejected, retry := reqs[1].messages(), reqs[2].messages()
	if orphans(retry) != 0 || retry[0].Role != roleSystem || retry[len(retry)-1].Content != "second" {
		t.Errorf("retry is not a valid history: %+v", retry)
	}
	if len(retry) >= len(rejected) { // the older answer goes; the person's words stay within their share
		t.Errorf("retry has %d messages, rejected request %d", len(retry), len(rejected))
	}
}

// checkLowersMaxTokens: the retry asks for fewer output tokens (the stated
// cap when there is one) and sends the very same messages.
func checkLowersMaxTokens(t *testing.T, b errorBody) {
	fp := newFakeProvider(t, answerWith(b), sse(textStream("ok")), sse(textStream("extra")))
	r := runBinary(t, fp, e2e{args: []string{"--max-tokens", "100000", "q"}})
	reqs := fp.chats()
	if r.code != 0 || r.stdout != "ok\n" || len(reqs) != 2 {
		t.Fatalf("code %d stdout %q after %d requests: %s", r.code, r.stdout, len(reqs), r.stderr)
	}
	got, _ := reqs[1].Body["max_tokens"].(float64)
	if want := classifyBody(b).Cap; got >= 100000 || want > 0 && int(got) != want {
		t.Errorf("retry max_tokens = %v, want the stated cap %d", got, want)
	}
	if !sameHistory(reqs[0].messages(), reqs[1].messages()) {
		t.Errorf("an output cap trimmed the conversation")
	}
}

// checkShrinksOnce: a byte cap cuts the large tool result once, keeps
// every message, and records no token window.
func checkShrinksOnce(t *testing.T, b errorBody) {
	fp := newFakeProvider(t, sse(toolStream(fakeCall{"call_1", "execute_shell_command", `{"shell_command":"seq 1 20000"}`})),
		answerWith(b), sse(textStream("ok")), sse(textStream("extra")))
	r := runBinary(t, fp, e2e{args: []string{"--yes", "count"}})
	reqs := fp.chats()
	if r.code != 0 || r.stdout != "ok\n" || len(reqs) != 3 {
		t.Fatalf("code %d stdout %q after %d requests: %s", r.code, r.stdout, len(reqs), r.stderr)
	}
	rejected, retry := reqs[1].messages(), reqs[2].messages()
	last := len(retry) - 1
	if len(retry) != len(rejected) || retry[last].Role != roleTool || len(retry[last].Content) >= len(rejected[last].Content) {
		t.Errorf("retry: %d messages (rejected %d), tool result %d chars (was %d)", len(retry), len(rejected), len(retry[last].Content), len(rejected[last].Content))
	}
	if w, _ := os.ReadFile(filepath.Join(r.home, "cache", "yaicli", "windows.json")); strings.Contains(string(w), windowLearned) {
		t.Errorf("a byte cap taught a token window: %s", w)
	}
}

// checkRetriesSame: a rate limit or an overload is waited out and the same
// request sent again.
func checkRetriesSame(t *testing.T, b errorBody) {
	fp := newFakeProvider(t, answerWith(b), sse(textStream("ok")))
	r := runBinary(t, fp, e2e{args: []string{"q"}})
	reqs := fp.chats()
	if r.code != 0 || r.stdout != "ok\n" || len(reqs) != 2 {
		t.Fatalf("code %d stdout %q after %d requests: %s", r.code, r.stdout, len(reqs), r.stderr)
	}
	if string(reqs[0].Raw) != string(reqs[1].Raw) {
		t.Errorf("the retry is not the same request")
	}
}

// checkNeverShrunk: a look-alike of no named class may be retried or
// fail, but never heals: no later request carries fewer or shorter
// messages, and the run does not end as a context-length failure.
func checkNeverShrunk(t *testing.T, b errorBody) {
	fp := newFakeProvider(t, answerWith(b), answerWith(b), answerWith(b), sse(textStream("ok")))
	r := runBinary(t, fp, e2e{args: []string{"q"}})
	reqs := fp.chats()
	if r.code == 4 || strings.Contains(r.stderr, "rejected the request as too long") {
		t.Fatalf("a look-alike healed: code %d: %s", r.code, r.stderr)
	}
	for _, q := range reqs[1:] {
		if !sameHistory(q.messages(), reqs[0].messages()) {
			t.Errorf("a look-alike was answered by changing the conversation")
		}
	}
}

// checkFailsAsIs: one request, exit 1, the provider's own words on stderr;
// a quota's hint names the plan and billing.
func checkFailsAsIs(t *testing.T, b errorBody, quota bool) {
	fp := newFakeProvider(t, answerWith(b), sse(textStream("retried")), sse(textStream("retried")))
	r := runBinary(t, fp, e2e{args: []string{"q"}})
	if r.code != 1 || len(fp.chats()) != 1 || strings.Contains(r.stdout, "retried") {
		t.Fatalf("code %d after %d requests, stdout %q: %s", r.code, len(fp.chats()), r.stdout, r.stderr)
	}
	msg := classifyBody(b).Message
	if first, _, _ := strings.Cut(msg, "\n"); !strings.Contains(r.stderr, firstRunes(first, 40)) {
		t.Errorf("stderr lacks the provider's message %q:\n%s", first, r.stderr)
	}
	if quota && !strings.Contains(r.stderr, "plan and billing") {
		t.Errorf("quota hint missing:\n%s", r.stderr)
	}
}

// hang answers nothing until the client gives up.
func hang(w http.ResponseWriter, r received) { <-r.ctx.Done() }

// TestTimeoutRetriedThenNamed: a provider that does not answer within
// TIMEOUT is retried with backoff; when it never answers, the run ends with
// a hint naming TIMEOUT. The run whose retry is answered allows 10 s: its
// answer must beat TIMEOUT too, and at 1 s it did not on a loaded machine
// under -race; the run that is never answered keeps 1 s, as nothing races.
func TestTimeoutRetriedThenNamed(t *testing.T) {
	slowTest(t)
	t.Parallel()
	fp := newFakeProvider(t, hang, sse(textStream("ok")))
	r := runBinary(t, fp, e2e{args: []string{"q"}, env: []string{"YAI_TIMEOUT=10"}})
	if r.code != 0 || r.stdout != "ok\n" || !strings.Contains(r.stderr, "did not answer in time; retry 1 of 2") {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	fp = newFakeProvider(t, hang, hang, hang, hang)
	r = runBinary(t, fp, e2e{args: []string{"q"}, env: []string{"YAI_TIMEOUT=1"}})
	if r.code != 1 || len(fp.chats()) != 3 || !strings.Contains(r.stderr, "hint: the provider did not answer within TIMEOUT (1s)") {
		t.Fatalf("code %d after %d requests: %s", r.code, len(fp.chats()), r.stderr)
	}
}

// TestServerErrorsRetriedWhenHosted: 500, 502 and 504 from a hosted
// provider are retried like 503; a local server's 500 is its answer.
func TestServerErrorsRetriedWhenHosted(t *testing.T) {
	for _, status := range []int{500, 502, 504} {
		err := classify("p", status, []byte(`{"error":{"message":"internal error"}}`))
		if _, _, again := retryable(err, false); !again {
			t.Errorf("hosted %d not retried", status)
		}
		if _, _, again := retryable(err, true); again {
			t.Errorf("local %d retried", status)
		}
	}
	quota := classify("p", 429, []byte(`{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}`))
	if _, _, again := retryable(quota, false); again {
		t.Errorf("an exhausted quota is retried")
	}
}

// TestHostedServerErrorRetried: a hosted provider's 500 is retried with
// backoff (the fake provider stands behind a proxy for a public name); a
// local server's 500 is its answer and fails at once.
func TestHostedServerErrorRetried(t *testing.T) {
	t.Parallel()
	internal := `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error"}}`
	fp := newFakeProvider(t, fail(500, internal), sse(textStream("ok")))
	r := runBinary(t, fp, e2e{args: []string{"q"}, env: []string{"HTTP_PROXY=" + fp.srv.URL, "YAI_BASE_URL=http://api.example.test/v1"}})
	if r.code != 0 || r.stdout != "ok\n" || len(fp.chats()) != 2 || !strings.Contains(r.stderr, "failed (HTTP 500); retry 1 of 2") {
		t.Fatalf("hosted: code %d stdout %q after %d requests: %s", r.code, r.stdout, len(fp.chats()), r.stderr)
	}
	fp = newFakeProvider(t, fail(500, internal), sse(textStream("ok")))
	r = runBinary(t, fp, e2e{args: []string{"q"}})
	if r.code != 1 || len(fp.chats()) != 1 || !strings.Contains(r.stderr, "The server had an error") {
		t.Fatalf("local: code %d after %d requests: %s", r.code, len(fp.chats()), r.stderr)
	}
}
