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

// minRun is the shortest run of a secret's characters that is redacted on
// its own: a read one character in, an edit that changes one character or
// a line cut mid-key leaves a run of the key, not the key. Shorter runs
// are what any text shares with a key by chance.
const minRun = 12

// gramLen is the length of the pieces runs are found by: a run of minRun
// characters always holds a whole piece starting at a multiple of gramLen,
// so only every gramLen-th position of a text is looked up.
const gramLen = minRun / 2

// redactor replaces this run's secrets (the API key in use, every
// EXTRA_HEADERS value, BASE_URL's userinfo) with [redacted], and any run of
// minRun or more of a secret's characters. The zero value and nil replace
// nothing.
type redactor struct {
	secrets [][]byte            // every spelling of every secret, longest first
	grams   map[uint64][]gramAt // every gramLen-piece of the secrets of minRun or more
	seen    []uint64            // a bit per gramHash of the pieces: most lookups end here
}

// gramAt is where a piece occurs: in secret k at offset off.
type gramAt struct{ k, off int }

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
	r.grams, r.seen = map[uint64][]gramAt{}, make([]uint64, 1<<gramBits/64)
	for k, sec := range r.secrets {
		for off := 0; len(sec) >= minRun && off+gramLen <= len(sec); off++ {
			g := gramKey(sec[off:])
			r.grams[g] = append(r.grams[g], gramAt{k, off})
			r.seen[gramHash(g)/64] |= 1 << (gramHash(g) % 64)
		}
	}
	return r
}

// gramBits is the size of the pieces' bit table (2^16 bits, 8 KB): a few
// hundred pieces set under 1% of it, so a text's positions rarely reach
// the map.
const gramBits = 16

// gramHash is a piece's bit in the table.
func gramHash(g uint64) uint64 { return (g * 0x9E3779B97F4A7C15) >> (64 - gramBits) }

// gramKey packs the first gramLen bytes of b into a number.
func gramKey(b []byte) uint64 {
	var g uint64
	for _, c := range b[:gramLen] {
		g = g<<8 | uint64(c)
	}
	return g
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

// spellings are s as given and in UTF-16 (little and big endian, as a
// file saved by PowerShell or Notepad holds it), each also inside a JSON
// string, and s percent-encoded.
func spellings(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var le, be []byte
	for _, c := range []byte(s) { // keys are ASCII; UTF-16 puts a zero byte beside each
		le, be = append(le, c, 0), append(be, 0, c)
	}
	out := []string{url.QueryEscape(s), url.PathEscape(s)}
	for _, v := range []string{s, string(le), string(be)} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		quoted := strings.TrimSuffix(strings.TrimSpace(b.String()), `"`)
		out = append(out, v, strings.TrimPrefix(quoted, `"`))
	}
	return out
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

// scan appends data to dst with every secret, and every run of minRun of
// a secret's characters, replaced. Unless final, it stops before a tail
// of data that could be the start of one, and returns where that tail
// begins, so a secret split across two writes is still found; the caller
// keeps data[held:] for the next call.
func (r *redactor) scan(dst, data []byte, final bool) (out []byte, held int) {
	hold := len(data)
	if !final {
		hold -= r.partialTail(data)
	}
	next := make([]int, len(r.secrets)) // next match of each secret at or after i; -1 none
	for k := range next {
		next[k] = -2 // not searched yet
	}
	i, runAt, runEnd := 0, -2, 0
	for {
		best, end := -1, 0
		for k, s := range r.secrets {
			if next[k] == -2 || next[k] >= 0 && next[k] < i {
				next[k] = bytes.Index(data[i:], s)
				if next[k] >= 0 {
					next[k] += i
				}
			}
			if next[k] >= 0 && (best < 0 || next[k] < best) { // ties go to the longer secret, listed first
				best, end = next[k], next[k]+len(s)
			}
		}
		if runAt == -2 || runAt >= 0 && runAt < i {
			runAt, runEnd = r.nextRun(data, i)
		}
		if runAt >= 0 && (best < 0 || runAt < best || runAt == best && runEnd > end) {
			best, end = runAt, runEnd
		}
		if best < 0 || best >= hold {
			break
		}
		dst = append(append(dst, data[i:best]...), redactedMark...)
		i = end
	}
	if i < hold {
		dst = append(dst, data[i:hold]...)
		i = hold
	}
	return dst, i
}

// nextRun finds the first run of minRun or more of a secret's characters
// in data at or after from: [start, end), or -1.
func (r *redactor) nextRun(data []byte, from int) (int, int) {
	if len(r.grams) == 0 {
		return -1, 0
	}
	for p := (from + gramLen - 1) / gramLen * gramLen; p+gramLen <= len(data); p += gramLen {
		g := gramKey(data[p:])
		if h := gramHash(g); r.seen[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		refs := r.grams[g]
		start, end := -1, 0
		for _, g := range refs {
			sec := r.secrets[g.k]
			b := 0 // how far the run reaches back
			for p-b > from && g.off-b > 0 && data[p-b-1] == sec[g.off-b-1] {
				b++
			}
			f := gramLen // how far it reaches on
			for p+f < len(data) && g.off+f < len(sec) && data[p+f] == sec[g.off+f] {
				f++
			}
			if b+f >= minRun && (start < 0 || p-b < start || p-b == start && p+f > end) {
				start, end = p-b, p+f
			}
		}
		if start >= 0 {
			for end-start > minRun && (data[start] == ' ' || data[start] == '\t') { // "Bearer tok…" seen as " tok…"
				start++
			}
			if keyLike(data[start:end]) {
				return start, end
			}
		}
	}
	return -1, 0
}

// keyLike reports whether a run of a secret looks like part of a key, not
// of words: it mixes two of lower case, upper case and digits, or is long.
// An EXTRA_HEADERS value such as "my-organization-name" is redacted whole,
// while "organization" elsewhere stays; any 12 characters of a random key
// mix classes but for one chance in tens of thousands.
func keyLike(run []byte) bool {
	var lower, upper, digit int
	for _, c := range run {
		switch {
		case c >= 'a' && c <= 'z':
			lower = 1
		case c >= 'A' && c <= 'Z':
			upper = 1
		case c >= '0' && c <= '9':
			digit = 1
		}
	}
	return lower+upper+digit >= 2 || len(run) >= 2*minRun
}

// partialTail is the length of the longest end of data that could go on
// into a secret or a run of one: the longest end that occurs in a secret.
func (r *redactor) partialTail(data []byte) int {
	n := 0
	for n < len(data) && r.inSecret(data[len(data)-n-1:]) {
		n++
	}
	return n
}

// inSecret reports whether b occurs in a secret (one that is not a run
// candidate counts only as a start of it).
func (r *redactor) inSecret(b []byte) bool {
	for _, s := range r.secrets {
		if len(s) >= minRun && bytes.Contains(s, b) || bytes.HasPrefix(s, b) && len(b) < len(s) {
			return true
		}
	}
	return false
}

// redactWriter replaces secrets in a stream: what could be the start of a
// secret is held back until the next Write or Close shows what follows.
type redactWriter struct {
	w       io.Writer
	r       *redactor
	pending []byte
	buf     []byte
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

// redactReader reads r with the secrets replaced (scan), holding back what
// could be the start of one until what follows is read.
type redactReader struct {
	r       io.Reader
	red     *redactor
	buf     []byte
	pending []byte
	out     []byte
	eof     bool
}

// newRedactReader reads r through red.
func newRedactReader(r io.Reader, red *redactor) io.Reader {
	if red.empty() {
		return r
	}
	return &redactReader{r: r, red: red, buf: make([]byte, 64<<10)}
}

// Read gives the next redacted bytes.
func (rr *redactReader) Read(p []byte) (int, error) {
	for len(rr.out) == 0 {
		if rr.eof {
			return 0, io.EOF
		}
		n, err := rr.r.Read(rr.buf)
		data := append(rr.pending, rr.buf[:n]...)
		if err != nil && err != io.EOF {
			return 0, err
		}
		rr.eof = err == io.EOF
		var held int
		rr.out, held = rr.red.scan(rr.out[:0], data, rr.eof)
		rr.pending = append(rr.pending[:0:0], data[held:]...)
	}
	n := copy(p, rr.out)
	rr.out = rr.out[n:]
	return n, nil
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
func hiddenEnv() map[string]bool {
	h := map[string]bool{}
	for _, v := range providerKeyVars() {
		h[v] = true
	}
	return h
}

// childEnv is environ without the hidden variables and without any
// variable whose value holds one of r's secrets (YAI_EXTRA_HEADERS, a key
// copied under another name), unless keep names it: the environment of
// the shell tool and of an MCP server.
func (r *redactor) childEnv(environ []string, keep map[string]string) []string {
	hidden := hiddenEnv()
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

// errorText is err as printed to a person: r's secrets replaced, controls
// shown visibly.
func (r *redactor) errorText(err error) string {
	return sanitize(r.text(err.Error()))
}
