package main

import (
	"errors"
	"flag"
	"math"
	"strconv"
	"strings"
)

// valueFlag is a flag that sets a config key, checked as it is read: a value
// that does not parse is a usage error (exit 2) naming the flag, the value
// and what is expected, not a config warning after which the API is called
// with the default.
type valueFlag struct {
	key   string
	names []string
	check func(string) error // nil accepts any value
}

// valueFlagTable maps each value flag's short and long names to its key.
var valueFlagTable = []valueFlag{
	{"MODEL", []string{"M", "model"}, nonEmpty},
	{"TEMPERATURE", []string{"T", "temperature"}, numberIn(0, 2)},
	{"TOP_P", []string{"P", "top-p"}, numberIn(0, 1)},
	{"MAX_TOKENS", []string{"max-tokens"}, wholeFrom(1)},
	{"MAX_TOOL_CALL_DEPTH", []string{"max-turns"}, wholeFrom(0)},
	{"JUSTIFY", []string{"justify"}, oneOfWords("default", "left", "center", "right", "full")},
}

// switchTable maps boolean flags to the config value each one sets.
var switchTable = []struct{ name, key, value string }{
	{"disable-mcp", "ENABLE_MCP", "false"},
	{"show-function-output", "SHOW_FUNCTION_OUTPUT", "true"},
	{"hide-function-output", "SHOW_FUNCTION_OUTPUT", "false"},
	{"show-mcp-output", "SHOW_MCP_OUTPUT", "true"},
	{"hide-mcp-output", "SHOW_MCP_OUTPUT", "false"},
}

// valueFlags defines valueFlagTable's flags on fs, storing into overrides.
func valueFlags(fs *flag.FlagSet, overrides map[string]string) {
	for _, vf := range valueFlagTable {
		for _, n := range vf.names {
			fs.Func(n, "", func(v string) error {
				if vf.check != nil {
					if err := vf.check(v); err != nil {
						return err
					}
				}
				overrides[vf.key] = v
				return nil
			})
		}
	}
}

// switches defines switchTable's flags on fs, storing into overrides.
func switches(fs *flag.FlagSet, overrides map[string]string) {
	for _, sw := range switchTable {
		fs.BoolFunc(sw.name, "", func(v string) error {
			if b, err := strconv.ParseBool(v); err != nil || !b {
				return errors.New("takes no value")
			}
			overrides[sw.key] = sw.value
			return nil
		})
	}
}

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
