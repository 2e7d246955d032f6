package main

import (
	"strings"
	"testing"
)

// TestNoPrefixWhy: the approval question's reason for "no prefix can be
// allowed" is the real one, and there is one exactly when commandPrefix
// finds no prefix (the two take the same checks in the same order).
func TestNoPrefixWhy(t *testing.T) {
	tests := []struct{ cmd, want string }{
		{"rm -rf build", `yaicli knows no harmless options of rm, so "rm" would allow every use of it`},
		{"ls -la && rm x", "it is 2 commands"},
		{"echo hi > out.txt", "redirects"},
		{"timeout 5 make", "timeout runs other programs"},
		{"docker run alpine", "docker run runs other programs"},
		{"./build.sh", `"./build.sh" is not a plain program name`},
		{"$CMD x", "cannot tell exactly how the shell reads it"},
		{"git status", ""},
		{"ls -la", ""},
		{"go build ./...", ""},
	}
	for _, tt := range tests {
		got := noPrefixWhy(tt.cmd)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("noPrefixWhy(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
		if (got == "") != (commandPrefix(tt.cmd) != "") {
			t.Errorf("noPrefixWhy(%q) = %q but commandPrefix = %q: they disagree", tt.cmd, got, commandPrefix(tt.cmd))
		}
	}
	for _, cmd := range []string{"cat a b", "sed -n 1p f", "make", "npm exec x", "uniq a b", "sh -c ls", "cd /; ls", "FOO=1 ls", "{ ls; }", "! ls", "", "x | y", "kill 1", "python3 -V"} {
		if got, p := noPrefixWhy(cmd), commandPrefix(cmd); (got == "") != (p != "") {
			t.Errorf("noPrefixWhy(%q) = %q but commandPrefix = %q: they disagree", cmd, got, p)
		}
	}
}
