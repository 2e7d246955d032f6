package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// e2eKey is the key e2eEnv gives every run.
const e2eKey = "sk-test-0123456789abcdef"

// keyShapeIn says which run of minRun of one of key's shapes s holds ("":
// none).
func keyShapeIn(key, s string) string {
	sk := string(skeletonBytes([]byte(s)))
	for _, sh := range shapesOf(key) {
		for off := 0; off+minRun <= len(sh); off++ {
			if strings.Contains(sk, string(sh[off:off+minRun])) {
				return string(sh[off : off+minRun])
			}
		}
	}
	return ""
}

// echoPieces is an answer that echoes the key plainly, folded, reversed
// and in base64, each cut across the stream's chunks.
func echoPieces() []string {
	answer := "plain " + e2eKey + " folded " + fold(e2eKey, 6) + " reversed " + reverse(e2eKey) +
		" base64 " + base64.StdEncoding.EncodeToString([]byte("K="+e2eKey)) + " end"
	var pieces []string
	for len(answer) > 0 {
		n := min(len(answer), 5)
		pieces = append(pieces, answer[:n])
		answer = answer[n:]
	}
	return pieces
}

// TestModelEchoRedactedEveryFormat: a model that echoes the key, in any
// shape and cut across chunks, shows it neither on stdout in text mode nor
// in the json result nor in any stream-json event; the rest of its answer
// arrives.
func TestModelEchoRedactedEveryFormat(t *testing.T) {
	for _, format := range []string{"text", "json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			f := newFakeProvider(t, sse(textStream(echoPieces()...)))
			r := runBinary(t, f, e2e{args: []string{"--output-format", format, "say the key"}})
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for name, s := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
				if left := keyShapeIn(e2eKey, s); left != "" {
					t.Errorf("%s holds %q:\n%s", name, left, s)
				}
			}
			if !strings.Contains(r.stdout, "plain [redacted]") || !strings.Contains(r.stdout, " end") {
				t.Errorf("stdout lost the answer around the key:\n%s", r.stdout)
			}
			if format == "json" && !json.Valid([]byte(r.stdout)) {
				t.Errorf("json result is not JSON:\n%s", r.stdout)
			}
		})
	}
}

// TestRequestBodyRedacted: what a request carries to the provider holds no
// shape of the key, whoever put it there (the person's prompt here).
func TestRequestBodyRedacted(t *testing.T) {
	f := newFakeProvider(t, sse(textStream("ok")))
	prompt := "decode " + base64.StdEncoding.EncodeToString([]byte("KE"+e2eKey)) + " and " + fold(reverse(e2eKey), 5)
	r := runBinary(t, f, e2e{args: []string{prompt}})
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	body := string(f.chats()[0].Raw)
	if left := keyShapeIn(e2eKey, body); left != "" {
		t.Errorf("the request holds %q:\n%s", left, body)
	}
	if !strings.Contains(body, "decode ") {
		t.Errorf("the prompt is gone:\n%s", body)
	}
}

// TestWrittenFileRedacted: a file the model writes (outside the workspace,
// under --yes) holds no shape of the key: the call's arguments are
// redacted before the tool runs.
func TestWrittenFileRedacted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	args, _ := json.Marshal(map[string]any{"file_path": out, "content": "k=" + base64.StdEncoding.EncodeToString([]byte("x"+e2eKey)) + "\n" + fold(e2eKey, 4) + "\n"})
	f := newFakeProvider(t, sse(toolStream(fakeCall{"c1", "fs_write_file", string(args)})), sse(textStream("done")))
	r := runBinary(t, f, e2e{args: []string{"--yes", "write it"}})
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("not written (exit %d): %v\n%s", r.code, err, r.stderr)
	}
	if left := keyShapeIn(e2eKey, string(b)); left != "" {
		t.Errorf("the file holds %q:\n%s", left, b)
	}
}

// TestSinkShowsPausedWordHidesDribbledKey: a streamed answer shows its last
// word while the stream pauses (no flush yet), and a key dribbled a byte or
// three at a time, in any shape, still shows at most 3 characters of a
// run.
func TestSinkShowsPausedWordHidesDribbledKey(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: e2eKey}).redactor()
	var shown strings.Builder
	sink, flush := redactedSink(streamSink{text: func(s string) { shown.WriteString(s) }}, r)
	sink.text("slow start")
	if shown.String() != "slow start" {
		t.Errorf("a paused answer shows %q, want %q", shown.String(), "slow start")
	}
	for n := 1; n <= 3; n++ {
		shown.Reset()
		sink, flush = redactedSink(streamSink{text: func(s string) { shown.WriteString(s) }}, r)
		text := "a " + e2eKey + " b " + fold(e2eKey, 5) + " c " + base64.StdEncoding.EncodeToString([]byte("K"+e2eKey)) + " d " + reverse(e2eKey) + " e"
		for p := text; len(p) > 0; p = p[min(n, len(p)):] {
			sink.text(p[:min(n, len(p))])
		}
		flush()
		if left := keyShapeIn(e2eKey, shown.String()); left != "" || !strings.HasSuffix(shown.String(), " e") {
			t.Errorf("%d bytes at a time: %q holds %q", n, shown.String(), left)
		}
	}
}
