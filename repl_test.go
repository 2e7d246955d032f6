package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestREPLOverPipe drives the line-mode REPL: answers, /context, /compact,
// /clear, /his and an unknown command.
func TestREPLOverPipe(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(textStream("first answer")), sse(textStream("second answer")), sse(textStream("third answer")),
		check(sse(textStream("after clear")), func(r received) {
			if m := r.messages(); len(m) != 2 || m[1].Content != "four" {
				t.Errorf("after /clear the request = %+v", m)
			}
		}))
	in := "one\ntwo\nthree\n/context\n/compact 5\n/compact 1\n/his\n/bogus\n/clear\nfour\n/exit\nnever\n"
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: in})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`first answer\nsecond answer\nthird answer\n`,
		`context \(estimated tokens\)\n  system prompt\s+\d+`,
		`history \(6 messages\)\s+\d+\s+3 turn groups`,
		`tool schemas \(12 tools\)\s+\d+`,
		`budget\s+89600\s+\(70% of gpt-4o's 128000-token window, from the model table\)`,
		`last reported by provider\s+\d+\s+prompt tokens`,
		`nothing to compact: 3 turn group\(s\), ~\d+ tokens, within the 5 kept\n`,
		`compacted: kept the last 1 of 3 turn group\(s\), freed ~\d+ tokens`,
		`user: three\nassistant: third answer\n`,
		`unknown command /bogus; known: /help`,
		`history cleared\nafter clear\n`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "never") || len(fp.chats()) != 4 {
		t.Errorf("/exit did not end the session: %d requests", len(fp.chats()))
	}
}

// TestREPLKeepsInteractiveRounds: INTERACTIVE_ROUND bounds the turn groups
// kept between turns.
func TestREPLKeepsInteractiveRounds(t *testing.T) {
	t.Parallel()
	var steps []step
	for i := 0; i < 5; i++ {
		steps = append(steps, sse(textStream("ok")))
	}
	fp := newFakeProvider(t, steps...)
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "a\nb\nc\nd\ne\n", env: []string{"YAI_INTERACTIVE_ROUND=2"}})
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	last := fp.chats()[4].messages()
	if g := len(groupStarts(last)); g != 3 { // two kept plus the new question
		t.Errorf("last request has %d groups, want 3: %+v", g, last)
	}
}

// TestInteractiveRoundKeepsTheTask: a chat longer than INTERACTIVE_ROUND
// (the default 25, no -y, default directories) keeps the person's first
// turn, so a fact said first is still there after 27 more lines, and the
// drop is told: on stderr in text mode, as a context.trim event whose
// numbers add up in stream-json.
func TestInteractiveRoundKeepsTheTask(t *testing.T) {
	t.Parallel()
	var steps []step
	lines := "remember: the secret word is PINEAPPLE\n"
	for i := 1; i <= 27; i++ {
		lines += fmt.Sprintf("chat line %d\n", i)
	}
	for i := 0; i < 29; i++ {
		steps = append(steps, sse(textStream("ok")))
	}
	fp := newFakeProvider(t, steps...)
	r := runInProcess(t, fp, t.TempDir(), e2e{args: []string{"--chat", "--output-format", "stream-json"}, stdin: lines + "what is the secret word?\n"})
	reqs := fp.chats()
	if r.code != 0 || len(reqs) != 29 {
		t.Fatalf("code %d after %d requests: %s", r.code, len(reqs), r.stderr)
	}
	last := string(reqs[28].Raw)
	if !strings.Contains(last, "PINEAPPLE") || strings.Contains(last, `"chat line 1"`) {
		t.Errorf("the last request lost the first turn or kept every turn: %.300s", last)
	}
	fp = newFakeProvider(t, steps...)
	if text := runInProcess(t, fp, t.TempDir(), e2e{args: []string{"--chat"}, stdin: lines}); !strings.Contains(text.stderr, "over INTERACTIVE_ROUND=25 turns: dropped 11 older turn groups") {
		t.Errorf("in text mode the drop was not told on stderr:\n%s", text.stderr)
	}
	trims := 0
	for _, line := range strings.Split(r.stdout, "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) != nil || ev["type"] != "context.trim" {
			continue
		}
		trims++
		if ev["groups_dropped"].(float64) < 1 || ev["before_tokens"].(float64)-ev["group_tokens"].(float64) != ev["after_tokens"].(float64) {
			t.Errorf("context.trim does not add up: %v", ev)
		}
	}
	if trims != 1 {
		t.Errorf("%d context.trim events, want 1:\n%s", trims, r.stdout)
	}
}

// TestKeptRoundsDropInOneGo: past INTERACTIVE_ROUND turn groups the REPL
// keeps the first (the task) and the newest, CONTEXT_TRIM_TARGET of them
// in all, at once, so the history after the first turn (and the provider's
// prompt cache) changes once every several turns, not every turn.
func TestKeptRoundsDropInOneGo(t *testing.T) {
	cfg := &config{InteractiveRound: 25, ContextTrimTarget: 0.6}
	h := []message{{Role: roleSystem, Content: "s"}}
	changes, most := 0, 0
	for turn := 1; turn <= 60; turn++ {
		h = append(h, message{Role: roleUser, Content: fmt.Sprint("q", turn)}, message{Role: roleAssistant, Content: "a"})
		second := ""
		if len(h) > 3 {
			second = h[3].Content
		}
		var dropped int
		h, dropped = keptRounds(h, cfg.InteractiveRound, cfg.ContextTrimTarget)
		if len(h) > 3 && h[3].Content != second && second != "" {
			changes++
			if dropped == 0 {
				t.Errorf("turn %d: the history changed and keptRounds said it dropped nothing", turn)
			}
		}
		most = max(most, len(groupStarts(h)))
		if h[0].Role != roleSystem || h[1].Content != "q1" || h[len(h)-2].Content != fmt.Sprint("q", turn) {
			t.Fatalf("turn %d: lost the lead, the first turn (the task) or the newest turn: %+v", turn, h)
		}
	}
	for _, round := range []int{2, 3, 4} { // small settings keep the first turn too
		h := []message{{Role: roleSystem, Content: "s"}}
		for turn := 1; turn <= 8; turn++ {
			h = append(h, message{Role: roleUser, Content: fmt.Sprint("q", turn)}, message{Role: roleAssistant, Content: "a"})
			h, _ = keptRounds(h, round, 0.6)
			if h[1].Content != "q1" || len(groupStarts(h)) > round {
				t.Errorf("INTERACTIVE_ROUND=%d, turn %d: %d groups, the first %q", round, turn, len(groupStarts(h)), h[1].Content)
			}
		}
	}
	if most != 25 || changes != 4 { // at turns 26, 37, 48 and 59, each down to 15 groups (one a turn: 35)
		t.Errorf("at most %d groups kept, the history after the first turn changed %d times in 60 turns; want 25 and 4", most, changes)
	}
}

// TestContextSubcommands: /context list|add|remove|clear work as YAICLI
// names them, beside /add and /drop: remove takes a path or a unique file
// name, clear detaches everything, and the next request carries exactly
// the files still attached; /context alone is still the usage report.
func TestContextSubcommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{"alpha.txt": "ALPHA-TEXT", "beta.txt": "BETA-TEXT", "gamma.txt": "GAMMA-TEXT"} {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	attachedIn := func(r received) string {
		for _, m := range r.messages() {
			if m.Role == roleSystem && strings.HasPrefix(m.Content, attachedHeader) {
				return m.Content
			}
		}
		return ""
	}
	fp := newFakeProvider(t,
		check(sse(textStream("one")), func(r received) {
			if a := attachedIn(r); strings.Contains(a, "ALPHA") || !strings.Contains(a, "BETA") || !strings.Contains(a, "GAMMA") {
				t.Errorf("after /context remove alpha.txt the attachments are %q, want beta and gamma", a)
			}
		}),
		check(sse(textStream("two")), func(r received) {
			if a := attachedIn(r); a != "" {
				t.Errorf("after /ctx clear the attachments are %q, want none", a)
			}
		}))
	in := "/context list\n/add alpha.txt\n/context add beta.txt\n/add gamma.txt\n/context list\n/context remove .txt\n" +
		"/context remove alpha.txt\n/context rm nothing\n/context list\nq1\n/ctx clear\n/context list\nq2\n/context bogus\n/context\n"
	r := runBinaryIn(t, fp, dir, e2e{args: []string{"--chat"}, stdin: in})
	if r.code != 0 {
		t.Fatalf("code %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`^no files attached \(/add PATH or /context add PATH\)\n`,
		`attached beta.txt \(~\d+ tokens\)\n`,
		`  alpha.txt  \(~\d+ tokens\)\n  beta.txt  \(~\d+ tokens\)\n  gamma.txt  \(~\d+ tokens\)\n3 file\(s\) attached`,
		`"\.txt" matches 3 attached files; name one:\n  alpha.txt\n  beta.txt\n  gamma.txt\n`,
		`detached 1 file\(s\); 2 still attached\n`,
		`nothing is not attached; /context list shows what is\n`,
		`\n  beta.txt  \(~\d+ tokens\)\n  gamma.txt  \(~\d+ tokens\)\n2 file\(s\) attached`,
		`one\ndetached 2 file\(s\); 0 still attached\nno files attached`,
		`unknown /context subcommand "bogus"`,
		`context \(estimated tokens\)\n  system prompt`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := len(fp.chats()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// TestREPLSaysTrueThings: what the REPL says about saved chats and the
// context is still true afterwards: the path /save prints is the chat's
// file after the next answers and the exit; "continuing chat" counts the
// messages as /context does; the low-water mark of 0.75 reads 75%; after
// /clear the size the provider reported for the old history is not shown.
func TestREPLSaysTrueThings(t *testing.T) {
	t.Parallel()
	chats := t.TempDir()
	fp := newFakeProvider(t, sse(textStream("one")), sse(toolStream(fakeCall{"c1", "fs_list_directory", `{"directory_path":"/"}`})), sse(textStream("two")),
		sse(textStream("three")))
	env := []string{"YAI_CHAT_HISTORY_DIR=" + chats, "YAI_CONTEXT_TRIM_TARGET=0.75", "YAI_CONTEXT_BUDGET_TOKENS=8001"}
	r := runBinary(t, fp, e2e{args: []string{"--chat", "--yes"}, stdin: "first\n/save mytest\nsecond\n/context\n", env: env})
	m := regexp.MustCompile(`saved "mytest" to (\S+)`).FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil {
		t.Fatalf("code %d stdout %s stderr %s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Errorf("/save said %s, which is gone after the session: %v", m[1], err)
	}
	if !strings.Contains(r.stdout, "75% of the budget (CONTEXT_TRIM_TARGET)") {
		t.Errorf("the low-water mark of 0.75 does not read 75%%:\n%s", r.stdout)
	}
	r = runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "again\n/context\n/clear\n/context\n", env: env})
	cleared := r.stdout[strings.Index(r.stdout, "history cleared"):]
	if !strings.Contains(cleared, "(no usage reported yet)") || !strings.Contains(r.stdout[:len(r.stdout)-len(cleared)], "prompt tokens (our estimate") {
		t.Errorf("after /clear /context shows an old reported size:\n%s", r.stdout)
	}
	r = runBinary(t, fp, e2e{args: []string{"--chat", "mytest"}, stdin: "/context\n", env: env})
	said := regexp.MustCompile(`continuing chat "mytest" \((\d+) messages, 1 tool result\)`).FindStringSubmatch(r.stdout)
	ctx := regexp.MustCompile(`history \((\d+) messages\)`).FindStringSubmatch(r.stdout)
	if said == nil || ctx == nil || said[1] != ctx[1] {
		t.Errorf("continuing chat and /context disagree:\n%s", r.stdout)
	}
}

// TestSaveChatKeepsItsFile: a chat saved again later (the autosave after
// each answer, the save at exit) stays in the file the first save named.
func TestSaveChatKeepsItsFile(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 12, 5, 1, 0, 0, 0, time.UTC)
	first, err := saveChat(dir, "my/test", []message{{Role: roleUser, Content: "one"}}, 10, t0)
	if err != nil {
		t.Fatal(err)
	}
	again, err := saveChat(dir, "my/test", []message{{Role: roleUser, Content: "one"}, {Role: roleAssistant, Content: "two"}}, 10, t0.Add(time.Hour))
	if err != nil || again != first {
		t.Fatalf("saved again to %s (%v), want %s", again, err, first)
	}
	if _, h, err := loadChat(first); err != nil || len(h) != 2 || len(listChats(dir, 0)) != 1 {
		t.Errorf("%s holds %d messages (%v), %d chats listed; want 2 and 1", first, len(h), err, len(listChats(dir, 0)))
	}
}

// TestInterruptedTail: a turn ended by Ctrl+C keeps what was shown of the
// answer, marked, and never leaves two user messages in a row.
func TestInterruptedTail(t *testing.T) {
	user := message{Role: roleUser, Content: "q"}
	call := message{Role: roleAssistant, Content: "let me look", ToolCalls: []toolCall{{ID: "c1", Type: "function", Function: functionCall{Name: "fs_list_directory"}}}}
	result := message{Role: roleTool, ToolCallID: "c1", Content: "{}"}
	for _, tc := range []struct {
		name  string
		h     []message
		shown string
		want  string // the added assistant message; "" none
	}{
		{"cut mid-answer", []message{user}, "half an ans", "half an ans\n\n" + interruptedNote},
		{"cut before any text", []message{user}, "", interruptedNote},
		{"cut while a tool ran", []message{user, call, result}, "let me look", interruptedNote},
		{"cut in the answer after the tools", []message{user, call, result}, "so the", "so the\n\n" + interruptedNote},
		{"whole answer", []message{user, {Role: roleAssistant, Content: "done"}}, "done", ""},
	} {
		got := interruptedTail(tc.h, tc.shown)
		added := ""
		if len(got) > len(tc.h) {
			added = got[len(got)-1].Content
		}
		if added != tc.want || orphans(got) != 0 {
			t.Errorf("%s: added %q, want %q", tc.name, added, tc.want)
		}
	}
}

// TestAddWarnsOverBudget: /add of a directory that passes the budget says
// so at once, with the tokens, and what to drop; the next question is not
// sent and says what would be enough.
func TestAddWarnsOverBudget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("word ", 12000)), 0o644)
	os.WriteFile(filepath.Join(dir, "small.txt"), []byte("a few words"), 0o644)
	many := t.TempDir()
	for i := range 10 {
		os.WriteFile(filepath.Join(many, fmt.Sprintf("part%d.txt", i)), []byte(strings.Repeat("word ", 2000)), 0o644)
	}
	half := t.TempDir()
	os.WriteFile(filepath.Join(half, "half.txt"), []byte(strings.Repeat("word ", 6500)), 0o644)
	fp := newFakeProvider(t, sse(textStream("fine")))
	env := []string{"YAI_CONTEXT_BUDGET_TOKENS=8000"}
	r := runBinary(t, fp, e2e{args: []string{"--chat"}, stdin: "/add " + dir + "\nquestion\n/drop all\n/add " + many + "\nagain\n/drop all\n/add " + half + "\nlast\n", env: env})
	for _, want := range []string{
		`yaicli: the attached files now take ~\d+ tokens, over the 8000-token budget \(1\d\d%\): a question would not be sent; /drop ` + regexp.QuoteMeta(filepath.Join(dir, "big.txt")) + ` \(~\d+ tokens\)\n`,
		`yaicli: not sent: the attached files take ~\d+ tokens of the 8000-token budget; /drop ` + regexp.QuoteMeta(filepath.Join(dir, "big.txt")) + ` \(~\d+ tokens\) and ask again`,
		`yaicli: the attached files now take ~\d+ tokens, over the 8000-token budget \(1\d\d%\): a question would not be sent; /drop all\n`,
		`yaicli: not sent: the attached files take ~\d+ tokens of the 8000-token budget; /drop all and ask again`,
		`yaicli: the attached files now take ~\d+ tokens, [5-8]\d% of the 8000-token budget: little is left for the conversation`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stderr) {
			t.Errorf("stderr lacks %s:\n%s", want, r.stderr)
		}
	}
	if n := len(fp.chats()); n != 1 {
		t.Errorf("%d requests sent, want 1 (the one that fits)", n)
	}
}

// TestClearKeepsSavedChat: /clear after /save starts a new chat; the saved
// one keeps what it had. It used to go on saving under the same title, so
// the next answer (or the exit) wrote the cleared session over it.
func TestClearKeepsSavedChat(t *testing.T) {
	f := newFakeProvider(t, sse(textStream("noted")), sse(textStream("noted again")))
	r := runBinary(t, f, e2e{args: []string{"--chat"}, stdin: "remember PINEAPPLE\n/save mytest\n/clear\nanother line\n/exit\n"})
	if !strings.Contains(r.stdout, `the saved chat "mytest" keeps what it had`) {
		t.Errorf("/clear does not say where the saved chat stays:\n%s", r.stdout)
	}
	c, ok := findChat(filepath.Join(r.home, ".local", "state", "yaicli", "chats"), "mytest")
	if !ok {
		t.Fatalf("no saved chat mytest under %s", r.home)
	}
	b, err := os.ReadFile(c.path)
	if err != nil || !strings.Contains(string(b), "PINEAPPLE") || strings.Contains(string(b), "another line") {
		t.Errorf("saved chat after /clear = %s (%v)", b, err)
	}
}

// TestContextCountsRead: /context names its counts in words that agree
// with them ("1 result", not "1 results").
func TestContextCountsRead(t *testing.T) {
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"command":"ls"}`})), sse(textStream("done")))
	r := runBinary(t, f, e2e{args: []string{"--chat"}, stdin: "list\n/context\n"})
	for _, want := range []string{"history (3 messages)", "tool output (1 result)", "1 turn group\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("/context lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestREPLEmptyListsSayEmpty: /load with no saved chats and /his on an
// empty history say so.
func TestREPLEmptyListsSayEmpty(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := runBinary(t, newFakeProvider(t), e2e{args: []string{"--chat"}, stdin: "/load 99\n/his\n/exit\n", env: []string{"YAI_CHAT_HISTORY_DIR=" + dir}})
	if !strings.Contains(r.stdout, "no saved chats in "+dir+" yet") || strings.Contains(r.stdout, "(1-0)") {
		t.Errorf("/load 99: %s", r.stdout)
	}
	if !strings.Contains(r.stdout, "(no messages yet)") {
		t.Errorf("/his: %s", r.stdout)
	}
}
