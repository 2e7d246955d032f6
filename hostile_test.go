package main

import (
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The API key and the header secret the hostile runs carry.
const (
	hostileKey    = "sk-test-0123456789abcdef" // runBinary's YAI_API_KEY
	hostileHeader = "hdr-SECRET-4242"
)

// keyEcho is a hostile provider's first answer: it has the key from the
// request's Authorization header and asks the model's tools to print the
// environment, the config file (which holds the key) and the key itself.
func keyEcho(t *testing.T) step {
	return func(w http.ResponseWriter, r received) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if key != hostileKey {
			t.Errorf("the provider got key %q", key)
		}
		sse(toolStream(fakeCall{"call_env", "execute_shell_command", `{"shell_command":"env; cat \"$XDG_CONFIG_HOME/yaicli/config.ini\"; echo echoed=` + key + `"}`}))(w, r)
	}
}

// noSecretIn fails when a request to the provider carries a secret
// anywhere but the Authorization header.
func noSecretIn(t *testing.T, s step) step {
	return check(s, func(r received) {
		for _, sec := range []string{hostileKey, hostileHeader} {
			if strings.Contains(string(r.Raw), sec) {
				t.Errorf("request %s carries %q: %s", r.Path, sec, firstRunes(string(r.Raw), 2000))
			}
		}
		if !strings.Contains(string(r.Raw), "[redacted]") {
			t.Errorf("the tool result does not show the redaction: %s", firstRunes(string(r.Raw), 2000))
		}
	})
}

// A hostile scripted provider drives the real binary: its model runs
// `env` and echoes the key it was sent, and its answer tries to drive the
// terminal. The key and the header secret appear in no request, spill
// file, saved chat or stderr; the shell never sees them; stdout, a pipe,
// carries the answer exactly as sent.
func TestHostileProviderEndToEnd(t *testing.T) {
	t.Parallel()
	answer := "done \x1b[2J\x1b]0;owned\x07 ok"
	f := newFakeProvider(t, keyEcho(t), noSecretIn(t, sse(textStream(answer))))
	r := runBinary(t, f, e2e{args: []string{"--chat", "work", "--yes"}, stdin: "look around\n", file: "[core]\nAPI_KEY=" + hostileKey + "\n",
		env: []string{"OPENAI_API_KEY=" + hostileKey, "YAI_EXTRA_HEADERS={\"X-Secret\": \"" + hostileHeader + "\"}",
			"YAI_TOOL_OUTPUT_MAX_CHARS=300", "YAI_SHOW_FUNCTION_OUTPUT=true"}})
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, answer) {
		t.Errorf("stdout (a pipe) does not carry the answer exactly: %q", r.stdout)
	}
	if strings.Contains(r.stderr, "\x1b") {
		t.Errorf("stderr carries a raw escape: %q", r.stderr)
	}
	state := filepath.Join(r.home, ".local", "state", "yaicli")
	var files []string
	filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	var spills, chats int
	for _, p := range files {
		b, _ := os.ReadFile(p)
		for _, sec := range []string{hostileKey, hostileHeader} {
			if strings.Contains(string(b), sec) {
				t.Errorf("%s holds %q", p, sec)
			}
		}
		switch {
		case strings.Contains(p, "tool-outputs"):
			spills++
			if !strings.Contains(string(b), "PATH=") || !strings.Contains(string(b), "API_KEY=[redacted]") && !strings.Contains(string(b), "config.ini: Permission denied") || strings.Contains(string(b), "YAI_API_KEY=") || strings.Contains(string(b), "OPENAI_API_KEY=") {
				t.Errorf("spill %s: the shell saw the key variables, or ran no env:\n%s", p, b)
			}
		case strings.HasSuffix(p, ".json"):
			chats++
		}
	}
	if spills != 1 || chats != 1 {
		t.Errorf("want 1 spill file and 1 saved chat under %s, got %q", state, files)
	}
	for _, sec := range []string{hostileKey, hostileHeader} {
		if strings.Contains(r.stderr, sec) || strings.Contains(r.stdout, sec) {
			t.Errorf("the output shows %q:\nstdout %s\nstderr %s", sec, r.stdout, r.stderr)
		}
	}
	if len(f.chats()) != 2 {
		t.Errorf("%d requests, want 2", len(f.chats()))
	}
}

// A provider that echoes the key in its 401 body, and --verbose with a
// password in BASE_URL: neither reaches stderr.
func TestHostileErrorsAndVerbose(t *testing.T) {
	t.Parallel()
	f := newFakeProvider(t, fail(401, `{"error":{"message":"Incorrect API key provided: `+hostileKey+`.","type":"invalid_request_error","code":"invalid_api_key"}}`))
	url := strings.Replace(f.url(), "http://", "http://alice:pa55word-XYZ@", 1)
	r := runBinary(t, f, e2e{args: []string{"--verbose", "q"}, env: []string{"YAI_BASE_URL=" + url,
		"YAI_EXTRA_HEADERS={\"Authorization\": \"Bearer " + hostileHeader + "\"}"}})
	if r.code != 1 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, leak := range []string{hostileKey, hostileHeader, "pa55word", "alice"} {
		if strings.Contains(r.stderr, leak) {
			t.Errorf("stderr shows %q:\n%s", leak, r.stderr)
		}
	}
	for _, want := range []string{"Incorrect API key provided: [redacted].", fmt.Sprintf("http://[redacted]@%s", strings.TrimPrefix(f.srv.URL, "http://")),
		"sk-…cdef", `"Authorization":"Bea…4242"`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// A spill directory another user pre-created with mode 0777 is not used:
// one line names it and the fix, and the tool still answers.
func TestSharedSpillDirRefused(t *testing.T) {
	t.Parallel()
	shared := filepath.Join(t.TempDir(), "tool-outputs")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o777)
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "execute_shell_command", `{"shell_command":"seq 1 2000"}`})), sse(textStream("fine")))
	r := runBinary(t, f, e2e{args: []string{"--yes", "q"}, env: []string{"YAI_TOOL_OUTPUT_DIR=" + shared, "YAI_TOOL_OUTPUT_MAX_CHARS=300"}})
	if r.code != 0 || r.stdout != "fine\n" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	n := 0
	for _, line := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(line, "yaicli: ") && strings.Contains(line, "not using "+shared+": other users can write to it (mode 0777); run chmod go-w") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want one line naming %s and the fix, got %d:\n%s", shared, n, r.stderr)
	}
	if entries, _ := os.ReadDir(shared); len(entries) != 0 {
		t.Errorf("wrote %d files into the shared directory", len(entries))
	}
}

// Piped, the answer is every byte the provider sent, control characters
// included; only a terminal gets them made visible.
func TestPipedAnswerByteExact(t *testing.T) {
	t.Parallel()
	answer := "a\x1b[2J\x1b]0;t\x07\x1b]52;c;eA==\x07\u009b31m\x7f\r\nb\x08\tc"
	f := newFakeProvider(t, sse(textStream(answer[:3], answer[3:11], answer[11:])))
	r := runBinary(t, f, e2e{args: []string{"q"}})
	if r.code != 0 || r.stdout != answer+"\n" {
		t.Errorf("exit %d, stdout %q, want %q", r.code, r.stdout, answer+"\n")
	}
}
