package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// completionHome is a home whose roles directory holds a role of the
// person's own, so the scripts are seen asking yaicli for role names.
func completionHome(t *testing.T) (home string, env []string) {
	t.Helper()
	home = t.TempDir()
	roles := filepath.Join(home, "config", "yaicli", "roles")
	os.MkdirAll(roles, 0o755)
	os.WriteFile(filepath.Join(roles, "reviewer.json"), []byte(`{"name": "My Reviewer", "prompt": "review"}`), 0o644)
	for _, f := range []string{"notes.txt", "notebook.md", "photo.png"} {
		os.WriteFile(filepath.Join(home, f), nil, 0o644)
	}
	return home, []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "PATH=" + filepath.Dir(binary) + ":" + os.Getenv("PATH")}
}

// writeScript writes yaicli's script for shell into dir.
func writeScript(t *testing.T, dir, shell string) string {
	t.Helper()
	s, err := completionScript(shell)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "yaicli."+shell)
	os.WriteFile(p, []byte(s), 0o644)
	return p
}

// completionCases are the command lines every shell is asked about and
// what it must offer (all of want, none of not).
var completionCases = []struct {
	line      string
	want, not []string
}{
	{"yaicli --outp", []string{"--output-format"}, []string{"--model"}},
	{"yaicli --output-format ", []string{"text", "json", "stream-json"}, []string{"notes.txt"}},
	{"yaicli --output-format st", []string{"stream-json"}, []string{"text"}},
	{"yaicli --justify ", []string{"default", "left", "center", "right", "full"}, nil},
	{"yaicli -r ", []string{"DEFAULT", "Code Assistant", "My Reviewer"}, []string{"notes.txt"}},
	{"yaicli --show-role My", []string{"My Reviewer"}, []string{"DEFAULT"}},
	{"yaicli --config note", []string{"notes.txt", "notebook.md"}, []string{"photo.png"}},
	{"yaicli why note", []string{"notes.txt", "notebook.md"}, nil},
	{"yaicli -i pho", []string{"photo.png"}, []string{"notes.txt"}},
	{"yaicli --image pho", []string{"photo.png"}, nil},
	{"yaicli --show-completion ", []string{"bash", "zsh", "fish"}, nil},
	{"yaicli -M x --top", []string{"--top-p"}, nil},
}

// unescape undoes the backslashes a shell puts before spaces in a match.
func unescape(s string) string { return strings.ReplaceAll(s, `\ `, " ") }

// checkOffered compares what a shell offered for a line with the case.
func checkOffered(t *testing.T, shell, line string, got, want, not []string) {
	t.Helper()
	for i := range got {
		got[i] = unescape(strings.TrimSpace(got[i]))
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s completes %q to %q, want %q among them", shell, line, got, w)
		}
	}
	for _, n := range not {
		if slices.Contains(got, n) {
			t.Errorf("%s completes %q to %q, want no %q", shell, line, got, n)
		}
	}
}

// TestBashCompletion sources the script in bash and calls its function
// with COMP_WORDS and COMP_CWORD set, as bash does on Tab, reading
// COMPREPLY: flag names, fixed values, role names (built in and the
// person's, asked of yaicli), paths, and --flag=value split at the =.
func TestBashCompletion(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		skipWithout(t, "bash", "no bash")
	}
	home, env := completionHome(t)
	script := writeScript(t, t.TempDir(), "bash")
	ask := func(words ...string) []string {
		t.Helper()
		words[0] = binary // the command as typed: the scripts ask it for roles
		prog := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _yaicli; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", prog, "bash", script}, words...)...)
		cmd.Dir, cmd.Env = home, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash on %q: %v", words, err)
		}
		return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	}
	for _, tc := range completionCases {
		words := strings.Split(tc.line, " ") // a trailing space is an empty word to complete
		checkOffered(t, "bash", tc.line, ask(words...), tc.want, tc.not)
	}
	// COMP_WORDBREAKS has =: "--output-format=st" arrives as three words.
	checkOffered(t, "bash", "--output-format=st", ask("yaicli", "--output-format", "=", "st"), []string{"stream-json"}, []string{"text"})
	checkOffered(t, "bash", "--justify=", ask("yaicli", "--justify", "="), []string{"center", "full"}, nil)
	if got := ask("yaicli", "--model", ""); len(got) != 1 || got[0] != "" {
		t.Errorf("bash completes --model's value to %q, want nothing (it is free text)", got)
	}
}

// zshCapture drives an interactive zsh on a pseudo-terminal (zsh/zpty):
// it loads the script under compinit once, then for each LINE types it
// and Tab and prints "== LINE" and what the completion system was given
// (compadd is wrapped to print its matches). compinit -D writes no dump
// file (given "-d /dev/null" as well, compdump would replace /dev/null
// with a file). Tab runs a widget that says ENDCOMP when completion is
// over, and nothing else is typed before it: keys typed ahead could cut
// the completion short.
const zshCapture = `zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1=''; autoload -Uz compinit; compinit -u -D"
zpty -w z "source ${(q)1}"
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a __h; builtin compadd -A __h "$@"; (( $#__h )) || return 1; print -r -l -- "<<"${^__h}">>" >&2; builtin compadd "$@"; }'
zpty -w z '_capture() { _main_complete; print -r -- "END""COMP" >&2; }; zle -C capture complete-word _capture; bindkey "^I" capture'
zpty -w z "print -r -- RE''ADY"
zpty -r z line '*READY*'
for l in "${@[2,-1]}"; do
  zpty -n -w z "$l"$'\t'
  zpty -r z out '*ENDCOMP*'
  print -r -- "== $l"
  print -r -- $out | grep -o '<<[^>]*>>' | sed 's/^<<//; s/>>$//' | sort -u
  zpty -n -w z $'\C-u'
done
zpty -d z
`

// TestZshCompletion asks a real zsh (when installed; .ci/run installs
// it) for the same completions through its completion system.
func TestZshCompletion(t *testing.T) {
	t.Parallel()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("zsh is missing: .ci/run installs it")
		}
		skipWithout(t, "zsh", "no zsh (apt-get install zsh)")
	}
	home, env := completionHome(t)
	dir := t.TempDir()
	script := writeScript(t, dir, "zsh")
	t.Cleanup(func() {
		if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("%s is no longer a device after zsh ran (%v, %v)", os.DevNull, st, err)
		}
	})
	capture := filepath.Join(dir, "capture.zsh")
	os.WriteFile(capture, []byte(zshCapture), 0o644)
	cases := append(completionCases[:len(completionCases):len(completionCases)],
		struct {
			line      string
			want, not []string
		}{"yaicli --justify=c", []string{"center"}, []string{"left"}})
	args := []string{"-f", capture, script}
	for _, tc := range cases {
		args = append(args, tc.line)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, zsh, args...)
	cmd.Dir, cmd.Env = home, env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("zsh: %v: %s", err, out)
	}
	blocks := strings.Split("\n"+string(out), "\n== ")[1:]
	if len(blocks) != len(cases) {
		t.Fatalf("zsh answered %d of %d lines:\n%s", len(blocks), len(cases), out)
	}
	for i, tc := range cases {
		lines := strings.Split(blocks[i], "\n")
		if lines[0] != tc.line {
			t.Fatalf("zsh answer %d is for %q, want %q", i, lines[0], tc.line)
		}
		checkOffered(t, "zsh", tc.line, lines[1:], tc.want, tc.not)
	}
}

// TestFishCompletion asks a real fish (when installed; .ci/run installs
// it) with complete -C, every line in one fish.
func TestFishCompletion(t *testing.T) {
	t.Parallel()
	fish, err := exec.LookPath("fish")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("fish is missing: .ci/run installs it")
		}
		skipWithout(t, "fish", "no fish (apt-get install fish)")
	}
	home, env := completionHome(t)
	script := writeScript(t, t.TempDir(), "fish")
	args := []string{"--no-config", "-c", `source $argv[1]; for l in $argv[2..-1]; echo "== $l"; complete -C $l; end`, script}
	for _, tc := range completionCases {
		args = append(args, tc.line)
	}
	cmd := exec.Command(fish, args...)
	cmd.Dir, cmd.Env = home, env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fish: %v", err)
	}
	blocks := strings.Split("\n"+string(out), "\n== ")[1:]
	if len(blocks) != len(completionCases) {
		t.Fatalf("fish answered %d of %d lines:\n%s", len(blocks), len(completionCases), out)
	}
	for i, tc := range completionCases {
		lines := strings.Split(blocks[i], "\n")
		if lines[0] != tc.line {
			t.Fatalf("fish answer %d is for %q, want %q", i, lines[0], tc.line)
		}
		var got []string
		for _, l := range lines[1:] {
			got = append(got, strings.SplitN(l, "\t", 2)[0]) // candidate, tab, description
		}
		checkOffered(t, "fish", tc.line, got, tc.want, tc.not)
	}
}

// TestCompletionScriptsHaveEveryFlag: the scripts are made from the flag
// set parseArgs uses, so every flag it defines is offered by every shell
// (but the hidden one the scripts call), with the usage text's words.
func TestCompletionScriptsHaveEveryFlag(t *testing.T) {
	fs, _ := defineFlags(&options{overrides: map[string]string{}})
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	for _, shell := range completionShells {
		s, err := completionScript(shell)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			f := complFlag{name: n}
			want := map[string]string{"bash": " " + f.dashed() + " ", "zsh": "'*" + f.dashed(), "fish": "-l " + n}[shell]
			if len(n) == 1 && shell == "fish" {
				want = "-s " + n
			}
			offered := strings.Contains(s, want+" ") || strings.Contains(s, want+"\n") || strings.Contains(s, want+"[") || strings.Contains(s, want+"=[")
			if shell == "bash" { // the words offered for a word starting with -
				_, list, _ := strings.Cut(s, "if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W '")
				list, _, _ = strings.Cut(list, "'")
				offered = slices.Contains(strings.Fields(list), f.dashed())
			}
			if n == completeValuesFlag && offered {
				t.Errorf("%s script offers the hidden --%s", shell, n)
			}
			if n != completeValuesFlag && !offered {
				t.Errorf("%s script lacks %q", shell, want)
			}
		}
	}
	fish, _ := completionScript("fish")
	if !strings.Contains(fish, `-l top-p -x -d 'nucleus sampling, 0-1 (TOP_P)'`) {
		t.Errorf("fish script lacks --top-p's description from the usage text")
	}
}

// TestCompletionShellChoice: the shell is the one named (=SHELL or the
// next word), else $SHELL's; a shell yaicli has no script for, two
// words, or no way to tell are usage errors that say what to type.
func TestCompletionShellChoice(t *testing.T) {
	for _, tc := range []struct {
		r           completionRequest
		words       []string
		shellVar    string
		want, wantE string
	}{
		{completionRequest{action: "show"}, nil, "/usr/bin/zsh", "zsh", ""},
		{completionRequest{action: "show", shell: "fish"}, nil, "/bin/bash", "fish", ""},
		{completionRequest{action: "show"}, []string{"bash"}, "/bin/zsh", "bash", ""},
		{completionRequest{action: "install"}, nil, "/bin/sh", "", "cannot tell which shell this is from SHELL=\"/bin/sh\"; name it: yaicli --install-completion bash|zsh|fish"},
		{completionRequest{action: "show"}, []string{"bash", "zsh"}, "", "", `--show-completion takes one shell (bash, zsh, fish), not "bash zsh"`},
	} {
		got, err := completionShell(tc.r, tc.words, func(k string) string { return map[string]string{"SHELL": tc.shellVar}[k] })
		if got != tc.want || (err == nil) != (tc.wantE == "") || err != nil && err.Error() != tc.wantE {
			t.Errorf("completionShell(%+v, %q, SHELL=%s) = %q, %v; want %q, %q", tc.r, tc.words, tc.shellVar, got, err, tc.want, tc.wantE)
		}
	}
	if _, err := completionScript("tcsh"); err == nil || !strings.Contains(err.Error(), "bash, zsh, fish") {
		t.Errorf("completionScript(tcsh) = %v, want an error naming the shells", err)
	}
}

// TestInstallCompletion writes each shell's script where it loads it
// (bash-completion's user directory, XDG_DATA_HOME and
// BASH_COMPLETION_USER_DIR honoured; ~/.zfunc; fish's completions), the
// same text --show-completion prints, replacing an old one without a
// temporary file left, and says what to do next.
func TestInstallCompletion(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		shell string
		env   map[string]string
		path  string
		next  string
	}{
		{"bash", nil, ".local/share/bash-completion/completions/yaicli", "source "},
		{"bash", map[string]string{"XDG_DATA_HOME": filepath.Join(home, "data")}, "data/bash-completion/completions/yaicli", "bash-completion"},
		{"bash", map[string]string{"BASH_COMPLETION_USER_DIR": filepath.Join(home, "bc")}, "bc/completions/yaicli", "bash-completion"},
		{"zsh", nil, ".zfunc/_yaicli", "fpath=(" + filepath.Join(home, ".zfunc") + " $fpath)"},
		{"zsh", nil, ".zfunc/_yaicli", "compinit"}, // again: replaces the file
		{"fish", map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, "cfg")}, "cfg/fish/completions/yaicli.fish", "nothing more to do"},
	} {
		env := func(k string) string { return tc.env[k] }
		var out, errw bytes.Buffer
		code := runCompletion(completionRequest{action: "install", shell: tc.shell}, nil, env, home, "", &out, &errw)
		want := filepath.Join(home, tc.path)
		got, err := os.ReadFile(want)
		script, _ := completionScript(tc.shell)
		if code != 0 || err != nil || string(got) != script {
			t.Errorf("install %s = %d (%s), %s: %v, want the script there", tc.shell, code, errw.String(), want, err)
		}
		if !strings.HasPrefix(out.String(), "wrote the "+tc.shell+" completion to "+want+"\n") || !strings.Contains(out.String(), tc.next) {
			t.Errorf("install %s said %q, want the path and %q", tc.shell, out.String(), tc.next)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(want), ".*.tmp")); len(left) > 0 {
			t.Errorf("install %s left %v", tc.shell, left)
		}
	}
	var errw bytes.Buffer
	if code := runCompletion(completionRequest{action: "install", shell: "zsh"}, nil, func(string) string { return "" }, "", "", &bytes.Buffer{}, &errw); code != exitFailure || !strings.Contains(errw.String(), "--show-completion") {
		t.Errorf("install without a home = %d, %q", code, errw.String())
	}
}

// TestCompletionFlagsEndToEnd: the flags as typed, through the binary.
func TestCompletionFlagsEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		env      []string
		code     int
		out, err string
	}{
		{[]string{"--show-completion", "bash"}, nil, 0, "complete -F _yaicli yaicli\n", ""},
		{[]string{"--show-completion=fish"}, nil, 0, "complete -c yaicli -l output-format -x -a 'text json stream-json'", ""},
		{[]string{"--show-completion"}, []string{"SHELL=/usr/bin/zsh"}, 0, "#compdef yaicli\n", ""},
		{[]string{"--show-completion", "bash", "zsh"}, nil, 2, "", "takes one shell"},
		{[]string{"--show-completion", "tcsh"}, nil, 2, "", `no completion script for "tcsh"`},
		{[]string{"--install-completion", "fish"}, nil, 0, "wrote the fish completion to ", ""},
		{[]string{"--complete-values", "role"}, nil, 0, "Code Assistant\nDEFAULT\nShell Command Generator\n", ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			r := runBinary(t, nil, e2e{args: tc.args, env: tc.env, noProvider: true})
			if r.code != tc.code || !strings.Contains(r.stdout, tc.out) || !strings.Contains(r.stderr, tc.err) {
				t.Errorf("yaicli %q = %d, stdout %.200q, stderr %q; want %d, %q, %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.out, tc.err)
			}
		})
	}
}
