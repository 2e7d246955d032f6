package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
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
// `cat` of YAICLI_BENCH_FILE (written first with 38.9 MB of writeMixedLog
// when it does not exist; without the variable, a file in a temporary
// directory) through the clipper, redacted and spilled as it streams, as
// yaicli runs it. Run with -benchtime 1x under a whole-process timer
// beside `cat FILE`; maxrss-MiB is the process's peak.
func BenchmarkShellCatRedacted(b *testing.B) {
	path := benchLogFile(b)
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

// logSize is the size of the large output the redactor's cost is
// measured on (issue 47's "Cost and speed": 38.9 MB).
const logSize = 38_900_000

// writeMixedLog writes n bytes of a service's log as it is seen in the
// wild, the same bytes every time: plain lines with timestamps, levels,
// request ids and durations, JSON lines, hex dumps, base64 blobs (a
// payload, a certificate body), UUIDs, SHA-256 digests and stack traces;
// no secret of secretConfig.
func writeMixedLog(w io.Writer, n int) {
	x := uint64(0x9E3779B97F4A7C15)
	rnd := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
	raw := make([]byte, 768)
	buf := make([]byte, 0, 1<<16)
	levels := []string{"INFO", "DEBUG", "WARN", "ERROR", "INFO", "INFO"}
	paths := []string{"/api/v1/users", "/api/v1/orders/search", "/healthz", "/static/app.js", "/api/v2/invoices"}
	for written, line := 0, 0; written < n; line++ {
		buf = buf[:0]
		for len(buf) < 60_000 {
			line++
			ts := fmt.Sprintf("2026-12-06T%02d:%02d:%02d.%03dZ", line/3600000%24, line/60000%60, line/1000%60, line%1000)
			for i := range raw {
				if i%8 == 0 {
					rnd()
				}
				raw[i] = byte(x >> (8 * (i % 8)))
			}
			switch k := rnd() % 20; {
			case k < 9:
				buf = fmt.Appendf(buf, "%s %-5s [worker-%d] req=%016x %s %s took %dms status=%d bytes=%d\n", ts,
					levels[rnd()%6], rnd()%16, rnd(), []string{"GET", "POST", "PUT"}[rnd()%3], paths[rnd()%5], rnd()%900, 200+rnd()%4*100, rnd()%100000)
			case k < 14:
				buf = fmt.Appendf(buf, `{"ts":"%s","level":"info","msg":"order placed","order_id":"%x-%x-%x-%x-%x","user":%d,"sha256":"%x","items":[{"sku":"SKU-%d","qty":%d,"price":%d.%02d}],"trace":"%x"}`+"\n",
					ts, raw[0:4], raw[4:6], raw[6:8], raw[8:10], raw[10:16], rnd()%1000000, raw[16:48], rnd()%99999, rnd()%9+1, rnd()%500, rnd()%100, raw[48:64])
			case k < 16:
				buf = append(buf, hex.Dump(raw[:256])...)
			case k < 18:
				buf = fmt.Appendf(buf, "%s DEBUG payload=%s\n", ts, base64.StdEncoding.EncodeToString(raw[:3*(64+rnd()%192)]))
			case k < 19:
				buf = fmt.Appendf(buf, "-----BEGIN CERTIFICATE-----\n")
				enc := base64.StdEncoding.EncodeToString(raw[:720])
				for len(enc) > 64 {
					buf, enc = append(append(buf, enc[:64]...), '\n'), enc[64:]
				}
				buf = append(append(buf, enc...), "\n-----END CERTIFICATE-----\n"...)
			default:
				buf = fmt.Appendf(buf, "%s ERROR panic: runtime error: index out of range [%d] with length %d\n\ngoroutine %d [running]:\nmain.(*server).handle(0xc%09x, {0x%x, 0xc%09x})\n\t/src/server/handler.go:%d +0x%x\nnet/http.HandlerFunc.ServeHTTP(...)\n\t/usr/local/go/src/net/http/server.go:2136\n",
					ts, rnd()%64, rnd()%64, rnd()%100000, rnd()%(1<<36), rnd()%(1<<24), rnd()%(1<<36), rnd()%900, rnd()%4096)
			}
		}
		k := min(len(buf), n-written)
		w.Write(buf[:k])
		written += k
	}
}

// mixedLog is the first n bytes of writeMixedLog.
func mixedLog(n int) []byte {
	var b bytes.Buffer
	writeMixedLog(&b, n)
	return b.Bytes()
}

// BenchmarkRedactLog prices the redactor alone over the mixed log in the
// shell tool's 32 KiB writes (what a command's pipe gives).
func BenchmarkRedactLog(b *testing.B) {
	r := secretConfig().redactor()
	text := mixedLog(8 << 20)
	b.SetBytes(int64(len(text)))
	cpu := cpuSeconds()
	for b.Loop() {
		w := newRedactWriter(discardWriter{}, r)
		for p := text; len(p) > 0; {
			n := min(len(p), 32<<10)
			w.Write(p[:n])
			p = p[n:]
		}
		w.(*redactWriter).Close()
	}
	b.ReportMetric(float64(b.N*len(text))/1e6/(cpuSeconds()-cpu), "cpu-MB/s")
}

// cpuSeconds is the CPU time this process has used, user and system: a
// shared machine's load stretches wall time, not this.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// benchLogFile is the benchmarks' mixed log of logSize bytes:
// YAICLI_BENCH_FILE, written there on first use, else a temporary one.
func benchLogFile(b *testing.B) string {
	path := os.Getenv("YAICLI_BENCH_FILE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "big.log")
	}
	if _, err := os.Stat(path); err != nil {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		writeMixedLog(f, logSize)
		f.Close()
	}
	return path
}
