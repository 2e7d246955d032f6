package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Deferred tool schemas. Every request opens with the tool schemas, so
// their size is paid in every request: a hundred MCP tools are ~50k tokens,
// more than a small window holds. When the schemas would take more than
// deferShare of the budget, the request carries a compact set (the
// built-ins first, then each MCP server's first tools within its share of
// the room) and two small tools: tool_search finds any tool by words of
// its name and description and returns its schema, and call_tool runs a
// found tool by name with its arguments checked against that schema. The
// set stays the same all session (it depends on the budget and the tool
// list only), so the provider's cached prefix stays: a found tool's schema
// arrives as a tool result, in the conversation, not in the tools list.

// deferShare is the most of the budget the tool schemas may take when the
// toolbox was given no TOOL_SCHEMA_SHARE; past it the compact set is sent
// and the rest deferred.
const deferShare = 0.12

// The discovery tools' names, descriptions and schemas.
const (
	toolSearchName   = "tool_search"
	toolSearchDesc   = "Find more tools (they are not listed here, to save room) by words of their name or purpose. Returns their names and argument schemas; run one with call_tool."
	toolSearchParams = `{"type":"object","properties":{"query":{"type":"string","description":"words, e.g. \"github issue create\""}},"required":["query"]}`
	toolCallName     = "call_tool"
	toolCallDesc     = "Run a tool tool_search found: name and its arguments object."
	toolCallParams   = `{"type":"object","properties":{"name":{"type":"string"},"arguments":{"type":"object"}},"required":["name","arguments"]}`
	searchMaxFound   = 5 // tools a search returns whole
)

// deferring reports whether some tools are deferred.
func (o toolOffer) deferring() bool { return len(o.deferred) > 0 }

// deferredMCP counts the MCP tools among those deferred.
func (o toolOffer) deferredMCP(tb *toolbox) int {
	n := 0
	for _, name := range o.deferred {
		if tb.tools[name].mcp {
			n++
		}
	}
	return n
}

// choose makes (or reuses) the offer of specs for a budget: built-ins in
// their order, then every MCP server's tools in its order within an equal
// share of the room left; a schema that does not fit is deferred, not the
// ones after it. The discovery tools go last.
func (tb *toolbox) choose(specs []toolSpec, budget int, count func([]toolSpec) int) toolOffer {
	key := fmt.Sprint(budget, len(specs))
	for _, s := range specs {
		key += "," + s.Function.Name
	}
	if tb.offer.key == key {
		return tb.offer
	}
	share := tb.o.schemaShare
	if share == 0 {
		share = deferShare
	}
	o := toolOffer{key: key, all: count(specs), share: int(math.Floor(float64(budget) * share)), sent: specs}
	if o.all <= o.share {
		o.tokens = o.all
		tb.offer = o
		return o
	}
	byName := map[string]toolSpec{}
	for _, s := range specs {
		byName[s.Function.Name] = s
	}
	tb.tools[toolSearchName] = searchTool(tb)
	tb.tools[toolCallName] = tool{name: toolCallName, desc: toolCallDesc, params: toolCallParams, deferOnly: true, unwrap: tb.unwrapCall}
	discovery := []toolSpec{tb.spec(toolSearchName), tb.spec(toolCallName)}
	used := count(discovery)
	var sent []toolSpec
	take := func(name string, room int) bool {
		s, ok := byName[name]
		if !ok {
			return false
		}
		if c := count([]toolSpec{s}); used+c <= room {
			used += c
			sent = append(sent, s)
			return true
		}
		o.deferred = append(o.deferred, name)
		return false
	}
	for _, name := range tb.builtins {
		take(name, o.share)
	}
	servers, tools := tb.byServer(byName)
	if len(servers) > 0 {
		each := (o.share - used) / len(servers)
		for _, srv := range servers {
			room := used + max(each, 0)
			for _, name := range tools[srv] {
				take(name, room)
			}
		}
	}
	o.sent, o.tokens = append(sent, discovery...), used
	tb.offer = o
	return o
}

// byServer groups the MCP tools among byName by server, in the order the
// servers listed them; the servers sorted by name, so the choice is stable.
func (tb *toolbox) byServer(byName map[string]toolSpec) ([]string, map[string][]string) {
	tools := map[string][]string{}
	for name := range byName {
		if t := tb.tools[name]; t.mcp {
			tools[t.server] = append(tools[t.server], name)
		}
	}
	servers := make([]string, 0, len(tools))
	for s, names := range tools {
		servers = append(servers, s)
		sort.Strings(names)
	}
	sort.Strings(servers)
	return servers, tools
}

// spec is one tool's schema as a request carries it.
func (tb *toolbox) spec(name string) toolSpec {
	t := tb.tools[name]
	return toolSpec{Type: "function", Function: toolFunction{Name: name, Description: t.desc, Parameters: json.RawMessage(t.params)}}
}

// searchTool is tool_search: words over every tool's name, description and
// server; the best few come back whole (schema included).
func searchTool(tb *toolbox) tool {
	return tool{name: toolSearchName, desc: toolSearchDesc, params: toolSearchParams, deferOnly: true,
		run: func(_ context.Context, a map[string]any, out io.Writer) error {
			return writeJSON(out, fitSearch(tb.search(argString(a, "query", "")), capFor(toolSearchName, tb.o.outputMaxChars)))
		}}
}

// foundTool is one tool a search returns.
type foundTool struct {
	Name        string          `json:"name"`
	Server      string          `json:"server,omitempty"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// search ranks the tools by the query's words: a word in the name counts
// twice, one in the description or server name once; a word found in more
// than half the tools ("the", "items") counts nothing, as it tells none apart.
func (tb *toolbox) search(query string) map[string]any {
	type text struct{ name, rest string }
	texts := map[string]text{}
	for name, t := range tb.tools {
		if !t.deferOnly {
			texts[name] = text{" " + strings.Join(searchWords(name), " "), " " + strings.Join(searchWords(t.desc+" "+t.server), " ")}
		}
	}
	scores := map[string]int{}
	for _, w := range searchWords(query) {
		w = " " + w // a word's start: "log" finds "logs", not "catalog"
		hit := map[string]int{}
		for name, x := range texts {
			if strings.Contains(x.name, w) {
				hit[name] += 2
			}
			if strings.Contains(x.rest, w) {
				hit[name]++
			}
		}
		if len(hit)*2 > len(texts) {
			continue
		}
		for name, n := range hit {
			scores[name] += n
		}
	}
	hits := make([]string, 0, len(scores))
	for name := range scores {
		hits = append(hits, name)
	}
	sort.Slice(hits, func(i, j int) bool {
		if a, b := scores[hits[i]], scores[hits[j]]; a != b {
			return a > b
		}
		return hits[i] < hits[j]
	})
	res := map[string]any{"how": `run one with call_tool {"name": NAME, "arguments": {...}} (arguments as its parameters say)`}
	found := []foundTool{}
	for _, name := range hits[:min(len(hits), searchMaxFound)] {
		t := tb.tools[name]
		found = append(found, foundTool{Name: t.name, Server: t.server, Description: t.desc, Parameters: json.RawMessage(t.params)})
	}
	res["found"] = found
	if len(hits) > searchMaxFound {
		res["also_matching"] = hits[searchMaxFound:min(len(hits), 4*searchMaxFound)]
	}
	if len(found) == 0 {
		res["note"] = "no tool matches those words; every tool: " + strings.Join(tb.names(), ", ")
	}
	return res
}

// fitSearch holds a search's result to limit characters (0: no limit)
// by whole entries, so the model gets JSON it can read and schemas it can
// call with, never one cut mid-schema: the lowest-ranked found tools go
// back to also_matching by name, and a note says how to get them. One
// entry too long alone keeps its schema and loses the end of its
// description.
func fitSearch(res map[string]any, limit int) map[string]any {
	found, _ := res["found"].([]foundTool)
	size := func() int { return utf8.RuneCountInString(jsonText(res)) + 1 }
	if limit <= 0 || size() <= limit {
		return res
	}
	also, _ := res["also_matching"].([]string)
	for len(found) > 1 && size() > limit {
		last := found[len(found)-1]
		found = found[:len(found)-1]
		also = append([]string{last.Name}, also...)
		res["found"], res["also_matching"] = found, also
		res["note"] = fmt.Sprintf("%d found tools did not fit the result's %d characters and are named in also_matching, best first: search again with words of one of their names to get its schema", len(also), limit)
	}
	if len(found) != 1 {
		return res
	}
	for d := []rune(found[0].Description); len(d) > 0 && size() > limit; {
		d = d[:max(len(d)-(size()-limit)-1, 0)] // escapes may make it longer than counted: again until it fits
		found[0].Description = string(d) + "…"
	}
	if size() > limit { // the schema alone is too long: its arguments' names and types
		found[0].Parameters = briefSchema(found[0].Parameters)
		res["note"] = fmt.Sprintf("%s's schema is given by its arguments' names and types only, to fit the result's %d characters; call_tool says what a call lacks", found[0].Name, limit)
	}
	if size() > limit {
		res["found"], res["also_matching"] = []foundTool{}, append([]string{found[0].Name}, also...)
		res["note"] = fmt.Sprintf("no schema fits the result's %d characters; the tools are named in also_matching, best first: call_tool with one of them says which arguments it takes", limit)
		for names := res["also_matching"].([]string); len(names) > 1 && size() > limit; {
			names = names[:len(names)-1]
			res["also_matching"] = names
		}
	}
	return res
}

// briefSchema is a JSON schema with its arguments' names, types and the
// required list only, "" descriptions and all else gone.
func briefSchema(params json.RawMessage) json.RawMessage {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type,omitempty"`
		} `json:"properties"`
		Required []string `json:"required,omitempty"`
	}
	if json.Unmarshal(params, &s) != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": s.Properties, "required": s.Required})
	return b
}

// searchWords is s lowered and split into words at anything that is not a
// letter or digit (a tool's name at its _ and -); words of one letter go.
func searchWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) > 1 {
			out = append(out, w)
		}
	}
	return out
}

// unwrapCall is call_tool's arguments as the tool they name and that
// tool's own arguments, checked against its schema; why says what is wrong.
func (tb *toolbox) unwrapCall(args map[string]any) (tool, map[string]any, string) {
	name := argString(args, "name", "")
	t, ok := tb.tools[name]
	if !ok || t.deferOnly {
		return tool{}, nil, fmt.Sprintf("call_tool: no tool named %q; find it with tool_search", name)
	}
	inner, ok := args["arguments"].(map[string]any)
	if s, isText := args["arguments"].(string); isText { // some models send the object as JSON text
		ok = json.Unmarshal([]byte(s), &inner) == nil
	}
	if args["arguments"] == nil {
		inner, ok = map[string]any{}, true
	}
	if !ok {
		return tool{}, nil, fmt.Sprintf("call_tool: arguments must be a JSON object of %s's parameters", name)
	}
	if why := schemaMismatch(name, t.params, inner); why != "" {
		return tool{}, nil, why
	}
	return t, inner, ""
}

// schemaMismatch says how args break the top level of a tool's schema
// (params): a required one missing, one of the wrong JSON type, one it
// does not take when it takes no others; "" when they fit or the schema
// cannot be read.
func schemaMismatch(name, params string, args map[string]any) string {
	if why := missingArgs(name, params, args); why != "" {
		return why
	}
	var schema struct {
		Properties           map[string]struct{ Type any } `json:"properties"`
		AdditionalProperties *bool                         `json:"additionalProperties"`
	}
	if json.Unmarshal([]byte(params), &schema) != nil {
		return ""
	}
	for _, k := range sortedKeysOf(args) {
		p, ok := schema.Properties[k]
		switch {
		case !ok && schema.AdditionalProperties != nil && !*schema.AdditionalProperties:
			return fmt.Sprintf("%s was not run: it takes no argument %q (it takes: %s)", name, k, orNone(sortedKeysOf(schema.Properties)))
		case ok && !typeFits(p.Type, args[k]):
			return fmt.Sprintf("%s was not run: %s must be of type %v, not %s", name, k, p.Type, jsonType(args[k]))
		}
	}
	return ""
}

// typeFits reports whether v is of the schema type want (a name, a list of
// names, or absent: anything).
func typeFits(want any, v any) bool {
	switch w := want.(type) {
	case string:
		got := jsonType(v)
		return got == w || w == "number" && got == "integer" || w == "integer" && got == "number" && isWhole(v)
	case []any:
		for _, x := range w {
			if typeFits(x, v) {
				return true
			}
		}
		return len(w) == 0
	}
	return true
}

// isWhole reports whether a JSON number is a whole number.
func isWhole(v any) bool {
	f, ok := v.(float64)
	return ok && f == math.Trunc(f)
}

// jsonType is the JSON schema type name of a decoded value.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// deferredLine is /context's and the notice's account of what is deferred:
// how many, of the built-ins and of each server.
func (o toolOffer) deferredLine(tb *toolbox) string {
	if !o.deferring() {
		return ""
	}
	count := map[string]int{}
	var order []string
	for _, name := range o.deferred {
		src := "built-in"
		if t := tb.tools[name]; t.mcp {
			src = "MCP " + t.server
		}
		if count[src] == 0 {
			order = append(order, src)
		}
		count[src]++
	}
	parts := make([]string, len(order))
	for i, src := range order {
		parts[i] = fmt.Sprintf("%s %d", src, count[src])
	}
	return fmt.Sprintf("%d deferred behind tool_search (%s); all %d schemas are ~%d tokens, the room is %d", len(o.deferred), strings.Join(parts, ", "), len(o.deferred)+len(o.sent)-2, o.all, o.share)
}
