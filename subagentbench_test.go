package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// The sub-agent benchmark: a question whose answer needs twelve files of
// 40 KB read, on an 8k window (llama3: a 5,734-token budget), as a new
// user runs it (one-shot, default settings, no --yes, stream-json). The
// scripted model hands the reading to run_subagent; the sub-agent reads
// two files a round and notes each file's key as it goes; its answer is
// the keys. Every figure is read from the requests the fake provider
// received.

// Its workspace: subFiles files of subFileSize bytes, each with its key
// on its first line.
const (
	subFiles    = 12
	subFileSize = 40 << 10
)

// subQuestion is the person's question; READ becomes the workspace.
const subQuestion = "Which key does each of the twelve part files hold? READ part-"

// subTaskWords start every task the scripted model gives a sub-agent.
const subTaskWords = "TASK: read the files "

// reKey finds a key line in what the model was sent.
var reKey = regexp.MustCompile(`KEY-(\d\d) = (k\d\dv\d+)`)

// subKey is the key of file i (from 1).
func subKey(i int) string { return fmt.Sprintf("k%02dv%d", i, 7919*i%10007) }

// subWorkspace is the twelve files.
func subWorkspace() map[string]string {
	files := map[string]string{}
	for i := 1; i <= subFiles; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "KEY-%02d = %s\n", i, subKey(i))
		for n := 0; b.Len() < subFileSize; n++ {
			fmt.Fprintf(&b, "part %02d line %05d: FILLER-%02d the quick brown fox jumps over the lazy dog\n", i, n, i)
		}
		files[fmt.Sprintf("part-%02d.txt", i)] = b.String()[:subFileSize]
	}
	return files
}

// keysIn are the keys named in s, by file number.
func keysIn(s string) map[string]string {
	k := map[string]string{}
	for _, m := range reKey.FindAllStringSubmatch(s, -1) {
		k[m[1]] = m[2]
	}
	return k
}

// keyList renders keys as KEY-NN = value lines, in order.
func keyList(keys map[string]string) string {
	var ns []string
	for n := range keys {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	var b strings.Builder
	for _, n := range ns {
		fmt.Fprintf(&b, "KEY-%s = %s\n", n, keys[n])
	}
	return b.String()
}

// subModel is the scripted model. As the main agent it hands the reading
// to run_subagent (found with tool_search when it is not offered) and
// answers with the keys its result names; as a sub-agent (its task is
// the first user message) it reads two files a round, noting the keys it
// was sent, then answers with them all; answer, when set, is the
// sub-agent's answer instead (a long one); direct calls run_subagent by
// its name even when it is not among the tools offered.
func subModel(fam family, calls *atomic.Int64, answer string, direct bool) step {
	return func(w http.ResponseWriter, r received) {
		msgs := r.messages()
		id := func() string { return fmt.Sprintf("call_%d", calls.Add(1)) }
		var body string
		if first := firstUser(msgs); strings.HasPrefix(first, subTaskWords) {
			body = subStep(msgs, first, id, answer)
		} else {
			body = mainStep(r, msgs, id, direct)
		}
		streamCounted(w, r, fam, body)
	}
}

// firstUser is the first user message's text.
func firstUser(msgs []message) string {
	for _, m := range msgs {
		if m.Role == roleUser {
			return m.Content
		}
	}
	return ""
}

// mainStep is the main agent's move.
func mainStep(r received, msgs []message, id func() string, direct bool) string {
	last := msgs[len(msgs)-1]
	if last.Role == roleTool && last.Name != toolSearchName {
		return textStream("The keys:\n" + keyList(keysIn(last.Content)))
	}
	q := firstUser(msgs)
	dir := q[strings.LastIndex(q, "READ ")+len("READ ") : strings.LastIndex(q, "/")+1]
	var files []string
	for i := 1; i <= subFiles; i++ {
		files = append(files, fmt.Sprintf("%spart-%02d.txt", dir, i))
	}
	task := subTaskWords + strings.Join(files, " ") + " and report the KEY line of each (KEY-NN = value), nothing else"
	args, _ := json.Marshal(map[string]any{"task": task})
	if direct || strings.Contains(string(r.Raw), `"name":"`+subagentName+`"`) {
		return toolStream(fakeCall{id(), subagentName, string(args)})
	}
	if last.Role == roleTool { // tool_search found it: run it through call_tool
		wrapped, _ := json.Marshal(map[string]any{"name": subagentName, "arguments": json.RawMessage(args)})
		return toolStream(fakeCall{id(), toolCallName, string(wrapped)})
	}
	return toolStream(fakeCall{id(), toolSearchName, `{"query":"sub-agent task helper"}`})
}

// subStep is the sub-agent's move: the next two files, the keys it was
// last sent noted in its words, or its answer when all are read.
func subStep(msgs []message, task string, id func() string, answer string) string {
	files := strings.Fields(strings.TrimPrefix(task, subTaskWords))[:subFiles]
	asked := 0
	notes := map[string]string{}
	for _, m := range msgs {
		asked += len(m.ToolCalls)
		if m.Role == roleAssistant || m.Role == roleTool {
			for n, k := range keysIn(m.Content) {
				notes[n] = k
			}
		}
	}
	if asked >= subFiles {
		if answer != "" {
			return textStream(answer)
		}
		return textStream(keyList(notes))
	}
	var calls []fakeCall
	for _, f := range files[asked:min(asked+2, subFiles)] {
		args, _ := json.Marshal(map[string]any{"file_paths": f})
		calls = append(calls, fakeCall{id(), "fs_read_file", string(args)})
	}
	return notedCalls("so far:\n"+keyList(notes), calls...)
}

// notedCalls streams words and then tool calls in one answer, as a model
// that says what it found before it asks for more.
func notedCalls(words string, calls ...fakeCall) string {
	words = chunkJSON(map[string]any{"role": "assistant", "content": words}, nil)
	return strings.Replace(toolStream(calls...), "data: ", "data: "+words+"\n\ndata: ", 1)
}

// subRun is one run of the benchmark's question.
type subRun struct {
	sr     scenarioRun
	main   []received // the main agent's requests, in order
	sub    []received // the sub-agents'
	events []map[string]any
}

// runSubBenchmark runs the question one-shot on llama3's 8k window, with
// the sub-agent answering answer when set and the main agent calling
// run_subagent by name when direct; env adds settings.
func runSubBenchmark(t *testing.T, answer string, direct bool, env ...string) subRun {
	t.Helper()
	sr := runScenario(t, scenario{model: "llama3", args: []string{"--output-format", "stream-json", subQuestion}, files: subWorkspace(),
		script: subModel(familyOf("llama3"), new(atomic.Int64), answer, direct), env: env})
	var run subRun
	run.sr = sr
	for _, q := range sr.reqs {
		if strings.HasPrefix(firstUser(q.messages()), subTaskWords) {
			run.sub = append(run.sub, q)
		} else {
			run.main = append(run.main, q)
		}
	}
	sc := bufio.NewScanner(strings.NewReader(sr.r.stdout))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("stdout line is not JSON: %q", sc.Text())
		}
		run.events = append(run.events, ev)
	}
	return run
}

// conversationChars is the characters of a request's messages: their
// text and their calls' arguments.
func conversationChars(ms []message) int {
	n := 0
	for _, m := range ms {
		n += utf8.RuneCountInString(m.Content)
		for _, tc := range m.ToolCalls {
			n += utf8.RuneCountInString(tc.Function.Name + tc.Function.Arguments)
		}
	}
	return n
}

// subFigures is what the benchmark measures.
type subFigures struct {
	growth      int // characters the main conversation grew by across the sub-task
	subRequests int
	largest     int // tokens of the largest request
	over        int // requests over the budget
	keys        int // keys right in the final answer
	sent        int // tokens sent in all, in requests requests
	requests    int
	// bare is the characters the main conversation grows by reading the
	// files itself, bareSent the tokens that sends in bareRequests.
	bare, bareSent, bareRequests int
}

// measureSub reads the figures of run; bare is the same question's run
// without run_subagent.
func measureSub(t *testing.T, run subRun) subFigures {
	t.Helper()
	var f subFigures
	f.requests = len(run.sr.reqs)
	for _, q := range run.sr.reqs {
		n := run.sr.requestTokens(q)
		f.sent += n
		f.largest = max(f.largest, n)
		if n > run.sr.budget {
			f.over++
		}
	}
	f.subRequests = len(run.sub)
	before, after := subTaskSpan(run)
	f.growth = conversationChars(after) - conversationChars(before)
	got := keysIn(finalAnswer(run.events))
	for i := 1; i <= subFiles; i++ {
		if got[fmt.Sprintf("%02d", i)] == subKey(i) {
			f.keys++
		}
	}
	return f
}

// subTaskSpan is the main request whose answer asked for the sub-task
// (the last before the sub-agent's first) and the one that got its
// result (the first after its last).
func subTaskSpan(run subRun) (before, after []message) {
	first, last := -1, -1
	for i, q := range run.sr.reqs {
		if strings.HasPrefix(firstUser(q.messages()), subTaskWords) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 1 || last+1 >= len(run.sr.reqs) {
		return nil, nil
	}
	return run.sr.reqs[first-1].messages(), run.sr.reqs[last+1].messages()
}

// finalAnswer is the run's answer, from its result event.
func finalAnswer(events []map[string]any) string {
	for _, ev := range events {
		if ev["type"] == "result" {
			s, _ := ev["answer"].(string)
			return s
		}
	}
	return ""
}

// eventsOf are run's events of a type.
func eventsOf(events []map[string]any, kind string) []map[string]any {
	var out []map[string]any
	for _, ev := range events {
		if ev["type"] == kind {
			out = append(out, ev)
		}
	}
	return out
}

// bareGrowth is how much the main conversation grows when the main agent
// reads the twelve files itself, from its first request to its last, and
// the tokens and requests that sends.
func bareGrowth(t *testing.T) (growth, sent, requests int) {
	t.Helper()
	sr := runScenario(t, scenario{model: "llama3", args: []string{"--output-format", "stream-json", subQuestion}, files: subWorkspace(),
		script: bareModel(familyOf("llama3"), new(atomic.Int64))})
	reqs := sr.reqs
	if len(reqs) < 2 {
		t.Fatalf("the bare run made %d requests:\n%s", len(reqs), sr.r.stderr)
	}
	for _, q := range reqs {
		sent += sr.requestTokens(q)
	}
	return conversationChars(reqs[len(reqs)-1].messages()) - conversationChars(reqs[0].messages()), sent, len(reqs)
}

// bareModel reads the files itself, two a round (the main agent doing the
// sub-agent's work), then answers.
func bareModel(fam family, calls *atomic.Int64) step {
	return func(w http.ResponseWriter, r received) {
		msgs := r.messages()
		q := firstUser(msgs)
		dir := q[strings.LastIndex(q, "READ ")+len("READ ") : strings.LastIndex(q, "/")+1]
		var files []string
		for i := 1; i <= subFiles; i++ {
			files = append(files, fmt.Sprintf("%spart-%02d.txt", dir, i))
		}
		body := subStep(msgs, subTaskWords+strings.Join(files, " "), func() string { return fmt.Sprintf("call_%d", calls.Add(1)) }, "")
		streamCounted(w, r, fam, body)
	}
}

// subREADME is docs/CONTEXT.md's sentences of the benchmark's figures,
// wrapped anywhere.
var subREADME = regexp.MustCompile(strings.ReplaceAll(`twelve files of 40 KB on an 8k window \(budget ([\d,]+) tokens\): the main conversation grew by ([\d,]+) characters across the sub-task, whose (\d+) requests were at most ([\d,]+) tokens; no request over the budget; (\d+) of 12 keys right\. The main agent reading the same files itself grows its conversation by ([\d,]+) characters\. The run sends ~([\d,]+) tokens in (\d+) requests, against ~([\d,]+) in (\d+) when the main agent reads the files itself`, " ", `\s+`))

// TestSubagentBenchmark is the benchmark: with run_subagent the main
// conversation grows by at most 3,000 characters across the sub-task, no
// request goes over the budget, the answer holds the twelve keys; and
// docs/CONTEXT.md gives the figures measured.
func TestSubagentBenchmark(t *testing.T) {
	t.Parallel()
	run := runSubBenchmark(t, "", false)
	if run.sr.r.code != 0 {
		t.Fatalf("code %d; stderr:\n%s", run.sr.r.code, run.sr.r.stderr)
	}
	f := measureSub(t, run)
	f.bare, f.bareSent, f.bareRequests = bareGrowth(t)
	t.Logf("8k window (budget %d tokens): main conversation grew by %d characters across the sub-task; %d sub-agent requests, the largest request %d tokens; %d over the budget; %d of %d keys right; ~%d tokens sent in %d requests",
		run.sr.budget, f.growth, f.subRequests, f.largest, f.over, f.keys, subFiles, f.sent, f.requests)
	t.Logf("reading the files itself, the main conversation grows by %d characters; ~%d tokens sent in %d requests", f.bare, f.bareSent, f.bareRequests)
	if f.growth > 3000 || f.growth <= 0 {
		t.Errorf("the main conversation grew by %d characters across the sub-task, want at most 3,000 (and some)", f.growth)
	}
	if f.over > 0 {
		t.Errorf("%d requests over the %d-token budget", f.over, run.sr.budget)
	}
	if f.keys != subFiles {
		t.Errorf("%d of %d keys right in the answer %q", f.keys, subFiles, finalAnswer(run.events))
	}
	checkNoOrphans(t, run.sr)
	m := subREADME.FindStringSubmatch(docText(t, docContext))
	if m == nil {
		t.Fatalf("%s has no sub-agent paragraph matching %s", docContext, subREADME)
	}
	n := func(i int) int { v, _ := strconv.Atoi(strings.ReplaceAll(m[i], ",", "")); return v }
	for _, e := range []struct {
		what         string
		readme, have int
	}{{"budget", n(1), run.sr.budget}, {"sub-agent requests", n(3), f.subRequests}, {"keys", n(5), f.keys},
		{"requests", n(8), f.requests}, {"requests reading the files itself", n(10), f.bareRequests}} {
		if e.readme != e.have {
			t.Errorf("%s says %d for the %s, the benchmark measured %d", docContext, e.readme, e.what, e.have)
		}
	}
	for _, e := range []struct {
		what         string
		readme, have int
	}{{"growth", n(2), f.growth}, {"largest request", n(4), f.largest}, {"bare growth", n(6), f.bare},
		{"tokens sent", n(7), f.sent}, {"tokens sent reading the files itself", n(9), f.bareSent}} {
		if 10*abs(e.readme-e.have) > e.have {
			t.Errorf("%s says ~%d for the %s, the benchmark measured %d", docContext, e.readme, e.what, e.have)
		}
	}
}

// TestSubagentOneShotDefaultPath is the run a new user makes: one-shot on
// an 8k window, default settings, no --yes, stream-json. The sub-agent's
// requests carry the task and not the person's question and never offer
// run_subagent; the files it read never enter a later main request; the
// events say it started and ended, with its figures, and its tool calls
// carry its id; the run finishes. On the 8k window run_subagent is among
// the deferred tools: the model either finds it (tool_search, call_tool)
// or calls it by name.
func TestSubagentOneShotDefaultPath(t *testing.T) {
	t.Parallel()
	for _, direct := range []bool{false, true} {
		t.Run(map[bool]string{false: "through call_tool", true: "by name"}[direct], func(t *testing.T) {
			t.Parallel()
			checkSubagentRun(t, direct)
		})
	}
}

// checkSubagentRun is TestSubagentOneShotDefaultPath's checks of one run:
// the model finds run_subagent with tool_search and runs it with
// call_tool, or calls it by name (direct).
func checkSubagentRun(t *testing.T, direct bool) {
	run := runSubBenchmark(t, "", direct)
	if run.sr.r.code != 0 || len(run.sub) == 0 || len(run.main) < 2 {
		t.Fatalf("code %d, %d sub-agent and %d main requests; stderr:\n%s", run.sr.r.code, len(run.sub), len(run.main), run.sr.r.stderr)
	}
	for i, q := range run.sub {
		raw := string(q.Raw)
		if strings.Contains(raw, "Which key does each") || !strings.Contains(raw, subTaskWords) {
			t.Errorf("sub-agent request %d: carries the question %v, the task %v", i+1, strings.Contains(raw, "Which key does each"), strings.Contains(raw, subTaskWords))
		}
		if strings.Contains(raw, `"name":"`+subagentName+`"`) {
			t.Errorf("sub-agent request %d offers %s", i+1, subagentName)
		}
	}
	last := run.main[len(run.main)-1]
	if raw := string(last.Raw); strings.Contains(raw, "FILLER-") || strings.Contains(raw, "the quick brown fox") {
		t.Errorf("the last main request carries the files' text")
	}
	starts, ends := eventsOf(run.events, "subagent.start"), eventsOf(run.events, "subagent.end")
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("%d subagent.start and %d subagent.end events, want 1 each", len(starts), len(ends))
	}
	id := starts[0]["id"]
	if task, _ := starts[0]["task"].(string); id == nil || !strings.HasPrefix(task, subTaskWords) {
		t.Errorf("subagent.start = %v, want its id and task", starts[0])
	}
	e := ends[0]
	if e["id"] != id || e["status"] != "done" || e["rounds"] != float64(len(run.sub)) || e["prompt_tokens"].(float64) <= 0 ||
		e["completion_tokens"].(float64) <= 0 || e["cached_tokens"] == nil {
		t.Errorf("subagent.end = %v, want id %v, done, %d rounds and its tokens", e, id, len(run.sub))
	}
	var subCalls, mainCalls int
	for _, ev := range eventsOf(run.events, "tool.call") {
		if ev["subagent"] == id {
			subCalls++
		} else if ev["subagent"] == nil {
			mainCalls++
		}
	}
	if subCalls != subFiles || mainCalls == 0 {
		t.Errorf("%d tool.call events carry the sub-agent's id, %d none; want %d and the main agent's", subCalls, mainCalls, subFiles)
	}
	for _, ev := range eventsOf(run.events, "text.delta") {
		if ev["subagent"] != nil {
			t.Errorf("a sub-agent's text is in the run's answer: %v", ev)
		}
	}
	res := eventsOf(run.events, "result")
	if len(res) != 1 || res[0]["exit_code"] != float64(0) {
		t.Errorf("result events %v, want one that exits 0", res)
	}
	if u, _ := res[0]["usage"].(map[string]any); u["requests"] != float64(len(run.sr.reqs)) {
		t.Errorf("the run's usage counts %v requests, want all %d (the sub-agent's too)", u["requests"], len(run.sr.reqs))
	}
}

// TestSubagentLongAnswerClipped: a 60,000-character sub-answer comes back
// clipped to what the main conversation holds, with its ready call, and
// the whole of it on disk.
func TestSubagentLongAnswerClipped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("the sub-agent says a great deal here, line after line.\n", 60000/55+1)[:60000]
	run := runSubBenchmark(t, long, true)
	if run.sr.r.code != 0 {
		t.Fatalf("code %d; stderr:\n%s", run.sr.r.code, run.sr.r.stderr)
	}
	var result message
	for _, q := range run.main {
		for _, m := range q.messages() {
			if m.Role == roleTool && strings.Contains(m.Content, "sub-task done") {
				result = m
			}
		}
	}
	n := utf8.RuneCountInString(result.Content)
	if n == 0 || n > 3000 || lastMarkerCall(result.Content) == "" {
		t.Fatalf("the sub-answer reached the main conversation as %d characters, marker call %q; want it clipped with a ready call:\n%s", n, lastMarkerCall(result.Content), firstRunes(result.Content, 600))
	}
	var spilled string
	starts := eventsOf(run.events, "subagent.start")
	for _, ev := range eventsOf(run.events, "tool.result") {
		if len(starts) == 1 && ev["id"] == starts[0]["call_id"] {
			spilled, _ = ev["spill_path"].(string)
		}
	}
	whole, err := os.ReadFile(spilled)
	if err != nil || utf8.RuneCount(whole) != 60000 {
		t.Errorf("the spill file %q holds %d characters (%v), want the whole 60,000", spilled, utf8.RuneCount(whole), err)
	}
	t.Logf("a 60,000-character answer entered the main conversation as %d characters with the call %s", n, lastMarkerCall(result.Content))
}

// TestSubagentTextModeAndContext: in text mode the sub-agent's calls are
// shown indented under the main agent's call, with a line of its rounds
// and tokens, and stdout holds the answer alone; in the REPL, /context
// counts its requests in the session's and names their part, and
// /show-output lists its outputs after the call they ran for.
func TestSubagentTextModeAndContext(t *testing.T) {
	t.Parallel()
	sr := runScenario(t, scenario{model: "llama3", args: []string{subQuestion}, files: subWorkspace(),
		script: subModel(familyOf("llama3"), new(atomic.Int64), "", false)})
	if sr.r.code != 0 {
		t.Fatalf("code %d; stderr:\n%s", sr.r.code, sr.r.stderr)
	}
	main := strings.Index(sr.r.stderr, "@Function call: call_tool(")
	sub := strings.Index(sr.r.stderr, "\n  @Function call: fs_read_file(")
	end := regexp.MustCompile(`\n  sub-task sub-1 done after 7 rounds \(\d+ prompt tokens, \d+ answer tokens\)\n`)
	if main < 0 || sub < main || !end.MatchString(sr.r.stderr) {
		t.Errorf("stderr does not show the sub-agent's calls indented under the main call, and its end:\n%s", firstRunes(sr.r.stderr, 3000))
	}
	if got := keysIn(sr.r.stdout); len(got) != subFiles || strings.Contains(sr.r.stdout, "@Function") {
		t.Errorf("stdout holds %d keys and more than the answer:\n%s", len(got), sr.r.stdout)
	}
	chat := runScenario(t, scenario{model: "llama3", args: []string{"--chat"}, stdin: subQuestion + "\n/context\n/show-output\n", files: subWorkspace(),
		script: subModel(familyOf("llama3"), new(atomic.Int64), "", false)})
	subs := 0
	for _, q := range chat.reqs {
		if strings.HasPrefix(firstUser(q.messages()), subTaskWords) {
			subs++
		}
	}
	want := regexp.MustCompile(fmt.Sprintf(`this session \(reported\)\s+\d+\s+prompt tokens in %d requests.*\n\s+of which sub-agents\s+\d+\s+prompt tokens in %d requests`, len(chat.reqs), subs))
	if chat.r.code != 0 || subs == 0 || !want.MatchString(chat.r.stdout) {
		t.Errorf("code %d; /context does not count the %d sub-agent requests of %d:\n%s\nstderr:\n%s", chat.r.code, subs, len(chat.reqs), chat.r.stdout, chat.r.stderr)
	}
	listed := regexp.MustCompile(`── \d+\. (↳ )?(\S+)`).FindAllStringSubmatch(chat.r.stdout, -1)
	var order []string
	for _, m := range listed {
		order = append(order, m[1]+m[2])
	}
	if got, want := strings.Join(order, ","), "tool_search,call_tool"+strings.Repeat(",↳ fs_read_file", subFiles); got != want {
		t.Errorf("/show-output lists %s, want the sub-agent's outputs under its call: %s", got, want)
	}
}
