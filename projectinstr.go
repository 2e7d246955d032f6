package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Project instructions: the AGENTS.md files of the workspace (the file
// Codex, Claude Code, Gemini CLI, opencode and others read for a project's
// rules) go into the system prompt, after the role's words. The system
// prompt is the first message and leads every request: no reduction, heal,
// INTERACTIVE_ROUND or compaction touches the leading system messages, so
// the rules are in every request, and in the provider's cached prefix.

// projectFile is the file name read in each directory.
const projectFile = "AGENTS.md"

// projectMaxChars caps the instructions, all files together: they are
// paid in every request, and nothing can reduce them (~2k tokens, a third
// of an 8k window's budget). Past it the rest is left out, and said.
const projectMaxChars = 8000

// projectHeader starts the instructions in the system prompt; /context
// finds their cost by it.
const projectHeader = "\n\n# Project instructions (AGENTS.md)\n"

// projectDirs is the directories whose AGENTS.md is read: the workspace
// and its parents up to the repository's root (the nearest one holding
// .git), that root first and the workspace last; the workspace alone
// outside a repository.
func projectDirs(workDir string) []string {
	dir, err := filepath.Abs(workDir)
	if err != nil {
		return nil
	}
	var up []string
	for d := dir; ; {
		up = append(up, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(d)
		if parent == d { // no repository: only the workspace
			up = up[:1]
			break
		}
		d = parent
	}
	for i, j := 0, len(up)-1; i < j; i, j = i+1, j-1 {
		up[i], up[j] = up[j], up[i]
	}
	return up
}

// projectInstructions is the system prompt's block of the AGENTS.md files
// found for workDir ("" when none), and the files it holds. A file that is
// not the person's own or that others may write, a link, or not a regular
// file is said on warn and left out; so is what passes projectMaxChars.
func projectInstructions(workDir string, warn io.Writer) (string, []string) {
	var b strings.Builder
	var used []string
	left := projectMaxChars
	for _, dir := range projectDirs(workDir) {
		path := filepath.Join(dir, projectFile)
		text, err := readTrusted(path)
		if err != nil {
			if !os.IsNotExist(err) {
				fmt.Fprintf(warn, "yaicli: %s not loaded: %s\n", sanitize(path), sanitize(err.Error()))
			}
			continue
		}
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if left <= 0 {
			fmt.Fprintf(warn, "yaicli: %s not loaded: the project instructions' cap of %d characters was reached\n", sanitize(path), projectMaxChars)
			continue
		}
		if n := utf8.RuneCountInString(text); n > left {
			fmt.Fprintf(warn, "yaicli: %s cut to its first %d characters, of %d (the project instructions' cap is %d in all)\n", sanitize(path), left, n, projectMaxChars)
			text = firstRunes(text, left)
		}
		left -= utf8.RuneCountInString(text)
		fmt.Fprintf(&b, "\n## %s\n%s\n", path, text)
		used = append(used, path)
	}
	if len(used) == 0 {
		return "", nil
	}
	return projectHeader + "Rules of this project, from its AGENTS.md files (the nearest last: it wins where they differ):\n" + b.String(), used
}

// readTrusted reads a file that is the person's own: not a link, regular,
// owned by this user and writable by no one else, all judged on the handle
// that is read, so a swap between the look and the read changes nothing.
func readTrusted(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&os.ModeSymlink != 0 {
			return "", fmt.Errorf("it is a symbolic link (only the person's own regular file is read)")
		}
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file")
	}
	if why := unsafeFile(st); why != "" {
		return "", fmt.Errorf("%s; only a file of your own that others cannot write is trusted: run chmod go-w %s (and own it) to use it", why, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, 4*projectMaxChars+1))
	if err != nil {
		return "", err
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), nil
}

// withProjectInstructions is the system prompt with the workspace's
// AGENTS.md block after the role's words (on: PROJECT_INSTRUCTIONS).
func withProjectInstructions(system string, on bool, workDir string, warn io.Writer) string {
	if !on {
		return system
	}
	block, _ := projectInstructions(workDir, warn)
	return system + block
}

// projectPart splits a system prompt into the role's words and the
// project instructions' block ("" when it has none), for /context.
func projectPart(system string) (role, project string) {
	if i := strings.Index(system, projectHeader); i >= 0 {
		return system[:i], system[i:]
	}
	return system, ""
}
