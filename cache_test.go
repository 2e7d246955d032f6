package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The prompt caches of Anthropic and OpenAI, simulated by their documented
// rules (see docs/CONTEXT.md's prompt-caching section), behind an httptest
// server that speaks each wire and reports usage as the provider does; a
// scripted agent session of six questions runs against it.

const (
	simMinPrefix  = 1024            // the smallest prefix either cache keeps (Sonnet; OpenAI)
	simLookBack   = 20              // blocks Anthropic looks back from a breakpoint for a write
	simOpenAIStep = 128             // OpenAI caches in steps of this many tokens
	simTTL        = 5 * time.Minute // both caches' lifetime, refreshed by a hit
)

// simUnit is one block of a prompt as a cache sees it: its hash chained
// over everything before it, its tokens, and its breakpoint (Anthropic).
type simUnit struct {
	hash   [32]byte
	text   [32]byte // the block's own text, not chained: seen before or new
	tokens int
	mark   bool
	ttl    time.Duration
}

// simTotals is what the provider reported over a session, and what it saw.
type simTotals struct {
	requests, prompt, cached, written int
	breaks                            int // requests whose prompt was not the last one's with more appended
	resent                            int // tokens sent before, not read from the cache: what reductions cost
	fresh                             int // tokens of blocks no earlier request had: what any client must write or send
	early, earlyN                     int // prompt tokens and requests before the first that changed the history
	leadChanges                       int // requests whose tools or system prompt differ from the first request's
	misses                            int // requests that appended to the last one but did not read all of it
	keys                              map[string]bool
}

// cacheSim is a provider with a prompt cache: Anthropic's (explicit
// breakpoints, 20-block look-back, at most 4 marks) or OpenAI's (exact
// prefix from 1024 tokens in 128-token steps). Its clock is virtual: each
// request takes simTurnaround, and pause moves it on.
type cacheSim struct {
	t          testing.TB
	anthropic  bool
	fam        family
	srv        *httptest.Server
	mu         sync.Mutex
	now        time.Time
	entries    map[[32]byte]time.Time // a cached prefix's end -> when it expires
	seen       map[[32]byte]bool      // every block's text sent so far
	lead       [32]byte               // the first request's tools and system prompt, chained
	prev       [][32]byte             // the last request's message units
	lastPrompt int                    // the last request's prompt tokens
	tot        simTotals
	script     []simQuestion
	memo       map[string]int
}

// simTurnaround is the virtual time one request and its tools take.
const simTurnaround = 12 * time.Second

// newCacheSim starts a simulated provider answering with script.
func newCacheSim(t testing.TB, anthropic bool, script []simQuestion) *cacheSim {
	s := &cacheSim{t: t, anthropic: anthropic, fam: familyOf("gpt-4.1"), entries: map[[32]byte]time.Time{}, seen: map[[32]byte]bool{}, script: script,
		memo: map[string]int{}, now: time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC), tot: simTotals{keys: map[string]bool{}}}
	if anthropic {
		s.fam = familyOf("claude-sonnet-4-5")
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// pause moves the virtual clock on, as a person reading an answer does.
func (s *cacheSim) pause(d time.Duration) {
	s.mu.Lock()
	s.now = s.now.Add(d)
	s.mu.Unlock()
}

// totals is what the provider reported so far.
func (s *cacheSim) totals() simTotals {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tot
}

// tokens counts a unit's text, memoised: a session sends the same blocks
// again and again.
func (s *cacheSim) tokens(text string) int {
	if n, ok := s.memo[text]; ok {
		return n
	}
	n := s.fam.tokens(text) + 4
	s.memo[text] = n
	return n
}

// unit chains one block onto the prefix before it.
func (s *cacheSim) unit(prev [32]byte, role string, block map[string]any) simUnit {
	u := simUnit{ttl: simTTL}
	if cc, ok := block["cache_control"].(map[string]any); ok {
		u.mark = true
		if cc["ttl"] == "1h" {
			u.ttl = time.Hour
		}
		delete(block, "cache_control") // a mark is not part of the cached text
	}
	b, _ := json.Marshal(block)
	u.tokens = s.tokens(string(b))
	u.hash = sha256.Sum256(append(append(prev[:], role...), b...))
	u.text = sha256.Sum256(append([]byte(role), b...))
	return u
}

// serve answers one request on the wire the simulator speaks. With
// YAICLI_SIMTRACE set it prints a line per request: its units, marks,
// prompt, cached and written tokens, and whether it changed the history.
func (s *cacheSim) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = s.now.Add(simTurnaround)
	var units []simUnit
	var msgs int // units before the messages: tools and system
	var reject string
	if s.anthropic {
		units, msgs, reject = s.anthropicUnits(raw)
	} else {
		units, msgs = s.openaiUnits(raw)
	}
	if reject != "" {
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":%q}}`, reject)
		return
	}
	s.checkLead(units, msgs)
	broke, at := s.countBreak(units[msgs:])
	var u usage
	if s.anthropic {
		u = s.anthropicCache(units)
	} else {
		u = s.openaiCache(units)
	}
	if want := s.lastPrompt / simOpenAIStep * simOpenAIStep; !broke && s.lastPrompt >= simMinPrefix && u.CachedTokens < want {
		s.tot.misses++
	}
	s.lastPrompt = u.PromptTokens
	resent := s.resent(units, u.CachedTokens)
	s.tot.resent += resent
	if os.Getenv("YAICLI_SIMTRACE") != "" { // a line per request: go test -run PromptCacheSession -v
		var ms []int
		for i, un := range units {
			if un.mark {
				ms = append(ms, i)
			}
		}
		fmt.Printf("req %2d: units %4d marks %v prompt %7d cached %7d written %7d", s.tot.requests+1, len(units), ms, u.PromptTokens, u.CachedTokens, u.CacheWriteTokens)
		if broke {
			fmt.Printf(" changed from message %d of %d, %d tokens sent again", at, len(units)-msgs, resent)
		}
		fmt.Println()
	}
	if s.tot.breaks == 0 {
		s.tot.early += u.PromptTokens
		s.tot.earlyN++
	}
	s.tot.requests++
	s.tot.prompt += u.PromptTokens
	s.tot.cached += u.CachedTokens
	s.tot.written += u.CacheWriteTokens
	q, round := s.position(raw)
	w.Header().Set("Content-Type", "text/event-stream")
	if s.anthropic {
		io.WriteString(w, simAnthropicReply(s.script, q, round, u))
	} else {
		io.WriteString(w, simOpenAIReply(s.script, q, round, u))
	}
}

// checkLead counts a request whose tools and system prompt (units before
// the messages; on OpenAI's wire the first message too) are not the first
// request's: they open every request, and a change rewrites the cache.
func (s *cacheSim) checkLead(units []simUnit, msgs int) {
	if !s.anthropic {
		msgs++
	}
	lead := units[min(msgs, len(units))-1].hash
	if s.tot.requests == 0 {
		s.lead = lead
	} else if lead != s.lead {
		s.tot.leadChanges++
	}
}

// resent is the tokens of units past the cached ones, cached tokens,
// whose text was sent before: what a change of the history made the
// provider read again in full. It marks every unit's text seen.
func (s *cacheSim) resent(units []simUnit, cached int) int {
	n, cum := 0, 0
	for _, u := range units {
		cum += u.tokens
		if cum > cached && s.seen[u.text] {
			n += min(u.tokens, cum-cached)
		}
		if !s.seen[u.text] {
			s.tot.fresh += u.tokens
		}
		s.seen[u.text] = true
	}
	return n
}

// countBreak counts a request whose messages are not the last request's
// with more appended (a reduction changed the history), and says whether
// this one is such, and from which message unit on it differs.
func (s *cacheSim) countBreak(units []simUnit) (bool, int) {
	hashes := make([][32]byte, len(units))
	for i, u := range units {
		hashes[i] = u.hash
	}
	at := 0
	for at < len(hashes) && at < len(s.prev) && hashes[at] == s.prev[at] {
		at++
	}
	broke := len(s.prev) > 0 && at < len(s.prev)
	if broke {
		s.tot.breaks++
	}
	s.prev = hashes
	return broke, at
}

// anthropicUnits are a Messages request's blocks: tools, system, then each
// message's content, and the API's refusal of bad marks, if any.
func (s *cacheSim) anthropicUnits(raw []byte) ([]simUnit, int, string) {
	var req struct {
		Tools    []map[string]any
		System   json.RawMessage
		Messages []struct {
			Role    string
			Content []map[string]any
		}
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		s.t.Errorf("anthropic request: %v", err)
	}
	var units []simUnit
	add := func(role string, b map[string]any) {
		var prev [32]byte
		if len(units) > 0 {
			prev = units[len(units)-1].hash
		}
		units = append(units, s.unit(prev, role, b))
	}
	for _, t := range req.Tools {
		add("tool", t)
	}
	var system []map[string]any
	if json.Unmarshal(req.System, &system) != nil {
		var text string
		json.Unmarshal(req.System, &text)
		system = []map[string]any{{"type": "text", "text": text}}
	}
	for _, b := range system {
		add("system", b)
	}
	msgs := len(units)
	for _, m := range req.Messages {
		for _, b := range m.Content {
			_, marked := b["cache_control"]
			switch {
			case marked && (b["type"] == "thinking" || b["type"] == "redacted_thinking"):
				return nil, 0, "messages: thinking blocks cannot be cached with cache_control"
			case b["type"] == "text" && b["text"] == "":
				return nil, 0, "messages: text content blocks must be non-empty"
			}
			add(m.Role, b)
		}
	}
	marks := 0
	for _, u := range units {
		if u.mark {
			marks++
		}
	}
	if marks > maxBreakpoints {
		return nil, 0, fmt.Sprintf("A maximum of 4 blocks with cache_control may be provided. Found %d.", marks)
	}
	return units, msgs, ""
}

// anthropicCache reads the longest prefix written earlier that ends within
// 20 blocks before a breakpoint, and writes up to every breakpoint past it.
func (s *cacheSim) anthropicCache(units []simUnit) usage {
	cum := make([]int, len(units))
	total := 0
	for i, u := range units {
		total += u.tokens
		cum[i] = total
	}
	read, last := 0, -1
	for p, u := range units {
		if !u.mark {
			continue
		}
		last = p
		for j := p; j >= 0 && j >= p-simLookBack; j-- {
			if exp, ok := s.entries[units[j].hash]; ok && exp.After(s.now) {
				if cum[j] > read {
					read = cum[j]
					s.entries[units[j].hash] = s.now.Add(units[p].ttl)
				}
				break
			}
		}
	}
	written := 0
	for p, u := range units {
		if u.mark && cum[p] >= simMinPrefix && cum[p] > read {
			s.entries[u.hash] = s.now.Add(u.ttl)
			if p == last {
				written = cum[p] - read
			}
		}
	}
	return usage{PromptTokens: total, CachedTokens: read, CacheWriteTokens: written}
}

// openaiUnits are a chat request's tools, then its messages, in order.
func (s *cacheSim) openaiUnits(raw []byte) ([]simUnit, int) {
	var req struct {
		Tools          []map[string]any
		Messages       []map[string]any
		PromptCacheKey string `json:"prompt_cache_key"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		s.t.Errorf("openai request: %v", err)
	}
	if req.PromptCacheKey != "" {
		s.tot.keys[req.PromptCacheKey] = true
	}
	var units []simUnit
	var prev [32]byte
	for _, t := range req.Tools {
		units = append(units, s.unit(prev, "tool", t))
		prev = units[len(units)-1].hash
	}
	msgs := len(units)
	for _, m := range req.Messages {
		units = append(units, s.unit(prev, "message", m))
		prev = units[len(units)-1].hash
	}
	return units, msgs
}

// openaiCache reads the longest cached exact prefix, rounded down to
// 128-token steps, from 1024 tokens; then the whole prompt is cached.
func (s *cacheSim) openaiCache(units []simUnit) usage {
	total, matched, broken := 0, 0, false
	for _, u := range units {
		total += u.tokens
		if exp, ok := s.entries[u.hash]; !broken && ok && exp.After(s.now) {
			matched = total
		} else {
			broken = true
		}
	}
	cached := 0
	if matched >= simMinPrefix {
		cached = matched / simOpenAIStep * simOpenAIStep
	}
	if total >= simMinPrefix {
		for _, u := range units {
			s.entries[u.hash] = s.now.Add(simTTL)
		}
	}
	return usage{PromptTokens: total, CachedTokens: cached}
}

// questionRE finds the question a request is about.
var questionRE = regexp.MustCompile(`question (\d+):`)

// position is the question a request answers (its last user message) and
// the tool round it is in (the assistant messages since).
func (s *cacheSim) position(raw []byte) (q, round int) {
	var req struct {
		Messages []struct {
			Role    string
			Content json.RawMessage
		}
	}
	json.Unmarshal(raw, &req)
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if mm := questionRE.FindSubmatch(m.Content); m.Role == roleUser && mm != nil && !bytes.Contains(m.Content, []byte("tool_result")) {
			fmt.Sscan(string(mm[1]), &q)
			return q, round
		}
		if m.Role == roleAssistant {
			round++
		}
	}
	s.t.Errorf("a request without a question")
	return 0, 0
}

// simQuestion is one question of the scripted session: its tool rounds,
// each a list of call ids, and the answer after them.
type simQuestion struct {
	rounds [][]string
	answer string
}

// sessionShape is how a scripted session is drawn: its seed, questions,
// rounds per question (least, and how many more at most), the one round
// of many parallel calls, the ids' prefix and each answer's words.
type sessionShape struct {
	seed                    [2]uint64
	questions, least, extra int
	wideQ, wideRound, wideN int
	prefix, answer          string
}

// simSessionOf is shape's session: one to two calls a round, and the wide
// round's many; deterministic.
func simSessionOf(shape sessionShape) []simQuestion {
	r := rand.New(rand.NewPCG(shape.seed[0], shape.seed[1]))
	var qs []simQuestion
	for q := 1; q <= shape.questions; q++ {
		var sq simQuestion
		for round := 0; round < shape.least+r.IntN(shape.extra+1); round++ {
			n := 1 + r.IntN(2)
			if q == shape.wideQ && round == shape.wideRound {
				n = shape.wideN
			}
			var ids []string
			for c := 0; c < n; c++ {
				ids = append(ids, fmt.Sprintf("%sq%d-r%d-c%d", shape.prefix, q, round, c))
			}
			sq.rounds = append(sq.rounds, ids)
		}
		sq.answer = fmt.Sprintf("answer %d: ", q) + shape.answer
		qs = append(qs, sq)
	}
	return qs
}

// simSession is six questions of 4 to 6 tool rounds each, one to two
// calls a round, and one round of 12 parallel calls (24 blocks: more than
// Anthropic's look-back), deterministic.
func simSession() []simQuestion {
	return simSessionOf(sessionShape{seed: [2]uint64{33, 2026}, questions: 6, least: 4, extra: 2, wideQ: 3, wideRound: 1, wideN: 12,
		answer: strings.Repeat("the outputs agree; nothing failed in this part. ", 8)})
}

// simOutput is the output of call id: a log, a CSV table, build output or
// command output, 1 to 40 KB (most small, a few large), the same every run;
// the second session's calls (ids starting "b-") answer simOutputB.
func simOutput(id string) string {
	if strings.HasPrefix(id, "b-") {
		return simOutputB(id)
	}
	h := fnv.New64a()
	io.WriteString(h, id)
	r := rand.New(rand.NewPCG(h.Sum64(), 7))
	u := r.Float64()
	size := 1024 + int(u*u*u*39*1024)
	if strings.Contains(id, "q3-r1-") {
		size = 1024 + r.IntN(2048)
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		switch r.Uint64() % 4 {
		case 0:
			b.WriteString(logText(int(h.Sum64()%50)+i, 1))
		case 1:
			fmt.Fprintf(&b, "%d,2026-11-%02d,eu-west-%d,SKU-%05d,%d,%d.%02d,%s\n", i, 1+i%28, i%3, r.IntN(99999), r.IntN(40), r.IntN(900), r.IntN(100), []string{"shipped", "open", "returned"}[i%3])
		case 2:
			fmt.Fprintf(&b, "internal/store/shard_%d.go:%d:%d: warning: result of fmt.Sprintf call not used (unusedresult)\n", i%9, 10+r.IntN(900), 2+r.IntN(40))
		default:
			fmt.Fprintf(&b, "-rw-r--r-- 1 build build %7d Nov %2d 12:%02d artifact-%04d.tar.zst\n", r.IntN(9999999), 1+i%28, i%60, r.IntN(9999))
		}
	}
	return b.String()
}

// simSessionB is a second session, shaped otherwise so that no figure
// rests on one script: seven questions of 5 to 8 rounds, one or two
// calls a round, one round of 8 parallel calls, and outputs of three
// kinds (simOutputB).
func simSessionB() []simQuestion {
	return simSessionOf(sessionShape{seed: [2]uint64{35, 1205}, questions: 7, least: 5, extra: 3, wideQ: 5, wideRound: 2, wideN: 8,
		prefix: "b-", answer: strings.Repeat("two checks disagree on the totals; the rest is as expected. ", 5)})
}

// simOutputB is the second session's output of call id: near a third are
// tiny (a status line or two), half 1 to 8 KB, a fifth 12 to 36 KB (the
// largest cut to the tool cap on entry); JSON lines, stack traces and
// diffs, which tokenize otherwise than session A's logs.
func simOutputB(id string) string {
	h := fnv.New64a()
	io.WriteString(h, id)
	r := rand.New(rand.NewPCG(h.Sum64(), 11))
	var size int
	switch u := r.Float64(); {
	case u < 0.3 || strings.Contains(id, "q5-r2-"):
		size = 40 + r.IntN(360)
	case u < 0.8:
		size = 1024 + r.IntN(7*1024)
	default:
		size = 12*1024 + r.IntN(24*1024)
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		switch r.Uint64() % 3 {
		case 0:
			fmt.Fprintf(&b, `{"ts":"2026-12-0%dT08:%02d:%02dZ","level":"%s","svc":"billing-%d","msg":"invoice %d reconciled","ms":%d}`+"\n",
				1+i%5, i%60, r.IntN(60), []string{"info", "warn", "error"}[r.IntN(3)], i%4, r.IntN(999999), r.IntN(5000))
		case 1:
			fmt.Fprintf(&b, "goroutine %d [running]:\nmain.(*ledger).apply(0xc%06x, 0x%x)\n\t/src/ledger/apply.go:%d +0x%x\n", r.IntN(900), r.IntN(1<<24), r.IntN(1<<16), 10+r.IntN(400), r.IntN(4096))
		default:
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n-\ttotal += line.Amount * %d\n+\ttotal += line.Amount.Mul(rate%d)\n", r.IntN(900), 3+r.IntN(9), r.IntN(900), 3+r.IntN(9), r.IntN(100), i%7)
		}
	}
	if size < 400 {
		return firstRunes(b.String(), size)
	}
	return b.String()
}

// simReplyCalls is the step for question q's round: the calls to make, or
// none when the answer is due.
func simReplyCalls(script []simQuestion, q, round int) []string {
	if q < 1 || q > len(script) || round >= len(script[q-1].rounds) {
		return nil
	}
	return script[q-1].rounds[round]
}

// simAnthropicReply is a Messages stream: a text block, the tool_use
// blocks or none, and usage in message_start and message_delta, as the
// API sends them.
func simAnthropicReply(script []simQuestion, q, round int, u usage) string {
	var b strings.Builder
	ev := func(kind string, v any) {
		j, _ := json.Marshal(v)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", kind, j)
	}
	use := map[string]any{"input_tokens": u.PromptTokens - u.CachedTokens - u.CacheWriteTokens,
		"cache_creation_input_tokens": u.CacheWriteTokens, "cache_read_input_tokens": u.CachedTokens, "output_tokens": 1}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_01Sim", "type": "message", "role": "assistant",
		"model": "claude-sonnet-4-5-20250929", "content": []any{}, "stop_reason": nil, "usage": use}})
	calls := simReplyCalls(script, q, round)
	text := fmt.Sprintf("Round %d: checking %d more outputs.", round+1, len(calls))
	if calls == nil && q >= 1 && q <= len(script) {
		text = script[q-1].answer
	}
	ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}})
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	for i, id := range calls {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": i + 1,
			"content_block": map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": "run_check", "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i + 1,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": fmt.Sprintf(`{"id": %q}`, id)}})
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i + 1})
	}
	stop := "end_turn"
	if calls != nil {
		stop = "tool_use"
	}
	use["output_tokens"] = 40 + 30*len(calls)
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": use})
	ev("message_stop", map[string]any{"type": "message_stop"})
	return b.String()
}

// simOpenAIReply is a chat completions stream: text or tool calls, then
// the usage chunk include_usage asks for, with the cached tokens.
func simOpenAIReply(script []simQuestion, q, round int, u usage) string {
	calls := simReplyCalls(script, q, round)
	ev := []string{chunkJSON(map[string]any{"role": "assistant", "content": ""}, nil)}
	finish := "tool_calls"
	if calls == nil {
		finish = "stop"
		if q >= 1 && q <= len(script) {
			ev = append(ev, chunkJSON(map[string]any{"content": script[q-1].answer}, nil))
		}
	}
	for i, id := range calls {
		ev = append(ev, chunkJSON(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": "call_" + id, "type": "function",
			"function": map[string]any{"name": "run_check", "arguments": fmt.Sprintf(`{"id": %q}`, id)}}}}, nil))
	}
	ev = append(ev, chunkJSON(map[string]any{}, finish))
	ev = append(ev, fmt.Sprintf(`{"id":"chatcmpl-Sim","object":"chat.completion.chunk","created":1764925200,"model":"gpt-4.1-2025-04-14","choices":[],`+
		`"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d,"audio_tokens":0},`+
		`"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}`,
		u.PromptTokens, 40, u.PromptTokens+40, u.CachedTokens))
	return sseBody(ev...)
}

// runCheck is the scripted session's tool: it prints call id's output
// and changes nothing, so it runs without approval.
var runCheck = tool{name: "run_check", desc: "run a check and print its output",
	params: `{"type":"object","properties":{"id":{"type":"string","description":"which check"}},"required":["id"]}`,
	run: func(_ context.Context, args map[string]any, out io.Writer) error {
		id, _ := args["id"].(string)
		_, err := io.WriteString(out, simOutput(id))
		return err
	}}

// cacheRun is one session's figures.
type cacheRun struct {
	sim        simTotals
	reported   totals // yaicli's json result
	reductions int    // the ladder's reductions, from the context actions
}

// saved is the share of the input cost the cache saved: Anthropic reads
// at 0.1x and writes at 1.25x, OpenAI's gpt-4.1 reads at 0.25x.
func (c cacheRun) saved(anthropic bool) float64 {
	p := float64(c.sim.prompt)
	if p == 0 {
		return 0
	}
	plain := p - float64(c.sim.cached+c.sim.written)
	if anthropic {
		return 1 - (plain+0.1*float64(c.sim.cached)+1.25*float64(c.sim.written))/p
	}
	return 1 - (plain+0.25*float64(c.sim.cached))/p
}

// share is the part of the prompt tokens read from the cache.
func (c cacheRun) share() float64 { return float64(c.sim.cached) / max(float64(c.sim.prompt), 1) }

// runCacheSession runs the scripted session as a REPL would, one agent
// over six turns, on the default path (temp HOME, default directories and
// caps), against a simulated provider under budgetTokens (0: the model's
// default budget), and returns what both sides counted.
func runCacheSession(t testing.TB, script []simQuestion, anthropic bool, budgetTokens int, env map[string]string) cacheRun {
	sim := newCacheSim(t, anthropic, script)
	vals := map[string]string{"HOME": t.TempDir(), "YAI_PROVIDER": "openai", "YAI_MODEL": "gpt-4.1", "YAI_BASE_URL": sim.srv.URL + "/v1", "YAI_API_KEY": "sk-test-0123456789abcdef"}
	if anthropic {
		vals["YAI_PROVIDER"], vals["YAI_MODEL"] = "anthropic", "claude-sonnet-4-5"
	}
	for k, v := range env {
		vals[k] = v
	}
	var warn bytes.Buffer
	cfg, err := loadConfig(configSources{env: func(k string) string { return vals[k] }, tmpDir: t.TempDir(), home: vals["HOME"], now: time.Now}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	var events, diag bytes.Buffer
	ev := newEvents(formatJSON, &events, time.Now)
	win := modelWindow{budget: budgetFor(budgetTokens, cfg.Model, windowOf(cfg.Model), "the table")}
	a := newAgent(cfg.agent(), cfg.redactor(), newClient(cfg.client(), io.Discard).send, win, newToolbox(cfg.toolbox(), cfg.redactor(), io.Discard, nil, []tool{runCheck}),
		agentIO{answer: io.Discard, raw: true, diag: &diag, ev: ev})
	h := []message{{Role: roleSystem, Content: fillRole(cfg.roles(), builtinRoles[roleDefault])}}
	for q := range script {
		h = append(h, message{Role: roleUser, Content: fmt.Sprintf("question %d: what do checks of part %d say?", q+1, q+1)})
		if h, err = a.eventTurn(context.Background(), h); err != nil {
			t.Fatalf("question %d: %v\n%s", q+1, err, diag.String())
		}
		sim.pause(time.Duration(30+15*q) * time.Second)
	}
	ev.finish(0)
	var result struct {
		Usage   totals
		Context []map[string]any
	}
	if err := json.Unmarshal(events.Bytes(), &result); err != nil {
		t.Fatalf("json result: %v", err)
	}
	if os.Getenv("YAICLI_SIMTRACE") != "" { // the reductions, beside serve's line per request
		for _, c := range result.Context {
			fmt.Println(c)
		}
	}
	return cacheRun{sim: sim.totals(), reported: result.Usage, reductions: ladderReductions(result.Context)}
}

// ladderReductions counts the ladder's reductions in a json result's context
// actions: a reduction that masked and then cut or dropped reports a
// context.mask and a context.trim, the second starting where the first
// ended.
func ladderReductions(actions []map[string]any) int {
	n, maskedTo := 0, -1.0
	for _, a := range actions {
		before, _ := a["before_tokens"].(float64)
		if a["type"] != "context.trim" || before != maskedTo {
			n++
		}
		maskedTo = -1
		if a["type"] == "context.mask" {
			maskedTo, _ = a["after_tokens"].(float64)
		}
	}
	return n
}

// cacheRow is one run of a scripted session: a provider, a budget (0: the
// model's default, 10M: an ideal append-only client that never reduces)
// and extra settings.
type cacheRow struct {
	name        string
	script      func() []simQuestion
	anthropic   bool
	budget      int
	env         map[string]string
	figuresOnly bool // the benchmark runs it, the test does not
}

// cacheRows are the runs the test and the benchmark make: both sessions
// (A, the shape; B, shaped otherwise), each provider, the ideal
// client, the model's default budget and a 40k one.
func cacheRows() []cacheRow {
	var rows []cacheRow
	for _, s := range []struct {
		name   string
		script func() []simQuestion
	}{{"A", simSession}, {"B", simSessionB}} {
		for _, p := range []struct {
			name      string
			anthropic bool
		}{{"anthropic", true}, {"openai-gpt-4.1", false}} {
			for _, b := range []int{10_000_000, 0, 40000} {
				rows = append(rows, cacheRow{name: fmt.Sprintf("%s/%s/%s", s.name, p.name, budgetName(b)), script: s.script, anthropic: p.anthropic,
					budget: b, figuresOnly: s.name == "B" && b == 10_000_000})
			}
		}
		// The mark at 0.9 moves the figures only through the result share
		// it sets (a sixth of the room above it): smaller results.
		rows = append(rows, cacheRow{name: s.name + "/anthropic/40000/mark-0.9", script: s.script, anthropic: true, budget: 40000,
			env: map[string]string{"YAI_CONTEXT_TRIM_TARGET": "0.9"}, figuresOnly: true})
	}
	return rows
}

// budgetName names a budget: 0 is the model's default, 10M the ideal
// client's.
func budgetName(budget int) string {
	switch budget {
	case 0:
		return "default"
	case 10_000_000:
		return "ideal"
	}
	return fmt.Sprint(budget)
}

// cacheTargets are the least share of the input cost saved (Anthropic)
// and of the prompt cached (OpenAI) a run must reach. At the default
// budget the 81% saved is met with 0.0-0.5 points to spare (81.0%,
// 81.5%), so the floor is 80%; at 40k, 74% and 85%, under the 75.4-76.5%
// and 87.2-88.0% measured. 40k cannot reach the 80%: were every
// reduction free (cacheRun.bound) A would save 76.9% and B 76.4%, the
// family's sessions 75.5% on average (BenchmarkPromptCacheFamily): what a
// 40k budget leaves is the fresh output's share of prompts that average
// 23-26k tokens (docs/CONTEXT.md).
func cacheTargets(row cacheRow) (saved, cached float64) {
	if row.budget == 40000 {
		return 0.74, 0.85
	}
	return 0.80, 0.88
}

// TestPromptCacheSession runs both scripted sessions against both
// simulated caches (cacheRows). In every run yaicli's reported prompt,
// cached and written tokens are the provider's, every request that only
// appends to the last one reads all of the last one from the cache (the
// breakpoints slide with the conversation, past a round of 24 blocks),
// the tools and the system prompt are the first request's in every one,
// OpenAI gets one prompt_cache_key, and the figures reach cacheTargets:
// at the default budget and at 40k, where the ladder reduces (trim.go).
// Each run's reductions are printed.
func TestPromptCacheSession(t *testing.T) {
	slowTest(t)
	t.Parallel()
	doc := docCacheFigures(t)
	for _, row := range cacheRows() {
		if row.figuresOnly {
			continue // the benchmark's: a second ideal client adds cpu-seconds under -race, not a check
		}
		got := runCacheSession(t, row.script(), row.anthropic, row.budget, row.env)
		if got.reported.CachedTokens != got.sim.cached || got.reported.CacheWriteTokens != got.sim.written || got.reported.PromptTokens != got.sim.prompt {
			t.Errorf("%s: yaicli reported %d prompt, %d cached, %d written; the provider %d, %d, %d",
				row.name, got.reported.PromptTokens, got.reported.CachedTokens, got.reported.CacheWriteTokens, got.sim.prompt, got.sim.cached, got.sim.written)
		}
		if got.sim.misses > 0 {
			t.Errorf("%s: %d requests appended to the last one but did not read all of it from the cache", row.name, got.sim.misses)
		}
		t.Logf("%-28s %d requests, %7d prompt tokens, %5.1f%% cached, %7d written, %5.1f%% of input cost saved (%.1f%% were reductions free), %d reductions (%d requests changed the history, %d tokens read again in full)",
			row.name, got.sim.requests, got.sim.prompt, 100*got.share(), got.sim.written, 100*got.saved(row.anthropic), 100*got.bound(row.anthropic), got.reductions, got.sim.breaks, got.sim.resent)
		saved, cached := cacheTargets(row)
		switch {
		case row.anthropic && got.saved(true) < saved:
			t.Errorf("%s saved %.1f%% of the input cost, want >= %.0f%%", row.name, 100*got.saved(true), 100*saved)
		case !row.anthropic && got.share() < cached:
			t.Errorf("%s cached %.1f%% of the prompt tokens, want >= %.0f%%", row.name, 100*got.share(), 100*cached)
		}
		checkDocCache(t, doc, row, got)
		if got.sim.leadChanges > 0 {
			t.Errorf("%s: %d requests changed the tools or the system prompt", row.name, got.sim.leadChanges)
		}
		if !row.anthropic && len(got.sim.keys) != 1 {
			t.Errorf("%s: %d distinct prompt_cache_key values in one session, want 1", row.name, len(got.sim.keys))
		}
	}
}

// BenchmarkPromptCache reports each run's cached share, the share of the
// input cost saved and the reductions (cacheRows). Run with:
// go test -run XXX -bench PromptCache -benchtime 1x
func BenchmarkPromptCache(b *testing.B) {
	for _, row := range cacheRows() {
		b.Run(row.name, func(b *testing.B) {
			for b.Loop() {
				got := runCacheSession(b, row.script(), row.anthropic, row.budget, row.env)
				b.ReportMetric(100*got.share(), "cached-%")
				b.ReportMetric(100*got.saved(row.anthropic), "saved-%")
				b.ReportMetric(float64(got.sim.prompt), "prompt-tokens")
				b.ReportMetric(float64(got.reductions), "reductions")
				b.ReportMetric(100*got.bound(row.anthropic), "free-%")
				b.ReportMetric(float64(got.sim.prompt)/float64(max(got.sim.requests, 1)), "mean-prompt")
				b.ReportMetric(float64(got.sim.early)/float64(max(got.sim.earlyN, 1)), "early-mean-prompt")
				b.ReportMetric(float64(got.sim.earlyN), "early-requests")
			}
		})
	}
}
