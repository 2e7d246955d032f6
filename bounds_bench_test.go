//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkHostileRSS runs the real binary against each hostile row of
// issue 13 and reports the yaicli process's peak memory (child-peak-MiB),
// the same above the idle row's (above-idle-MiB, when the idle row ran)
// and its wall time. The peak is VmHWM from /proc, sampled every 5 ms
// until the process exits (watchPeak): a child's ru_maxrss would report
// this test process's own size, which os/exec's vfork hands to the child
// before exec. The "idle" row is a plain short answer, the baseline every
// row is held to (under 64 MiB above it). Run with:
// go test -run XXX -bench HostileRSS -benchtime 1x
func BenchmarkHostileRSS(b *testing.B) {
	pad := strings.Repeat("0123456789abcdef", 2<<20/16)
	args, _ := json.Marshal(map[string]string{"directory_path": ".", "pad": pad})
	blob, _ := json.Marshal(map[string]string{"blob": strings.Repeat("b", 200<<10)})
	rows := []peakRow{{name: "idle", steps: []step{sse(textStream("ok"))}}}
	for _, h := range hostileRows {
		rows = append(rows, peakRow{name: h.name, steps: []step{h.step}, env: h.env})
	}
	rows = append(rows,
		peakRow{name: "2 MB arguments in 9-byte deltas", steps: []step{sse(deltaStream("c1", "fs_list_directory", string(args), 9)), sse(textStream("ok"))}},
		peakRow{name: "anthropic 700 KB answer", steps: []step{sse(anthropicTextStream(100_000, 7))}, env: []string{"YAI_PROVIDER=anthropic"}},
		peakRow{name: "openai 700 KB answer", steps: []step{sse(textStream(strings.Split(strings.Repeat("aaaaaaa,", 100_000), ",")...))}},
		peakRow{name: "MCP result of 300 MB", steps: []step{sse(toolStream(fakeCall{"c1", "mcp__srv__second_tool", "{}"})), sse(textStream("ok"))},
			mcp: selfServerMB("big-result", 300)},
		peakRow{name: "MCP server stops reading, 200 KB args", steps: []step{sse(toolStream(fakeCall{"c1", "mcp__srv__second_tool", string(blob)})), sse(textStream("ok"))},
			env: []string{"YAI_MCP_TIMEOUT=3"}, mcp: selfServer("deaf")},
	)
	rows = append(rows, readRows(b)...)
	var idle int64
	for _, r := range rows {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				peak, wall, code, out := runPeak(b, r)
				if r.name == "idle" {
					idle = peak
				}
				b.ReportMetric(wall.Seconds(), "wall-s")
				b.ReportMetric(float64(peak)/(1<<20), "child-peak-MiB")
				if idle > 0 {
					b.ReportMetric(float64(peak-idle)/(1<<20), "above-idle-MiB")
				}
				if testing.Verbose() {
					fmt.Fprintf(os.Stderr, "%s: exit %d: %.200s\n", r.name, code, lastLine(out))
				}
			}
		})
	}
}

// readRows are issue 13's fs_read_file rows: a FIFO, /dev/zero, a 300 MB
// file with limit 1e12, and the same file listed 200 times. The files are
// made once, in a directory the runs share as their workspace.
func readRows(b *testing.B) []peakRow {
	dir := b.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		b.Fatal(err)
	}
	huge := hugeText(b, dir)
	paths := make([]string, 200)
	for i := range paths {
		paths[i] = huge
	}
	read := func(name string, args map[string]any) peakRow {
		j, _ := json.Marshal(args)
		return peakRow{name: name, dir: dir, steps: []step{sse(toolStream(fakeCall{"c1", "fs_read_file", string(j)})), sse(textStream("ok"))}}
	}
	return []peakRow{
		read("fs_read_file FIFO", map[string]any{"file_paths": "fifo"}),
		read("fs_read_file /dev/zero", map[string]any{"file_paths": "/dev/zero"}),
		read("fs_read_file 300 MB, limit 1e12", map[string]any{"file_paths": huge, "limit": 1e12}),
		read("fs_read_file 300 MB listed 200 times, limit 1e12", map[string]any{"file_paths": paths, "limit": 1e12}),
	}
}

// hugeText writes a 300 MB UTF-8 text file (mixed one-, two- and
// three-byte characters) into dir and returns its path.
func hugeText(b *testing.B, dir string) string {
	b.Helper()
	p := filepath.Join(dir, "huge.txt")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	line := bytes.Repeat([]byte("héllo wörld 日本語 0123456789\n"), 1<<10)
	for written := 0; written < 300<<20; written += len(line) {
		if _, err := f.Write(line); err != nil {
			b.Fatal(err)
		}
	}
	return p
}

// peakRow is one run of the binary whose peak memory is measured: the
// provider's steps, extra environment, an MCP server to offer (when its
// Command is set) and the workspace ("" = the run's own home).
type peakRow struct {
	name  string
	steps []step
	env   []string
	mcp   mcpServerConfig
	dir   string
}

// runPeak runs the binary with --yes and tools on, as r says, and returns
// its peak resident memory (VmHWM, watchPeak), its wall time, its exit
// code and what it wrote to stdout and stderr.
func runPeak(b *testing.B, r peakRow) (peak int64, wall time.Duration, code int, out string) {
	b.Helper()
	f := newFakeProvider(b, r.steps...)
	home := b.TempDir()
	c := exec.Command(binary, "--yes", "--enable-functions", "go")
	c.Env = append([]string{"HOME=" + home, "TMPDIR=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "PATH=" + os.Getenv("PATH"),
		"SHELL=/bin/sh", "YAI_BASE_URL=" + f.url(), "YAI_API_KEY=k", "YAI_TOOL_DISPLAY_MAX_LINES=1"}, r.env...)
	if r.mcp.Command != "" {
		p := filepath.Join(home, "mcp.json")
		j, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"srv": r.mcp}})
		os.WriteFile(p, j, 0o600)
		c.Env = append(c.Env, "YAI_ENABLE_MCP=true", "YAI_MCP_CONFIG="+p)
	}
	c.Dir = home
	if r.dir != "" {
		c.Dir = r.dir
	}
	var o strings.Builder
	c.Stdout, c.Stderr = &o, &o
	start := time.Now()
	if err := c.Start(); err != nil {
		b.Fatal(err)
	}
	peaks := watchPeak(c.Process.Pid)
	c.Wait()
	wall = time.Since(start)
	return <-peaks, wall, c.ProcessState.ExitCode(), o.String()
}

// BenchmarkOneShotReadHuge runs the real binary: a scripted model lists a
// 300 MB file 200 times with limit 1e12 in one fs_read_file call.
// Reported: the yaicli process's peak memory (child-peak-MiB, VmHWM as
// runPeak reads it), the same for a run that only answers text
// (idle-peak-MiB), the difference (above-idle-MiB) and the wall time. It
// lives here, not beside fs_read_file, because /proc is Linux's.
// Run with: go test -run XXX -bench OneShotReadHuge -benchtime 1x
func BenchmarkOneShotReadHuge(b *testing.B) {
	dir := b.TempDir()
	p := hugeText(b, dir)
	paths := make([]string, 200)
	for i := range paths {
		paths[i] = p
	}
	args, _ := json.Marshal(map[string]any{"file_paths": paths, "limit": 1e12})
	for b.Loop() {
		idle, _, _, _ := runPeak(b, peakRow{steps: []step{sse(textStream("hello"))}, dir: dir})
		peak, wall, code, out := runPeak(b, peakRow{steps: []step{sse(toolStream(fakeCall{"c1", "fs_read_file", string(args)})), sse(textStream("done"))}, dir: dir})
		if code != 0 {
			b.Fatalf("exit %d: %s", code, out)
		}
		b.ReportMetric(float64(idle)/(1<<20), "idle-peak-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "child-peak-MiB")
		b.ReportMetric(float64(peak-idle)/(1<<20), "above-idle-MiB")
		b.ReportMetric(wall.Seconds(), "wall-s")
	}
}

// BenchmarkOneShotGiB runs the real binary: a scripted model asks for a
// command printing 1 GiB, and the yaicli process's peak memory (child-peak-
// MiB, VmHWM as runPeak reads it) is reported next to its wall time. It
// lives here, beside runPeak, because /proc is Linux's.
// Run with: go test -run XXX -bench OneShotGiB -benchtime 1x
func BenchmarkOneShotGiB(b *testing.B) {
	const cmd = `head -c 1073741824 /dev/zero | tr '\0' 'x' | fold -w 100`
	args, _ := json.Marshal(map[string]string{"shell_command": cmd})
	for b.Loop() {
		peak, wall, code, out := runPeak(b, peakRow{steps: []step{sse(toolStream(fakeCall{"c1", "execute_shell_command", string(args)})), sse(textStream("done"))}})
		if code != 0 {
			b.Fatalf("exit %d: %s", code, out)
		}
		b.ReportMetric(wall.Seconds(), "wall-s")
		b.ReportMetric(float64(peak)/(1<<20), "child-peak-MiB")
	}
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// watchPeak samples the process's VmHWM until it is gone and sends the
// last value read, in bytes.
func watchPeak(pid int) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		var last int64
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err != nil {
				break
			}
			_, rest, ok := strings.Cut(string(b), "VmHWM:")
			if !ok {
				break // a zombie has no memory left to report
			}
			var kb int64
			fmt.Sscan(rest, &kb)
			last = max(last, kb*1024)
			time.Sleep(5 * time.Millisecond)
		}
		out <- last
	}()
	return out
}
