package main

import (
	"errors"
	"flag"
	"io"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// usageText is --help: usage, flags, configuration, examples, exit codes
// and where the documents are.
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
                            server that does not report it: 8192 (or 8k) for an 8k model; the budget
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
  YAI_BASE_URL=http://localhost:8080/v1 yaicli --context-window 8k --chat   # an 8k local model: set the window, the rest follows
  yaicli --write-config

Exit codes:
  0 success   1 provider or network error   2 usage or configuration error
  3 tool-round limit reached (EXIT_ON_DEPTH_LIMIT)
  4 context length exceeded after self-healing
  130 interrupted (Ctrl+C)   143 SIGTERM   129 SIGHUP

Documentation, in yaicli's source: README.md to start; docs/USING.md (flags,
REPL, tools, MCP), docs/CONFIGURATION.md (every setting), docs/SAFETY.md
(what asks, the sandbox), docs/CONTEXT.md (token budget, prompt cache),
docs/SCRIPTING.md (--output-format json|stream-json).
`

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

// verboseAlone reports -V with no question and no other command: then the
// configuration is what was asked for (on stdout, so `yaicli -V > cfg.txt`
// keeps it), unless a question comes on stdin.
func (o *options) verboseAlone() bool {
	return o.verbose && len(o.prompt) == 0 && !o.chat && !o.countTokens && !o.listRoles && !o.listChats && !o.listMCP &&
		o.showRole == "" && o.createRole == "" && o.deleteRole == ""
}
