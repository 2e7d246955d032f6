package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// settingChecks judge each setting's value, the one check wherever the
// value comes from: a flag (flagvalues.go checks it as it is read), a
// YAI_* variable or config.ini (loadConfig, before anything runs). A value
// that fails is a usage error (exit 2) naming where it came from and what
// is expected; none is replaced by its default behind the person's back.
// A setting without a check takes any text (names, URLs, paths, lists).
var settingChecks = map[string]func(string) error{
	"MODEL":       nonEmpty,
	"TEMPERATURE": numberIn(0, 2), "TOP_P": numberIn(0, 1),
	"MAX_TOKENS": tokensFrom(1), "TIMEOUT": wholeFrom(1),
	"STREAM": isBool, "EXTRA_HEADERS": jsonObject, "EXTRA_BODY": jsonObject,
	"TOP_K": optional(wholeFrom(1)), "SEED": optional(wholeNumber), "THINKING_BUDGET": optional(tokensFrom(-1)),
	"FREQUENCY_PENALTY": optional(numberIn(-2, 2)), "PRESENCE_PENALTY": optional(numberIn(-2, 2)),
	"NUM_CTX":      optional(tokensFrom(minNumCtx)),
	"PROMPT_CACHE": oneOfWords("auto", "off"), "PROMPT_CACHE_TTL": oneOfWords("5m", "1h"),
	"SHOW_REASONING": isBool, "OUTPUT_FORMAT": oneOfWords(outputFormats...), "PRETTY": isBool,
	"CODE_THEME": oneOfWords(codeThemes...), "JUSTIFY": oneOfWords(justifyModes...),
	"INTERACTIVE_ROUND": wholeFrom(0), "MAX_HISTORY": wholeFrom(0), "MAX_SAVED_CHATS": wholeFrom(0),
	"ENABLE_FUNCTIONS": isBool, "SHOW_FUNCTION_OUTPUT": isBool, "ENABLE_MCP": isBool, "SHOW_MCP_OUTPUT": isBool,
	"MCP_TIMEOUT": wholeFrom(1), "TOOL_APPROVAL": oneOfWords("ask", "auto", "deny"), "PROJECT_INSTRUCTIONS": isBool,
	"SHELL_TIMEOUT": wholeFrom(1), "SANDBOX": oneOfWords("auto", "strict", "off"),
	"WEB_SEARCH_PROVIDER": oneOfWords("duckduckgo", "searxng"), "FETCH_ALLOW_PRIVATE": isBool,
	"TOOL_OUTPUT_MAX_CHARS": wholeFrom(0), "TOOL_OUTPUT_SPILL_MAX_BYTES": wholeFrom(0),
	"TOOL_OUTPUT_RETENTION_DAYS": wholeFrom(0), "TOOL_DISPLAY_MAX_LINES": wholeFrom(0), "TOOL_DISPLAY_MAX_CHARS": wholeFrom(0),
	"TOOL_SCHEMA_SHARE": numberIn(0, 1), "TOOL_CALL_PREVIEW_MAX_CHARS": wholeFrom(0),
	"CONTEXT_WINDOW": tokensFrom(0), "CONTEXT_BUDGET_TOKENS": tokensFrom(0),
	"CONTEXT_TRIM_TARGET": numberIn(0.1, 1), "CONTEXT_KEEP_GROUPS": wholeFrom(1),
	"COMPACT_MODE": oneOfWords("mechanical", "summary"), "AUTO_COMPACT_PERCENT": wholeIn(0, 100),
	"MAX_TOOL_CALL_DEPTH": wholeFrom(0), "EXIT_ON_DEPTH_LIMIT": isBool,
}

// checkSettings judges every value of vals by settingChecks; from says
// where each came from, path is config.ini's and defaultOf gives each
// key's default. It returns every failure at once, each saying where to
// fix it.
func checkSettings(vals, from map[string]string, path string, defaultOf func(string) string) error {
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(settingChecks)) {
		if from[key] == "default" || from[key] == "" {
			continue
		}
		if err := settingChecks[key](vals[key]); err != nil {
			hint := ""
			if v := vals[key]; strings.Contains(v, " ;") || strings.Contains(v, " #") {
				hint = " (a comment must be on a line of its own)"
			}
			errs = append(errs, fmt.Errorf("%s=%q from %s: %w%s; %s", key, vals[key], sourceName(key, from[key], path), err, hint, fixWhere(key, from[key], path, defaultOf(key))))
		}
	}
	return errors.Join(errs...)
}

// sourceName names where a value came from, as the person set it.
func sourceName(key, from, path string) string {
	switch from {
	case "env":
		return "the environment (YAI_" + key + ")"
	case "file":
		return path
	case "flag":
		return "the command line"
	}
	return from
}

// fixWhere says how to put a bad value right, where it was set; def is
// the key's default.
func fixWhere(key, from, path, dflt string) string {
	def := "the default (" + dflt + ")"
	if dflt == "" {
		def = "none"
	}
	switch from {
	case "env":
		return fmt.Sprintf("set YAI_%s to one, or unset it for %s", key, def)
	case "file":
		return fmt.Sprintf("fix its line in %s, or remove the line for %s", path, def)
	}
	return fmt.Sprintf("give one, or leave it out for %s", def)
}

// parseTokens reads a token count: a whole number, or one with k or K
// for thousands as model windows are named (8k = 8192, 32K = 32768).
func parseTokens(s string) (int, error) {
	s = strings.TrimSpace(s)
	scale := 1
	if n := len(s); n > 1 && (s[n-1] == 'k' || s[n-1] == 'K') {
		s, scale = s[:n-1], 1024
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > math.MaxInt32/scale || n < math.MinInt32/scale {
		return 0, errors.New("not a whole number")
	}
	return n * scale, nil
}

// tokensFrom accepts a token count of at least lo (parseTokens).
func tokensFrom(lo int) func(string) error {
	return func(v string) error {
		if n, err := parseTokens(v); err != nil || n < lo {
			return fmt.Errorf("expected a whole number of tokens >= %d (8192, or 8k for 8192)", lo)
		}
		return nil
	}
}

// wholeIn accepts a whole number from lo to hi.
func wholeIn(lo, hi int) func(string) error {
	return func(v string) error {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err != nil || n < lo || n > hi {
			return fmt.Errorf("expected a whole number from %d to %d", lo, hi)
		}
		return nil
	}
}

// wholeNumber accepts any whole number that fits 64 bits.
func wholeNumber(v string) error {
	if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
		return errors.New("expected a whole number")
	}
	return nil
}

// optional accepts the empty value (not sent) or one check accepts.
func optional(check func(string) error) func(string) error {
	return func(v string) error {
		if strings.TrimSpace(v) == "" {
			return nil
		}
		if err := check(v); err != nil {
			return fmt.Errorf("%w, or empty for none", err)
		}
		return nil
	}
}

// isBool accepts what parser.bool reads.
func isBool(v string) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1", "false", "no", "off", "0":
		return nil
	}
	return errors.New("expected true or false (yes/no, on/off, 1/0)")
}

// jsonObject accepts a JSON object.
func jsonObject(v string) error {
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(v)), &m); err != nil || m == nil {
		return errors.New(`expected a JSON object, as {"name": "value"}`)
	}
	return nil
}

// windowRoom refuses a window set by the person that cannot hold one
// request: the system prompt (system tokens) and MAX_TOKENS of answer.
// key names the setting the window came from (CONTEXT_WINDOW, NUM_CTX).
func windowRoom(key string, window, maxTokens, system int) error {
	if window <= 0 || system+maxTokens < window {
		return nil
	}
	if system == 0 {
		return fmt.Errorf("%s=%d cannot hold a request: MAX_TOKENS keeps %d tokens of it for the answer alone; "+
			"set %s to the model's real window (an 8k model: 8192, or 8k), or lower MAX_TOKENS", key, window, maxTokens, key)
	}
	return fmt.Errorf("%s=%d cannot hold a request: the system prompt takes about %d tokens and MAX_TOKENS keeps %d for the answer, %d in all; "+
		"set %s to the model's real window (an 8k model: 8192, or 8k), or lower MAX_TOKENS", key, window, system, maxTokens, system+maxTokens, key)
}

// endpointSuffixes are the paths yaicli adds to BASE_URL itself: a
// BASE_URL copied with one (a server's documented endpoint) would be
// asked at .../chat/completions/chat/completions and answer 404.
var endpointSuffixes = []string{"/chat/completions", "/messages"}

// trimEndpoint takes an endpoint path yaicli adds itself off base, saying
// so on warn, so BASE_URL=http://host:8080/v1/chat/completions works as
// http://host:8080/v1 does. A query (Azure's api-version) stays.
func trimEndpoint(base string, warn io.Writer) string {
	path, query, hasQuery := strings.Cut(base, "?")
	for _, suf := range endpointSuffixes {
		if trimmed, ok := strings.CutSuffix(strings.TrimRight(path, "/"), suf); ok && strings.Contains(trimmed, "://") {
			if hasQuery {
				trimmed += "?" + query
			}
			fmt.Fprintf(warn, "yaicli: BASE_URL ends in %s, which yaicli adds itself; using %s\n", suf, maskUserinfo(strings.SplitN(trimmed, "?", 2)[0]))
			return trimmed
		}
	}
	return base
}

// Output formats (OUTPUT_FORMAT, --output-format).
const (
	formatText       = "text"
	formatJSON       = "json"
	formatStreamJSON = "stream-json"
)

// justifyModes are JUSTIFY's values, and outputFormats OUTPUT_FORMAT's:
// the flags check them and the completion scripts offer them.
var (
	justifyModes  = []string{"default", "left", "center", "right", "full"}
	outputFormats = []string{formatText, formatJSON, formatStreamJSON}
)

// nonEmpty refuses an empty value.
func nonEmpty(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("expected a name, not nothing")
	}
	return nil
}

// numberIn accepts a finite number from lo to hi.
func numberIn(lo, hi float64) func(string) error {
	return func(v string) error {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || f < lo || f > hi {
			return errors.New("expected a number from " + strconv.FormatFloat(lo, 'g', -1, 64) + " to " + strconv.FormatFloat(hi, 'g', -1, 64))
		}
		return nil
	}
}

// wholeFrom accepts a whole number of at least lo.
func wholeFrom(lo int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < lo {
			return errors.New("expected a whole number >= " + strconv.Itoa(lo))
		}
		return nil
	}
}

// oneOfWords accepts one of words, case-insensitively.
func oneOfWords(words ...string) func(string) error {
	return func(v string) error {
		for _, w := range words {
			if strings.EqualFold(strings.TrimSpace(v), w) {
				return nil
			}
		}
		return errors.New("expected one of " + strings.Join(words, ", "))
	}
}
