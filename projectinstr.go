package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
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
// found for pl.workDir ("" when none), and the files it holds. A file that
// is not the person's own or that others may write, a link, not a regular
// file, or one the judgement of reads refuses (a hard link to a key file,
// a key by content) is said on warn and left out. The cap is shared
// nearest first: the workspace's own file wins its room, the root's is cut.
func projectInstructions(pl projectLoad) (string, []string) {
	dirs := projectDirs(pl.workDir)
	if len(dirs) == 0 {
		return "", nil
	}
	repo := dirs[0]
	var found []projectFound
	left := projectMaxChars
	for i := len(dirs) - 1; i >= 0; i-- { // nearest first: it wins its room
		path := filepath.Join(dirs[i], projectFile)
		pf, err := readProjectFile(path, repo, pl)
		if err != nil {
			if !os.IsNotExist(err) {
				fmt.Fprintf(pl.warn, "yaicli: %s not loaded: %s\n", sanitize(path), sanitize(err.Error()))
			}
			continue
		}
		if pf.text == "" {
			continue
		}
		if left <= 0 {
			fmt.Fprintf(pl.warn, "yaicli: %s not loaded: the project instructions' cap of %d characters was reached by the nearer files\n", sanitize(path), projectMaxChars)
			continue
		}
		if n := utf8.RuneCountInString(pf.text); n > left {
			fmt.Fprintf(pl.warn, "yaicli: %s cut to its first %d characters, of %d (the project instructions' cap is %d in all, nearer files first)\n", sanitize(path), left, n, projectMaxChars)
			pf.text = firstRunes(pf.text, left)
		}
		left -= utf8.RuneCountInString(pf.text)
		found = append([]projectFound{pf}, found...) // the root first in the prompt
	}
	if len(found) == 0 || !pl.trusted(repo, found) {
		return "", nil
	}
	var b strings.Builder
	var used []string
	for _, pf := range found {
		fmt.Fprintf(&b, "\n## %s\n%s\n", sanitize(pf.path), pf.text) // a directory name of the repository is its words too
		used = append(used, pf.path)
	}
	return projectHeader + "Rules of this project, from its AGENTS.md files (the nearest last: it wins where they differ):\n" + b.String(), used
}

// readProjectFile reads and judges one AGENTS.md (repo: the repository's
// root, where the file's other names are looked for).
func readProjectFile(path, repo string, pl projectLoad) (projectFound, error) {
	raw, st, err := readTrusted(path, repo, pl)
	if err != nil {
		return projectFound{}, err
	}
	sum := sha256.Sum256(raw)
	text := strings.ToValidUTF8(string(raw), "\uFFFD")
	return projectFound{path: path, text: sanitize(strings.TrimSpace(text)), size: st.Size(), hash: hex.EncodeToString(sum[:])}, nil
}

// readTrusted reads a file that is the person's own: not a link, regular,
// owned by this user and writable by no one else, with no name outside
// the repository (linksOutside), and not sensitive as the one judgement
// of reads has it (judgeHandle: by name and place, by identity (a hard
// link to a .env at any depth of the repository, to a key in any
// account's ~/.ssh), by owner and mode, by content), all on the handle
// that is read, so a swap between the look and the read changes nothing
// and the system prompt carries nothing a read would ask about.
func readTrusted(path, repo string, pl projectLoad) ([]byte, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&os.ModeSymlink != 0 {
			return nil, nil, fmt.Errorf("it is a symbolic link (only the person's own regular file is read)")
		}
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("not a regular file")
	}
	if why := unsafeFile(st); why != "" {
		return nil, nil, fmt.Errorf("%s; only a file of your own that others cannot write is trusted: run %s %s to use it", why, writeFix(st), path)
	}
	if why, _ := pl.judge(repo).judgeHandle(path, f); why != "" {
		return nil, nil, fmt.Errorf("it is %s; project instructions never carry one, as a read of it asks every time", why)
	}
	if why := linksOutside(path, repo, st); why != "" {
		return nil, nil, errors.New(why)
	}
	f.Seek(0, io.SeekStart)
	b, err := io.ReadAll(io.LimitReader(f, 4*projectMaxChars+1))
	if err != nil {
		return nil, nil, err
	}
	return b, st, nil
}

// judge is the judgement of reads (permissions) made for the repository
// repo: the run's places, repo as the workspace, and the identity table
// of repo's tree, so a key file anywhere in it, above the start directory
// too, is known by its inode.
func (pl projectLoad) judge(repo string) *permissions {
	o := pl.perms
	o.workDir, o.saveFile, o.auditLog = repo, "", ""
	if o.homeDir == "" {
		o.homeDir = pl.home
	}
	p := newPermissions(o, pl.red, func(string) {})
	p.inodes = identityTable(resolvePath(repo, "/"))
	return p
}

// writeFix is the chmod that takes away the write bits others have.
func writeFix(st os.FileInfo) string {
	switch m := st.Mode().Perm(); {
	case m&0o022 == 0o020:
		return "chmod g-w"
	case m&0o022 == 0o002:
		return "chmod o-w"
	}
	return "chmod go-w"
}

// withProjectInstructions is the system prompt with the workspace's
// AGENTS.md block after the role's words (on: PROJECT_INSTRUCTIONS).
func withProjectInstructions(system string, on bool, pl projectLoad) string {
	if !on {
		return system
	}
	block, _ := projectInstructions(pl)
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
