package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// rpcMsg builds a request (id set) or a notification (id nil).
func rpcMsg(id json.RawMessage, method string, params any) rpcMessage {
	m := rpcMessage{JSONRPC: "2.0", ID: id, Method: method}
	if params != nil {
		m.Params, _ = json.Marshal(params)
	}
	return m
}

// listChanges remembers a notifications/tools/list_changed until asked.
type listChanges struct {
	mu      sync.Mutex
	changed bool
}

// toolsChanged reports, once, that the server announced a new tool list.
func (l *listChanges) toolsChanged() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.changed
	l.changed = false
	return c
}

// fromServer handles what the server sends on its own: its requests are
// answered with answer, notifications absorbed (tool-list changes noted).
// It reports whether m is a response, which the caller matches to a call.
func (l *listChanges) fromServer(m rpcMessage, answer func(rpcMessage)) (response bool) {
	switch {
	case m.Method != "" && len(m.ID) > 0:
		answer(answerServer(m))
	case m.Method == "notifications/tools/list_changed":
		l.mu.Lock()
		l.changed = true
		l.mu.Unlock()
	case m.Method != "": // other notifications: logging, progress, ...
	default:
		return true
	}
	return false
}

// rpcRouter matches responses to calls on transports where the server's
// messages arrive on a stream of their own (stdio, legacy SSE). The reader
// routes every message: responses to their callers, the server's requests
// answered at once, notifications absorbed, so a notification that arrives
// between a request and its response confuses nothing.
type rpcRouter struct {
	listChanges
	send    func(context.Context, rpcMessage) error // writes one message to the server within ctx
	mu      sync.Mutex                              // guards the fields below
	pending map[string]chan rpcMessage
	nextID  int
	dead    error
	done    chan struct{} // closed when the server's stream ends
}

// newRouter routes messages for a transport that writes with send.
func newRouter(send func(context.Context, rpcMessage) error) *rpcRouter {
	return &rpcRouter{send: send, pending: map[string]chan rpcMessage{}, done: make(chan struct{})}
}

// mcpAnswerTimeout bounds writing an answer to the server's own request
// (ping, roots/list), which no caller's deadline covers.
const mcpAnswerTimeout = 10 * time.Second

// route handles one message from the server.
func (r *rpcRouter) route(m rpcMessage) {
	answer := func(a rpcMessage) {
		ctx, cancel := context.WithTimeout(context.Background(), mcpAnswerTimeout)
		defer cancel()
		r.send(ctx, a)
	}
	if !r.fromServer(m, answer) {
		return
	}
	r.mu.Lock()
	ch := r.pending[string(m.ID)]
	delete(r.pending, string(m.ID))
	r.mu.Unlock()
	if ch != nil {
		ch <- m
	} else if m.big != nil {
		m.big.f.Close() // an answer nobody waits for any more
	}
}

// end records why the stream ended; calls waiting and later fail with it.
func (r *rpcRouter) end(why error) {
	r.mu.Lock()
	r.dead = why
	r.mu.Unlock()
	close(r.done)
}

// call sends a request and waits for its response, the end of the stream, or ctx.
func (r *rpcRouter) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	r.mu.Lock()
	if r.dead != nil {
		r.mu.Unlock()
		return nil, r.dead
	}
	r.nextID++
	id := json.RawMessage(strconv.Itoa(r.nextID))
	ch := make(chan rpcMessage, 1)
	r.pending[string(id)] = ch
	r.mu.Unlock()
	forget := func() {
		r.mu.Lock()
		delete(r.pending, string(id))
		r.mu.Unlock()
	}
	if err := r.send(ctx, rpcMsg(id, method, params)); err != nil {
		forget()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("writing to the server: %w", err)
	}
	select {
	case m := <-ch:
		if m.big != nil && method != "tools/call" { // only a tool result can be streamed on
			m.big.f.Close()
			return nil, &limitError{what: "one JSON-RPC message (an answer to " + method + ")", limit: maxRPCMessage}
		}
		return rpcResult(m)
	case <-r.done:
		forget()
		r.mu.Lock()
		defer r.mu.Unlock()
		return nil, r.dead
	case <-ctx.Done():
		forget()
		cctx, cancel := context.WithTimeout(context.Background(), mcpCancelTimeout)
		defer cancel()
		r.send(cctx, rpcMessage{JSONRPC: "2.0", Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":` + string(id) + `,"reason":"timeout or interrupt"}`)})
		return nil, ctx.Err()
	}
}

// mcpCancelTimeout bounds telling the server a call was given up: the
// caller is leaving (Ctrl+C, MCP_TIMEOUT) and must not wait on a server
// that stopped reading.
const mcpCancelTimeout = 500 * time.Millisecond

// notify sends a notification.
func (r *rpcRouter) notify(ctx context.Context, method string, params any) error {
	return r.send(ctx, rpcMsg(nil, method, params))
}

// stdioTransport speaks newline-delimited JSON-RPC with a child process.
// Writes to its stdin have the caller's deadline, like the wait for the
// reply: a server that stops reading cannot hang a call, MCP_TIMEOUT or
// Ctrl+C. A write cut part-way leaves half a message in the pipe, so the
// server is stopped then.
type stdioTransport struct {
	*rpcRouter
	name   string
	cmd    *exec.Cmd
	start  *shellStart   // how it was started: fenced through the wrapper, or directly (nil)
	stdin  *os.File      // our end of the server's stdin: a pipe with write deadlines
	wlock  chan struct{} // one writer at a time; waiting for it honours ctx
	stderr *tailBuffer
	killed sync.Once
}

// startStdio starts the server process, in a process group of its own, and its reader.
func startStdio(name string, cfg mcpServerConfig, warn io.Writer, verbose bool) (*stdioTransport, error) {
	st, err := serverStart(name, cfg, warn)
	if err != nil {
		return nil, err
	}
	if st.fenced() && (filepath.IsAbs(cfg.Command) || !strings.Contains(cfg.Command, "/")) {
		if _, err := exec.LookPath(cfg.Command); err != nil { // said now, as a direct start would, not as the wrapper's exit
			return nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
		}
	}
	cmd, err := st.serverCommand(cfg.Command, cfg.Args)
	if err != nil {
		return nil, err
	}
	env := append([]string{}, cfg.environ...) // the run's environment, never this process's implicitly
	for k, v := range cfg.Env {
		env = append(env, k+"="+v)
	}
	cmd.Env = st.environ(env)
	cmd.Dir = cfg.Cwd
	if !filepath.IsAbs(cmd.Dir) && cfg.workDir != "" {
		cmd.Dir = filepath.Join(cfg.workDir, cfg.Cwd)
	}
	t := &stdioTransport{name: name, cmd: cmd, start: st, stderr: &tailBuffer{max: 4096}, wlock: make(chan struct{}, 1)}
	t.rpcRouter = newRouter(t.write)
	if verbose {
		cmd.Stderr = io.MultiWriter(t.stderr, &prefixWriter{w: &termWriter{w: warn}, prefix: "[mcp " + sanitize(name) + "] "})
	} else {
		cmd.Stderr = t.stderr // kept out of the terminal; shown when the server fails
	}
	pr, pw, err := os.Pipe() // not StdinPipe: its writer has no deadlines
	if err != nil {
		return nil, err
	}
	cmd.Stdin = pr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		pr.Close()
		pw.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		st.done()
		return nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	pr.Close()
	t.stdin = pw
	go t.read(stdout)
	return t, nil
}

// read routes every message from the server until its stdout ends. A
// message past maxRPCSpill ends the session: the server is stopped.
func (t *stdioTransport) read(r io.Reader) {
	mr := newRPCReader(r, "")
	var why error
	for {
		m, err := mr.next()
		if err != nil {
			var le *limitError
			if errors.As(err, &le) {
				why = blame(err, "MCP server "+t.name)
				t.kill()
			}
			break
		}
		t.route(m)
	}
	io.Copy(io.Discard, r) // let the server finish writing, so Wait does not hang on a full pipe
	werr := t.cmd.Wait()
	t.start.done()
	if why == nil {
		why = fmt.Errorf("the server exited (%v)%s", werr, t.stderr.hint())
	}
	t.end(why)
}

// write sends one message as a line on the server's stdin, within ctx.
func (t *stdioTransport) write(ctx context.Context, m rpcMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	select {
	case t.wlock <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.done:
		return errors.New("the server has exited")
	}
	defer func() { <-t.wlock }()
	deadline, _ := ctx.Deadline() // zero: none
	t.stdin.SetWriteDeadline(deadline)
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		t.stdin.SetWriteDeadline(time.Unix(1, 0)) // wakes the write at once
		close(fired)
	})
	n, err := t.stdin.Write(append(b, '\n'))
	if !stop() {
		<-fired // the deadline is ours again before the next writer sets its own
	}
	if err == nil {
		return nil
	}
	cause := ctx.Err() // the caller's deadline or cancel, as callers test for it
	if cause == nil && !deadline.IsZero() && errors.Is(err, os.ErrDeadlineExceeded) {
		cause = context.DeadlineExceeded // the pipe's deadline fired before ctx's timer
	}
	if cause == nil {
		cause = err
	}
	if n > 0 {
		t.kill() // half a message is in the pipe: nothing after it would parse
		return fmt.Errorf("the server stopped reading its input (%s of a %s message written), so it was stopped: %w", sizeText(int64(n)), sizeText(int64(len(b)+1)), cause)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("the server is not reading its input: %w", cause)
	}
	return err
}

// kill stops the server's whole process group, once.
func (t *stdioTransport) kill() {
	t.killed.Do(func() { syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL) })
}

// close ends stdin, as the protocol's shutdown asks, then kills the
// server's process group if it has not exited within a second.
func (t *stdioTransport) close() {
	t.stdin.Close()
	select {
	case <-t.done:
	case <-time.After(time.Second):
		t.kill()
		<-t.done
	}
}

// sseTransport is the legacy HTTP+SSE transport (protocol 2024-11-05): a
// GET opens an event stream whose first "endpoint" event names the URL
// that messages are POSTed to; answers come back on the stream.
type sseTransport struct {
	*rpcRouter
	client   *http.Client
	headers  map[string]string
	endpoint string
	cancel   context.CancelFunc
}

// startSSE opens the event stream and waits for its endpoint event.
func startSSE(ctx context.Context, cfg mcpServerConfig) (*sseTransport, error) {
	streamCtx, cancel := context.WithCancel(context.Background()) // lives until close
	req, err := http.NewRequestWithContext(streamCtx, http.MethodGet, cfg.URL, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range cfg.Headers {
		req.Header.Set(k, v)
	}
	t := &sseTransport{client: mcpClient(cfg), headers: cfg.Headers, cancel: cancel}
	t.rpcRouter = newRouter(t.post)
	// Starting is bounded by ctx; the stream itself lives until close.
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	resp, err := t.client.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("HTTP %d from %s", resp.StatusCode, cfg.URL)
	}
	sr := newSSEReader(resp.Body)
	ev, err := sr.next()
	if err != nil || ev.name != "endpoint" {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("%s sent no endpoint event; is it an MCP SSE endpoint?", cfg.URL)
	}
	base, _ := url.Parse(cfg.URL)
	ep, err := base.Parse(strings.TrimSpace(ev.data))
	if err == nil && !sameOrigin(base, ep) {
		err = fmt.Errorf("it is not on the server's own origin %s://%s; yaicli posts only there (the posts carry the server's headers)", base.Scheme, base.Host)
	}
	if err != nil {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("bad endpoint %q: %w", firstRunes(ev.data, 200), err)
	}
	t.endpoint = ep.String()
	go func() {
		defer resp.Body.Close()
		for {
			ev, err := sr.next()
			if err != nil {
				t.end(fmt.Errorf("the server's event stream ended (%v)", err))
				return
			}
			var m rpcMessage
			if json.Unmarshal([]byte(ev.data), &m) == nil {
				t.route(m)
			}
		}
	}()
	return t, nil
}

// post sends one message to the endpoint within ctx (and 30 seconds at
// most); the answer comes on the stream.
func (t *sseTransport) post(ctx context.Context, m rpcMessage) error {
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("HTTP %d from %s", resp.StatusCode, t.endpoint)
	}
	return nil
}

// close drops the event stream, which ends the session.
func (t *sseTransport) close() {
	t.cancel()
	<-t.done
}

// tailBuffer keeps the last max bytes written: a server's stderr.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

// Write keeps p, dropping the oldest bytes beyond max.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = b.buf[len(b.buf)-b.max:]
	}
	return len(p), nil
}

// hint is the server's last stderr line, for error messages.
func (b *tailBuffer) hint() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(b.buf)), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return "; its last words: " + firstRunes(sanitize(last), 200)
	}
	return ""
}

// prefixWriter prefixes each line, for servers' stderr under --verbose.
type prefixWriter struct {
	w      io.Writer
	prefix string
	mid    bool
}

// Write copies b with the prefix at the start of every line.
func (p *prefixWriter) Write(b []byte) (int, error) {
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if !p.mid {
			io.WriteString(p.w, p.prefix)
		}
		p.w.Write(line)
		p.mid = !bytes.HasSuffix(line, []byte("\n"))
	}
	return len(b), nil
}

// httpTransport is MCP's streamable HTTP transport: each message is a POST
// answered with JSON or an SSE stream; the session id comes back in the
// Mcp-Session-Id header and goes with every later request.
type httpTransport struct {
	listChanges
	url     string
	headers map[string]string
	client  *http.Client
	mu      sync.Mutex
	session string
	version string
	nextID  int
}

// newHTTPTransport prepares a session with the server at cfg.URL.
func newHTTPTransport(cfg mcpServerConfig) *httpTransport {
	return &httpTransport{url: cfg.URL, headers: cfg.Headers, client: mcpClient(cfg)}
}

// setVersion records the negotiated protocol version for later requests.
func (h *httpTransport) setVersion(v string) {
	h.mu.Lock()
	h.version = v
	h.mu.Unlock()
}

// post sends one message and returns the response for the caller to read.
func (h *httpTransport) post(ctx context.Context, m rpcMessage) (*http.Response, error) {
	b, _ := json.Marshal(m)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	h.mu.Lock()
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	if h.version != "" {
		req.Header.Set("MCP-Protocol-Version", h.version)
	}
	h.mu.Unlock()
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, err
	}
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		h.mu.Lock()
		h.session = s
		h.mu.Unlock()
	}
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %d from %s: %s", resp.StatusCode, h.url, strings.TrimSpace(string(body)))
	}
	return resp, nil
}

// call POSTs a request and reads its response from JSON or from the SSE stream the server answers with.
func (h *httpTransport) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	h.mu.Lock()
	h.nextID++
	id := json.RawMessage(strconv.Itoa(h.nextID))
	h.mu.Unlock()
	resp, err := h.post(ctx, rpcMsg(id, method, params))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		m, err := newRPCReader(resp.Body, "").readWhole()
		if err != nil {
			return nil, fmt.Errorf("reading the answer to %s: %w", method, err)
		}
		if m.big != nil && method != "tools/call" {
			m.big.f.Close()
			return nil, &limitError{what: "one JSON-RPC message (an answer to " + method + ")", limit: maxRPCMessage}
		}
		return rpcResult(m)
	}
	sr := newSSEReader(resp.Body)
	for {
		ev, err := sr.next()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("the server's stream ended before it answered %s: %v", method, err)
		}
		var m rpcMessage
		if json.Unmarshal([]byte(ev.data), &m) != nil {
			continue
		}
		answer := func(a rpcMessage) {
			if r, err := h.post(ctx, a); err == nil {
				r.Body.Close()
			}
		}
		if h.fromServer(m, answer) && string(m.ID) == string(id) {
			return rpcResult(m)
		}
	}
}

// rpcResult is a response's result, or its error.
// A response too long for memory comes back as a *bigMessage error, for
// callTool to stream on.
func rpcResult(m rpcMessage) (json.RawMessage, error) {
	if m.Error != nil {
		return nil, m.Error
	}
	if m.big != nil {
		return nil, m.big
	}
	return m.Result, nil
}

// notify POSTs a notification (the server answers 202).
func (h *httpTransport) notify(ctx context.Context, method string, params any) error {
	resp, err := h.post(ctx, rpcMsg(nil, method, params))
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// close ends the session with DELETE, as the transport asks.
func (h *httpTransport) close() {
	h.mu.Lock()
	session := h.session
	h.mu.Unlock()
	if session == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, h.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", session)
	if resp, err := h.client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// mcpMaxRedirects bounds the redirects one request to an MCP server follows
// (net/http's own default).
const mcpMaxRedirects = 10

// mcpClient is the HTTP client of the server at cfg.URL. Every request
// carries the headers the configuration gives the server (an
// Authorization, an API key), so a redirect is followed only on the
// server's own origin (sameOrigin): a server that answers 307 with a
// loopback-only service, a cloud's metadata address or another host gets
// no request there, headers or not. Every connection is made under the
// web tools' address rules too (netGuard): the server's own host and port
// are the person's choice, as FETCH_ALLOW_HOSTS names one, and nothing
// else private is dialled (cfg.environ gives the proxy).
func mcpClient(cfg mcpServerConfig) *http.Client {
	base, err := url.Parse(cfg.URL)
	if err != nil {
		base = &url.URL{} // no origin: no redirect is followed (the request itself fails)
	}
	g := netGuard{environ: cfg.environ}
	if base.Host != "" {
		g.allowHosts = allowEntries(base.Scheme + "://" + base.Host)
	}
	c := g.client()
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		switch {
		case base.Host == "" || !sameOrigin(base, req.URL):
			return fmt.Errorf("the server redirected to %s, not on its own origin %s://%s; yaicli follows an MCP server's redirects only there (its requests carry the server's headers): put the new address in the server's \"url\"", sanitize(maskUserinfo(req.URL.String())), base.Scheme, base.Host)
		case len(via) >= mcpMaxRedirects:
			return fmt.Errorf("stopped after %d redirects", mcpMaxRedirects)
		}
		return nil
	}
	return c
}

// sameOrigin reports whether b is on a's origin: the same scheme, host and
// port (a default port written or left out alike). A legacy SSE server's
// endpoint event names where yaicli posts, with the headers the
// configuration gives the server (an Authorization): another origin
// would get them.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		return map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b) && b.User == nil
}
