package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseINI(t *testing.T) {
	in := "\ufeff# comment\n; other comment\n[Core]\nmodel = gpt-4.1\nTemperature=0.5\nBASE_URL=\"http://x/v1\"\n\n[other]\nMODEL=ignored\n"
	got, err := parseINI(strings.NewReader(in), "c.ini")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"MODEL": "gpt-4.1", "TEMPERATURE": "0.5", "BASE_URL": "http://x/v1"}
	for k, v := range want {
		if got["core"][k] != v {
			t.Errorf("parseINI core[%s] = %q, want %q", k, got["core"][k], v)
		}
	}
	if got["other"]["MODEL"] != "ignored" {
		t.Errorf("other section = %v", got["other"])
	}
}

func TestParseINIErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[core]\nMODEL=a\nmodel=b\n", "key MODEL is set twice, on lines 2 and 3"},
		{"[core\n", "c.ini:1: section header"},
		{"[core]\njust words\n", "c.ini:2: expected KEY=value"},
	} {
		_, err := parseINI(strings.NewReader(tc.in), "c.ini")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseINI(%q) error = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseINI(f *testing.F) {
	f.Add("[core]\nA=1\n# c\nB = 2\n")
	f.Add("[x]\n;c\nK=\"v\"\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := parseINI(strings.NewReader(in), "f")
		if err != nil {
			return
		}
		for sec, kv := range got {
			for k := range kv {
				if k != strings.ToUpper(k) || sec != strings.ToLower(sec) {
					t.Errorf("key %q in section %q not normalised", k, sec)
				}
			}
		}
	})
}

func load(t *testing.T, file string, env map[string]string, flags map[string]string) (*config, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.ini")
	if file != "" {
		os.WriteFile(path, []byte(file), 0o644)
	}
	var warn bytes.Buffer
	wd, _ := os.Getwd() // the package directory is the tests' workspace
	c, err := loadConfig(configSources{path: path, env: func(k string) string { return env[k] }, flags: flags, tmpDir: "/tmpdir", workDir: wd, now: time.Now, environ: os.Environ()}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	return c, warn.String()
}

func TestConfigDefaults(t *testing.T) {
	c, warn := load(t, "", nil, nil)
	if warn != "" {
		t.Errorf("warnings with no file: %s", warn)
	}
	if c.Model != "gpt-4o" || c.ToolOutputMaxChars != 32000 || c.MaxToolCallDepth != 8 || !c.ExitOnDepthLimit ||
		c.ToolDisplayMaxLines != 15 || c.ToolDisplayMaxChars != 4000 || c.ToolCallPreviewMaxChars != 300 || c.ContextBudgetTokens != 0 ||
		c.InteractiveRound != 25 || c.MaxHistory != 500 || c.ToolApproval != "ask" || c.MaxTokens != 1024 {
		t.Errorf("defaults = %+v", c)
	}
	if c.ChatHistoryDir != "/tmpdir/yaicli-0/chats" || c.ToolOutputDir != "/tmpdir/yaicli-0/chats/tool-outputs" {
		t.Errorf("dirs = %s, %s", c.ChatHistoryDir, c.ToolOutputDir)
	}
}

func TestConfigPrecedenceUnit(t *testing.T) {
	file := "[core]\nMODEL=file\nTOP_P=0.5\nTIMEOUT=9\n"
	c, _ := load(t, file, map[string]string{"YAI_MODEL": "env", "YAI_TOP_P": "0.6"}, map[string]string{"MODEL": "flag"})
	if c.Model != "flag" || c.TopP != 0.6 || c.Timeout.Seconds() != 9 {
		t.Errorf("model %s top_p %v timeout %v", c.Model, c.TopP, c.Timeout)
	}
	if c.sources["MODEL"] != "flag" || c.sources["TOP_P"] != "env" || c.sources["TIMEOUT"] != "file" || c.sources["STREAM"] != "default" {
		t.Errorf("sources = %v", c.sources)
	}
}

// TestConfigBadValues: bad values in config.ini stop the run, every one
// named at once with its line's fix, none replaced by its default.
func TestConfigBadValues(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.ini")
	os.WriteFile(path, []byte("[core]\nMAX_TOKENS=lots\nSTREAM=maybe\nTOOL_APPROVAL=sometimes\nEXTRA_BODY=[1]\n"), 0o600)
	_, err := loadConfig(configSources{path: path, env: func(string) string { return "" }, tmpDir: dir}, io.Discard)
	if err == nil {
		t.Fatal("bad values were accepted")
	}
	for _, k := range []string{"MAX_TOKENS", "STREAM", "TOOL_APPROVAL", "EXTRA_BODY"} {
		if !strings.Contains(err.Error(), k+"=") {
			t.Errorf("no error for %s in %q", k, err)
		}
	}
	if n := strings.Count(err.Error(), "fix its line in "+path); n != 4 {
		t.Errorf("%d errors say where to fix them, want one per bad key:\n%s", n, err)
	}
}

func TestConfigAPIKeyFallback(t *testing.T) {
	c, _ := load(t, "[core]\nPROVIDER=deepseek\n", map[string]string{"DEEPSEEK_API_KEY": "dk-123456789"}, nil)
	if c.APIKey != "dk-123456789" || c.apiKeySource != "env DEEPSEEK_API_KEY" {
		t.Errorf("key %q from %q", c.APIKey, c.apiKeySource)
	}
	if c.baseURL() != "https://api.deepseek.com/v1" {
		t.Errorf("base url %s", c.baseURL())
	}
	local, _ := load(t, "[core]\nPROVIDER=ollama\n", nil, nil)
	if err := checkAPIKey(local); err != nil {
		t.Errorf("local provider needs no key: %v", err)
	}
}

func TestMaskKey(t *testing.T) {
	for in, want := range map[string]string{"": "(none)", "short": "…", "sk-abcdefgh": "…gh", "sk-abcdefghijkl": "…kl", "sk-abcdefghijklm": "sk-…jklm"} {
		if got := maskKey(in); got != want {
			t.Errorf("maskKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// Typos and inline comments are the usual reasons a setting "does not
// work": the warning says which.
func TestConfigWarningsExplain(t *testing.T) {
	c, warn := load(t, "[core]\nMODLE=gpt-4.1\n", nil, nil)
	if c.Model != "gpt-4o" {
		t.Errorf("model %q: want the default", c.Model)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "config.ini")
	os.WriteFile(path, []byte("[core]\nTEMPERATURE=0.5 ; warmer\n"), 0o600)
	_, err := loadConfig(configSources{path: path, env: func(string) string { return "" }, tmpDir: dir}, io.Discard)
	if err != nil {
		warn += err.Error()
	}
	for _, want := range []string{"unknown key MODLE ignored; did you mean MODEL?", `TEMPERATURE="0.5 ; warmer" from ` + path + `: expected a number from 0 to 2 (a comment must be on a line of its own)`} {
		if !strings.Contains(warn, want) {
			t.Errorf("warnings lack %q:\n%s", want, warn)
		}
	}
}

// A config.ini written by YAICLI loads without a warning: its display-only
// keys are accepted and ignored.
func TestYAICLIConfigLoadsQuietly(t *testing.T) {
	file := "[core]\nPROVIDER=openai\nBASE_URL=https://api.openai.com/v1\nAPI_KEY=\nMODEL=gpt-4o\nSHELL_NAME=auto\nOS_NAME=auto\n" +
		"STREAM=true\nTEMPERATURE=0.5\nTOP_P=1.0\nMAX_TOKENS=1024\nTIMEOUT=60\nINTERACTIVE_ROUND=25\nCODE_THEME=monokai\nMAX_HISTORY=500\n" +
		"AUTO_SUGGEST=true\nSHOW_REASONING=true\nJUSTIFY=default\nCHAT_HISTORY_DIR=/tmp/yaicli/chats\nMAX_SAVED_CHATS=20\n" +
		"ROLE_MODIFY_WARNING=true\nENABLE_FUNCTIONS=true\nSHOW_FUNCTION_OUTPUT=true\n"
	c, warn := load(t, file, nil, nil)
	if warn != "" || c.Temperature != 0.5 {
		t.Errorf("temperature %v, warnings:\n%s", c.Temperature, warn)
	}
}

// Every setting is documented in the settings table (docs/CONFIGURATION.md,
// linked from the README), with its default.
func TestREADMEListsEverySetting(t *testing.T) {
	table := docText(t, docConfiguration)
	for _, s := range settings {
		row := fmt.Sprintf("| `%s` | `%s` |", s.key, s.def)
		if !strings.Contains(table, row) {
			t.Errorf("%s lacks the row %q", docConfiguration, row)
		}
	}
}

// TestTemplateLoads: the template is a complete config that loads cleanly.
func TestTemplateLoads(t *testing.T) {
	t.Parallel()
	r := runBinary(t, nil, e2e{args: []string{"--template"}})
	for _, s := range settings {
		if !strings.Contains(r.stdout, "\n"+s.key+"=") {
			t.Errorf("template lacks %s", s.key)
		}
	}
	var warn bytes.Buffer
	path := filepath.Join(t.TempDir(), "config.ini")
	os.WriteFile(path, []byte(r.stdout), 0o644)
	if _, err := loadConfig(configSources{path: path, explicit: true, env: func(string) string { return "" }, tmpDir: "/tmp"}, &warn); err != nil || warn.Len() > 0 {
		t.Errorf("loading the template: %v %s", err, warn.String())
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
