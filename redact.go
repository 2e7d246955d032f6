package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"sort"
	"strings"
)

// redactedMark replaces a secret wherever yaicli writes text.
const redactedMark = "[redacted]"

// minSecretLen is the shortest value treated as a secret: an EXTRA_HEADERS
// value of "1" or "on" would otherwise turn ordinary text into marks, and
// nothing that short protects anything.
const minSecretLen = 4

// redactor replaces this run's secrets (the API key in use, every
// EXTRA_HEADERS value, BASE_URL's userinfo) with [redacted]. The zero value
// and nil replace nothing.
type redactor struct {
	secrets [][]byte // every spelling of every secret, longest first
}

// redactor collects cfg's secrets in each spelling they can take in what
// yaicli writes: as given, inside a JSON string, and percent-encoded.
func (c *config) redactor() *redactor {
	var raw []string
	raw = append(raw, c.APIKey)
	for _, v := range c.ExtraHeaders {
		raw = append(raw, v)
		if _, token, ok := strings.Cut(v, " "); ok { // "Bearer <token>": the token alone too
			raw = append(raw, strings.TrimSpace(token))
		}
	}
	raw = append(raw, userinfoSecrets(c.BaseURL)...)
	seen := map[string]bool{}
	r := &redactor{}
	for _, s := range raw {
		for _, v := range spellings(s) {
			if len(v) >= minSecretLen && !seen[v] {
				seen[v] = true
				r.secrets = append(r.secrets, []byte(v))
			}
		}
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	return r
}

// userinfoSecrets are the parts of a URL's user:password, as written and
// decoded: the pair, the password and the user name.
func userinfoSecrets(raw string) []string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || scheme == "" {
		return nil
	}
	host, _, _ := strings.Cut(rest, "/")
	at := strings.LastIndex(host, "@")
	if at < 0 {
		return nil
	}
	info := host[:at]
	out := []string{info}
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		out = append(out, u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p, u.User.Username()+":"+p)
		}
	}
	if user, pass, ok := strings.Cut(info, ":"); ok {
		out = append(out, user, pass)
	}
	return out
}

// spellings are s as given, inside a JSON string, and percent-encoded.
func spellings(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	quoted := strings.TrimSuffix(strings.TrimSpace(b.String()), `"`)
	return []string{s, strings.TrimPrefix(quoted, `"`), url.QueryEscape(s), url.PathEscape(s)}
}

// empty reports whether there is nothing to replace.
func (r *redactor) empty() bool { return r == nil || len(r.secrets) == 0 }

// text is s with every secret replaced.
func (r *redactor) text(s string) string {
	if r.empty() {
		return s
	}
	out, _ := r.scan(nil, []byte(s), true)
	return string(out)
}

// scan appends data to dst with every secret replaced. Unless final, it
// stops before a tail of data that could be the start of a secret, and
// returns where that tail begins, so a secret split across two writes is
// still found; the caller keeps data[held:] for the next call.
func (r *redactor) scan(dst, data []byte, final bool) (out []byte, held int) {
	hold := len(data)
	if !final {
		hold -= r.partialTail(data)
	}
	next := make([]int, len(r.secrets)) // next match of each secret at or after i; -1 none
	for k := range next {
		next[k] = -2 // not searched yet
	}
	i := 0
	for {
		best, bk := -1, -1
		for k, s := range r.secrets {
			if next[k] == -2 || next[k] >= 0 && next[k] < i {
				next[k] = bytes.Index(data[i:], s)
				if next[k] >= 0 {
					next[k] += i
				}
			}
			if next[k] >= 0 && (best < 0 || next[k] < best) { // ties go to the longer secret, listed first
				best, bk = next[k], k
			}
		}
		if best < 0 || best >= hold {
			break
		}
		dst = append(append(dst, data[i:best]...), redactedMark...)
		i = best + len(r.secrets[bk])
	}
	if i < hold {
		dst = append(dst, data[i:hold]...)
		i = hold
	}
	return dst, i
}

// partialTail is the length of the longest end of data that is the start
// (not the whole) of a secret.
func (r *redactor) partialTail(data []byte) int {
	best := 0
	for _, s := range r.secrets {
		for p := max(0, len(data)-len(s)+1); p < len(data) && len(data)-p > best; p++ {
			if data[p] == s[0] && bytes.HasPrefix(s, data[p:]) {
				best = len(data) - p
				break
			}
		}
	}
	return best
}

// redactWriter replaces secrets in a stream: what could be the start of a
// secret is held back until the next Write or Close shows what follows.
type redactWriter struct {
	w       io.Writer
	r       *redactor
	pending []byte
	buf     []byte
}

// newRedactWriter redacts what is written to w; without secrets it is w.
func newRedactWriter(w io.Writer, r *redactor) io.Writer {
	if r.empty() {
		return w
	}
	return &redactWriter{w: w, r: r}
}

// Write passes p on with secrets replaced, holding back a possible start of one.
func (rw *redactWriter) Write(p []byte) (int, error) {
	data := p
	if len(rw.pending) > 0 {
		data = append(rw.pending, p...)
	}
	out, held := rw.r.scan(rw.buf[:0], data, false)
	rw.buf = out
	rw.pending = append(rw.pending[:0:0], data[held:]...)
	if len(out) > 0 {
		if _, err := rw.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Close writes what was held back; it does not close the writer below.
func (rw *redactWriter) Close() error {
	if len(rw.pending) == 0 {
		return nil
	}
	out, _ := rw.r.scan(nil, rw.pending, true)
	rw.pending = nil
	_, err := rw.w.Write(out)
	return err
}

// messages returns copies of h whose text, reasoning and tool arguments
// carry no secret, for a saved chat.
func (r *redactor) messages(h []message) []message {
	if r.empty() {
		return h
	}
	out := make([]message, len(h))
	for i, m := range h {
		m.Content, m.reasoning = r.text(m.Content), r.text(m.reasoning)
		if len(m.ToolCalls) > 0 {
			calls := append([]toolCall(nil), m.ToolCalls...)
			for j := range calls {
				calls[j].Function.Arguments = r.text(calls[j].Function.Arguments)
			}
			m.ToolCalls = calls
		}
		out[i] = m
	}
	return out
}

// hiddenEnv names the variables never passed to the shell tool or an MCP
// server: yaicli's own key settings and every provider's key variable
// (providerKeyVars), not only the one in use.
func (c *config) hiddenEnv() map[string]bool {
	h := map[string]bool{}
	for _, v := range providerKeyVars() {
		h[v] = true
	}
	return h
}

// childEnv is environ without the hidden variables and without any
// variable whose value holds one of the secrets (YAI_EXTRA_HEADERS, a key
// copied under another name), unless keep names it.
func (c *config) childEnv(environ []string, keep map[string]string) []string {
	hidden, r := c.hiddenEnv(), c.redactor()
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if _, named := keep[k]; !named && (hidden[k] || r.holds(v)) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// holds reports whether s contains a secret.
func (r *redactor) holds(s string) bool {
	if r.empty() {
		return false
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, string(sec)) {
			return true
		}
	}
	return false
}

// shellEnv is the environment of the shell tool: the run's own, with the
// secrets left out.
func (c *config) shellEnv() []string { return c.childEnv(c.environ, nil) }

// scrubbed wraps a provider's send so that an error carries no secret: a
// provider that echoes the key in its 401 body is printed without it. The
// error keeps its type for errors.As.
func scrubbed(send func(context.Context, chatRequest, streamSink) (reply, error), r *redactor) func(context.Context, chatRequest, streamSink) (reply, error) {
	return func(ctx context.Context, req chatRequest, sink streamSink) (reply, error) {
		rep, err := send(ctx, req, sink)
		var ae *apiError
		if errors.As(err, &ae) {
			ae.Message = r.text(ae.Message)
		}
		return rep, err
	}
}

// errorText is err as printed to a person: secrets replaced, controls
// shown visibly.
func (c *config) errorText(err error) string {
	return sanitize(c.redactor().text(err.Error()))
}
