package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The real-server tests: a real `ollama serve` on loopback, its models in a
// temporary directory, serving the tiny llama of gguf_test.go. .ci/run
// builds the server (.ci/ollama-build) and sets YAICLI_OLLAMA; by hand:
//
//	YAICLI_OLLAMA=$(.ci/ollama-build) go test -run TestOllama -v .
//
// Without the binary the tests skip, except under CI=true, where they fail.

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
		ollamaModel{"cold", 2, llama31Template, 0},       // a runner of its own, not loaded before its test
		ollamaModel{"tiny-qwen", 1, qwenTemplate, 0})     // tools; the server reads calls only inside <tool_call>
	t.Parallel()
	o := ready()

	t.Run("one-shot stops at MAX_TOKENS and says so", func(t *testing.T) {
		rec := o.proxy(t)
		r := rec.run(t, yai{model: "tiny", args: []string{"hello"}})
		chats := rec.chats()
		// Random weights may answer with whitespace alone (what they pick
		// follows the prompt's tokens): an answer is whatever reached stdout.
		if r.code != 0 || r.stdout == "" || len(chats) != 1 {
			t.Fatalf("code %d, stdout %q, requests %v; want 0, an answer, one chat request\n%s", r.code, r.stdout, rec.paths(), r.stderr)
		}
		// Ollama's default 4096 window: the 12 built-ins' schemas are past
		// TOOL_SCHEMA_SHARE of its budget, so the first ones come with
		// tool_search and call_tool, which reach the rest.
		if b, _ := json.Marshal(chats[0].Req["tools"]); chats[0].tools() >= 12 || !strings.Contains(string(b), `"tool_search"`) || !strings.Contains(string(b), `"call_tool"`) {
			t.Errorf("request carried %d tools, want a compact set with tool_search and call_tool on a 4096 window", chats[0].tools())
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

	t.Run("requests append, and again after a reduction, at one num_ctx", func(t *testing.T) {
		rec := o.proxy(t)
		// The native API (NUM_CTX set), tools off, a small budget: a chat
		// whose questions grow it past the budget once, so the history is
		// reduced once, and appended to before and after.
		var in strings.Builder
		for q := 1; q <= 10; q++ {
			fmt.Fprintf(&in, "question %d: %s\n", q, prose(120))
		}
		from := o.loads.count()
		r := rec.run(t, yai{model: "tiny", args: []string{"--chat"}, stdin: in.String(),
			env: []string{"YAI_NUM_CTX=2048", "YAI_ENABLE_FUNCTIONS=false", "YAI_MAX_TOKENS=8", "YAI_CONTEXT_BUDGET_TOKENS=1000"}})
		var native []exchange
		rec.mu.Lock()
		for _, e := range rec.log {
			if e.Path == "/api/chat" {
				native = append(native, e)
			}
		}
		rec.mu.Unlock()
		if r.code != 0 || len(native) != 10 {
			t.Fatalf("code %d, %d native chat requests (%v); want 0 and 10\n%s", r.code, len(native), rec.paths(), r.stderr)
		}
		checkSeam(t, o)
		// prompt_eval_count is the whole prompt, reused tokens included;
		// what the runner evaluated is in its log.
		loads := o.evaluated(t, from, native)
		appends, reductions, afterReduction := 0, 0, 0
		for i, e := range native {
			opts, _ := e.Req["options"].(map[string]any)
			if n, _ := opts["num_ctx"].(float64); n != 2048 {
				t.Errorf("request %d: num_ctx %v, want 2048 on every request (a change reloads the model)", i+1, opts["num_ctx"])
			}
			if i == 0 {
				continue
			}
			l, prompt := loads[i], e.promptTokens()
			if !appendsTo(native[i-1], e) {
				reductions++
				t.Logf("request %d rewrites (a reduction): %d of its %d prompt tokens evaluated, %d reused", i+1, l.remaining, prompt, l.used)
				continue
			}
			appends++
			if reductions > 0 {
				afterReduction++
			}
			newPart := prompt - native[i-1].promptTokens()
			t.Logf("request %d appends: %d of its %d prompt tokens evaluated, the new part %d", i+1, l.remaining, prompt, newPart)
			if l.remaining > newPart+seamSlack {
				t.Errorf("request %d appends %d tokens to the one before, but the server evaluated %d of its %d (reused %d of the slot's %d): want at most %d",
					i+1, newPart, l.remaining, prompt, l.used, l.cache, newPart+seamSlack)
			}
		}
		t.Logf("%d requests append, %d rewrite (a reduction), %d append after one", appends, reductions, afterReduction)
		if reductions == 0 || afterReduction < 2 {
			t.Errorf("%d reductions, %d appending requests after one; want a reduction and appends after it", reductions, afterReduction)
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
		from := o.loads.count()
		r := rec.run(t, yai{model: "tiny", args: []string{"list the files"}, env: []string{"YAI_EXTRA_BODY=" + force,
			"YAI_MAX_TOKENS=48", "YAI_MAX_TOOL_CALL_DEPTH=1", "YAI_EXIT_ON_DEPTH_LIMIT=false"}})
		chats := rec.chats()
		// With the schemas deferred on this window the server may leave the
		// call as text; yaicli then runs it as a call (textcalls.go).
		if len(chats) < 2 || !strings.Contains(chats[0].Resp, `"tool_calls"`) && !strings.Contains(r.stderr, "wrote its tool call as text") {
			t.Fatalf("requests %v, first answer %s; want a tool call, then a second round", rec.paths(), tail(chats[0].Resp, 500))
		}
		first, second := chats[0].promptTokens(), chats[1].promptTokens()
		// Round 2 holds more messages than round 1 but no schemas: fewer tokens.
		if second >= first {
			t.Fatalf("round 2 counted %d tokens, round 1 %d: the template was expected to drop the schemas", second, first)
		}
		if strings.Contains(r.stderr, "cut the conversation") {
			t.Errorf("stderr = %q, want no cut warning: the template dropped the schemas, nothing was cut", r.stderr)
		}
		// The request appends, but the template renders the user's message
		// otherwise once it is not the last: the server evaluates again
		// from that message on (tiny-qwen's, with the schemas up front,
		// appends: the test of a call written as text).
		checkSeam(t, o)
		loads := o.evaluated(t, from, chats[:2])
		t.Logf("round 2: %d of its %d prompt tokens evaluated, %d reused of round 1's %d", loads[1].remaining, second, loads[1].used, first)
		if !appendsTo(chats[0], chats[1]) || loads[1].used >= first-seamSlack {
			t.Errorf("round 2 appends: %v; it reused %d tokens of round 1's %d; want an appending request whose prefix the template changed",
				appendsTo(chats[0], chats[1]), loads[1].used, first)
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
		// On a window this small the schemas are deferred behind tool_search
		// (tooldefer.go), so they fit: no cut, and nothing blamed on this turn.
		if strings.Contains(r.stderr, "cut the conversation") || strings.Contains(r.stderr, "this turn alone") {
			t.Errorf("stderr = %q, want no cut and nothing blamed on the turn", r.stderr)
		}
		if b, _ := json.Marshal(chats[0].Req["tools"]); !strings.Contains(string(b), `"tool_search"`) {
			t.Errorf("the request did not offer tool_search: the deferred tools cannot be reached")
		}
	})

	t.Run("a call written as text runs as a call", func(t *testing.T) {
		rec := o.proxy(t)
		// The template's calls are <tool_call> blocks, so Ollama reads only
		// those as calls; the grammar makes the model write one bare, as
		// small Qwen models do when they leave the tags out. Ollama answers
		// it as text; yaicli runs it, and the next request carries it as a
		// real call, which the server takes.
		// fs_read_file is among the tools a 4096 window offers (the rest
		// are deferred behind tool_search, and a call of one not offered is
		// an answer).
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, "notes.txt"), []byte("the notes of the test\n"), 0o644)
		force := `{"response_format":{"type":"json_schema","json_schema":{"name":"call","schema":` +
			`{"const":{"name":"fs_read_file","arguments":{"file_paths":"notes.txt"}}}}}}`
		from := o.loads.count()
		r := rec.run(t, yai{home: home, model: "tiny-qwen", args: []string{"read my notes"}, env: []string{"YAI_EXTRA_BODY=" + force,
			"YAI_MAX_TOKENS=64", "YAI_MAX_TOOL_CALL_DEPTH=1", "YAI_EXIT_ON_DEPTH_LIMIT=false", "YAI_TOOL_READ_ROOTS=" + home}})
		chats := rec.chats()
		if len(chats) < 2 || strings.Contains(chats[0].Resp, `"tool_calls"`) || !strings.Contains(chats[0].answer(), `"fs_read_file"`) {
			t.Fatalf("requests %v, first answer %s; want the call as text, then a second round", rec.paths(), tail(chats[0].Resp, 600))
		}
		if !strings.Contains(r.stderr, "wrote its tool call as text (JSON)") || !strings.Contains(r.stderr, "@Function call: fs_read_file") {
			t.Errorf("stderr = %q, want the call read from text and run", r.stderr)
		}
		b, _ := json.Marshal(chats[1].Req["messages"])
		if chats[1].Status != 200 || !strings.Contains(string(b), `"id":"call_text_1"`) || !strings.Contains(string(b), `"tool_call_id":"call_text_1"`) ||
			!strings.Contains(string(b), "the notes of the test") {
			t.Errorf("second request (status %d) does not carry the call and its result: %s", chats[1].Status, tail(string(b), 800))
		}
		if strings.Contains(r.stdout, "fs_read_file") {
			t.Errorf("stdout = %q: the call's text reached the answer", r.stdout)
		}
		// The template shows the schemas in the system message, the same
		// on every request: the tool round appends, and the server
		// evaluates only its new part (the call and its result).
		checkSeam(t, o)
		loads := o.evaluated(t, from, chats[:2])
		first, second := chats[0].promptTokens(), chats[1].promptTokens()
		t.Logf("round 2: %d of its %d prompt tokens evaluated, the new part %d", loads[1].remaining, second, second-first)
		if !appendsTo(chats[0], chats[1]) || loads[1].remaining > second-first+seamSlack {
			t.Errorf("round 2 appends: %v; it evaluated %d of its %d tokens (reused %d); want an appending request that evaluates at most %d",
				appendsTo(chats[0], chats[1]), loads[1].remaining, second, loads[1].used, second-first+seamSlack)
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

// ollamaVersion is the server the tests were written against; its module
// also ships the Llama 3 vocabulary the tiny model uses.
const ollamaVersion = "v0.17.4"

// needOllama returns what the tests need from outside: the server binary
// and the directory of the Llama 3 vocabulary. Missing either skips the
// test, or fails it in CI, where .ci/run provides both.
func needOllama(t *testing.T) (bin, vocab string) {
	t.Helper()
	missing := func(what string) {
		t.Helper()
		msg := what + ": run `YAICLI_OLLAMA=$(.ci/ollama-build) go test -run TestOllama .` (docs/DEVELOPING.md: Tests against a real Ollama)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		skipWithout(t, "ollama", msg)
	}
	bin = os.Getenv("YAICLI_OLLAMA")
	if bin == "" {
		bin, _ = exec.LookPath("ollama")
	}
	if bin == "" {
		missing("no Ollama server binary (YAICLI_OLLAMA unset, none on PATH)")
	}
	vocab = os.Getenv("YAICLI_OLLAMA_VOCAB")
	if vocab == "" {
		out, _ := exec.Command("go", "env", "GOMODCACHE").Output()
		vocab = filepath.Join(strings.TrimSpace(string(out)), "github.com/ollama/ollama@"+ollamaVersion, "tokenizer/testdata/llama3.2")
	}
	if _, err := os.Stat(filepath.Join(vocab, "encoder.json")); err != nil {
		missing("no Llama 3 vocabulary at " + vocab + " (go mod download github.com/ollama/ollama@" + ollamaVersion + ")")
	}
	return bin, vocab
}

// ollama is one running server and what it needs to create models.
type ollama struct {
	bin   string
	url   string // http://127.0.0.1:PORT
	env   []string
	log   *lockedBuffer
	dir   string
	ggufs map[uint64]string // the tiny model's files by seed
	// loads are the runner's cache loads, read from its debug log: the
	// only account of what it evaluated (prompt_eval_count is the whole
	// prompt, reused tokens included).
	loads  *cacheLoads
	tokens []string // the tiny model's vocabulary
}

// ollamaModel is a model to create: the tiny GGUF of seed, with a
// template and, when numCtx > 0, a num_ctx parameter.
type ollamaModel struct {
	name     string
	seed     uint64
	template string
	numCtx   int
}

// gguf writes the tiny model with weights from seed, once, and returns its path.
func (o *ollama) gguf(seed uint64, tokens, merges []string) (string, error) {
	if p, ok := o.ggufs[seed]; ok {
		return p, nil
	}
	p := filepath.Join(o.dir, fmt.Sprintf("tiny-%d.gguf", seed))
	f, err := os.Create(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := writeTinyLlama(f, tokens, merges, seed); err != nil {
		return "", fmt.Errorf("writing the GGUF model: %v", err)
	}
	o.ggufs[seed] = p
	return p, nil
}

// startOllama starts `ollama serve` on a loopback port of its choosing
// (port 0: no free port is picked and released for another program to
// take) with its own HOME and OLLAMA_MODELS, and stops it when the test
// ends (printing its log if the test failed). The vocabulary, the models'
// files and the models are made in the background: called before
// t.Parallel, that work overlaps the tests that run one at a time, and
// ready waits for it when the test's turn comes.
func startOllama(t *testing.T, models ...ollamaModel) (ready func() *ollama) {
	bin, vocab := needOllama(t)
	dir := t.TempDir()
	o := &ollama{bin: bin, log: &lockedBuffer{}, loads: &cacheLoads{}, ggufs: map[uint64]string{}, dir: dir}
	o.env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "OLLAMA_HOST=127.0.0.1:0",
		"OLLAMA_MODELS=" + filepath.Join(dir, "models"), "OLLAMA_NOPRUNE=1", "OLLAMA_KEEP_ALIVE=30m",
		"OLLAMA_NUM_PARALLEL=1", "OLLAMA_MAX_LOADED_MODELS=3",
		"OLLAMA_DEBUG=1"} // the runner logs each request's cache use (cacheLoads)
	listening := o.log.watch(regexp.MustCompile(`Listening on (127\.0\.0\.1:\d+) `))
	cmd := exec.Command(bin, "serve")
	cmd.Env = o.env
	out := io.MultiWriter(o.log, o.loads)
	cmd.Stdout, cmd.Stderr = out, out                     // one writer: one pipe, the lines in order
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its runners die with it
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s serve: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("ollama serve log (tail):\n%s", tail(o.log.String(), 4000))
		}
	})
	made := make(chan error, 1)
	go func() {
		select {
		case m := <-listening:
			o.url = "http://" + m[1]
			o.env = append(o.env, "OLLAMA_HOST="+m[1]) // the later one counts: ollama create talks to this server
			made <- o.make(vocab, models)
		case <-exited:
			made <- fmt.Errorf("ollama serve exited before listening; log:\n%s", tail(o.log.String(), 4000))
		case <-time.After(e2eTimeout):
			made <- fmt.Errorf("ollama serve did not listen within %v; log:\n%s", e2eTimeout, tail(o.log.String(), 4000))
		}
	}()
	return func() *ollama {
		t.Helper()
		if err := <-made; err != nil {
			t.Fatal(err)
		}
		return o
	}
}

// make waits for the server, then creates the models.
func (o *ollama) make(vocab string, models []ollamaModel) error {
	tokens, merges, err := llama3Vocab(vocab, tinyVocab)
	if err != nil {
		return fmt.Errorf("reading the Llama 3 vocabulary: %v", err)
	}
	o.tokens = tokens
	for _, m := range models {
		path, err := o.gguf(m.seed, tokens, merges)
		if err == nil {
			err = o.create(m, path)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// create makes model m from the GGUF at path. num_predict stays small:
// random weights almost never stop by themselves. One thread: a 64-wide
// model gains nothing from a second, whose waiting spins cost the CPU the
// suite's other tests run on (TestOllama 16 -> 13 cpu-s).
func (o *ollama) create(m ollamaModel, path string) error {
	mf := fmt.Sprintf("FROM %s\nTEMPLATE \"\"\"%s\"\"\"\nPARAMETER num_predict 32\nPARAMETER num_thread 1\nPARAMETER stop <|eot_id|>\n", path, m.template)
	if m.numCtx > 0 {
		mf += fmt.Sprintf("PARAMETER num_ctx %d\n", m.numCtx)
	}
	file := filepath.Join(o.dir, m.name+".Modelfile")
	if err := os.WriteFile(file, []byte(mf), 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.bin, "create", m.name, "-f", file)
	cmd.Env = o.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ollama create %s: %v\n%s", m.name, err, out)
	}
	return nil
}

// exchange is one request through the recording proxy and its answer.
type exchange struct {
	Method, Path string
	Status       int
	Req          map[string]any
	Resp         string // the answer's body (SSE or JSON), up to 1 MiB
}

// recorder is a reverse proxy in front of the server that logs every
// exchange, so a test can check what yaicli sent and what the server said.
type recorder struct {
	srv  *httptest.Server
	busy sync.WaitGroup // exchanges not logged yet
	mu   sync.Mutex
	log  []exchange
}

// proxy starts a recorder in front of o for one test.
func (o *ollama) proxy(t *testing.T) *recorder {
	target, _ := url.Parse(o.url)
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.FlushInterval = -1
	rec := &recorder{}
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		ex := resp.Request.Context().Value(exchangeKey{}).(*exchange)
		ex.Status, ex.Resp = resp.StatusCode, string(body)
		return err
	}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.busy.Add(1)
		defer rec.busy.Done()
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		ex := &exchange{Method: r.Method, Path: r.URL.Path}
		json.Unmarshal(raw, &ex.Req)
		rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
		rec.mu.Lock()
		rec.log = append(rec.log, *ex)
		rec.mu.Unlock()
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

// exchangeKey carries an exchange through the reverse proxy.
type exchangeKey struct{}

// chats are the exchanges with the chat completions endpoint.
func (r *recorder) chats() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []exchange
	for _, e := range r.log {
		if e.Path == "/v1/chat/completions" {
			out = append(out, e)
		}
	}
	return out
}

// paths lists "METHOD /path STATUS" for every exchange, for messages.
func (r *recorder) paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.log {
		out = append(out, fmt.Sprintf("%s %s %d", e.Method, e.Path, e.Status))
	}
	return out
}

// promptTokens is the prompt tokens the server reported in an answer
// (streamed or whole; usage.prompt_tokens, or the native reply's
// prompt_eval_count), 0 when none. Either is the whole prompt, the tokens
// the server reused from its cache included: Ollama v0.17.4's runner
// (runner/llamarunner/runner.go) reports the sequence's inputs, counted
// before LoadCacheSlot drops the cached prefix.
func (e exchange) promptTokens() int {
	n := 0
	for _, line := range strings.Split(e.Resp, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "data: ")
		var ch struct {
			Usage           *usage `json:"usage"`
			PromptEvalCount int    `json:"prompt_eval_count"`
		}
		if json.Unmarshal([]byte(line), &ch) == nil {
			if ch.Usage != nil && ch.Usage.PromptTokens > 0 {
				n = ch.Usage.PromptTokens
			} else if ch.PromptEvalCount > 0 {
				n = ch.PromptEvalCount
			}
		}
	}
	return n
}

// answer is the answer text of a streamed exchange, its deltas joined.
func (e exchange) answer() string {
	var b strings.Builder
	for _, line := range strings.Split(e.Resp, "\n") {
		var ch struct {
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(line), "data: ")), &ch) == nil {
			for _, c := range ch.Choices {
				b.WriteString(c.Delta.Content)
			}
		}
	}
	return b.String()
}

// tools is the number of tool schemas the request carried.
func (e exchange) tools() int {
	ts, _ := e.Req["tools"].([]any)
	return len(ts)
}

// yai is one yaicli run against the server through the recorder: home
// keeps the window cache between runs that share it.
type yai struct {
	home  string
	model string
	args  []string
	stdin string
	env   []string
}

// run runs the built binary (main_test.go's TestMain) with a private HOME.
func (r *recorder) run(t *testing.T, y yai) e2eResult {
	t.Helper()
	if y.home == "" {
		y.home = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, y.args...)
	cmd.Dir = y.home
	cmd.Env = append([]string{"HOME=" + y.home, "XDG_CONFIG_HOME=" + filepath.Join(y.home, "config"),
		"XDG_CACHE_HOME=" + filepath.Join(y.home, "cache"), "TMPDIR=" + y.home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", raceExitEnv,
		"YAI_PROVIDER=ollama", "YAI_BASE_URL=" + r.srv.URL + "/v1", "YAI_MODEL=" + y.model, "YAI_ENABLE_MCP=false",
		"YAI_MAX_TOKENS=8", "YAI_TEMPERATURE=0"}, y.env...)
	cmd.Stdin = strings.NewReader(y.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r.busy.Wait() // the client may have its answer before its exchange is logged
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	t.Logf("MODEL=%s yaicli %q: exit %d\nstderr: %s", y.model, y.args, code, errb.String())
	return e2eResult{stdout: out.String(), stderr: errb.String(), code: code, home: y.home}
}

// requestMessages is a chat request's messages, each as its JSON.
func requestMessages(e exchange) []string {
	ms, _ := e.Req["messages"].([]any)
	out := make([]string, len(ms))
	for i, m := range ms {
		b, _ := json.Marshal(m)
		out[i] = string(b)
	}
	return out
}

// cacheLoad is the runner's account of one completion request (its debug
// line "loading cache slot"): the tokens in the slot before, in the
// prompt, reused from the slot, and evaluated.
type cacheLoad struct{ cache, prompt, used, remaining int }

var cacheLoadLine = regexp.MustCompile(`msg="loading cache slot" id=\d+ cache=(\d+) prompt=(\d+) used=(\d+) remaining=(\d+)`)

// cacheLoads reads the server's log (OLLAMA_DEBUG=1) as it is written
// and keeps each request's cache load, in order.
type cacheLoads struct {
	mu    sync.Mutex
	part  []byte // a line not ended yet
	loads []cacheLoad
	more  chan struct{} // closed when a load is added
}

// Write takes the log's bytes, line by line.
func (c *cacheLoads) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.part = append(c.part, p...)
	for {
		i := bytes.IndexByte(c.part, '\n')
		if i < 0 {
			break
		}
		if m := cacheLoadLine.FindSubmatch(c.part[:i]); m != nil {
			var l cacheLoad
			fmt.Sscan(string(m[1])+" "+string(m[2])+" "+string(m[3])+" "+string(m[4]), &l.cache, &l.prompt, &l.used, &l.remaining)
			c.loads = append(c.loads, l)
			if c.more != nil {
				close(c.more)
				c.more = nil
			}
		}
		c.part = c.part[i+1:]
	}
	return len(p), nil
}

// count is the number of loads logged so far.
func (c *cacheLoads) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.loads)
}

// all is every load logged so far.
func (c *cacheLoads) all() []cacheLoad {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.loads)
}

// find returns the first load from index from on whose prompt has n
// tokens, waiting for the server's log to reach it: the runner writes the
// line before it answers, but the server relays it on its own pipe. It
// gives up after e2eTimeout.
func (c *cacheLoads) find(from, n int) (int, cacheLoad, bool) {
	deadline := time.After(e2eTimeout)
	for {
		c.mu.Lock()
		for i := from; i < len(c.loads); i++ {
			if c.loads[i].prompt == n {
				l := c.loads[i]
				c.mu.Unlock()
				return i, l, true
			}
		}
		if c.more == nil {
			c.more = make(chan struct{})
		}
		more := c.more
		c.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			return 0, cacheLoad{}, false
		}
	}
}

// appendsTo reports whether cur's messages begin with all of prev's.
func appendsTo(prev, cur exchange) bool {
	p, c := requestMessages(prev), requestMessages(cur)
	return len(c) >= len(p) && slices.Equal(c[:len(p)], p)
}

// evaluated is the runner's cache load for each of chats, in order, from
// the from'th load of the server's log on: the one whose prompt has the
// tokens the answer reported.
func (o *ollama) evaluated(t *testing.T, from int, chats []exchange) []cacheLoad {
	t.Helper()
	var out []cacheLoad
	for i, c := range chats {
		at, l, ok := o.loads.find(from, c.promptTokens())
		if !ok {
			t.Fatalf("request %d: no \"loading cache slot\" line with prompt=%d in the server's log: %v", i+1, c.promptTokens(), o.loads.all())
		}
		out, from = append(out, l), at+1
	}
	return out
}

// seamSlack is what a request that appends to the one before may evaluate
// again of it. The runner reuses the longest token prefix the prompt
// shares with its slot, which holds the previous prompt and answer. The
// previous prompt's text begins the new one's (the templates render a
// message alike whether it is last or not, Llama 3.1's only with no tools,
// and the generation prompt as the answer's header), so only tokens that
// BPE joins across the seam can differ. The pre-tokenizer (Llama 3's) cuts
// at special tokens and between a word and a run of newlines, and each
// generation prompt ends in a special token or a word, then one such run
// ("\n\n" after <|end_header_id|>; "\n" after "assistant", <|im_start|>
// being text to the tiny vocabulary), one token each: an answer that
// begins with whitespace (the tiny model's answers are newlines) joins it
// into another token. checkSeam checks those premises.
const seamSlack = 1

// checkSeam fails the test when a premise of seamSlack no longer holds.
func checkSeam(t *testing.T, o *ollama) {
	t.Helper()
	if !strings.Contains(llama31Template, "<|start_header_id|>assistant<|end_header_id|>\n\n{{ end }}") ||
		!strings.Contains(qwenTemplate, "<|im_start|>assistant\n{{ end }}") ||
		!slices.Contains(o.tokens, "ĊĊ") || !slices.Contains(o.tokens, "Ċ") || slices.Contains(llama3Specials(), "<|im_start|>") {
		t.Fatalf("seamSlack (%d) assumes generation prompts that end in one newline token after a word or special token", seamSlack)
	}
}
