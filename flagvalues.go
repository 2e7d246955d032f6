package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
)

// valueFlag is a flag that sets a config key, checked as it is read by
// the key's one check (settingChecks, the same a YAI_* variable or
// config.ini gets): a value that does not pass is a usage error (exit 2)
// naming the flag, the value and what is expected.
type valueFlag struct {
	key   string
	names []string
}

// valueFlagTable maps each value flag's short and long names to its key.
var valueFlagTable = []valueFlag{
	{"MODEL", []string{"M", "model"}},
	{"TEMPERATURE", []string{"T", "temperature"}},
	{"TOP_P", []string{"P", "top-p"}},
	{"MAX_TOKENS", []string{"max-tokens"}},
	{"MAX_TOOL_CALL_DEPTH", []string{"max-turns"}},
	{"CONTEXT_WINDOW", []string{"context-window"}},
	{"JUSTIFY", []string{"justify"}},
	{"OUTPUT_FORMAT", []string{"output-format"}},
}

// switchFlag is a boolean flag that sets a config key to a fixed value.
type switchFlag struct {
	key, value string
	names      []string
}

// switchTable maps boolean flags' short and long names to the config value
// each one sets. With valueFlagTable it is every flag that sets a key; the
// other flags choose a mode (options).
var switchTable = []switchFlag{
	{"STREAM", "false", []string{"no-stream"}},
	{"ENABLE_FUNCTIONS", "true", []string{"enable-functions"}},
	{"ENABLE_FUNCTIONS", "false", []string{"disable-functions"}},
	{"TOOL_APPROVAL", "auto", []string{"y", "yes"}},
	{"ENABLE_MCP", "true", []string{"enable-mcp"}},
	{"ENABLE_MCP", "false", []string{"disable-mcp"}},
	{"PRETTY", "false", []string{"plain"}},
	{"PROJECT_INSTRUCTIONS", "false", []string{"no-project-instructions"}},
	{"SHOW_REASONING", "true", []string{"show-reasoning"}},
	{"SHOW_REASONING", "false", []string{"hide-reasoning"}},
	{"SHOW_FUNCTION_OUTPUT", "true", []string{"show-function-output"}},
	{"SHOW_FUNCTION_OUTPUT", "false", []string{"hide-function-output"}},
	{"SHOW_MCP_OUTPUT", "true", []string{"show-mcp-output"}},
	{"SHOW_MCP_OUTPUT", "false", []string{"hide-mcp-output"}},
}

// valueFlags defines valueFlagTable's flags on fs, storing into overrides.
func valueFlags(fs *flag.FlagSet, overrides map[string]string) {
	for _, vf := range valueFlagTable {
		for _, n := range vf.names {
			fs.Func(n, "", func(v string) error {
				if check := settingChecks[vf.key]; check != nil {
					if err := check(v); err != nil {
						return err
					}
				}
				overrides[vf.key] = v
				return nil
			})
		}
	}
}

// switches defines switchTable's flags on fs, storing into overrides. It
// returns a check for after parsing: two switches of one key that
// contradict each other (--enable-functions --disable-functions) are a
// usage error, whatever their order.
func switches(fs *flag.FlagSet, overrides map[string]string) (contradiction func() error) {
	given := map[string]string{} // key -> the first flag that set it
	var clash error
	for _, sw := range switchTable {
		for _, n := range sw.names {
			fs.BoolFunc(n, "", func(v string) error {
				if b, err := strconv.ParseBool(v); err != nil || !b {
					return errors.New("takes no value")
				}
				if prev, ok := given[sw.key]; ok && overrides[sw.key] != sw.value && clash == nil {
					clash = fmt.Errorf("%s and %s contradict each other", dashes(prev), dashes(n))
				}
				if _, ok := given[sw.key]; !ok {
					given[sw.key] = n
				}
				overrides[sw.key] = sw.value
				return nil
			})
		}
	}
	return func() error { return clash }
}
