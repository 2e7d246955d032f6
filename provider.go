package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// openaiUsage is the usage object of the chat completions wire, with the
// cache fields each provider puts there: OpenAI, Gemini, xAI and OpenRouter
// in prompt_tokens_details (OpenRouter also cache_write_tokens), DeepSeek
// as prompt_cache_hit_tokens next to prompt_cache_miss_tokens.
type openaiUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens     int `json:"cached_tokens"`
		CacheWriteTokens int `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens  int `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens int `json:"prompt_cache_miss_tokens"`
}

// norm is the usage in yaicli's shape. DeepSeek's hit and miss add up to
// its prompt_tokens; when a server gives them without it, they are the
// prompt.
func (u *openaiUsage) norm() usage {
	n := usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, CachedTokens: u.PromptCacheHitTokens}
	if d := u.PromptTokensDetails; d != nil {
		n.CachedTokens = max(n.CachedTokens, d.CachedTokens)
		n.CacheWriteTokens = d.CacheWriteTokens
	}
	if n.PromptTokens <= 0 && u.PromptCacheHitTokens+u.PromptCacheMissTokens > 0 {
		n.PromptTokens = u.PromptCacheHitTokens + u.PromptCacheMissTokens
	}
	return n
}

// reply is the outcome of one request: the assistant message, why the model
// stopped, and the reported usage.
type reply struct {
	Message      message
	FinishReason string
	Usage        usage
}

// streamSink receives an answer as it arrives.
type streamSink struct {
	text      func(string)
	reasoning func(string)
}

// clientOptions is what the provider client needs of the configuration,
// made once by config.client: where the provider listens (BASE_URL, else
// its preset's, resolved there), how to ask it (the key, EXTRA_HEADERS, the
// deadline, the proxy of the environment), and what every request body
// carries (the model, the sampling settings, EXTRA_BODY, EXCLUDE_PARAMS).
type clientOptions struct {
	provider, baseURL, apiKey, model string
	temperature, topP                float64
	stream                           bool
	timeout                          time.Duration // to connect, to the answer's headers, and between its bytes
	extraHeaders                     map[string]string
	extraBody                        map[string]any
	excludeParams                    []string
	reasoningEffort                  string
	sampling                         // the optional settings, sent only when set (sampling.go)
	// proxyEnv is the run's environment, read for its proxy variables
	// (envProxy: HTTP_PROXY, HTTPS_PROXY, NO_PROXY).
	proxyEnv []string
	// now is the run's clock, for a Retry-After given as a date; a zero
	// time without one (a test's options), as config.now reads.
	now func() time.Time
}

// client speaks OpenAI's chat completions wire format over HTTP.
type client struct {
	o       clientOptions
	wire    wireFormat
	http    *http.Client
	stderr  io.Writer
	sleep   func(context.Context, time.Duration) error
	retries int
	retried func(cause string, wait time.Duration, try, of int) // nil: the stderr line says it
	// key is this session's prompt_cache_key, made from its first request
	// (cacheKey) and kept, so dropping old turns does not change it.
	keyOnce sync.Once
	key     string
}

// wireFormat is how one family of providers shapes requests and answers:
// OpenAI's chat completions or Anthropic's messages.
type wireFormat interface {
	path() string
	auth(h http.Header, key string)
	body(o clientOptions, req chatRequest) ([]byte, error)
	stream(r io.Reader, sink streamSink) (reply, error)
	whole(b []byte, sink streamSink) (reply, error)
}

// wireFor picks the wire format of a provider.
func wireFor(o clientOptions) wireFormat {
	if o.provider == "anthropic" {
		return anthropicWire{provider: o.provider, sent: &sentBlocks{}}
	}
	if usesOllamaNative(o) {
		return ollamaWire{provider: o.provider}
	}
	return openaiWire{provider: o.provider}
}

// newClient makes a client with o; retry notices go to stderr.
func newClient(o clientOptions, stderr io.Writer) *client {
	d := &net.Dialer{Timeout: o.timeout}
	tr := &http.Transport{
		Proxy:                 envProxy(o.proxyEnv),
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   o.timeout,
		ResponseHeaderTimeout: o.timeout,
	}
	return &client{o: o, wire: wireFor(o), http: &http.Client{Transport: tr}, stderr: stderr, sleep: sleepCtx, retries: 3}
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// chatRequest is what the agent asks for: the messages, the tools, and the
// output reserve (MaxTokens may be lowered by self-healing).
type chatRequest struct {
	Messages  []message
	Tools     []toolSpec
	MaxTokens int
	cacheKey  string // the session's prompt_cache_key, set by the client
}

// send posts one request, retrying what waiting can fix (rate limits,
// overloads, timeouts, a hosted provider's 500/502/504) up to c.retries
// tries in all with backoff, and streams the answer into sink.
func (c *client) send(ctx context.Context, req chatRequest, sink streamSink) (reply, error) {
	c.keyOnce.Do(func() { c.key = cacheKey(c.o.model, req.Messages) })
	req.cacheKey = c.key
	body, err := c.wire.body(c.o, req)
	if err != nil {
		return reply{}, err
	}
	emitted := false // once the answer has started, a retry would repeat it
	seen := sink
	seen.text = func(s string) {
		emitted = true
		if sink.text != nil {
			sink.text(s)
		}
	}
	for try := 1; ; try++ {
		r, err := c.once(ctx, body, seen)
		why, wait, again := retryable(err, isLocal(c.o.baseURL))
		if !again || emitted || ctx.Err() != nil || try >= c.retries {
			return r, c.o.named(err)
		}
		if wait == 0 {
			wait = time.Duration(1<<(try-1)) * time.Second
		}
		wait = min(wait, 60*time.Second)
		if c.retried != nil {
			c.retried(why, wait, try, c.retries-1)
		} else {
			fmt.Fprintf(c.stderr, "yaicli: %s %s; retry %d of %d in %s\n", c.o.provider, why, try, c.retries-1, wait.Round(time.Millisecond))
		}
		if err := c.sleep(ctx, wait); err != nil {
			return reply{}, err
		}
	}
}

// cacheKey is a session's prompt_cache_key, made from its first request:
// a hash of the model, the system prompt and the first question, so
// another session (another first question) has another, and no clock or
// randomness is needed (request bodies stay reproducible).
func cacheKey(model string, h []message) string {
	s := sha256.New()
	io.WriteString(s, model)
	for _, m := range h {
		io.WriteString(s, "\x00"+m.Role+"\x00"+m.Content)
		if m.Role == "user" {
			break
		}
	}
	return "yaicli-" + hex.EncodeToString(s.Sum(nil))[:16]
}

// finishBody merges EXTRA_BODY into a request body and removes the fields
// EXCLUDE_PARAMS names (reasoning models refuse temperature, for one).
func finishBody(o clientOptions, b map[string]any) map[string]any {
	for k, v := range o.extraBody {
		b[k] = v
	}
	for _, k := range o.excludeParams {
		delete(b, k)
	}
	return b
}

// once performs one HTTP exchange.
func (c *client) once(ctx context.Context, body []byte, sink streamSink) (reply, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, requestURL(c.o, c.wire), bytes.NewReader(body))
	if err != nil {
		return reply{}, fmt.Errorf("building request: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if c.o.stream {
		hreq.Header.Set("Accept", "text/event-stream")
	}
	c.wire.auth(hreq.Header, c.o.apiKey)
	for k, v := range c.o.extraHeaders {
		hreq.Header.Set(k, v)
	}
	resp, err := c.http.Do(hreq)
	if err != nil {
		return reply{}, c.netError(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e := classify(c.o.provider, resp.StatusCode, b)
		e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), c.o.now())
		return reply{}, e
	}
	body2 := idleTimeout(resp.Body, c.o.timeout, cancel)
	var r reply
	if isStreamType(resp.Header.Get("Content-Type")) {
		r, err = c.wire.stream(body2, sink)
	} else {
		var b []byte
		if b, err = readBody(body2, c.o.provider); err == nil && isWebPage(resp.Header.Get("Content-Type"), b) {
			return reply{}, &apiError{Provider: c.o.provider, Status: resp.StatusCode, Kind: kindNotAPI, Message: errorMessage(b)}
		} else if err == nil {
			r, err = c.wire.whole(b, sink)
		}
	}
	if err != nil {
		return r, c.netError(ctx, err)
	}
	return r, nil
}

// netError explains a transport failure: a timeout, a cancel, or the cause.
func (c *client) netError(ctx context.Context, err error) error {
	var ae *apiError
	var le *limitError
	var pe *peerError
	if errors.As(err, &ae) || errors.As(err, &le) || errors.As(err, &pe) {
		return err
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("talking to %s at %s: %w%s", c.o.provider, c.o.baseURL, err, c.unreachableHint(err))
}

// unreachableHint tells the user what to do when the server cannot be
// reached at all: start the local server, or check the address and the
// network (air-gapped machines need a local provider).
func (c *client) unreachableHint(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		if start := presets[c.o.provider].start; start != "" {
			return fmt.Sprintf("\n  nothing listens there: start the server (%s) or set BASE_URL to where it runs", start)
		}
		return "\n  nothing listens there: check BASE_URL (YAI_BASE_URL)"
	case errors.As(err, &dns):
		return "\n  the host name does not resolve: check BASE_URL and the network; without internet, use a local server (PROVIDER=ollama, llamacpp, lmstudio or vllm)"
	}
	return ""
}

// readBody reads a non-streamed answer, after the transport's
// decompression, up to maxBody.
func readBody(r io.Reader, provider string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err == nil && len(b) > maxBody {
		return nil, &limitError{side: "provider " + provider, what: "one non-streamed answer (after decompression)", limit: maxBody}
	}
	return b, err
}

// endpoint joins BASE_URL and an API path. The path goes before a query
// string, which stays (Azure's ?api-version=...), and a slash at the end
// of the base is not doubled.
func endpoint(base, path string) string {
	u, query, hasQuery := strings.Cut(base, "?")
	u = strings.TrimRight(u, "/") + path
	if hasQuery {
		u += "?" + query
	}
	return u
}

// idleReader cancels the request when no bytes arrive within d.
type idleReader struct {
	r io.Reader
	t *time.Timer
	d time.Duration
}

// idleTimeout wraps r so that d without a byte cancels the request with errIdle.
func idleTimeout(r io.Reader, d time.Duration, cancel context.CancelCauseFunc) io.Reader {
	if d <= 0 {
		return r
	}
	return &idleReader{r: r, d: d, t: time.AfterFunc(d, func() { cancel(errIdle) })}
}

// Read reads and restarts the idle timer.
func (i *idleReader) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	i.t.Reset(i.d)
	if err != nil {
		i.t.Stop()
	}
	return n, err
}

// chunk is one streamed (or whole) chat completion object.
type chunk struct {
	Choices []struct {
		Delta        delta  `json:"delta"`
		Message      delta  `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *openaiUsage `json:"usage"`
}

// delta is the part of a choice that carries text, reasoning and tool calls.
type delta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is one fragment of a streamed tool call. The index is kept
// raw: any JSON value may arrive there, and only a small whole number is one.
type toolCallDelta struct {
	Index    json.RawMessage `json:"index"`
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// callBuild is a tool call being assembled; its arguments grow in a
// builder, so thousands of small fragments cost linear time.
type callBuild struct {
	id, name string
	args     strings.Builder
}

// assembler builds a reply from deltas. The first limit broken is kept in
// err and ends the stream.
type assembler struct {
	provider string
	sink     streamSink
	think    thinkSplitter
	text     strings.Builder
	why      strings.Builder
	calls    []*callBuild
	r        reply
	err      error
}

// add folds one chunk into the reply, streaming its text and reasoning; it
// returns the error that ends the stream: a limit broken, a bad index.
func (a *assembler) add(ch *chunk) error {
	if ch.Usage != nil {
		if u := ch.Usage.norm(); u.PromptTokens > 0 {
			a.r.Usage = u
		}
	}
	for _, c := range ch.Choices {
		d := c.Delta
		if d.Content == "" && d.ToolCalls == nil && d.ReasoningContent == "" && d.Reasoning == "" {
			d = c.Message
		}
		if c.FinishReason != "" {
			a.r.FinishReason = c.FinishReason
		}
		a.reason(d.ReasoningContent + d.Reasoning)
		if d.Content != "" {
			text, reasoning := a.think.split(d.Content)
			a.reason(reasoning)
			a.emit(text)
		}
		for i := range d.ToolCalls {
			a.call(&d.ToolCalls[i])
		}
		if a.err != nil {
			return a.err
		}
	}
	return nil
}

// call folds one tool-call fragment in. Without an index (Gemini), a
// fragment that names a tool starts a call and one that does not continues
// the last.
func (a *assembler) call(tc *toolCallDelta) {
	if a.err != nil {
		return
	}
	idx := len(a.calls)
	switch raw := strings.TrimSpace(string(tc.Index)); {
	case raw != "" && raw != "null":
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n >= maxToolCalls {
			a.err = brokenPeer("provider %s sent a tool call with index %.40s; an answer's tool calls are numbered 0 to %d, so the stream is broken; try again", a.provider, raw, maxToolCalls-1)
			return
		}
		idx = n
	case tc.ID == "" && tc.Function.Name == "" && len(a.calls) > 0:
		idx = len(a.calls) - 1
	}
	if idx >= maxToolCalls {
		a.err = brokenPeer("provider %s sent more than %d tool calls in one answer (yaicli's limit); try again", a.provider, maxToolCalls)
		return
	}
	for len(a.calls) <= idx {
		a.calls = append(a.calls, &callBuild{})
	}
	call := a.calls[idx]
	if tc.ID != "" {
		call.id = tc.ID
	}
	if tc.Function.Name != "" {
		call.name = tc.Function.Name
	}
	if call.args.Len()+len(tc.Function.Arguments) > maxToolArgs {
		a.err = &limitError{side: "provider " + a.provider, what: "one tool call's arguments", limit: maxToolArgs}
		return
	}
	call.args.WriteString(tc.Function.Arguments)
}

// room reports whether s still fits the answer's limit, recording the
// error when it does not.
func (a *assembler) room(s string) bool {
	if a.err == nil && a.text.Len()+a.why.Len()+len(s) > maxAnswerText {
		a.err = &limitError{side: "provider " + a.provider, what: "one answer's text", limit: maxAnswerText}
	}
	return a.err == nil
}

// reason keeps reasoning text and shows it.
func (a *assembler) reason(s string) {
	if s == "" || !a.room(s) {
		return
	}
	a.why.WriteString(s)
	if a.sink.reasoning != nil {
		a.sink.reasoning(s)
	}
}

// emit keeps answer text and streams it.
func (a *assembler) emit(s string) {
	if s == "" || !a.room(s) {
		return
	}
	a.text.WriteString(s)
	if a.sink.text != nil {
		a.sink.text(s)
	}
}

// finish returns the assembled reply; calls without a name are dropped, and
// ids that are missing or repeat are made unique, so every call gets
// exactly one result.
func (a *assembler) finish() reply {
	text, reasoning := a.think.flush()
	a.reason(reasoning)
	a.emit(text)
	a.r.Message = message{Role: "assistant", Content: a.text.String(), reasoning: a.why.String()}
	for _, c := range a.calls {
		if c.name == "" {
			continue // an index gap; nothing the model can get a result for
		}
		a.r.Message.ToolCalls = append(a.r.Message.ToolCalls, toolCall{ID: c.id, Type: "function", Function: functionCall{Name: c.name, Arguments: c.args.String()}})
	}
	uniqueCallIDs(a.r.Message.ToolCalls)
	return a.r
}

// uniqueCallIDs gives every call an id of its own, in place, as validate
// would: a missing id becomes call_N, a repeated one gets a _N suffix. A
// result is matched to its call by id, so two calls sharing one would leave
// one of them without its result.
func uniqueCallIDs(calls []toolCall) {
	fresh, _ := freshIDs(calls, map[string]bool{})
	copy(calls, fresh)
}

// cutOff explains why a stream stopped being read: a limit the provider
// broke, or the connection cut mid-answer.
func cutOff(err error, provider string) error {
	var le *limitError
	if errors.As(err, &le) {
		return blame(err, "provider "+provider)
	}
	return fmt.Errorf("stream cut off mid-answer: %w", err)
}

// thinkSplitter separates <think>...</think> spans from answer text across
// delta boundaries, holding back a partial tag until it can tell.
type thinkSplitter struct {
	inside  bool
	pending string
}

// split returns the answer text and the reasoning in s, holding back a partial tag.
func (t *thinkSplitter) split(s string) (text, reasoning string) {
	s = t.pending + s
	t.pending = ""
	var out, why strings.Builder
	for s != "" {
		tag := "<think>"
		if t.inside {
			tag = "</think>"
		}
		if i := strings.Index(s, tag); i >= 0 {
			t.write(&out, &why, s[:i])
			t.inside = !t.inside
			s = s[i+len(tag):]
			continue
		}
		keep := partialSuffix(s, tag)
		t.write(&out, &why, s[:len(s)-keep])
		t.pending = s[len(s)-keep:]
		break
	}
	return out.String(), why.String()
}

// write adds s to the answer or the reasoning, by where the splitter is.
func (t *thinkSplitter) write(out, why *strings.Builder, s string) {
	if t.inside {
		why.WriteString(s)
	} else {
		out.WriteString(s)
	}
}

// flush returns what was held back at the end of the stream.
func (t *thinkSplitter) flush() (text, reasoning string) {
	p := t.pending
	t.pending = ""
	if t.inside {
		return "", p
	}
	return p, ""
}

// partialSuffix is the length of the longest suffix of s that is a proper
// prefix of tag.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}

// freshIDs returns calls with every id unused so far (marking them used),
// copying the slice only when an id changes. renamed maps each id as the
// results know it to the ids its calls now have, in order.
func freshIDs(calls []toolCall, used map[string]bool) ([]toolCall, map[string][]string) {
	renamed := map[string][]string{}
	changed := false
	out := calls
	for i, tc := range calls {
		id := tc.ID
		if id == "" || used[id] {
			if !changed {
				out, changed = append([]toolCall(nil), calls...), true
			}
			base := id
			if base == "" {
				base = "call"
			}
			for n := i; used[id] || id == ""; n++ {
				id = fmt.Sprintf("%s_%d", base, n)
			}
			out[i].ID = id
		}
		used[id] = true
		renamed[tc.ID] = append(renamed[tc.ID], id)
	}
	return out, renamed
}

// isWebPage reports an answer that is a web page, not an API's: HTML by
// its type or its first byte. A web server (nginx's welcome page, a
// dashboard) answers a POST like that when BASE_URL points at it.
func isWebPage(contentType string, b []byte) bool {
	t := strings.ToLower(contentType)
	return strings.HasPrefix(t, "text/html") || bytes.HasPrefix(bytes.TrimSpace(b), []byte("<"))
}

// custom reports a BASE_URL other than the provider's own: requests go
// to another server, which PROVIDER then only names the wire format of.
func (o clientOptions) custom() bool {
	p, ok := presets[o.provider]
	return !ok || p.baseURL == "" || o.baseURL != p.baseURL
}

// named labels a provider's rejection with the server it came from when
// BASE_URL is custom ("the server at 127.0.0.1:8080", "ollama at
// gpu-box:11434"): the default PROVIDER=openai names no server the user
// chose.
func (o clientOptions) named(err error) error {
	var ae *apiError
	if !errors.As(err, &ae) || !o.custom() {
		return err
	}
	host := o.baseURL
	if u, perr := url.Parse(o.baseURL); perr == nil && u.Host != "" {
		host = u.Host
	}
	if o.provider == "openai" {
		ae.Server = "the server at " + host
	} else {
		ae.Server = o.provider + " at " + host
	}
	return err
}
