package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestOllamaTagged(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tiny", "tiny:latest"},
		{"tiny:latest", "tiny:latest"},
		{"llama3.1:8b", "llama3.1:8b"},
		{"library/qwen3", "library/qwen3:latest"},
		{"myhost:5000/team/model", "myhost:5000/team/model:latest"}, // a port is no tag
		{"myhost:5000/team/model:q4", "myhost:5000/team/model:q4"},
		{"", ""},
	} {
		if got := ollamaTagged(tc.in); got != tc.want {
			t.Errorf("ollamaTagged(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// ollamaReplay answers /api/show and /api/ps as Ollama v0.17.4 did for the
// real-server tests' models (bodies trimmed to the fields yaicli reads):
// tiny (tools, no num_ctx, loaded at 4096 and listed as tiny:latest),
// plain (no tools, num_ctx 1024, not loaded), cold (tools, not loaded).
func ollamaReplay(t *testing.T, asked *atomic.Int32) *httptest.Server {
	shows := map[string]string{
		"tiny":  `{"parameters":"num_predict                    32\nstop                           \"<|eot_id|>\"","model_info":{"general.architecture":"llama","llama.context_length":131072,"llama.embedding_length":64},"capabilities":["completion","tools"]}`,
		"cold":  `{"parameters":"num_predict                    32\nstop                           \"<|eot_id|>\"","model_info":{"general.architecture":"llama","llama.context_length":131072,"llama.embedding_length":64},"capabilities":["completion","tools"]}`,
		"plain": `{"parameters":"num_ctx                        1024\nnum_predict                    32\nstop                           \"<|eot_id|>\"","model_info":{"general.architecture":"llama","llama.context_length":131072},"capabilities":["completion"]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/api/ps":
			io.WriteString(w, `{"models":[{"name":"tiny:latest","model":"tiny:latest","size":17614080,"digest":"07cb9f5156649124bdb740fc293954b26d13dbcf39f7ba74d7239987f37062ac","details":{"format":"gguf","family":"llama"},"expires_at":"2026-12-03T14:52:18.739700426Z","size_vram":0,"context_length":4096}]}`)
		case "/api/show":
			for name, show := range shows {
				if strings.Contains(string(body), `"`+name+`"`) || strings.Contains(string(body), `"`+name+`:latest"`) {
					io.WriteString(w, show)
					return
				}
			}
			w.WriteHeader(404)
			io.WriteString(w, `{"error":"model 'x' not found"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Ollama's windows: the running context under the tagged name, num_ctx,
// else Ollama's default (asked again next run, as the model may load
// with another); the capabilities are kept with the window.
func TestOllamaWindowAndTools(t *testing.T) {
	var asked atomic.Int32
	srv := ollamaReplay(t, &asked)
	cache := t.TempDir() // the user cache directory the edge would give
	for _, tc := range []struct {
		model   string
		want    int
		source  string
		noTools bool
		cached  bool
	}{
		{"tiny", 4096, "reported by the ollama server", false, true},
		{"tiny:latest", 4096, "reported by the ollama server", false, true},
		{"plain", 1024, "reported by the ollama server", true, true},
		{"cold", 4096, "Ollama's default", false, false},
	} {
		cfg, _ := load(t, "", nil, map[string]string{"PROVIDER": "ollama", "MODEL": tc.model, "BASE_URL": srv.URL + "/v1"})
		wc := openWindowCache(cache, time.Now)
		got, source := wc.resolve(t.Context(), cfg.window())
		if got != tc.want || !strings.HasPrefix(source, tc.source) || wc.noTools(cfg.window()) != tc.noTools {
			t.Errorf("%s: window %d (%s), no tools %v; want %d (%s...), %v", tc.model, got, source, wc.noTools(cfg.window()), tc.want, tc.source, tc.noTools)
		}
		before := asked.Load()
		again := openWindowCache(cache, time.Now)
		n, _ := again.resolve(t.Context(), cfg.window())
		if n != got || again.noTools(cfg.window()) != tc.noTools || (asked.Load() == before) != tc.cached {
			t.Errorf("%s: second run: window %d, no tools %v, asked the server %d times; want %d, %v, cached %v",
				tc.model, n, again.noTools(cfg.window()), asked.Load()-before, got, tc.noTools, tc.cached)
		}
	}
}

// llama.cpp with a 1,024 window refuses a request whose weight is the tool
// schemas: the retry sends fewer (or none) and says ENABLE_FUNCTIONS=false,
// instead of the identical request and a hint to send less.
func TestToolSchemasAreTheWeight(t *testing.T) {
	t.Parallel()
	body := `{"error":{"code":400,"message":"request (1186 tokens) exceeds the available context size (1024 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":1186,"n_ctx":1024}}`
	var retried int
	fp := newFakeProvider(t, fail(400, body), check(sse(textStream("hi")), func(r received) {
		tools, _ := r.Body["tools"].([]any)
		retried = len(tools)
	}))
	r := runBinary(t, fp, e2e{args: []string{"hello"}, env: []string{"YAI_PROVIDER=llamacpp"}})
	if r.code != 0 || r.stdout != "hi\n" || len(fp.chats()) != 2 {
		t.Fatalf("code %d stdout %q after %d requests; want 0, hi, 2\n%s", r.code, r.stdout, len(fp.chats()), r.stderr)
	}
	if retried >= 12 {
		t.Errorf("the retry carried %d tools, want fewer than the 12 rejected", retried)
	}
	if !strings.Contains(r.stderr, "the 12 tool schemas are the weight") || !strings.Contains(r.stderr, "ENABLE_FUNCTIONS=false") ||
		strings.Contains(r.stderr, "nothing is left to trim") {
		t.Errorf("stderr = %q, want the tool schemas named as the weight, with ENABLE_FUNCTIONS=false", r.stderr)
	}
}

// A count equal to the window is proof of a silent cut, however moderate;
// a count far below the estimate after a tool round is the template
// leaving the schemas out, not a cut, and does not calibrate.
func TestSilentCutProof(t *testing.T) {
	specs := newToolbox(toolboxOptions{}, nil, io.Discard, nil, nil).specs()
	long := []message{{Role: roleUser, Content: strings.Repeat("word ", 2600)}}                // ~3000 tokens
	round := []message{{Role: roleUser, Content: "list"}, {Role: roleTool, Content: "a\nb\n"}} // schemas ~1000
	for _, tc := range []struct {
		name      string
		h         []message
		specs     []toolSpec
		reported  int
		warn      string
		calibrate bool
	}{
		{"cut to the window", long, nil, 2048, "its whole 2048-token window", false},
		{"far below the messages", long, nil, 900, "probably cut the conversation", false},
		{"tool round, schemas left out", round, specs, 154, "", false},
		{"ordinary answer", long[:1], nil, 2900, "", true},
	} {
		cfg, _ := load(t, "", nil, map[string]string{"PROVIDER": "ollama"})
		var stderr bytes.Buffer
		a := &agent{o: cfg.agent(), stdout: io.Discard, stderr: &stderr, budget: budget{tokens: 1433, window: 2048}}
		a.observe(reply{Usage: usage{PromptTokens: tc.reported}}, tc.h, tc.specs)
		if got := stderr.String(); tc.warn == "" && got != "" || tc.warn != "" && !strings.Contains(got, tc.warn) {
			t.Errorf("%s: stderr = %q, want %q", tc.name, got, tc.warn)
		}
		if (a.cal.ratio != 0) != tc.calibrate {
			t.Errorf("%s: calibration ratio %v, want calibrated %v", tc.name, a.cal.ratio, tc.calibrate)
		}
	}
}

// An answer cut at the output limit is said on stderr, in OpenAI's words
// ("length") and Anthropic's ("max_tokens").
func TestNoteLength(t *testing.T) {
	for _, tc := range []struct {
		reason string
		max    int
		want   string
	}{
		{"length", 1024, `stopped at the 1024-token output limit (finish_reason "length"); raise MAX_TOKENS`},
		{"max_tokens", 0, `stopped at the server's output limit (finish_reason "max_tokens"); raise MAX_TOKENS`},
		{"stop", 1024, ""},
	} {
		var out, stderr bytes.Buffer
		a := &agent{o: agentOptions{maxTokens: tc.max}, maxTokens: tc.max, stdout: &out, stderr: &stderr, openLine: true}
		a.noteLength(reply{FinishReason: tc.reason})
		if got := stderr.String(); tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: stderr = %q, want %q", tc.reason, got, tc.want)
		}
		if tc.want != "" && out.String() != "\n" {
			t.Errorf("%s: the answer's line was not ended before the note: %q", tc.reason, out.String())
		}
	}
}

// A refusal of tools (a server that shows no capabilities) is kept with
// the window, so the next run does not repeat the refused request.
func TestNoToolsRefusalIsCached(t *testing.T) {
	cache := t.TempDir() // the user cache directory the edge would give
	refusal := `{"error":{"message":"registry.ollama.ai/library/plain:latest does not support tools","type":"api_error","param":null,"code":null}}`
	fp := newFakeProvider(t, fail(400, refusal), sse(textStream("hi")), sse(textStream("again")))
	cfg, _ := load(t, "", nil, map[string]string{"PROVIDER": "ollama", "MODEL": "plain", "BASE_URL": fp.url()})
	cfg.cacheDir = cache
	for run, want := range []string{"hi", "again"} {
		var out, stderr bytes.Buffer
		a := agentOver(t, cfg, &out, &stderr)
		h, err := a.turn(t.Context(), []message{{Role: roleUser, Content: "hello"}})
		if err != nil || h[len(h)-1].Content != want || !strings.Contains(stderr.String(), "takes no tools") {
			t.Fatalf("run %d: %v, answer %q, stderr %q", run+1, err, h[len(h)-1].Content, stderr.String())
		}
	}
	chats := fp.chats()
	if len(chats) != 3 || chats[2].Body["tools"] != nil {
		t.Errorf("%d chat requests, the last with tools %v; want 3 (400, retry, then none refused) and no tools the second run", len(chats), chats[len(chats)-1].Body["tools"])
	}
}

// runAt runs yaicli in-process with home as HOME (so runs share the window
// cache), the clock stopped at now, against fp with MODEL gpt-4o.
func runAt(t *testing.T, fp *fakeProvider, home string, now time.Time, args []string, stdin string) e2eResult {
	t.Helper()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"TMPDIR=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", raceExitEnv,
		"YAI_BASE_URL=" + fp.url(), "YAI_API_KEY=sk-test-0123456789abcdef", "YAI_MODEL=gpt-4o"}
	var out, errb lockedBuffer
	code := run(t.Context(), mapEdge(env, home, func() time.Time { return now }), args, strings.NewReader(stdin), &out, &errb)
	return e2eResult{stdout: out.String(), stderr: errb.String(), code: code, home: home}
}

// TestLearnedWindowLifecycle: a proxy with a smaller model behind it
// rejects gpt-4o's request stating 8192 tokens. The window is learned
// (dated) and shown as learned in /context and --verbose; it expires after
// windowLearnedFor; --forget-window forgets it at once; a rejection that
// states no figure teaches nothing.
func TestLearnedWindowLifecycle(t *testing.T) {
	t.Parallel()
	proxy := `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
	day := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	home := t.TempDir()
	noFigure := `{"error":{"code":"1261","message":"Prompt exceeds max length"}}`
	chars := `{"error":{"message":"Prompt too long: the messages total 612004 characters, above the limit of 524288 characters for this model."}}`
	fp := newFakeProvider(t, fail(400, proxy), sse(textStream("healed")), // one server: the window is the server's and the model's
		sse(textStream("one")), fail(400, noFigure), sse(textStream("healed")), sse(textStream("one")), fail(400, chars), sse(textStream("healed")))
	if r := runAt(t, fp, home, day, []string{"q"}, ""); r.code != 0 || r.stdout != "healed\n" {
		t.Fatalf("heal: code %d stdout %q: %s", r.code, r.stdout, r.stderr)
	}
	learnedOn := "learned from a rejection on 2026-12-05, kept until 2026-12-12"
	ctx := func(now time.Time) string {
		r := runAt(t, fp, home, now, []string{"--chat"}, "/context\n")
		return r.stdout
	}
	if out := ctx(day.Add(time.Hour)); !strings.Contains(out, "5734") || !strings.Contains(out, learnedOn) {
		t.Errorf("/context the next hour does not show the learned window (70%% of 8192 = 5734) with its date:\n%s", out)
	}
	v := runAt(t, fp, home, day, []string{"--verbose", "--chat"}, "")
	if !strings.Contains(v.stderr, "learned context window: 8192 tokens for openai") || !strings.Contains(v.stderr, "on 2026-12-05, kept until 2026-12-12") {
		t.Errorf("--verbose does not show the learned window:\n%s", v.stderr)
	}
	if v := runAt(t, fp, home, day, []string{"-V"}, ""); !strings.Contains(v.stdout, "learned context window: 8192 tokens for openai") {
		t.Errorf("-V alone does not show the learned window:\n%s%s", v.stdout, v.stderr)
	}
	if out := ctx(day.Add(windowLearnedFor + time.Hour)); !strings.Contains(out, "89600") || strings.Contains(out, "learned from a rejection") {
		t.Errorf("/context a week later still uses the learned window (want 70%% of 128000 = 89600):\n%s", out)
	}
	f := runAt(t, fp, home, day, []string{"--forget-window", "gpt-4o"}, "")
	if f.code != 0 || !strings.Contains(f.stdout, "forgot the window of 8192 tokens for openai") {
		t.Fatalf("--forget-window: code %d stdout %q stderr %q", f.code, f.stdout, f.stderr)
	}
	if out := ctx(day.Add(time.Hour)); !strings.Contains(out, "89600") {
		t.Errorf("/context after --forget-window still uses the learned window:\n%s", out)
	}
	if f := runAt(t, fp, home, day, []string{"--forget-window"}, ""); !strings.Contains(f.stdout, "no learned window to forget for gpt-4o") {
		t.Errorf("a second --forget-window: %q", f.stdout)
	}
	if r := runAt(t, fp, home, day, []string{"--chat"}, "first "+bigPrompt(2000)+"\nsecond\n"); r.code != 0 || !strings.HasSuffix(r.stdout, "healed\n") {
		t.Fatalf("heal without a figure: code %d stdout %q: %s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "cache", "yaicli", "windows.json")); strings.Contains(string(b), windowLearned) {
		t.Errorf("a rejection without a figure taught a window: %s", b)
	}
	if r := runAt(t, fp, home, day, []string{"--chat"}, "first "+bigPrompt(2000)+"\nsecond\n"); r.code != 0 || !strings.HasSuffix(r.stdout, "healed\n") {
		t.Fatalf("heal of a character pre-check: code %d stdout %q: %s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "cache", "yaicli", "windows.json")); strings.Contains(string(b), windowLearned) {
		t.Errorf("figures in characters taught a token window: %s", b)
	}
}

// TestForgetWindowInREPL: /forget-window in a session forgets the window
// this session learned and gives the budget back at once; --help and the
// REPL's /help name the way to forget.
func TestForgetWindowInREPL(t *testing.T) {
	t.Parallel()
	proxy := `{"error":{"message":"prompt is too long: 9000 tokens > 8192 maximum"}}`
	home := t.TempDir()
	fp := newFakeProvider(t, fail(400, proxy), sse(textStream("healed")))
	r := runAt(t, fp, home, time.Now(), []string{"--chat"}, "hello\n/context\n/forget-window\n/context\n")
	if r.code != 0 || !strings.Contains(r.stdout, "forgot the window of 8192 tokens") || !strings.Contains(r.stdout, "budget now 89600 tokens") {
		t.Fatalf("code %d stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	before, after, _ := strings.Cut(r.stdout, "forgot the window")
	if !strings.Contains(before, "5734") || !strings.Contains(after, "89600") {
		t.Errorf("/context before and after /forget-window:\n%s", r.stdout)
	}
	help := runAt(t, newFakeProvider(t), home, time.Now(), []string{"--help"}, "")
	if !strings.Contains(help.stdout, "--forget-window [MODEL]") || !strings.Contains(replHelp, "/forget-window") {
		t.Errorf("--help or /help does not name the way to forget a learned window")
	}
}

// llamacppProps is a llama.cpp-shaped server whose /props answers, in
// turn, each of answers (status and body as llama-server sends them), the
// last one from then on; asked counts the lookups.
func llamacppProps(t *testing.T, asked *atomic.Int32, answers ...[2]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/props" {
			w.WriteHeader(404)
			io.WriteString(w, `{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}`)
			return
		}
		a := answers[min(int(asked.Add(1))-1, len(answers)-1)]
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		status := map[string]int{"503": 503, "404": 404, "200": 200}[a[0]]
		w.WriteHeader(status)
		io.WriteString(w, a[1])
	}))
	t.Cleanup(srv.Close)
	return srv
}

// contextAt runs `yaicli --chat` with /context in home at now, on the
// default path (no --yes, default directories), with env added; it
// returns /context's lines about the budget and the window.
func contextAt(t *testing.T, home string, now time.Time, env []string, args ...string) string {
	t.Helper()
	vars := append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"TMPDIR=" + home, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh", raceExitEnv, "YAI_API_KEY=sk-test-0123456789abcdef"}, env...)
	var out, errb lockedBuffer
	if code := run(t.Context(), mapEdge(vars, home, func() time.Time { return now }), append([]string{"--chat"}, args...), strings.NewReader("/context\n"), &out, &errb); code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		if l = strings.Join(strings.Fields(l), " "); strings.HasPrefix(l, "budget ") || strings.HasPrefix(l, "model window ") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// TestWindowLookupNotRemembered: a llama.cpp window lookup that fails
// (503 "Loading model" while the model loads, a 404) is not remembered:
// each next run asks again, and the first answer with n_ctx is used and
// cached; /context says which of these the window in use came from.
func TestWindowLookupNotRemembered(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	srv := llamacppProps(t, &asked,
		[2]string{"503", `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`},
		[2]string{"404", `{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}`},
		[2]string{"200", `{"default_generation_settings":{"n_ctx":8192,"n_predict":-1},"total_slots":1,"model_path":"/models/local.gguf"}`})
	home := t.TempDir()
	env := []string{"YAI_PROVIDER=llamacpp", "YAI_BASE_URL=" + srv.URL + "/v1", "YAI_MODEL=local.gguf"}
	day := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	for i, want := range []string{
		"model window 128000 (the fallback: local.gguf is not in the model table (the llamacpp server did not answer the window lookup; asked again next run); set CONTEXT_WINDOW",
		"model window 128000 (the fallback: local.gguf is not in the model table (the llamacpp server did not answer the window lookup; asked again next run)",
		"model window 8192 (reported by the llamacpp server)",
		"model window 8192 (reported by the llamacpp server on 2026-12-05 (cached in windows.json until 2026-12-12))",
	} {
		got := contextAt(t, home, day.Add(time.Duration(i)*time.Hour), env)
		if !strings.Contains(got, want) {
			t.Errorf("run %d: /context says\n%s\nwant %q", i+1, got, want)
		}
		if i >= 2 && !strings.Contains(got, "budget 5734 (70% of local.gguf's 8192-token window") {
			t.Errorf("run %d: the budget is not 70%% of the server's window:\n%s", i+1, got)
		}
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("/props asked %d times, want 3 (the two failures not remembered, the answer cached)", n)
	}
}

// TestContextWindowSetting: CONTEXT_WINDOW sets the window for any server,
// from config.ini (the small-window recipe of docs/CONFIGURATION.md, as written), the
// environment or --context-window; the server is not asked, and /context
// says the window came from the setting; --help shows the way.
func TestContextWindowSetting(t *testing.T) {
	t.Parallel()
	_, recipe, found := strings.Cut(docText(t, docConfiguration), "Recommended for long tasks with a small model window")
	if !found {
		t.Fatal(docConfiguration + " has no small-window recipe")
	}
	_, recipe, _ = strings.Cut(recipe, "```ini\n")
	recipe, _, _ = strings.Cut(recipe, "```")
	var asked atomic.Int32
	srv := llamacppProps(t, &asked, [2]string{"200", `{"default_generation_settings":{"n_ctx":131072}}`})
	base := []string{"YAI_PROVIDER=llamacpp", "YAI_BASE_URL=" + srv.URL + "/v1", "YAI_MODEL=local.gguf"}
	want := "budget 5734 (70% of local.gguf's 8192-token window, set by CONTEXT_WINDOW)\nmodel window 8192 (set by CONTEXT_WINDOW)"
	for name, run := range map[string]func(home string) string{
		"the configuration guide's recipe": func(home string) string {
			os.MkdirAll(filepath.Join(home, "config", "yaicli"), 0o700)
			os.WriteFile(filepath.Join(home, "config", "yaicli", "config.ini"), []byte(recipe), 0o600)
			return contextAt(t, home, time.Now(), base)
		},
		"environment": func(home string) string {
			return contextAt(t, home, time.Now(), append(base, "YAI_CONTEXT_WINDOW=8192"))
		},
		"flag": func(home string) string { return contextAt(t, home, time.Now(), base, "--context-window", "8192") },
	} {
		if got := run(t.TempDir()); got != want {
			t.Errorf("%s: /context says\n%s\nwant\n%s", name, got, want)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the server was asked for its window %d times with CONTEXT_WINDOW set", n)
	}
	if strings.Contains(recipe, "CONTEXT_BUDGET_TOKENS=0") {
		t.Errorf("the recipe sets CONTEXT_BUDGET_TOKENS=0, the default:\n%s", recipe)
	}
	if !strings.Contains(usageText, "--context-window N") || !strings.Contains(usageText, "8192") {
		t.Errorf("--help does not show how to set an 8k window")
	}
}
