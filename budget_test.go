package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// sample is one line of testdata/tokens.jsonl.
type sample struct {
	Cat    string `json:"cat"`
	Src    string `json:"src"`
	Text   string `json:"text"`
	O200k  int    `json:"o200k"`
	Cl100k int    `json:"cl100k"`
	Claude int    `json:"claude"`
}

func loadSamples(t testing.TB) []sample {
	t.Helper()
	f, err := os.Open("testdata/tokens.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var s sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestEstimateCalibration(t *testing.T) {
	for _, s := range loadSamples(t) {
		est := estimateTokens(s.Text)
		for _, real := range []struct {
			name string
			n    int
		}{{"o200k", s.O200k}, {"cl100k", s.Cl100k}} {
			r := float64(est) / float64(real.n)
			t.Logf("%-12s %-22s %-6s est=%6d real=%6d ratio=%.2f", s.Cat, s.Src[:min(len(s.Src), 22)], real.name, est, real.n, r)
			if r < 0.85 || r > 1.6 {
				t.Errorf("estimate(%s %s) / %s = %.2f, want within [0.85, 1.6]", s.Cat, s.Src, real.name, r)
			}
		}
	}
}

var _ = strings.Repeat
