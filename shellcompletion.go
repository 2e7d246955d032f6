package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// completionShells are the shells yaicli writes completion scripts for.
var completionShells = []string{"bash", "zsh", "fish"}

// completionRequest is what --show-completion, --install-completion and the
// scripts' own --complete-values call asked for.
type completionRequest struct {
	action string // "show", "install", "values"; "" none
	shell  string // named with =SHELL; else the next word, else $SHELL
	what   string // for "values": which values (role)
}

// completeValuesFlag is the hidden flag the scripts call for values that
// change between runs (the role names); no script completes it.
const completeValuesFlag = "complete-values"

// completionFlags defines --show-completion[=SHELL],
// --install-completion[=SHELL] and the hidden --complete-values on fs.
func completionFlags(fs *flag.FlagSet, o *options) {
	for _, action := range []string{"show", "install"} {
		fs.BoolFunc(action+"-completion", "", func(v string) error {
			o.completion.action = action
			if v != "true" {
				o.completion.shell = v
			}
			return nil
		})
	}
	fs.Func(completeValuesFlag, "", func(v string) error {
		o.completion = completionRequest{action: "values", what: v}
		return nil
	})
}

// complFlag is one flag as the completion scripts offer it.
type complFlag struct {
	name  string   // without dashes; one letter is a short flag
	value bool     // takes a value (the next word)
	desc  string   // from usageText, "" when it has no line there
	words []string // what its value completes to; for a switch, an optional next word
	files bool     // its value is a path
	roles bool     // its value is a role name, asked of yaicli at completion time
}

// dashed is the flag as typed: -M or --model.
func (f complFlag) dashed() string {
	if len(f.name) == 1 {
		return "-" + f.name
	}
	return "--" + f.name
}

// keyWords are the values of config keys that have a fixed set.
func keyWords(key string) []string {
	switch key {
	case "OUTPUT_FORMAT":
		return outputFormats
	case "JUSTIFY":
		return justifyModes
	case "PROVIDER":
		return presetNames()
	}
	return nil
}

// pathFlags and roleFlags are the flags whose value is a path or a role.
var (
	pathFlags = []string{"config", "image", "i"}
	roleFlags = []string{"r", "role", "show-role", "delete-role"}
)

// completionFlagList is every flag defineFlags defines (but the hidden
// one), in name order, with what its value completes to.
func completionFlagList() []complFlag {
	fs, _ := defineFlags(&options{overrides: map[string]string{}})
	keys := map[string]string{}
	for _, vf := range valueFlagTable {
		for _, n := range vf.names {
			keys[n] = vf.key
		}
	}
	descs := usageDescriptions(usageText)
	var out []complFlag
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == completeValuesFlag {
			return
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		cf := complFlag{name: f.Name, value: !ok || !b.IsBoolFlag(), desc: descs[f.Name], words: keyWords(keys[f.Name]),
			files: slices.Contains(pathFlags, f.Name), roles: slices.Contains(roleFlags, f.Name)}
		if strings.HasSuffix(f.Name, "-completion") {
			cf.words = completionShells
		}
		out = append(out, cf)
	})
	return out
}

// reFlagName finds the flag names in a line of usageText.
var reFlagName = regexp.MustCompile(`(?:^|[\s,])--?([a-zA-Z][a-zA-Z0-9-]*)`)

// usageDescriptions maps each flag named in usageText's flag lines to the
// text that describes it: after the names on the same line, or the
// indented line below when the names fill theirs.
func usageDescriptions(usage string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(usage, "\n")
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, "-") || !strings.HasPrefix(line, "  ") {
			continue
		}
		spec, desc, _ := strings.Cut(trimmed, "   ")
		desc = strings.TrimSpace(desc)
		if desc == "" && i+1 < len(lines) && strings.HasPrefix(lines[i+1], strings.Repeat(" ", 20)) {
			desc = strings.TrimSpace(lines[i+1])
		}
		for _, m := range reFlagName.FindAllStringSubmatch(spec, -1) {
			if _, seen := out[m[1]]; !seen {
				out[m[1]] = desc
			}
		}
	}
	return out
}

// completionScript is the script for shell, generated from the flags.
func completionScript(shell string) (string, error) {
	flags := completionFlagList()
	switch shell {
	case "bash":
		return bashCompletion(flags), nil
	case "zsh":
		return zshCompletion(flags), nil
	case "fish":
		return fishCompletion(flags), nil
	}
	return "", fmt.Errorf("no completion script for %q; yaicli writes them for %s", shell, strings.Join(completionShells, ", "))
}

// errNoShell is a completion request without a shell named or in $SHELL.
var errNoShell = errors.New("cannot tell which shell this is")

// completionShell is the shell asked for: named, else the one word after
// the flag, else $SHELL's base name.
func completionShell(r completionRequest, words []string, env func(string) string) (string, error) {
	switch {
	case r.shell != "" && len(words) == 0:
		return r.shell, nil
	case r.shell == "" && len(words) == 1:
		return words[0], nil
	case len(words) > 0:
		return "", fmt.Errorf("--%s-completion takes one shell (%s), not %q", r.action, strings.Join(completionShells, ", "), strings.Join(words, " "))
	}
	sh := filepath.Base(env("SHELL"))
	if !slices.Contains(completionShells, sh) {
		return "", fmt.Errorf("%w from SHELL=%q; name it: yaicli --%s-completion bash|zsh|fish", errNoShell, env("SHELL"), r.action)
	}
	return sh, nil
}

// runCompletion runs --show-completion, --install-completion and
// --complete-values; it returns the exit code.
// env is the environment, home the home directory and roles the roles
// directory.
func runCompletion(r completionRequest, words []string, env func(string) string, home, roles string, stdout, stderr io.Writer) int {
	if r.action == "values" {
		return completeValues(r.what, roles, stdout, stderr)
	}
	shell, err := completionShell(r, words, env)
	var script string
	if err == nil {
		script, err = completionScript(shell)
	}
	if err != nil {
		fmt.Fprintf(stderr, "yaicli: %v\n", err)
		return exitUsage
	}
	if r.action == "show" {
		fmt.Fprint(stdout, script)
		return exitOK
	}
	path, next := completionTarget(shell, env, home)
	if path == "" {
		fmt.Fprintln(stderr, "yaicli: there is no home directory to install the completion in; print it with --show-completion and put it where your shell reads it")
		return exitFailure
	}
	if err := installScript(path, script); err != nil {
		fmt.Fprintf(stderr, "yaicli: writing the %s completion: %v\n  hint: print it with --show-completion %s and put it where your shell reads it\n", shell, err, shell)
		return exitFailure
	}
	fmt.Fprintf(stdout, "wrote the %s completion to %s\n%s", shell, path, next)
	return exitOK
}

// completeValues prints, one a line, the values the scripts ask for.
func completeValues(what, roles string, stdout, stderr io.Writer) int {
	if what != "role" {
		fmt.Fprintf(stderr, "yaicli: --%s knows role, not %q\n", completeValuesFlag, what)
		return exitUsage
	}
	for _, n := range listRoles(roles) {
		fmt.Fprintln(stdout, n)
	}
	return exitOK
}

// completionTarget is where shell loads a completion script from without
// being told, and what the person does next; "" without a home directory.
func completionTarget(shell string, env func(string) string, home string) (path, next string) {
	data, conf := env("XDG_DATA_HOME"), env("XDG_CONFIG_HOME")
	if home == "" && (shell == "zsh" || data == "" && shell == "bash" || conf == "" && shell == "fish") {
		return "", ""
	}
	if data == "" {
		data = filepath.Join(home, ".local", "share")
	}
	if conf == "" {
		conf = filepath.Join(home, ".config")
	}
	switch shell {
	case "bash":
		dir := filepath.Join(data, "bash-completion", "completions")
		if d := env("BASH_COMPLETION_USER_DIR"); d != "" {
			dir = filepath.Join(d, "completions")
		}
		path = filepath.Join(dir, "yaicli")
		return path, fmt.Sprintf("new bash shells load it through the bash-completion package (apt install bash-completion);\n"+
			"without that package, add this line to ~/.bashrc:\n  source %s\nFor this shell now: source %s\n", shellQuote(path), shellQuote(path))
	case "zsh":
		dir := filepath.Join(home, ".zfunc")
		path = filepath.Join(dir, "_yaicli")
		return path, fmt.Sprintf("zsh loads it from a directory on $fpath; unless %s is on yours, add these lines to ~/.zshrc (before any compinit):\n"+
			"  fpath=(%s $fpath)\n  autoload -Uz compinit && compinit\nthen start a new zsh (if completions are cached, rm -f ~/.zcompdump first)\n", dir, shellQuote(dir))
	}
	path = filepath.Join(conf, "fish", "completions", "yaicli.fish")
	return path, "fish loads it by itself the next time you complete yaicli; nothing more to do\n"
}

// installScript writes script to path atomically, creating its directory.
func installScript(path, script string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(path, []byte(script))
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_./~+-]+$`).MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dashedNames lists the flags as typed, separated by spaces.
func dashedNames(flags []complFlag) string {
	names := make([]string, len(flags))
	for i, f := range flags {
		names[i] = f.dashed()
	}
	return strings.Join(names, " ")
}

// caseLabel is a bash case label matching every flag for which keep holds.
func caseLabel(flags []complFlag, keep func(complFlag) bool) string {
	var names []string
	for _, f := range flags {
		if keep(f) {
			names = append(names, f.dashed())
		}
	}
	sort.Strings(names)
	return strings.Join(names, "|")
}

// bashCompletion is the bash script: flag names, the values of flags that
// have a fixed set, role names (asked of yaicli), and paths for path flags
// and other words. COMP_WORDBREAKS splits --flag=value at the =.
func bashCompletion(flags []complFlag) string {
	var b strings.Builder
	b.WriteString("# bash completion for yaicli; generated by yaicli --show-completion bash\n" +
		"_yaicli_roles() {\n" +
		"    local cmd=${COMP_WORDS[0]} name\n" +
		"    [[ $cmd == \"~/\"* ]] && cmd=$HOME/${cmd#\"~/\"}\n" +
		"    while IFS= read -r name; do\n" +
		"        [[ $name == \"$cur\"* || $(printf %q \"$name\") == \"$cur\"* ]] && COMPREPLY+=(\"$(printf %q \"$name\")\")\n" +
		"    done < <(\"$cmd\" --" + completeValuesFlag + " role 2>/dev/null)\n" +
		"}\n\n" +
		"_yaicli() {\n" +
		"    local cur=${COMP_WORDS[COMP_CWORD]} prev=\n" +
		"    local -i i=COMP_CWORD\n" +
		"    COMPREPLY=()\n" +
		"    [[ $cur == = ]] && cur=\n" +
		"    [[ ${COMP_WORDS[i-1]} == = ]] && ((i--)) # --flag=value: the flag is before the =\n" +
		"    ((i > 0)) && prev=${COMP_WORDS[i-1]}\n" +
		"    case $prev in\n")
	withWords := map[string][]complFlag{}
	for _, f := range flags {
		if len(f.words) > 0 {
			w := strings.Join(f.words, " ")
			withWords[w] = append(withWords[w], f)
		}
	}
	for _, w := range sortedKeysOf(withWords) {
		fmt.Fprintf(&b, "    %s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", caseLabel(withWords[w], func(complFlag) bool { return true }), w)
	}
	fmt.Fprintf(&b, "    %s) _yaicli_roles; return ;;\n", caseLabel(flags, func(f complFlag) bool { return f.roles }))
	fmt.Fprintf(&b, "    %s) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", caseLabel(flags, func(f complFlag) bool { return f.files }))
	if l := caseLabel(flags, func(f complFlag) bool { return f.value && len(f.words) == 0 && !f.files && !f.roles }); l != "" {
		fmt.Fprintf(&b, "    %s) return ;; # a value of its own: nothing to offer\n", l)
	}
	fmt.Fprintf(&b, "    esac\n"+
		"    if [[ $cur == -* ]]; then\n"+
		"        COMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n"+
		"        return\n"+
		"    fi\n"+
		"    compopt -o filenames 2>/dev/null\n"+
		"    COMPREPLY=($(compgen -f -- \"$cur\"))\n"+
		"}\n"+
		"complete -F _yaicli yaicli\n", dashedNames(flags))
	return b.String()
}

// sortedKeysOf lists m's keys in order.
func sortedKeysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// zshDesc is a flag's description inside a single-quoted _arguments spec.
func zshDesc(s string) string {
	s = strings.NewReplacer("'", `'\''`, "[", "(", "]", ")", `\`, "/").Replace(s)
	return s
}

// zshCompletion is the zsh script (an fpath function file, or sourced):
// _arguments specs with descriptions, value sets, roles and paths.
func zshCompletion(flags []complFlag) string {
	var b strings.Builder
	b.WriteString("#compdef yaicli\n# zsh completion for yaicli; generated by yaicli --show-completion zsh\n\n" +
		"_yaicli_roles() {\n" +
		"  local -a roles\n" +
		"  roles=(${(f)\"$(${~words[1]} --" + completeValuesFlag + " role 2>/dev/null)\"})\n" +
		"  compadd -a roles\n" +
		"}\n\n" +
		"_yaicli() {\n" +
		"  _arguments -S \\\n")
	for _, f := range flags {
		// "*": a flag may be given again (the last counts), and a spec
		// must not begin with "-M", which _arguments reads as its own.
		eq := ""
		if f.value && len(f.name) > 1 {
			eq = "=" // --name=value or --name value, as Go's flag package reads them
		}
		spec := "*" + f.dashed() + eq + "[" + zshDesc(f.desc) + "]"
		switch {
		case f.roles:
			spec += ":role:_yaicli_roles"
		case f.files:
			spec += ":path:_files"
		case f.value && len(f.words) > 0:
			spec += ":value:(" + strings.Join(f.words, " ") + ")"
		case f.value:
			spec += ":value: "
		case len(f.words) > 0: // a switch that may be followed by one of these
			spec += "::value:(" + strings.Join(f.words, " ") + ")"
		}
		fmt.Fprintf(&b, "    '%s' \\\n", spec)
	}
	b.WriteString("    '*:file:_files'\n" +
		"}\n\n" +
		"if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n" +
		"  _yaicli \"$@\"\n" +
		"else\n" +
		"  compdef _yaicli yaicli\n" +
		"fi\n")
	return b.String()
}

// fishQuote quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// fishCompletion is the fish script: one complete line per flag.
func fishCompletion(flags []complFlag) string {
	var b strings.Builder
	b.WriteString("# fish completion for yaicli; generated by yaicli --show-completion fish\n" +
		"function __yaicli_roles\n" +
		"    set -l cmd (commandline -opc)[1]\n" +
		"    command $cmd --" + completeValuesFlag + " role 2>/dev/null\n" +
		"end\n\n" +
		"# __yaicli_after FLAG...: the word before the cursor is one of them\n" +
		"function __yaicli_after\n" +
		"    set -l words (commandline -opc)\n" +
		"    test (count $words) -gt 1; and contains -- $words[-1] $argv\n" +
		"end\n\n")
	for _, f := range flags {
		opt := "-l " + f.name
		if len(f.name) == 1 {
			opt = "-s " + f.name
		}
		switch {
		case f.roles:
			opt += " -x -a '(__yaicli_roles)'"
		case f.files:
			opt += " -r -F"
		case f.value && len(f.words) > 0:
			opt += " -x -a " + fishQuote(strings.Join(f.words, " "))
		case f.value:
			opt += " -x"
		case len(f.words) > 0: // a switch that may be followed by one of these
			fmt.Fprintf(&b, "complete -c yaicli -n '__yaicli_after %s' -f -a %s\n", f.dashed(), fishQuote(strings.Join(f.words, " ")))
		}
		if f.desc != "" {
			opt += " -d " + fishQuote(f.desc)
		}
		fmt.Fprintf(&b, "complete -c yaicli %s\n", opt)
	}
	return b.String() + "# other words: paths (fish's default)\n"
}
