package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
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
