//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkHostileRSS runs the real binary against each hostile row of
// issue 13 and reports the yaicli process's peak memory (child-maxrss-MiB)
// and its wall time. The peak is VmHWM from /proc, sampled every 5 ms
// until the process exits: a child's ru_maxrss would report this test
// process's own size, which os/exec's vfork hands to the child before exec.
// The "idle" row is a plain short answer, the baseline
// every row is held to (under 64 MiB above it). Run with:
// go test -run XXX -bench HostileRSS -benchtime 1x
func BenchmarkHostileRSS(b *testing.B) {
	type row struct {
		name  string
		steps []step
		env   []string
		mcp   mcpServerConfig // a server to offer, when Command is set
	}
	pad := strings.Repeat("0123456789abcdef", 2<<20/16)
	args, _ := json.Marshal(map[string]string{"directory_path": ".", "pad": pad})
	blob, _ := json.Marshal(map[string]string{"blob": strings.Repeat("b", 200<<10)})
	rows := []row{{name: "idle", steps: []step{sse(textStream("ok"))}}}
	for _, h := range hostileRows {
		rows = append(rows, row{name: h.name, steps: []step{h.step}, env: h.env})
	}
	rows = append(rows,
		row{name: "2 MB arguments in 9-byte deltas", steps: []step{sse(deltaStream("c1", "fs_list_directory", string(args), 9)), sse(textStream("ok"))}},
		row{name: "anthropic 700 KB answer", steps: []step{sse(anthropicTextStream(100_000, 7))}, env: []string{"YAI_PROVIDER=anthropic"}},
		row{name: "openai 700 KB answer", steps: []step{sse(textStream(strings.Split(strings.Repeat("aaaaaaa,", 100_000), ",")...))}},
		row{name: "MCP result of 300 MB", steps: []step{sse(toolStream(fakeCall{"c1", "mcp__srv__second_tool", "{}"})), sse(textStream("ok"))},
			mcp: selfServerMB("big-result", 300)},
		row{name: "MCP server stops reading, 200 KB args", steps: []step{sse(toolStream(fakeCall{"c1", "mcp__srv__second_tool", string(blob)})), sse(textStream("ok"))},
			env: []string{"YAI_MCP_TIMEOUT=3"}, mcp: selfServer("deaf")},
	)
	for _, r := range rows {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
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
				var out strings.Builder
				c.Stdout, c.Stderr = &out, &out
				start := time.Now()
				if err := c.Start(); err != nil {
					b.Fatal(err)
				}
				peak := watchPeak(c.Process.Pid)
				c.Wait()
				b.ReportMetric(time.Since(start).Seconds(), "wall-s")
				b.ReportMetric(float64(<-peak)/(1<<20), "child-peak-MiB")
				if testing.Verbose() {
					fmt.Fprintf(os.Stderr, "%s: exit %d: %.200s\n", r.name, c.ProcessState.ExitCode(), lastLine(out.String()))
				}
			}
		})
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
