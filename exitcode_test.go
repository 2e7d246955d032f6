package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadFlagValueIsUsageError: a flag value that does not parse stops the
// run with exit 2, naming the flag, the value and what is expected, before
// any request.
func TestBadFlagValueIsUsageError(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t)
	for args, want := range map[string]string{
		"--max-turns abc hi": `invalid value "abc" for flag --max-turns: expected a whole number >= 0`,
		"-T hot hi":          `invalid value "hot" for flag -T: expected a number from 0 to 2`,
		"--top-p 1.5 hi":     `invalid value "1.5" for flag --top-p: expected a number from 0 to 1`,
		"--max-tokens 0 hi":  `invalid value "0" for flag --max-tokens: expected a whole number of tokens >= 1`,
		"--justify wide hi":  `invalid value "wide" for flag --justify: expected one of default, left`,
		"-M  hi --max-turns": `flag needs an argument`,
	} {
		r := runBinary(t, fp, e2e{args: strings.Fields(args)})
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: code %d, stderr %q; want 2 and %q", args, r.code, r.stderr, want)
		}
	}
	if n := len(fp.chats()); n != 0 {
		t.Errorf("%d requests sent after bad flags", n)
	}
}

// TestVerboseAloneAndMissingConfig: -V without a question shows the
// configuration and exits 0, and says when the config file is not there.
func TestVerboseAloneAndMissingConfig(t *testing.T) {
	t.Parallel()
	r := runBinary(t, nil, e2e{args: []string{"-V"}, noProvider: true})
	if r.code != exitOK {
		t.Errorf("-V alone: code %d: %s", r.code, r.stderr)
	}
	// Alone, the configuration is the output asked for: stdout, so
	// `yaicli -V > cfg.txt` keeps it.
	if !strings.Contains(r.stdout, "config.ini (not found; defaults, environment and flags only)") || r.stderr != "" {
		t.Errorf("-V alone: stdout %q, stderr %q; want the configuration on stdout", r.stdout, r.stderr)
	}
	r = runBinary(t, nil, e2e{args: []string{"-V"}, noProvider: true, file: "[core]\nMODEL=x\n"})
	if strings.Contains(r.stdout, "not found") || !strings.Contains(r.stdout, "MODEL") {
		t.Errorf("-V with a file:\n%s", r.stdout)
	}
	// With a question (on stdin too) it is a diagnostic: stderr, and stdout
	// is the answer alone.
	fp := newFakeProvider(t, sse(textStream("Hi.")), sse(textStream("Hi.")))
	for _, c := range []e2e{{args: []string{"-V", "hello"}}, {args: []string{"-V"}, stdin: "hello"}} {
		r = runBinary(t, fp, c)
		if r.code != exitOK || strings.TrimSpace(r.stdout) != "Hi." || !strings.Contains(r.stderr, "MODEL") {
			t.Errorf("-V %v stdin %q: code %d, stdout %q, stderr %q", c.args, c.stdin, r.code, r.stdout, r.stderr)
		}
	}
}

// TestBaseURLWithoutScheme: a BASE_URL written without http:// (as a
// server prints its address) is a configuration error, exit 2, that says
// to add http://, before any request; Go's URL parse error never shows.
func TestBaseURLWithoutScheme(t *testing.T) {
	t.Parallel()
	fp := newFakeProvider(t, sse(textStream("never")))
	hostPath := strings.TrimPrefix(fp.url(), "http://") // 127.0.0.1:PORT/v1
	for _, tc := range []struct{ base, want string }{
		{hostPath, "add http:// (BASE_URL=http://" + hostPath + ")"},
		{"localhost:11434", "add http:// (BASE_URL=http://localhost:11434)"},
		{"user:secret@" + hostPath, "[redacted]@"},
		{"ftp://" + hostPath, "use http:// or https://"},
	} {
		r := runBinary(t, fp, e2e{args: []string{"hi"}, env: []string{"YAI_BASE_URL=" + tc.base}})
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "first path segment") ||
			strings.Contains(r.stderr, "secret") {
			t.Errorf("BASE_URL=%s: code %d, stderr %q; want 2 and %q", tc.base, r.code, r.stderr, tc.want)
		}
	}
	if n := len(fp.chats()); n != 0 {
		t.Errorf("%d requests sent to a BASE_URL without a scheme", n)
	}
}

// TestErrorsNameTheSetting: on the default path against a BASE_URL of
// one's own, a rejection names the server it came from (not "provider
// openai") and the setting to check: MODEL, with how to list models, for an
// unknown model; BASE_URL for a server that is no chat API (a 404, 405 or
// 501 page, a web page answering 200); in text and in the JSON result.
func TestErrorsNameTheSetting(t *testing.T) {
	t.Parallel()
	page := func(status int, body string) step {
		return func(w http.ResponseWriter, _ received) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
	}
	body := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "errors", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	nginx := "<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n</body>\n</html>\n"
	for _, tc := range []struct {
		name, kind string
		answer     step
		want       []string
	}{
		{"openai 404", "model_not_found", fail(404, body("not_model_openai.404.json")),
			[]string{"does not exist", "check MODEL (-M, YAI_MODEL)", `no model "gpt-4o"`, "/v1/models"}},
		{"vllm 404", "model_not_found", fail(404, body("not_model_vllm.404.json")), []string{"check MODEL", "/v1/models"}},
		{"python 501", "not_a_chat_API", page(501, body("not_api_python.501.html")), []string{"Error response", "check BASE_URL", "not as a chat API (HTTP 501)"}},
		{"nginx 405", "not_a_chat_API", page(405, body("not_api_nginx.405.html")), []string{"405 Not Allowed", "check BASE_URL"}},
		{"web page 200", "not_a_chat_API", page(200, nginx), []string{"Welcome to nginx!", "check BASE_URL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fp := newFakeProvider(t, tc.answer, tc.answer)
			host := strings.TrimPrefix(strings.TrimSuffix(fp.url(), "/v1"), "http://")
			r := runBinary(t, fp, e2e{args: []string{"hi"}})
			if r.code != exitFailure || len(fp.chats()) != 1 {
				t.Fatalf("code %d after %d requests: %s", r.code, len(fp.chats()), r.stderr)
			}
			for _, w := range append(tc.want, "the server at "+host, "  hint: ") {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "provider openai") || strings.Contains(r.stderr, "not JSON") {
				t.Errorf("stderr names the default provider or a parse failure:\n%s", r.stderr)
			}
			j := runBinary(t, fp, e2e{args: []string{"--output-format", "json", "hi"}})
			var res struct{ Error map[string]any }
			if err := json.Unmarshal([]byte(j.stdout), &res); err != nil {
				t.Fatalf("json result %q: %v", j.stdout, err)
			}
			if hint, _ := res.Error["hint"].(string); res.Error["kind"] != tc.kind || !strings.Contains(hint, "check ") {
				t.Errorf("json error = %v, want kind %s and a hint naming the setting", res.Error, tc.kind)
			}
		})
	}
}

// TestServerLabel: a rejection is labelled with the provider at its own
// URL, and with the host BASE_URL names otherwise.
func TestServerLabel(t *testing.T) {
	for _, tc := range []struct{ provider, base, want string }{
		{"openai", "https://api.openai.com/v1", "provider openai rejected"},
		{"openai", "http://127.0.0.1:8080/v1", "the server at 127.0.0.1:8080 rejected"},
		{"ollama", "http://gpu-box:11434/v1", "ollama at gpu-box:11434 rejected"},
		{"ollama", "http://localhost:11434/v1", "provider ollama rejected"},
		{"myserv", "http://u:pw@10.0.0.5/v1", "myserv at 10.0.0.5 rejected"},
	} {
		o := clientOptions{provider: tc.provider, baseURL: tc.base}
		err := o.named(classify(tc.provider, 404, []byte(`{"error":{"message":"The model x does not exist"}}`)))
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s at %s: %q, want it to start %q", tc.provider, tc.base, err, tc.want)
		}
	}
}

// TestDepthLimitHint: the tool-round limit says what raises it where the
// person is: --max-turns or the setting in a one-shot run (in the JSON
// result too), /max-turns in the REPL, where it then takes effect.
func TestDepthLimitHint(t *testing.T) {
	t.Parallel()
	list := sse(toolStream(fakeCall{"call_1", "fs_list_directory", `{"path":"."}`}))
	env := []string{"YAI_MAX_TOOL_CALL_DEPTH=1"}
	fp := newFakeProvider(t, list, list)
	r := runBinary(t, fp, e2e{args: []string{"--output-format", "json", "list"}, env: env})
	var res struct{ Error map[string]any }
	json.Unmarshal([]byte(r.stdout), &res)
	if hint, _ := res.Error["hint"].(string); r.code != exitDepthLimit || res.Error["kind"] != "depth_limit" || !strings.Contains(hint, "--max-turns N") {
		t.Errorf("json: code %d, error %v; want 3 and a hint naming --max-turns", r.code, res.Error)
	}
	fp = newFakeProvider(t, list, list)
	r = runBinary(t, fp, e2e{args: []string{"list"}, env: env})
	if r.code != exitDepthLimit || !strings.Contains(r.stderr, "  hint: raise the limit with --max-turns N") {
		t.Errorf("text: code %d, stderr %q", r.code, r.stderr)
	}
	fp = newFakeProvider(t, list, list, list, list, sse(textStream("done")))
	r = runBinary(t, fp, e2e{args: []string{"--chat"}, env: env, stdin: "list\n/max-turns 3\n/max-turns\nagain\n"})
	if !strings.Contains(r.stderr, "/max-turns N") || strings.Contains(r.stderr, "--max-turns") {
		t.Errorf("REPL hint does not name /max-turns (or names a flag):\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "tool rounds per question: 3 for the rest of this session") || !strings.HasSuffix(r.stdout, "done\n") ||
		strings.Count(r.stderr, "stopped after") != 1 {
		t.Errorf("after /max-turns 3 the second question did not run its 3 rounds: stdout %q stderr %q", r.stdout, r.stderr)
	}
}
