package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// missingArgs says which of a tool's required arguments a call left out (a
// small model often names them after another tool's: "command" for
// "shell_command"), so the call is answered at once with what to send,
// instead of the person being asked to approve an empty command; "" when
// none is missing or the schema cannot be read (the tool then decides).
func missingArgs(name, params string, args map[string]any) string {
	var schema struct {
		Required []string `json:"required"`
	}
	if json.Unmarshal([]byte(params), &schema) != nil {
		return ""
	}
	var missing []string
	for _, k := range schema.Required {
		if _, ok := args[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%s was not run: %s is required (the call gave: %s); call %s again with %s",
		name, strings.Join(missing, ", "), orNone(sortedKeysOf(args)), name, strings.Join(missing, ", "))
}

// orNone joins names, or says "no arguments".
func orNone(names []string) string {
	if len(names) == 0 {
		return "no arguments"
	}
	return strings.Join(names, ", ")
}

// argString is a string argument, or def.
func argString(args map[string]any, k, def string) string {
	if s, ok := args[k].(string); ok {
		return s
	}
	return def
}

// argInt is a number argument (or a numeric string), or def.
func argInt(args map[string]any, k string, def int) int {
	switch t := args[k].(type) {
	case float64:
		return int(t)
	case string:
		var n int
		if _, err := fmt.Sscan(t, &n); err == nil {
			return n
		}
	}
	return def
}

// argCountMax is the largest offset or limit taken as given; larger
// numbers (1e300) mean "everything" and are clamped, not refused. It is
// the largest int on 32-bit builds and 2^53 (exact in a float64) on 64-bit.
const argCountMax = min(math.MaxInt, 1<<53)

// argCount is a non-negative count argument: any JSON number (or numeric
// string) is accepted, negatives and NaN read as 0, fractions are dropped
// and huge values are clamped to argCountMax.
func argCount(args map[string]any, k string) int {
	var f float64
	switch t := args[k].(type) {
	case float64:
		f = t
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(t), 64); err != nil {
			return 0
		}
	default:
		return 0
	}
	switch {
	case !(f > 0): // negative, zero, NaN
		return 0
	case f >= argCountMax:
		return argCountMax
	}
	return int(f)
}

// argBool is a boolean argument (or "true"); false when absent.
func argBool(args map[string]any, k string) bool {
	switch t := args[k].(type) {
	case bool:
		return t
	case string:
		return t == "true"
	}
	return false
}
