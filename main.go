// Command yaicli is a command-line LLM chat agent that keeps long agent tasks
// within the model's context: tool output is truncated before it enters the
// conversation but spilled to disk in full, every request fits a token
// budget, history is trimmed by whole turn groups, and a context-length
// rejection heals instead of ending the session.
//
// Usage:
//
//	yaicli [flags] "question"        one answer on stdout
//	cat log | yaicli "what failed?"  stdin and prompt, as STDIN + "\n\n" + PROMPT
//	yaicli --chat                    interactive REPL
//
// Example, against a local Ollama with a small budget:
//
//	YAI_PROVIDER=ollama YAI_MODEL=llama3.1 YAI_CONTEXT_BUDGET_TOKENS=6000 \
//	    yaicli "list the five largest files under /var/log"
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"golang.org/x/term"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit codes are part of the interface; --help and the README list them.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitDepthLimit  = 3
	exitContextFull = 4
	exitInterrupted = 130
)

// usageText is --help: usage, flags, configuration, examples and exit codes.
const usageText = `yaicli - an LLM chat agent for the command line

Usage:
  yaicli [flags] "question"          answer one question on stdout
  cat file | yaicli [flags] "task"   stdin is sent as STDIN + "\n\n" + PROMPT
  yaicli --chat [flags]              interactive REPL (/help inside)
  yaicli --count-tokens [FILE...]    estimated tokens of the files or stdin (for -M MODEL)

Flags (before or after the question):
  -M, --model NAME          model (MODEL)
  -T, --temperature X       sampling temperature, 0-2 (TEMPERATURE)
  -P, --top-p X             nucleus sampling, 0-1 (TOP_P)
      --max-tokens N        maximum tokens of the answer (MAX_TOKENS)
      --no-stream           wait for the whole answer (STREAM=false)
  -p, --print               answer once and exit (the default without --chat)
      --output-format F     text, json or stream-json on stdout (OUTPUT_FORMAT)
      --plain               print answers as the model sent them, no Markdown drawing (PRETTY=false)
      --show-reasoning, --hide-reasoning
                            show or hide the model's reasoning on stderr (SHOW_REASONING)
      --max-turns N         tool rounds for this run (MAX_TOOL_CALL_DEPTH)
      --enable-functions    offer the built-in tools (ENABLE_FUNCTIONS=true)
      --disable-functions   offer no tools (ENABLE_FUNCTIONS=false)
  -y, --yes                 run tools that execute or write without asking
  -c, --chat                start the interactive REPL
      --config PATH         read PATH instead of ~/.config/yaicli/config.ini
      --template            print a complete default config.ini
  -s, --shell               ask for one shell command, confirm, run it (exit code is its own)
      --code                answer with code only, no Markdown
  -r, --role NAME           use a role's system prompt (DEFAULT_ROLE)
      --list-roles, --show-role NAME, --create-role NAME, --delete-role NAME
                            manage roles in ~/.config/yaicli/roles (prompt from stdin)
      --list-chats          saved chats; --chat "title" continues one
      --list-providers      provider presets, their URLs and key variables
      --enable-mcp          offer the tools of ~/.config/yaicli/mcp.json (ENABLE_MCP)
      --disable-mcp         offer no MCP tools (ENABLE_MCP=false)
      --show-function-output, --hide-function-output
                            preview built-in tool output or not (SHOW_FUNCTION_OUTPUT)
      --show-mcp-output, --hide-mcp-output
                            preview MCP tool output or not (SHOW_MCP_OUTPUT)
      --justify MODE        default, left, center, right or full (JUSTIFY)
      --list-mcp            start the MCP servers and list their tools (exit 1 if one fails)
  -V, --verbose             show the effective configuration (key masked)
  -v, --version             print the version
  -h, --help                this text

Configuration: ~/.config/yaicli/config.ini, section [core]; every key can be
overridden as YAI_<KEY> in the environment. Precedence: flag > env > file >
default. Run 'yaicli --template' for every key with its default.

Examples:
  yaicli "how do I list open ports on linux?"
  git diff | yaicli -M gpt-4.1 "write a commit message"
  YAI_PROVIDER=ollama YAI_MODEL=qwen2.5 yaicli --yes "why is / full?"
  yaicli --template > ~/.config/yaicli/config.ini

Exit codes:
  0 success   1 provider or network error   2 usage or configuration error
  3 tool-round limit reached (EXIT_ON_DEPTH_LIMIT)
  4 context length exceeded after self-healing
  130 interrupted (Ctrl+C)   143 SIGTERM   129 SIGHUP
`

// main runs run with the process's arguments and streams, and exits with its code.
func main() {
	// SIGINT is handled per mode: one-shot cancels the run, the REPL the turn.
	restore := terminalRestorer(os.Stdin, os.Stdout)
	ctx, stop := signalContext(func(code int) {
		restore() // the normal path's defers will not run: put the terminal back here
		os.Stderr.WriteString("\nyaicli: still busy after the signal; exiting\n")
		os.Exit(code)
	})
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are the command-line flags, parsed but not yet merged into config.
type options struct {
	help, version, template, verbose, chat, countTokens bool
	listProviders, listMCP, listRoles, listChats        bool
	shell, code                                         bool
	role, showRole, createRole, deleteRole              string
	configPath                                          string
	overrides                                           map[string]string // config KEY -> value
	prompt                                              []string
}

// parseArgs parses flags anywhere among the arguments; "--" ends them.
func parseArgs(args []string, stderr io.Writer) (*options, error) {
	o := &options{overrides: map[string]string{}}
	fs := flag.NewFlagSet("yaicli", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var noStream, enableFn, disableFn, yes, plain, showReasoning, hideReasoning, print bool
	var outputFormat string
	fs.StringVar(&outputFormat, "output-format", "", "")
	for _, n := range []string{"p", "print"} {
		fs.BoolVar(&print, n, false, "") // one-shot, as Python YAICLI spells it: the default mode
	}
	fs.BoolVar(&plain, "plain", false, "")
	fs.BoolVar(&showReasoning, "show-reasoning", false, "")
	fs.BoolVar(&hideReasoning, "hide-reasoning", false, "")
	valueFlags(fs, o.overrides)
	switches(fs, o.overrides)
	fs.BoolVar(&noStream, "no-stream", false, "")
	fs.BoolVar(&enableFn, "enable-functions", false, "")
	fs.BoolVar(&disableFn, "disable-functions", false, "")
	for _, n := range []string{"y", "yes"} {
		fs.BoolVar(&yes, n, false, "")
	}
	for _, n := range []string{"c", "chat"} {
		fs.BoolVar(&o.chat, n, false, "")
	}
	for _, n := range []string{"V", "verbose"} {
		fs.BoolVar(&o.verbose, n, false, "")
	}
	for _, n := range []string{"v", "version"} {
		fs.BoolVar(&o.version, n, false, "")
	}
	for _, n := range []string{"h", "help"} {
		fs.BoolVar(&o.help, n, false, "")
	}
	fs.BoolVar(&o.template, "template", false, "")
	fs.BoolVar(&o.countTokens, "count-tokens", false, "")
	fs.BoolVar(&o.listProviders, "list-providers", false, "")
	fs.BoolVar(&o.listMCP, "list-mcp", false, "")
	var enableMCP bool
	fs.BoolVar(&enableMCP, "enable-mcp", false, "")
	fs.StringVar(&o.configPath, "config", "", "")
	for _, n := range []string{"s", "shell"} {
		fs.BoolVar(&o.shell, n, false, "")
	}
	fs.BoolVar(&o.code, "code", false, "")
	for _, n := range []string{"r", "role"} {
		fs.StringVar(&o.role, n, "", "")
	}
	fs.BoolVar(&o.listRoles, "list-roles", false, "")
	fs.BoolVar(&o.listChats, "list-chats", false, "")
	fs.StringVar(&o.showRole, "show-role", "", "")
	fs.StringVar(&o.createRole, "create-role", "", "")
	fs.StringVar(&o.deleteRole, "delete-role", "", "")

	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return nil, flagError(fs, err)
		}
		rest = fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			o.prompt = append(o.prompt, rest...)
			break
		}
		if len(rest) > 0 {
			o.prompt = append(o.prompt, rest[0])
			rest = rest[1:]
			args = rest
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	pick := func(key, value string, names ...string) {
		for _, n := range names {
			if set[n] {
				o.overrides[key] = value
			}
		}
	}
	pick("STREAM", "false", "no-stream")
	pick("ENABLE_FUNCTIONS", "true", "enable-functions")
	pick("ENABLE_FUNCTIONS", "false", "disable-functions")
	pick("TOOL_APPROVAL", "auto", "y", "yes")
	pick("ENABLE_MCP", "true", "enable-mcp")
	pick("PRETTY", "false", "plain")
	pick("SHOW_REASONING", "true", "show-reasoning")
	pick("SHOW_REASONING", "false", "hide-reasoning")
	pick("OUTPUT_FORMAT", outputFormat, "output-format")
	if print && o.chat {
		return nil, errors.New("-p/--print answers once and --chat starts a session; pick one")
	}
	if set["enable-functions"] && set["disable-functions"] {
		return nil, errors.New("--enable-functions and --disable-functions contradict each other")
	}
	if o.shell && o.code || (o.shell || o.code) && o.chat {
		return nil, errors.New("--shell, --code and --chat are different modes; pick one")
	}
	return o, nil
}

// run is the whole program; it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "yaicli: %v\n", err)
		return exitUsage
	}
	switch {
	case o.help:
		fmt.Fprint(stdout, usageText)
		return exitOK
	case o.version:
		fmt.Fprintf(stdout, "yaicli %s\n", version)
		return exitOK
	case o.template:
		writeTemplate(stdout)
		return exitOK
	case o.listProviders:
		writeProviders(stdout)
		return exitOK
	}
	src := configSources{path: o.configPath, explicit: o.configPath != "", env: os.Getenv, flags: o.overrides, tmpDir: os.TempDir(), uid: os.Geteuid(), home: homeDir()}
	src.workDir, _ = os.Getwd()
	if src.path == "" {
		src.path = defaultConfigPath(os.Getenv)
	}
	cfg, err := loadConfig(src, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "yaicli: %v\n", err)
		return exitUsage
	}
	if o.verbose {
		writeEffective(stderr, cfg)
	}
	if o.countTokens {
		return countTokens(cfg.Model, o.prompt, stdin, stdout, stderr)
	}
	cleaned := make(chan struct{})
	go func() {
		removeOldSpills(cfg.ToolOutputDir, cfg.ToolOutputRetentionDays, time.Now())
		close(cleaned)
	}()
	defer func() { <-cleaned }()
	if code, done := roleCommands(o, stdin, stdout, stderr); done {
		return code
	}
	if o.listChats {
		writeChatList(stdout, cfg.ChatHistoryDir, cfg.MaxSavedChats)
		return exitOK
	}
	if o.listMCP { // failures are in the list itself, not warned about twice
		warn := io.Discard
		if o.verbose {
			warn = stderr // servers' own stderr
		}
		path := mcpConfigPath(cfg, os.Getenv)
		hub, err := startMCP(ctx, cfg, path, warn, o.verbose)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: %v\n", err)
			return exitUsage
		}
		defer hub.close()
		if writeMCPList(stdout, hub, path) > 0 {
			return exitFailure
		}
		return exitOK
	}
	roleName := cfg.DefaultRole
	switch {
	case o.role != "":
		roleName = o.role
	case o.code:
		roleName = roleCode
	}
	r, err := loadRole(rolesDir(os.Getenv), roleName)
	if err != nil {
		fmt.Fprintf(stderr, "yaicli: %v\n", err)
		return exitUsage
	}
	system := fillRole(cfg, r.Prompt)
	var prompt string
	var attached []string // files the prompt attaches with @, free to read
	if !o.chat {
		if prompt, err = oneShotPrompt(o.prompt, stdin); err != nil {
			if o.verbose && errors.Is(err, errNothingToAsk) {
				return exitOK // -V alone shows the configuration, and that is all
			}
			fmt.Fprintf(stderr, "yaicli: %v\n", err)
			return exitUsage
		}
		var problems []string
		attached = fileRefs(prompt)
		if prompt, problems = expandFileRefs(prompt); len(problems) > 0 {
			fmt.Fprintf(stderr, "yaicli: not attached: %s\n", strings.Join(problems, "; "))
		}
	}
	if err := checkAPIKey(cfg); err != nil {
		fmt.Fprintf(stderr, "yaicli: %v\n", err)
		return exitUsage
	}
	// One-shot runs end on Ctrl+C; the REPL cancels only the turn.
	runCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	if o.shell {
		return runShellMode(runCtx, cfg, prompt, stdin, stdout, stderr)
	}
	var hub *mcpHub
	if cfg.EnableMCP && cfg.EnableFunctions && !o.code {
		if hub, err = startMCP(ctx, cfg, mcpConfigPath(cfg, os.Getenv), stderr, o.verbose); err != nil {
			fmt.Fprintf(stderr, "yaicli: %v\n", err)
			return exitUsage
		}
		defer hub.close()
	}
	if o.chat {
		return runREPL(ctx, cfg, strings.Join(o.prompt, " "), system, hub, stdin, stdout, stderr)
	}
	out := stdout
	if o.code {
		ff := &fenceFilter{w: stdout}
		defer ff.flush()
		out = ff
		cfg = cfg.withoutTools()
	} else {
		out = answerWriter(cfg, stdout, isTerminal(stdout), os.Getenv, terminalWidth(stdout))
	}
	ev, diag := newEvents(cfg.OutputFormat, stdout, time.Now), stderr
	if ev.on() { // stdout carries only events; the agent's diagnostics are events too
		out, diag = io.Discard, &noticeWriter{ev: ev}
	}
	a := agentFor(cfg, resolveWindow(runCtx, cfg, openWindowCache()), agentIO{answer: out, raw: !isTerminal(stdout), diag: diag,
		think: newReasoningView(diag, isTerminal(diag), os.Getenv), spinTo: spinnerOn(diag, isTerminal(diag), os.Getenv),
		width: terminalWidth(stderr), ask: askOn(stdin, stderr, openTTY), ev: ev}, hub)
	a.startSession()
	a.attach(attached...)
	hist := []message{{Role: "system", Content: system}, {Role: "user", Content: prompt}}
	_, err = a.eventTurn(runCtx, hist)
	a.endAnswer()
	return exitEvents(runCtx, err, cfg, stderr, ev)
}

// roleCommands runs --list-roles, --show-role, --create-role and
// --delete-role; done reports whether one of them ran.
func roleCommands(o *options, stdin io.Reader, stdout, stderr io.Writer) (code int, done bool) {
	dir := rolesDir(os.Getenv)
	fail := func(err error) (int, bool) {
		fmt.Fprintf(stderr, "yaicli: %v\n", err)
		return exitUsage, true
	}
	switch {
	case o.listRoles:
		writeRoleList(stdout, dir)
	case o.showRole != "":
		r, err := loadRole(dir, o.showRole)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "%s\n%s\n", r.Name, r.Prompt)
	case o.createRole != "":
		if isTerminal(stdin) {
			fmt.Fprintf(stderr, "Prompt for role %q, then Ctrl+D:\n", o.createRole)
		}
		b, err := io.ReadAll(stdin)
		if err != nil {
			return fail(err)
		}
		if err := saveRole(dir, role{Name: o.createRole, Prompt: strings.TrimSpace(string(b))}); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "role %q saved in %s\n", o.createRole, roleFile(dir, o.createRole))
	case o.deleteRole != "":
		if err := deleteRole(dir, o.deleteRole); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "role %q deleted\n", o.deleteRole)
	default:
		return 0, false
	}
	return exitOK, true
}

// exitCode reports err once on stderr and maps it to the exit code.
func exitCode(ctx context.Context, err error, cfg *config, stderr io.Writer) int {
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "yaicli: interrupted")
		return interruptCode(ctx)
	case errors.Is(err, errDepthLimit):
		if cfg.ExitOnDepthLimit {
			return exitDepthLimit
		}
		return exitOK
	}
	fmt.Fprintf(stderr, "yaicli: %s\n", cfg.errorText(err))
	if h := hint(err, cfg, false); h != "" {
		fmt.Fprintf(stderr, "  hint: %s\n", h)
	}
	if errors.Is(err, errContextLength) {
		return exitContextFull
	}
	return exitFailure
}

// oneShotPrompt combines piped stdin and the prompt words.
func oneShotPrompt(words []string, stdin io.Reader) (string, error) {
	prompt := strings.TrimSpace(strings.Join(words, " "))
	var in string
	if stdin != nil && !isTerminal(stdin) {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", fmt.Errorf("reading stdin: %w", err)
		}
		in = strings.TrimRight(string(b), "\n")
	}
	switch {
	case in != "" && prompt != "":
		return in + "\n\n" + prompt, nil
	case in != "":
		return in, nil
	case prompt != "":
		return prompt, nil
	}
	return "", errNothingToAsk
}

// errNothingToAsk is a one-shot run without a question or piped text.
var errNothingToAsk = errors.New(`nothing to ask: give a question ("yaicli \"why is the sky blue?\""), pipe text in, or use --chat`)

// askOn returns a question asker on the terminal: stdin when it is one,
// else the session's controlling terminal (/dev/tty, opened at the first
// question), as sudo and ssh ask when stdin is a pipe. Without either it
// is nil, and tools that need approval are refused.
func askOn(stdin io.Reader, w io.Writer, openTTY func() (*os.File, error)) func(string) (string, error) {
	if isTerminal(stdin) {
		br := bufio.NewReader(stdin)
		return func(q string) (string, error) {
			fmt.Fprint(w, q)
			return br.ReadString('\n')
		}
	}
	tty, err := openTTY()
	if err != nil {
		return nil
	}
	br := bufio.NewReader(tty)
	return func(q string) (string, error) {
		fmt.Fprint(tty, q)
		return br.ReadString('\n')
	}
}

// openTTY opens the controlling terminal; it fails when there is none.
func openTTY() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }

// homeDir is $HOME, else the system's idea of it, else "".
func homeDir() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// isTerminal reports whether r (or w) is an interactive terminal.
func isTerminal(f any) bool {
	if fd, ok := f.(interface{ Fd() uintptr }); ok {
		return term.IsTerminal(int(fd.Fd()))
	}
	return false
}

// countTokens prints the estimate for files (or stdin) priced by the
// model's tokenizer family, and names the family.
func countTokens(model string, files []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fam, total := familyOf(model), 0
	if len(files) == 0 {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: reading stdin: %v\n", err)
			return exitFailure
		}
		total = fam.tokens(string(b))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: %v\n", err)
			return exitUsage
		}
		total += fam.tokens(string(b))
	}
	fmt.Fprintf(stdout, "~%d tokens (%s family: %s)\n", total, fam.name, model)
	return exitOK
}
