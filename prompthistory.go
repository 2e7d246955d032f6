package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The prompt history file is ~/.yaicli_history in the format of Python
// YAICLI's prompt_toolkit FileHistory, so both read each other's entries:
//
//	# 2026-12-02 16:00:00.000000
//	+first line
//	+second line of the same entry

// historyPath is the prompt history file in the home directory.
func historyPath(home string) string {
	return filepath.Join(home, ".yaicli_history")
}

// readHistory returns the last max entries, oldest first; a missing or
// unreadable file, or one another user owns or can write to, is an empty
// history.
func readHistory(path string, max int) []string {
	if checkOwnFile(path, os.Geteuid()) != nil {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries := parseHistory(f)
	if max > 0 && len(entries) > max {
		entries = entries[len(entries)-max:]
	}
	return entries
}

// parseHistory reads prompt_toolkit history entries, oldest first.
func parseHistory(r io.Reader) []string {
	var entries, cur []string
	flush := func() {
		if len(cur) > 0 {
			entries = append(entries, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "+") {
			cur = append(cur, line[1:])
		} else {
			flush()
		}
	}
	flush()
	return entries
}

// formatHistoryEntry is one entry in the history file's format.
func formatHistoryEntry(entry string, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n# %s\n", now.Format("2006-01-02 15:04:05.000000"))
	for _, line := range strings.Split(entry, "\n") {
		b.WriteString("+" + line + "\n")
	}
	return b.String()
}

// appendHistory adds an entry while holding an exclusive lock on a
// separate lock file, so two REPLs at once never interleave, and rewrites
// the file to the last max entries when it has grown well past them (temp
// file and rename, so it is never half-written; the lock file is never
// renamed, so a waiting REPL does not end up appending to a replaced file).
func appendHistory(path, entry string, max int, now time.Time) error {
	for _, p := range []string{path, path + ".lock"} {
		if err := checkOwnFile(p, os.Geteuid()); err != nil {
			return err
		}
	}
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(formatHistoryEntry(entry, now))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || max <= 0 {
		return err
	}
	entries := readHistory(path, 0)
	if len(entries) <= max+max/5 {
		return nil
	}
	var b strings.Builder
	for _, e := range entries[len(entries)-max:] {
		b.WriteString(formatHistoryEntry(e, now))
	}
	return writeFileAtomic(path, []byte(b.String()))
}
