package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// spillDir writes tool results to TOOL_OUTPUT_DIR before they are cut, so
// nothing the model saw is lost; now (the run's clock) names the files.
type spillDir struct {
	dir string
	now func() time.Time // nil: the zero time, for a spillDir made by hand
}

// keep writes tool's result c whole to a new file in d: c with the file,
// or with why it could not be written.
func (d spillDir) keep(c *clip, tool string) *clip {
	var now time.Time
	if d.now != nil {
		now = d.now()
	}
	return c.spilled(spillOpener(d.dir, tool, now))
}

// spillOpener returns a function that creates a new spill file for tool in
// dir: YYYYMMDD-HHMMSS-<tool>.txt, a numeric suffix when taken, mode 0600.
func spillOpener(dir, tool string, now time.Time) func() (io.WriteCloser, string, error) {
	return func() (io.WriteCloser, string, error) {
		if dir == "" {
			return nil, "", errors.New("TOOL_OUTPUT_DIR is empty")
		}
		if err := spillRoom(dir); err != nil {
			return nil, "", err
		}
		base := spillBase(tool, now)
		for i := 1; i < 1000; i++ {
			name := base + ".txt"
			if i > 1 {
				name = fmt.Sprintf("%s-%d.txt", base, i)
			}
			p := filepath.Join(dir, name)
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if errors.Is(err, os.ErrExist) {
				continue
			}
			if err != nil {
				return nil, "", fmt.Errorf("creating %s: %w", p, err)
			}
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			return f, p, nil
		}
		return nil, "", fmt.Errorf("too many spill files named %s in %s", base, dir)
	}
}

// spillRoom makes dir ready for a spill file: private (made if missing),
// and not already holding spillDirMax.
func spillRoom(dir string) error {
	if err := privateDir(dir, os.Geteuid(), "TOOL_OUTPUT_DIR"); err != nil {
		return err
	}
	if n := dirBytes(dir); n >= spillDirMax {
		return fmt.Errorf("TOOL_OUTPUT_DIR (%s) already holds %s, the most yaicli fills it with (%s); the earlier outputs stay, this one is not kept: remove old files there", dir, sizeText(n), sizeText(spillDirMax))
	}
	return nil
}

// spillBase is the name of tool's spill file made at now, without its
// suffix: YYYYMMDD-HHMMSS-<tool>.
func spillBase(tool string, now time.Time) string {
	return now.Format("20060102-150405") + "-" + asciiName(tool)
}

// spillDirMax bounds what the spill directory holds: each file stops at
// TOOL_OUTPUT_SPILL_MAX_BYTES, and this keeps a model that prints 64 MiB
// a call from filling the disk call after call. Past it a result is still
// truncated, only not kept, and its marker says why.
const spillDirMax = 1 << 30

// dirBytes is the size of the regular files right in dir.
func dirBytes(dir string) int64 {
	ents, _ := os.ReadDir(dir)
	var n int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}

// asciiName keeps only [A-Za-z0-9_-] of a name: tool names as the APIs accept
// them, and spill file names as spillName matches them (chat and role
// titles keep theirs: safeFileName).
func asciiName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// spillName matches the files spillOpener names: YYYYMMDD-HHMMSS-tool.txt,
// with -N when a name was taken.
var spillName = regexp.MustCompile(`^\d{8}-\d{6}-[A-Za-z0-9_-]+\.txt$`)

// removeOldSpills deletes spill files older than days (0 keeps them all),
// in dir and its sensitive part: only files with spillOpener's names
// (spillName; never thesis.txt or todo.txt), and only in a directory of
// ours (checkPrivate). It runs in the background at start-up; errors do
// not matter to anyone.
func removeOldSpills(dir string, days int, now time.Time) int {
	if days <= 0 || dir == "" {
		return 0
	}
	return removeOldIn(dir, days, now) + removeOldIn(filepath.Join(dir, sensitiveSpillDir), days, now)
}

// removeOldIn is removeOldSpills for the files right in dir.
func removeOldIn(dir string, days int, now time.Time) int {
	if checkPrivate(dir, os.Geteuid(), "TOOL_OUTPUT_DIR") != nil {
		return 0
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	cutoff := now.Add(-time.Duration(days) * 24 * time.Hour)
	removed := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !spillName.MatchString(e.Name()) {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
			if os.Remove(filepath.Join(dir, e.Name())) == nil {
				removed++
			}
		}
	}
	return removed
}

// spillTo is the spill function trimming and masking take: it writes a
// tool message's whole text to d and records the file (or why it could not
// be written) in the message's clip.
func spillTo(d spillDir) func(*message) {
	return func(m *message) {
		if m.clip == nil {
			m.clip = truncate(m.Content, 0)
		}
		m.clip = d.keep(m.clip, m.Name)
	}
}

// missingSpill explains an open error for a spilled tool output that is
// gone (removed after TOOL_OUTPUT_RETENTION_DAYS, or by hand), as a stub in
// an old saved chat may point to one; "" for any other error.
func missingSpill(path string, err error) string {
	if !errors.Is(err, fs.ErrNotExist) || !spillName.MatchString(filepath.Base(path)) {
		return ""
	}
	return "; this was a tool output saved by yaicli, and the file is missing (spilled outputs are removed after TOOL_OUTPUT_RETENTION_DAYS days): its full text is lost, so run the tool again if it is still needed"
}
