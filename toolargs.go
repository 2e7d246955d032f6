package main

import (
	"encoding/json"
	"fmt"
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
