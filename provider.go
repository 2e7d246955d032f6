package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"
)

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
	if o.provider == providerAnthropic {
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
		if m.Role == roleUser {
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
	who := c.o.provider
	if c.o.custom() {
		who = "the server"
	}
	return fmt.Errorf("talking to %s at %s: %w%s", who, c.o.baseURL, err, c.unreachableHint(err))
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

// cutOff explains why a stream stopped being read: a limit the provider
// broke, or the connection cut mid-answer.
func cutOff(err error, provider string) error {
	var le *limitError
	if errors.As(err, &le) {
		return blame(err, "provider "+provider)
	}
	return fmt.Errorf("stream cut off mid-answer: %w", err)
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
	ae.Server = serverLabel(o.provider, o.baseURL, true)
	return err
}

// label names where this client's requests go, for messages (serverLabel).
func (o clientOptions) label() string { return serverLabel(o.provider, o.baseURL, o.custom()) }

// serverLabel is how every message names where requests go: the provider
// ("openai") for its own BASE_URL; for another, the server by its host
// ("the server at 127.0.0.1:8080", "ollama at gpu-box:11434"), since
// PROVIDER then only names the wire format and "openai" would mislead.
func serverLabel(provider, baseURL string, custom bool) string {
	if !custom {
		return provider
	}
	host := baseURL
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		host = u.Host
	}
	if provider == providerOpenAI {
		return "the server at " + host
	}
	return provider + " at " + host
}
