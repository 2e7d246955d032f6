package main

import (
	"fmt"
	"strings"
	"testing"
)

// /context shows the provider's last prompt count even when it did not
// calibrate the estimator (a local server that cut the conversation).
func TestContextShowsIgnoredReport(t *testing.T) {
	cfg, _ := load(t, "", nil, map[string]string{"PROVIDER": "ollama", "CONTEXT_TRIM_TARGET": "0.6"})
	var out strings.Builder
	a := &agent{o: cfg.agent(), stdout: &out, stderr: &out, budget: budget{tokens: 10000, source: "CONTEXT_BUDGET_TOKENS"}}
	h := []message{{Role: roleUser, Content: strings.Repeat("word ", 3200)}} // ~3000 tokens (3200 in o200k and cl100k)
	a.observe(reply{Usage: usage{PromptTokens: 1000}}, h, nil)
	out.Reset()
	writeContext(&out, a.contextReport([]message{{Role: roleSystem, Content: "s"}}))
	est := fmt.Sprint(a.requestTokens(h, nil))
	for _, want := range []string{`low-water mark\s+6000\s+60% of the budget`, `last reported by provider\s+1000\s+prompt tokens \(our estimate of that request: ` + est + `; not used to calibrate: far below it.*cut the conversation`} {
		if !matches(want, out.String()) {
			t.Errorf("/context lacks %q:\n%s", want, out.String())
		}
	}
	// A tool round on a local server is not a cut: /context says which.
	tools := []toolSpec{{Type: "function", Function: toolFunction{Name: "t", Description: "d"}}}
	round := []message{{Role: roleUser, Content: "hi"}, {Role: roleAssistant, ToolCalls: []toolCall{{ID: "1", Type: "function", Function: functionCall{Name: "t", Arguments: "{}"}}}}, {Role: roleTool, ToolCallID: "1", Content: "ok"}}
	a.observe(reply{Usage: usage{PromptTokens: 40}}, round, tools)
	out.Reset()
	writeContext(&out, a.contextReport(round))
	if want := `not used to calibrate: a tool round`; !matches(want, out.String()) || matches(`cut the conversation`, out.String()) {
		t.Errorf("/context after a tool round lacks %q or blames a cut:\n%s", want, out.String())
	}
}
