package main

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// exportTest is the test tokenfit adds to package main for one run.
//
//go:embed export_test.go.tmpl
var exportTest []byte

// sample is one line of testdata/tokens/**/*.jsonl, with its pieces as the
// estimator counts them.
type sample struct {
	file       string
	Cat        string `json:"cat"`
	Src        string `json:"src"`
	Text       string `json:"text"`
	O200k      int    `json:"o200k"`
	Cl100k     int    `json:"cl100k"`
	Claude     int    `json:"claude"`
	Llama3     int    `json:"llama3"`
	Qwen3      int    `json:"qwen3"`
	DeepseekV3 int    `json:"deepseek_v3"`
	Gemma3     int    `json:"gemma3"`
	pieces     []int32
}

// real is the sample's real count under a family's tokenizer.
func (s *sample) real(family string) int {
	return map[string]int{"o200k": s.O200k, "cl100k": s.Cl100k, "claude": s.Claude, "llama3": s.Llama3,
		"qwen": s.Qwen3, "deepseek": s.DeepseekV3, "gemma": s.Gemma3}[family]
}

// family is a tokenizer family's name and prices, one per piece.
type family struct {
	Name   string    `json:"name"`
	Prices []float64 `json:"prices"`
}

// data is what the estimator says: the pieces' names (tokenscan.go's
// constants, in order), every family's prices (generic first), and the
// samples with their pieces counted.
type data struct {
	names    []string
	families []family
	samples  []*sample
}

// load reads the sample files (named relative to root) and has the
// estimator count their pieces.
func load(root string, files []string) (*data, error) {
	names, err := pieceNames(filepath.Join(root, "tokenscan.go"))
	if err != nil {
		return nil, err
	}
	d := &data{names: names}
	var counted struct {
		Families []family `json:"families"`
		Files    []struct {
			Pieces [][]int32 `json:"pieces"`
		} `json:"files"`
	}
	if err := export(root, files, &counted); err != nil {
		return nil, err
	}
	d.families = counted.Families
	for i, f := range files {
		samples, err := readSamples(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		if len(samples) != len(counted.Files[i].Pieces) {
			return nil, fmt.Errorf("%s: %d samples, %d counted", f, len(samples), len(counted.Files[i].Pieces))
		}
		for j, s := range samples {
			s.file, s.pieces = f, counted.Files[i].Pieces[j]
		}
		d.samples = append(d.samples, samples...)
	}
	return d, d.check()
}

// check makes sure the names and the prices are of the same pieces.
func (d *data) check() error {
	for _, f := range d.families {
		if len(f.Prices) != len(d.names) {
			return fmt.Errorf("family %s has %d prices for %d pieces in tokenscan.go", f.Name, len(f.Prices), len(d.names))
		}
	}
	return nil
}

// piece is the index of the piece called name; it panics on a name
// tokenscan.go does not have, as that is this program's mistake.
func (d *data) piece(name string) int {
	for i, n := range d.names {
		if n == name {
			return i
		}
	}
	panic("tokenscan.go has no piece " + name)
}

// familyNamed returns the family called name.
func (d *data) familyNamed(name string) (family, bool) {
	for _, f := range d.families {
		if f.Name == name {
			return f, true
		}
	}
	return family{}, false
}

// export runs the estimator on the files through go test with the export
// test laid over the package, and decodes what it wrote into v.
func export(root string, files []string, v any) error {
	dir, err := os.MkdirTemp("", "tokenfit")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	overlay, err := writeOverlay(root, dir)
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "pieces.json")
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestTokenfitExport$", "-overlay", overlay, ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TOKENFIT_SAMPLES="+strings.Join(files, ","), "TOKENFIT_OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("counting pieces with the estimator (go test in %s): %w\n%s", root, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return fmt.Errorf("the estimator wrote no counts: %w", err)
	}
	return json.Unmarshal(b, v)
}

// writeOverlay writes the export test and an overlay file (go help
// build: -overlay) that adds it to the package in root, into dir, and
// returns the overlay file's path.
func writeOverlay(root, dir string) (string, error) {
	test, overlay := filepath.Join(dir, "export_test.go"), filepath.Join(dir, "overlay.json")
	b, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(root, "tokenfit_export_test.go"): test}})
	if err := os.WriteFile(test, exportTest, 0o644); err != nil {
		return "", err
	}
	return overlay, os.WriteFile(overlay, b, 0o644)
}

// readSamples reads a JSONL file of samples.
func readSamples(path string) ([]*sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*sample
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for n := 1; sc.Scan(); n++ {
		s := new(sample)
		if err := json.Unmarshal(sc.Bytes(), s); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// pieceNames reads the names of the pieces from the constant block of
// tokenscan.go that ends in nPieces, in their order (their values).
func pieceNames(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("reading the pieces: %w", err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		var names []string
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				if n.Name == "nPieces" {
					return names, nil
				}
				names = append(names, n.Name)
			}
		}
	}
	return nil, fmt.Errorf("%s has no constant nPieces ending the pieces' list", path)
}

// repoRoot is the root of the yaicli module around the working directory.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module (go env GOMOD): %w", err)
	}
	mod := strings.TrimSpace(string(out))
	b, err := os.ReadFile(mod)
	if err != nil || !strings.HasPrefix(string(b), "module yaicli\n") {
		return "", fmt.Errorf("run tokenfit inside yaicli's repository (go.mod: %q)", mod)
	}
	return filepath.Dir(mod), nil
}

// fitFiles are the samples the prices are fitted on, every file of
// testdata/tokens/fit (testdata/tokens/samples.md says what each holds),
// in the order of their names: calibration.jsonl (the shared calibration
// file), kinds.jsonl, then the sets.
func fitFiles(root string) []string {
	fit, _ := filepath.Glob(filepath.Join(root, "testdata", "tokens", "fit", "*.jsonl"))
	return relative(root, fit)
}

// checkFiles are the samples the fit never saw: every file of
// testdata/tokens/check, the held-out file among them.
func checkFiles(root string) []string {
	check, _ := filepath.Glob(filepath.Join(root, "testdata", "tokens", "check", "*.jsonl"))
	return relative(root, check)
}

// relative names paths relative to root.
func relative(root string, paths []string) []string {
	for i, p := range paths {
		paths[i], _ = filepath.Rel(root, p)
	}
	return paths
}
