package main

// This file splits <think>...</think> spans out of answer text as it
// streams, across delta boundaries: the reasoning some models put inline.

import (
	"strings"
)

// thinkSplitter separates <think>...</think> spans from answer text across
// delta boundaries, holding back a partial tag until it can tell.
type thinkSplitter struct {
	inside  bool
	pending string
}

// split returns the answer text and the reasoning in s, holding back a partial tag.
func (t *thinkSplitter) split(s string) (text, reasoning string) {
	s = t.pending + s
	t.pending = ""
	var out, why strings.Builder
	for s != "" {
		tag := "<think>"
		if t.inside {
			tag = "</think>"
		}
		if i := strings.Index(s, tag); i >= 0 {
			t.write(&out, &why, s[:i])
			t.inside = !t.inside
			s = s[i+len(tag):]
			continue
		}
		keep := partialSuffix(s, tag)
		t.write(&out, &why, s[:len(s)-keep])
		t.pending = s[len(s)-keep:]
		break
	}
	return out.String(), why.String()
}

// write adds s to the answer or the reasoning, by where the splitter is.
func (t *thinkSplitter) write(out, why *strings.Builder, s string) {
	if t.inside {
		why.WriteString(s)
	} else {
		out.WriteString(s)
	}
}

// flush returns what was held back at the end of the stream.
func (t *thinkSplitter) flush() (text, reasoning string) {
	p := t.pending
	t.pending = ""
	if t.inside {
		return "", p
	}
	return p, ""
}

// partialSuffix is the length of the longest suffix of s that is a proper
// prefix of tag.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
