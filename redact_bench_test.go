package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchText is 1 MiB of what the redactor sees on its hot paths: the
// repository's own source (prose, code, JSON-ish text) with a hex dump and a
// base64 blob of random bytes mixed in, and no secret.
func benchText(b *testing.B) []byte {
	b.Helper()
	files, _ := filepath.Glob("*.go")
	var buf bytes.Buffer
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(i*131 + i/7)
	}
	for buf.Len() < 1<<20 {
		for _, f := range files {
			src, _ := os.ReadFile(f)
			buf.Write(src)
			buf.WriteString(hex.Dump(noise[:512]))
			buf.WriteString(base64.StdEncoding.EncodeToString(noise[:1024]))
			if buf.Len() >= 1<<20 {
				break
			}
		}
	}
	return buf.Bytes()[:1<<20]
}

// BenchmarkRedactText prices redacting 1 MiB at once (a tool result, a
// request's history).
func BenchmarkRedactText(b *testing.B) {
	r := secretConfig().redactor()
	text := string(benchText(b))
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.text(text)
	}
}

// BenchmarkRedactStream prices a stream redacted in 4 KiB writes (a
// command's output, a streamed answer).
func BenchmarkRedactStream(b *testing.B) {
	r := secretConfig().redactor()
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := newRedactWriter(discardWriter{}, r)
		for p := text; len(p) > 0; {
			n := min(len(p), 4096)
			w.Write(p[:n])
			p = p[n:]
		}
		w.(*redactWriter).Close()
	}
}

// discardWriter is io.Discard without its ReadFrom, so a benchmark pays for
// every Write.
type discardWriter struct{}

// Write takes p.
func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkRedactTextKeyOnly is BenchmarkRedactText for the usual run: an
// API key and nothing else secret.
func BenchmarkRedactTextKeyOnly(b *testing.B) {
	r := (&config{Provider: "openai", APIKey: "sk-proj-Q7vX2mKp9LzR4tWn8YbC3hJd"}).redactor()
	text := string(benchText(b))
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.text(text)
	}
}

// BenchmarkShellCatRedacted is the shell tool's path over a large output:
// `cat` of YAICLI_BENCH_FILE (else a 38.9 MB file of benchText) through
// the clipper, redacted and spilled as it streams, as yaicli runs it. Run
// with -benchtime 1x under a whole-process timer beside `cat FILE`.
func BenchmarkShellCatRedacted(b *testing.B) {
	path := os.Getenv("YAICLI_BENCH_FILE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "big.txt")
		text := benchText(b)
		f, _ := os.Create(path)
		for n := 0; n < 38_900_000; n += len(text) {
			f.Write(text[:min(len(text), 38_900_000-n)])
		}
		f.Close()
	}
	dir := b.TempDir()
	cfg := secretConfig()
	for b.Loop() {
		cl := newClipper(32000, spillOpener(dir, "execute_shell_command", time.Now())).redacting(cfg.redactor())
		if err := runShell(context.Background(), "cat "+path, "", time.Hour, cfg.redactor().childEnv(cfg.environ, nil), nil, cl); err != nil {
			b.Fatal(err)
		}
		os.Remove(cl.finish().path)
	}
	b.ReportMetric(float64(maxRSS())/(1<<20), "maxrss-MiB")
}
