package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestOllama runs the built yaicli against a real Ollama serving the tiny
// llama, through a recorder that logs every request and answer. One server
// for all subtests, which run one at a time (the machine is small); each
// case is a fault the scripted fakes did not show.
func TestOllama(t *testing.T) {
	ready := startOllama(t,
		ollamaModel{"tiny", 1, llama31Template, 0},       // tools; runs Ollama's default 4096 window
		ollamaModel{"tiny-2k", 1, llama31Template, 2048}, // tools; num_ctx 2048
		ollamaModel{"tiny-768", 1, llama31Template, 768}, // tools; the schemas alone overflow it
		ollamaModel{"plain", 1, llama3Template, 1024},    // no tools capability
		ollamaModel{"cold", 2, llama31Template, 0})       // a runner of its own, not loaded before its test
	t.Parallel()
	o := ready()

	t.Run("one-shot stops at MAX_TOKENS and says so", func(t *testing.T) {
		rec := o.proxy(t)
		r := rec.run(t, yai{model: "tiny", args: []string{"hello"}})
		chats := rec.chats()
		if r.code != 0 || strings.TrimSpace(r.stdout) == "" || len(chats) != 1 {
			t.Fatalf("code %d, stdout %q, requests %v; want 0, an answer, one chat request\n%s", r.code, r.stdout, rec.paths(), r.stderr)
		}
		if n := chats[0].tools(); n != 11 {
			t.Errorf("request carried %d tools, want the 11 built-in ones (fs_read_image, fs_file_operations and fs_get_filesystem_info included)", n)
		}
		if !strings.Contains(chats[0].Resp, `"finish_reason":"length"`) {
			t.Fatalf("server did not stop at the limit: %s", tail(chats[0].Resp, 400))
		}
		if !regexp.MustCompile(`stopped at the 8-token output limit.*MAX_TOKENS`).MatchString(r.stderr) {
			t.Errorf("stderr = %q, want the length stop named, with MAX_TOKENS", r.stderr)
		}
	})

	t.Run("window of untagged and tagged names", func(t *testing.T) {
		rec := o.proxy(t)
		for _, c := range []struct{ model, want string }{
			{"tiny", "4096-token window"},        // loaded by the test above: /api/ps lists tiny:latest
			{"tiny:latest", "4096-token window"}, // the name as /api/ps lists it
			{"plain", "1024-token window"},       // num_ctx from /api/show, not loaded
			{"cold", "4096-token window"},        // not loaded, no num_ctx: Ollama's default, not the trained 131072
		} {
			r := rec.run(t, yai{model: c.model, args: []string{"--chat"}, stdin: "/context\n"})
			if !strings.Contains(r.stdout, c.want) {
				t.Errorf("MODEL=%s: /context says\n%s\nwant %q", c.model, r.stdout, c.want)
			}
		}
		if n := len(rec.chats()); n != 0 {
			t.Errorf("/context alone sent %d chat requests, want none", n)
		}
		// The default guessed for "cold" is what the server runs it at once loaded.
		if r := rec.run(t, yai{model: "cold", args: []string{"hi"}}); r.code != 0 {
			t.Fatalf("MODEL=cold: exit %d: %s", r.code, r.stderr)
		}
		r := rec.run(t, yai{model: "cold", args: []string{"--chat"}, stdin: "/context\n"})
		if !strings.Contains(r.stdout, "4096-token window, reported by the ollama server") {
			t.Errorf("MODEL=cold, loaded: /context says\n%s\nwant the 4096 window reported by /api/ps", r.stdout)
		}
	})

	t.Run("a cut to the window is reported", func(t *testing.T) {
		rec := o.proxy(t)
		r := rec.run(t, yai{model: "tiny-2k", args: []string{"summarise"}, stdin: prose(3500),
			env: []string{"YAI_ENABLE_FUNCTIONS=false", "YAI_CONTEXT_BUDGET_TOKENS=100000"}})
		chats := rec.chats()
		if len(chats) != 1 || chats[0].promptTokens() != 2048 {
			t.Fatalf("requests %v, prompt tokens %v; want one request cut to the 2048 window", rec.paths(), promptTokensOf(chats))
		}
		if !strings.Contains(r.stderr, "counted 2048 prompt tokens, its whole 2048-token window") {
			t.Errorf("stderr = %q, want the silent cut reported", r.stderr)
		}
	})

	t.Run("a tool round is no false cut", func(t *testing.T) {
		rec := o.proxy(t)
		// A const schema becomes a grammar of one string: no room for the
		// whitespace random weights would otherwise fill the output with.
		force := `{"response_format":{"type":"json_schema","json_schema":{"name":"call","schema":` +
			`{"const":{"name":"fs_list_directory","parameters":{"directory_path":"."}}}}}}`
		r := rec.run(t, yai{model: "tiny", args: []string{"list the files"}, env: []string{"YAI_EXTRA_BODY=" + force,
			"YAI_MAX_TOKENS=48", "YAI_MAX_TOOL_CALL_DEPTH=1", "YAI_EXIT_ON_DEPTH_LIMIT=false"}})
		chats := rec.chats()
		if len(chats) < 2 || !strings.Contains(chats[0].Resp, `"tool_calls"`) {
			t.Fatalf("requests %v, first answer %s; want a tool call, then a second round", rec.paths(), tail(chats[0].Resp, 500))
		}
		first, second := chats[0].promptTokens(), chats[1].promptTokens()
		if second*2 > first {
			t.Fatalf("round 2 counted %d tokens, round 1 %d: the template was expected to drop the schemas", second, first)
		}
		if strings.Contains(r.stderr, "cut the conversation") {
			t.Errorf("stderr = %q, want no cut warning: the template dropped the schemas, nothing was cut", r.stderr)
		}
	})

	t.Run("a model without tools: capabilities up front, cached", func(t *testing.T) {
		rec := o.proxy(t)
		home := t.TempDir()
		for run := 1; run <= 2; run++ {
			r := rec.run(t, yai{home: home, model: "plain", args: []string{"hello"}})
			if r.code != 0 || !strings.Contains(r.stderr, "takes no tools") {
				t.Errorf("run %d: code %d, stderr %q; want 0 and the no-tools note", run, r.code, r.stderr)
			}
			if strings.Contains(r.stderr, "this turn alone") {
				t.Errorf("run %d: stderr = %q, want no over-budget warning for \"hello\"", run, r.stderr)
			}
		}
		shows := 0
		for _, p := range rec.paths() {
			if strings.HasSuffix(p, " 400") {
				t.Errorf("requests %v: want no 400 round trip", rec.paths())
			}
			if strings.Contains(p, "/api/show") {
				shows++
			}
		}
		for _, c := range rec.chats() {
			if c.tools() != 0 {
				t.Errorf("a request carried %d tools to a model without the capability", c.tools())
			}
		}
		if shows != 1 {
			t.Errorf("requests %v: want /api/show asked once, its answer cached for the second run", rec.paths())
		}
	})

	t.Run("context after the server refused tools", func(t *testing.T) {
		rec := o.proxy(t)
		r := rec.run(t, yai{model: "plain", args: []string{"--chat"}, stdin: "hello\n/context\n"})
		chats := rec.chats()
		if len(chats) != 1 {
			t.Fatalf("requests %v, want one chat request", rec.paths())
		}
		m := regexp.MustCompile(`total\s+(\d+)`).FindStringSubmatch(r.stdout)
		if m == nil || !strings.Contains(r.stdout, "tool schemas (0 tools)") {
			t.Fatalf("/context = %q, want no tool schemas counted", r.stdout)
		}
		var total int
		fmt.Sscan(m[1], &total)
		if p := chats[0].promptTokens(); total > 2*p+50 {
			t.Errorf("/context total %d, server counted %d: the estimate still counts what is not sent", total, p)
		}
	})

	t.Run("pre-flight warning names what Ollama does", func(t *testing.T) {
		rec := o.proxy(t)
		r := rec.run(t, yai{model: "tiny-2k", args: []string{"summarise"}, stdin: prose(1500),
			env: []string{"YAI_ENABLE_FUNCTIONS=false"}})
		if !strings.Contains(r.stderr, "this turn alone") || strings.Contains(r.stderr, "may reject") ||
			!strings.Contains(r.stderr, "cuts it silently") {
			t.Errorf("stderr = %q, want the over-budget warning to say Ollama cuts silently, not that it may reject", r.stderr)
		}
	})

	t.Run("tool schemas are the weight: fewer tools, not a cut", func(t *testing.T) {
		rec := o.proxy(t)
		r := rec.run(t, yai{model: "tiny-768", args: []string{"hello"}})
		chats := rec.chats()
		if r.code != 0 || len(chats) != 1 {
			t.Fatalf("code %d, requests %v\n%s", r.code, rec.paths(), r.stderr)
		}
		if n, p := chats[0].tools(), chats[0].promptTokens(); n >= 8 || p >= 768 {
			t.Errorf("sent %d tools, server counted %d of its 768: want fewer tools and no cut", n, p)
		}
		if !strings.Contains(r.stderr, "ENABLE_FUNCTIONS=false") || strings.Contains(r.stderr, "this turn alone") {
			t.Errorf("stderr = %q, want the tools named as the weight, with ENABLE_FUNCTIONS=false", r.stderr)
		}
	})

	// Last: it reloads tiny at another context.
	t.Run("NUM_CTX runs the model at that context", func(t *testing.T) { numCtxRuns(t, o) })
}

// prose is about n Llama 3 tokens of plain English (each sentence ten).
func prose(n int) string {
	sentences := []string{"The quick brown fox jumps over the lazy dog. ", "A small model reads every line of this file. ",
		"Nothing here matters except how long it is. ", "Servers count tokens before they answer anything. "}
	var b strings.Builder
	for i := 0; i < n/10; i++ {
		b.WriteString(sentences[i%len(sentences)])
	}
	return b.String()
}

// promptTokensOf lists each exchange's reported prompt tokens.
func promptTokensOf(chats []exchange) []int {
	var out []int
	for _, c := range chats {
		out = append(out, c.promptTokens())
	}
	return out
}
