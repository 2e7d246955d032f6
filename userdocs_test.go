package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The documents a user reads: the README, which starts them, and the
// guides under docs/ it links to. What they say is tested; each test reads
// the document that now holds its text.
const (
	docUsing         = "docs/USING.md"
	docConfiguration = "docs/CONFIGURATION.md"
	docSafety        = "docs/SAFETY.md"
	docContext       = "docs/CONTEXT.md"
	docScripting     = "docs/SCRIPTING.md"
	docDeveloping    = "docs/DEVELOPING.md"
)

// userDocs are the README and its guides, in the order it lists them.
var userDocs = []string{"README.md", docUsing, docConfiguration, docSafety, docContext, docScripting, docDeveloping}

// docText is the text of the named documents, joined by a blank line; a
// missing one ends the test, so a claim cannot pass by its file going.
func docText(t *testing.T, names ...string) string {
	t.Helper()
	var parts []string
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "\n\n")
}

// TestDocsLinkedFromREADMEAndHelp: the README links every guide, and
// --help names every guide a user reads (all but the developers'), so a
// guide renamed or added is not lost to a newcomer.
func TestDocsLinkedFromREADMEAndHelp(t *testing.T) {
	t.Parallel()
	readme := docText(t, "README.md")
	for _, doc := range userDocs[1:] {
		if !strings.Contains(readme, "]("+doc+")") {
			t.Errorf("README.md does not link %s", doc)
		}
		if doc != docDeveloping && !strings.Contains(usageText, doc) {
			t.Errorf("--help does not name %s", doc)
		}
	}
}

// TestREADMEIsShort: the README stays a start, not the reference: under
// 200 lines, and its first screen (48 lines) holds the static build, the
// way to point yaicli at a server and the three things to know in the
// REPL. The reference lives in the guides it links.
func TestREADMEIsShort(t *testing.T) {
	t.Parallel()
	lines := strings.Split(docText(t, "README.md"), "\n")
	if len(lines) > 200 {
		t.Errorf("README.md has %d lines; move reference material to docs/", len(lines))
	}
	screen := strings.Join(lines[:min(48, len(lines))], "\n")
	for _, want := range []string{"CGO_ENABLED=0 go build -o yaicli .", "YAI_PROVIDER=", "YAI_BASE_URL=", "--write-config",
		"./yaicli --chat", "`/context`", "Ctrl+O", "`/add PATH`"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the README's first screen lacks %q", want)
		}
	}
}

// TestCIRunsREADMETestCommand: .ci/run ends with the README's test command,
// word for word, and the README says what .ci/run installs first.
func TestCIRunsREADMETestCommand(t *testing.T) {
	t.Parallel()
	readme, ci := docText(t, "README.md"), docText(t, ".ci/run")
	_, test, _ := strings.Cut(readme, "## Test\n\n```sh\n")
	command, _, _ := strings.Cut(test, "\n")
	if !strings.HasPrefix(command, "go vet ./...") || !strings.HasSuffix(strings.TrimSpace(ci), "\n"+command) {
		t.Errorf("the README's test command %q is not the last line of .ci/run", command)
	}
	for _, want := range []string{"npm ci", "tmux", "zsh and fish", "python3, git and make", ".ci/ollama-build"} {
		if !strings.Contains(readme, want) {
			t.Errorf("the README does not say .ci/run installs %s", want)
		}
	}
	for _, prog := range []string{"tmux", "zsh", "fish", "python3", "git", "make"} { // what the README names, .ci/run installs
		if !regexp.MustCompile(`for p in [a-z0-9 ]*\b` + prog + `\b`).MatchString(ci) {
			t.Errorf(".ci/run does not install %s when it is missing", prog)
		}
	}
}
