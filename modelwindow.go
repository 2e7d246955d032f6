package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// knownWindows are context windows in tokens of widely used models. The
// longest matching prefix wins, so dated names ("gpt-4o-2024-08-06") and
// vendor prefixes stripped by windowOf find their family.
var knownWindows = map[string]int{
	"gpt-5": 400000, "gpt-4.1": 1047576, "gpt-4o": 128000, "gpt-4-turbo": 128000, "gpt-4-32k": 32768,
	"gpt-4": 8192, "gpt-3.5-turbo": 16385, "o1": 200000, "o1-mini": 128000, "o3": 200000, "o3-mini": 200000,
	"o4-mini": 200000, "gpt-oss": 131072, "chatgpt-4o": 128000,
	"claude": 200000, "claude-sonnet-4": 200000, "claude-opus-4": 200000, "claude-3": 200000, "claude-2": 100000,
	"gemini-2.5": 1048576, "gemini-2.0": 1048576, "gemini-1.5-pro": 2097152, "gemini-1.5-flash": 1048576, "gemini-3": 1048576,
	"deepseek-chat": 131072, "deepseek-reasoner": 131072, "deepseek-v3": 131072, "deepseek-r1": 131072, "deepseek-coder": 131072,
	"llama3": 8192, "llama-3": 8192, "llama3.1": 131072, "llama-3.1": 131072, "llama3.2": 131072, "llama-3.2": 131072,
	"llama3.3": 131072, "llama-3.3": 131072, "llama-4": 1048576,
	"qwen2.5": 32768, "qwen-2.5": 32768, "qwen3": 40960, "qwen-max": 32768, "qwen-plus": 131072, "qwen-turbo": 1000000,
	"qwq": 131072, "qwen2.5-coder": 32768, "qwen3-coder": 262144,
	"mistral-large": 131072, "mistral-medium": 131072, "mistral-small": 32768, "codestral": 262144,
	"mistral": 32768, "mixtral": 32768, "ministral": 131072, "magistral": 40000, "devstral": 131072,
	"grok-4": 256000, "grok-3": 131072, "grok-2": 131072, "grok-code": 256000, "grok": 131072,
	"kimi-k2": 131072, "moonshot-v1-8k": 8192, "moonshot-v1-32k": 32768, "moonshot-v1-128k": 131072, "kimi": 131072,
	"gemma2": 8192, "gemma3": 131072, "phi3": 4096, "phi4": 16384,
}

// windowOf returns the table's window for a model, 0 when unknown.
func windowOf(model string) int {
	m := strings.ToLower(model)
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:] // "meta-llama/llama-3.1-8b", "openai/gpt-4o"
	}
	best, window := -1, 0
	for prefix, w := range knownWindows {
		if strings.HasPrefix(m, prefix) && len(prefix) > best {
			best, window = len(prefix), w
		}
	}
	return window
}

// windowCache keeps windows reported by local servers or learned from
// rejections, on disk with the time, so each model is asked about once.
type windowCache struct {
	path    string
	entries map[string]cachedWindow
	client  *http.Client
	now     func() time.Time // the clock entries are dated and aged by
}

// cachedWindow is a window and where and when it was learned.
type cachedWindow struct {
	Tokens  int       `json:"tokens"` // 0 = the server could not tell
	Source  string    `json:"source"`
	Time    time.Time `json:"time"`
	NoTools bool      `json:"no_tools,omitempty"` // the server said the model takes no tools
	Guess   bool      `json:"guess,omitempty"`    // the server's default, not its word: ask again next run
}

// found is what a server said about a model: its window (0 when it could
// not tell), where that came from ("" = the server reported it), whether
// the model takes no tools, whether the window is only a guess, and
// whether the lookup failed (no answer, 404, 503 "Loading model"): a
// failure is not remembered, so the next run asks again.
type found struct {
	tokens  int
	source  string
	noTools bool
	guess   bool
	failed  bool
}

// windowAskTimeout bounds asking a server for a model's window. A server
// that is down refuses at once; a busy one (a local Ollama loading models
// beside other work) took more than 3 s, and the run then went on with the
// fallback window and cut to the wrong size.
const windowAskTimeout = 10 * time.Second

// A server's answer is kept: a window for a week, an answer that names
// none (a model missing from vLLM's list) for a day. A lookup that failed
// is not kept at all: a llama.cpp still loading its model answers 503, and
// remembering that as "unknown" put the next day's runs on the 128k
// fallback; the next run asks again.
const (
	windowCacheFresh = 7 * 24 * time.Hour // discovered windows are asked again after this
	windowCacheMiss  = 24 * time.Hour     // servers that answered without a window are asked again after this
)

// openWindowCache reads the cache file under cacheDir (the user's cache
// directory; "" = none: nothing is kept); an absent or broken file is an
// empty cache. now is the run's clock: entries age by it.
func openWindowCache(cacheDir string, now func() time.Time) *windowCache {
	wc := &windowCache{entries: map[string]cachedWindow{}, client: &http.Client{Timeout: windowAskTimeout}, now: now}
	if dir := cacheDir; dir != "" {
		wc.path = filepath.Join(dir, "yaicli", "windows.json")
		if checkOwnFile(wc.path, os.Geteuid()) != nil { // planted by another user: neither read nor replaced
			wc.path = ""
		} else if b, err := os.ReadFile(wc.path); err == nil {
			json.Unmarshal(b, &wc.entries)
		}
	}
	return wc
}

// modelWindow is what is known of the model's window before the first
// request: the budget it gives, whether the model takes tools, and the
// cache that remembers what later rejections teach (nil: nothing is kept).
type modelWindow struct {
	budget  budget
	noTools bool
	cache   *windowCache
}

// resolveWindow finds the model's window in the cache or by asking its
// server (resolve), for the budget of a session. It is the I/O an agent
// needs before it is built, done by the caller.
func resolveWindow(ctx context.Context, q windowQuery, wc *windowCache) modelWindow {
	if q.window > 0 { // the person's word: no server is asked, no table or learned figure wins
		return modelWindow{budget: budgetFor(q.budgetTokens, q.model, q.window, windowSetting), noTools: wc.noTools(q), cache: wc}
	}
	tokens, source := wc.resolve(ctx, q)
	if q.numCtx > 0 { // the context Ollama is asked to run at (ollamawire.go)
		tokens, source = q.numCtx, "NUM_CTX, sent to Ollama as num_ctx"
	}
	return modelWindow{budget: budgetFor(q.budgetTokens, q.model, tokens, source), noTools: wc.noTools(q), cache: wc}
}

// windowQuery is what finding a model's window asks about: which model on
// which server (baseURL with the provider's default filled in), and the
// sizes set by hand, CONTEXT_WINDOW, NUM_CTX and CONTEXT_BUDGET_TOKENS (0:
// not set). Built once in run (config.window).
type windowQuery struct {
	provider, baseURL, model     string
	window, numCtx, budgetTokens int
}

// windowSetting is the source of a window set by CONTEXT_WINDOW.
const windowSetting = "set by CONTEXT_WINDOW"

// windowKey identifies a model on a server.
func windowKey(q windowQuery) string {
	return q.provider + " " + maskUserinfo(q.baseURL) + " " + q.model // no credentials in the cache file
}

// resolve finds the model's window: a learned or discovered one from the
// cache, then the server's own answer, then the table; 0 when unknown.
func (wc *windowCache) resolve(ctx context.Context, q windowQuery) (int, string) {
	key := windowKey(q)
	if e, ok := wc.entries[key]; ok && !e.Guess {
		age := wc.now().Sub(e.Time)
		switch {
		case e.Source == windowLearned && e.Tokens > 0 && age < windowLearnedFor:
			// One rejection (perhaps a proxy's smaller model) says it: kept
			// a week, shown with its date, forgotten on request.
			return e.Tokens, learnedSource(e.Time)
		case e.Source == windowLearned:
		case e.Tokens > 0 && age < windowCacheFresh:
			// A local server is asked again after a while, as it may have
			// been restarted with another context size.
			return e.Tokens, cachedSource(e)
		case e.Tokens == 0 && !e.NoTools && age < windowCacheMiss:
			return windowOf(q.model), tableSource(q, "the "+q.provider+" server named no window on "+e.Time.Format(time.DateOnly)+"; asked again after a day")
		}
	}
	if ask := discoverers[q.provider]; ask != nil {
		f := ask(ctx, wc.client, q)
		if f.failed {
			return windowOf(q.model), tableSource(q, "the "+q.provider+" server did not answer the window lookup; asked again next run")
		}
		if f.source == "" {
			f.source = "reported by the " + q.provider + " server"
		}
		wc.put(key, cachedWindow{Tokens: f.tokens, Source: f.source, Time: wc.now(), NoTools: f.noTools, Guess: f.guess})
		if f.tokens > 0 {
			return f.tokens, f.source
		}
		return windowOf(q.model), tableSource(q, "the "+q.provider+" server did not say")
	}
	return windowOf(q.model), tableSource(q, "")
}

// cachedSource says where a cached window came from and that it is
// cached: when it was asked and until when it stands.
func cachedSource(e cachedWindow) string {
	return fmt.Sprintf("%s on %s (cached in windows.json until %s)", e.Source, e.Time.Format(time.DateOnly),
		e.Time.Add(windowCacheFresh).Format(time.DateOnly))
}

// tableSource is the source of a window from the model table, with why
// the server's word is missing (why may be ""); for a model the table does
// not know either, the fallback's, which says what sets the window.
func tableSource(q windowQuery, why string) string {
	s := "from the model table"
	if windowOf(q.model) <= 0 {
		s = fmt.Sprintf("the fallback: %s is not in the model table", q.model)
	}
	if why != "" {
		s += " (" + why + ")"
	}
	if windowOf(q.model) <= 0 {
		s += "; set CONTEXT_WINDOW to its window (an 8k model: 8192)"
	}
	return s
}

// noTools reports whether the server said (or showed by a refusal) that
// the model takes no tools; resolve has asked by then.
func (wc *windowCache) noTools(q windowQuery) bool {
	return wc.entries[windowKey(q)].NoTools
}

// markNoTools remembers a refusal of tools with the model's window, so the
// next run does not repeat the refused request; a nil cache keeps nothing.
func (wc *windowCache) markNoTools(q windowQuery) {
	if wc == nil {
		return
	}
	key := windowKey(q)
	e, ok := wc.entries[key]
	if !ok {
		e = cachedWindow{Time: wc.now()}
	}
	e.NoTools = true
	wc.put(key, e)
}

// windowLearned is the source of a window taken from a rejection's numbers.
const windowLearned = "learned from a rejection"

// windowLearnedFor is how long a learned window stands. One rejection can
// come from a proxy with a smaller model behind it, so it never shrinks
// the window for good: after a week the model's own window is used again.
const windowLearnedFor = 7 * 24 * time.Hour

// learnedSource says where a learned window comes from, when it was
// learned and until when it stands, and how to forget it sooner.
func learnedSource(at time.Time) string {
	return fmt.Sprintf("%s on %s, kept until %s; --forget-window or /forget-window forgets it",
		windowLearned, at.Format(time.DateOnly), at.Add(windowLearnedFor).Format(time.DateOnly))
}

// learn records the window a context-length rejection stated in tokens
// (a rejection without a figure teaches nothing) and returns its source
// for the budget; a nil cache keeps nothing.
func (wc *windowCache) learn(q windowQuery, tokens int) string {
	if wc == nil || tokens <= 0 {
		return windowLearned + " in this session"
	}
	at := wc.now()
	wc.put(windowKey(q), cachedWindow{Tokens: tokens, Source: windowLearned, Time: at})
	return learnedSource(at)
}

// learned lists the learned windows of model (every model when ""),
// sorted by key, as lines for a person.
func (wc *windowCache) learned(model string) []string {
	if wc == nil {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(wc.entries)) {
		e := wc.entries[k]
		if e.Source != windowLearned || model != "" && !strings.HasSuffix(k, " "+model) {
			continue
		}
		state := "kept until " + e.Time.Add(windowLearnedFor).Format(time.DateOnly)
		if wc.now().Sub(e.Time) >= windowLearnedFor {
			state = "expired"
		}
		out = append(out, fmt.Sprintf("%d tokens for %s, learned from a rejection on %s, %s", e.Tokens, k, e.Time.Format(time.DateOnly), state))
	}
	return out
}

// forget removes the learned windows of model (every model when "") and
// returns what it removed, as learned lists them; a model that the server
// reports or the table knows is then asked or looked up again.
func (wc *windowCache) forget(model string) []string {
	if wc == nil {
		return nil
	}
	if model == "all" {
		model = ""
	}
	gone := wc.learned(model)
	for k, e := range wc.entries {
		if e.Source == windowLearned && (model == "" || strings.HasSuffix(k, " "+model)) {
			delete(wc.entries, k)
		}
	}
	if len(gone) > 0 {
		wc.save()
	}
	return gone
}

// forgetWindowCommand is --forget-window [MODEL]: it forgets the learned
// windows of MODEL (the configured model when none is named; "all": every
// model) in wc and says what it forgot.
func forgetWindowCommand(wc *windowCache, configured string, words []string, stdout io.Writer) int {
	model := strings.Join(words, " ")
	if model == "" {
		model = configured
	}
	writeForgotten(stdout, wc.forget(model), model)
	return exitOK
}

// writeForgotten tells what forget removed, for --forget-window and
// /forget-window.
func writeForgotten(w io.Writer, gone []string, model string) {
	if len(gone) == 0 && model != "" && model != "all" {
		fmt.Fprintf(w, "no learned window to forget for %s\n", model)
	} else if len(gone) == 0 {
		fmt.Fprintln(w, "no learned window to forget")
	}
	for _, g := range gone {
		fmt.Fprintf(w, "forgot the window of %s\n", g)
	}
}

// writeLearnedWindows is --verbose's line on the configured model's learned
// window in wc, dated, or that there is none.
func writeLearnedWindows(w io.Writer, wc *windowCache, model string) {
	lines := wc.learned(model)
	if len(lines) == 0 {
		fmt.Fprintf(w, "learned context window: none for %s\n", model)
	}
	for _, l := range lines {
		fmt.Fprintf(w, "learned context window: %s (--forget-window %s forgets it)\n", l, model)
	}
}

// put stores an entry and rewrites the cache file atomically.
func (wc *windowCache) put(key string, e cachedWindow) {
	wc.entries[key] = e
	wc.save()
}

// save rewrites the cache file atomically; a cache: a failed write costs
// one more lookup.
func (wc *windowCache) save() {
	if wc.path == "" {
		return
	}
	b, _ := json.MarshalIndent(wc.entries, "", "  ")
	if privateDir(filepath.Dir(wc.path), os.Geteuid(), "XDG_CACHE_HOME") != nil {
		return
	}
	writeFileAtomic(wc.path, b)
}

// discoverers ask a server for the window of the configured model.
var discoverers = map[string]func(context.Context, *http.Client, windowQuery) found{
	"ollama":     ollamaWindow,
	"llamacpp":   llamacppWindow,
	"vllm":       modelsListWindow,
	"lmstudio":   modelsListWindow,
	"openrouter": modelsListWindow,
}

// serverRoot strips the OpenAI-compatible /v1 suffix from the base URL.
func serverRoot(baseURL string) string {
	return strings.TrimSuffix(baseURL, "/v1")
}

// getJSON requests url and decodes a 200 answer into v; false on any failure.
func getJSON(ctx context.Context, c *http.Client, method, url string, body string, v any) bool {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return false
	}
	resp, err := c.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(v) == nil
}

// ollamaDefaultWindow is the context Ollama runs a model at when neither
// its Modelfile (num_ctx) nor the server (OLLAMA_CONTEXT_LENGTH) says
// otherwise, capped by the model's trained length.
const ollamaDefaultWindow = 4096

// ollamaWindow asks /api/show for the model's capabilities, num_ctx and
// trained length, and /api/ps for the context it runs at. Only a loaded
// model's context or num_ctx is the server's word; a model that is not
// loaded and sets no num_ctx will run at Ollama's default, which is a guess
// to check again next run (the trained length, often 131072, is what it
// never runs at by default).
func ollamaWindow(ctx context.Context, c *http.Client, q windowQuery) found {
	var show struct {
		Parameters   string         `json:"parameters"`
		ModelInfo    map[string]any `json:"model_info"`
		Capabilities []string       `json:"capabilities"`
	}
	body, _ := json.Marshal(map[string]string{"model": q.model})
	if !getJSON(ctx, c, http.MethodPost, serverRoot(q.baseURL)+"/api/show", string(body), &show) {
		return found{failed: true}
	}
	f := found{noTools: len(show.Capabilities) > 0 && !slices.Contains(show.Capabilities, "tools")}
	if n := ollamaRunning(ctx, c, q); n > 0 {
		f.tokens = n
		return f
	}
	if n := numCtx(show.Parameters); n > 0 {
		f.tokens = n
		return f
	}
	f.tokens, f.guess = ollamaDefaultWindow, true
	for k, v := range show.ModelInfo {
		if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") && n > 0 {
			f.tokens = min(f.tokens, int(n))
		}
	}
	f.source = "Ollama's default for a model that sets no num_ctx (not loaded yet; OLLAMA_CONTEXT_LENGTH changes it)"
	return f
}

// ollamaRunning is the context the model runs at, from /api/ps; 0 when it
// is not loaded.
func ollamaRunning(ctx context.Context, c *http.Client, q windowQuery) int {
	var ps struct {
		Models []struct {
			Name, Model   string
			ContextLength int `json:"context_length"`
		}
	}
	if !getJSON(ctx, c, http.MethodGet, serverRoot(q.baseURL)+"/api/ps", "", &ps) {
		return 0
	}
	want := ollamaTagged(q.model)
	for _, m := range ps.Models {
		if (ollamaTagged(m.Name) == want || ollamaTagged(m.Model) == want) && m.ContextLength > 0 {
			return m.ContextLength
		}
	}
	return 0
}

// ollamaTagged is a model name with its tag: Ollama lists "tiny" as
// "tiny:latest". A colon before the last slash is a registry's port, not a tag.
func ollamaTagged(name string) string {
	if name == "" || strings.Contains(name[strings.LastIndex(name, "/")+1:], ":") {
		return name
	}
	return name + ":latest"
}

// numCtx reads num_ctx from /api/show's parameters text; 0 when unset.
func numCtx(params string) int {
	for _, line := range strings.Split(params, "\n") {
		f := strings.Fields(line)
		var n int
		if len(f) == 2 && f[0] == "num_ctx" {
			if _, err := fmt.Sscan(f[1], &n); err == nil {
				return n
			}
		}
	}
	return 0
}

// llamacppWindow reads n_ctx from llama.cpp's /props.
func llamacppWindow(ctx context.Context, c *http.Client, q windowQuery) found {
	var props struct {
		NCtx     int `json:"n_ctx"`
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if !getJSON(ctx, c, http.MethodGet, serverRoot(q.baseURL)+"/props", "", &props) {
		return found{failed: true} // 503 "Loading model", 404, not running: ask again next run
	}
	return found{tokens: max(props.NCtx, props.Settings.NCtx)}
}

// modelsListWindow reads /models as vLLM (max_model_len), LM Studio
// (max_context_length, loaded_context_length) and OpenRouter
// (context_length) fill it.
func modelsListWindow(ctx context.Context, c *http.Client, q windowQuery) found {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			MaxModelLen         int    `json:"max_model_len"`
			MaxContextLength    int    `json:"max_context_length"`
			LoadedContextLength int    `json:"loaded_context_length"`
			ContextLength       int    `json:"context_length"`
		} `json:"data"`
	}
	if !getJSON(ctx, c, http.MethodGet, endpoint(q.baseURL, "/models"), "", &list) {
		return found{failed: true}
	}
	for _, m := range list.Data {
		if m.ID != q.model {
			continue
		}
		for _, n := range []int{m.LoadedContextLength, m.MaxModelLen, m.ContextLength, m.MaxContextLength} {
			if n > 0 {
				return found{tokens: n}
			}
		}
	}
	return found{}
}
