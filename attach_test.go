package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileRefs(t *testing.T) {
	dir := t.TempDir()
	a, spaced := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b c.txt")
	os.WriteFile(a, []byte("alpha"), 0o644)
	os.WriteFile(spaced, []byte("beta"), 0o644)
	prompt := "compare @" + a + " and @\"" + spaced + "\", mail me@example.com @nobody"
	got, problems := expandFileRefs(prompt, "")
	if len(problems) != 0 || !strings.Contains(got, "--- file: "+a+" ---\nalpha\n--- end of "+a+" ---") || !strings.Contains(got, "beta") || strings.Count(got, "--- file:") != 2 {
		t.Errorf("expandFileRefs = %q %v", got, problems)
	}
	os.MkdirAll(filepath.Join(dir, "tree", "sub", "deep"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tree", "node_modules"), 0o755)
	os.WriteFile(filepath.Join(dir, "tree", "main.go"), []byte("package main"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "sub", "x.go"), []byte("package sub"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "sub", "deep", "y.go"), []byte("package deep"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", ".env"), []byte("SECRET=1"), 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "bin"), []byte{0, 1, 2}, 0o644)
	os.WriteFile(filepath.Join(dir, "tree", "big.log"), make([]byte, attachMaxFile+1), 0o644)
	atts, skipped, err := collectAttachments(filepath.Join(dir, "tree"))
	if err != nil || len(atts) != 2 {
		t.Fatalf("attached %d: %+v %v", len(atts), atts, err)
	}
	joined := strings.Join(skipped, "\n")
	for _, want := range []string{".env: hidden", "node_modules: node_modules", "deep: deeper than 2 levels", "bin: binary", "big.log: over 1 MB"} {
		if !strings.Contains(joined, want) {
			t.Errorf("skipped list lacks %q:\n%s", want, joined)
		}
	}
}

// TestMissingAtFileIsTold: @nonexist.txt is reported and the prompt is
// sent as typed; @alice (a mention) is not.
func TestMissingAtFileIsTold(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, check(sse(textStream("ok")), func(r received) {
		if m := r.messages(); m[len(m)-1].Content != "summarise @nonexist.txt for @alice" {
			t.Errorf("prompt sent = %q", m[len(m)-1].Content)
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"summarise @nonexist.txt for @alice"}})
	if r.code != 0 || !strings.Contains(r.stderr, "@nonexist.txt: no such file (sent as typed)") || strings.Contains(r.stderr, "alice") {
		t.Errorf("code %d, stderr %q", r.code, r.stderr)
	}
}
