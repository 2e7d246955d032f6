package main

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomHistory builds a valid history: system messages, then groups of a
// user message, assistant tool-call rounds with their results, and an answer.
func randomHistory(r *rand.Rand, groups int) []message {
	h := []message{{Role: roleSystem, Content: "sys"}}
	if r.Intn(2) == 0 {
		h = append(h, message{Role: roleSystem, Content: "context"})
	}
	id := 0
	for g := 0; g < groups; g++ {
		h = append(h, message{Role: roleUser, Content: strings.Repeat("u", r.Intn(400))})
		for round := r.Intn(3); round > 0; round-- {
			var calls []toolCall
			for c := 1 + r.Intn(3); c > 0; c-- {
				id++
				calls = append(calls, call(fmt.Sprintf("call_%d", id), "fs_read_file", `{"file_paths":"x"}`))
			}
			h = append(h, message{Role: roleAssistant, ToolCalls: calls})
			for _, c := range calls {
				h = append(h, message{Role: roleTool, ToolCallID: c.ID, Name: "fs_read_file", Content: strings.Repeat("t", r.Intn(3000))})
			}
		}
		if r.Intn(4) > 0 {
			h = append(h, message{Role: roleAssistant, Content: strings.Repeat("a", r.Intn(500))})
		}
	}
	return h
}

// corrupt damages a history the ways cancellation and bad files do.
func corrupt(r *rand.Rand, h []message) []message {
	h = append([]message(nil), h...)
	for n := r.Intn(4); n > 0 && len(h) > 1; n-- {
		i := 1 + r.Intn(len(h)-1)
		switch r.Intn(3) {
		case 0: // lose a message
			h = append(h[:i], h[i+1:]...)
		case 1: // a stray tool message
			h = append(h[:i], append([]message{{Role: roleTool, ToolCallID: "ghost", Content: "x"}}, h[i:]...)...)
		case 2: // cut the history here, as a cancel would
			h = h[:i]
		}
	}
	return h
}

func totalTokens(h []message) int {
	n := 0
	for _, m := range h {
		n += messageTokens(m)
	}
	return n
}

func TestTrimProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		h := randomHistory(r, 1+r.Intn(12))
		limit := 50 + r.Intn(8000)
		got, rep := trimToBudget(h, 0, trimPolicy{limit: limit, target: limit * 3 / 4, keep: 2}, messageTokens, nil)
		got = validate(got)
		if n := orphans(got); n != 0 {
			t.Fatalf("trim left %d orphans: %+v", n, got)
		}
		if leadLen(got) != leadLen(h) || got[0].Content != "sys" {
			t.Fatalf("trim lost system messages")
		}
		// Over budget only when the newest group alone is too big, and then
		// only after shrinking what can be shrunk.
		if total := totalTokens(got); total > limit && len(groupStarts(got)) > 1 {
			t.Fatalf("trim left %d tokens over limit %d with %d groups", total, limit, len(groupStarts(got)))
		}
		again, rep2 := trimToBudget(got, 0, trimPolicy{limit: limit, target: limit * 3 / 4, keep: 2}, messageTokens, nil)
		if !sameHistory(validate(again), got) && rep2.shrunk == 0 {
			t.Fatalf("trim is not idempotent: %d groups dropped the second time", rep2.groups)
		}
		if rep.groups > 0 && rep.after >= rep.before {
			t.Fatalf("dropping groups freed nothing: %+v", rep)
		}
		// The newest group is never dropped.
		if last := h[groupStarts(h)[len(groupStarts(h))-1]]; got[groupStarts(got)[len(groupStarts(got))-1]].Content != last.Content {
			t.Fatalf("the newest group was dropped")
		}
	}
}

func TestValidateRepairs(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 3000; i++ {
		h := corrupt(r, randomHistory(r, 1+r.Intn(6)))
		v := validate(h)
		if n := orphans(v); n != 0 {
			t.Fatalf("validate left %d orphans in %+v", n, v)
		}
		if !sameHistory(validate(v), v) {
			t.Fatalf("validate is not idempotent")
		}
	}
	h := []message{{Role: roleSystem}, {Role: roleUser, Content: "q"}, {Role: roleAssistant, ToolCalls: []toolCall{call("a", "x", "{}"), call("b", "x", "{}")}},
		{Role: roleTool, ToolCallID: "a", Content: "ok"}}
	v := validate(h)
	if len(v) != 5 || v[4].ToolCallID != "b" || v[4].Content != cancelledResult {
		t.Errorf("validate(call without result) = %+v", v)
	}
}

func TestShrinkCurrentGroup(t *testing.T) {
	big := truncate(strings.Repeat("result line\n", 20000), 32000)
	h := []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "go"},
		{Role: roleAssistant, ToolCalls: []toolCall{call("1", "execute_shell_command", "{}")}},
		{Role: roleTool, ToolCallID: "1", Name: "execute_shell_command", Content: big.text(32000), clip: big}}
	got, rep := trimToBudget(h, 0, trimPolicy{limit: 3000, target: 2250, keep: 2}, messageTokens, nil)
	if rep.shrunk != 1 || totalTokens(got) > 3000 || !strings.Contains(got[3].Content, "characters omitted") {
		t.Errorf("shrink: %+v, %d tokens", rep, totalTokens(got))
	}
	if h[3].Content != big.text(32000) {
		t.Error("trimToBudget changed its input")
	}
}

// BenchmarkTrim trims histories of 1k, 10k and 100k messages; a constant
// ns/msg across sizes shows the time is linear.
func BenchmarkTrim(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := rand.New(rand.NewSource(3))
			var h []message
			for len(h) < n {
				h = append(h, randomHistory(r, 50)...)
			}
			h = validate(h[:n])
			b.ReportAllocs()
			for b.Loop() {
				trimToBudget(h, 0, trimPolicy{limit: 20000, target: 15000, keep: 2}, messageTokens, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(h)), "ns/msg")
		})
	}
}

// orphans counts tool messages without a preceding call, calls without a
// result, and call ids that are missing or used before; validate(h)
// always has none.
func orphans(h []message) int {
	n := 0
	open := map[string]bool{}
	used := map[string]bool{}
	for _, m := range h {
		switch {
		case m.Role == roleTool:
			if !open[m.ToolCallID] {
				n++
			}
			delete(open, m.ToolCallID)
		default:
			n += len(open)
			open = map[string]bool{}
			for _, tc := range m.ToolCalls {
				if tc.ID == "" || used[tc.ID] {
					n++
				}
				used[tc.ID] = true
				open[tc.ID] = true
			}
		}
	}
	return n + len(open)
}
