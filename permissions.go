package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// permissions decide which reads are free and remember what the person
// allowed: the read area (workspace, TOOL_OUTPUT_DIR, TOOL_READ_ROOTS,
// attached files), the command rules, the tools answered "always" (for the
// session, or saved in tool_permissions.json) and the audit log.
type permissions struct {
	workspace string   // resolved start directory; "" when unknown or "/" (that would free everything)
	roots     []string // resolved TOOL_OUTPUT_DIR and TOOL_READ_ROOTS
	home      string   // resolved home directory, for the sensitive places in it
	configDir string   // yaicli's own configuration directory, sensitive
	allow     []commandRule
	deny      []commandRule
	savePath  string // tool_permissions.json; "" = not kept
	auditPath string // audit log; "" = none

	mu       sync.Mutex
	attached map[string]bool // resolved paths of attached files
	session  map[string]bool // tools answered "always" in this session
	saved    map[string]bool // tools in tool_permissions.json
	auditErr bool            // the audit log failed once and said so
}

// newPermissions builds the permissions of cfg; warnings (an unsafe or
// broken permissions file) go to warn.
func newPermissions(cfg *config, warn func(string)) *permissions {
	p := &permissions{attached: map[string]bool{}, session: map[string]bool{}, saved: map[string]bool{},
		allow: parseRules(cfg.ToolAllow), deny: parseRules(cfg.ToolDeny), savePath: cfg.ToolPermissionsFile, auditPath: cfg.ToolAuditLog}
	if cfg.workDir != "" {
		if ws := resolvePath(cfg.workDir, "/"); ws != "/" {
			p.workspace = ws
		}
	}
	for _, r := range append([]string{cfg.ToolOutputDir}, cfg.ToolReadRoots...) {
		if r != "" {
			p.roots = append(p.roots, resolvePath(expandHome(r, cfg.homeDir), cfg.workDir))
		}
	}
	if cfg.homeDir != "" {
		p.home = resolvePath(cfg.homeDir, "/")
	}
	if cfg.configPath != "" {
		p.configDir = resolvePath(filepath.Dir(cfg.configPath), cfg.workDir)
	}
	p.loadSaved(warn)
	return p
}

// resolvePath makes p absolute (relative to base) and resolves symbolic
// links in as much of it as exists, so neither .. nor a link can make a
// path look as if it were inside a directory it is not in.
func resolvePath(p, base string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// insideDir reports whether p is dir or inside it (both clean and absolute).
func insideDir(p, dir string) bool {
	return dir != "" && (p == dir || dir == "/" || strings.HasPrefix(p, dir+string(filepath.Separator)))
}

// attach adds files the person attached (@file, /add) to the free area.
func (p *permissions) attach(paths ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range paths {
		p.attached[resolvePath(expandHome(f, p.home), p.workspaceOr())] = true
	}
}

// workspaceOr is the base for relative paths.
func (p *permissions) workspaceOr() string {
	if p.workspace != "" {
		return p.workspace
	}
	return "/"
}

// readCheck is how one path a read tool names is classified.
type readCheck struct {
	path      string // as resolved
	free      bool   // inside the free area and not sensitive
	sensitive string // why it always asks, or ""
}

// classify says whether reading path is free. path is relative to the
// workspace; sensitive places ask even inside the free area.
func (p *permissions) classify(path string) readCheck {
	abs := filepath.Clean(expandHome(path, p.home))
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(p.workspaceOr(), abs)
	}
	real := resolvePath(abs, "/")
	rc := readCheck{path: real, sensitive: p.sensitive(real)}
	if rc.sensitive == "" {
		rc.sensitive = p.sensitive(abs) // a link named like a key is treated as one
	}
	if rc.sensitive != "" {
		return rc
	}
	p.mu.Lock()
	rc.free = p.attached[real]
	p.mu.Unlock()
	for _, dir := range append([]string{p.workspace}, p.roots...) {
		rc.free = rc.free || insideDir(real, dir)
	}
	return rc
}

// sensitiveHome are places in the home directory that hold credentials.
var sensitiveHome = []string{".ssh", ".aws", ".gnupg", ".netrc", ".config/yaicli", ".kube", ".docker", ".git-credentials",
	".pgpass", ".config/gcloud", ".config/gh", ".azure", ".password-store", ".vault-token", ".npmrc", ".pypirc", ".local/state/yaicli"}

// sensitiveSystem are system places that hold secrets.
var sensitiveSystem = []string{"/etc/shadow", "/etc/gshadow", "/etc/ssh", "/etc/sudoers", "/proc/kcore"}

// reProcPID matches a process's directory in /proc, whose environ, memory,
// command line and open files may hold secrets (the API key among them).
var reProcPID = regexp.MustCompile(`^/proc/([0-9]+|self|thread-self)(/|$)`)

// reKeyName matches file names of keys and credential stores.
var reKeyName = regexp.MustCompile(`^(id_[a-z0-9_-]+(\.pub)?|.*\.(pem|key|p12|pfx|jks|kdbx|keystore)|\.env(\..*)?|\.netrc|credentials(\.json)?)$`)

// sensitive says why path holds secrets, or "".
func (p *permissions) sensitive(path string) string {
	switch {
	case reProcPID.MatchString(path):
		return "a process's environment, memory or open files (/proc)"
	case insideDir(path, p.configDir):
		return "yaicli's own configuration (it holds the API key)"
	case reKeyName.MatchString(filepath.Base(path)):
		return "a key or credentials file"
	}
	for _, s := range sensitiveSystem {
		if insideDir(path, s) {
			return "a system secret (" + s + ")"
		}
	}
	if p.home != "" {
		for _, s := range sensitiveHome {
			if insideDir(path, filepath.Join(p.home, s)) {
				return "credentials (~/" + s + ")"
			}
		}
	}
	return ""
}

// hider returns the filter a listing or search under root applies: under a
// root that is not itself sensitive, sensitive entries are left out (their
// names may show, their contents not); nil when nothing is hidden.
func (p *permissions) hider(root string) func(path string) bool {
	if p.classify(root).sensitive != "" {
		return nil // the person approved this very place
	}
	return func(path string) bool { return p.sensitive(resolvePath(path, p.workspaceOr())) != "" }
}

// always reports whether tool was answered "always" (now or saved).
func (p *permissions) always(tool string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session[tool] || p.saved[tool]
}

// remember records an "always" answer; with keep it is saved for later
// sessions too. It returns why saving failed, or "".
func (p *permissions) remember(tool string, keep bool) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.session[tool] = true
	if !keep {
		return ""
	}
	if p.savePath == "" {
		return "there is no home directory to keep it in; allowed for this session only"
	}
	if err := p.save(tool); err != nil {
		return fmt.Sprintf("could not save it in %s (%v); allowed for this session only", p.savePath, err)
	}
	return ""
}

// permissionFile is tool_permissions.json as Python YAICLI 0.19 writes it:
// {"always_allow": [tool names]}; other keys are kept as they are.
type permissionFile map[string]any

// loadSaved reads the saved tools. A file another user could have written
// grants nothing.
func (p *permissions) loadSaved(warn func(string)) {
	if p.savePath == "" {
		return
	}
	st, err := os.Stat(p.savePath)
	if err != nil {
		return
	}
	if why := unsafeFile(st); why != "" {
		warn(fmt.Sprintf("yaicli: %s is %s, so its saved permissions are ignored; fix it with: chmod 600 %s (and own it)", p.savePath, why, p.savePath))
		return
	}
	b, err := os.ReadFile(p.savePath)
	var f permissionFile
	if err == nil {
		err = json.Unmarshal(b, &f)
	}
	if err != nil {
		warn(fmt.Sprintf("yaicli: %s cannot be read (%v); no saved permissions are used", p.savePath, err))
		return
	}
	names, _ := f["always_allow"].([]any)
	for _, n := range names {
		if s, ok := n.(string); ok {
			p.saved[s] = true
		}
	}
}

// unsafeFile says why a file others could change must not be trusted.
func unsafeFile(st os.FileInfo) string {
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("writable by other users (mode %04o)", st.Mode().Perm())
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Sprintf("owned by another user (uid %d)", sys.Uid)
	}
	return ""
}

// save adds tool to the file, written whole to a temporary file and
// renamed, mode 0600 in a 0700 directory.
func (p *permissions) save(tool string) error {
	f := permissionFile{}
	if b, err := os.ReadFile(p.savePath); err == nil {
		json.Unmarshal(b, &f)
	}
	set := map[string]bool{tool: true}
	for s := range p.saved {
		set[s] = true
	}
	names := make([]string, 0, len(set))
	for s := range set {
		names = append(names, s)
	}
	sort.Strings(names)
	f["always_allow"] = names
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := writePrivate(p.savePath, append(b, '\n'), "TOOL_PERMISSIONS_FILE"); err != nil {
		return err
	}
	p.saved[tool] = true
	return nil
}

// writePrivate replaces path with b atomically, readable only by its
// owner, in a directory only its owner can write (setting moves it).
func writePrivate(path string, b []byte, setting string) error {
	if err := privateDir(filepath.Dir(path), os.Getuid(), setting); err != nil {
		return err
	}
	return writeFileAtomic(path, b)
}

// auditEntry is one line of the audit log.
type auditEntry struct {
	Time    string `json:"time"`
	Tool    string `json:"tool"`
	Command string `json:"command"`
	Answer  string `json:"answer"`
	Reason  string `json:"reason,omitempty"`
}

// audit appends one decision to the audit log (0600). It returns a
// warning the first time the log cannot be written, else "".
func (p *permissions) audit(now time.Time, red *redactor, e auditEntry) string {
	if p.auditPath == "" {
		return ""
	}
	e.Time = now.UTC().Format(time.RFC3339)
	e.Command = red.text(e.Command)
	b, _ := json.Marshal(e)
	err := appendPrivate(p.auditPath, append(b, '\n'), "TOOL_AUDIT_LOG")
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil || p.auditErr {
		return ""
	}
	p.auditErr = true
	return fmt.Sprintf("yaicli: approval decisions are not logged: %v; set TOOL_AUDIT_LOG to a writable file (or off)", err)
}

// appendPrivate appends b to path, created 0600 in a directory only its
// owner can write (setting moves it); a log others could write is refused.
func appendPrivate(path string, b []byte, setting string) error {
	if err := privateDir(filepath.Dir(path), os.Getuid(), setting); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil {
		if why := unsafeFile(st); why != "" {
			f.Close()
			return fmt.Errorf("%s is %s", path, why)
		}
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
