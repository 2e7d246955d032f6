package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// setting is one configuration key: its name as written in config.ini, its
// default as text, and the comment --template prints above it.
type setting struct {
	key, def, help string
}

// settings lists every key yaicli reads, in the order --template prints them.
// Defaults that depend on the machine (CHAT_HISTORY_DIR, TOOL_OUTPUT_DIR) are
// empty here and derived in load. A default a part also needs without a
// configuration (a value left zero) is the part's constant, named here, so
// it has one source.
var settings = []setting{
	{"PROVIDER", "openai", "a preset (yaicli --list-providers), or any name with BASE_URL: an OpenAI-compatible server"},
	{"BASE_URL", "", "empty = the provider's default URL"},
	{"API_KEY", "", "empty = the provider's usual variable (OPENAI_API_KEY, ...)"},
	{"AZURE_API_VERSION", "2024-10-21", "api-version query parameter of PROVIDER=azure requests (one in BASE_URL wins)"},
	{"MODEL", "gpt-4o", "model name sent to the provider"},
	{"TEMPERATURE", "0.3", "sampling temperature"},
	{"TOP_P", "1.0", "nucleus sampling"},
	{"MAX_TOKENS", "1024", "maximum tokens of one answer"},
	{"TIMEOUT", "60", "seconds to connect, to the first byte, and between stream events"},
	{"STREAM", "true", "stream answers as they are generated"},
	{"EXTRA_HEADERS", "{}", "JSON object of extra HTTP headers"},
	{"EXTRA_BODY", "{}", "JSON object merged into every request body"},
	{"EXCLUDE_PARAMS", "", "request fields never sent, comma-separated (temperature,top_p for models that refuse them)"},
	{"REASONING_EFFORT", "", "low, medium or high for reasoning models; empty = not sent"},
	{"TOP_K", "", "top-k sampling, a whole number >= 1; empty = not sent"},
	{"SEED", "", "sampling seed for repeatable answers, a whole number; empty = not sent (Anthropic has none)"},
	{"FREQUENCY_PENALTY", "", "-2 to 2; empty = not sent (Anthropic has none)"},
	{"PRESENCE_PENALTY", "", "-2 to 2; empty = not sent (Anthropic has none)"},
	{"THINKING_BUDGET", "", "thinking tokens for anthropic (1024 or more; max_tokens is raised above it) and gemini (0 = off, -1 = dynamic); empty = not sent"},
	{"NUM_CTX", "", "Ollama's context window in tokens, sent as options.num_ctx on its native /api/chat and used as the budget's window; empty = the server's"},
	{"PROMPT_CACHE", "auto", "auto: mark the prompt's stable prefix for the provider's cache (Anthropic's cache_control, OpenAI's prompt_cache_key); off: send neither"},
	{"PROMPT_CACHE_TTL", "5m", "how long Anthropic keeps a cached prefix: 5m, or 1h across long pauses (its writes cost 2x the input price, not 1.25x)"},
	{"SHOW_REASONING", "true", "show the model's reasoning on stderr"},
	{"OUTPUT_FORMAT", "text", "text, json (one object at the end) or stream-json (one event per line) on stdout"},
	{"PRETTY", "true", "draw answers on a terminal as Markdown (--plain turns it off)"},
	{"CODE_THEME", "monokai", "colours of code and Markdown: monokai, dracula, nord or solarized-light"},
	{"JUSTIFY", "default", "how answer text is aligned: default, left, center, right or full"},
	{"INTERACTIVE_ROUND", "25", "chat turns kept in the REPL; past it, the newest CONTEXT_TRIM_TARGET share of them in one go, so the prompt cache survives the turns after"},
	{"MAX_HISTORY", "500", "entries in the prompt history file"},
	{"CHAT_HISTORY_DIR", "", "saved chats; empty = $XDG_STATE_HOME/yaicli/chats (~/.local/state/yaicli/chats; without a home $TMPDIR/yaicli-$UID/chats)"},
	{"MAX_SAVED_CHATS", "20", "saved chats kept"},
	{"ENABLE_FUNCTIONS", "true", "offer the built-in tools to the model"},
	{"SHOW_FUNCTION_OUTPUT", "true", "preview tool output in the terminal"},
	{"ENABLE_MCP", "false", "offer MCP servers' tools to the model"},
	{"SHOW_MCP_OUTPUT", "false", "preview MCP tool output in the terminal"},
	{"MCP_CONFIG", "", "MCP servers file; empty = ~/.config/yaicli/mcp.json"},
	{"MCP_TIMEOUT", "120", "seconds an MCP tool call may take"},
	{"TOOL_APPROVAL", "ask", "ask, auto or deny for tools that execute or write, and for reads outside the workspace"},
	{"TOOL_READ_ROOTS", "", "directories the fs_ tools read without asking, besides the start directory, TOOL_OUTPUT_DIR and attached files, and a fenced command may read; comma-separated"},
	{"TOOL_ALLOW", "", "command prefixes execute_shell_command runs without asking, comma-separated (git status,git log,ls); options only from a per-program table"},
	{"TOOL_DENY", "", "command prefixes execute_shell_command never runs, comma-separated; deny wins, even over --yes; a guard against mistakes, not a boundary"},
	{"TOOL_PERMISSIONS_FILE", "", "tools answered [p]ermanently; empty = ~/.config/yaicli/tool_permissions.json"},
	{"TOOL_AUDIT_LOG", "", "every approval decision, one JSON line each; empty = ~/.local/state/yaicli/tool_audit.log, off = none"},
	{"PROJECT_INSTRUCTIONS", "true", "put the AGENTS.md files of the workspace and its parents up to the repository's root into the system prompt (8000 characters at most; only your own files that others cannot write)"},
	{"DEFAULT_ROLE", "DEFAULT", "role whose prompt is the system prompt (yaicli --list-roles)"},
	{"OS_NAME", "auto", "the system named in role prompts ({_os}); auto = detected"},
	{"SHELL_NAME", "auto", "the shell named in role prompts ({_shell}); auto = $SHELL"},
	{"SHELL_TIMEOUT", "300", "seconds before execute_shell_command is killed"},
	{"SANDBOX", "auto", "Landlock fence of shell commands (Linux): auto = commands that run without a question, strict = every command (refused where there is no Landlock), off = none"},
	{"SANDBOX_WRITABLE", "", "places a fenced command may also write, comma-separated (the workspace, temp and build caches always)"},
	{"SANDBOX_NETWORK", "off", "TCP for fenced commands: off, on, or the ports they may connect to (443,80)"},
	{"WEB_SEARCH_PROVIDER", "duckduckgo", "duckduckgo or searxng"},
	{"WEB_SEARCH_URL", "", "searxng base URL, for air-gapped networks (its host is always reachable, on its port)"},
	{"FETCH_ALLOW_PRIVATE", "false", "let fetch_webpage reach loopback, private, link-local and metadata addresses"},
	{"FETCH_ALLOW_HOSTS", "", "hosts fetch_webpage may reach even on private addresses, on ports 80 and 443 (host:port for another), comma-separated (*.corp.example for subdomains)"},
	{"TOOL_OUTPUT_MAX_CHARS", "32000", "per-tool-result character cap (0 = unlimited)"},
	{"TOOL_OUTPUT_DIR", "", "where full tool outputs are spilled; empty = <CHAT_HISTORY_DIR>/tool-outputs"},
	{"TOOL_OUTPUT_SPILL_MAX_BYTES", strconv.Itoa(defaultSpillMax), "bytes one spilled tool output may take on disk (64 MiB); the rest is cut and the marker says so (0 = no cap)"},
	{"TOOL_OUTPUT_RETENTION_DAYS", "7", "spilled outputs older than this are removed at start (0 = keep)"},
	{"TOOL_DISPLAY_MAX_LINES", "15", "terminal preview lines (0 = unlimited; model unaffected)"},
	{"TOOL_DISPLAY_MAX_CHARS", "4000", "terminal preview characters (0 = unlimited; model unaffected)"},
	{"TOOL_SCHEMA_SHARE", strconv.FormatFloat(deferShare, 'g', -1, 64), "share of the budget the tool schemas may take; past it the built-ins and each MCP server's share are sent with tool_search, which finds the rest (0 = always that way, 1 = never)"},
	{"TOOL_CALL_PREVIEW_MAX_CHARS", "300", "max characters of the @Function call: line (0 = raw)"},
	{"CONTEXT_WINDOW", "0", "the model's context window in tokens, for any server (an 8k model: 8192; --context-window N); wins over NUM_CTX and what servers report; 0 = the server's (Ollama, llama.cpp, vLLM, LM Studio, OpenRouter), else the model table, else 128000"},
	{"CONTEXT_BUDGET_TOKENS", "0", "per-request token budget; 0 = 70% of the model's window"},
	{"CONTEXT_TRIM_TARGET", "0.6", "share of the budget every reduction goes down to once over it, so the next turns need none and the prompt cache survives (0.1-1); 0.6 measured best: a 30-turn session whose tool outputs are an eighth of the budget reduces in 9 turns at 0.6 (and 0.5), 13 at 0.75"},
	{"CONTEXT_KEEP_GROUPS", "2", "newest turn groups whose tool outputs are masked only after older ones (at least 1); a preference: they are masked, except the current round's, before any question is dropped"},
	{"COMPACT_MODE", "mechanical", "what automatic reduction does first: mechanical (mask, shrink, drop) or summary (a model-written summary of old turn groups, then mechanical)"},
	{"AUTO_COMPACT_PERCENT", "0", "share of the budget, in percent, at which an automatic summary starts (0 = off: with COMPACT_MODE=summary, once over the budget)"},
	{"MAX_TOOL_CALL_DEPTH", "8", "tool rounds per request (--max-turns overrides per run)"},
	{"EXIT_ON_DEPTH_LIMIT", "true", "one-shot run exits 3 when the tool-round limit is reached"},
	{"SUBAGENT_MAX_TURNS", "0", "tool rounds a sub-agent (run_subagent) may take; 0 = MAX_TOOL_CALL_DEPTH"},
	{"CHECKPOINTS", "true", "keep what the file tools change, in a private store under the state directory ($XDG_STATE_HOME/yaicli/checkpoints), so /undo and /rewind take it back"},
	{"CHECKPOINT_MAX_MB", "1024", "megabytes the checkpoint store may take; past it the oldest sessions' copies are removed first"},
	{"CHECKPOINT_MAX_FILE_MB", "64", "a file (or a directory's files together) larger than this many megabytes is not saved before a change; the question and a notice say so"},
	{"TEXT_TOOL_CALLS", "true", "run a tool call the model wrote as text (Hermes/Qwen <tool_call>, Qwen3-Coder <function=…>, Llama 3.1 python_tag, Mistral [TOOL_CALLS], or a bare JSON call as the whole answer) when it names a tool offered with arguments its schema takes"},
	{"REPEAT_CALL_LIMIT", "2", "times one tool call with the same arguments runs in a turn; the next is not run and the model is asked for a different step (0 = no limit)"},
}

// displayOnlyKeys are YAICLI settings for its rich-text display, which
// yaicli has no use for. A config.ini written by YAICLI carries them, so
// they are accepted without a warning and have no effect.
var displayOnlyKeys = map[string]bool{"AUTO_SUGGEST": true, "ROLE_MODIFY_WARNING": true}

// config is the effective configuration, built once by loadConfig and never
// changed afterwards.
type config struct {
	Provider, BaseURL, APIKey, Model  string
	AzureAPIVersion                   string
	Temperature, TopP                 float64
	MaxTokens                         int
	Timeout                           time.Duration
	Stream                            bool
	ExtraHeaders                      map[string]string
	ExtraBody                         map[string]any
	ExcludeParams                     []string
	ReasoningEffort                   string
	sampling                          // optional settings sent only when set (sampling.go)
	ShowReasoning                     bool
	OutputFormat                      string // text, json or stream-json
	Pretty                            bool   // draw answers as Markdown on a terminal
	CodeTheme, Justify                string // the renderer's palette and alignment
	InteractiveRound, MaxHistory      int
	ChatHistoryDir                    string
	MaxSavedChats                     int
	EnableFunctions, ShowFunctionOut  bool
	EnableMCP, ShowMCPOutput          bool
	MCPConfig                         string
	DefaultRole                       string
	ProjectInstructions               bool   // PROJECT_INSTRUCTIONS: AGENTS.md into the system prompt (projectinstr.go)
	OSName, ShellName                 string // "auto" = detected
	MCPTimeout                        time.Duration
	ToolApproval                      string
	ShellTimeout                      time.Duration
	WebSearchProvider, WebSearchURL   string
	FetchAllowPrivate                 bool
	FetchAllowHosts                   []string
	ToolOutputMaxChars                int
	ToolOutputDir                     string
	ToolOutputSpillMaxBytes           int64
	ToolOutputRetentionDays           int
	ToolDisplayMaxLines               int
	ToolDisplayMaxChars               int
	ToolCallPreviewMaxChars           int
	ToolSchemaShare                   float64 // TOOL_SCHEMA_SHARE: past it, schemas are deferred (tooldefer.go)
	ContextBudgetTokens               int
	ContextWindow                     int // CONTEXT_WINDOW: the model's window; 0 = found (modelwindow.go)
	ContextTrimTarget                 float64
	ContextKeepGroups                 int
	CompactMode                       string // mechanical or summary (compact.go)
	AutoCompactPercent                int    // 0: off
	MaxToolCallDepth                  int
	ExitOnDepthLimit                  bool
	SubagentMaxTurns                  int               // SUBAGENT_MAX_TURNS; 0 = MaxToolCallDepth (subagent.go)
	TextToolCalls                     bool              // run calls written as text (textcalls.go)
	RepeatCallLimit                   int               // runs of one same call per turn; 0: no limit (repeatguard.go)
	Checkpoints                       bool              // CHECKPOINTS (checkpoint.go)
	CheckpointMaxMB, CheckpointFileMB int               // CHECKPOINT_MAX_MB, CHECKPOINT_MAX_FILE_MB
	CheckpointDir                     string            // <state dir>/checkpoints
	values, sources                   map[string]string // raw text and origin of each key, for --verbose
	ToolReadRoots                     []string
	ToolAllow, ToolDeny               []string
	Sandbox, SandboxNetwork           string   // SANDBOX: auto, strict or off (sandbox.go)
	SandboxWritable                   []string // extra places fenced commands may write
	ToolPermissionsFile               string
	ToolAuditLog                      string // "" = no audit log
	apiKeySource                      string
	configPath                        string
	configMissing                     bool // configPath was not there; defaults were used
	// workDir is the directory yaicli started in (the workspace whose
	// files the fs_ tools read freely); homeDir is $HOME. Both come from
	// run, "" when unknown.
	workDir, homeDir string
	// environ is the run's environment as child processes inherit it
	// (without the secrets: childEnv); cacheDir the user's cache directory
	// ("" = none); clock the run's wall clock. All come from the edge.
	environ  []string
	cacheDir string
	clock    func() time.Time
	version  string // yaicli's version, for MCP's clientInfo, User-Agent and session.start
	// givenPATH is PATH as the person's shell has it, relative entries
	// included (environ's has none): writes into its directories ask, for
	// the person's shell runs what is planted there (pathplaces.go).
	givenPATH string
}

// now is the run's wall clock; a config made by hand (a test) without one
// reads the zero time, so what it names by time is stable.
func (c *config) now() time.Time {
	if c.clock == nil {
		return time.Time{}
	}
	return c.clock()
}

// configSources are the inputs loadConfig merges, read at the edge by run.
type configSources struct {
	path     string // config.ini to read; "" = none
	explicit bool   // path came from --config, so a missing file is an error
	env      func(string) string
	flags    map[string]string // KEY -> value given on the command line
	tmpDir   string
	uid      int    // names the per-user default directory when there is no home
	workDir  string // the start directory
	home     string // the home directory; "" = unknown (no files kept there)
	environ  []string
	cacheDir string
	now      func() time.Time
	version  string // yaicli's own version (main's, set at build time)
}

// loadConfig merges defaults, file, YAI_* environment and flags, in that
// order of increasing precedence. Values that do not parse are replaced by
// their default with a warning on warn; a broken file is an error.
func loadConfig(src configSources, warn io.Writer) (*config, error) {
	vals := map[string]string{}
	from := map[string]string{}
	for _, s := range settings {
		vals[s.key], from[s.key] = s.def, "default"
	}
	missing, err := readConfigFile(src, vals, from, warn)
	if err != nil {
		return nil, err
	}
	for _, s := range settings {
		if v := src.env("YAI_" + s.key); v != "" {
			vals[s.key], from[s.key] = v, "env"
		}
	}
	for k, v := range src.flags {
		vals[k], from[k] = v, "flag"
	}
	if err := checkSettings(vals, from, src.path, defaultOf); err != nil { // one check for every source (settingchecks.go)
		return nil, err
	}
	c := &config{values: vals, sources: from, configPath: src.path, configMissing: missing}
	p := parser{vals: vals, from: from, warn: warn}
	c.parseModelSettings(p)
	c.parseToolSettings(p)
	c.workDir, c.homeDir = src.workDir, src.home
	c.environ, c.cacheDir, c.clock, c.version = absolutePATH(src.environ, warn), src.cacheDir, src.now, src.version // fencehomeplaces.go
	c.givenPATH = envValue(src.environ, "PATH")
	c.permissionPaths(src.env)
	if err := c.settle(src); err != nil {
		return nil, err
	}
	if key, w := c.setWindow(); w > 0 {
		if err := windowRoom(key, w, c.MaxTokens, 0); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// setWindow is the window the person set and its key: CONTEXT_WINDOW,
// else Ollama's NUM_CTX; 0 when neither is set.
func (c *config) setWindow() (key string, window int) {
	if c.ContextWindow > 0 {
		return "CONTEXT_WINDOW", c.ContextWindow
	}
	return "NUM_CTX", c.NumCtx
}

// readConfigFile lays the [core] keys of src's file over vals (from says
// where each value came from); it reports whether the file was missing,
// which is no error unless --config named it.
func readConfigFile(src configSources, vals, from map[string]string, warn io.Writer) (missing bool, err error) {
	if src.path == "" {
		return false, nil
	}
	f, err := openTrusted(src.path) // one others can write is refused (trustedfile.go)
	switch {
	case os.IsNotExist(err) && !src.explicit:
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading config: %w", err)
	}
	file, perr := parseINI(f, src.path)
	f.Close()
	if perr != nil {
		return false, perr
	}
	warnNoCore(warn, src.path, file)
	for _, k := range slices.Sorted(maps.Keys(file["core"])) {
		if displayOnlyKeys[k] {
			continue
		}
		if _, known := vals[k]; !known {
			fmt.Fprintf(warn, "yaicli: %s: unknown key %s ignored%s\n", src.path, k, nearestKey(k))
			continue
		}
		vals[k], from[k] = file["core"][k], "file"
	}
	return false, nil
}

// parseModelSettings reads the provider, model, sampling, output and chat
// settings.
func (c *config) parseModelSettings(p parser) {
	c.Provider = strings.ToLower(p.str("PROVIDER"))
	c.BaseURL = strings.TrimRight(trimEndpoint(p.str("BASE_URL"), p.warn), "/")
	c.APIKey = p.str("API_KEY")
	c.Model = p.str("MODEL")
	c.AzureAPIVersion = p.str("AZURE_API_VERSION")
	c.Temperature = p.float("TEMPERATURE")
	c.TopP = p.float("TOP_P")
	c.MaxTokens = p.tokens("MAX_TOKENS")
	c.Timeout = time.Duration(p.int("TIMEOUT")) * time.Second
	c.Stream = p.bool("STREAM")
	c.ExtraHeaders = p.headers("EXTRA_HEADERS")
	c.ExtraBody = p.object("EXTRA_BODY")
	c.ExcludeParams = p.list("EXCLUDE_PARAMS")
	c.ReasoningEffort = p.str("REASONING_EFFORT")
	c.loadSampling(p)
	c.ShowReasoning = p.bool("SHOW_REASONING")
	c.OutputFormat = p.oneOf("OUTPUT_FORMAT", formatText, formatJSON, formatStreamJSON)
	c.Pretty = p.bool("PRETTY")
	c.CodeTheme = p.oneOf("CODE_THEME", codeThemes...)
	c.Justify = p.oneOf("JUSTIFY", justifyModes...)
	c.InteractiveRound = p.int("INTERACTIVE_ROUND")
	c.MaxHistory = p.int("MAX_HISTORY")
	c.ChatHistoryDir = p.str("CHAT_HISTORY_DIR")
	c.MaxSavedChats = p.int("MAX_SAVED_CHATS")
}

// parseToolSettings reads the tool, MCP, output-cap and context settings.
func (c *config) parseToolSettings(p parser) {
	c.EnableFunctions = p.bool("ENABLE_FUNCTIONS")
	c.ShowFunctionOut = p.bool("SHOW_FUNCTION_OUTPUT")
	c.EnableMCP = p.bool("ENABLE_MCP")
	c.ShowMCPOutput = p.bool("SHOW_MCP_OUTPUT")
	c.MCPConfig = p.str("MCP_CONFIG")
	c.DefaultRole = p.str("DEFAULT_ROLE")
	c.ProjectInstructions = p.bool("PROJECT_INSTRUCTIONS")
	c.OSName, c.ShellName = p.str("OS_NAME"), p.str("SHELL_NAME")
	c.MCPTimeout = time.Duration(p.int("MCP_TIMEOUT")) * time.Second
	c.ToolApproval = p.oneOf("TOOL_APPROVAL", "ask", "auto", "deny")
	c.ShellTimeout = time.Duration(p.int("SHELL_TIMEOUT")) * time.Second
	c.WebSearchProvider = p.oneOf("WEB_SEARCH_PROVIDER", "duckduckgo", "searxng")
	c.WebSearchURL = strings.TrimRight(p.str("WEB_SEARCH_URL"), "/")
	c.FetchAllowPrivate = p.bool("FETCH_ALLOW_PRIVATE")
	c.FetchAllowHosts = p.list("FETCH_ALLOW_HOSTS")
	c.ToolOutputMaxChars = p.int("TOOL_OUTPUT_MAX_CHARS")
	c.ToolOutputDir = p.str("TOOL_OUTPUT_DIR")
	c.ToolOutputSpillMaxBytes = int64(p.int("TOOL_OUTPUT_SPILL_MAX_BYTES"))
	c.ToolOutputRetentionDays = p.int("TOOL_OUTPUT_RETENTION_DAYS")
	c.ToolDisplayMaxLines = p.int("TOOL_DISPLAY_MAX_LINES")
	c.ToolDisplayMaxChars = p.int("TOOL_DISPLAY_MAX_CHARS")
	c.ToolCallPreviewMaxChars = p.int("TOOL_CALL_PREVIEW_MAX_CHARS")
	c.ToolSchemaShare = p.float("TOOL_SCHEMA_SHARE")
	c.ContextBudgetTokens = p.tokens("CONTEXT_BUDGET_TOKENS")
	c.ContextWindow = p.tokens("CONTEXT_WINDOW")
	c.ContextTrimTarget = p.share("CONTEXT_TRIM_TARGET", 0.1)
	c.ContextKeepGroups = max(p.int("CONTEXT_KEEP_GROUPS"), 1)
	c.CompactMode = p.oneOf("COMPACT_MODE", "mechanical", "summary")
	if c.AutoCompactPercent = p.int("AUTO_COMPACT_PERCENT"); c.AutoCompactPercent > 100 {
		c.AutoCompactPercent, _ = strconv.Atoi(p.fallback("AUTO_COMPACT_PERCENT", "a percentage from 0 to 100"))
	}
	c.MaxToolCallDepth = p.int("MAX_TOOL_CALL_DEPTH")
	c.ExitOnDepthLimit = p.bool("EXIT_ON_DEPTH_LIMIT")
	c.SubagentMaxTurns = max(p.int("SUBAGENT_MAX_TURNS"), 0)
	c.Checkpoints, c.CheckpointMaxMB, c.CheckpointFileMB = p.bool("CHECKPOINTS"), p.int("CHECKPOINT_MAX_MB"), p.int("CHECKPOINT_MAX_FILE_MB")
	c.TextToolCalls, c.RepeatCallLimit = p.bool("TEXT_TOOL_CALLS"), max(p.int("REPEAT_CALL_LIMIT"), 0)
	c.ToolReadRoots = p.list("TOOL_READ_ROOTS")
	c.ToolAllow, c.ToolDeny = p.list("TOOL_ALLOW"), p.list("TOOL_DENY")
	c.Sandbox, c.SandboxNetwork = p.oneOf("SANDBOX", "auto", "strict", "off"), p.str("SANDBOX_NETWORK")
	c.SandboxWritable = p.list("SANDBOX_WRITABLE")
	c.ToolPermissionsFile, c.ToolAuditLog = p.str("TOOL_PERMISSIONS_FILE"), p.str("TOOL_AUDIT_LOG")
}

// settle fills the directories left empty from the state directory and
// checks the provider: a known preset or a BASE_URL (Azure's from its
// endpoint), then finds its key.
func (c *config) settle(src configSources) error {
	if c.ChatHistoryDir == "" {
		c.ChatHistoryDir = filepath.Join(stateDir(src.env, src.tmpDir, src.uid), "chats")
	}
	if c.ToolOutputDir == "" {
		c.ToolOutputDir = filepath.Join(c.ChatHistoryDir, "tool-outputs")
	}
	c.CheckpointDir = filepath.Join(stateDir(src.env, src.tmpDir, src.uid), "checkpoints")
	if _, ok := presets[c.Provider]; !ok && c.BaseURL == "" {
		// With a BASE_URL any name is an OpenAI-compatible server (YAICLI's
		// users have many); without one there is nowhere to send requests.
		return fmt.Errorf("unknown PROVIDER %q%s (known: %s); or set BASE_URL to use any OpenAI-compatible server under this name",
			c.Provider, didYouMean(nearestName(c.Provider, presetNames())), strings.Join(presetNames(), ", "))
	}
	if c.Provider == providerAzure {
		base := cmp.Or(c.BaseURL, strings.TrimRight(src.env(azureEndpointEnv), "/"))
		var err error
		if c.BaseURL, err = azureBase(base, c.Model, c.AzureAPIVersion); err != nil {
			return err
		}
	}
	if err := checkBaseURL(c.BaseURL); err != nil {
		return err
	}
	c.APIKey, c.apiKeySource = resolveAPIKey(c, src.env)
	return nil
}

// permissionPaths fills in the default places of the permissions file and
// the audit log, from XDG_CONFIG_HOME / XDG_STATE_HOME or the home
// directory; without either they stay empty (nothing is kept).
func (c *config) permissionPaths(env func(string) string) {
	under := func(xdg, fallback string) string {
		if x := env(xdg); x != "" {
			return filepath.Join(x, "yaicli")
		}
		if c.homeDir != "" {
			return filepath.Join(c.homeDir, fallback, "yaicli")
		}
		return ""
	}
	if dir := under("XDG_CONFIG_HOME", ".config"); c.ToolPermissionsFile == "" && dir != "" {
		c.ToolPermissionsFile = filepath.Join(dir, "tool_permissions.json")
	}
	switch dir := under("XDG_STATE_HOME", filepath.Join(".local", "state")); {
	case strings.EqualFold(c.ToolAuditLog, "off"):
		c.ToolAuditLog = ""
	case c.ToolAuditLog == "" && dir != "":
		c.ToolAuditLog = filepath.Join(dir, "tool_audit.log")
	}
}

// parser converts raw values to types, falling back to the default with a
// one-line warning when a value does not parse.
type parser struct {
	vals, from map[string]string
	warn       io.Writer
}

// nearestKey suggests the setting a misspelt key probably meant, as
// "; did you mean MODEL?", or "".
func nearestKey(k string) string {
	keys := make([]string, len(settings))
	for i, s := range settings {
		keys[i] = s.key
	}
	return didYouMean(nearestName(k, keys))
}

// list is k's comma-separated values, trimmed, empty ones left out.
func (p parser) list(k string) []string {
	var out []string
	for _, v := range strings.Split(p.str(k), ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// str is the trimmed raw value of k.
func (p parser) str(k string) string { return strings.TrimSpace(p.vals[k]) }

// fallback warns about k and returns its default text, recording the switch.
func (p parser) fallback(k, why string) string {
	def := defaultOf(k)
	hint := ""
	if v := p.vals[k]; strings.Contains(v, " ;") || strings.Contains(v, " #") {
		hint = " (a comment must be on a line of its own)"
	}
	fmt.Fprintf(p.warn, "yaicli: %s=%q from %s is not %s; using default %q%s\n", k, p.vals[k], p.from[k], why, def, hint)
	p.vals[k], p.from[k] = def, "default"
	return def
}

// int is k as a whole number >= 0.
func (p parser) int(k string) int {
	n, err := strconv.Atoi(p.str(k))
	if err != nil || n < 0 {
		n, _ = strconv.Atoi(p.fallback(k, "a whole number >= 0"))
	}
	return n
}

// tokens is k as a token count >= 0 (parseTokens: 8k is 8192).
func (p parser) tokens(k string) int {
	n, err := parseTokens(p.str(k))
	if err != nil || n < 0 {
		n, _ = parseTokens(p.fallback(k, "a whole number of tokens >= 0"))
	}
	return n
}

// float is k as a finite number: NaN and Inf parse, but JSON cannot carry
// them, so every request would fail.
func (p parser) float(k string) float64 {
	f, err := strconv.ParseFloat(p.str(k), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		why := "a number"
		if err == nil || errors.Is(err, strconv.ErrRange) {
			why = "a finite number"
		}
		f, _ = strconv.ParseFloat(p.fallback(k, why), 64)
	}
	return f
}

// share is k as a number between lo and 1.
func (p parser) share(k string, lo float64) float64 {
	f, err := strconv.ParseFloat(p.str(k), 64)
	if err != nil || f < lo || f > 1 {
		f, _ = strconv.ParseFloat(p.fallback(k, fmt.Sprintf("a number from %g to 1", lo)), 64)
	}
	return f
}

// bool is k as true/false (yes/no, on/off, 1/0 too).
func (p parser) bool(k string) bool {
	switch strings.ToLower(p.str(k)) {
	case "true", "yes", "on", "1":
		return true
	case "false", "no", "off", "0":
		return false
	}
	return p.fallback(k, "true or false") == "true"
}

// oneOf is k lower-cased, when it is one of allowed.
func (p parser) oneOf(k string, allowed ...string) string {
	v := strings.ToLower(p.str(k))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	return p.fallback(k, "one of "+strings.Join(allowed, ", "))
}

// object is k as a JSON object.
func (p parser) object(k string) map[string]any {
	m := map[string]any{}
	if err := json.Unmarshal([]byte(p.str(k)), &m); err != nil || m == nil {
		m = map[string]any{}
		json.Unmarshal([]byte(p.fallback(k, "a JSON object")), &m)
	}
	return m
}

// headers is k as a JSON object of header values.
func (p parser) headers(k string) map[string]string {
	h := map[string]string{}
	for name, v := range p.object(k) {
		h[name] = fmt.Sprint(v)
	}
	return h
}

// defaultOf is the default text of key k.
func defaultOf(k string) string {
	for _, s := range settings {
		if s.key == k {
			return s.def
		}
	}
	return ""
}

// warnNoCore says when a config file has settings but no [core] section:
// Python YAICLI's configparser reads only [core], so such a file sets
// nothing, and a silent file would look like one that was read.
func warnNoCore(warn io.Writer, path string, file map[string]map[string]string) {
	if _, ok := file["core"]; ok || len(file) == 0 {
		return
	}
	names := make([]string, 0, len(file))
	for _, sec := range slices.Sorted(maps.Keys(file)) {
		if sec == "" {
			sec = "(before any section)"
		} else {
			sec = "[" + sec + "]"
		}
		names = append(names, sec)
	}
	fmt.Fprintf(warn, "yaicli: %s: no [core] section, so nothing in it is used (found %s); put the settings under a [core] line\n", path, strings.Join(names, ", "))
}

// parseINI reads an INI file into section -> KEY -> value. Section names are
// lower-cased and keys upper-cased, so both are case-insensitive. A key given
// twice in one section is an error naming both lines.
func parseINI(r io.Reader, name string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	seen := map[string]int{}
	section := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
			continue
		case line[0] == '[':
			if !strings.HasSuffix(line, "]") {
				return nil, fmt.Errorf("%s:%d: section header %q has no closing ]", name, n, line)
			}
			section = strings.ToLower(strings.TrimSpace(line[1 : len(line)-1]))
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: expected KEY=value, got %q", name, n, line)
		}
		k = strings.ToUpper(strings.TrimSpace(k))
		if first, dup := seen[section+"\x00"+k]; dup {
			return nil, fmt.Errorf("%s: key %s is set twice, on lines %d and %d; keep one", name, k, first, n)
		}
		seen[section+"\x00"+k] = n
		if out[section] == nil {
			out[section] = map[string]string{}
		}
		out[section][k] = unquote(strings.TrimSpace(v))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return out, nil
}

// unquote strips one pair of matching quotes, as YAICLI's configparser users
// sometimes write them.
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// writeTemplate prints a complete commented config.ini with every default.
func writeTemplate(w io.Writer) {
	fmt.Fprintln(w, "# yaicli configuration: ~/.config/yaicli/config.ini")
	fmt.Fprintln(w, "# Every key can be overridden by the environment as YAI_<KEY>.")
	fmt.Fprintln(w, "[core]")
	for _, s := range settings {
		fmt.Fprintf(w, "# %s\n%s=%s\n", s.help, s.key, s.def)
	}
}

// writeEffective prints the effective configuration with the source of each
// value. Secrets are masked: the API key and EXTRA_HEADERS values show at
// most their ends (maskKey), BASE_URL's user:password is [redacted], and
// no other value may show them either: red, the run's redactor, hides
// them wherever else they appear.
func writeEffective(w io.Writer, c *config, red *redactor) {
	switch {
	case c.configPath == "":
		fmt.Fprintln(w, "config file: none")
	case c.configMissing:
		fmt.Fprintf(w, "config file: %s (not found; defaults, environment and flags only)\n", c.configPath)
	default:
		fmt.Fprintf(w, "config file: %s\n", c.configPath)
	}
	keys := make([]string, 0, len(settings))
	for _, s := range settings {
		keys = append(keys, s.key)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, src := c.values[k], c.sources[k]
		switch k {
		case "API_KEY":
			v, src = maskKey(c.APIKey), c.apiKeySource
		case "BASE_URL":
			if v == "" {
				v, src = c.baseURL(), "provider default"
			}
			v = maskUserinfo(v)
		case "EXTRA_HEADERS":
			v = maskHeaders(c.ExtraHeaders)
		case "CHAT_HISTORY_DIR":
			v = c.ChatHistoryDir
		case "TOOL_OUTPUT_DIR":
			v = c.ToolOutputDir
		case "TOOL_PERMISSIONS_FILE":
			v = c.ToolPermissionsFile
		case "TOOL_AUDIT_LOG":
			v = c.ToolAuditLog
		}
		fmt.Fprintf(w, "  %-28s %-40s (%s)\n", k, sanitize(red.text(v)), src)
	}
	fmt.Fprintf(w, "token estimates: %s family (from MODEL %s)\n", familyOf(c.Model).name, c.Model)
}

// maskKey keeps only enough of a key to tell two keys apart: a key of 16
// characters or more shows its first 3 and last 4, a shorter one at most
// its last 2 (none under 8), so most of it stays hidden.
func maskKey(k string) string {
	n := utf8.RuneCountInString(k)
	switch {
	case k == "":
		return "(none)"
	case n < 8:
		return "…"
	case n < 16:
		return "…" + lastRunes(k, 2)
	}
	return firstRunes(k, 3) + "…" + lastRunes(k, 4)
}

// maskHeaders renders EXTRA_HEADERS with every value masked as a key is.
func maskHeaders(h map[string]string) string {
	m := make(map[string]string, len(h))
	for k, v := range h {
		m[k] = maskKey(v)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// baseURL is BASE_URL, or the provider's default.
func (c *config) baseURL() string {
	if c.BaseURL != "" {
		return c.BaseURL
	}
	return presets[c.Provider].baseURL
}

// resolveAPIKey picks API_KEY, else the provider's conventional variable,
// and says where it came from.
func resolveAPIKey(c *config, env func(string) string) (key, source string) {
	if c.APIKey != "" {
		return c.APIKey, c.sources["API_KEY"]
	}
	if v := presets[c.Provider].keyEnv; v != "" && env(v) != "" {
		return env(v), "env " + v
	}
	return "", "unset"
}

// checkAPIKey fails before any request when a hosted provider has no key.
func checkAPIKey(c *config) error {
	p := presets[c.Provider]
	if c.APIKey != "" || p.keyEnv == "" || c.BaseURL != "" && !strings.HasPrefix(c.BaseURL, "https://") {
		return nil
	}
	return fmt.Errorf("no API key for provider %s: set YAI_API_KEY or %s (or API_KEY in config.ini); for a local model use PROVIDER=ollama", c.Provider, p.keyEnv)
}

// loadSampling reads the settings, warning about a value out of range or
// one the provider has no field for (and then not sending it).
func (c *config) loadSampling(p parser) {
	c.TopK = p.optInt("TOP_K", 1, math.MaxInt32, "a whole number >= 1")
	if s := p.str("SEED"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			c.Seed = &n
		} else {
			p.fallback("SEED", "a whole number")
		}
	}
	c.FrequencyPenalty = p.optFloat("FREQUENCY_PENALTY", -2, 2)
	c.PresencePenalty = p.optFloat("PRESENCE_PENALTY", -2, 2)
	c.ThinkingBudget = p.optTokens("THINKING_BUDGET", -1)
	if n := p.optTokens("NUM_CTX", minNumCtx); n != nil {
		c.NumCtx = *n
	}
	c.PromptCache = p.oneOf("PROMPT_CACHE", "auto", "off") == "auto"
	c.CacheTTL = p.oneOf("PROMPT_CACHE_TTL", "5m", "1h")
	c.checkSamplingProvider(p)
}

// checkSamplingProvider drops, with a warning, settings the provider has
// no field for: the Messages API has no seed or penalties, thinking
// budgets are Anthropic's and Gemini's, num_ctx is Ollama's.
func (c *config) checkSamplingProvider(p parser) {
	unsent := func(k, why string) {
		fmt.Fprintf(p.warn, "yaicli: %s=%s from %s is not sent: %s\n", k, p.str(k), p.from[k], why)
		p.vals[k], p.from[k] = "", "default"
	}
	if c.Provider == providerAnthropic {
		if c.Seed != nil {
			c.Seed = nil
			unsent("SEED", "Anthropic's Messages API has no seed")
		}
		if c.FrequencyPenalty != nil {
			c.FrequencyPenalty = nil
			unsent("FREQUENCY_PENALTY", "Anthropic's Messages API has no frequency_penalty")
		}
		if c.PresencePenalty != nil {
			c.PresencePenalty = nil
			unsent("PRESENCE_PENALTY", "Anthropic's Messages API has no presence_penalty")
		}
	}
	switch b := c.ThinkingBudget; {
	case b == nil:
	case c.Provider == providerAnthropic && *b < anthropicMinThinking:
		c.ThinkingBudget = nil
		unsent("THINKING_BUDGET", fmt.Sprintf("Anthropic takes a thinking budget of %d tokens or more", anthropicMinThinking))
	case c.Provider != providerAnthropic && c.Provider != providerGemini:
		c.ThinkingBudget = nil
		unsent("THINKING_BUDGET", "it is sent to PROVIDER=anthropic and gemini only; for "+c.Provider+" put the field its API documents in EXTRA_BODY")
	}
	if c.NumCtx > 0 && c.Provider != providerOllama {
		c.NumCtx = 0
		unsent("NUM_CTX", "it is Ollama's setting (PROVIDER=ollama); for other servers CONTEXT_BUDGET_TOKENS sets the budget")
	}
	if _, thinking := anthropicThinking(c.sampling, c.ReasoningEffort); thinking && c.Provider == providerAnthropic && c.TopK != nil {
		c.TopK = nil
		unsent("TOP_K", "Anthropic refuses top_k while thinking (THINKING_BUDGET or REASONING_EFFORT is set)")
	}
}

// optInt is k as a whole number from lo to hi, nil when empty; a value
// out of range warns and is not sent.
func (p parser) optInt(k string, lo, hi int, want string) *int {
	s := p.str(k)
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		p.fallback(k, want)
		return nil
	}
	return &n
}

// optTokens is k as a token count of at least lo (8k is 8192), nil when
// empty.
func (p parser) optTokens(k string, lo int) *int {
	n, err := parseTokens(p.str(k))
	if p.str(k) == "" || err != nil || n < lo {
		return nil // settingChecks refused any other value before
	}
	return &n
}

// optFloat is k as a number from lo to hi, nil when empty.
func (p parser) optFloat(k string, lo, hi float64) *float64 {
	s := p.str(k)
	if s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < lo || f > hi {
		p.fallback(k, fmt.Sprintf("a number from %g to %g", lo, hi))
		return nil
	}
	return &f
}
