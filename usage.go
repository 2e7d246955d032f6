package main

import (
	"fmt"
	"io"
	"strings"
)

// usage is the token count the provider reported for one request, in one
// shape for every provider: PromptTokens is the whole prompt, the parts
// read from and written to the provider's prompt cache included, as the
// wires differ on that (Anthropic's input_tokens leaves them out).
type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	CachedTokens     int `json:"cached_tokens"`      // of PromptTokens, read from the cache
	CacheWriteTokens int `json:"cache_write_tokens"` // of PromptTokens, written to it (billed above the input price)
}

// usageSum is the usage providers reported for some requests: the whole
// prompts, the parts of them read from the prompt cache and written to it,
// and the answers.
type usageSum struct {
	Requests, Prompt, Cached, Written, Completion int
}

// add counts one request's reported usage; negative counts (a server's
// placeholder) count as none.
func (s *usageSum) add(u usage) {
	s.Requests++
	s.Prompt += max(u.PromptTokens, 0)
	s.Cached += max(u.CachedTokens, 0)
	s.Written += max(u.CacheWriteTokens, 0)
	s.Completion += max(u.CompletionTokens, 0)
}

// plus adds o's requests to s.
func (s *usageSum) plus(o usageSum) {
	s.Requests += o.Requests
	s.Prompt += o.Prompt
	s.Cached += o.Cached
	s.Written += o.Written
	s.Completion += o.Completion
}

// cachedShare is the part of the prompt tokens read from the cache, 0 to 1.
func (s usageSum) cachedShare() float64 {
	if s.Prompt <= 0 {
		return 0
	}
	return float64(s.Cached) / float64(s.Prompt)
}

// usageTally sums the reported usage of a session and of its turn under
// way, for /context and the line --verbose prints after a one-shot run.
// The agent adds every reply's usage with the request's history.
type usageTally struct {
	session, turn usageSum
	sub           usageSum // the sub-agents' part of session (subagent.go)
}

// add counts one request. A request whose history ends with the person's
// message starts a turn: its tool rounds end with results.
func (t *usageTally) add(u usage, h []message) {
	if len(h) > 0 && h[len(h)-1].Role == roleUser {
		t.turn = usageSum{}
	}
	t.session.add(u)
	t.turn.add(u)
}

// addSub counts a sub-agent's requests, s, as the session's and the
// turn's: it ran for the turn under way.
func (t *usageTally) addSub(s usageSum) {
	t.session.plus(s)
	t.turn.plus(s)
	t.sub.plus(s)
}

// price is what a model costs, in dollars per million tokens, and where
// the figures were read. write is a 5-minute cache write; for models that
// bill no writes it equals input.
type price struct {
	model                      string // a prefix of the model's name, after any "vendor/"
	input, read, write, output float64
	source                     string
}

// listPrices are the few models whose prices yaicli knows, longest prefix
// first where one is a prefix of another. Anthropic bills 5-minute writes
// at 1.25x and reads at 0.1x the input price, 1-hour writes at 2x;
// gpt-4.1 and gpt-4o bill cached input at a quarter or a half and no
// writes. A model not listed gets no cost line: a wrong price is worse.
var listPrices = []price{
	{"gpt-4.1-mini", 0.40, 0.10, 0.40, 1.60, "openai.com/api/pricing"},
	{"gpt-4.1", 2.00, 0.50, 2.00, 8.00, "openai.com/api/pricing"},
	{"gpt-4o-mini", 0.15, 0.075, 0.15, 0.60, "openai.com/api/pricing"},
	{"gpt-4o", 2.50, 1.25, 2.50, 10.00, "openai.com/api/pricing"},
	{"claude-sonnet-4", 3.00, 0.30, 3.75, 15.00, "platform.claude.com/docs/en/about-claude/pricing"},
	{"claude-haiku-4-5", 1.00, 0.10, 1.25, 5.00, "platform.claude.com/docs/en/about-claude/pricing"},
	{"claude-opus-4-5", 5.00, 0.50, 6.25, 25.00, "platform.claude.com/docs/en/about-claude/pricing"},
}

// pricing is what a session's price depends on: the model and
// PROMPT_CACHE_TTL (a 1-hour cache writes at twice the input price).
type pricing struct{ model, cacheTTL string }

// priceOf is the price of q's model, false when it is not in the table.
func priceOf(q pricing) (price, bool) {
	name := strings.ToLower(q.model)
	name = name[strings.LastIndex(name, "/")+1:]
	for _, p := range listPrices {
		if strings.HasPrefix(name, p.model) {
			if q.cacheTTL == "1h" && p.write != p.input {
				p.write = 2 * p.input
			}
			return p, true
		}
	}
	return price{}, false
}

// cost is what s cost at p, in dollars: the input (plain, read, written)
// and the output.
func (p price) cost(s usageSum) (input, output float64) {
	plain := max(s.Prompt-s.Cached-s.Written, 0)
	input = (float64(plain)*p.input + float64(s.Cached)*p.read + float64(s.Written)*p.write) / 1e6
	return input, float64(s.Completion) * p.output / 1e6
}

// saved is the share of the input cost the cache saved: against the same
// prompts all billed at the input price. Writes above that price count
// against it, so a session that only writes saves less than nothing.
func (p price) saved(s usageSum) float64 {
	full := float64(s.Prompt) * p.input / 1e6
	if full <= 0 {
		return 0
	}
	in, _ := p.cost(s)
	return 1 - in/full
}

// describe is one sum in words after its prompt tokens: the requests,
// the cached share, the writes, the answer tokens.
func (s usageSum) describe() string {
	reqs := fmt.Sprintf("%d requests", s.Requests)
	if s.Requests == 1 {
		reqs = "1 request"
	}
	w := fmt.Sprintf("prompt tokens in %s, %.1f%% read from the prompt cache", reqs, 100*s.cachedShare())
	if s.Written > 0 {
		w += fmt.Sprintf(", %d written to it", s.Written)
	}
	return w + fmt.Sprintf("; %d answer tokens", s.Completion)
}

// costLine is the session's cost at q's model's prices, "" when the
// model is not in the table.
func (t usageTally) costLine(q pricing) string {
	p, ok := priceOf(q)
	if !ok || t.session.Requests == 0 {
		return ""
	}
	in, out := p.cost(t.session)
	return fmt.Sprintf("$%.4f (input $%.4f, the cache saved %.0f%% of it; output $%.4f) at %s's list prices, %s",
		in+out, in, 100*p.saved(t.session), out, p.model, p.source)
}

// writeUsage prints /context's lines on what the provider reported for
// this session and this turn, and the cost where the price is known.
func (t usageTally) writeUsage(w io.Writer, q pricing) {
	if t.session.Requests == 0 {
		return
	}
	fmt.Fprintf(w, "  %-26s %9d  %s\n", "this session (reported)", t.session.Prompt, t.session.describe())
	io.WriteString(w, subagentUsage(t.sub))
	if t.turn.Requests > 0 {
		fmt.Fprintf(w, "  %-26s %9d  %s\n", "this turn (reported)", t.turn.Prompt, t.turn.describe())
	}
	if c := t.costLine(q); c != "" {
		fmt.Fprintf(w, "  %-26s %9s  %s\n", "cost of this session", "", c)
	}
}

// verboseLine is the line a one-shot run prints on stderr with --verbose.
func (t usageTally) verboseLine(q pricing) string {
	line := fmt.Sprintf("yaicli: usage: %d %s", t.session.Prompt, t.session.describe())
	if c := t.costLine(q); c != "" {
		line += "; cost " + c
	}
	return line
}

// subagentUsage is /context's line on what sub-agents used, part of the
// session's figures above it; "" when none ran.
func subagentUsage(s usageSum) string {
	if s.Requests == 0 {
		return ""
	}
	return fmt.Sprintf("  %-26s %9d  %s\n", "of which sub-agents", s.Prompt, s.describe())
}
