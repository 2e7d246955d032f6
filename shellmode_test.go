package main

import (
	"strings"
	"testing"
)

func TestCleanCommandAndFences(t *testing.T) {
	for in, want := range map[string]string{"```bash\nls -la\n```": "ls -la", "$ df -h\n": "df -h", "  du -sh *  ": "du -sh *"} {
		if got := cleanCommand(in); got != want {
			t.Errorf("cleanCommand(%q) = %q, want %q", in, got, want)
		}
	}
	var out strings.Builder
	f := &fenceFilter{w: &out}
	for _, piece := range []string{"``", "`go\npack", "age main\n", "```", "\n", "x := 1"} {
		f.Write([]byte(piece))
	}
	f.flush()
	if out.String() != "package main\n" {
		t.Errorf("fenceFilter = %q", out.String())
	}
}

// TestCodeOnlyFencedCode: --code with prose around fenced blocks prints the
// code alone (so "> file.go" compiles); an answer without fences is kept.
func TestCodeOnlyFencedCode(t *testing.T) {
	for in, want := range map[string]string{
		"Here is the code:\n\n```go\npackage main\n\nfunc main() {}\n```\n\nHope this helps.": "package main\n\nfunc main() {}\n",
		"First:\n```sh\nls\n```\nthen:\n```\ndf -h\n```\nDone.\n":                             "ls\n\ndf -h\n",
		"````md\n```go\nx\n```\n````\n":                                                       "```go\nx\n```\n",
		"print('hi')\nprint('there')":                                                         "print('hi')\nprint('there')",
	} {
		for _, size := range []int{1, 3, len(in)} {
			var out strings.Builder
			f := &fenceFilter{w: &out}
			for i := 0; i < len(in); i += size {
				f.Write([]byte(in[i:min(i+size, len(in))]))
			}
			f.flush()
			if out.String() != want {
				t.Errorf("%q in pieces of %d = %q, want %q", in, size, out.String(), want)
			}
		}
	}
}

// TestShellModeEndToEnd: --shell with a scripted provider shows the command
// and, with --yes, runs it and exits with its code; without a terminal and
// without --yes it only prints it.
func TestShellModeEndToEnd(t *testing.T) {
	t.Parallel()
	answer := sse(textStream("```sh\n", "echo from-the-model; exit 7\n", "```"))
	fp := newFakeProvider(t, check(answer, func(r received) {
		m := r.messages()
		if r.Body["tools"] != nil || !strings.Contains(m[0].Content, "shell command generator for sh on") || m[1].Content != "print and fail" {
			t.Errorf("shell-mode request: tools %v, messages %+v", r.Body["tools"], m)
		}
	}), answer)
	res := runBinary(t, fp, e2e{args: []string{"-s", "--yes", "print and fail"}})
	if res.code != 7 || res.stdout != "echo from-the-model; exit 7\nfrom-the-model\n" {
		t.Errorf("--shell --yes: code %d stdout %q stderr %s", res.code, res.stdout, res.stderr)
	}
	res = runBinary(t, fp, e2e{args: []string{"--shell", "print and fail"}})
	if res.code != 0 || res.stdout != "echo from-the-model; exit 7\n" || !strings.Contains(res.stderr, "not run (no terminal to confirm on); pass --yes") {
		t.Errorf("--shell without a terminal: code %d stdout %q stderr %s", res.code, res.stdout, res.stderr)
	}
}

// TestCodeEndToEnd: --code through run, with the model answering prose
// around a fenced Go block streamed in pieces that split the fences:
// stdout is exactly the code (so "> main.go" compiles), the request offers
// no tools, and the exit code is 0.
func TestCodeEndToEnd(t *testing.T) {
	t.Parallel()
	code := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
	answer := "Here is the code:\n\n```go\n" + code + "```\n\nHope this helps."
	var pieces []string
	for i := 0; i < len(answer); i += 5 {
		pieces = append(pieces, answer[i:min(i+5, len(answer))])
	}
	fp := newFakeProvider(t, check(sse(textStream(pieces...)), func(r received) {
		if r.Body["tools"] != nil {
			t.Errorf("--code request offers tools: %v", r.Body["tools"])
		}
	}))
	r := runBinary(t, fp, e2e{args: []string{"--code", "hello world in go"}})
	if r.code != 0 || r.stdout != code {
		t.Errorf("--code: code %d stdout %q, want 0 and %q; stderr %s", r.code, r.stdout, code, r.stderr)
	}
}
