package main

import (
	"os"
	"path/filepath"
)

// A program written into a directory on PATH runs in place of another the
// next time the person, or a command they approve, types its name: a
// replaced .venv/bin/pip, a new bin/ls found through a relative entry. So
// a write there is asked every time, by the fs tools as by any writer.
// PATH is searched one level deep, so a PATH directory's own entries
// count; an environment on PATH counts whole, as an activated virtualenv
// or conda prefix runs a .pth file from its site-packages in every later
// python.

// pathPlaces are the run's PATH directories (a relative or empty entry
// taken against base, where yaicli's commands start) and the prefixes of
// the environments on it (VIRTUAL_ENV, CONDA_PREFIX, the parent of a PATH
// directory beside a pyvenv.cfg), resolved.
func pathPlaces(environ []string, base string) (dirs, envs []string) {
	abs := func(d string) string {
		if !filepath.IsAbs(d) {
			d = filepath.Join(base, d)
		}
		return resolvePath(d, "/")
	}
	for _, d := range filepath.SplitList(envValue(environ, "PATH")) {
		d = abs(d)
		dirs = append(dirs, d)
		if _, err := os.Lstat(filepath.Join(filepath.Dir(d), "pyvenv.cfg")); err == nil {
			envs = append(envs, filepath.Dir(d))
		}
	}
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if d := envValue(environ, v); d != "" {
			envs = append(envs, abs(d))
		}
	}
	return dirs, envs
}

// pathDirs are the places on PATH a write there is asked about
// (pathPlaces), and the start directory, where a "." entry points.
type pathDirs struct {
	dirs, envs []string
	startDir   string
}

// onPath says why a write to path (a real path) replaces what a command
// runs: it is an entry of a PATH directory or lies in an environment on
// PATH. In the start directory itself (a "." entry) only an existing
// program counts: a new file is not executable until a command makes it
// so, and that command is asked or fenced.
func (o pathDirs) onPath(path string) string {
	for _, d := range o.envs {
		if insideDir(path, d) {
			return "an environment on PATH (" + d + "): what is written there runs in every later command of it"
		}
	}
	for _, d := range o.dirs {
		if filepath.Dir(path) == d && (d != o.startDir || isProgram(path)) {
			return "a directory on PATH (" + d + "): a program written there runs in place of another"
		}
	}
	return ""
}

// isProgram reports whether path is an executable regular file.
func isProgram(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}
