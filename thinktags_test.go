package main

import (
	"strings"
	"testing"
)

// TestThinkSplitter: <think> spans split into reasoning however the
// deltas cut the tags.
func TestThinkSplitter(t *testing.T) {
	var ts thinkSplitter
	var text, why strings.Builder
	for _, piece := range []string{"<", "think>a", "b</thi", "nk>ans", "wer <thin", "k>c"} {
		x, y := ts.split(piece)
		text.WriteString(x)
		why.WriteString(y)
	}
	x, y := ts.flush()
	text.WriteString(x)
	why.WriteString(y)
	if text.String() != "answer " || why.String() != "abc" {
		t.Errorf("split = %q / %q", text.String(), why.String())
	}
}
