package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// builtinSpecs is the built-in tools' schemas, as a request offers them.
func builtinSpecs(t *testing.T) []toolSpec {
	t.Helper()
	tb := newToolbox(toolboxOptions{workDir: t.TempDir()}, newRedactor(nil), io.Discard, nil, nil)
	return tb.specs()
}

// TestCallsInText: each format a model writes calls in is read as those
// calls, its arguments typed by the schema; look-alikes are not.
func TestCallsInText(t *testing.T) {
	specs := builtinSpecs(t)
	runs := []struct {
		name, text, format string
		want               []string // name(arguments JSON)
	}{
		{"hermes", "<tool_call>\n{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"main.go\"}}\n</tool_call>", "<tool_call>",
			[]string{`fs_read_file({"file_paths":"main.go"})`}},
		{"hermes string arguments", `<tool_call>{"name":"execute_shell_command","arguments":"{\"shell_command\":\"ls -l\"}"}</tool_call>`, "<tool_call>",
			[]string{`execute_shell_command({"shell_command":"ls -l"})`}},
		{"hermes two", "<tool_call>\n{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"a\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"b\", \"recursive\": true}}\n</tool_call>", "<tool_call>",
			[]string{`fs_list_directory({"directory_path":"a"})`, `fs_list_directory({"directory_path":"b","recursive":true})`}},
		{"hermes unclosed", "<tool_call>\n{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": [\"a\", \"b\"], \"limit\": 4000}}", "<tool_call>",
			[]string{`fs_read_file({"file_paths":["a","b"],"limit":4000})`}},
		{"qwen3-coder", "<tool_call>\n<function=fs_read_file>\n<parameter=file_paths>\nmain.go\n</parameter>\n<parameter=limit>\n2000\n</parameter>\n</function>\n</tool_call>", "<tool_call>",
			[]string{`fs_read_file({"file_paths":"main.go","limit":2000})`}},
		{"qwen3-coder bare, lines kept", "<function=fs_edit_file>\n<parameter=file_path>\na.py\n</parameter>\n<parameter=old_text>\ndef f():\n    return 1\n</parameter>\n<parameter=new_text>\ndef f():\n    return 2\n</parameter>\n</function>", "<function=…>",
			[]string{`fs_edit_file({"file_path":"a.py","new_text":"def f():\n    return 2","old_text":"def f():\n    return 1"})`}},
		{"qwen3-coder list value", "<function=fs_read_file>\n<parameter=file_paths>\n[\"a\", \"b\"]\n</parameter>\n</function>", "<function=…>",
			[]string{`fs_read_file({"file_paths":["a","b"]})`}},
		{"llama python_tag", `<|python_tag|>{"name": "fs_list_directory", "parameters": {"directory_path": "."}}<|eom_id|>`, "<|python_tag|>",
			[]string{`fs_list_directory({"directory_path":"."})`}},
		{"mistral list", `[TOOL_CALLS][{"name": "fs_read_file", "arguments": {"file_paths": "a"}}, {"name": "web_search", "arguments": {"query": "go 1.24"}}]`, "[TOOL_CALLS]",
			[]string{`fs_read_file({"file_paths":"a"})`, `web_search({"query":"go 1.24"})`}},
		{"mistral v11", `[TOOL_CALLS]fs_read_file[ARGS]{"file_paths": "a", "offset": 10}`, "[TOOL_CALLS]",
			[]string{`fs_read_file({"file_paths":"a","offset":10})`}},
		{"bare json", " {\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"src\"}}\n", "JSON",
			[]string{`fs_list_directory({"directory_path":"src"})`}},
		{"bare json, parameters", `{"type": "function", "name": "fetch_webpage", "parameters": {"url": "https://go.dev"}}`, "JSON",
			[]string{`fetch_webpage({"url":"https://go.dev"})`}},
		{"bare json, OpenAI's shape", `{"type": "function", "function": {"name": "fetch_webpage", "arguments": "{\"url\": \"https://go.dev\"}"}}`, "JSON",
			[]string{`fetch_webpage({"url":"https://go.dev"})`}},
		{"llama 3.1 function tag", `<function=fs_list_directory>{"directory_path": "/tmp"}</function>`, "<function=…>",
			[]string{`fs_list_directory({"directory_path":"/tmp"})`}},
		{"mistral with call id", `[TOOL_CALLS]fs_read_file[CALL_ID]a1b2c3d4e[ARGS]{"file_paths": "a"}`, "[TOOL_CALLS]",
			[]string{`fs_read_file({"file_paths":"a"})`}},
		{"granite", `<|tool_call|>[{"name": "web_search", "arguments": {"query": "ollama tools"}}]`, "<|tool_call|>",
			[]string{`web_search({"query":"ollama tools"})`}},
		{"hermes list", "<tool_call>\n[{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"a\"}}, {\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"b\"}}]\n</tool_call>", "<tool_call>",
			[]string{`fs_read_file({"file_paths":"a"})`, `fs_read_file({"file_paths":"b"})`}},
		{"hermes, a tag in a value", `<tool_call>{"name": "fs_write_file", "arguments": {"file_path": "t.xml", "content": "<arg_key>k</arg_key>"}}</tool_call>`, "<tool_call>",
			[]string{`fs_write_file({"content":"<arg_key>k</arg_key>","file_path":"t.xml"})`}},
		{"hermes, no arguments", `<tool_call>{"name": "fs_get_filesystem_info"}</tool_call>`, "<tool_call>", []string{`fs_get_filesystem_info({})`}},
		{"end tokens left in", "<tool_call>\n{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"a\"}}\n</tool_call><|im_end|>\n", "<tool_call>",
			[]string{`fs_read_file({"file_paths":"a"})`}},
		{"bare json list", `[{"name": "fs_list_directory", "parameters": {"directory_path": "."}}]`, "JSON", []string{`fs_list_directory({"directory_path":"."})`}},
		{"phi-4", `<|tool_call|>[{"name": "fs_read_file", "arguments": {"file_paths": "a"}}]<|/tool_call|>`, "<|tool_call|>",
			[]string{`fs_read_file({"file_paths":"a"})`}},
		{"glm-4.5", "<tool_call>fs_read_file\n<arg_key>file_paths</arg_key>\n<arg_value>a.txt</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>100</arg_value>\n</tool_call>", "<tool_call>",
			[]string{`fs_read_file({"file_paths":"a.txt","limit":100})`}},
		{"glm-4.5, no arguments", "<tool_call>fs_get_filesystem_info\n</tool_call>", "<tool_call>", []string{`fs_get_filesystem_info({})`}},
		{"deepseek v3.1", `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>fs_read_file<｜tool▁sep｜>{"file_paths": "a"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, "<｜tool▁calls▁begin｜>",
			[]string{`fs_read_file({"file_paths":"a"})`}},
		{"deepseek v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>web_search\n```json\n{\"query\": \"x\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", "<｜tool▁calls▁begin｜>",
			[]string{`web_search({"query":"x"})`}},

		// Look-alikes: none of these runs.
		{"a tool's name alone in the tag", "<tool_call>delete_all</tool_call>", "", nil},
		{"glm-4.5 broken pair", "<tool_call>fs_read_file\n<arg_key>file_paths</arg_key>\nsome text\n</tool_call>", "", nil},
		{"bare json, no arguments", `{"name": "fs_get_filesystem_info"}`, "", nil},
		{"a list of records", `[{"name": "fs_read_file", "arguments": {"file_paths": "a"}}, {"name": "Bob", "age": 3}]`, "", nil},
		{"example in a fenced block", "To read a file the model writes:\n```json\n{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"a\"}}\n```\nand the client runs it.", "", nil},
		{"a fenced block alone", "```json\n{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"a\"}}\n```", "", nil},
		{"unknown tool", `<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>`, "", nil},
		{"wrong type", `{"name": "fs_read_file", "arguments": {"file_paths": 42}}`, "", nil},
		{"not a whole number", `{"name": "fs_read_file", "arguments": {"file_paths": "a", "limit": 1.5}}`, "", nil},
		{"required missing", `<tool_call>{"name": "execute_shell_command", "arguments": {}}</tool_call>`, "", nil},
		{"argument the tool lacks", `<tool_call>{"name": "execute_shell_command", "arguments": {"command": "ls"}}</tool_call>`, "", nil},
		{"two calls glued in prose", "First <tool_call>{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"a\"}}</tool_call> and then <tool_call>{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"b\"}}</tool_call>.", "", nil},
		{"a call after prose", "Let me look.\n<tool_call>{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"a\"}}</tool_call>", "", nil},
		{"prose after a call", "<tool_call>{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"a\"}}</tool_call>\nThat lists it.", "", nil},
		{"the format explained", "The format is <tool_call>{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"a\"}}</tool_call>, as shown.", "", nil},
		{"extra keys", `{"name": "fs_read_file", "arguments": {"file_paths": "a"}, "explanation": "reads a"}`, "", nil},
		{"an answer in JSON", `{"name": "Alice", "arguments": ["she", "said"]}`, "", nil},
		{"two objects", "{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"a\"}}\n{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"b\"}}", "", nil},
		{"python after the tag", `<|python_tag|>print("hello")`, "", nil},
		{"qwen3-coder and prose", "<function=fs_list_directory>\n<parameter=directory_path>\n.\n</parameter>\n</function>\nI listed it.", "", nil},
		{"qwen3-coder parameter twice", "<function=fs_list_directory>\n<parameter=directory_path>\na\n</parameter>\n<parameter=directory_path>\nb\n</parameter>\n</function>", "", nil},
		{"mistral and prose", `[TOOL_CALLS]fs_read_file[ARGS]{"file_paths": "a"} then I will summarise`, "", nil},
		{"one bad call of two", "<tool_call>{\"name\": \"fs_list_directory\", \"arguments\": {\"directory_path\": \"a\"}}</tool_call>\n<tool_call>{\"name\": \"rm\", \"arguments\": {}}</tool_call>", "", nil},
		{"plain answer", "The file has 12 lines.", "", nil},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			format, calls := callsInText(r.text, specs)
			var got []string
			for _, c := range calls {
				got = append(got, c.Name+"("+c.Arguments+")")
			}
			if format != r.format || strings.Join(got, "\n") != strings.Join(r.want, "\n") {
				t.Errorf("callsInText = %q %q, want %q %q", format, got, r.format, r.want)
			}
		})
	}
	if _, calls := callsInText(runs[0].text, nil); calls != nil {
		t.Errorf("a call read with no tools offered: %v", calls)
	}
}

// wireScript is what a scripted model answers, one answer per request:
// a call (name and arguments) or text.
type wireScript struct {
	call, args, text string
}

// wireRun runs yaicli with args against a fake provider of wire (openai,
// anthropic, ollama) that answers script, and returns the result and the
// requests' bodies.
func wireRun(t *testing.T, wire string, script []wireScript, args []string, env ...string) (e2eResult, []map[string]any) {
	t.Helper()
	if wire == "ollama" {
		var answers []string
		for _, s := range script {
			if s.call != "" {
				answers = append(answers, ollamaCall(s.call, s.args))
				continue
			}
			b, _ := json.Marshal(s.text)
			answers = append(answers, `{"model":"llama3.2","message":{"role":"assistant","content":`+string(b)+`},"done":false}
{"model":"llama3.2","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":300,"eval_count":20}
`)
		}
		o := newNativeOllama(t, answers...)
		r := o.run(t, args, append([]string{"YAI_NUM_CTX=8192"}, env...)...)
		o.mu.Lock()
		defer o.mu.Unlock()
		return r, o.reqs
	}
	var steps []step
	for i, s := range script {
		switch {
		case wire == "anthropic" && s.call != "":
			steps = append(steps, sse(anthropicToolUse(fmt.Sprintf("toolu_%d", i), s.call, s.args)))
		case wire == "anthropic":
			steps = append(steps, sse(anthropicText(s.text)))
		case s.call != "":
			steps = append(steps, sse(toolStream(fakeCall{fmt.Sprintf("call_%d", i), s.call, s.args})))
		default:
			steps = append(steps, sse(textStream(s.text)))
		}
	}
	f := newFakeProvider(t, steps...)
	if wire == "anthropic" {
		env = append([]string{"YAI_PROVIDER=anthropic", "YAI_MODEL=claude-sonnet-4-5"}, env...)
	}
	r := runBinary(t, f, e2e{args: args, env: env})
	var bodies []map[string]any
	for _, c := range f.chats() {
		bodies = append(bodies, c.Body)
	}
	return r, bodies
}

// wireCall is a tool call and its result as a request on a wire carries
// them, read back from its body.
type wireCall struct {
	id, name, args, result string
}

// callsSent reads the tool calls and their results out of a request body
// of wire; ok is false when a call lacks its result or a result its call.
func callsSent(t *testing.T, wire string, body map[string]any) ([]wireCall, bool) {
	t.Helper()
	raw, _ := json.Marshal(body["messages"])
	var msgs []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolName   string          `json:"tool_name"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatalf("messages: %v", err)
	}
	var calls []wireCall
	results := map[string]string{}
	for _, m := range msgs {
		if wire == "anthropic" {
			var parts []map[string]any
			json.Unmarshal(m.Content, &parts)
			for _, p := range parts {
				switch p["type"] {
				case "tool_use":
					in, _ := json.Marshal(p["input"])
					calls = append(calls, wireCall{id: fmt.Sprint(p["id"]), name: fmt.Sprint(p["name"]), args: string(in)})
				case "tool_result":
					c, _ := json.Marshal(p["content"])
					results[fmt.Sprint(p["tool_use_id"])] = string(c)
				}
			}
			continue
		}
		for _, c := range m.ToolCalls {
			args := string(c.Function.Arguments)
			if s := ""; json.Unmarshal(c.Function.Arguments, &s) == nil { // OpenAI: a JSON string
				args = s
			}
			calls = append(calls, wireCall{id: c.ID, name: c.Function.Name, args: args})
		}
		if m.Role == roleTool {
			var s string
			json.Unmarshal(m.Content, &s)
			key := m.ToolCallID
			if wire == "ollama" && key == "" {
				key = m.ToolName
			}
			results[key] = s
		}
	}
	ok := len(calls) == len(results)
	for i, c := range calls {
		key := c.id
		if wire == "ollama" && c.id == "" {
			key = c.name
		}
		r, found := results[key]
		ok = ok && found
		calls[i].result = r
	}
	return calls, ok
}

var wires = []string{"openai", "anthropic", "ollama"}

// TestTextCallsOnWires: on each wire, an answer that is a call written as
// text runs as that call; the next request carries a real tool call and
// its result (well formed for the wire), the answer on stdout is only the
// final one, and stderr says once that calls are read from text. With
// TEXT_TOOL_CALLS=false the text is the answer and nothing runs.
func TestTextCallsOnWires(t *testing.T) {
	t.Parallel()
	text := "<tool_call>\n{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"go.mod\"}}\n</tool_call>"
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			t.Parallel()
			r, reqs := wireRun(t, wire, []wireScript{{text: text}, {text: "The module is yaicli."}}, []string{"what module is this?"})
			if r.code != 0 || len(reqs) != 2 {
				t.Fatalf("code %d, %d requests\nstdout %s\nstderr %s", r.code, len(reqs), r.stdout, r.stderr)
			}
			if r.stdout != "The module is yaicli.\n" {
				t.Errorf("stdout = %q, want only the answer", r.stdout)
			}
			if strings.Count(r.stderr, "wrote its tool call as text (<tool_call>)") != 1 || !strings.Contains(r.stderr, "@Function call: fs_read_file") {
				t.Errorf("stderr does not say the text became a call:\n%s", r.stderr)
			}
			calls, ok := callsSent(t, wire, reqs[1])
			if !ok || len(calls) != 1 || calls[0].name != "fs_read_file" || !strings.Contains(calls[0].args, `"go.mod"`) || !strings.Contains(calls[0].result, "module yaicli") {
				t.Errorf("second request's calls = %+v (paired %v)", calls, ok)
			}
			if wire != "ollama" && !strings.HasPrefix(calls[0].id, "call_text_") {
				t.Errorf("call id %q", calls[0].id)
			}
			if b, _ := json.Marshal(reqs[1]["messages"]); strings.Contains(string(b), "tool_call>") {
				t.Errorf("the text of the call is still in the history: %s", b)
			}

			r, reqs = wireRun(t, wire, []wireScript{{text: text}}, []string{"what module is this?"}, "YAI_TEXT_TOOL_CALLS=false")
			if r.code != 0 || len(reqs) != 1 || !strings.Contains(r.stdout, "<tool_call>") || strings.Contains(r.stderr, "@Function call") {
				t.Errorf("TEXT_TOOL_CALLS=false: code %d, %d requests, stdout %q\nstderr %s", r.code, len(reqs), r.stdout, r.stderr)
			}
		})
	}
}

// TestTextCallLookalikesDoNotRun: on each wire, an explanation holding an
// example call in a fenced block, and a call of a tool not offered, are
// answers: one request, the text on stdout, nothing run.
func TestTextCallLookalikesDoNotRun(t *testing.T) {
	t.Parallel()
	for _, wire := range wires {
		for _, text := range []string{
			"A model calls a tool like this:\n\n```json\n{\"name\": \"fs_read_file\", \"arguments\": {\"file_paths\": \"go.mod\"}}\n```\n",
			"<tool_call>{\"name\": \"rm_rf\", \"arguments\": {\"path\": \"/\"}}</tool_call>",
		} {
			r, reqs := wireRun(t, wire, []wireScript{{text: text}}, []string{"how do tools work?"})
			if r.code != 0 || len(reqs) != 1 || strings.TrimSpace(r.stdout) != strings.TrimSpace(text) || strings.Contains(r.stderr, "@Function call") {
				t.Errorf("%s: code %d, %d requests, stdout %q\nstderr %s", wire, r.code, len(reqs), r.stdout, r.stderr)
			}
		}
	}
}

// TestTextCallNeedsApproval: a shell command written as text is asked
// about like any other: with no terminal to ask on it is refused, and
// the refusal is its result.
func TestTextCallNeedsApproval(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := fmt.Sprintf(`{"name": "execute_shell_command", "arguments": {"shell_command": "touch %s/made"}}`, dir)
	r, reqs := wireRun(t, "openai", []wireScript{{text: text}, {text: "ok"}}, []string{"make a file"}, "YAI_SANDBOX=off")
	calls, ok := callsSent(t, "openai", reqs[len(reqs)-1])
	if r.code != 0 || !ok || len(calls) != 1 || !strings.Contains(calls[0].result, "refused") {
		t.Fatalf("code %d, calls %+v\nstderr %s", r.code, calls, r.stderr)
	}
	if _, err := http.Dir(dir).Open("made"); err == nil {
		t.Errorf("the command ran without approval")
	}
}

// TestTextCallEvents: in stream-json, a call written as text is told as
// text.call (its format and the ids it runs as), its tool.call follows,
// and the turn's answer is the answer alone, not the call's text.
func TestTextCallEvents(t *testing.T) {
	t.Parallel()
	text := `<|python_tag|>{"name": "fs_read_file", "parameters": {"file_paths": "go.mod"}}<|eom_id|>`
	f := newFakeProvider(t, sse(textStream(text[:20], text[20:])), sse(textStream("yaicli")))
	r := runBinary(t, f, e2e{args: []string{"--output-format", "stream-json", "what module?"}})
	evs := consume(t, r.stdout)
	var kinds []string
	var call, end streamEvent
	for _, ev := range evs {
		switch ev["type"] {
		case "text.call":
			call = ev
		case "turn.end":
			end = ev
		}
		kinds = append(kinds, fmt.Sprint(ev["type"]))
	}
	seq := strings.Join(kinds, " ")
	if r.code != 0 || call == nil || call["format"] != "<|python_tag|>" || fmt.Sprint(call["ids"]) != "[call_text_1]" || call["first"] != true ||
		!strings.Contains(seq, "text.call tool.call") || end["answer"] != "yaicli" {
		t.Errorf("code %d, events %s\ntext.call %v\nturn.end %v\nstderr %s", r.code, seq, call, end, r.stderr)
	}
}

// TestTextCallNoticeOnTerminal: on a terminal the text was shown, so each
// call read from text is said to have become a call, the first time with
// what yaicli does and how to turn it off; an ordinary answer is left be.
func TestTextCallNoticeOnTerminal(t *testing.T) {
	var stdout, stderr strings.Builder
	a := newAgent(agentOptions{textCalls: true}, newRedactor(nil), nil, modelWindow{}, newToolbox(toolboxOptions{workDir: t.TempDir()}, newRedactor(nil), io.Discard, nil, nil),
		agentIO{answer: &stdout, diag: &stderr})
	specs := a.tools.specs()
	for i := 1; i <= 2; i++ {
		m := message{Role: roleAssistant, Content: `{"name": "fs_list_directory", "arguments": {"directory_path": "."}}`}
		if calls := a.callsOf(&m, specs); len(calls) != 1 || m.Content != "" || len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != fmt.Sprintf("call_text_%d", i) {
			t.Fatalf("call %d: %+v", i, m)
		}
	}
	if strings.Count(stderr.String(), "TEXT_TOOL_CALLS=false") != 1 || strings.Count(stderr.String(), "the text above is run as a call to fs_list_directory") != 2 {
		t.Errorf("stderr = %q", stderr.String())
	}
	m := message{Role: roleAssistant, Content: "Use fs_list_directory."}
	if calls := a.callsOf(&m, specs); len(calls) > 0 || m.Content != "Use fs_list_directory." {
		t.Errorf("an answer became a call: %+v", m)
	}
	off := newAgent(agentOptions{}, newRedactor(nil), nil, modelWindow{}, a.tools, agentIO{answer: &stdout, diag: &stderr})
	m = message{Role: roleAssistant, Content: `{"name": "fs_list_directory", "arguments": {"directory_path": "."}}`}
	if calls := off.callsOf(&m, specs); len(calls) > 0 {
		t.Errorf("TEXT_TOOL_CALLS=false read a call")
	}
}

// TestTextCallOfDeferredTool: with every schema deferred behind
// tool_search and call_tool (TOOL_SCHEMA_SHARE=0), a call written as text
// of a deferred tool runs, as a call of it by name would.
func TestTextCallOfDeferredTool(t *testing.T) {
	t.Parallel()
	text := `{"name": "fs_read_file", "arguments": {"file_paths": "go.mod"}}`
	r, reqs := wireRun(t, "openai", []wireScript{{text: text}, {text: "yaicli"}}, []string{"what module?"}, "YAI_TOOL_SCHEMA_SHARE=0")
	if b, _ := json.Marshal(reqs[0]["tools"]); strings.Contains(string(b), `"name":"fs_read_file"`) {
		t.Fatalf("fs_read_file was sent, not deferred: %s", b)
	}
	calls, ok := callsSent(t, "openai", reqs[len(reqs)-1])
	if r.code != 0 || !ok || len(calls) != 1 || !strings.Contains(calls[0].result, "module yaicli") {
		t.Errorf("code %d, calls %+v\n%s", r.code, calls, r.stderr)
	}
}
