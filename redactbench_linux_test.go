package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkOneShotCatLog is issue 47's measure of the redactor's cost as a
// person meets it: the real binary, asked by a scripted model to run
// `cat big.log` (38.9 MB of writeMixedLog, YAICLI_BENCH_FILE when set)
// through the shell tool, its output redacted, clipped and spilled, timed
// against `cat big.log > /dev/null`. Sub-benchmarks: "cat"; "idle" (the
// model answers at once: the binary's own start and peak); "no-secret"
// (a key too short to be a secret, so nothing is redacted: the path's own
// cost); "redacted" (an API key of the usual shape). Commands run
// unfenced (YAI_SANDBOX=off): the fence's start has its own benchmark.
// Reported: wall-s and cpu-s of the process (user and system), the
// yaicli process's peak memory (child-peak-MiB, VmHWM as watchPeak reads
// it), each the median of the runs, and x-cat, the median wall time over
// cat's. Run with
// go test -run '^$' -bench OneShotCatLog -benchtime 5x.
func BenchmarkOneShotCatLog(b *testing.B) {
	path := benchLogFile(b)
	var catWall []time.Duration
	b.Run("cat", func(b *testing.B) {
		var cpu []time.Duration
		for b.Loop() {
			c := exec.Command("sh", "-c", `exec cat "$0" >/dev/null`, path)
			start := time.Now()
			if err := c.Run(); err != nil {
				b.Fatal(err)
			}
			catWall = append(catWall, time.Since(start))
			cpu = append(cpu, c.ProcessState.UserTime()+c.ProcessState.SystemTime())
		}
		b.ReportMetric(median(catWall).Seconds(), "wall-s")
		b.ReportMetric(median(cpu).Seconds(), "cpu-s")
	})
	args, _ := json.Marshal(map[string]string{"shell_command": "cat " + path})
	for _, row := range []struct{ name, key string }{{"idle", "sk-proj-Q7vX2mKp9LzR4tWn8YbC3hJd"}, {"no-secret", "k"}, {"redacted", "sk-proj-Q7vX2mKp9LzR4tWn8YbC3hJd"}} {
		b.Run(row.name, func(b *testing.B) {
			var walls, cpu, peak []time.Duration
			for b.Loop() {
				steps := []step{sse(toolStream(fakeCall{"c1", "execute_shell_command", string(args)})), sse(textStream("done"))}
				if row.name == "idle" {
					steps = steps[1:]
				}
				f := newFakeProvider(b, steps...)
				home := b.TempDir()
				c := exec.Command(binary, "--yes", "--enable-functions", "show the log")
				c.Env = []string{"HOME=" + home, "TMPDIR=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "PATH=" + os.Getenv("PATH"),
					"SHELL=/bin/sh", "YAI_BASE_URL=" + f.url(), "YAI_API_KEY=" + row.key, "YAI_SANDBOX=off", "YAI_TOOL_DISPLAY_MAX_LINES=1"}
				c.Dir = home
				start := time.Now()
				if err := c.Start(); err != nil {
					b.Fatal(err)
				}
				peaks := watchPeak(c.Process.Pid)
				c.Wait()
				walls = append(walls, time.Since(start))
				if len(f.chats()) != len(steps) || c.ProcessState.ExitCode() != 0 {
					b.Fatalf("exit %d after %d requests", c.ProcessState.ExitCode(), len(f.chats()))
				}
				cpu = append(cpu, c.ProcessState.UserTime()+c.ProcessState.SystemTime())
				peak = append(peak, time.Duration(<-peaks)) // bytes, sorted as durations are
			}
			b.ReportMetric(median(walls).Seconds(), "wall-s")
			b.ReportMetric(median(cpu).Seconds(), "cpu-s")
			b.ReportMetric(float64(median(peak))/(1<<20), "child-peak-MiB")
			if len(catWall) > 0 {
				b.ReportMetric(median(walls).Seconds()/median(catWall).Seconds(), "x-cat")
			}
		})
	}
}

// median is the middle of d (the upper of the two middles).
func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
