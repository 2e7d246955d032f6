package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// settingCandidates are values tried on every checked setting: each is
// good for some settings and bad for others.
var settingCandidates = []string{"abc", "-5", "-1", "0", "1", "7", "0.5", "1.5", "8k", "32K", "1e999", "NaN",
	"true", "maybe", "off", "auto", "summary", "json", "[1]", `{"a": "b"}`, "5m", "center", "searxng", "deny", "0.5 ; warm"}

// loadFrom loads the configuration with key=v given from one source: the
// command line (through its flag where it has one), YAI_* or config.ini.
func loadFrom(t *testing.T, dir, source, key, v string) (*config, error) {
	t.Helper()
	src := configSources{env: func(string) string { return "" }, tmpDir: dir}
	switch source {
	case "flag":
		i := slices.IndexFunc(valueFlagTable, func(f valueFlag) bool { return f.key == key })
		if i < 0 {
			src.flags = map[string]string{key: v} // the layer flags fill, for a key with no flag of its own
			break
		}
		o, err := parseArgs([]string{dashes(valueFlagTable[i].names[len(valueFlagTable[i].names)-1]), v, "q"})
		if err != nil {
			return nil, err
		}
		src.flags = o.overrides
	case "env":
		src.env = func(k string) string { return map[string]string{"YAI_" + key: v}[k] }
	case "file":
		src.path = filepath.Join(t.TempDir(), "config.ini")
		os.WriteFile(src.path, []byte("[core]\n"+key+"="+v+"\n"), 0o600)
	}
	return loadConfig(src, io.Discard)
}

// TestOneCheckEverySource: every checked setting, given each candidate
// value from a flag, YAI_* and config.ini, has one outcome: refused by
// all three (exit 2, the message naming the setting and what is expected)
// or accepted by all three with the same effect.
func TestOneCheckEverySource(t *testing.T) {
	t.Parallel()
	for _, s := range settings {
		if settingChecks[s.key] == nil {
			continue
		}
		for _, v := range settingCandidates {
			var base *config
			var refused []string
			dir := t.TempDir()
			for _, source := range []string{"flag", "env", "file"} {
				c, err := loadFrom(t, dir, source, s.key, v)
				if err != nil {
					refused = append(refused, source)
					if !strings.Contains(err.Error(), "expected ") && !strings.Contains(err.Error(), "cannot hold a request") {
						t.Errorf("%s=%q from %s: %v, which does not say what is expected", s.key, v, source, err)
					}
					continue
				}
				c.values, c.sources, c.configPath, c.configMissing = nil, nil, "", false
				if base == nil {
					base = c
				} else if d := fieldsDiffer(base, c); d != "" {
					t.Errorf("%s=%q: the flag and %s give different settings: %s", s.key, v, source, d)
				}
			}
			if len(refused) != 0 && len(refused) != 3 {
				t.Errorf("%s=%q is refused from %v only", s.key, v, refused)
			}
		}
	}
}

// fieldsDiffer names the fields of two configurations that differ.
func fieldsDiffer(a, b *config) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	var out []string
	for i := range va.NumField() {
		if x, y := fmt.Sprintf("%+v", va.Field(i)), fmt.Sprintf("%+v", vb.Field(i)); x != y {
			out = append(out, va.Type().Field(i).Name+": "+x+" / "+y)
		}
	}
	return strings.Join(out, "; ")
}

// TestDefaultsPassTheirChecks: every default is a value its check takes.
func TestDefaultsPassTheirChecks(t *testing.T) {
	for _, s := range settings {
		if check := settingChecks[s.key]; check != nil {
			if err := check(s.def); err != nil {
				t.Errorf("%s's default %q fails its own check: %v", s.key, s.def, err)
			}
		}
	}
	for k := range settingChecks {
		if defaultOf(k) == "" && !slices.ContainsFunc(settings, func(s setting) bool { return s.key == k }) {
			t.Errorf("settingChecks has %s, which is no setting", k)
		}
	}
}

// TestTokenCounts: a token count is taken as a number or with k for
// thousands as windows are named (8k = 8192), from any source.
func TestTokenCounts(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want int
	}{{"8192", 8192}, {"8k", 8192}, {"32K", 32768}, {"128k", 131072}} {
		for _, source := range []string{"flag", "env", "file"} {
			c, err := loadFrom(t, t.TempDir(), source, "CONTEXT_WINDOW", tc.v)
			if err != nil || c.ContextWindow != tc.want {
				t.Errorf("CONTEXT_WINDOW=%s from %s: %v, %v; want %d", tc.v, source, c, err, tc.want)
			}
		}
	}
	for _, v := range []string{"8kb", "k", "8.5k", "-5", "abc", "99999999999k"} {
		if _, err := parseTokens(v); err == nil && v != "-5" {
			t.Errorf("parseTokens(%q) took it", v)
		}
		if err := tokensFrom(0)(v); err == nil || !strings.Contains(err.Error(), "8k for 8192") {
			t.Errorf("tokensFrom(0)(%q) = %v, want a refusal that names 8k", v, err)
		}
	}
}

// TestWindowTooSmallRefused: a window set too small for the system prompt
// and MAX_TOKENS is refused before any request, with the reason, from the
// flag and the environment alike.
func TestWindowTooSmallRefused(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t)
	for _, run := range []e2e{
		{args: []string{"--context-window", "10", "q"}},
		{args: []string{"q"}, env: []string{"YAI_CONTEXT_WINDOW=1k"}},
		{args: []string{"q"}, env: []string{"YAI_CONTEXT_WINDOW=1100", "YAI_MAX_TOKENS=1095"}},
	} {
		r := runBinary(t, f, run)
		if r.code != exitUsage || !strings.Contains(r.stderr, "cannot hold a request: ") ||
			!strings.Contains(r.stderr, "MAX_TOKENS keeps") || !strings.Contains(r.stderr, "or lower MAX_TOKENS") {
			t.Errorf("%v %v: code %d, stderr %q", run.args, run.env, r.code, r.stderr)
		}
	}
	if n := len(f.chats()); n != 0 {
		t.Errorf("%d requests sent with a window too small", n)
	}
	if err := windowRoom("CONTEXT_WINDOW", 1100, 1095, 40); err == nil || !strings.Contains(err.Error(), "the system prompt takes about 40 tokens") {
		t.Errorf("a window without room for the system prompt: %v", err)
	}
	if err := windowRoom("CONTEXT_WINDOW", 8192, 1024, 400); err != nil {
		t.Errorf("an 8k window with room was refused: %v", err)
	}
}

// TestPartDefaultsAreTheSettings: a part's own default for a value left
// zero is the setting's default. TOOL_SCHEMA_SHARE and
// TOOL_OUTPUT_SPILL_MAX_BYTES take theirs from the part's constant;
// CONTEXT_TRIM_TARGET's is still written twice (mask.go's
// defaultTrimTarget), so this keeps the two equal.
func TestPartDefaultsAreTheSettings(t *testing.T) {
	for key, part := range map[string]float64{"TOOL_SCHEMA_SHARE": deferShare, "TOOL_OUTPUT_SPILL_MAX_BYTES": defaultSpillMax, "CONTEXT_TRIM_TARGET": defaultTrimTarget} {
		if got := strconv.FormatFloat(part, 'f', -1, 64); got != defaultOf(key) {
			t.Errorf("%s's default is %s, its part's %s", key, defaultOf(key), got)
		}
	}
}
