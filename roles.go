package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// role is a named system prompt, as YAICLI keeps them in
// ~/.config/yaicli/roles/<name>.json.
type role struct {
	Name   string `json:"name"`
	Prompt string `json:"prompt"`
}

// Built-in role names.
const (
	roleDefault = "DEFAULT"
	roleShell   = "Shell Command Generator"
	roleCode    = "Code Assistant"
)

// builtinRoles exist without a file; a file of the same name overrides one.
var builtinRoles = map[string]string{
	roleDefault: "You are yaicli, a helpful assistant in a command-line terminal on {_os}; the user's shell is {_shell}. " +
		"Answer concisely; plain text is easier to read in a terminal than heavy Markdown. " +
		"Large tool results are truncated: the marker in the middle gives the file with the full text and an fs_read_file call (offset, limit) to page through it.",
	roleShell: "You are a shell command generator for {_shell} on {_os}. Reply with exactly one command line (chain steps with && or ;) " +
		"that does what the user asks. No explanation, no Markdown, no code fences. If the request is ambiguous, pick the most common, safe reading.",
	roleCode: "You are a code generator. Reply with code only: no explanation, no Markdown, no code fences. " +
		"Comments in the code are fine where they help.",
}

// rolesDir is the roles directory of the config directory
// (~/.config/yaicli/roles; edge.configDir).
func rolesDir(configDir string) string {
	return filepath.Join(configDir, "roles")
}

// roleFile is where a role of that name is stored.
func roleFile(dir, name string) string {
	return filepath.Join(dir, safeFileName(name)+".json")
}

// safeFileName keeps a name usable as a file name: no path separators.
func safeFileName(s string) string {
	return strings.NewReplacer("/", "_", "\\", "_", "\x00", "_").Replace(s)
}

// loadRole finds a role by name: a file first, then the built-ins.
func loadRole(dir, name string) (role, error) {
	b, err := os.ReadFile(roleFile(dir, name))
	if err == nil {
		var r role
		if err := json.Unmarshal(b, &r); err != nil || r.Prompt == "" {
			return role{}, fmt.Errorf("role file %s is not {\"name\", \"prompt\"} JSON", roleFile(dir, name))
		}
		return r, nil
	}
	if p, ok := builtinRoles[name]; ok {
		return role{Name: name, Prompt: p}, nil
	}
	return role{}, fmt.Errorf("no role named %q; yaicli --list-roles shows them, --create-role makes one", name)
}

// listRoles returns every role name: built-in and from files.
func listRoles(dir string) []string {
	seen := map[string]bool{}
	for n := range builtinRoles {
		seen[n] = true
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		var r role
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &r) == nil && r.Name != "" {
			seen[r.Name] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// saveRole writes a role file (mode 0600, parent created).
func saveRole(dir string, r role) error {
	if strings.TrimSpace(r.Name) == "" || strings.TrimSpace(r.Prompt) == "" {
		return errors.New("a role needs a name and a prompt")
	}
	if err := privateDir(dir, os.Geteuid(), "XDG_CONFIG_HOME"); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return writeFileAtomic(roleFile(dir, r.Name), b)
}

// deleteRole removes a role file; built-ins cannot be deleted.
func deleteRole(dir, name string) error {
	err := os.Remove(roleFile(dir, name))
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrNotExist) && builtinRoles[name] != "":
		return fmt.Errorf("%q is built in and cannot be deleted", name)
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("no role named %q", name)
	}
	return err
}

// roleFacts is what a role prompt's {_os} and {_shell} are filled with:
// OS_NAME and SHELL_NAME, and the run's environment whose SHELL names the
// shell when SHELL_NAME is "auto". Built once in run (config.roles).
type roleFacts struct {
	osName, shellName string
	environ           []string
}

// fillRole replaces {_os} and {_shell} in a role prompt: OS_NAME and
// SHELL_NAME, or what this machine says when they are "auto".
func fillRole(f roleFacts, prompt string) string {
	osn, sh := f.osName, f.shellName
	if osn == "" || strings.EqualFold(osn, "auto") {
		osn = osName()
	}
	if sh == "" || strings.EqualFold(sh, "auto") {
		sh = filepath.Base(shellPath(f.environ))
	}
	return strings.NewReplacer("{_os}", osn, "{_shell}", sh).Replace(prompt)
}

// osName is "Linux/<distro>" or "Darwin/macOS <version>", as YAICLI says it.
func osName() string {
	switch runtime.GOOS {
	case "linux":
		if b, err := os.ReadFile("/etc/os-release"); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
					return "Linux/" + strings.Trim(v, `"`)
				}
			}
		}
		return "Linux"
	case "darwin":
		if out, err := exec.Command("sw_vers", "-productVersion").Output(); err == nil {
			return "Darwin/macOS " + strings.TrimSpace(string(out))
		}
		return "Darwin/macOS"
	}
	return runtime.GOOS
}

// writeRoleList prints --list-roles.
func writeRoleList(w io.Writer, dir string) {
	for _, n := range listRoles(dir) {
		where := "built in"
		if _, err := os.Stat(roleFile(dir, n)); err == nil {
			where = roleFile(dir, n)
		}
		fmt.Fprintf(w, "%-28s %s\n", n, where)
	}
}
