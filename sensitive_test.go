package main

import (
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
