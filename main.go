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
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// main runs run with the process's edge, arguments and streams, and exits
// with its code.
func main() {
	// Nothing a parent left open reaches what yaicli starts (inheritedfds.go).
	closeInheritedOnExec()
	if code, ok := sandboxEntry(os.Args, os.Environ()); ok { // yaicli re-executed as a shell command's wrapper (sandbox.go)
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
	cfg, err := loadConfig(e.sources(o), stderr)
	if err != nil {
		return in.fail(exitUsage, err)
	}
	in.p = newParts(cfg, e.configDir())
	if o.verbose && !o.verboseAlone() { // alone, it is the output asked for: ask writes it on stdout
		in.writeVerbose(stderr, cfg)
	}
	if o.countTokens {
		return countTokens(cfg.Model, o.prompt, stdin, stdout, stderr)
	}
	cleaned := make(chan struct{})
	go func() {
		removeOldSpills(cfg.ToolOutputDir, cfg.ToolOutputRetentionDays, e.now())
		close(cleaned)
	}()
	defer func() { <-cleaned }()
	switch {
	case o.listRoles || o.showRole != "" || o.createRole != "" || o.deleteRole != "":
		return in.roleCommand()
	case o.listChats:
		writeChatList(screenWriter{w: stdout}, cfg.ChatHistoryDir, cfg.MaxSavedChats)
		return exitOK
	case o.forgetWindow:
		return forgetWindowCommand(openWindowCache(in.p.cacheDir, in.p.now), cfg.Model, o.prompt, stdout)
	case o.listMCP:
		return in.listMCP(ctx)
	}
	return in.ask(ctx, cfg)
}

// writeVerbose is --verbose's report, -V alone as with a question: the
// effective configuration (its secrets hidden by the run's redactor), how
// commands are fenced, and the windows learned for the model.
func (in *invocation) writeVerbose(w io.Writer, cfg *config) {
	writeEffective(w, cfg, in.p.red)
	fmt.Fprintln(w, sandboxStatus(cfg.Sandbox, cfg.SandboxNetwork))
	writeLearnedWindows(w, openWindowCache(in.p.cacheDir, in.p.now), cfg.Model)
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
func (in *invocation) ask(ctx context.Context, cfg *config) int {
	o := in.o
	system, err := in.systemPrompt(cfg)
	if err != nil {
		return in.fail(exitUsage, err)
	}
	var prompt string
	var attached []string // files the prompt attaches with @, free to read
	if !o.chat {
		if prompt, attached, err = in.prompt(ctx, cfg.homeDir); err != nil {
			var stopped signalledRead
			if errors.As(err, &stopped) {
				fmt.Fprintln(in.stderr, "yaicli: interrupted")
				return stopped.code
			}
			if o.verbose && errors.Is(err, errNothingToAsk) {
				in.writeVerbose(in.stdout, cfg) // -V alone: the configuration is the output, and that is all
				return exitOK
			}
			return in.fail(exitUsage, err)
		}
		if o.verboseAlone() { // the question came on stdin: the configuration is a diagnostic
			in.writeVerbose(in.stderr, cfg)
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
	if in.p.useMCP && in.p.useTools && !o.code {
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
	return in.oneShot(runCtx, system, message{Role: roleUser, Content: prompt, images: images}, attached, hub)
}

// systemPrompt is the role's prompt (-r, --code's, else DEFAULT_ROLE's)
// with the project's instructions; a window set too small to hold it and
// MAX_TOKENS is refused before any request is sent.
func (in *invocation) systemPrompt(cfg *config) (string, error) {
	roleName := in.p.defaultRole
	switch {
	case in.o.role != "":
		roleName = in.o.role
	case in.o.code:
		roleName = roleCode
	}
	r, err := loadRole(rolesDir(in.e.configDir()), roleName)
	if err != nil {
		return "", err
	}
	system := withProjectInstructions(fillRole(in.p.session.roles, r.Prompt), cfg.ProjectInstructions, in.projectLoad(cfg))
	if key, w := cfg.setWindow(); w > 0 {
		return system, windowRoom(key, w, cfg.MaxTokens, familyOf(cfg.Model).tokens(system))
	}
	return system, nil
}

// projectLoad is how this run loads the project instructions: judged as
// reads are, remembered per repository in the state directory, and asked
// about when the REPL runs on a terminal.
func (in *invocation) projectLoad(cfg *config) projectLoad {
	pl := projectLoad{workDir: cfg.workDir, home: cfg.homeDir, red: in.p.red, perms: in.p.tools.perms, warn: onScreen(in.stderr),
		memory: filepath.Join(stateDir(in.e.getenv, in.e.tmpDir, in.e.uid), projectMemoryFile)}
	if f, ok := in.stdin.(*os.File); ok && in.o.chat && in.e.stdinTTY && in.e.stdoutTTY { // the REPL on a terminal asks
		pl.ask = askLine(f, pl.warn)
	}
	return pl
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
// files it names by @ attached (a typed ~ is homeDir); problems attaching
// are told, not fatal.
func (in *invocation) prompt(ctx context.Context, homeDir string) (prompt string, attached []string, err error) {
	readCtx, stop := in.e.interrupts(ctx) // Ctrl+C while piped text is still coming
	defer stop()
	if prompt, err = oneShotPrompt(readCtx, in.o.prompt, in.stdin, in.e.stdinTTY); err != nil {
		return "", nil, err
	}
	var problems []string
	typed := strings.Join(in.o.prompt, " ") // piped text never attaches files (attach.go)
	attached = fileRefs(typed, homeDir)
	if prompt, problems = expandTypedRefs(prompt, typed, attachGate(in.p.tools.perms, in.p.red)); len(problems) > 0 {
		fmt.Fprintf(onScreen(in.stderr), "yaicli: not attached: %s\n", strings.Join(problems, "; "))
	}
	return prompt, attached, nil
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

// sources are what loadConfig merges, as this edge and the flags give them.
func (e *edge) sources(o *options) configSources {
	src := configSources{version: version, path: o.configPath, explicit: o.configPath != "", env: e.getenv, flags: o.overrides,
		tmpDir: e.tmpDir, uid: e.uid, home: e.home, workDir: e.workDir, environ: e.environ, cacheDir: e.cacheDir, now: e.now}
	if src.path == "" {
		src.path = filepath.Join(e.configDir(), "config.ini")
	}
	return src
}
