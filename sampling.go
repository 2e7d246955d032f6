package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The provider settings YAICLI passes through: each is sent only when it is
// set, in the field the provider reads, and checked when the configuration
// is loaded, so a bad value is a warning before any request and never a
// rejection after one. Empty means "not sent": the provider's own default
// applies.

// sampling are the optional request settings; nil (NumCtx: 0) means not
// set.
type sampling struct {
	TopK             *int
	Seed             *int64
	FrequencyPenalty *float64
	PresencePenalty  *float64
	ThinkingBudget   *int // Anthropic: 1024 or more; Gemini: 0 = off, -1 = dynamic
	NumCtx           int  // Ollama's context window (ollamawire.go); 0 = the server's
	// PromptCache is PROMPT_CACHE=auto: breakpoints and a cache key are
	// sent (usage.go, anthropic.go); CacheTTL is PROMPT_CACHE_TTL, 5m or 1h.
	PromptCache bool
	CacheTTL    string
}

// minNumCtx is the smallest NUM_CTX taken: Ollama raises anything lower to
// 2048 for most models, and a window smaller than one tool schema is no
// window.
const minNumCtx = 256

// anthropicMinThinking is the smallest budget_tokens Anthropic accepts.
const anthropicMinThinking = 1024

// loadSampling reads the settings, warning about a value out of range or
// one the provider has no field for (and then not sending it).
func (c *config) loadSampling(p parser) {
	c.TopK = p.optInt("TOP_K", 1, math.MaxInt32, "a whole number >= 1")
	if s := p.str("SEED"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			c.Seed = &n
		} else {
			p.fallback("SEED", "a whole number")
		}
	}
	c.FrequencyPenalty = p.optFloat("FREQUENCY_PENALTY", -2, 2)
	c.PresencePenalty = p.optFloat("PRESENCE_PENALTY", -2, 2)
	c.ThinkingBudget = p.optInt("THINKING_BUDGET", -1, math.MaxInt32, "a whole number of tokens (Gemini also takes 0 = off and -1 = dynamic)")
	if n := p.optInt("NUM_CTX", minNumCtx, math.MaxInt32, fmt.Sprintf("a whole number of tokens >= %d", minNumCtx)); n != nil {
		c.NumCtx = *n
	}
	c.PromptCache = p.oneOf("PROMPT_CACHE", "auto", "off") == "auto"
	c.CacheTTL = p.oneOf("PROMPT_CACHE_TTL", "5m", "1h")
	c.checkSamplingProvider(p)
}

// checkSamplingProvider drops, with a warning, settings the provider has
// no field for: the Messages API has no seed or penalties, thinking
// budgets are Anthropic's and Gemini's, num_ctx is Ollama's.
func (c *config) checkSamplingProvider(p parser) {
	unsent := func(k, why string) {
		fmt.Fprintf(p.warn, "yaicli: %s=%s from %s is not sent: %s\n", k, p.str(k), p.from[k], why)
		p.vals[k], p.from[k] = "", "default"
	}
	if c.Provider == "anthropic" {
		if c.Seed != nil {
			c.Seed = nil
			unsent("SEED", "Anthropic's Messages API has no seed")
		}
		if c.FrequencyPenalty != nil {
			c.FrequencyPenalty = nil
			unsent("FREQUENCY_PENALTY", "Anthropic's Messages API has no frequency_penalty")
		}
		if c.PresencePenalty != nil {
			c.PresencePenalty = nil
			unsent("PRESENCE_PENALTY", "Anthropic's Messages API has no presence_penalty")
		}
	}
	switch b := c.ThinkingBudget; {
	case b == nil:
	case c.Provider == "anthropic" && *b < anthropicMinThinking:
		c.ThinkingBudget = nil
		unsent("THINKING_BUDGET", fmt.Sprintf("Anthropic takes a thinking budget of %d tokens or more", anthropicMinThinking))
	case c.Provider != "anthropic" && c.Provider != "gemini":
		c.ThinkingBudget = nil
		unsent("THINKING_BUDGET", "it is sent to PROVIDER=anthropic and gemini only; for "+c.Provider+" put the field its API documents in EXTRA_BODY")
	}
	if c.NumCtx > 0 && c.Provider != "ollama" {
		c.NumCtx = 0
		unsent("NUM_CTX", "it is Ollama's setting (PROVIDER=ollama); for other servers CONTEXT_BUDGET_TOKENS sets the budget")
	}
	if _, thinking := anthropicThinking(c.sampling, c.ReasoningEffort); thinking && c.Provider == "anthropic" && c.TopK != nil {
		c.TopK = nil
		unsent("TOP_K", "Anthropic refuses top_k while thinking (THINKING_BUDGET or REASONING_EFFORT is set)")
	}
}

// optInt is k as a whole number from lo to hi, nil when empty; a value
// out of range warns and is not sent.
func (p parser) optInt(k string, lo, hi int, want string) *int {
	s := p.str(k)
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		p.fallback(k, want)
		return nil
	}
	return &n
}

// optFloat is k as a number from lo to hi, nil when empty.
func (p parser) optFloat(k string, lo, hi float64) *float64 {
	s := p.str(k)
	if s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < lo || f > hi {
		p.fallback(k, fmt.Sprintf("a number from %g to %g", lo, hi))
		return nil
	}
	return &f
}

// openaiSampling adds the set settings to an OpenAI-compatible body:
// top_k, seed and the penalties as OpenAI and most compatible servers name
// them, and Gemini's thinking budget as its OpenAI-compatible endpoint
// documents it (extra_body.google.thinking_config; it refuses
// reasoning_effort beside it, so that is left out).
func openaiSampling(s sampling, provider string, b map[string]any) {
	if s.TopK != nil {
		b["top_k"] = *s.TopK
	}
	if s.Seed != nil {
		b["seed"] = *s.Seed
	}
	if s.FrequencyPenalty != nil {
		b["frequency_penalty"] = *s.FrequencyPenalty
	}
	if s.PresencePenalty != nil {
		b["presence_penalty"] = *s.PresencePenalty
	}
	if s.ThinkingBudget != nil && provider == "gemini" {
		delete(b, "reasoning_effort")
		b["extra_body"] = map[string]any{"google": map[string]any{"thinking_config": map[string]any{
			"thinking_budget": *s.ThinkingBudget, "include_thoughts": true}}}
	}
}

// anthropicThinking is the thinking budget of an Anthropic request:
// THINKING_BUDGET, else that of REASONING_EFFORT (effort); ok is false for none.
func anthropicThinking(s sampling, effort string) (budget int, ok bool) {
	if s.ThinkingBudget != nil {
		return *s.ThinkingBudget, true
	}
	budget, ok = anthropicBudgets[strings.ToLower(effort)]
	return budget, ok
}

// anthropicBudgets are thinking budgets for REASONING_EFFORT.
var anthropicBudgets = map[string]int{"low": 1024, "medium": 4096, "high": 16384}
