package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The cache simulation's figures beside the runs (cache_test.go): what a
// run would save were its reductions free, docs/CONTEXT.md's table read
// back, and a family of sessions of A's and B's shapes on other seeds.

// bound is the share of the input cost a run would save were its
// reductions free: every request reads all it sent before from the cache
// and writes only its fresh blocks (never sent before: new tool output,
// answers, stubs). It prices the same prompts as the run, so bound less
// saved is what rewrites cost, and what bound leaves is the fresh part's
// share of the prompts: the size of the prompts (the budget, the sawtooth
// between the mark and it) and of the output entering.
func (c cacheRun) bound(anthropic bool) float64 {
	p, f := float64(c.sim.prompt), float64(c.sim.fresh)
	if p == 0 {
		return 0
	}
	if anthropic {
		return 1 - (0.1*(p-f)+1.25*f)/p
	}
	return 1 - (0.25*(p-f)+f)/p
}

// docCacheRE is a row of docs/CONTEXT.md's cache table: the session, then
// per budget (ideal, default, 40k) Anthropic's saved share (history
// changes) / OpenAI's cached share (history changes), then Anthropic's
// saved share at 40k were the reductions free.
var docCacheRE = regexp.MustCompile(`(?m)^\| ([AB]) \| ([\d.]+)% / ([\d.]+)% \| ([\d.]+)% \((\d+)\) / ([\d.]+)% \((\d+)\) \| ([\d.]+)% \((\d+)\) / ([\d.]+)% \((\d+)\) \| ([\d.]+)% \|$`)

// docCacheFigures is what docs/CONTEXT.md's cache table says of each run
// (by cacheRow name): the share (percent) and the history changes, and
// under "<A|B>/free" the 40k Anthropic run's bound.
func docCacheFigures(t *testing.T) map[string][2]float64 {
	rows := docCacheRE.FindAllStringSubmatch(docText(t, docContext), -1)
	if len(rows) != 2 {
		t.Fatalf("%s: %d rows of the cache table match %s, want A and B", docContext, len(rows), docCacheRE)
	}
	out := map[string][2]float64{}
	num := func(s string) float64 {
		var f float64
		fmt.Sscan(s, &f)
		return f
	}
	for _, m := range rows {
		out[m[1]+"/anthropic/ideal"] = [2]float64{num(m[2]), 0}
		out[m[1]+"/openai-gpt-4.1/ideal"] = [2]float64{num(m[3]), 0}
		out[m[1]+"/anthropic/default"] = [2]float64{num(m[4]), num(m[5])}
		out[m[1]+"/openai-gpt-4.1/default"] = [2]float64{num(m[6]), num(m[7])}
		out[m[1]+"/anthropic/40000"] = [2]float64{num(m[8]), num(m[9])}
		out[m[1]+"/openai-gpt-4.1/40000"] = [2]float64{num(m[10]), num(m[11])}
		out[m[1]+"/free"] = [2]float64{num(m[12]), 0}
	}
	return out
}

// checkDocCache compares a run with docs/CONTEXT.md's table: the figure
// within 0.25 points (a run's stubs name its temporary directory, whose
// length moves the tokens a little), the history changes exactly.
func checkDocCache(t *testing.T, doc map[string][2]float64, row cacheRow, got cacheRun) {
	figure := 100 * got.share()
	if row.anthropic {
		figure = 100 * got.saved(true)
	}
	want, ok := doc[row.name]
	if !ok {
		t.Errorf("%s has no figure for %s", docContext, row.name)
		return
	}
	if d := figure - want[0]; d > 0.25 || d < -0.25 || want[1] != float64(got.sim.breaks) {
		t.Errorf("%s says %s: %.1f%% (%d), measured %.1f%% (%d)", docContext, row.name, want[0], int(want[1]), figure, got.sim.breaks)
	}
	if row.anthropic && row.budget == 40000 {
		s := strings.SplitN(row.name, "/", 2)[0] + "/free"
		if d := 100*got.bound(true) - doc[s][0]; d > 0.25 || d < -0.25 {
			t.Errorf("%s says %s: %.1f%%, measured %.1f%%", docContext, s, doc[s][0], 100*got.bound(true))
		}
	}
}

// familyShapes are sessions of A's and of B's shape drawn from other
// seeds (their outputs differ too: the ids carry the seed).
func familyShapes() []sessionShape {
	var out []sessionShape
	for k := uint64(1); k <= 6; k++ {
		out = append(out, sessionShape{seed: [2]uint64{33 + 10*k, 2026}, questions: 6, least: 4, extra: 2, wideQ: 3, wideRound: 1, wideN: 12,
			prefix: fmt.Sprintf("s%d-", k), answer: strings.Repeat("the outputs agree; nothing failed in this part. ", 8)})
		out = append(out, sessionShape{seed: [2]uint64{35 + 10*k, 1205}, questions: 7, least: 5, extra: 3, wideQ: 5, wideRound: 2, wideN: 8,
			prefix: fmt.Sprintf("b-s%d-", k), answer: strings.Repeat("two checks disagree on the totals; the rest is as expected. ", 5)})
	}
	return out
}

// BenchmarkPromptCacheFamily runs the family's sessions (familyShapes)
// against Anthropic's cache at a budget and reports the least, the mean
// and the most share of the input cost saved, and the same were reductions free
// (cacheRun.bound): the gap between the two is what rewrites cost. Run
// with: go test -run XXX -bench PromptCacheFamily -benchtime 1x
func BenchmarkPromptCacheFamily(b *testing.B) {
	for _, budget := range []int{40000, 0} {
		b.Run(budgetName(budget), func(b *testing.B) {
			for b.Loop() {
				least, most, leastFree, sum, sumFree := 1.0, 0.0, 1.0, 0.0, 0.0
				shapes := familyShapes()
				for _, shape := range shapes {
					got := runCacheSession(b, simSessionOf(shape), true, budget, nil)
					least, most, leastFree = min(least, got.saved(true)), max(most, got.saved(true)), min(leastFree, got.bound(true))
					sum, sumFree = sum+got.saved(true), sumFree+got.bound(true)
				}
				n := float64(len(shapes))
				b.ReportMetric(100*least, "least-saved-%")
				b.ReportMetric(100*sum/n, "mean-saved-%")
				b.ReportMetric(100*most, "most-saved-%")
				b.ReportMetric(100*leastFree, "least-free-%")
				b.ReportMetric(100*sumFree/n, "mean-free-%")
			}
		})
	}
}

// TestUsageEventsCarryCache: the stream-json usage event has each
// request's cached and written tokens, and the result their sums.
func TestUsageEventsCarryCache(t *testing.T) {
	var b bytes.Buffer
	ev := newEvents(formatStreamJSON, &b, func() time.Time { return time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC) })
	ev.usage(usage{PromptTokens: 5000, CompletionTokens: 10, CachedTokens: 4000, CacheWriteTokens: 900}, 4900)
	ev.usage(usage{PromptTokens: 6000, CompletionTokens: 10, CachedTokens: 4900, CacheWriteTokens: 1000}, 5900)
	ev.finish(0)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	var first, result struct {
		Type             string
		CachedTokens     int `json:"cached_tokens"`
		CacheWriteTokens int `json:"cache_write_tokens"`
		Usage            totals
	}
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[len(lines)-1]), &result)
	if first.Type != "usage" || first.CachedTokens != 4000 || first.CacheWriteTokens != 900 {
		t.Errorf("usage event = %s", lines[0])
	}
	if result.Type != "result" || result.Usage.CachedTokens != 8900 || result.Usage.CacheWriteTokens != 1900 || result.Usage.PromptTokens != 11000 {
		t.Errorf("result = %s", lines[len(lines)-1])
	}
}
