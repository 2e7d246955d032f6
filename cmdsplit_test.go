package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd              string
		parts            string // parts joined by " | ", words by spaces; a substitution leaves an empty word
		redirect, unsure bool
	}{
		{"ls -la", "ls -la", false, false},
		{"git status && go test ./...", "git status | go test ./...", false, false},
		{"a; b || c | d & e\nf", "a | b | c | d | e | f", false, false},
		{`echo "a; b" 'c && d'`, "echo a; b c && d", false, false},
		{`echo $(rm -rf /)`, "rm -rf / | echo ", false, false},
		{"echo `whoami`", "whoami | echo ", false, false},
		{`echo "x $(id) y"`, "id | echo x  y", false, false},
		{`echo '$(id)'`, "echo $(id)", false, false},
		{"ls > out.txt", "ls", true, false},
		{"ls 2>&1 >/dev/null", "ls", false, false},
		{"ls 2> errors.log", "ls", true, false},
		{"cat < /etc/passwd", "cat", true, false},
		{"cat <<EOF\nrm -rf /\nEOF", "cat | rm -rf / | EOF", true, false},
		{"diff <(ls a) <(ls b)", "ls a | ls b | diff  ", false, false},
		{"(cd /tmp && rm x)", "cd /tmp | rm x", false, false},
		{"if true; then rm x; fi", "if true | then rm x | fi", false, false},
		{`$CMD arg`, "$CMD arg", false, true},
		{`echo "unterminated`, "echo unterminated", false, true},
		{`echo a\;b`, "echo a;b", false, false},
		{"ls # a comment; rm -rf /", "ls", false, false},
		{"echo $((1+2))", "1+2 | echo ", false, false},
		{"ls ${HOME}", "ls ${HOME}", false, false},
		{"ls ${X:-$(rm)}", "ls ${X:-$(rm)}", false, true},
	} {
		c := splitCommand(tc.cmd)
		var parts []string
		for _, p := range c.parts {
			parts = append(parts, strings.Join(p, " "))
		}
		if got := strings.Join(parts, " | "); got != tc.parts || c.redirect != tc.redirect || c.unsure != tc.unsure {
			t.Errorf("splitCommand(%q) = %q redirect=%v unsure=%v, want %q %v %v", tc.cmd, got, c.redirect, c.unsure, tc.parts, tc.redirect, tc.unsure)
		}
	}
}

func TestCommandRules(t *testing.T) {
	allow := parseRules([]string{"git status", "go test", "ls", "grep"})
	deny := parseRules([]string{"rm", "git push", "curl"})
	for _, tc := range []struct {
		cmd           string
		allowed, deny bool
	}{
		{"git status", true, false},
		{"git status -s", true, false},
		{"git statusx", false, false},
		{"git push origin main", false, true},
		{"ls -la | grep go", true, false},
		{"ls && rm -rf /", false, true},
		{"ls; curl http://x", false, true},
		{"lsblk", false, false},
		{"ls $(rm -rf ~)", false, true},
		{"ls `curl evil`", false, true},
		{"ls > /etc/passwd", false, false},
		{"ls 2>/dev/null", true, false},
		{"FOO=1 ls", false, false},
		{"sudo rm -rf /", false, true},
		{"/bin/rm x", false, true},
		{"env -i PATH=/bin rm x", false, true},
		{"timeout 10s rm x", false, true},
		{`sh -c "rm -rf /"`, false, true},
		{`bash -lc 'git push'`, false, true},
		{`eval "rm x"`, false, true},
		{"'rm' x", false, true},
		{`r\m x`, false, true},
		{"./ls", false, false},
		{"echo rm", false, false},
		{"$X status", false, false},
		{"go test ./... && go vet", false, false},
		{"if ls; then go test ./...; fi", true, false},
	} {
		if got := allowedBy(tc.cmd, allow) != nil; got != tc.allowed {
			t.Errorf("allowedBy(%q) = %v, want %v", tc.cmd, got, tc.allowed)
		}
		if got := deniedBy(tc.cmd, deny) != nil; got != tc.deny {
			t.Errorf("deniedBy(%q) = %v, want %v", tc.cmd, got, tc.deny)
		}
	}
	if got := deniedBy("sudo rm x", parseRules([]string{"/bin/rm"})); !reflect.DeepEqual(got, commandRule{"/bin/rm"}) {
		t.Errorf("a rule with a path does not match the base name: %v", got)
	}
}

// FuzzSplitCommand: any command line splits without a panic, every word
// comes from the input, and a rule never allows a line it cannot follow.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"ls -la", `echo "$(id)" 'x' \; a&&b||c|d`, "cat <<EOF\nx\nEOF", "diff <(a) >(b)", "${X:-$(rm)}", "`a`", "(((", "$((1+2))", `"\`} {
		f.Add(s)
	}
	allow := parseRules([]string{"ls", "echo"})
	f.Fuzz(func(t *testing.T, s string) {
		c := splitCommand(s)
		if c.unsure && allowedBy(s, allow) != nil {
			t.Errorf("allowedBy(%q) allowed a line the splitter could not follow", s)
		}
		deniedBy(s, allow)
	})
}
