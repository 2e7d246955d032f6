package main

import (
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
	if s.ThinkingBudget != nil && provider == providerGemini {
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
