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
		{"echo `whoami`", "whoami | echo ", false, true},
		{`echo "x $(id) y"`, "id | echo x  y", false, false},
		{`echo '$(id)'`, "echo $(id)", false, false},
		{"ls > out.txt", "ls", true, false},
		{"ls 2>&1 >/dev/null", "ls", false, false},
		{"ls 2> errors.log", "ls", true, false},
		{"cat < /etc/passwd", "cat", true, false},
		{"cat <<EOF\nrm -rf /\nEOF", "cat | rm -rf / | EOF", true, true},
		{"diff <(ls a) <(ls b)", "ls a | ls b | diff  ", false, true},
		{"(cd /tmp && rm x)", "cd /tmp | rm x", false, false},
		{"if true; then rm x; fi", "if true | then rm x | fi", false, false},
		{`$CMD arg`, "$CMD arg", false, true},
		{`echo "unterminated`, "echo unterminated", false, true},
		{`echo a\;b`, "echo a;b", false, false},
		{"ls # a comment; rm -rf /", "ls", false, false},
		{"echo $((1+2))", "1+2 | echo ", false, true},
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
		{"$X status", false, true},
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

// TestAllowAttacks are command lines that must not run under an allow
// rule: constructs the splitter does not model, and options a prefix does
// not vouch for (issue 32, findings 4 and 5), beside lines that must.
func TestAllowAttacks(t *testing.T) {
	allow := parseRules([]string{"ls", "git status", "git log", "git diff", "go test", "go build", "cat", "find", "sed", "sort", "grep", "rg", "echo", "awk", "make"})
	for _, tc := range []struct {
		cmd     string
		allowed bool
	}{
		{`ls $'\'' ; touch X #'`, false},
		{`ls $'\x27'; touch X`, false},
		{"ls `echo \\`touch X\\``", false},
		{"ls `pwd`", false},
		{`ls ${X:-"$(touch X)"}`, false},
		{`ls "${X#"}"}"`, false},
		{`ls ${X/a/b}`, false},
		{"cat <<EOF\n$(touch X)\nEOF", false},
		{"cat <<< hi", false},
		{"ls <(touch X)", false},
		{"ls >(touch X)", false},
		{"echo $((a[$(touch X)]))", false},
		{"(( x = 1 )); ls", false},
		{`ls $"x"`, false},
		{"ls $[1+1]", false},
		{"go test -exec /tmp/evil ./...", false},
		{"go test -toolexec=/tmp/evil ./...", false},
		{"go test -ldflags=-extld=/tmp/evil ./...", false},
		{"go test -o /usr/local/bin/go ./...", false},
		{"go test -coverprofile=/etc/cron.d/x ./...", false},
		{"go build -o /usr/bin/ls .", false},
		{"git log --output=/root/.bashrc", false},
		{"git log --ext-diff -p", false},
		{"git diff --output=x", false},
		{"git status --unknown-option", false},
		{"find . -delete", false},
		{"find . -exec rm {} ;", false},
		{"find . -execdir sh -c x ;", false},
		{"find . -fprint /etc/x", false},
		{"sed -i s/a/b/ f", false},
		{"sed -ni p f", false},
		{"sed --in-place s/a/b/ f", false},
		{"sed 's/x/touch X/e' f", false},
		{"sed 'w /etc/x' f", false},
		{"sort -o /etc/passwd x", false},
		{"sort -uo x y", false},
		{"sort --compress-program=/tmp/evil x", false},
		{"rg --pre /tmp/evil x", false},
		{`awk 'BEGIN{system("touch X")}'`, false},
		{`awk '{print > "/etc/x"}'`, false},
		{`awk '{print | "sh"}'`, false},
		{"make -f /tmp/evil.mk", false},
		{"ls -la", true},
		{"ls -la --color=auto ${HOME}", true},
		{"git status -sb", true},
		{"git status --porcelain=v1", true},
		{"git log --oneline -n 5 --graph", true},
		{"git log -5 --format=%H", true},
		{"git diff --stat -U3", true},
		{"go test -v -run 'TestX|TestY' -count=1 ./...", true},
		{"go build ./...", true},
		{"find . -name '*.go' -type f -maxdepth 2", true},
		{"sed -n 's/a/b/gp' f", true},
		{"sed -e 1,5p -n f", true},
		{"sort -u x | grep -c y", true},
		{`awk '{print $1}' f`, true},
		{"make", true},
		{"cat go.mod | grep module", true},
	} {
		if got := allowedBy(tc.cmd, allow) != nil; got != tc.allowed {
			t.Errorf("allowedBy(%q) = %v, want %v", tc.cmd, got, tc.allowed)
		}
	}
}

// TestDenyBypasses are the cheap ways around TOOL_DENY=rm,git push,curl
// (issue 32, finding 9): each must be refused.
func TestDenyBypasses(t *testing.T) {
	deny := parseRules([]string{"rm", "git push", "curl"})
	for _, tc := range []struct {
		cmd    string
		denied bool
	}{
		{"bash --norc -c 'rm -rf x'", true},
		{"bash -o errexit -c 'rm x'", true},
		{"sh -ec 'rm x'", true},
		{"sh -c -- 'rm x'", true},
		{"$(printf rm) -rf x", true},
		{"`printf rm` x", true},
		{"X=rm; $X x", true},
		{"find . -delete", true},
		{"find . -exec rm {} +", true},
		{"find . -exec sh -c 'rm x' \\;", true},
		{"echo 'rm -rf x' | bash", true},
		{"bash < script.sh", true},
		{"bash script.sh", true},
		{"bash <<< 'rm x'", true},
		{"source ./x.sh", true},
		{". ./x.sh", true},
		{"git -c k=v push", true},
		{"git -C /tmp --no-pager push origin", true},
		{"git -c alias.p='!rm -rf x' p", true},
		{"eval rm x", true},
		{`eval "$(echo rm) x"`, true},
		{"xargs rm < list", true},
		{"xargs -I {} rm {} < list", true},
		{"xargs -0 -n 1 rm", true},
		{"env rm x", true},
		{"env -u HOME -- rm x", true},
		{"env -S 'rm x'", true},
		{"command rm x", true},
		{"nice -n 5 rm x", true},
		{"nice -5 rm x", true},
		{"timeout -s KILL 10 rm x", true},
		{"timeout --signal=KILL 10s rm x", true},
		{"sudo -u root rm x", true},
		{"sudo -s rm x", true},
		{"echo rm x | sudo -s", true},
		{"su -c 'rm x'", true},
		{"nohup setsid rm x &", true},
		{"time -p rm x", true},
		{"exec -a x rm y", true},
		{"busybox rm x", true},
		{"flock /tmp/l -c 'rm x'", true},
		{"watch rm x", true},
		{"trap 'rm x' EXIT", true},
		{"/bin/r? x", true},
		{"{rm,x}", true},
		{"\\rm x", true},
		{`r""m x`, true},
		{"f() { rm x; }; f", true},
		{"git status", false},
		{"ls -la | grep x", false},
		{"command -v rm", false},
		{"echo rm", false},
		{"go test ./...", false},
		{"find . -name x -print", false},
	} {
		if got := deniedBy(tc.cmd, deny) != nil; got != tc.denied {
			t.Errorf("deniedBy(%q) = %v (%v), want %v", tc.cmd, got, deniedBy(tc.cmd, deny), tc.denied)
		}
	}
}

// TestWrapperRules: a rule naming a wrapper vouches for the wrapper only;
// the command it runs must be allowed by a rule of its own, and a wrapper
// feeding words from its input (xargs) only to a program that takes any
// word harmlessly.
func TestWrapperRules(t *testing.T) {
	for _, tc := range []struct {
		rules, cmd string
		allowed    bool
	}{
		{"timeout", "timeout 5 rm -rf x", false},
		{"timeout", "timeout 5 rm x", false},
		{"timeout", "timeout 5 cp /dev/null victim.txt", false},
		{"timeout 5", "timeout 5 make", false},
		{"timeout,ls", "timeout 5 ls -la", true},
		{"timeout 5 ls", "timeout 5 ls -la", true},
		{"timeout 5 ls", "timeout 5 rm x", false},
		{"/usr/bin/timeout", "/usr/bin/timeout 5 rm x", false},
		{"flock", "flock /tmp/l cp /dev/null victim2.txt", false},
		{"flock,echo", "flock /tmp/l echo hi", true},
		{"flock,echo", "flock /tmp/l -c 'rm x'", false},
		{"sudo", "sudo rm x", false},
		{"env", "env FOO=1 rm x", false},
		{"env,ls", "env -S 'rm x'", false},
		{"nice,git status", "nice git status", true},
		{"nohup", "nohup make", false},
		{"xargs,grep", "xargs grep foo", true},
		{"xargs,sort", "xargs sort", false}, // its input could add -o FILE
		{"xargs", "xargs rm", false},
		{"watch,ls", "watch ls", true},
		{"watch", "watch rm x", false},
		{"eval,ls", "eval ls", true},
		{"eval", "eval rm", false},
		{"bash", "bash build.sh", false}, // a script TOOL_ALLOW cannot read
		{"ssh", "ssh host reboot", false},
	} {
		if got := allowedBy(tc.cmd, parseRules(strings.Split(tc.rules, ","))) != nil; got != tc.allowed {
			t.Errorf("TOOL_ALLOW=%s: allowedBy(%q) = %v, want %v", tc.rules, tc.cmd, got, tc.allowed)
		}
	}
}

// TestSecondOperandWrites: a program without a table of its operands
// vouches for one operand, its second may be the file it writes (xxd IN
// OUT); programs known to only read their operands take any number.
func TestSecondOperandWrites(t *testing.T) {
	for _, tc := range []struct {
		rules, cmd string
		allowed    bool
	}{
		{"xxd", "xxd part.txt victim3.txt", false},
		{"xxd", "xxd part.txt", true},
		{"uniq", "uniq in.txt out.txt", false},
		{"split", "split in.txt out", false},
		{"csplit", "csplit in.txt 5", false},
		{"base64", "base64 in.txt out.txt", false},
		{"cp", "cp a.txt b.txt", false},
		{"tee", "tee a.txt b.txt", false},
		{"dd", "dd if=a.txt of=b.txt", false},
		{"iconv", "iconv -o out.txt in.txt", false},
		{"gzip", "gzip -c a.txt", false},
		{"sort", "sort -o out.txt in.txt", false},
		{"make test", "make test install", false},
		{"ls,cat,grep,wc", "ls a b", true},
		{"ls,cat,grep,wc", "cat a b", true},
		{"ls,cat,grep,wc", "grep x a b", true},
		{"ls,cat,grep,wc", "wc a b", true},
		{"sort", "sort -k 2 a.txt b.txt", true},
		{"git log,git diff", "git diff a.txt b.txt", true},
		{"go test", "go test ./a ./b", true},
		{"echo approved", "echo approved three more", true}, // a saved prefix is judged by its program's table
		{"uniq in.txt", "uniq in.txt out.txt", false},
		{"seq", "seq 1 200000", true},
	} {
		if got := allowedBy(tc.cmd, parseRules(strings.Split(tc.rules, ","))) != nil; got != tc.allowed {
			t.Errorf("TOOL_ALLOW=%s: allowedBy(%q) = %v, want %v", tc.rules, tc.cmd, got, tc.allowed)
		}
	}
}
