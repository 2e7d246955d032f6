package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Small models served by llama.cpp or Ollama often write a tool call as
// the text of their answer when the server's template does not turn it
// into tool_calls. An answer whose whole text is calls in one of the
// formats below, each naming a tool the request offered with arguments
// its schema takes, is run as those calls (TEXT_TOOL_CALLS); anything
// else is an answer, as written.

// textCall is a call read from text, before it is checked.
type textCall struct {
	name string
	args map[string]any
	raw  map[string]string // Qwen3-Coder's parameters, as text: typed by the schema
}

// textFormats are the formats calls are read from, each a parser of the
// whole (trimmed) answer; ok is false when the text is not wholly in it.
var textFormats = []struct {
	name  string
	parse func(s string) ([]textCall, bool)
}{
	{"<tool_call>", parseHermes},
	{"<function=…>", parseQwenCoder},
	{"<|python_tag|>", parsePythonTag},
	{"[TOOL_CALLS]", parseMistral},
	{"<|tool_call|>", parseGranite},
	{"<｜tool▁calls▁begin｜>", parseDeepSeek},
	{"JSON", parseBareJSON},
}

// endTokens are end-of-turn tokens a server may leave at the end of the
// text; they are not part of it.
var endTokens = []string{"<|im_end|>", "<|eot_id|>", "<|eom_id|>", "<|end|>", "</s>", "<|endoftext|>"}

// withoutEndTokens is s without the end-of-turn tokens that close it.
func withoutEndTokens(s string) string {
	for {
		t := s
		for _, tok := range endTokens {
			t = strings.TrimSpace(strings.TrimSuffix(t, tok))
		}
		if t == s {
			return s
		}
		s = t
	}
}

// callsInText reads text as tool calls of the offered tools (the request's
// and those deferred behind its call_tool): the format
// it is in, and the calls with their arguments as JSON; none when the
// text is not wholly calls, names a tool not offered, or gives arguments
// its schema does not take.
func callsInText(text string, offered []toolSpec) (string, []functionCall) {
	s := withoutEndTokens(strings.TrimSpace(text))
	if s == "" || len(offered) == 0 {
		return "", nil
	}
	schemas := map[string]json.RawMessage{}
	for _, t := range offered {
		schemas[t.Function.Name] = t.Function.Parameters
	}
	for _, f := range textFormats {
		calls, ok := f.parse(s)
		if !ok || len(calls) == 0 {
			continue
		}
		out := make([]functionCall, 0, len(calls))
		for _, c := range calls {
			params, known := schemas[c.name]
			if !known {
				return "", nil
			}
			args, ok := typedArgs(c, params)
			if !ok {
				return "", nil
			}
			out = append(out, functionCall{Name: c.name, Arguments: jsonText(args)})
		}
		return f.name, out
	}
	return "", nil
}

// parseHermes reads <tool_call>…</tool_call> blocks (Hermes, Qwen 2.5 and
// 3), each a JSON object with name and arguments (or a list of them),
// Qwen3-Coder's <function=…> block or GLM-4.5's name and <arg_key> pairs,
// with only whitespace between them; the last may lack its closing tag (a
// stop token ended the answer).
func parseHermes(s string) ([]textCall, bool) {
	const open, end = "<tool_call>", "</tool_call>"
	var calls []textCall
	for s != "" {
		if !strings.HasPrefix(s, open) {
			return nil, false
		}
		body, rest, closed := strings.Cut(s[len(open):], end)
		if !closed && strings.Contains(body, open) {
			return nil, false
		}
		body = strings.TrimSpace(body)
		var got []textCall
		var ok bool
		switch name, args, glm := strings.Cut(body, "<arg_key>"); {
		case strings.HasPrefix(body, "{") || strings.HasPrefix(body, "["):
			got, ok = jsonCalls(body, false)
		case strings.HasPrefix(body, "<function="):
			got, ok = parseQwenCoder(body)
		default: // GLM-4.5: the name, then its arguments as pairs
			got, ok = parseGLM(name, args, glm)
		}
		if !ok {
			return nil, false
		}
		calls = append(calls, got...)
		s = strings.TrimSpace(rest)
	}
	return calls, true
}

// parseGLM reads the inside of GLM-4.5's <tool_call>: the name, then
// <arg_key>K</arg_key><arg_value>V</arg_value> pairs (rest, after the
// first <arg_key>, when hasArgs), values typed by the schema.
func parseGLM(name, rest string, hasArgs bool) ([]textCall, bool) {
	c := textCall{name: strings.TrimSpace(name), raw: map[string]string{}}
	if !toolName(c.name) {
		return nil, false
	}
	for hasArgs {
		key, after, ok := strings.Cut(rest, "</arg_key>")
		v, more, okV := strings.Cut(strings.TrimSpace(after), "</arg_value>")
		v, isValue := strings.CutPrefix(v, "<arg_value>")
		if _, dup := c.raw[key]; !ok || !okV || !isValue || dup || key == "" || strings.ContainsAny(key, "<>") {
			return nil, false
		}
		c.raw[key] = v
		more = strings.TrimSpace(more)
		if more == "" {
			break
		}
		if rest, ok = strings.CutPrefix(more, "<arg_key>"); !ok {
			return nil, false
		}
	}
	return []textCall{c}, true
}

// parseQwenCoder reads Qwen3-Coder's <function=NAME><parameter=K>V
// </parameter>…</function> blocks (or Llama 3.1's <function=NAME>{…}
// </function>), with only whitespace between them.
func parseQwenCoder(s string) ([]textCall, bool) {
	var calls []textCall
	for s != "" {
		head, rest, ok := strings.Cut(s, ">")
		name, isFn := strings.CutPrefix(head, "<function=")
		if !ok || !isFn || !toolName(name) {
			return nil, false
		}
		body, after, ok := strings.Cut(rest, "</function>")
		if !ok {
			return nil, false
		}
		if body = strings.TrimSpace(body); strings.HasPrefix(body, "{") { // Llama 3.1's <function=NAME>{…}</function>
			var args map[string]any
			if !oneJSON(body, &args) || args == nil {
				return nil, false
			}
			calls = append(calls, textCall{name: name, args: args})
			s = strings.TrimSpace(after)
			continue
		}
		c := textCall{name: name, raw: map[string]string{}}
		for ; body != ""; body = strings.TrimSpace(body) {
			head, rest, ok := strings.Cut(body, ">")
			key, isParam := strings.CutPrefix(head, "<parameter=")
			if !ok || !isParam || key == "" || strings.ContainsAny(key, "<>\n") {
				return nil, false
			}
			v, more, ok := strings.Cut(rest, "</parameter>")
			if _, dup := c.raw[key]; !ok || dup {
				return nil, false
			}
			v = strings.TrimPrefix(v, "\n")
			c.raw[key] = strings.TrimSuffix(v, "\n")
			body = more
		}
		calls = append(calls, c)
		s = strings.TrimSpace(after)
		if t, ok := strings.CutPrefix(s, "</tool_call>"); ok && t == "" { // a bare block closed as if opened
			s = ""
		}
	}
	return calls, true
}

// parsePythonTag reads Llama 3.1's <|python_tag|> followed by one JSON
// call (name and parameters), up to its end-of-message token.
func parsePythonTag(s string) ([]textCall, bool) {
	rest, ok := strings.CutPrefix(s, "<|python_tag|>")
	if !ok {
		return nil, false
	}
	return jsonCalls(strings.TrimSpace(rest), false)
}

// parseGranite reads Granite's and Phi-4's <|tool_call|> followed by a
// JSON list of calls (or one call), closed by <|/tool_call|> or not.
func parseGranite(s string) ([]textCall, bool) {
	rest, ok := strings.CutPrefix(s, "<|tool_call|>")
	if !ok {
		return nil, false
	}
	return jsonCalls(strings.TrimSpace(strings.TrimSuffix(rest, "<|/tool_call|>")), false)
}

// parseDeepSeek reads DeepSeek's calls: between <｜tool▁calls▁begin｜> and
// its end, each <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>
// (V3.1), or function<｜tool▁sep｜>NAME and a ```json block (V3).
func parseDeepSeek(s string) ([]textCall, bool) {
	const begin, end, callBegin, callEnd, sep = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>"
	rest, ok := strings.CutPrefix(s, begin)
	if !ok {
		return nil, false
	}
	rest = strings.TrimSpace(strings.TrimSuffix(rest, end))
	var calls []textCall
	for rest != "" {
		body, after, ok := strings.Cut(strings.TrimPrefix(rest, callBegin), callEnd)
		name, args, hasSep := strings.Cut(body, sep)
		if !ok || !strings.HasPrefix(rest, callBegin) || !hasSep {
			return nil, false
		}
		if name == "function" { // V3: the name, then its arguments in a json block
			name, args, _ = strings.Cut(args, "\n")
			args = strings.TrimSpace(args)
			inner, fenced := strings.CutPrefix(args, "```json")
			if !fenced || !strings.HasSuffix(inner, "```") {
				return nil, false
			}
			args = strings.TrimSuffix(inner, "```")
		}
		var m map[string]any
		if name = strings.TrimSpace(name); !toolName(name) || !oneJSON(strings.TrimSpace(args), &m) || m == nil {
			return nil, false
		}
		calls = append(calls, textCall{name: name, args: m})
		rest = strings.TrimSpace(after)
	}
	return calls, len(calls) > 0
}

// parseMistral reads Mistral's [TOOL_CALLS] followed by a JSON list of
// calls, or by name[ARGS]{…} (repeated with [TOOL_CALLS] before each).
func parseMistral(s string) ([]textCall, bool) {
	rest, ok := strings.CutPrefix(s, "[TOOL_CALLS]")
	if !ok {
		return nil, false
	}
	if rest = strings.TrimSpace(rest); strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, "{") {
		return jsonCalls(rest, false)
	}
	var calls []textCall
	for _, part := range strings.Split(rest, "[TOOL_CALLS]") {
		name, args, ok := strings.Cut(strings.TrimSpace(part), "[ARGS]")
		if n, _, hasID := strings.Cut(name, "[CALL_ID]"); hasID { // name[CALL_ID]id[ARGS]{…}
			name = n
		}
		var m map[string]any
		if !ok || !toolName(name) || !oneJSON(args, &m) || m == nil {
			return nil, false
		}
		calls = append(calls, textCall{name: name, args: m})
	}
	return calls, true
}

// parseBareJSON reads an answer that is one JSON object with name and
// arguments (or parameters) and nothing else.
func parseBareJSON(s string) ([]textCall, bool) {
	if !strings.HasPrefix(s, "{") && !strings.HasPrefix(s, "[") {
		return nil, false
	}
	return jsonCalls(s, true)
}

// jsonCalls reads one JSON call or a list of them; needArgs: each must
// give its arguments (else a call without them has none).
func jsonCalls(s string, needArgs bool) ([]textCall, bool) {
	if !strings.HasPrefix(s, "[") {
		c, ok := jsonCall(s, needArgs)
		return []textCall{c}, ok
	}
	var list []json.RawMessage
	if !oneJSON(s, &list) || len(list) == 0 {
		return nil, false
	}
	calls := make([]textCall, 0, len(list))
	for _, raw := range list {
		c, ok := jsonCall(string(raw), needArgs)
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
	}
	return calls, true
}

// jsonCall reads one JSON object holding a call: name, and arguments or
// parameters (an object, or a string holding one; without them, none
// unless needArgs); "type": "function"
// and an id may be there too, nothing else. {"function": {…}} is read
// as what it wraps.
func jsonCall(s string, needArgs bool) (textCall, bool) {
	var m map[string]json.RawMessage
	if !oneJSON(s, &m) {
		return textCall{}, false
	}
	if fn, ok := m["function"]; ok { // {"type": "function", "function": {…}}, as OpenAI writes a call
		for k := range m {
			if k != "function" && k != "type" && k != "id" {
				return textCall{}, false
			}
		}
		return jsonCall(string(fn), needArgs)
	}
	var c textCall
	if json.Unmarshal(m["name"], &c.name) != nil || !toolName(c.name) {
		return textCall{}, false
	}
	argsRaw, hasArgs := m["arguments"]
	if p, ok := m["parameters"]; ok {
		if hasArgs {
			return textCall{}, false
		}
		argsRaw, hasArgs = p, true
	}
	for k := range m {
		switch k {
		case "name", "arguments", "parameters", "id":
		case "type":
			var t string
			if json.Unmarshal(m[k], &t) != nil || t != "function" {
				return textCall{}, false
			}
		default:
			return textCall{}, false
		}
	}
	if !hasArgs && needArgs {
		return textCall{}, false
	}
	if !hasArgs {
		argsRaw = json.RawMessage("{}")
	}
	var text string
	if json.Unmarshal(argsRaw, &text) == nil { // arguments as a JSON string, as OpenAI sends them
		argsRaw = json.RawMessage(text)
	}
	if !oneJSON(string(argsRaw), &c.args) || c.args == nil {
		return textCall{}, false
	}
	return c, true
}

// oneJSON decodes s into v when s is exactly one JSON value.
func oneJSON(s string, v any) bool {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if d.Decode(v) != nil {
		return false
	}
	_, err := d.Token()
	return err == io.EOF // nothing after the value
}

// toolName reports whether s can be a tool's name.
func toolName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// schema is the part of a JSON schema text calls are checked against.
type schema struct {
	Type       any                `json:"type"`
	Properties map[string]*schema `json:"properties"`
	Required   []string           `json:"required"`
	Items      *schema            `json:"items"`
	AnyOf      []*schema          `json:"anyOf"`
	OneOf      []*schema          `json:"oneOf"`
	Enum       []any              `json:"enum"`
}

// typedArgs is c's arguments when params takes them: each required one
// given, none it does not name, each of its type (Qwen3-Coder's text
// values read as the type says).
func typedArgs(c textCall, params json.RawMessage) (map[string]any, bool) {
	var sc schema
	if json.Unmarshal(params, &sc) != nil {
		return nil, false
	}
	args := c.args
	if c.raw != nil {
		args = map[string]any{}
		for k, v := range c.raw {
			args[k] = fromText(v, sc.Properties[k])
		}
	}
	for k, v := range args {
		args[k] = plainNumbers(v)
	}
	return args, sc.takes(args)
}

// fromText reads a parameter written as text as its schema's type: JSON
// for what is not a string, the text itself otherwise.
func fromText(v string, sc *schema) any {
	if sc == nil || sc.admits("string") && !sc.admits("array") && !sc.admits("object") {
		return v
	}
	var x any
	if oneJSON(strings.TrimSpace(v), &x) && sc.fits(plainNumbers(x)) {
		return x
	}
	return v
}

// plainNumbers turns the json.Numbers of a decoded value into float64s,
// as the tools read them.
func plainNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, x := range t {
			t[k] = plainNumbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = plainNumbers(x)
		}
	}
	return v
}

// takes reports whether the object args fits sc, an object schema.
func (sc *schema) takes(args map[string]any) bool {
	for _, k := range sc.Required {
		if _, ok := args[k]; !ok {
			return false
		}
	}
	for k, v := range args {
		p, ok := sc.Properties[k]
		if !ok && sc.Properties != nil {
			return false
		}
		if ok && !p.fits(v) {
			return false
		}
	}
	return true
}

// admits reports whether sc's type allows t (no type: any).
func (sc *schema) admits(t string) bool {
	switch v := sc.Type.(type) {
	case nil:
		return len(sc.AnyOf)+len(sc.OneOf) == 0 || sc.anyAdmits(t)
	case string:
		return v == t || v == "number" && t == "integer"
	case []any:
		for _, x := range v {
			if x == t || x == "number" && t == "integer" {
				return true
			}
		}
	}
	return false
}

// anyAdmits reports whether one of sc's alternatives allows t.
func (sc *schema) anyAdmits(t string) bool {
	for _, alt := range append(append([]*schema(nil), sc.AnyOf...), sc.OneOf...) {
		if alt != nil && alt.admits(t) {
			return true
		}
	}
	return false
}

// fits reports whether v (decoded JSON) is of sc's type and, for a list
// or an object, whether its items and fields are.
func (sc *schema) fits(v any) bool {
	if sc == nil {
		return true
	}
	if alts := append(append([]*schema(nil), sc.AnyOf...), sc.OneOf...); len(alts) > 0 && sc.Type == nil {
		for _, alt := range alts {
			if alt.fits(v) {
				return true
			}
		}
		return false
	}
	if len(sc.Enum) > 0 && !inEnum(v, sc.Enum) {
		return false
	}
	switch t := v.(type) {
	case string:
		return sc.admits("string")
	case bool:
		return sc.admits("boolean")
	case float64:
		return sc.admits("number") || sc.admits("integer") && t == math.Trunc(t)
	case nil:
		return sc.admits("null")
	case []any:
		if !sc.admits("array") {
			return false
		}
		for _, x := range t {
			if !sc.Items.fits(x) {
				return false
			}
		}
		return true
	case map[string]any:
		return sc.admits("object") && (sc.Properties == nil || sc.takes(t))
	}
	return false
}

// inEnum reports whether v is one of values.
func inEnum(v any, values []any) bool {
	a, _ := json.Marshal(v)
	for _, x := range values {
		if b, _ := json.Marshal(x); bytes.Equal(a, b) {
			return true
		}
	}
	return false
}

// callsFromText is the calls of an answer whose whole text is calls
// written as text (callsInText) of the tools offered, with ids of their
// own; nil when it is not. The caller makes the answer those calls, so
// the history records real calls and the next request is well formed on
// every wire. The text was streamed already: a file or pipe gets none of
// it, a terminal shows it and stderr says it became a call (the first
// time at length), and the JSON modes take it out of the answer and say
// so as text.call.
func (a *agent) callsFromText(text string, offered []toolSpec) []toolCall {
	format, found := callsInText(text, a.textOffer(offered))
	if len(found) == 0 {
		return nil
	}
	calls := make([]toolCall, len(found))
	names := make([]string, len(found))
	for i, c := range found {
		a.textCallN++
		calls[i] = toolCall{ID: fmt.Sprintf("call_text_%d", a.textCallN), Type: "function", Function: c}
		names[i] = c.Name
	}
	first := !a.warnedText
	a.warnedText = true
	switch {
	case a.ev.on():
		a.ev.textCall(text, format, calls, first)
		return calls
	case a.rawAnswer: // a file or pipe: holdTextCall kept the call out of the answer
		a.openLine = false
	default:
		a.endAnswer()
	}
	if first {
		fmt.Fprintf(a.stderr, "yaicli: the model wrote its tool call as text (%s) instead of a tool call; yaicli runs such calls as calls of the tools offered, approved as any other (TEXT_TOOL_CALLS=false leaves them as text)\n", format)
	}
	if !a.rawAnswer {
		fmt.Fprintf(a.stderr, "yaicli: the text above is run as a call to %s\n", sanitize(strings.Join(names, ", ")))
	}
	return calls
}

// textCall is text.call: the answer text streamed as text.delta was the
// calls given, so it leaves the turn's answer; first: the first of the
// session.
func (e *events) textCall(text, format string, calls []toolCall, first bool) {
	if !e.on() {
		return
	}
	ids := make([]string, len(calls))
	for i, c := range calls {
		ids[i] = c.ID
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if s := e.answer.String(); strings.HasSuffix(s, text) {
		e.answer.Reset()
		e.answer.WriteString(strings.TrimSuffix(s, text))
	}
	msg := "the answer's text was a tool call written as text; it runs as a call (TEXT_TOOL_CALLS=false leaves it as text)"
	if first { // json mode keeps no events, but its notices
		e.sum.Notices = append(e.sum.Notices, msg)
	}
	e.emit("text.call", map[string]any{"format": format, "ids": ids, "first": first, "message": msg})
}

// textOffer is the tools a call written as text may name: those sent,
// and, when call_tool was sent, those deferred behind it, which a call by
// name runs as call_tool would (tooldefer.go).
func (a *agent) textOffer(sent []toolSpec) []toolSpec {
	for _, s := range sent {
		if s.Function.Name == toolCallName {
			out := append([]toolSpec(nil), sent...)
			for _, name := range a.tools.offer.deferred {
				out = append(out, a.tools.spec(name))
			}
			return out
		}
	}
	return sent
}

// holdTextCall keeps an answer that is calls written as text out of a
// file or pipe (stdout not a terminal), where the request's text is held
// until it ends well: such text is not an answer. The agent calls it as
// each request ends, before its usage keeps the text (events.usage).
func (a *agent) holdTextCall(r reply, offered []toolSpec) {
	if !a.o.textCalls || a.tools == nil || !a.rawAnswer || a.ev.on() || len(r.Message.ToolCalls) > 0 {
		return
	}
	if _, calls := callsInText(r.Message.Content, a.textOffer(offered)); len(calls) > 0 {
		a.ev.dropHeld()
		a.openLine = false
	}
}

// dropHeld forgets the answer text a request streamed to a file or pipe
// (events.answers): it was a call, not an answer.
func (e *events) dropHeld() {
	if e != nil && e.plain {
		e.hold.void()
	}
}
