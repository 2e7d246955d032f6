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
		msg := what + ": run `YAICLI_OLLAMA=$(.ci/ollama-build) go test -run TestOllama .` (README: Tests against a real Ollama)"
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
	o := &ollama{bin: bin, log: &lockedBuffer{}, ggufs: map[uint64]string{}, dir: dir}
	o.env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "OLLAMA_HOST=127.0.0.1:0",
		"OLLAMA_MODELS=" + filepath.Join(dir, "models"), "OLLAMA_NOPRUNE=1", "OLLAMA_KEEP_ALIVE=30m",
		"OLLAMA_NUM_PARALLEL=1", "OLLAMA_MAX_LOADED_MODELS=3"}
	listening := o.log.watch(regexp.MustCompile(`Listening on (127\.0\.0\.1:\d+) `))
	cmd := exec.Command(bin, "serve")
	cmd.Env = o.env
	cmd.Stdout, cmd.Stderr = o.log, o.log
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

// lockedBuffer collects a process's output from its two pipes (or the
// output of several writers at once). Told to watch for a pattern, it
// hands over the first match as it is written: the event a test waits
// on, instead of polling for what the line says.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	want  *regexp.Regexp
	found chan []string
}

// Write appends p under the lock.
func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	l.match()
	return len(p), nil
}

// String is the log so far.
func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// watch returns a channel that receives re's first match (with its
// submatches) in the output, once, what is already written included.
func (l *lockedBuffer) watch(re *regexp.Regexp) <-chan []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.want, l.found = re, make(chan []string, 1)
	l.match()
	return l.found
}

// match hands over the watched pattern's first match, if it is there.
func (l *lockedBuffer) match() {
	if l.want == nil {
		return
	}
	if m := l.want.FindStringSubmatch(l.b.String()); m != nil {
		l.found <- m
		l.want = nil
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// llama31Template renders the tool schemas the way Meta's Llama 3.1
// template does: inside the last user message only, so a request whose
// last message is a tool result carries no schemas at all. Its .Tools
// gives the model the tools capability.
const llama31Template = `{{- if or .System .Tools }}<|start_header_id|>system<|end_header_id|>
{{- if .System }}

{{ .System }}
{{- end }}<|eot_id|>
{{- end }}
{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 }}
{{- if eq .Role "user" }}<|start_header_id|>user<|end_header_id|>
{{- if and $.Tools $last }}

Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.

Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.

{{ range $.Tools }}
{{- . }}
{{ end }}
Question: {{ .Content }}<|eot_id|>
{{- else }}

{{ .Content }}<|eot_id|>
{{- end }}{{ if $last }}<|start_header_id|>assistant<|end_header_id|>

{{ end }}
{{- else if eq .Role "assistant" }}<|start_header_id|>assistant<|end_header_id|>
{{- if .ToolCalls }}
{{ range .ToolCalls }}
{"name": "{{ .Function.Name }}", "parameters": {{ .Function.Arguments }}}{{ end }}
{{- else }}

{{ .Content }}
{{- end }}{{ if not $last }}<|eot_id|>{{ end }}
{{- else if eq .Role "tool" }}<|start_header_id|>ipython<|end_header_id|>

{{ .Content }}<|eot_id|>{{ if $last }}<|start_header_id|>assistant<|end_header_id|>

{{ end }}
{{- end }}
{{- end }}`

// llama3Template is Ollama's llama3-instruct template: no .Tools, so the
// server refuses tools for the model.
const llama3Template = `{{- range .Messages }}<|start_header_id|>{{ .Role }}<|end_header_id|>

{{ .Content }}<|eot_id|>
{{- end }}<|start_header_id|>assistant<|end_header_id|>

`

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

// promptTokens is the prompt_tokens the server reported in an answer
// (streamed or whole), 0 when none.
func (e exchange) promptTokens() int {
	n := 0
	for _, line := range strings.Split(e.Resp, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "data: ")
		var ch struct {
			Usage *usage `json:"usage"`
		}
		if json.Unmarshal([]byte(line), &ch) == nil && ch.Usage != nil && ch.Usage.PromptTokens > 0 {
			n = ch.Usage.PromptTokens
		}
	}
	return n
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
