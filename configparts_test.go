package main

import (
	"errors"
	"fmt"
	"go/types"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPartsCarryTheSettings: each setting the agent's and the session's
// options carry reaches its field from config.ini, YAI_* or a flag (here
// flags, every one away from its default), through newParts.
func TestPartsCarryTheSettings(t *testing.T) {
	t.Parallel()
	set := map[string]string{
		"PROVIDER": "ollama", "MODEL": "qwen3:8b", "BASE_URL": "http://10.0.0.5:11434/v1", "MAX_TOKENS": "777",
		"MAX_TOOL_CALL_DEPTH": "3", "CONTEXT_TRIM_TARGET": "0.4", "CONTEXT_KEEP_GROUPS": "5", "COMPACT_MODE": "summary",
		"AUTO_COMPACT_PERCENT": "85", "ENABLE_FUNCTIONS": "false", "SHOW_REASONING": "false", "PROMPT_CACHE_TTL": "1h",
		"TOOL_OUTPUT_DIR": "/spill", "CONTEXT_BUDGET_TOKENS": "6000", "NUM_CTX": "8192", "TOOL_OUTPUT_MAX_CHARS": "9000",
		"CHAT_HISTORY_DIR": "/chats", "MAX_SAVED_CHATS": "4", "INTERACTIVE_ROUND": "7", "MAX_HISTORY": "33",
		"TOOL_APPROVAL": "auto", "ENABLE_MCP": "true", "OUTPUT_FORMAT": "json", "DEFAULT_ROLE": "pirate",
		"OS_NAME": "Plan 9", "SHELL_NAME": "rc", "EXIT_ON_DEPTH_LIMIT": "false", "TIMEOUT": "17",
	}
	cfg, _ := load(t, "", nil, set)
	p := newParts(cfg, "/cfgdir")
	a, s := p.agent, p.session
	for _, c := range []struct {
		key       string
		got, want any
	}{
		{"MODEL", a.model, "qwen3:8b"}, {"PROVIDER", a.provider, "ollama"}, {"MAX_TOKENS", a.maxTokens, 777},
		{"MAX_TOOL_CALL_DEPTH", a.maxDepth, 3}, {"CONTEXT_TRIM_TARGET", a.trimTarget, 0.4},
		{"CONTEXT_KEEP_GROUPS", a.keepGroups, 5}, {"COMPACT_MODE", a.compactMode, "summary"},
		{"AUTO_COMPACT_PERCENT", a.autoCompactPercent, 85}, {"ENABLE_FUNCTIONS", p.useTools, false},
		{"SHOW_REASONING", a.showReasoning, false}, {"PROMPT_CACHE_TTL", a.cacheTTL, "1h"},
		{"TOOL_OUTPUT_DIR", a.spillDir, "/spill"}, {"BASE_URL (a local server may cut)", a.silentCut, true},
		{"window", a.window, windowQuery{provider: "ollama", baseURL: "http://10.0.0.5:11434/v1", model: "qwen3:8b", numCtx: 8192, budgetTokens: 6000}},
		{"session.start", a.start, startFacts{version: cfg.version, provider: "ollama", model: "qwen3:8b", maxToolRounds: 3, outputMaxChars: 9000}},
		{"CHAT_HISTORY_DIR", s.chatDir, "/chats"}, {"MAX_SAVED_CHATS", s.maxSavedChats, 4},
		{"INTERACTIVE_ROUND", s.interactiveRound, 7}, {"CONTEXT_TRIM_TARGET (session)", s.trimTarget, 0.4},
		{"MAX_HISTORY", s.maxHistory, 33}, {"MAX_TOKENS (shell)", s.shell.maxTokens, 777}, {"TOOL_APPROVAL", s.shell.approval, "auto"},
		{"ENABLE_FUNCTIONS (session)", s.tools, false}, {"ENABLE_MCP", p.useMCP, true}, {"OUTPUT_FORMAT", s.outputFormat, "json"},
		{"DEFAULT_ROLE", p.defaultRole, "pirate"}, {"EXIT_ON_DEPTH_LIMIT", s.failures.depthFails, false},
		{"TIMEOUT", s.failures.hints.timeout, 17 * time.Second}, {"PROVIDER (hints)", s.failures.hints.provider, "ollama"},
		{"OS_NAME, SHELL_NAME", fillRole(s.roles, "{_os}/{_shell}"), "Plan 9/rc"},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s=%s: parts carry %v, want %v", c.key, set[c.key], c.got, c.want)
		}
	}
	if p.red == nil || s.failures.red != p.red {
		t.Error("the session's failures do not hide the run's one redactor")
	}
}

// TestFailuresHideTheKey: a failure is told without the key, and
// EXIT_ON_DEPTH_LIMIT decides whether the tool-round limit fails the run.
func TestFailuresHideTheKey(t *testing.T) {
	t.Parallel()
	cfg := secretConfig()
	f := cfg.failures(cfg.redactor())
	if got := f.red.errorText(errors.New("rejected sk-live-SECRETKEY123\x1b[2J")); strings.Contains(got, "SECRETKEY") || strings.Contains(got, "\x1b") {
		t.Errorf("errorText = %q, want the key and the escape hidden", got)
	}
	for _, fails := range []bool{true, false} {
		f.depthFails = fails
		want := exitOK
		if fails {
			want = exitDepthLimit
		}
		if code := exitCode(t.Context(), errDepthLimit, f, &strings.Builder{}); code != want {
			t.Errorf("EXIT_ON_DEPTH_LIMIT=%v: exit code %d, want %d", fails, code, want)
		}
	}
}

// TestOptionsHoldWhatTheirPartReads: every field of a part's options is
// read (selected) in a file other than configparts.go, which fills them;
// a field only filled, or read only by newParts' own methods, is a setting
// the part does not use: drop it, or make it a field of parts when it is
// run's decision (as useTools, useMCP and defaultRole are).
func TestOptionsHoldWhatTheirPartReads(t *testing.T) {
	t.Parallel()
	fset, pkg, info := checkPackage(t)
	readers := map[*types.Var]map[string]bool{}
	for sel, s := range info.Selections {
		if v, ok := s.Obj().(*types.Var); ok && v.IsField() {
			if readers[v] == nil {
				readers[v] = map[string]bool{}
			}
			readers[v][filepath.Base(fset.Position(sel.Pos()).Filename)] = true
		}
	}
	for _, name := range []string{"agentOptions", "sessionOptions", "clientOptions", "toolboxOptions", "permissionOptions",
		"sandboxOptions", "webOptions", "shellOptions", "renderOptions", "mcpOptions", "roleFacts", "failures", "hintFacts",
		"windowQuery", "startFacts"} {
		st := pkg.Scope().Lookup(name).Type().Underlying().(*types.Struct)
		for i := range st.NumFields() {
			f := st.Field(i)
			if files := readers[f]; len(files) == 0 || len(files) == 1 && files["configparts.go"] {
				t.Errorf("%s.%s is filled but read by no part: drop it, or make it run's (a field of parts)", name, f.Name())
			}
		}
	}
}
