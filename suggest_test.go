package main

import "testing"

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"model", "model", 0}, {"modle", "model", 1}, {"max-turn", "max-turns", 1}, {"verbos", "verbose", 1}, {"bogus", "code", 4}, {"", "abc", 3}} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
