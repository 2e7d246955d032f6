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
	"sync"
)

// redactedMark replaces a secret wherever yaicli writes text.
const redactedMark = "[redacted]"

// minSecretLen is the shortest value treated as a secret: an EXTRA_HEADERS
// value of "1" or "on" would otherwise turn ordinary text into marks, and
// nothing that short protects anything.
const minSecretLen = 4

// redactor replaces this run's secrets (the API key in use, every
// EXTRA_HEADERS value, BASE_URL's userinfo) with [redacted], and any run of
// minRun or more of a secret's characters. The zero value and nil replace
// nothing.
type redactor struct {
	secrets [][]byte            // every spelling of every secret, longest first
	exact   [][]byte            // those a run cannot stand for (short or word-like): looked for whole
	anchor  []int               // the byte of each exact secret looked for first: its rarest (rareAt)
	grams   map[uint64][]gramAt // every gramLen-piece of the secrets of minRun or more
	seen    []uint64            // a bit per gramHash of the pieces: most lookups end here
	shapes  shapeIndex          // every secret's shapes (shapesOf), runs of which are redacted
	frag    *fragments          // the pieces of keys this session's tool results showed (redactsession.go)
	pool    sync.Pool           // *skeleton buffers, one per scan at a time
}

// newRedactor hides the secrets raw in each spelling they can take in
// what yaicli writes: as given, inside a JSON string, and percent-encoded.
func newRedactor(raw []string) *redactor {
	seen := map[string]bool{}
	r := &redactor{}
	var shapes [][]byte
	for _, s := range raw {
		for _, sh := range shapesOf(strings.TrimSpace(s)) {
			if !seen["\x00"+string(sh)] {
				seen["\x00"+string(sh)] = true
				shapes = append(shapes, sh)
			}
		}
		for _, v := range spellings(s) {
			if len(v) >= minSecretLen && !seen[v] {
				seen[v] = true
				r.secrets = append(r.secrets, []byte(v))
			}
		}
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	for _, sec := range r.secrets {
		if len(sec) < minRun || !keyLike(sec) { // a run of it would not be redacted, or is not there
			r.exact, r.anchor = append(r.exact, sec), append(r.anchor, rareAt(sec))
		}
	}
	if len(r.secrets) > 0 {
		r.shapes = newShapeIndex(shapes)
	}
	r.frag = newFragments(raw)
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
	if string(out) == s { // no copy of an unchanged text (a request's whole history)
		return s
	}
	return string(out)
}

// scan appends data to dst with every secret, every run of minRun of a
// secret's characters and every run of minRun of a shape (redactshape.go)
// replaced. Unless final, it stops before a tail of data that could be
// the start of one, and returns where that tail begins, so a secret split
// across two writes is still found; the caller keeps data[held:] for the
// next call.
func (r *redactor) scan(dst, data []byte, final bool) (out []byte, held int) {
	return r.scanText(dst, data, scanHow{final: final})
}

// scanHow is how scanText reads its data. from: data[:from] is context,
// already written (a run that began there is redacted from from on).
// minHold: a possible start of a secret shorter than this is written, not
// held (a stream shown as it comes; the context finds the run it begins).
// joined: what was written ends with the mark, so a run going on from
// the context adds no second one.
type scanHow struct {
	final, json, joined bool
	from, minHold       int
}

// jsonText is b, a JSON text, with every secret replaced, and still JSON:
// no replacement spans two strings.
func (r *redactor) jsonText(b []byte) []byte {
	if r.empty() {
		return b
	}
	out, _ := r.scanText(nil, b, scanHow{final: true, json: true})
	return out
}

// scanText is scan; in json mode a shape's run never crosses a quote.
func (r *redactor) scanText(dst, data []byte, how scanHow) (out []byte, held int) {
	sk, _ := r.pool.Get().(*skeleton)
	if sk == nil {
		sk = &skeleton{}
	}
	defer r.pool.Put(sk)
	sk.build(data, how.json)
	hold := len(data)
	if !how.final {
		tail := r.partialTail(data)
		if tail < how.minHold {
			tail = 0
		}
		hold = min(len(data)-tail, r.shapes.tail(sk, data, how.minHold))
	}
	hold = max(hold, how.from)
	next := append(sk.next[:0], make([]int, len(r.exact))...) // next match of each secret at or after i; -1 none
	sk.next = next
	for k := range next {
		next[k] = -2 // not searched yet
	}
	i, runAt, runEnd, shapeAt, shapeEnd := 0, -2, 0, -2, 0
	for {
		best, end := -1, 0
		for k, s := range r.exact {
			if next[k] == -2 || next[k] >= 0 && next[k] < i {
				next[k] = indexAnchored(data, i, s, r.anchor[k])
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
		if shapeAt == -2 || shapeAt >= 0 && shapeAt < i {
			shapeAt, shapeEnd = r.shapes.next(sk, data, i)
		}
		if shapeAt >= 0 && (best < 0 || shapeAt < best || shapeAt == best && shapeEnd > end) {
			best, end = shapeAt, shapeEnd
		}
		if best < 0 || best >= hold {
			break
		}
		if end > how.from && !(best < how.from && how.joined) { // a run that ended in the context was redacted when it was written
			dst = append(append(dst, data[max(i, how.from):max(best, how.from)]...), redactedMark...)
		}
		i = max(i, end)
	}
	if i < hold {
		dst = append(dst, data[max(i, how.from):hold]...)
		i = hold
	}
	return dst, i
}

// indexAnchored is the first index at or after from where s occurs in
// data, or -1: found by its byte at anchor, the rarest in text, so a
// secret that begins with a common letter ("alice") is not tried at every
// "a" of a log.
func indexAnchored(data []byte, from int, s []byte, anchor int) int {
	if anchor < 0 { // no rare byte: bytes.Index's own search is faster
		if j := bytes.Index(data[from:], s); j >= 0 {
			return from + j
		}
		return -1
	}
	c := s[anchor]
	for i := from + anchor; i+len(s)-anchor <= len(data); {
		j := bytes.IndexByte(data[i:len(data)-len(s)+anchor+1], c)
		if j < 0 {
			return -1
		}
		if at := i + j - anchor; bytes.Equal(data[at:at+len(s)], s) {
			return at
		}
		i += j + 1
	}
	return -1
}

// rareAt is the index of s's byte that is least common in what a command
// prints: a control byte or a rare sign, then an upper-case letter, a
// letter past f, a common sign; the first of equals. It is -1 when s is
// all hex digits, which are everywhere in a log.
func rareAt(s []byte) int {
	rank := func(c byte) int {
		switch {
		case c >= '0' && c <= '9' || c >= 'a' && c <= 'f': // hex: everywhere in a log
			return 70
		case strings.IndexByte(" \n\t.,:;-_/=\"'()[]{}", c) >= 0:
			return 65
		case c >= 'g' && c <= 'z':
			return 60
		case c >= 'A' && c <= 'Z':
			return 40
		}
		return 0
	}
	best := 0
	for i, c := range s {
		if rank(c) < rank(s[best]) {
			best = i
		}
	}
	if rank(s[best]) >= 70 {
		return -1
	}
	return best
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
func keyLike(run []byte) bool { return keyLikeRun(run, len(run)) }

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
// With minHold, a possible start shorter than that is written at once (a
// stream on a screen: the last word of a paused answer shows), and the
// last bytes written are kept as context, so a run they begin is still
// found and redacted from there on: at most minHold-1 characters of it
// are shown.
type redactWriter struct {
	w       io.Writer
	r       *redactor
	minHold int
	ctx     []byte // the last bytes written, with minHold
	marked  bool   // what was written last ends with the mark
	pending []byte
	buf     []byte // what a Write passes on, kept for the next
	in      []byte // ctx, pending and p of a Write, kept for the next
}

// contextMax is how much of what was written a minHold writer keeps as
// context: more than a run of minRun with its gaps.
const contextMax = minRun * (maxGap + 1)

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
	if len(rw.pending) > 0 || len(rw.ctx) > 0 {
		rw.in = append(append(append(rw.in[:0], rw.ctx...), rw.pending...), p...)
		data = rw.in
	}
	out, held := rw.r.scanText(rw.buf[:0], data, scanHow{from: len(rw.ctx), minHold: rw.minHold, joined: rw.marked})
	rw.buf = out
	rw.keep(data, held, out)
	if len(out) > 0 {
		if _, err := rw.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// keep holds data[held:] for the next Write, and with minHold the end of
// what was written as context.
func (rw *redactWriter) keep(data []byte, held int, out []byte) {
	if len(out) > 0 {
		rw.marked = bytes.HasSuffix(out, []byte(redactedMark))
	}
	rw.pending = append(rw.pending[:0], data[held:]...) // data is rw.in or the caller's: never these
	if rw.minHold > 0 {
		rw.ctx = append(rw.ctx[:0], data[max(0, held-contextMax):held]...)
	}
}

// Close writes what was held back; it does not close the writer below.
func (rw *redactWriter) Close() error {
	if len(rw.pending) == 0 {
		return nil
	}
	data := append(append(rw.in[:0], rw.ctx...), rw.pending...)
	out, held := rw.r.scanText(rw.buf[:0], data, scanHow{final: true, from: len(rw.ctx), joined: rw.marked})
	rw.keep(data, held, out)
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
	in      []byte // pending and what was read, kept for the next Read
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
		rr.in = append(append(rr.in[:0], rr.pending...), rr.buf[:n]...)
		data := rr.in
		if err != nil && err != io.EOF {
			return 0, err
		}
		rr.eof = err == io.EOF
		var held int
		rr.out, held = rr.red.scan(rr.out[:0], data, rr.eof)
		rr.pending = append(rr.pending[:0], data[held:]...)
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

// scrubbed wraps a provider's send so that no secret leaves in the
// request (r.request), and an error carries none: a provider that echoes
// the key in its 401 body is printed without it. The error keeps its type
// for errors.As.
func scrubbed(send func(context.Context, chatRequest, streamSink) (reply, error), r *redactor) func(context.Context, chatRequest, streamSink) (reply, error) {
	return func(ctx context.Context, req chatRequest, sink streamSink) (reply, error) {
		rep, err := send(ctx, r.request(req), sink)
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

// redactedSink is s with the answer and reasoning text passed through r
// as they stream: a model that echoes the key (in any shape) shows it
// neither on stdout nor in a text.delta, and the answer the json result
// keeps is the history's. What could be the start of a secret waits for
// the next piece of the same kind; a piece of the other kind, or flush
// (called when the request ends), gives it first, so the two stay in
// order.
func redactedSink(s streamSink, r *redactor) (streamSink, func()) {
	if r.empty() {
		return s, func() {}
	}
	var ws []*redactWriter
	flush := func() {
		for _, w := range ws {
			w.Close()
		}
	}
	pass := func(to func(string)) func(string) {
		if to == nil {
			return nil
		}
		w := &redactWriter{w: sinkWriter(to), r: r, minHold: sinkMinHold}
		ws = append(ws, w)
		return func(t string) {
			for _, o := range ws {
				if o != w {
					o.Close()
				}
			}
			w.Write([]byte(t))
		}
	}
	s.text, s.reasoning = pass(s.text), pass(s.reasoning)
	return s, flush
}

// sinkMinHold is the shortest possible start of a secret an answer
// holds back: a shorter one shows at once (the last word of a paused
// answer is on the screen), and the run it begins is redacted from the
// next piece on.
const sinkMinHold = 4

// sinkWriter writes to a sink's text function.
type sinkWriter func(string)

// Write passes p on as text.
func (f sinkWriter) Write(p []byte) (int, error) {
	f(string(p))
	return len(p), nil
}

// jsonRedacting is w for JSON texts written whole, one per Write (an
// event line, the json result): each passes r's jsonText, so the result
// holds no secret and stays JSON.
func jsonRedacting(w io.Writer, r *redactor) io.Writer {
	if r.empty() || w == nil {
		return w
	}
	return jsonRedactWriter{w, r}
}

// jsonRedactWriter is jsonRedacting's writer.
type jsonRedactWriter struct {
	w io.Writer
	r *redactor
}

// Write writes p, a whole JSON text, with its secrets replaced.
func (j jsonRedactWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(j.r.jsonText(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// request is req as it may leave for the provider: every message's text,
// reasoning and tool arguments, and every tool's description and schema,
// without r's secrets in any shape, and tool results without pieces of a
// key past what this session's results have shown (fragments.track).
func (r *redactor) request(req chatRequest) chatRequest {
	if r.empty() {
		return req
	}
	req.Messages = r.messages(req.Messages)
	for i, m := range req.Messages { // the pieces of a key tool results show add up over the session
		if m.Role == roleTool {
			req.Messages[i].Content = r.frag.track(r.unpacked(m.Content))
		}
	}
	specs := make([]toolSpec, len(req.Tools))
	for i, s := range req.Tools {
		s.Function.Description = r.text(s.Function.Description)
		s.Function.Parameters = r.jsonText(s.Function.Parameters)
		specs[i] = s
	}
	req.Tools = specs
	return req
}

// maskUserinfo replaces a URL's user:password with [redacted].
func maskUserinfo(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	host, path, slash := strings.Cut(rest, "/")
	at := strings.LastIndex(host, "@")
	if at < 0 {
		return raw
	}
	out := scheme + "://" + redactedMark + host[at:]
	if slash {
		out += "/" + path
	}
	return out
}
