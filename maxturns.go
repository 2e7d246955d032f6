package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxTurns is /max-turns [N]: the tool rounds one question of a's session
// may take, set for the rest of the session (MAX_TOOL_CALL_DEPTH's value,
// which a flag cannot change once the REPL runs); alone, it says the
// limit in use. What it did goes to w.
func maxTurns(a *agent, arg string, w io.Writer) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		fmt.Fprintf(w, "tool rounds per question: %d (/max-turns N changes it for this session)\n", a.maxDepth)
		return
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		fmt.Fprintf(w, "/max-turns takes a whole number >= 0, e.g. /max-turns 20 (got %q)\n", arg)
		return
	}
	a.maxDepth = n
	fmt.Fprintf(w, "tool rounds per question: %d for the rest of this session\n", n)
}
