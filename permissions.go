package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"
)

// permissions decide which reads are free and remember what the person
// allowed: the read area (workspace, TOOL_OUTPUT_DIR, TOOL_READ_ROOTS,
// attached files), the command rules, the tools answered "always" (for the
// session, or saved in tool_permissions.json) and the audit log.
type permissions struct {
	base      string   // resolved start directory: where relative paths start
	workspace string   // the free workspace: base, unless that holds home or others can write it ("")
	noFree    string   // why there is no free workspace, for the question; "" when there is one
	places             // home, yaicli's configuration and state, and TOOL_OUTPUT_DIR, yaicli's own free area
	roots     []string // resolved TOOL_OUTPUT_DIR and TOOL_READ_ROOTS
	red       *redactor
	allow     []commandRule
	deny      []commandRule
	savePath  string // tool_permissions.json; "" = not kept
	auditPath string // audit log; "" = none

	mu       sync.Mutex
	attached map[string]bool        // resolved paths of attached files
	session  map[string]bool        // tools answered "always" in this session
	saved    map[string]bool        // tools in tool_permissions.json
	scanned  map[contentKey]verdict // sensitiveContent of files already read, by identity and version
	commands []alwaysRule           // rules learned from commands answered "always" or "permanently"
	savedCmd []string               // the commands answered "permanently", in tool_permissions.json
	auditErr bool                   // the audit log failed once and said so
}

// permissionOptions are the person's rules for tools, where their answers
// are kept, and the places that decide which reads are free.
type permissionOptions struct {
	allow, deny []string // TOOL_ALLOW, TOOL_DENY: command prefixes run or refused unasked
	readRoots   []string // TOOL_READ_ROOTS: directories read freely besides the workspace
	saveFile    string   // TOOL_PERMISSIONS_FILE: answers kept across runs; "" = not kept
	auditLog    string   // TOOL_AUDIT_LOG: every decision; "" = none
	// workDir is the start directory, homeDir the run's home ("" when
	// unknown), outputDir TOOL_OUTPUT_DIR, yaicli's own free area.
	workDir, homeDir, outputDir string
	own                         ownPlaces
}

// ownPlaces are yaicli's own files and directories, listed once (in
// config.toolbox): the fs tools ask before reading or writing them, even
// inside the workspace, and a fenced command never reaches them.
type ownPlaces struct {
	configDir string   // config.ini's directory: it holds the API key; "" = no config file
	state     []string // the permissions file, the audit log and the saved chats
	mcpConfig string   // MCP_CONFIG, when set: its servers' environments may hold tokens
}

// all lists every place, for the fence (which drops "" and relative ones).
func (o ownPlaces) all() []string {
	return append([]string{o.configDir, o.mcpConfig}, o.state...)
}

// newPermissions builds the permissions of o; red is the run's redactor
// (the audit log's entries pass through it); warnings (an unsafe or broken
// permissions file) go to warn.
func newPermissions(o permissionOptions, red *redactor, warn func(string)) *permissions {
	p := &permissions{attached: map[string]bool{}, session: map[string]bool{}, saved: map[string]bool{}, red: red, scanned: map[contentKey]verdict{},
		allow: parseRules(o.allow), deny: parseRules(o.deny), savePath: o.saveFile, auditPath: o.auditLog}
	if o.homeDir != "" {
		p.home = resolvePath(o.homeDir, "/")
	}
	p.base = "/"
	if o.workDir != "" {
		p.base = resolvePath(o.workDir, "/")
	}
	p.workspace, p.noFree = freeWorkspace(p.base, p.home)
	p.inodes = &inodeTable{workspace: p.workspace} // hard links judged by identity: a .env in the workspace too
	for i, r := range append([]string{o.outputDir}, o.readRoots...) {
		if r == "" {
			continue
		}
		r = resolvePath(expandHome(r, o.homeDir), p.base)
		if i == 0 {
			p.spill = r
		}
		p.roots = append(p.roots, r)
	}
	if o.own.configDir != "" {
		p.configDir = resolvePath(o.own.configDir, p.base)
	}
	for _, f := range append(o.own.state, o.own.mcpConfig) { // the fence denies the same list (ownPlaces.all)
		if f != "" {
			p.state = append(p.state, resolvePath(expandHome(f, o.homeDir), p.base))
		}
	}
	p.loadSaved(warn)
	return p
}

// freeWorkspace is the start directory as a free area, or "" and why not:
// a directory that holds the home directory (/, /home, $HOME itself) would
// free every credential store in it, and one other users can write to
// (/tmp) holds what they planted.
func freeWorkspace(start, home string) (string, string) {
	switch st, err := os.Stat(start); {
	case start == "/" || home != "" && insideDir(home, start):
		return "", "none: started in " + start + ", which holds your home directory; cd into a project directory and start yaicli there to have one"
	case err != nil:
		return "", "none: " + err.Error()
	case st.Mode().Perm()&0o002 != 0:
		return "", "none: started in " + start + ", which other users can write to"
	}
	return start, ""
}

// attach adds files the person attached (@file, /add) to the free area.
func (p *permissions) attach(paths ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range paths {
		p.attached[resolvePath(expandHome(f, p.home), p.base)] = true
	}
}

// workspaceOr is the base for relative paths: the start directory.
func (p *permissions) workspaceOr() string { return p.base }

// readCheck is how one path a read tool names is classified.
type readCheck struct {
	path      string // the real path, as the kernel resolves it
	at        spot   // what is there, for openJudged
	root      string // the free directory it lies in; "" outside
	free      bool   // inside the free area and not sensitive
	sensitive string // why it always asks, or ""
	secret    bool   // its content holds a secret of this run: read redacted
	err       error  // it could not be resolved: it asks, and the read fails
}

// classify says whether reading path is free. path is relative to the
// start directory; sensitive places ask even inside the free area, and so
// does a file whose content holds a secret of this run.
func (p *permissions) classify(path string) readCheck {
	abs := lexicalAbs(expandHome(path, p.home), p.base)
	sp, err := resolveSpot(abs, true)
	rc := readCheck{path: sp.real, at: sp, err: err}
	if err != nil {
		rc.path = filepath.Clean(abs)
		if !errors.Is(err, fs.ErrNotExist) {
			rc.sensitive = "a path that cannot be resolved safely (" + err.Error() + ")"
		}
		return rc
	}
	if rc.sensitive = p.sensitive(rc.path); rc.sensitive == "" {
		rc.sensitive = p.sensitive(filepath.Clean(abs)) // a link named like a key is treated as one
	}
	if rc.sensitive != "" {
		return rc
	}
	p.mu.Lock()
	rc.free = p.attached[rc.path]
	p.mu.Unlock()
	for _, dir := range append([]string{p.workspace}, p.roots...) {
		if insideDir(rc.path, dir) {
			rc.free, rc.root = true, dir
		}
	}
	if sp.exists && sp.mode.IsRegular() {
		rc.sensitive, rc.secret = p.contentCheck(rc)
		rc.free = rc.free && rc.sensitive == ""
	}
	return rc
}

// contentKey is one version of one file: device, inode, size and
// modification time.
type contentKey struct {
	dev, ino    uint64
	size, mtime int64
}

// contentCheck is handleCheck of the file rc judged, opened as judged: a
// hard link to a sensitive file, or content that makes it sensitive; a
// file already read in this version is not read again (a call may name
// one large file many times).
func (p *permissions) contentCheck(rc readCheck) (string, bool) {
	if rc.at.mode.Perm()&0o444 == 0 {
		return "", false
	}
	f, err := rc.open(os.O_RDONLY | syscall.O_NONBLOCK)
	if err != nil {
		return "", false
	}
	defer f.Close()
	return p.handleCheck(rc.path, f)
}

// writeCheck judges a write to path (relative to the start directory): the
// real file that will change (a link at the end followed, as the kernel
// follows it), free (root set) when that is inside the workspace, and why
// it is asked every time when it is a sensitive place or a file that runs
// code later.
func (p *permissions) writeCheck(path string) readCheck {
	abs := lexicalAbs(expandHome(path, p.home), p.base)
	sp, err := resolveSpot(abs, true)
	rc := readCheck{path: sp.real, at: sp, err: err}
	if err != nil {
		rc.path = filepath.Clean(abs)
		return rc
	}
	if rc.sensitive = p.writeSensitive(rc.path); rc.sensitive == "" {
		rc.sensitive = p.writeSensitive(filepath.Clean(abs))
	}
	if p.workspace != "" && insideDir(rc.path, p.workspace) && rc.path != p.workspace {
		rc.free, rc.root = rc.sensitive == "", p.workspace
	}
	return rc
}

// open opens the file rc judged beneath its free root; with O_CREATE a
// file that did not exist is created, and must not exist yet.
func (rc readCheck) open(flags int) (*os.File, error) {
	if rc.err != nil {
		return nil, rc.err
	}
	if !rc.at.exists && flags&os.O_CREATE == 0 {
		return nil, &fs.PathError{Op: "open", Path: rc.path, Err: syscall.ENOENT}
	}
	root := rc.root
	if root == "" {
		root = "/"
	}
	return openJudged(rc.at, root, flags, 0o644)
}

// hider returns the filter a listing, search or copy under root applies:
// under a root that is not itself sensitive, sensitive entries are left
// out (their names may show, their contents not); nil when nothing is
// hidden. It is asked with f nil of a directory or a name, and with f the
// open file of a file about to be read (judgeHandle: name, place, inode
// and content), so nothing is searched or copied that a read would ask
// about.
func (p *permissions) hider(root string) func(path string, f *os.File) bool {
	if p.classify(root).sensitive != "" {
		return nil // the person approved this very place
	}
	return func(path string, f *os.File) bool {
		if f == nil {
			return p.sensitive(resolvePath(path, p.workspaceOr())) != ""
		}
		why, _ := p.judgeHandle(path, f)
		return why != ""
	}
}

// always reports whether tool was answered "always" (now or saved).
func (p *permissions) always(tool string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session[tool] || p.saved[tool]
}

// dropSaved forgets tool among the saved "always" answers, and reports
// whether it was there.
func (p *permissions) dropSaved(tool string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	had := p.saved[tool]
	delete(p.saved, tool)
	return had
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

// remembered is the "always" rule that allows cmd (alwaysrule.go), as
// the audit log names it; "" when none does.
func (p *permissions) remembered(cmd string) string {
	p.mu.Lock()
	rules := p.commands
	p.mu.Unlock()
	return alwaysCovers(cmd, rules)
}

// rememberCommand records an "always" answer to the shell command cmd as
// the rule learned from it; with keep the command is saved in
// tool_permissions.json's allow_commands too, and the rule learned from
// it again in the next session. It returns why saving failed, or "".
func (p *permissions) rememberCommand(cmd string, keep bool) string {
	r, ok := learnAlways(cmd)
	if !ok {
		return "no rule can be learned from it; allowed this once"
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.commands = append(p.commands, r)
	if !keep {
		return ""
	}
	if p.savePath == "" {
		return "there is no home directory to keep it in; allowed for this session only"
	}
	p.savedCmd = append(p.savedCmd, cmd)
	if err := p.save(""); err != nil {
		return fmt.Sprintf("could not save it in %s (%v); allowed for this session only", p.savePath, err)
	}
	return ""
}

// maxPermissionFile bounds what is read of tool_permissions.json: a file of
// saved answers is a few kilobytes; past this it is not one.
const maxPermissionFile = 1 << 20

// permissionFile is tool_permissions.json as Python YAICLI 0.19 writes it:
// {"always_allow": [tool names]}; other keys are kept as they are.
type permissionFile map[string]any

// loadSaved reads the saved tools. A file another user could have written
// grants nothing, and neither does one in a directory another user could
// rename a file of theirs into (untrustedDir, as config.ini and mcp.json
// are judged); the file is judged on the handle that is read.
func (p *permissions) loadSaved(warn func(string)) {
	if p.savePath == "" {
		return
	}
	fh, err := os.Open(p.savePath)
	if err != nil {
		return
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return
	}
	if why := unsafeFile(st); why != "" {
		warn(fmt.Sprintf("yaicli: %s is %s, so its saved permissions are ignored; fix it with: chmod 600 %s (and own it)", p.savePath, why, p.savePath))
		return
	}
	if dir, why := untrustedDir(p.savePath, os.Geteuid()); why != "" {
		warn(fmt.Sprintf("yaicli: %s is in %s, which %s, so another user could put a file of theirs in its place: its saved permissions are ignored; fix it with: chmod go-w %s (and own it)", p.savePath, dir, why, dir))
		return
	}
	b, err := io.ReadAll(io.LimitReader(fh, maxPermissionFile))
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
		if s, _ := n.(string); s != "" { // a tool that runs code is never allowed whole (newToolbox)
			p.saved[s] = true
		}
	}
	cmds, _ := f["allow_commands"].([]any)
	for _, c := range cmds {
		s, _ := c.(string)
		if r, ok := learnAlways(s); ok {
			p.savedCmd = append(p.savedCmd, s)
			p.commands = append(p.commands, r)
		} else if s != "" {
			warn(fmt.Sprintf("yaicli: %s: the saved command %q is not honoured: %s", p.savePath, s, alwaysWhy(s)))
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
	set := map[string]bool{}
	if tool != "" {
		set[tool] = true
	}
	for s := range p.saved {
		set[s] = true
	}
	names := make([]string, 0, len(set))
	for s := range set {
		names = append(names, s)
	}
	sort.Strings(names)
	f["always_allow"] = names
	if len(p.savedCmd) > 0 {
		cmds := slices.Compact(slices.Sorted(slices.Values(p.savedCmd)))
		f["allow_commands"] = cmds
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := writePrivate(p.savePath, append(b, '\n'), "TOOL_PERMISSIONS_FILE"); err != nil {
		return err
	}
	if tool != "" {
		p.saved[tool] = true
	}
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

// verdict is what the content of one version of a file says.
type verdict struct {
	why    string
	secret bool // it holds a secret of this run: what is read of it is redacted
}

// judgeHandle is the one judgement of the file open in f, found at path
// (its real path): by name and place, by inode (a hard link to a sensitive
// file), and by content. why is "" when it is not sensitive; secret says
// it holds a secret of this run.
func (p *permissions) judgeHandle(path string, f *os.File) (why string, secret bool) {
	if why := p.sensitive(path); why != "" {
		return why, false
	}
	return p.handleCheck(path, f)
}

// handleCheck is judgeHandle without the name and place: the inode and the
// content of the file open in f. The file is read from its start and left
// at its start.
func (p *permissions) handleCheck(path string, f *os.File) (string, bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if ok && sys.Nlink > 1 {
		if t := p.inodes.target(p.places, uint64(sys.Dev), uint64(sys.Ino), ctimeOf(sys)); t != "" && t != path {
			if why := p.sensitive(t); why != "" {
				return "a hard link to " + t + ", " + why, false
			}
		}
		if why := p.inodes.unproven(uint64(sys.Dev), uint64(sys.Ino)); why != "" { // linkfail.go
			return why, false
		}
	}
	if ok {
		if why := byPrivilege(sys, path, os.Getuid(), append([]string{p.workspace, p.home}, p.roots...)); why != "" {
			return why, false
		}
	}
	k := contentKey{size: st.Size(), mtime: st.ModTime().UnixNano()}
	if ok {
		k.dev, k.ino = uint64(sys.Dev), uint64(sys.Ino)
	}
	p.mu.Lock()
	v, seen := p.scanned[k]
	p.mu.Unlock()
	if !seen {
		v.why, v.secret = sensitiveContent(path, f, p.red)
		p.mu.Lock()
		p.scanned[k] = v
		p.mu.Unlock()
	}
	f.Seek(0, io.SeekStart)
	return v.why, v.secret
}
