package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// parts is everything run hands down, built once from the config by
// newParts: each part of the program gets a small value of its own, and
// the redactor is built once for all of them. Below run no file reads
// config itself (house_test.go holds that), so a setting's reach is the
// one options struct that carries it.
type parts struct {
	red     *redactor // the run's secrets: everything written or kept passes through it
	client  clientOptions
	tools   toolboxOptions
	agent   agentOptions
	session sessionOptions
	render  renderOptions
	mcp     mcpOptions
	// useTools is ENABLE_FUNCTIONS: an agent gets a toolbox (--code turns
	// it off in its copy of the parts); useMCP is ENABLE_MCP: a mode with
	// tools starts the MCP servers; defaultRole is DEFAULT_ROLE, the role
	// asked in when no flag names one. They are run's to decide, no part's.
	useTools, useMCP bool
	defaultRole      string
	// cacheDir and now are where the model's window is remembered
	// (windows.json under the user's cache directory) and the run's clock.
	cacheDir string
	now      func() time.Time
}

// newParts builds every part's options from cfg, once; configDir is the
// edge's (where mcp.json is looked for). The toolbox's options are built
// once too: the session judges an attached file by their permissions, and
// shell mode and the MCP servers are fenced by their fence.
func newParts(cfg *config, configDir string) parts {
	red, tools := cfg.redactor(), cfg.toolbox()
	return parts{red: red, client: cfg.client(), tools: tools, agent: cfg.agent(), session: cfg.session(red, tools),
		render: cfg.render(), mcp: cfg.mcp(configDir, red, tools.fence), useTools: cfg.EnableFunctions, useMCP: cfg.EnableMCP,
		defaultRole: cfg.DefaultRole, cacheDir: cfg.cacheDir, now: cfg.now}
}

// window resolves the model's window for a session: the cache, then the
// server, then the table (resolveWindow). It is the I/O an agent needs
// before it is built.
func (p parts) window(ctx context.Context) modelWindow {
	return resolveWindow(ctx, p.agent.window, openWindowCache(p.cacheDir, p.now))
}

// agentFor builds the agent of a session: the HTTP client (whose retries
// become events), the toolbox with the built-in tools and hub's MCP tools
// (nil hub: none), and the agent over them. win is resolved before.
func (p parts) agentFor(win modelWindow, o agentIO, hub *mcpHub) *agent {
	if o.preview == nil {
		o.preview = o.diag
	}
	o.diag, o.preview = onScreen(o.diag), onScreen(o.preview) // what they say is shown, never obeyed
	shareStatusLine(&o.spinTo, &o.diag, &o.preview)           // a notice erases the spinner's line first
	c := newClient(p.client, o.preview)
	if o.ev.on() {
		c.retried = o.ev.retry
	}
	var tb *toolbox
	if p.useTools {
		tb = newToolbox(p.tools, p.red, &termWriter{w: o.preview}, o.ask, hub.tools())
		tb.width, tb.spinTo, tb.expand, tb.ev = o.width, o.spinTo, o.expand, o.ev
	}
	a := newAgent(p.agent, p.red, scrubbed(c.send, p.red), win, tb, o)
	a.hub = hub
	if tb != nil {
		tb.subagent = a.runSubagent // run_subagent runs a sub-agent of this agent (subagent.go)
	}
	a.setModel = func(m string) { c.o.model = m } // the request body's model; the agent's is switched beside it
	if a.noTools {
		fmt.Fprintf(o.preview, "yaicli: %s's model %s takes no tools (the server says so); sending none (ENABLE_FUNCTIONS=false skips this note)\n", p.agent.provider, p.agent.model)
	}
	return a
}

// sendVia is the send function of a new HTTP client, which says on w when
// it retries; the key is scrubbed from the provider's errors.
func (p parts) sendVia(w io.Writer) sendFunc {
	return scrubbed(newClient(p.client, w).send, p.red)
}

// agent is what the agent needs of the configuration: its model, its
// budget and reduction settings, and what /context and session.start say.
func (c *config) agent() agentOptions {
	return agentOptions{
		model: c.Model, provider: c.Provider, server: c.client().label(), maxTokens: c.MaxTokens, maxDepth: c.MaxToolCallDepth,
		subagentMaxTurns: c.SubagentMaxTurns,
		trimTarget:       c.ContextTrimTarget, keepGroups: c.ContextKeepGroups,
		compactMode: c.CompactMode, autoCompactPercent: c.AutoCompactPercent,
		showReasoning: c.ShowReasoning, cacheTTL: c.CacheTTL,
		spillDir: c.ToolOutputDir, now: c.now, silentCut: mayCutSilently(c.Provider, isLocal(c.baseURL())),
		sandbox: sandboxStatus(c.Sandbox, c.SandboxNetwork), window: c.window(),
		textCalls: c.TextToolCalls, repeatLimit: c.RepeatCallLimit,
		start: startFacts{version: c.version, provider: c.Provider, model: c.Model,
			maxToolRounds: c.MaxToolCallDepth, outputMaxChars: c.ToolOutputMaxChars},
	}
}

// window is the query that finds the model's window: which model on which
// server, and the sizes set by hand.
func (c *config) window() windowQuery {
	return windowQuery{provider: c.Provider, baseURL: c.baseURL(), model: c.Model, window: c.ContextWindow, numCtx: c.NumCtx, budgetTokens: c.ContextBudgetTokens}
}

// session is what a REPL session and a one-shot run need of the
// configuration beside the agent's: saved chats, history, output format,
// and how failures are told (with red, the run's redactor); tools are the
// toolbox's options, whose permissions judge an attached file and whose
// fence fences the shell's commands.
func (c *config) session(red *redactor, tools toolboxOptions) sessionOptions {
	return sessionOptions{
		chatDir: c.ChatHistoryDir, maxSavedChats: c.MaxSavedChats, interactiveRound: c.InteractiveRound,
		trimTarget: c.ContextTrimTarget, maxHistory: c.MaxHistory, tools: c.EnableFunctions,
		outputFormat: c.OutputFormat, homeDir: c.homeDir, perms: tools.perms,
		shell: c.shell(red, tools.fence), roles: c.roles(), failures: c.failures(red),
		checkpoints: checkpointOptions{on: c.Checkpoints, dir: c.CheckpointDir,
			maxBytes: int64(c.CheckpointMaxMB) << 20, maxFileBytes: int64(c.CheckpointFileMB) << 20},
	}
}

// roles is what a role prompt's {_os} and {_shell} are filled with.
func (c *config) roles() roleFacts {
	return roleFacts{osName: c.OSName, shellName: c.ShellName, environ: c.environ}
}

// failures is how a failure is told (secrets hidden by red, hints naming
// the provider's settings) and what it exits with.
func (c *config) failures(red *redactor) failures {
	return failures{red: red, hints: hintFacts{timeout: c.Timeout, provider: c.Provider, keyEnv: presets[c.Provider].keyEnv,
		model: c.Model, baseURL: maskUserinfo(strings.SplitN(c.baseURL(), "?", 2)[0]), // a query may carry a key
		baseFrom: c.baseFrom()},
		depthFails: c.ExitOnDepthLimit}
}

// baseFrom names where a BASE_URL the person set came from, "" when it
// is the provider's own.
func (c *config) baseFrom() string {
	if c.BaseURL == "" || c.sources["BASE_URL"] == "" || c.sources["BASE_URL"] == "default" {
		return ""
	}
	return sourceName("BASE_URL", c.sources["BASE_URL"], c.configPath)
}

// client is what the provider client needs of the configuration: BASE_URL
// resolved with the provider's preset, the environment for its proxy, and
// the run's clock (the zero time without one, as now reads).
func (c *config) client() clientOptions {
	now := c.clock
	if now == nil {
		now = func() time.Time { return time.Time{} }
	}
	return clientOptions{provider: c.Provider, baseURL: c.baseURL(), apiKey: c.APIKey, model: c.Model,
		temperature: c.Temperature, topP: c.TopP, stream: c.Stream, timeout: c.Timeout,
		extraHeaders: c.ExtraHeaders, extraBody: c.ExtraBody, excludeParams: c.ExcludeParams,
		reasoningEffort: c.ReasoningEffort, sampling: c.sampling, proxyEnv: c.environ, now: now}
}

// mcp is what the MCP client needs of the configuration; its servers are
// listed in MCP_CONFIG, else mcp.json in configDir (edge.configDir), red,
// the run's redactor, keeps the secrets out of their environment, and a
// fenced one runs in fence (the toolbox's).
func (c *config) mcp(configDir string, red *redactor, fence sandboxOptions) mcpOptions {
	path := c.MCPConfig
	if path == "" {
		path = filepath.Join(configDir, "mcp.json")
	}
	self, _ := os.Executable() // re-executed as a fenced server's wrapper
	return mcpOptions{path: path, timeout: c.MCPTimeout, version: c.version, workDir: c.workDir,
		childEnv: func(keep map[string]string) []string { return withoutCredentials(red.childEnv(c.environ, keep), keep) }, box: newSandbox(fence, self)}
}

// toolbox is what the toolbox and its tools need of the configuration.
// yaicli's own places are listed here, once: the fs tools ask before they
// read them and a fenced command never reaches them (ownPlaces).
func (c *config) toolbox() toolboxOptions {
	home := func(p string) string { return expandHome(p, c.homeDir) } // "~/…" as the fs tools read it: the fence denies the same place
	own := ownPlaces{state: []string{home(c.ToolPermissionsFile), home(c.ToolAuditLog), home(c.ChatHistoryDir), c.CheckpointDir}, mcpConfig: home(c.MCPConfig)}
	if c.configPath != "" {
		own.configDir = filepath.Dir(c.configPath)
	}
	perms := permissionOptions{allow: c.ToolAllow, deny: c.ToolDeny, readRoots: c.ToolReadRoots, saveFile: c.ToolPermissionsFile,
		auditLog: c.ToolAuditLog, workDir: c.workDir, homeDir: c.homeDir, outputDir: c.ToolOutputDir, own: own, environ: append(slices.Clone(c.environ), "PATH="+c.givenPATH)}
	fence := sandboxOptions{mode: c.Sandbox, network: c.SandboxNetwork, writable: c.SandboxWritable, givenPATH: c.givenPATH, readRoots: c.ToolReadRoots, environ: c.environ,
		cacheDir: c.cacheDir, workDir: c.workDir, homeDir: c.homeDir, spill: c.ToolOutputDir, private: own.all(), now: c.now}
	return toolboxOptions{outputMaxChars: c.ToolOutputMaxChars, outputDir: c.ToolOutputDir, spillMaxBytes: c.ToolOutputSpillMaxBytes,
		displayMaxLines: c.ToolDisplayMaxLines, displayMaxChars: c.ToolDisplayMaxChars, previewMaxChars: c.ToolCallPreviewMaxChars,
		showFunction: c.ShowFunctionOut, showMCP: c.ShowMCPOutput, approval: c.ToolApproval, provider: c.Provider, shellTimeout: c.ShellTimeout,
		workDir: c.workDir, homeDir: c.homeDir, environ: c.environ, now: c.now, perms: perms, fence: fence,
		schemaShare: max(c.ToolSchemaShare, 1e-9), // 0 is "always defer", not "unset"
		web: webOptions{searchProvider: c.WebSearchProvider, searchURL: c.WebSearchURL, allowPrivate: c.FetchAllowPrivate,
			allowHosts: c.FetchAllowHosts, environ: c.environ, timeout: c.Timeout, version: c.version}}
}

// shell is what running a command in the person's shell needs of the
// configuration (-s/--shell, the REPL's exec mode and !command): its
// environment without red's secrets, its commands fenced by fence.
func (c *config) shell(red *redactor, fence sandboxOptions) shellOptions {
	self, _ := os.Executable() // re-executed as a fenced command's wrapper
	return shellOptions{maxTokens: c.MaxTokens, approval: c.ToolApproval, environ: red.childEnv(c.environ, nil), workDir: c.workDir,
		sandbox: newSandbox(fence, self)}
}

// render is what the answer's renderer needs of the configuration.
func (c *config) render() renderOptions {
	return renderOptions{pretty: c.Pretty, theme: c.CodeTheme, justify: c.Justify}
}

// redactor collects the config's secrets (the API key, EXTRA_HEADERS'
// values and their bearer tokens, BASE_URL's user:password) and builds
// the run's redactor over them (newRedactor).
func (c *config) redactor() *redactor {
	var raw []string
	raw = append(raw, c.APIKey)
	for _, v := range c.ExtraHeaders {
		raw = append(raw, v)
		if _, token, ok := strings.Cut(v, " "); ok { // "Bearer <token>": the token alone too
			raw = append(raw, strings.TrimSpace(token))
		}
	}
	return newRedactor(append(raw, userinfoSecrets(c.BaseURL)...))
}
