//go:build linux

package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// noisePNG writes a PNG of random pixels, which does not compress, of
// about size bytes, and returns its path.
func noisePNG(b *testing.B, dir string, size int) string {
	b.Helper()
	side := 1
	for side*side*4 < size {
		side++
	}
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Uint32())
	}
	img.Set(0, 0, color.NRGBA{1, 2, 3, 255})
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.NoCompression}
	if err := enc.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, "noise.png")
	os.WriteFile(p, buf.Bytes(), 0o644)
	return p
}

// BenchmarkImageRSS runs the binary with --image files of a few sizes
// against the fake provider and reports the process's peak memory
// (child-peak-MiB, VmHWM as BenchmarkHostileRSS reads it) and wall time.
// Run with: go test -run XXX -bench ImageRSS -benchtime 1x
func BenchmarkImageRSS(b *testing.B) {
	for _, mb := range []int{0, 1, 5, 19} {
		b.Run(map[int]string{0: "no image", 1: "1 MB PNG", 5: "5 MB PNG", 19: "19 MB PNG"}[mb], func(b *testing.B) {
			dir := b.TempDir()
			args := []string{"--disable-functions", "what is this?"}
			if mb > 0 {
				args = append(args, "-i", noisePNG(b, dir, mb<<20))
			}
			for b.Loop() {
				f := newFakeProvider(b, sse(textStream("ok")))
				c := exec.Command(binary, args...)
				c.Env = []string{"HOME=" + dir, "TMPDIR=" + dir, "XDG_CONFIG_HOME=" + dir, "XDG_CACHE_HOME=" + dir, "PATH=" + os.Getenv("PATH"),
					"YAI_BASE_URL=" + f.url(), "YAI_API_KEY=k"}
				start := time.Now()
				if err := c.Start(); err != nil {
					b.Fatal(err)
				}
				peak := watchPeak(c.Process.Pid)
				if err := c.Wait(); err != nil {
					b.Fatalf("exit: %v", err)
				}
				b.ReportMetric(time.Since(start).Seconds(), "wall-s")
				b.ReportMetric(float64(<-peak)/(1<<20), "child-peak-MiB")
			}
		})
	}
}

// BenchmarkImageBody is the cost of building one OpenAI request body
// carrying a 5 MB image (done once per request of the turn).
func BenchmarkImageBody(b *testing.B) {
	img, err := loadImage(noisePNG(b, b.TempDir(), 5<<20))
	if err != nil {
		b.Fatal(err)
	}
	o := clientOptions{provider: "openai", model: "gpt-4o", stream: true}
	req := chatRequest{Messages: []message{{Role: roleSystem, Content: "s"}, {Role: roleUser, Content: "q", images: []imagePart{img}}}}
	b.SetBytes(int64(len(img.data)))
	for b.Loop() {
		if _, err := (openaiWire{provider: "openai"}).body(o, req); err != nil {
			b.Fatal(err)
		}
	}
}
