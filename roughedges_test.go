package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBadFlagValueIsUsageError: a flag value that does not parse stops the
// run with exit 2, naming the flag, the value and what is expected, before
// any request.
func TestBadFlagValueIsUsageError(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t)
	for args, want := range map[string]string{
		"--max-turns abc hi": `invalid value "abc" for flag --max-turns: expected a whole number >= 0`,
		"-T hot hi":          `invalid value "hot" for flag -T: expected a number from 0 to 2`,
		"--top-p 1.5 hi":     `invalid value "1.5" for flag --top-p: expected a number from 0 to 1`,
		"--max-tokens 0 hi":  `invalid value "0" for flag --max-tokens: expected a whole number >= 1`,
		"--justify wide hi":  `invalid value "wide" for flag --justify: expected one of default, left`,
		"-M  hi --max-turns": `flag needs an argument`,
	} {
		r := runBinary(t, fp, e2e{args: strings.Fields(args)})
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: code %d, stderr %q; want 2 and %q", args, r.code, r.stderr, want)
		}
	}
	if n := len(fp.chats()); n != 0 {
		t.Errorf("%d requests sent after bad flags", n)
	}
}

// TestFlagsSetTheirKeys: the value flags and switches reach the config.
func TestFlagsSetTheirKeys(t *testing.T) {
	o, err := parseArgs(strings.Fields("-P 0.5 --justify full --disable-mcp --hide-function-output --show-mcp-output -T 0.7 --max-turns 3 q"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"TOP_P": "0.5", "JUSTIFY": "full", "ENABLE_MCP": "false", "SHOW_FUNCTION_OUTPUT": "false",
		"SHOW_MCP_OUTPUT": "true", "TEMPERATURE": "0.7", "MAX_TOOL_CALL_DEPTH": "3"}
	for k, v := range want {
		if o.overrides[k] != v {
			t.Errorf("%s = %q, want %q", k, o.overrides[k], v)
		}
	}
}

// TestVerboseAloneAndMissingConfig: -V without a question shows the
// configuration and exits 0, and says when the config file is not there.
func TestVerboseAloneAndMissingConfig(t *testing.T) {
	t.Parallel()
	r := runBinary(t, nil, e2e{args: []string{"-V"}, noProvider: true})
	if r.code != exitOK {
		t.Errorf("-V alone: code %d: %s", r.code, r.stderr)
	}
	// Alone, the configuration is the output asked for: stdout, so
	// `yaicli -V > cfg.txt` keeps it.
	if !strings.Contains(r.stdout, "config.ini (not found; defaults, environment and flags only)") || r.stderr != "" {
		t.Errorf("-V alone: stdout %q, stderr %q; want the configuration on stdout", r.stdout, r.stderr)
	}
	r = runBinary(t, nil, e2e{args: []string{"-V"}, noProvider: true, file: "[core]\nMODEL=x\n"})
	if strings.Contains(r.stdout, "not found") || !strings.Contains(r.stdout, "MODEL") {
		t.Errorf("-V with a file:\n%s", r.stdout)
	}
	// With a question (on stdin too) it is a diagnostic: stderr, and stdout
	// is the answer alone.
	fp := newFakeProvider(t, sse(textStream("Hi.")), sse(textStream("Hi.")))
	for _, c := range []e2e{{args: []string{"-V", "hello"}}, {args: []string{"-V"}, stdin: "hello"}} {
		r = runBinary(t, fp, c)
		if r.code != exitOK || strings.TrimSpace(r.stdout) != "Hi." || !strings.Contains(r.stderr, "MODEL") {
			t.Errorf("-V %v stdin %q: code %d, stdout %q, stderr %q", c.args, c.stdin, r.code, r.stdout, r.stderr)
		}
	}
}

// TestREADMESetUpLines runs the README's set-up lines (the ones that write
// the config file) as a new user would, with sh, on a fresh home where
// ~/.config does not exist; then the config is there and loads; a second
// run does not replace it.
func TestREADMESetUpLines(t *testing.T) {
	t.Parallel()
	docs := []string{"README.md"}
	more, _ := filepath.Glob("docs/*.md")
	var lines []string
	for _, name := range append(docs, more...) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			for _, span := range append(strings.Split(l, "`"), l) {
				span = strings.TrimSpace(span)
				if strings.HasPrefix(span, "yaicli --write-config") || strings.HasPrefix(span, "mkdir -p ~/.config/yaicli") || strings.Contains(span, "--template >") {
					lines = append(lines, span)
				}
			}
		}
	}
	if len(lines) == 0 {
		t.Fatal("the README has no set-up line writing the config file")
	}
	for _, line := range slices.Compact(lines) {
		home := t.TempDir()
		run := func() (string, error) {
			cmd := exec.Command("sh", "-c", line)
			cmd.Env = []string{"HOME=" + home, "PATH=" + filepath.Dir(binary) + ":/usr/bin:/bin"}
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
		if out, err := run(); err != nil {
			t.Errorf("%q on a fresh home: %v\n%s", line, err, out)
			continue
		}
		path := filepath.Join(home, ".config", "yaicli", "config.ini")
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "[core]") || !strings.Contains(string(b), "MODEL") {
			t.Errorf("%q: %s holds %q (%v)", line, path, b, err)
		}
		os.WriteFile(path, []byte("[core]\nMODEL=mine\n"), 0o600)
		if strings.Contains(line, "--write-config") {
			if out, err := run(); err == nil || !strings.Contains(out, "not replaced") {
				t.Errorf("%q run again: %v %s; want a refusal", line, err, out)
			}
			if b, _ := os.ReadFile(path); string(b) != "[core]\nMODEL=mine\n" {
				t.Errorf("%q replaced an existing config: %q", line, b)
			}
		}
	}
}

// TestConfigWithoutCoreWarns: a file with settings but no [core] sets
// nothing, and says so naming the sections it found.
func TestConfigWithoutCoreWarns(t *testing.T) {
	c, warn := load(t, "[Core ]\n", nil, nil) // a [core] spelled loosely is still [core]
	if warn != "" {
		t.Errorf("warned about an empty [core]: %s", warn)
	}
	c, warn = load(t, "MODEL=a\n[settings]\nMODEL=b\n", nil, nil)
	if c.Model != "gpt-4o" || !strings.Contains(warn, "no [core] section") || !strings.Contains(warn, "(before any section), [settings]") {
		t.Errorf("model %q, warn %q", c.Model, warn)
	}
}

// TestUnknownKeysWarnSorted: unknown-key warnings come in key order, the
// same on every run. Sixteen keys written out of order: a file-order or
// map-order listing would match the sorted one about once in 16! runs.
func TestUnknownKeysWarnSorted(t *testing.T) {
	keys := strings.Fields("ZULU QUEBEC BRAVO XRAY HOTEL ALPHA NOVEMBER DELTA WHISKEY KILO ECHO UNIFORM GOLF MIKE CHARLIE SIERRA")
	file := "[core]\n"
	for _, k := range keys {
		file += k + "=1\n"
	}
	_, warn := load(t, file, nil, nil)
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(warn), "\n") {
		_, after, _ := strings.Cut(line, "unknown key ")
		k, _, _ := strings.Cut(after, " ")
		order = append(order, k)
	}
	want := slices.Sorted(slices.Values(keys))
	if !slices.Equal(order, want) {
		t.Errorf("warned in order %v, want %v:\n%s", order, want, warn)
	}
}

// TestMissingAtFileIsTold: @nonexist.txt is reported and the prompt is
// sent as typed; @alice (a mention) is not.
func TestMissingAtFileIsTold(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, check(sse(textStream("ok")), func(r received) {
		if m := r.messages(); m[len(m)-1].Content != "summarise @nonexist.txt for @alice" {
			t.Errorf("prompt sent = %q", m[len(m)-1].Content)
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"summarise @nonexist.txt for @alice"}})
	if r.code != 0 || !strings.Contains(r.stderr, "@nonexist.txt: no such file (sent as typed)") || strings.Contains(r.stderr, "alice") {
		t.Errorf("code %d, stderr %q", r.code, r.stderr)
	}
}

// TestREPLEmptyListsSayEmpty: /load with no saved chats and /his on an
// empty history say so.
func TestREPLEmptyListsSayEmpty(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := runBinary(t, newFakeProvider(t), e2e{args: []string{"--chat"}, stdin: "/load 99\n/his\n/exit\n", env: []string{"YAI_CHAT_HISTORY_DIR=" + dir}})
	if !strings.Contains(r.stdout, "no saved chats in "+dir+" yet") || strings.Contains(r.stdout, "(1-0)") {
		t.Errorf("/load 99: %s", r.stdout)
	}
	if !strings.Contains(r.stdout, "(no messages yet)") {
		t.Errorf("/his: %s", r.stdout)
	}
}

// TestDeleteCurrentChatStaysDeleted: /del of the chat the session continues
// is not written back by the exit-time save, whether it was opened with
// --chat TITLE or /load.
func TestDeleteCurrentChatStaysDeleted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := []string{"YAI_CHAT_HISTORY_DIR=" + dir}
	fp := newFakeProvider(t, sse(textStream("one")), sse(textStream("two")))
	r := runBinary(t, fp, e2e{args: []string{"--chat", "notes"}, stdin: "hello\n/del 1\n/exit\n", env: env})
	if !strings.Contains(r.stdout, `deleted "notes"`) || !strings.Contains(r.stdout, "no longer saved") {
		t.Errorf("/del: %s %s", r.stdout, r.stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 {
		t.Errorf("deleted chat written back: %v", files)
	}
	runBinary(t, fp, e2e{args: []string{"--chat", "kept"}, stdin: "hello\n/exit\n", env: env})
	r = runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "/load 1\n/del 1\n/exit\n", env: env})
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 || !strings.Contains(r.stdout, `loaded "kept"`) {
		t.Errorf("after /load 1, /del 1: %v\n%s", files, r.stdout)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}

// TestFetchOfflineHintIsNotAboutSearch: fetch_webpage failing to connect
// says to check the network; only web_search names SearXNG.
func TestFetchOfflineHintIsNotAboutSearch(t *testing.T) {
	var out strings.Builder
	err := fetchWebpage(t.Context(), &http.Client{}, map[string]any{"url": "http://127.0.0.1:1/page"}, &out, 5*time.Second, "test")
	if err == nil || strings.Contains(strings.ToLower(err.Error()), "searxng") || !strings.Contains(err.Error(), "check the network") {
		t.Errorf("fetch offline: %v", err)
	}
}

// TestREADMEListsKeyVariables: every preset's key variable is in the
// README's list, and the README says how long the tests take and that
// -race needs cgo.
func TestREADMEListsKeyVariables(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range presetNames() {
		if v := presets[n].keyEnv; v != "" && !strings.Contains(string(b), "`"+v+"`") {
			t.Errorf("README does not list %s (provider %s)", v, n)
		}
	}
	for _, want := range []string{"The suite takes under a minute under `-race`", "`-race` needs cgo"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("README lacks %q", want)
		}
	}
}
