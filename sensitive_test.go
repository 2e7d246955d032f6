package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMESensitiveListInCode: every place and name the safety guide's
// (docs/SAFETY.md) "Sensitive places ask every time" paragraph lists is in the one list of
// sensitive.go: asked by the fs tools and denied by the fence (which
// draws its deny set from the same lists), so the guide promises nothing
// the code does not do.
func TestREADMESensitiveListInCode(t *testing.T) {
	t.Parallel()
	_, para, ok := strings.Cut(docText(t, docSafety), "- **Sensitive places ask every time**")
	if para, _, _ = strings.Cut(para, "Writes also ask"); !ok { // what follows is about writes
		t.Fatal(docSafety + " has no \"Sensitive places ask every time\" paragraph")
	}
	home := t.TempDir()
	p := places{home: home}
	n := 0
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(para, -1) {
		tok := m[1]
		switch {
		case strings.HasPrefix(tok, "~/"):
			rel := tok[2:]
			if p.sensitive(filepath.Join(home, rel)) == "" {
				t.Errorf(docSafety+" lists %s; the fs tools read it unasked", tok)
			}
			if !slices.Contains(sensitiveHome, rel) && !reKeyName.MatchString(filepath.Base(rel)) {
				t.Errorf(docSafety+" lists %s, which is neither in sensitiveHome nor named like a key: the fence would grant it", tok)
			}
		case strings.HasPrefix(tok, "/etc/"):
			if !slices.Contains(sensitiveSystem, tok) {
				t.Errorf(docSafety+" lists %s, which is not in sensitiveSystem", tok)
			}
		case strings.Contains(tok, "*") || tok == ".envrc":
			if !reKeyName.MatchString(strings.ReplaceAll(tok, "*", "x")) && !reKeyName.MatchString(strings.ReplaceAll(tok, "*", "")) {
				t.Errorf(docSafety+" lists the name %s, which sensitiveNames does not match", tok)
			}
		default:
			continue
		}
		n++
	}
	if n < 40 {
		t.Errorf("read %d places off the safety guide's paragraph; the test lost its way", n)
	}
}

// TestSensitiveIdentity: the judgement by identity that project
// instructions go through: AGENTS.md hard-linked to a .env deep in the
// workspace, or to a key in another account's ~/.ssh, is judged as its
// target, however the link was named; a file of one link, or linked to
// an ordinary file, is not.
func TestSensitiveIdentity(t *testing.T) {
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	deep := filepath.Join(ws, "a", "b", "c", "d", "e", "f", "g")
	os.MkdirAll(deep, 0o700)
	os.WriteFile(filepath.Join(deep, ".env"), []byte("TOKEN=x\n"), 0o600)
	os.WriteFile(filepath.Join(ws, "README.md"), []byte("# hi\n"), 0o600)
	os.WriteFile(filepath.Join(ws, "plain.md"), []byte("# plain\n"), 0o600)
	judge := func(name string) string {
		f, err := os.Open(filepath.Join(ws, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return sensitiveIdentity(f, ws)
	}
	if why := judge("plain.md"); why != "" {
		t.Errorf("a file of one link is judged: %s", why)
	}
	os.Link(filepath.Join(ws, "README.md"), filepath.Join(ws, "README2.md"))
	if why := judge("README2.md"); why != "" {
		t.Errorf("a link to an ordinary file is judged: %s", why)
	}
	if err := os.Link(filepath.Join(deep, ".env"), filepath.Join(ws, "AGENTS.md")); err != nil {
		t.Skip(err)
	}
	if why := judge("AGENTS.md"); !strings.Contains(why, ".env") {
		t.Errorf("AGENTS.md hard-linked to a .env is not judged as it: %q", why)
	}
}
