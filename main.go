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
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// usageText is --help: usage, flags, configuration, examples and exit codes.
const usageText = `yaicli - an LLM chat agent for the command line

Usage:
  yaicli [flags] "question"          answer one question on stdout
  cat file | yaicli [flags] "task"   stdin (up to 16 MiB) is sent as STDIN + "\n\n" + PROMPT
  yaicli --chat [flags]              interactive REPL (/help inside)
  yaicli --count-tokens [FILE...]    estimated tokens of stdin or each file and all (for -M MODEL)

Flags (before or after the question):
  -M, --model NAME          model (MODEL)
  -T, --temperature X       sampling temperature, 0-2 (TEMPERATURE)
  -P, --top-p X             nucleus sampling, 0-1 (TOP_P)
      --max-tokens N        maximum tokens of the answer (MAX_TOKENS)
      --no-stream           wait for the whole answer (STREAM=false)
  -p, --print               answer once and exit (the default without --chat)
  -i, --image PATH|URL      send an image with the question (repeatable; PNG, JPEG, GIF, WebP)
      --output-format F     text, json or stream-json on stdout (OUTPUT_FORMAT)
      --plain               print answers as the model sent them, no Markdown drawing (PRETTY=false)
      --show-reasoning, --hide-reasoning
                            show or hide the model's reasoning on stderr (SHOW_REASONING)
      --max-turns N         tool rounds for this run (MAX_TOOL_CALL_DEPTH)
      --context-window N    the model's context window in tokens (CONTEXT_WINDOW), for a
                            server that does not report it: 8192 for an 8k model; the budget
                            is 70% of it (CONTEXT_BUDGET_TOKENS sets the budget itself);
                            /context says where the window in use came from
      --enable-functions    offer the built-in tools (ENABLE_FUNCTIONS=true)
      --disable-functions   offer no tools (ENABLE_FUNCTIONS=false). When the tools' schemas
                            would take over 12% of the budget (TOOL_SCHEMA_SHARE; a small window, many MCP
                            tools), the built-ins and each MCP server's share are sent with
                            tool_search, which finds the rest; /context says what is deferred
      --no-project-instructions
                            leave out the workspace's AGENTS.md files (PROJECT_INSTRUCTIONS=false)
  -y, --yes                 run tools that execute or write without asking, except on
                            sensitive places (keys, yaicli's config, start-up files)
  -c, --chat                start the interactive REPL
      --config PATH         read PATH instead of ~/.config/yaicli/config.ini
      --template            print a complete default config.ini
      --write-config        write it to ~/.config/yaicli/config.ini (or --config PATH),
                            creating the directory; never replaces a file
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
      --show-completion [bash|zsh|fish]
                            print the shell completion script (shell from $SHELL if not named)
      --install-completion [bash|zsh|fish]
                            write it where that shell loads it, and say what to do next
      --forget-window [MODEL]
                            forget the context window learned from a rejection for
                            MODEL (default: MODEL's setting; "all": every model).
                            Learned windows are kept 7 days; /context shows the date
  -V, --verbose             show the effective configuration (key masked) and any learned window
  -v, --version             print the version
  -h, --help                this text

Configuration: ~/.config/yaicli/config.ini, section [core]; every key can be
overridden as YAI_<KEY> in the environment. Precedence: flag > env > file >
default. Run 'yaicli --write-config' to start one with every key and its default.

Examples:
  yaicli "how do I list open ports on linux?"
  git diff | yaicli -M gpt-4.1 "write a commit message"
  YAI_PROVIDER=ollama YAI_MODEL=qwen2.5 yaicli --yes "why is / full?"
  YAI_BASE_URL=http://localhost:8080/v1 yaicli --context-window 8192 --chat   # an 8k local model
  yaicli --write-config

Exit codes:
  0 success   1 provider or network error   2 usage or configuration error
  3 tool-round limit reached (EXIT_ON_DEPTH_LIMIT)
  4 context length exceeded after self-healing
  130 interrupted (Ctrl+C)   143 SIGTERM   129 SIGHUP
`

// main runs run with the process's edge, arguments and streams, and exits
// with its code.
func main() {
	if code, ok := sandboxEntry(os.Args); ok { // yaicli re-executed as a shell command's wrapper (sandbox.go)
		os.Exit(code)
	}
	hardenProcess(providerKeyVars())
	// SIGINT is handled per mode: one-shot cancels the run, the REPL the turn.
	restore := terminalRestorer(os.Stdin, os.Stdout)
	ctx, stop := signalContext(func(code int) {
		restore() // the normal path's defers will not run: put the terminal back here
		os.Stderr.WriteString("\nyaicli: still busy after the signal; exiting\n")
		os.Exit(code)
	})
	code := run(ctx, processEdge(os.Stdin, os.Stdout, os.Stderr), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are the command-line flags, parsed but not yet merged into config.
type options struct {
	help, version, template, verbose, chat, countTokens bool
	writeConfig                                         bool
	listProviders, listMCP, listRoles, listChats        bool
	shell, code, print, forgetWindow                    bool
	role, showRole, createRole, deleteRole              string
	configPath                                          string
	images                                              []string
	overrides                                           map[string]string // config KEY -> value
	prompt                                              []string
	completion                                          completionRequest // --show-completion, --install-completion
}

// defineFlags defines every flag on a new set storing into o: parseArgs
// parses with it and shellcompletion.go generates the completion scripts
// from it, so a new flag is completed without more work. contradiction
// says which switches given together contradict each other.
func defineFlags(o *options) (fs *flag.FlagSet, contradiction func() error) {
	fs = flag.NewFlagSet("yaicli", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	valueFlags(fs, o.overrides)
	contradiction = switches(fs, o.overrides)
	for _, b := range []struct {
		v     *bool
		names []string
	}{
		{&o.print, []string{"p", "print"}}, // one-shot, as Python YAICLI spells it: the default mode
		{&o.chat, []string{"c", "chat"}}, {&o.verbose, []string{"V", "verbose"}},
		{&o.version, []string{"v", "version"}}, {&o.help, []string{"h", "help"}},
		{&o.shell, []string{"s", "shell"}}, {&o.code, []string{"code"}},
		{&o.template, []string{"template"}}, {&o.writeConfig, []string{"write-config"}}, {&o.countTokens, []string{"count-tokens"}},
		{&o.listProviders, []string{"list-providers"}}, {&o.listMCP, []string{"list-mcp"}},
		{&o.listRoles, []string{"list-roles"}}, {&o.listChats, []string{"list-chats"}},
		{&o.forgetWindow, []string{"forget-window"}}, // the model, if named, is the next word
	} {
		for _, n := range b.names {
			fs.BoolVar(b.v, n, false, "")
		}
	}
	for _, s := range []struct {
		v     *string
		names []string
	}{
		{&o.role, []string{"r", "role"}}, {&o.configPath, []string{"config"}},
		{&o.showRole, []string{"show-role"}}, {&o.createRole, []string{"create-role"}}, {&o.deleteRole, []string{"delete-role"}},
	} {
		for _, n := range s.names {
			fs.StringVar(s.v, n, "", "")
		}
	}
	for _, n := range []string{"i", "image"} {
		fs.Func(n, "", func(v string) error { o.images = append(o.images, v); return nil })
	}
	completionFlags(fs, o)
	return fs, contradiction
}

// parseArgs parses flags anywhere among the arguments; "--" ends them.
// Flags that set a config key come from flagvalues.go's tables; the ones
// defineFlags adds choose what the run does.
func parseArgs(args []string) (*options, error) {
	o := &options{overrides: map[string]string{}}
	fs, contradiction := defineFlags(o)
	if err := parseAnywhere(fs, args, &o.prompt); err != nil {
		return nil, err
	}
	if err := contradiction(); err != nil {
		return nil, err
	}
	if o.print && o.chat {
		return nil, errors.New("-p/--print answers once and --chat starts a session; pick one")
	}
	if o.shell && o.code || (o.shell || o.code) && o.chat {
		return nil, errors.New("--shell, --code and --chat are different modes; pick one")
	}
	if len(o.images) > 0 && (o.chat || o.shell) {
		return nil, errors.New("--image goes with a one-shot question; in the REPL, ask the model to look at a file (fs_read_image)")
	}
	return o, nil
}

// parseAnywhere parses fs's flags before, between and after the words of
// args, which it appends to words; everything after "--" is words.
func parseAnywhere(fs *flag.FlagSet, args []string, words *[]string) error {
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return flagError(fs, err)
		}
		rest = fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			*words = append(*words, rest...)
			break
		}
		if len(rest) > 0 {
			*words = append(*words, rest[0])
			rest = rest[1:]
			args = rest
		}
	}
	return nil
}

// invocation is what every mode starts from: the edge, the flags, the
// configuration and the run's streams.
type invocation struct {
	e              *edge
	o              *options
	cfg            *config
	p              parts // what each part of the program gets of cfg, built once (configparts.go)
	stdin          io.Reader
	stdout, stderr io.Writer
}

// fail prints err once, as run prints every error, and returns code.
func (in *invocation) fail(code int, err error) int {
	fmt.Fprintf(in.stderr, "yaicli: %v\n", err)
	return code
}

// run is the whole program; it returns the exit code. e is the process
// as main read it; nothing below run reads the process another way.
func run(ctx context.Context, e *edge, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	in := &invocation{e: e, stdin: stdin, stdout: stdout, stderr: stderr}
	o, err := parseArgs(args)
	if err != nil {
		return in.fail(exitUsage, err)
	}
	in.o = o
	if o.completion.action != "" {
		return runCompletion(o.completion, o.prompt, e.getenv, e.home, rolesDir(e.configDir()), stdout, stderr)
	}
	if code, done := infoCommand(o, stdout); done {
		return code
	}
	if o.writeConfig {
		return writeConfigFile(e.sources(o).path, stdout, stderr)
	}
	if in.cfg, err = loadConfig(e.sources(o), stderr); err != nil {
		return in.fail(exitUsage, err)
	}
	in.p = newParts(in.cfg, e.configDir())
	if o.verbose && !o.verboseAlone() { // alone, it is the output asked for: ask writes it on stdout
		writeVerbose(stderr, in.cfg, in.p.red)
		writeLearnedWindows(stderr, openWindowCache(in.p.cacheDir, in.p.now), in.cfg.Model)
	}
	if o.countTokens {
		return countTokens(in.cfg.Model, o.prompt, stdin, stdout, stderr)
	}
	cleaned := make(chan struct{})
	go func() {
		removeOldSpills(in.cfg.ToolOutputDir, in.cfg.ToolOutputRetentionDays, e.now())
		close(cleaned)
	}()
	defer func() { <-cleaned }()
	switch {
	case o.listRoles || o.showRole != "" || o.createRole != "" || o.deleteRole != "":
		return in.roleCommand()
	case o.listChats:
		writeChatList(screenWriter{w: stdout}, in.cfg.ChatHistoryDir, in.cfg.MaxSavedChats)
		return exitOK
	case o.forgetWindow:
		return forgetWindowCommand(openWindowCache(in.p.cacheDir, in.p.now), in.cfg.Model, o.prompt, stdout)
	case o.listMCP:
		return in.listMCP(ctx)
	}
	return in.ask(ctx)
}

// writeVerbose is --verbose's report: the effective configuration (its
// secrets hidden by red) and how commands are fenced.
func writeVerbose(w io.Writer, cfg *config, red *redactor) {
	writeEffective(w, cfg, red)
	fmt.Fprintln(w, sandboxStatus(cfg.Sandbox, cfg.SandboxNetwork))
}

// verboseAlone reports -V with no question and no other command: then the
// configuration is what was asked for (on stdout, so `yaicli -V > cfg.txt`
// keeps it), unless a question comes on stdin.
func (o *options) verboseAlone() bool {
	return o.verbose && len(o.prompt) == 0 && !o.chat && !o.countTokens && !o.listRoles && !o.listChats && !o.listMCP &&
		o.showRole == "" && o.createRole == "" && o.deleteRole == ""
}

// writeConfigFile is --write-config: the --template text written to path,
// its directory created (0700) when missing, atomically and never over an
// existing file (a link of a complete temporary file, which fails when the
// name exists), so it is safe on a fresh account and on a configured one.
func writeConfigFile(path string, stdout, stderr io.Writer) int {
	var b strings.Builder
	writeTemplate(&b)
	err := os.MkdirAll(filepath.Dir(path), 0o700)
	if err == nil {
		err = writeNewFile(path, []byte(b.String()))
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		fmt.Fprintf(stderr, "yaicli: %s exists; not replaced (edit it, or move it away and run --write-config again; --template prints the defaults)\n", path)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "yaicli: writing %s: %v\n", path, err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "wrote %s: every key with its default; set PROVIDER, MODEL and API_KEY (or the provider's key variable)\n", path)
	return exitOK
}

// writeNewFile creates path with b, mode 0600, only if nothing has that
// name: the text is written whole to a temporary file first, and linked
// under path only then, so no reader sees half of it.
func writeNewFile(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Link(tmp.Name(), path)
}

// infoCommand runs --help, --version, --template and --list-providers,
// which need no configuration; done reports whether one of them ran.
func infoCommand(o *options, stdout io.Writer) (code int, done bool) {
	switch {
	case o.help:
		fmt.Fprint(stdout, usageText)
	case o.version:
		fmt.Fprintf(stdout, "yaicli %s\n", version)
	case o.template:
		writeTemplate(stdout)
	case o.listProviders:
		writeProviders(stdout)
	default:
		return 0, false
	}
	return exitOK, true
}

// listMCP is --list-mcp: start the servers and list their tools; a server
// that fails is in the list itself (exit 1), not warned about twice.
func (in *invocation) listMCP(ctx context.Context) int {
	warn := io.Discard
	if in.o.verbose {
		warn = in.stderr // servers' own stderr
	}
	o := in.p.mcp
	hub, err := startMCP(ctx, o, warn, in.o.verbose)
	if err != nil {
		return in.fail(exitUsage, err)
	}
	defer hub.close()
	if writeMCPList(in.stdout, hub, o.path) > 0 {
		return exitFailure
	}
	return exitOK
}

// ask is every mode that asks the model: one-shot (the default), --shell,
// --code and --chat. It reads the role and the prompt, checks the key and
// starts the MCP servers the mode offers.
func (in *invocation) ask(ctx context.Context) int {
	cfg, o := in.cfg, in.o
	roleName := in.p.session.defaultRole
	switch {
	case o.role != "":
		roleName = o.role
	case o.code:
		roleName = roleCode
	}
	r, err := loadRole(rolesDir(in.e.configDir()), roleName)
	if err != nil {
		return in.fail(exitUsage, err)
	}
	system := withProjectInstructions(fillRole(in.p.session.roles, r.Prompt), cfg.ProjectInstructions, cfg.workDir, in.stderr)
	var prompt string
	var attached []string // files the prompt attaches with @, free to read
	if !o.chat {
		if prompt, attached, err = in.prompt(ctx); err != nil {
			var stopped signalledRead
			if errors.As(err, &stopped) {
				fmt.Fprintln(in.stderr, "yaicli: interrupted")
				return stopped.code
			}
			if o.verbose && errors.Is(err, errNothingToAsk) {
				writeVerbose(in.stdout, cfg, in.p.red) // -V alone: the configuration is the output, and that is all
				return exitOK
			}
			return in.fail(exitUsage, err)
		}
		if o.verboseAlone() { // the question came on stdin: the configuration is a diagnostic
			writeVerbose(in.stderr, cfg, in.p.red)
		}
	}
	images, err := imageArgs(o.images, cfg.Provider)
	if err != nil {
		return in.fail(exitUsage, err)
	}
	if err := checkAPIKey(cfg); err != nil {
		return in.fail(exitUsage, err)
	}
	// One-shot runs end on Ctrl+C; the REPL cancels only the turn.
	runCtx, stop := in.e.interrupts(ctx)
	defer stop()
	if o.shell {
		return in.shellMode(runCtx, prompt)
	}
	var hub *mcpHub
	if in.p.session.mcp && in.p.session.tools && !o.code {
		if hub, err = startMCP(ctx, in.p.mcp, in.stderr, o.verbose); err != nil {
			return in.fail(exitUsage, err)
		}
		defer hub.close()
	}
	if o.chat {
		made := func(w agentIO) *agent { return in.p.agentFor(in.p.window(ctx), w, hub) }
		st := sessionStart{o: in.p.session, red: in.p.red, render: in.p.render, agent: made}
		return runREPL(ctx, in.e, st, strings.Join(o.prompt, " "), system, in.stdin, in.stdout, in.stderr)
	}
	return in.oneShot(runCtx, system, message{Role: "user", Content: prompt, images: images}, attached, hub)
}

// shellMode is -s/--shell: the model's command for task, shown, confirmed
// and run in the person's shell (runShellMode); its exit code is the run's.
func (in *invocation) shellMode(ctx context.Context, task string) int {
	o := in.p.session.shell
	cmd, err := generateCommand(ctx, o, fillRole(in.p.session.roles, mustRole(roleShell)), in.p.sendVia(in.stderr), task)
	if err != nil {
		return exitCode(ctx, err, in.p.session.failures, in.stderr)
	}
	return runShellMode(ctx, in.e, o, cmd, in.stdin, in.stdout, in.stderr)
}

// prompt is a one-shot run's question: piped stdin and the words, with the
// files it names by @ attached; problems attaching are told, not fatal.
func (in *invocation) prompt(ctx context.Context) (prompt string, attached []string, err error) {
	readCtx, stop := in.e.interrupts(ctx) // Ctrl+C while piped text is still coming
	defer stop()
	if prompt, err = oneShotPrompt(readCtx, in.o.prompt, in.stdin, in.e.stdinTTY); err != nil {
		return "", nil, err
	}
	var problems []string
	typed := strings.Join(in.o.prompt, " ") // piped text never attaches files (attach.go)
	attached = fileRefs(typed, in.cfg.homeDir)
	if prompt, problems = expandTypedRefs(prompt, typed, attachGate(in.p.tools.perms, in.p.red)); len(problems) > 0 {
		fmt.Fprintf(in.stderr, "yaicli: not attached: %s\n", strings.Join(problems, "; "))
	}
	return prompt, attached, nil
}

// oneShot answers one question (the user message q, its images with it)
// on stdout (--code: only its code) and exits with the turn's code.
func (in *invocation) oneShot(ctx context.Context, system string, q message, attached []string, hub *mcpHub) int {
	p, stdout, stderr := in.p, in.stdout, in.stderr
	ev, diag, diagTTY := newEvents(p.session.outputFormat, stdout, in.e.now), stderr, in.e.stderrTTY
	// One answer per file: a retry's partial answer is held back from a
	// file or pipe, struck on a terminal (events.answers).
	answer := ev.answers(stdout, stdout, stderr, in.e.stdoutTTY)
	defer ev.keep() // after the fence filter's last line
	var out io.Writer
	if in.o.code {
		ff := &fenceFilter{w: answer}
		defer ff.flush()
		out = ff
		p.agent.tools = false // code only: a mode that must not use tools
	} else {
		out = answerWriter(p.render, answer, in.e.stdoutTTY, in.e.getenv, terminalSize(stdout))
	}
	if ev.on() { // stdout carries only events; the agent's diagnostics are events too
		out, diag, diagTTY = io.Discard, &noticeWriter{ev: ev}, false
	}
	a := p.agentFor(p.window(ctx), agentIO{answer: out, raw: !in.e.stdoutTTY, diag: diag,
		think: newReasoningView(diag, diagTTY, in.e.getenv), spinTo: spinnerOn(diag, diagTTY, in.e.getenv),
		width: terminalWidth(stderr), ask: askOn(in.stdin, in.e.stdinTTY, stderr, in.e.openTTY), ev: ev}, hub)
	a.startSession()
	a.attach(attached...)
	hist := []message{{Role: "system", Content: system}, q}
	_, err := a.eventTurn(ctx, hist)
	a.endAnswer()
	if in.o.verbose {
		fmt.Fprintln(stderr, a.spent.verboseLine(a.pricing()))
	}
	return exitEvents(ctx, err, p.session.failures, stderr, ev)
}

// roleCommand runs --list-roles, --show-role, --create-role or
// --delete-role.
func (in *invocation) roleCommand() int {
	o, dir := in.o, rolesDir(in.e.configDir())
	switch {
	case o.listRoles:
		writeRoleList(in.stdout, dir)
	case o.showRole != "":
		r, err := loadRole(dir, o.showRole)
		if err != nil {
			return in.fail(exitUsage, err)
		}
		fmt.Fprintf(in.stdout, "%s\n%s\n", r.Name, r.Prompt)
	case o.createRole != "":
		if in.e.stdinTTY {
			fmt.Fprintf(in.stderr, "Prompt for role %q, then Ctrl+D:\n", o.createRole)
		}
		b, err := io.ReadAll(in.stdin)
		if err != nil {
			return in.fail(exitUsage, err)
		}
		if err := saveRole(dir, role{Name: o.createRole, Prompt: strings.TrimSpace(string(b))}); err != nil {
			return in.fail(exitUsage, err)
		}
		fmt.Fprintf(in.stdout, "role %q saved in %s\n", o.createRole, roleFile(dir, o.createRole))
	case o.deleteRole != "":
		if err := deleteRole(dir, o.deleteRole); err != nil {
			return in.fail(exitUsage, err)
		}
		fmt.Fprintf(in.stdout, "role %q deleted\n", o.deleteRole)
	}
	return exitOK
}

// oneShotPrompt combines piped stdin (not a terminal: stdinTTY false) and
// the prompt words.
func oneShotPrompt(ctx context.Context, words []string, stdin io.Reader, stdinTTY bool) (string, error) {
	prompt := strings.TrimSpace(strings.Join(words, " "))
	var in string
	if stdin != nil && !stdinTTY {
		b, err := readPiped(ctx, stdin, maxPipedPrompt)
		if err != nil {
			return "", err
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

// readPiped reads r to its end, at most limit bytes, or until ctx ends (a
// signal), which it returns as a signalledRead. A read of a pipe cannot be
// interrupted, so it reads in a goroutine of its own, left behind blocked
// when a signal comes: the process is ending then.
func readPiped(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, limit+1))
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		switch {
		case res.err != nil:
			return nil, fmt.Errorf("reading stdin: %w", res.err)
		case int64(len(res.b)) > limit:
			return nil, fmt.Errorf("the text piped in is over %d MiB, more than any model's window: pipe the part that matters (tail -n 2000 LOG | yaicli ...), or name the file in the question for the model to read in pages", limit>>20)
		}
		return res.b, nil
	case <-ctx.Done():
		return nil, signalledRead{interruptCode(ctx)}
	}
}

// signalledRead is a read of stdin ended by a signal, with the exit code
// that signal gives.
type signalledRead struct{ code int }

// Error says the read was interrupted.
func (signalledRead) Error() string { return "interrupted while reading stdin" }

// errNothingToAsk is a one-shot run without a question or piped text.
var errNothingToAsk = errors.New(`nothing to ask: give a question ("yaicli \"why is the sky blue?\""), pipe text in, or use --chat`)

// countTokens prints the estimate for files (or stdin) priced by the
// model's tokenizer family, and names the family; with several files, a
// line for each before the total, as wc prints them. Inputs are read in
// blocks (countReader), so a log of any size is counted in bounded memory.
func countTokens(model string, files []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fam := familyOf(model)
	if len(files) == 0 {
		n, err := countReader(fam, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: reading stdin: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(stdout, "~%d tokens (%s family: %s)\n", n, fam.name, model)
		return exitOK
	}
	total := 0
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: %v\n", err)
			return exitUsage
		}
		n, err := countReader(fam, f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: reading %s: %v\n", name, err)
			return exitFailure
		}
		if len(files) > 1 {
			fmt.Fprintf(stdout, "~%d tokens  %s\n", n, name)
		}
		total += n
	}
	fmt.Fprintf(stdout, "~%d tokens (%s family: %s)\n", total, fam.name, model)
	return exitOK
}

// countBlock is how much of an input countReader estimates at a time.
const countBlock = 4 << 20

// countReader estimates what r holds a block at a time, each cut after its
// last line break (or, in a line longer than a block, before a character
// the block's end would split), so that no word or run is cut in two.
func countReader(fam family, r io.Reader) (int, error) {
	buf := make([]byte, countBlock)
	total, have := 0, 0
	for {
		n, err := io.ReadFull(r, buf[have:])
		have += n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return total + fam.tokens(string(buf[:have])), nil
		}
		if err != nil {
			return 0, err
		}
		cut := blockCut(buf)
		total += fam.tokens(string(buf[:cut]))
		have = copy(buf, buf[cut:have])
	}
}

// blockCut is where a full block b is cut: after its last line break, or,
// in a line longer than the block, before a character its end would split.
func blockCut(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// sources are what loadConfig merges, as this edge and the flags give them.
func (e *edge) sources(o *options) configSources {
	src := configSources{version: version, path: o.configPath, explicit: o.configPath != "", env: e.getenv, flags: o.overrides,
		tmpDir: e.tmpDir, uid: e.uid, home: e.home, workDir: e.workDir, environ: e.environ, cacheDir: e.cacheDir, now: e.now}
	if src.path == "" {
		src.path = filepath.Join(e.configDir(), "config.ini")
	}
	return src
}
