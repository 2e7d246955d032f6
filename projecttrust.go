package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A cloned repository's AGENTS.md is words a stranger wrote, sent with
// every request as the system prompt's own. So the person is told which
// files they are (path, size, hash) the first time they are loaded in a
// repository and whenever they change, and the REPL on a terminal asks
// once per repository (and again when they change) whether to trust them.
// What was loaded and answered is kept in the state directory, per
// repository, as the files' hashes.

// projectLoad is what loading one run's project instructions needs.
type projectLoad struct {
	workDir string
	home    string    // the run's home, for the judgement of places ("" unknown)
	red     *redactor // this run's secrets: a file that holds one is not sent
	// perms are the run's places for the judgement of reads (yaicli's own
	// configuration and state, TOOL_OUTPUT_DIR); workDir and home fill in
	// what they leave out.
	perms permissionOptions
	// memory is where what was loaded is remembered per repository
	// (projecttrust.go); "" remembers nothing, so every run names them.
	memory string
	// ask is the REPL's question on a terminal, once per repository and
	// again when the files change; nil when there is no one to ask (a
	// one-shot run, a piped chat): the files are named on stderr instead.
	ask  func(question string) (bool, error)
	warn io.Writer
}

// projectFound is one AGENTS.md read and judged.
type projectFound struct {
	path string
	text string // as sent: trimmed, controls and invisible characters shown
	size int64
	hash string // sha256 of the file's bytes, hex
}

// projectMemoryFile is the file in yaicli's state directory that keeps,
// per repository, the hashes of the AGENTS.md files loaded and answered.
const projectMemoryFile = "project_instructions.json"

// projectMemoryMax bounds what is read of that file.
const projectMemoryMax = 4 << 20

// projectSeen is what is kept of one repository: the files' hashes last
// named on stderr, and the last answer to the question with the hashes it
// was given for.
type projectSeen struct {
	Seen     map[string]string `json:"seen,omitempty"`
	Answer   string            `json:"answer,omitempty"` // "yes" or "no"
	Answered map[string]string `json:"answered,omitempty"`
}

// hashes is found's path -> sha256.
func hashes(found []projectFound) map[string]string {
	m := map[string]string{}
	for _, pf := range found {
		m[pf.path] = pf.hash
	}
	return m
}

// sameHashes reports whether a and b name the same files with the same hashes.
func sameHashes(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// trusted says whether found, the AGENTS.md files of repo, go into the
// system prompt, naming them on stderr when they are new or changed since
// this repository last loaded them, and asking when pl.ask is set and the
// person has not answered for these very files. The answer and what was
// named are remembered.
func (pl projectLoad) trusted(repo string, found []projectFound) bool {
	mem := loadProjectMemory(pl.memory)
	seen := mem[repo]
	now := hashes(found)
	changed := !sameHashes(seen.Seen, now)
	if changed {
		for _, pf := range found {
			what := "first loaded in this repository"
			if old, ok := seen.Seen[pf.path]; ok && old != pf.hash {
				what = "changed since it was last loaded"
			} else if ok {
				continue
			}
			fmt.Fprintf(pl.warn, "yaicli: project instructions %s (%d bytes, sha256 %s): %s; they go to the model with every request (--no-project-instructions leaves them out)\n",
				sanitize(pf.path), pf.size, pf.hash[:16], what)
		}
		seen.Seen = now
	}
	ok := true
	switch {
	case pl.ask == nil:
	case seen.Answer != "" && sameHashes(seen.Answered, now):
		ok = seen.Answer == "yes"
		if !ok {
			fmt.Fprintf(pl.warn, "yaicli: the project instructions of %s are not loaded: you did not trust them (you are asked again when they change)\n", sanitize(repo))
		}
	default:
		var names []string
		for _, pf := range found {
			names = append(names, pf.path)
		}
		yes, err := pl.ask(fmt.Sprintf("Trust the project instructions of %s (%s)? They are sent as the system prompt's own words with every request. [y/N] ", repo, strings.Join(names, ", ")))
		if err != nil {
			fmt.Fprintf(pl.warn, "yaicli: project instructions not loaded: %s\n", sanitize(err.Error()))
			return false
		}
		ok, seen.Answered = yes, now
		seen.Answer = map[bool]string{true: "yes", false: "no"}[yes]
		changed = true
	}
	if changed && pl.memory != "" {
		mem[repo] = seen
		if err := saveProjectMemory(pl.memory, mem); err != nil {
			fmt.Fprintf(pl.warn, "yaicli: could not remember the project instructions in %s (%s); they are named again next time\n", sanitize(pl.memory), sanitize(err.Error()))
		}
	}
	return ok
}

// loadProjectMemory reads the memory at path; a missing, unreadable or
// untrusted file (another user's, or one others could write) is empty.
func loadProjectMemory(path string) map[string]projectSeen {
	mem := map[string]projectSeen{}
	if path == "" {
		return mem
	}
	f, err := os.Open(path)
	if err != nil {
		return mem
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || unsafeFile(st) != "" {
		return mem
	}
	b, _ := io.ReadAll(io.LimitReader(f, projectMemoryMax))
	json.Unmarshal(b, &mem)
	return mem
}

// saveProjectMemory writes mem to path, 0600 in a private directory.
func saveProjectMemory(path string, mem map[string]projectSeen) error {
	b, err := json.MarshalIndent(mem, "", "  ")
	if err != nil {
		return err
	}
	return writePrivate(path, append(b, '\n'), "XDG_STATE_HOME")
}

// linkWalkMax bounds how many entries of the repository are looked at for
// a file's other names, linkWalkDepth how deep.
const (
	linkWalkMax   = 20000
	linkWalkDepth = 12
)

// linksOutside says why a file of several names is not trusted when some
// of them are not in the repository (repo), or "": what a name elsewhere
// is (a key of a service under /srv, another account's file) cannot be
// told, so such a file fails closed. What its names in the repository and
// in the sensitive places are is judged by identity (places.identity).
func linksOutside(path, repo string, st os.FileInfo) string {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || sys.Nlink <= 1 {
		return ""
	}
	found, n := 0, 0
	filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if n++; n > linkWalkMax {
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if strings.Count(strings.TrimPrefix(p, repo), string(filepath.Separator)) >= linkWalkDepth {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || p == path {
			return nil
		}
		if info, err := d.Info(); err == nil {
			if s, ok := info.Sys().(*syscall.Stat_t); ok && s.Dev == sys.Dev && s.Ino == sys.Ino {
				found++
			}
		}
		return nil
	})
	if missing := int(sys.Nlink) - 1 - found; missing > 0 {
		return fmt.Sprintf("it has %d hard links, %d of them outside the repository %s, so what else it is cannot be told (a key file?); "+
			"run cp %s %s.new && mv %s.new %s to give it a name of its own", sys.Nlink, missing, repo, path, path, path, path)
	}
	return ""
}

// askLine asks question on out and reads the answer, a line of in read a
// byte at a time (the terminal is still in its own line mode, and nothing
// after the line is taken from the REPL): y or yes is yes.
func askLine(in io.Reader, out io.Writer) func(string) (bool, error) {
	return func(question string) (bool, error) {
		fmt.Fprint(out, question)
		var line []byte
		b := make([]byte, 1)
		for len(line) < 256 {
			n, err := in.Read(b)
			if n == 1 && b[0] == '\n' {
				break
			}
			if n == 1 {
				line = append(line, b[0])
			}
			if err != nil {
				return false, fmt.Errorf("no answer (%v)", err)
			}
		}
		a := strings.ToLower(strings.TrimSpace(string(line)))
		return a == "y" || a == "yes", nil
	}
}
