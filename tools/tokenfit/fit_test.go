package main

import (
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPieceNames: the names are read from the estimator's own list, in
// order, ending before nPieces.
func TestPieceNames(t *testing.T) {
	names, err := pieceNames("../../tokenscan.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 10 || names[0] != "pWord" || strings.HasPrefix(names[len(names)-1], "n") {
		t.Errorf("pieceNames = %v", names)
	}
}

// TestFitPricesFindsLinearPrices: on samples whose real count is 2 per
// word and 0.5 per punctuation mark, the fit finds those prices times
// fitTarget, and leaves a piece no sample has at its first price.
func TestFitPricesFindsLinearPrices(t *testing.T) {
	names, err := pieceNames("../../tokenscan.go")
	if err != nil {
		t.Fatal(err)
	}
	d := &data{names: names}
	word, punct, tab := d.piece("pWord"), d.piece("pPunct"), d.piece("pTab")
	for i := range 40 {
		c := make([]int32, len(names))
		c[word], c[punct] = int32(10+i), int32(5+3*(i%7))
		d.samples = append(d.samples, &sample{O200k: 2*(10+i) + (5+3*(i%7))/2, pieces: c})
	}
	init := make([]float64, len(names))
	for j := range init {
		init[j] = 1
	}
	p := d.fitPrices(familyAim("o200k"), init)
	if math.Abs(p[word]-2*fitTarget) > 0.1 || math.Abs(p[punct]-0.5*fitTarget) > 0.1 || p[tab] != 1 {
		t.Errorf("fitted pWord %v, pPunct %v, pTab %v; want about %.2f, %.2f, and 1", p[word], p[punct], p[tab], 2*fitTarget, 0.5*fitTarget)
	}
}

// TestPriceSource: a table reads as the Go literal tokenfamily.go holds.
func TestPriceSource(t *testing.T) {
	d := &data{names: []string{"pWord", "pPunct"}}
	got := d.priceSource("o200k", []float64{0.947, 0.5})
	want := "o200kFamily = family{\"o200k\", &prices{\n\tpWord: 0.947, pPunct: 0.5,\n}}"
	if got != want {
		t.Errorf("priceSource = %q, want %q", got, want)
	}
}

// TestExportBuilds: the test tokenfit lays over package main still
// compiles against the estimator (go vet type-checks it), so a renamed
// family or helper shows here rather than when someone refits.
func TestExportBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole product package: run without -short")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := writeOverlay(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "-overlay", overlay, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet with the export test laid over package main: %v\n%s", err, out)
	}
}
