package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// secretConfig has a key, two headers (one a bearer token) and a BASE_URL
// with a user and a password.
func secretConfig() *config {
	return &config{Provider: "openai", APIKey: "sk-live-SECRETKEY123",
		ExtraHeaders: map[string]string{"Authorization": "Bearer tok-HEADERTOKEN9", "X-Org": "org-ABCDEF", "X-Flag": "1"},
		BaseURL:      "https://alice:p%40ssw0rd@llm.example.com/v1"}
}

func TestRedactorText(t *testing.T) {
	r := secretConfig().redactor()
	tests := []struct{ in, want string }{
		{"key sk-live-SECRETKEY123 end", "key [redacted] end"},
		{"Authorization: Bearer tok-HEADERTOKEN9", "Authorization: [redacted]"},
		{"token alone tok-HEADERTOKEN9", "token alone [redacted]"},
		{"org=org-ABCDEF", "org=[redacted]"},
		{"flag 1 stays", "flag 1 stays"}, // too short to be a secret
		{"https://alice:p%40ssw0rd@llm.example.com/v1", "https://[redacted]@llm.example.com/v1"},
		{"password p@ssw0rd decoded", "password [redacted] decoded"},
		{"user alice", "user [redacted]"},
		{`{"url":"http://x/?k=sk-live-SECRETKEY123"}`, `{"url":"http://x/?k=[redacted]"}`},
		{"twice sk-live-SECRETKEY123sk-live-SECRETKEY123", "twice [redacted][redacted]"},
		{"nothing here", "nothing here"},
	}
	for _, tt := range tests {
		if got := r.text(tt.in); got != tt.want {
			t.Errorf("text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var none *redactor
	if got := none.text("sk-live-SECRETKEY123"); got != "sk-live-SECRETKEY123" {
		t.Errorf("nil redactor changed text: %q", got)
	}
}

// A secret split across writes at any point, or over many small writes,
// never comes out whole or in part.
func TestRedactWriterSplitSecret(t *testing.T) {
	cfg := secretConfig()
	r := cfg.redactor()
	text := "env: YAI_API_KEY=sk-live-SECRETKEY123\nAUTH=Bearer tok-HEADERTOKEN9\nsk-live-SECRETKEY12 is not it\nend sk-live-SECRETKEY123"
	want := r.text(text)
	for cut := 0; cut <= len(text); cut++ {
		var out bytes.Buffer
		w := newRedactWriter(&out, r).(*redactWriter)
		w.Write([]byte(text[:cut]))
		w.Write([]byte(text[cut:]))
		w.Close()
		if out.String() != want {
			t.Fatalf("split at %d: got %q, want %q", cut, out.String(), want)
		}
	}
	rnd := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		var out bytes.Buffer
		w := newRedactWriter(&out, r).(*redactWriter)
		for rest := text; len(rest) > 0; {
			n := min(len(rest), 1+rnd.Intn(6))
			w.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		w.Close()
		if out.String() != want {
			t.Fatalf("round %d: got %q, want %q", round, out.String(), want)
		}
	}
	if strings.Contains(want, "SECRETKEY123") || strings.Contains(want, "HEADERTOKEN9") {
		t.Fatalf("a secret survived: %q", want)
	}
}

// The shell tool's streamed result, spilled to disk once it passes the
// cap, carries no key: not in the clip the model sees and not in the file.
func TestToolResultAndSpillRedacted(t *testing.T) {
	dir := t.TempDir()
	cfg := secretConfig()
	cl := newClipper(200, spillOpener(dir, "execute_shell_command", time.Now())).redacting(cfg.redactor())
	line := "YAI_API_KEY=sk-live-SECRETKEY123 "
	for i := 0; i < 100; i++ { // many writes, the key cut at a different place in each
		s := strings.Repeat("x", i%7) + line
		for len(s) > 0 {
			n := min(len(s), 5)
			cl.Write([]byte(s[:n]))
			s = s[n:]
		}
	}
	c := cl.finish()
	if c.path == "" {
		t.Fatalf("nothing spilled: %v", c.spillErr)
	}
	b, _ := os.ReadFile(c.path)
	for name, s := range map[string]string{"spill file": string(b), "model text": c.text(200), "head": c.head, "tail": c.tail} {
		if strings.Contains(s, "SECRETKEY") || strings.Contains(s, "sk-live") {
			t.Errorf("%s holds the key: %q", name, firstRunes(s, 200))
		}
	}
	if n := strings.Count(string(b), redactedMark); n != 100 {
		t.Errorf("spill file has %d marks, want 100", n)
	}
}

// The shell tool runs without the key in its environment: not under
// yaicli's names, not under the provider's, not copied under another.
func TestShellEnvHidesKey(t *testing.T) {
	cfg := secretConfig()
	cfg.environ = []string{"PATH=" + os.Getenv("PATH"), "YAI_API_KEY=" + cfg.APIKey, "API_KEY=sk-other-0000", "OPENAI_API_KEY=sk-openai-1111",
		"MY_COPY=" + cfg.APIKey, `YAI_EXTRA_HEADERS={"Authorization": "Bearer tok-HEADERTOKEN9"}`, "KEEP_ME=visible"}
	var out bytes.Buffer
	if err := runShell(context.Background(), "env", "", time.Minute, cfg.redactor().childEnv(cfg.environ, nil), nil, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, leak := range []string{"SECRETKEY", "sk-other", "sk-openai", "HEADERTOKEN", "YAI_API_KEY=", "MY_COPY="} {
		if strings.Contains(got, leak) {
			t.Errorf("env output holds %q:\n%s", leak, got)
		}
	}
	if !strings.Contains(got, "KEEP_ME=visible") {
		t.Errorf("ordinary variables are gone:\n%s", got)
	}
}

// An MCP server inherits no key, unless its own env names the variable.
func TestMCPServerEnvHidesKey(t *testing.T) {
	cfg := secretConfig()
	cfg.environ = []string{"PATH=" + os.Getenv("PATH"), "YAI_API_KEY=" + cfg.APIKey, "OPENAI_API_KEY=sk-openai-1111", "KEEP_ME=visible"}
	dir := t.TempDir()
	out := filepath.Join(dir, "env.txt")
	conf := `{"mcpServers": {"dump": {"command": "sh", "args": ["-c", "env > ` + out + `"], "env": {"OPENAI_API_KEY": "sk-openai-1111"}}}}`
	path := filepath.Join(dir, "mcp.json")
	os.WriteFile(path, []byte(conf), 0o600)
	o := cfg.mcp("", cfg.redactor(), cfg.toolbox().fence)
	o.path = path
	hub, err := startMCP(context.Background(), o, &bytes.Buffer{}, false)
	if err != nil {
		t.Fatal(err)
	}
	hub.close()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the server did not run: %v", err)
	}
	got := string(b)
	if strings.Contains(got, "SECRETKEY") || strings.Contains(got, "YAI_API_KEY") {
		t.Errorf("server env holds the key:\n%s", got)
	}
	if !strings.Contains(got, "OPENAI_API_KEY=sk-openai-1111") || !strings.Contains(got, "KEEP_ME=visible") {
		t.Errorf("named or ordinary variables are missing:\n%s", got)
	}
}

// --verbose masks the key, every header value and BASE_URL's credentials.
func TestVerboseMasksSecrets(t *testing.T) {
	c := secretConfig()
	c.APIKey = "sk-SHORT123" // 11 characters: at most the last 2 show
	c.values = map[string]string{"BASE_URL": c.BaseURL, "EXTRA_HEADERS": `{"Authorization": "Bearer tok-HEADERTOKEN9", "X-Org": "org-ABCDEF"}`, "API_KEY": c.APIKey}
	c.sources = map[string]string{}
	var out bytes.Buffer
	writeEffective(&out, c, c.redactor())
	got := out.String()
	for _, leak := range []string{"SHORT", "HEADERTOKEN", "ABCDEF", "p%40ssw0rd", "p@ssw0rd", "alice"} {
		if strings.Contains(got, leak) {
			t.Errorf("--verbose shows %q:\n%s", leak, got)
		}
	}
	for _, want := range []string{"…23 ", "https://[redacted]@llm.example.com/v1", `"Authorization":"Bea…KEN9"`} {
		if !strings.Contains(got, want) {
			t.Errorf("--verbose lacks %q:\n%s", want, got)
		}
	}
}

// A provider's error that echoes the key is printed without it, and
// keeps its kind for the hint.
func TestProviderEchoRedacted(t *testing.T) {
	cfg := secretConfig()
	f := newFakeProvider(t, fail(401, `{"error":{"message":"Incorrect API key provided: sk-live-SECRETKEY123. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`))
	cfg.BaseURL, cfg.Timeout = f.url(), 5*time.Second
	c := newClient(cfg.client(), &bytes.Buffer{})
	_, err := scrubbed(c.send, cfg.redactor())(context.Background(), chatRequest{}, streamSink{})
	var stderr bytes.Buffer
	exitCode(context.Background(), err, cfg.failures(cfg.redactor()), &stderr)
	if got := stderr.String(); strings.Contains(got, "SECRETKEY") || !strings.Contains(got, "[redacted]") || !strings.Contains(got, "hint: check the key") {
		t.Errorf("stderr = %q", got)
	}
}

func BenchmarkRedactWriter(b *testing.B) {
	r := secretConfig().redactor()
	chunk := bytes.Repeat([]byte("an ordinary line of build output, nothing secret in it\n"), 4096)
	b.SetBytes(int64(len(chunk)))
	w := newRedactWriter(io.Discard, r)
	for b.Loop() {
		w.Write(chunk)
	}
}

// BenchmarkShellGiBRedacted is BenchmarkShellGiB with this run's secrets
// being redacted as the output streams (a hosted provider always has a
// key): compare its yaicli-s with BenchmarkShellGiB's. Run with
// -benchtime 1x.
func BenchmarkShellGiBRedacted(b *testing.B) {
	const cmd = `head -c 1073741824 /dev/zero | tr '\0' 'x' | fold -w 100`
	dir := b.TempDir()
	cfg := secretConfig()
	for b.Loop() {
		start := time.Now()
		cl := newClipper(32000, spillOpener(dir, "execute_shell_command", time.Now())).redacting(cfg.redactor())
		if err := runShell(context.Background(), cmd, "", time.Hour, cfg.redactor().childEnv(cfg.environ, nil), nil, cl); err != nil {
			b.Fatal(err)
		}
		c := cl.finish()
		b.ReportMetric(time.Since(start).Seconds(), "yaicli-s")
		os.Remove(c.path)
	}
	b.ReportMetric(float64(maxRSS())/(1<<20), "maxrss-MiB")
}

// The window cache, a file yaicli writes, keys a server by its URL
// without the user name and password.
func TestWindowKeyHasNoCredentials(t *testing.T) {
	k := windowKey(secretConfig().window())
	if strings.Contains(k, "alice") || strings.Contains(k, "ssw0rd") || !strings.Contains(k, "https://[redacted]@llm.example.com/v1") {
		t.Errorf("windowKey = %q", k)
	}
}

// TestRedactorRuns: any 12 characters of a secret in a row are redacted
// (a read one character in, an edit of one character, a cut line); 11 are
// what texts share by chance and stay; a reader split anywhere agrees.
func TestRedactorRuns(t *testing.T) {
	const key = "sk-live-SECRETKEY123"
	r := (&config{Provider: "openai", APIKey: key}).redactor()
	for _, tc := range []struct{ in, want string }{
		{"x " + key[1:] + " y", "x [redacted] y"},
		{"x " + key[:12] + " y", "x [redacted] y"},
		{"x " + key[:11] + " y", "x " + key[:11] + " y"},
		{"a" + key[:5] + "Z" + key[6:] + "b", "a" + key[:5] + "Z[redacted]b"},
		{key[8:] + key[:8], "[redacted]" + key[:8]},
	} {
		if got := r.text(tc.in); got != tc.want {
			t.Errorf("text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	words := (&config{Provider: "openai", APIKey: key, ExtraHeaders: map[string]string{"X-Org": "my-organization-name"}}).redactor()
	if got := words.text("the organization-name field; my-organization-name"); got != "the organization-name field; [redacted]" {
		t.Errorf("a header value of words: %q", got)
	}
	text := "head " + key[3:] + " mid " + key + " tail " + key[:15]
	want := r.text(text)
	for cut := 1; cut < len(text); cut++ {
		got, _ := io.ReadAll(newRedactReader(io.MultiReader(strings.NewReader(text[:cut]), strings.NewReader(text[cut:])), r))
		if string(got) != want {
			t.Fatalf("read cut at %d = %q, want %q", cut, got, want)
		}
	}
}

// TestKeyPiecesAcrossCallsNotDelivered: a model that reads a file holding
// the key (under an ordinary name, so a fenced command reads it) eight
// characters a call, each piece shorter than a run, does not get the key
// put together: once the pieces shown reach fragBudget of its bytes, the
// next piece reaches the provider as the mark, in that request and every
// later one; the first pieces are shown (pieces, not tool output, are
// counted).
func TestKeyPiecesAcrossCallsNotDelivered(t *testing.T) {
	t.Parallel()
	const key = "sk-proj-Q7vX2mKp9LzR4tWn8YbC3hJd"
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "settings.txt"), []byte("token="+key+"\n"), 0o644)
	cut := func(id string, from int) step {
		return sse(toolStream(fakeCall{id, "execute_shell_command", fmt.Sprintf(`{"shell_command": "cut -c%d-%d settings.txt"}`, from+7, from+14)}))
	}
	fp := newFakeProvider(t, cut("c1", 0), cut("c2", 8), cut("c3", 16), cut("c4", 24), sse(textStream("done")))
	r := runBinaryIn(t, fp, dir, e2e{args: []string{"--yes", "read the token in pieces"}, env: []string{"YAI_API_KEY=" + key}})
	if r.code != 0 || len(fp.chats()) != 5 {
		t.Fatalf("code %d, %d requests, stderr %s", r.code, len(fp.chats()), r.stderr)
	}
	secret := key[8:] // what follows the public prefix
	shown := make([]bool, len(secret))
	for _, req := range fp.chats() {
		for _, m := range req.messages() {
			if m.Role != roleTool {
				continue
			}
			for i := 0; i+fragMin <= len(secret); i++ {
				for j := i + fragMin; j <= len(secret); j++ {
					if strings.Contains(m.Content, secret[i:j]) {
						for x := i; x < j; x++ {
							shown[x] = true
						}
					}
				}
			}
		}
	}
	n := 0
	for _, s := range shown {
		if s {
			n++
		}
	}
	if n > fragBudget {
		t.Errorf("the tool results showed %d of the key's %d secret characters in pieces, want at most %d", n, len(secret), fragBudget)
	}
	last := fp.chats()[4].messages()
	if first := last[len(last)-5].Content; !strings.Contains(first, key[8:16]) { // the first piece of the secret part
		t.Errorf("the first piece was not shown: %q", first)
	}
	for _, m := range last[len(last)-3:] {
		if m.Role == roleTool && !strings.Contains(m.Content, redactedMark) {
			t.Errorf("a later piece reached the provider: %q", m.Content)
		}
	}
}
