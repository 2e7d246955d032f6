package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deepTool is the "many" server's tool a task needs: last by name, so it
// is never among the tools a request carries when schemas are deferred.
const deepTool = "vault_rotate_credentials"

// manyTools is the fake "many" MCP server's list: 119 generated tools of
// ~420 tokens each and deepTool, ~50k tokens of schemas in all.
func manyTools() []any {
	domains := []string{"github", "jira", "slack", "postgres", "kubernetes", "aws", "gcp", "stripe", "sentry", "datadog", "notion", "linear"}
	verbs := []string{"create", "list", "get", "update", "delete", "search", "archive", "export", "import", "sync"}
	filler := "Results are paginated: pass the cursor from the previous page to continue, and at most page_size items come back. " +
		"Rate limits apply per token; a 429 answer is retried after the delay the service names. Fields not listed are ignored. " +
		"Timestamps are RFC 3339 in UTC; identifiers are opaque strings that must be passed back exactly as received. "
	var out []any
	for _, d := range domains {
		for _, v := range verbs {
			if len(out) == 119 {
				break
			}
			props := map[string]any{}
			for i, p := range []string{"id", "owner", "project", "cursor", "page_size", "filter", "fields", "dry_run"} {
				typ := "string"
				if i == 4 {
					typ = "integer"
				}
				props[p] = map[string]any{"type": typ, "description": fmt.Sprintf("The %s of the %s object to %s; see the %s documentation for the accepted forms and limits.", p, d, v, d)}
			}
			out = append(out, map[string]any{"name": d + "_" + v + "_items",
				"description": fmt.Sprintf("%s the %s items of an account (%s API). ", strings.ToUpper(v[:1])+v[1:], d, d) + filler + filler,
				"inputSchema": map[string]any{"type": "object", "properties": props, "required": []string{"project"}}})
		}
	}
	return append(out, map[string]any{"name": deepTool,
		"description": "Rotate the database credentials stored at a Vault path and return the new lease.",
		"inputSchema": map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"path": map[string]any{"type": "string"}, "ttl_hours": map[string]any{"type": "integer"}},
			"required":   []string{"path", "ttl_hours"}}})
}

// manyCalled is the "many" server's answer to a call: the tool's name and
// its arguments.
func manyCalled(params json.RawMessage) string {
	var p struct {
		Name      string
		Arguments map[string]any
	}
	json.Unmarshal(params, &p)
	b, _ := json.Marshal(p.Arguments)
	return "many-mcp ran " + p.Name + " " + string(b)
}

// manyConfig writes an mcp.json with the "many" server as "big".
func manyConfig(t *testing.T) string {
	t.Helper()
	slowTest(t) // a server process
	p := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"big": selfServer("many")}})
	os.WriteFile(p, b, 0o600)
	return p
}

// sentSchemas decodes an OpenAI request's tools and prices them as model's
// family does.
func sentSchemas(model string, r received) ([]toolSpec, int) {
	var body struct{ Tools []toolSpec }
	json.Unmarshal(r.Raw, &body)
	return body.Tools, familyOf(model).toolsTokens(body.Tools)
}

// modelFinds is a scripted model that finds a tool the way a model does:
// it searches with the task's words, reads the result, and calls the first
// tool found with arguments made from that tool's schema; then it answers.
func modelFinds(t *testing.T, query string, first func(r received)) []step {
	return []step{
		func(w http.ResponseWriter, r received) {
			first(r)
			sse(toolStream(fakeCall{"c1", toolSearchName, fmt.Sprintf(`{"query":%q}`, query)}))(w, r)
		},
		func(w http.ResponseWriter, r received) {
			m := r.messages()
			sse(toolStream(fakeCall{"c2", toolCallName, callFromSearch(t, m[len(m)-1].Content)}))(w, r)
		},
		func(w http.ResponseWriter, r received) {
			m := r.messages()
			sse(textStream("done: "+m[len(m)-1].Content))(w, r)
		},
	}
}

// callFromSearch is call_tool's arguments for the first tool a
// tool_search result names, each required argument made up by its type.
func callFromSearch(t *testing.T, result string) string {
	var res struct {
		Found []struct {
			Name       string
			Parameters struct {
				Properties map[string]struct{ Type string }
				Required   []string
			}
		}
	}
	if err := json.Unmarshal([]byte(result), &res); err != nil || len(res.Found) == 0 {
		t.Errorf("tool_search result %q: %v", result, err)
		return `{}`
	}
	f := res.Found[0]
	args := map[string]any{}
	for _, k := range f.Parameters.Required {
		switch f.Parameters.Properties[k].Type {
		case "integer", "number":
			args[k] = 24
		case "boolean":
			args[k] = true
		default:
			args[k] = "secret/db"
		}
	}
	b, _ := json.Marshal(map[string]any{"name": f.Name, "arguments": args})
	return string(b)
}

// TestDeferredSchemasFindDeepTool: with a server of 120 tools (~50k
// tokens of schemas), the first request's tool schemas take at most 15% of
// the budget on an 8k and a 128k window, built-ins first; a model that
// reads what tool_search returns reaches the deep tool in its second round
// and the server runs it with the arguments given.
func TestDeferredSchemasFindDeepTool(t *testing.T) {
	t.Parallel()
	cfg := manyConfig(t)
	for _, c := range []struct {
		model  string
		budget int
	}{{"gpt-4", 5734}, {"gpt-4o", 89600}} {
		t.Run(c.model, func(t *testing.T) {
			var tokens int
			var names []string
			fp := newFakeProvider(t, modelFinds(t, "rotate the database credentials", func(r received) {
				var specs []toolSpec
				specs, tokens = sentSchemas(c.model, r)
				for _, s := range specs {
					names = append(names, s.Function.Name)
				}
			})...)
			r := runBinary(t, fp, e2e{args: []string{"--enable-mcp", "--yes", "rotate the db credentials"},
				env: []string{"YAI_MODEL=" + c.model, "YAI_MCP_CONFIG=" + cfg}})
			if r.code != 0 || !strings.Contains(r.stdout, "many-mcp ran "+deepTool+` {\"path\":\"secret/db\",\"ttl_hours\":24}`) {
				t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
			}
			rounds := len(fp.chats()) - 1 // the model rounds up to the one that called the deep tool
			t.Logf("%s: first request's tool schemas ~%d tokens (%d tools) of a %d-token budget (%.1f%%); the deep tool called in model round %d",
				c.model, tokens, len(names), c.budget, float64(tokens)*100/float64(c.budget), rounds)
			if tokens*100 > c.budget*15 || rounds > 3 {
				t.Errorf("tool schemas ~%d tokens of %d (over 15%%), or %d rounds", tokens, c.budget, rounds)
			}
			if names[0] != "execute_shell_command" || names[len(names)-2] != toolSearchName || names[len(names)-1] != toolCallName {
				t.Errorf("tools sent: %v, want the built-ins first and the discovery tools last", names)
			}
			if !matches(`tool schemas: \d+ deferred behind tool_search \((built-in \d+, )?MCP big \d+\); all 132 schemas are ~\d+ tokens`, r.stderr) {
				t.Errorf("no notice of the deferred tools: %s", r.stderr)
			}
		})
	}
}

// TestDeferredShares: one server's huge schema and a server of 120 crowd
// out neither the built-ins nor a small server's tools; every tool is
// sent or deferred, none dropped; and a call_tool whose arguments break
// the tool's schema is answered with why, not run.
func TestDeferredShares(t *testing.T) {
	tb, _ := testToolbox(t, "auto", nil)
	var mcp []tool
	add := func(server, name, desc, params string) {
		mcp = append(mcp, tool{name: mcpToolName(server, name), desc: desc, params: params, mcp: true, server: server})
	}
	add("huge", "everything", strings.Repeat("a very long description ", 4000), `{"type":"object"}`)
	for _, x := range manyTools() {
		m := x.(map[string]any)
		b, _ := json.Marshal(m["inputSchema"])
		add("many", m["name"].(string), m["description"].(string), string(b))
	}
	add("small", "ping", "Ping a host.", `{"type":"object","properties":{"host":{"type":"string"}},"required":["host"]}`)
	tb.setMCP(mcp)
	fam := familyOf("gpt-4o")
	count := func(s []toolSpec) int { return fam.toolsTokens(s) }
	for _, budget := range []int{5734, 89600} {
		o := tb.choose(tb.specs(), budget, count)
		sent := map[string]bool{}
		for _, s := range o.sent {
			sent[s.Function.Name] = true
		}
		t.Logf("budget %d: %d tools sent, ~%d tokens (%.1f%%); %s", budget, len(o.sent), o.tokens, float64(o.tokens)*100/float64(budget), o.deferredLine(tb))
		if o.tokens > budget*15/100 || count(o.sent) != o.tokens {
			t.Errorf("budget %d: ~%d tokens sent", budget, o.tokens)
		}
		if !sent["execute_shell_command"] || !sent["fs_read_file"] || budget > 10000 && !sent["mcp__small__ping"] || sent["mcp__huge__everything"] {
			t.Errorf("budget %d: crowded out: %v", budget, sent)
		}
		if len(o.sent)-2+len(o.deferred) != len(tb.specs()) {
			t.Errorf("budget %d: %d sent + %d deferred of %d", budget, len(o.sent)-2, len(o.deferred), len(tb.specs()))
		}
	}
	for args, want := range map[string]string{
		`{"name":"mcp__many__vault_rotate_credentials","arguments":{"path":"p"}}`:                            "ttl_hours is required",
		`{"name":"mcp__many__vault_rotate_credentials","arguments":{"path":"p","ttl_hours":"2"}}`:            "ttl_hours must be of type integer, not string",
		`{"name":"mcp__many__vault_rotate_credentials","arguments":{"path":"p","ttl_hours":2,"force":true}}`: `takes no argument \"force\"`,
		`{"name":"nope","arguments":{}}`: `no tool named \"nope\"; find it with tool_search`,
	} {
		m := tb.call(t.Context(), toolCall{ID: "x", Function: functionCall{Name: toolCallName, Arguments: args}})
		if !strings.Contains(m.Content, want) {
			t.Errorf("call_tool %s = %s, want %q", args, m.Content, want)
		}
	}
}

// TestHelpSaysDeferral: --help says when schemas are deferred and where
// to see which.
func TestHelpSaysDeferral(t *testing.T) {
	for _, want := range []string{"TOOL_SCHEMA_SHARE", "tool_search", "/context says what is deferred", "--no-project-instructions"} {
		if !strings.Contains(usageText, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// TestToolSearchRanks: a word in a tool's name outranks one in another
// tool's description; nothing found lists every tool.
func TestToolSearchRanks(t *testing.T) {
	tb, _ := testToolbox(t, "auto", nil)
	res := tb.search("edit a file")
	found := res["found"].([]foundTool)
	if len(found) == 0 || found[0].Name != "fs_edit_file" || !json.Valid(found[0].Parameters) {
		t.Errorf("search(edit a file) = %+v", found)
	}
	if res := tb.search("zzqx"); !strings.Contains(res["note"].(string), "fs_write_file") {
		t.Errorf("search(zzqx) = %v", res)
	}
}

// TestDeferralKeepsCache: session A against both simulated caches at the
// model's default budget, with every schema sent and with all deferred
// (TOOL_SCHEMA_SHARE=0: only tool_search and call_tool are sent; the
// script calls its tool by name): the cached share of the prompt moves by
// under 2 points, as the tools list stays the same all session either way.
func TestDeferralKeepsCache(t *testing.T) {
	slowTest(t)
	t.Parallel()
	for _, anthropic := range []bool{true, false} {
		all := runCacheSession(t, simSession(), anthropic, 0, nil)
		deferred := runCacheSession(t, simSession(), anthropic, 0, map[string]string{"YAI_TOOL_SCHEMA_SHARE": "0"})
		t.Logf("anthropic %v: %.1f%% cached with every schema, %.1f%% deferred (%d and %d prompt tokens)",
			anthropic, 100*all.share(), 100*deferred.share(), all.sim.prompt, deferred.sim.prompt)
		if d := all.share() - deferred.share(); d > 0.02 || d < -0.02 || deferred.sim.leadChanges > 0 || deferred.sim.misses > 0 {
			t.Errorf("anthropic %v: cached %.1f%% against %.1f%%, %d lead changes, %d misses", anthropic, 100*all.share(), 100*deferred.share(), deferred.sim.leadChanges, deferred.sim.misses)
		}
	}
}

// ollamaCall is an Ollama /api/chat answer calling one tool.
func ollamaCall(name, args string) string {
	return `{"model":"llama3.2","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"` + name + `","arguments":` + args + `}}]},"done":false}
{"model":"llama3.2","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":300,"eval_count":20}
`
}

// TestDeferredSchemasOllama: on Ollama's native wire (8k NUM_CTX) the
// first request carries the compact set with tool_search, and a found
// tool runs through call_tool.
func TestDeferredSchemasOllama(t *testing.T) {
	t.Parallel()
	cfg := manyConfig(t)
	o := newNativeOllama(t, ollamaCall(toolSearchName, `{"query":"rotate credentials"}`),
		ollamaCall(toolCallName, `{"name":"mcp__big__`+deepTool+`","arguments":{"path":"secret/db","ttl_hours":24}}`), ollamaTextLines)
	r := o.run(t, []string{"--enable-mcp", "--yes", "rotate the db credentials"}, "YAI_NUM_CTX=8192", "YAI_MCP_CONFIG="+cfg)
	if r.code != 0 || len(o.reqs) != 3 {
		t.Fatalf("code %d, %d requests\n%s", r.code, len(o.reqs), r.stderr)
	}
	var body struct{ Tools []toolSpec }
	b, _ := json.Marshal(o.reqs[0])
	json.Unmarshal(b, &body)
	tokens := familyOf("llama3.2").toolsTokens(body.Tools)
	if len(body.Tools) == 0 || body.Tools[len(body.Tools)-2].Function.Name != toolSearchName || tokens*100 > 8192*70/100*15 {
		t.Errorf("first request's tools: %d, ~%d tokens", len(body.Tools), tokens)
	}
	b, _ = json.Marshal(o.reqs[2]["messages"])
	if !strings.Contains(string(b), "many-mcp ran "+deepTool) {
		t.Errorf("the deep tool's result is not in the third request: %.600s", b)
	}
}

// anthropicToolUse is an Anthropic stream calling one tool.
func anthropicToolUse(id, name, input string) string {
	b, _ := json.Marshal(input)
	return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"input\":{}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + string(b) + "}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":15}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
}

// TestDeferredSchemasAnthropic: on Anthropic's wire the first request
// carries the compact set, tool_search and call_tool last, and a found
// tool runs through call_tool; its result reaches the next request.
func TestDeferredSchemasAnthropic(t *testing.T) {
	t.Parallel()
	cfg := manyConfig(t)
	fp := newFakeProvider(t,
		check(sse(anthropicToolUse("toolu_1", toolSearchName, `{"query":"rotate credentials"}`)), func(r received) {
			a := decodeAnthropic(t, r)
			if n := len(a.Tools); n < 3 || a.Tools[n-2].Name != toolSearchName || a.Tools[n-1].Name != toolCallName {
				t.Errorf("tools = %d, want the compact set and the discovery tools last", n)
			}
		}),
		check(sse(anthropicToolUse("toolu_2", toolCallName, `{"name":"mcp__big__`+deepTool+`","arguments":{"path":"secret/db","ttl_hours":24}}`)), func(r received) {
			if !strings.Contains(string(r.Raw), deepTool) {
				t.Errorf("the search result did not reach the model")
			}
		}),
		check(sse(anthropicText("rotated")), func(r received) {
			if !strings.Contains(string(r.Raw), "many-mcp ran "+deepTool) {
				t.Errorf("the deep tool's result is not in the third request")
			}
		}))
	r := runBinary(t, fp, e2e{args: []string{"--enable-mcp", "--yes", "rotate the db credentials"},
		env: []string{"YAI_PROVIDER=anthropic", "YAI_MODEL=claude-sonnet-4-5", "YAI_CONTEXT_BUDGET_TOKENS=5734", "YAI_MCP_CONFIG=" + cfg}})
	if r.code != 0 || r.stdout != "rotated\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestCallToolPreviewFollowsMCPSetting: SHOW_MCP_OUTPUT=false (the
// default) hides an MCP tool's result from the preview whether it is run
// by its name or through call_tool; set to true, both show it.
func TestCallToolPreviewFollowsMCPSetting(t *testing.T) {
	for _, show := range []bool{false, true} {
		tb, preview := testToolbox(t, "auto", nil)
		tb.o.showMCP = show
		tb.setMCP([]tool{{name: mcpToolName("s", "echo"), desc: "Echo.", params: `{"type":"object"}`, mcp: true, server: "s",
			run: func(_ context.Context, _ map[string]any, out io.Writer) error {
				_, err := io.WriteString(out, `{"said":"mcp-result-marker"}`)
				return err
			}}})
		tb.choose(tb.specs(), 1000, familyOf("gpt-4o").toolsTokens) // a small window: schemas deferred, call_tool offered
		for _, c := range []toolCall{
			call("1", "mcp__s__echo", `{}`),
			call("2", toolCallName, `{"name":"mcp__s__echo","arguments":{}}`),
		} {
			preview.Reset()
			m := tb.call(t.Context(), c)
			if !strings.Contains(m.Content, "mcp-result-marker") {
				t.Fatalf("%s did not run the tool: %s", c.Function.Name, m.Content)
			}
			if got := strings.Contains(preview.String(), "mcp-result-marker"); got != show {
				t.Errorf("SHOW_MCP_OUTPUT=%v, %s: result in the preview %v:\n%s", show, c.Function.Name, got, preview)
			}
		}
	}
}

// TestToolSearchFitsItsCap: a tool_search result longer than its cap is
// held to it by whole entries: valid JSON whose found tools keep their
// whole schemas, the rest named in also_matching, best first, with a note;
// one entry alone longer than the cap keeps its schema.
func TestToolSearchFitsItsCap(t *testing.T) {
	for _, limit := range []int{4000, 9000, 1000, 600} {
		cfg, _ := load(t, "", nil, map[string]string{"TOOL_APPROVAL": "auto", "TOOL_OUTPUT_MAX_CHARS": fmt.Sprint(limit), "TOOL_OUTPUT_DIR": filepath.Join(t.TempDir(), "spill")})
		tb := newToolbox(cfg.toolbox(), cfg.redactor(), io.Discard, nil, nil)
		var mcp []tool
		for _, x := range manyTools() {
			m := x.(map[string]any)
			b, _ := json.Marshal(m["inputSchema"])
			mcp = append(mcp, tool{name: mcpToolName("many", m["name"].(string)), desc: m["description"].(string), params: string(b), mcp: true, server: "many"})
		}
		tb.setMCP(mcp)
		tb.choose(tb.specs(), 1000, familyOf("gpt-4o").toolsTokens)
		whole := tb.search("github")
		m := tb.call(t.Context(), call("s", toolSearchName, `{"query":"github"}`))
		var got struct {
			Found []struct {
				Name        string
				Description string
				Parameters  map[string]any
			}
			AlsoMatching []string `json:"also_matching"`
			Note         string
		}
		if err := json.Unmarshal([]byte(m.Content), &got); err != nil {
			t.Fatalf("cap %d: the result is not JSON (%v):\n%s", limit, err, m.Content)
		}
		if n := len([]rune(m.Content)); n > limit+1 || len(got.Found) == 0 && limit > 600 {
			t.Errorf("cap %d: %d characters, %d found", limit, n, len(got.Found))
		}
		wholeFound := whole["found"].([]foundTool)
		var order []string
		for _, f := range wholeFound {
			order = append(order, f.Name)
		}
		order = append(order, whole["also_matching"].([]string)...)
		var gotOrder []string
		for _, f := range got.Found {
			gotOrder = append(gotOrder, f.Name)
			if len(f.Parameters["properties"].(map[string]any)) != 8 {
				t.Errorf("cap %d: %s's schema is not whole", limit, f.Name)
			}
		}
		gotOrder = append(gotOrder, got.AlsoMatching...)
		if want := strings.Join(order, " "); (limit > 600 && strings.Join(gotOrder, " ") != want) || !strings.HasPrefix(want, strings.Join(gotOrder, " ")) || got.Note == "" {
			t.Errorf("cap %d: found then also_matching %v, want %v; note %q", limit, gotOrder, order, got.Note)
		}
	}
}
