package main

import (
	"fmt"
	"strconv"
	"strings"
)

// maxTurns is /max-turns [N]: the tool rounds one question may take, set
// for the rest of the session (MAX_TOOL_CALL_DEPTH's value, which a flag
// cannot change once the REPL runs); alone, it says the limit in use.
func (s *session) maxTurns(arg string) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		fmt.Fprintf(s.out, "tool rounds per question: %d (/max-turns N changes it for this session)\n", s.agent.maxDepth)
		return
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		fmt.Fprintf(s.out, "/max-turns takes a whole number >= 0, e.g. /max-turns 20 (got %q)\n", arg)
		return
	}
	s.agent.maxDepth = n
	fmt.Fprintf(s.out, "tool rounds per question: %d for the rest of this session\n", n)
}
