package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPConfigErrorsPlaced: an mcp.json that does not decode is said as
// file:line:column at the fault, with what is wrong there in words.
func TestMCPConfigErrorsPlaced(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\",]}\n  }\n}\n", ":3:44: not valid JSON: invalid character ']'"},
		{"{\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\",\n      \"args\": \"-y server\"\n    }\n  }\n}\n", ":5:15: mcpServers.args must be an array of strings, not a string"},
		{"{\"mcpServers\": {\"fs\": {\"command\": \"x\", \"env\": [\"A=1\"]}}}", ":1:47: mcpServers.env must be an object of strings, not an array"},
		{"{\"mcpServers\": {\"fs\": {\"command\": \"x\", \"trusted\": \"yes\"}}}", ":1:51: mcpServers.trusted must be true or false, not a string"},
		{"{\"mcpServers\": {\"fs\": {\"command\": \"x\"}}", ":1:39: not valid JSON: unexpected end of JSON input"},
		{"{\n\"mcpServers\": {\"fs\": {\"command\": \"x\", \"args\": [\"a\", 3]}}}", ":2:53: each element of mcpServers.args must be a string, not a number"},
	} {
		p := filepath.Join(t.TempDir(), "mcp.json")
		os.WriteFile(p, []byte(c.text), 0o600)
		_, err := readMCPConfig(p)
		if err == nil || !strings.Contains(err.Error(), p+c.want) {
			t.Errorf("%q:\n got %v\nwant %s%s", c.text, err, p, c.want)
		}
	}
}
