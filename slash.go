package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// The slash commands: their help, the one table that runs them and that
// Tab completes from, and the line that dispatches them. What each does
// lives with the session (repl.go) or its feature.

// replHelp lists the commands.
const replHelp = `Commands:
  /help, ?              this list
  /context, /ctx        estimated context usage and the budget in use
  /compact [N]          keep only the last N turn groups (default 2)
  /compact --summary [N]
                        replace all but the last N turn groups by a model-written summary
  /clear                start over with an empty history, as a new chat (a saved one keeps what it had)
  /forget-window [MODEL|all]
                        forget the window learned from a rejection (kept 7 days)
  /his                  the conversation so far, tool calls summarised
  /show-output          this turn's tool outputs
  /undo                 take back the last turn's file changes (a file changed since is left, and named)
  /rewind [N]           list the turns; with N, files as before turn N and turns N onward dropped
  /save [title]         save the chat (a titled chat saves itself after every answer)
  /list, /chats         saved chats; /load N continues one, /del N deletes one
  /add PATH             attach a file or directory (2 levels) for the session; /drop PATH|all
  /context list|add PATH|remove PATH|clear
                        the same as YAICLI names it: list, attach, detach (a path or a file name), detach all
  /mode chat|exec       exec: each line is a task for one shell command (Shift+Tab toggles)
  /model [NAME]         the model, its window and budget; NAME switches to it for the session (history kept)
  /max-turns [N]        tool rounds a question may take, for the rest of the session (MAX_TOOL_CALL_DEPTH)
  @path, @"a b"         in a question: attach that file to it
  !cmd                  run cmd in your shell (not added to the conversation)
  /exit                 leave (also Ctrl+D)
A line ending in \ continues on the next line.
`

// replCommand is one slash command: its names, the words Tab offers as its
// first argument, the arguments after which Tab completes a path ("" for
// right after the name), and what it does with its words and argument text.
type replCommand struct {
	names     []string
	subs      []string
	pathAfter []string
	run       func(s *session, words []string, arg string)
}

// replCommands is the one table of slash commands: command runs them, Tab
// completes them (tabcomplete.go), and the unknown-command line lists them.
var replCommands = []replCommand{
	{names: []string{"/help", "?"}, run: func(s *session, _ []string, _ string) { fmt.Fprint(s.out, replHelp) }},
	{names: []string{"/exit", "/quit"}},
	{names: []string{"/clear"}, run: func(s *session, _ []string, _ string) {
		s.save() // a saved chat keeps what it had: what follows is a new chat, not written over it
		s.hist = s.prefix()
		s.forgetReported()
		s.resumeCheckpoints("") // a new chat: its own checkpoints
		if fmt.Fprintln(s.out, "history cleared"); s.title != "" {
			fmt.Fprintf(s.out, "the saved chat %q keeps what it had (yaicli --chat %q continues it); /save NAME saves this one\n", s.title, s.title)
			s.title = ""
		}
	}},
	{names: []string{"/context", "/ctx"}, subs: contextSubs, pathAfter: []string{"add", "remove", "rm", "delete", "del"}, run: (*session).contextCommand},
	{names: []string{"/compact"}, subs: []string{"--summary"}, run: func(s *session, f []string, _ string) {
		if len(f) > 1 && f[1] == "--summary" {
			s.compactSummary(f[2:])
			return
		}
		s.compact(f[1:])
	}},
	{names: []string{"/forget-window"}, run: func(s *session, _ []string, arg string) { s.agent.forgetWindow(context.Background(), arg, s.out) }},
	{names: []string{"/his"}, run: func(s *session, _ []string, _ string) { writeHistory(s.out, s.hist) }},
	{names: []string{"/show-output"}, run: func(s *session, _ []string, _ string) { s.showOutput() }},
	{names: []string{"/undo"}, run: (*session).undo},
	{names: []string{"/rewind"}, run: (*session).rewind},
	{names: []string{"/save"}, run: func(s *session, _ []string, arg string) { s.saveAs(arg) }},
	{names: []string{"/list", "/chats"}, run: func(s *session, _ []string, _ string) {
		writeChatList(s.out, s.o.chatDir, s.o.maxSavedChats)
	}},
	{names: []string{"/load"}, run: func(s *session, _ []string, arg string) { s.chatByNumber("/load", arg) }},
	{names: []string{"/del"}, run: func(s *session, _ []string, arg string) { s.chatByNumber("/del", arg) }},
	{names: []string{"/add"}, pathAfter: []string{""}, run: func(s *session, _ []string, arg string) { s.add(arg) }},
	{names: []string{"/drop"}, pathAfter: []string{""}, run: func(s *session, _ []string, arg string) { s.drop(arg) }},
	{names: []string{"/mode"}, subs: []string{"chat", "exec"}, run: func(s *session, _ []string, arg string) { s.setMode(arg) }},
	{names: []string{"/model"}, run: func(s *session, _ []string, arg string) { s.modelCommand(arg) }},
	{names: []string{"/max-turns"}, run: func(s *session, _ []string, arg string) { maxTurns(s.agent, arg, s.out) }},
}

// findCommand is the table row one of whose names is name.
func findCommand(name string) (replCommand, bool) {
	for _, c := range replCommands {
		if slices.Contains(c.names, name) {
			return c, true
		}
	}
	return replCommand{}, false
}

// command runs a slash command; it reports whether the session should end.
func (s *session) command(line string) bool {
	f := strings.Fields(line)
	arg := strings.TrimSpace(strings.TrimPrefix(line, f[0]))
	c, ok := findCommand(f[0])
	switch {
	case !ok:
		var known []string
		for _, c := range replCommands {
			known = append(known, slices.DeleteFunc(slices.Clone(c.names), func(n string) bool { return n == "?" })...)
		}
		fmt.Fprintf(s.out, "unknown command %s%s; known: %s, !cmd\n", f[0], didYouMean(nearestCommand(f[0], known)), strings.Join(known, " "))
	case c.run == nil: // /exit
		return true
	default:
		c.run(s, f, arg)
	}
	return false
}

// nearestCommand is the command a mistyped one probably meant: within two
// edits (/contxt, /hlep), or the one command it begins (/comp), or "".
func nearestCommand(got string, known []string) string {
	if n := nearestName(got, known); n != "" {
		return n
	}
	var starts []string
	for _, k := range known {
		if strings.HasPrefix(k, got) {
			starts = append(starts, k)
		}
	}
	if len(starts) == 1 {
		return starts[0]
	}
	return ""
}
