package main

import (
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// checkHeals: the second turn is rejected; the retry carries fewer turn
// groups, no orphan, and the answer; a partial answer is declared discarded.
func checkHeals(t *testing.T, b errorBody) {
	fp := newFakeProvider(t, sse(textStream("one")), answerWith(b), sse(textStream("healed")))
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "first " + bigPrompt(2000) + "\nsecond\n"})
	if r.code != 0 || !strings.HasPrefix(r.stdout, "one\n") || !strings.HasSuffix(r.stdout, "healed\n") {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "retrying once"); n != 1 || len(fp.chats()) != 3 {
		t.Fatalf("%d retry notices, %d requests; stderr:\n%s", n, len(fp.chats()), r.stderr)
	}
	if strings.Contains(string(b.body), `"content":"`) && !strings.Contains(r.stderr, "partial answer above is discarded") {
		t.Errorf("a partial answer was streamed but not declared discarded:\n%s", r.stderr)
	}
	reqs := fp.chats()
	rejected, retry := reqs[1].messages(), reqs[2].messages()
	if orphans(retry) != 0 || retry[0].Role != "system" || retry[len(retry)-1].Content != "second" {
		t.Errorf("retry is not a valid history: %+v", retry)
	}
	if len(groupStarts(retry)) >= len(groupStarts(rejected)) {
		t.Errorf("retry has %d turn groups, rejected request %d", len(groupStarts(retry)), len(groupStarts(rejected)))
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
	if len(retry) != len(rejected) || retry[last].Role != "tool" || len(retry[last].Content) >= len(rejected[last].Content) {
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
	if r.code != 0 || r.stdout != "healed\nhealed\n" || !strings.Contains(r.stderr, "partial answer above is discarded") { // the partial "Part" is held from the pipe
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// hang answers nothing until the client gives up.
func hang(w http.ResponseWriter, r received) { <-r.ctx.Done() }

// TestTimeoutRetriedThenNamed: a provider that does not answer within
// TIMEOUT is retried with backoff; when it never answers, the run ends with
// a hint naming TIMEOUT.
func TestTimeoutRetriedThenNamed(t *testing.T) {
	slowTest(t)
	t.Parallel()
	fp := newFakeProvider(t, hang, sse(textStream("ok")))
	r := runBinary(t, fp, e2e{args: []string{"q"}, env: []string{"YAI_TIMEOUT=1"}})
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

// TestAnthropicErrorEventWithoutType: an event named error is an error even
// when its data lacks "type" (proxies in front of the Messages API).
func TestAnthropicErrorEventWithoutType(t *testing.T) {
	body := "event: error\ndata: {\"error\":{\"message\":\"prompt is too long: 208310 tokens > 200000 maximum\"}}\n\n"
	_, err := anthropicWire{provider: "anthropic"}.stream(strings.NewReader(body), streamSink{})
	if !errors.Is(err, errContextLength) {
		t.Fatalf("stream error = %v, want a context-length rejection", err)
	}
}
