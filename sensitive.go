package main

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The sensitive places are where credentials live: a read there asks every
// time, "always" or not, and a listing names them without entering. They
// are declared here once, and both the fs tools (places.sensitive) and the
// sandbox's deny set (sandbox.denied) are drawn from these lists. The
// lists name the common stores; a file they miss is still caught by its
// content when it holds a secret of this run (sensitiveContent), and
// redaction removes any 12 characters of one from what a tool returns.

// sensitiveHome are places in the home directory (directories and files)
// that hold credentials, tokens, histories, keyrings or logins.
var sensitiveHome = []string{
	// keys, clouds and clusters
	".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gcloud", ".azure", ".oci", ".config/doctl", ".config/hcloud",
	".fly", ".wrangler", ".config/op", ".config/helm/repositories.yaml", ".config/ngrok", ".pki", ".boto",
	// token files of tools and package managers
	".netrc", ".git-credentials", ".config/git/credentials", ".config/gh", ".config/hub", ".config/glab-cli", ".npmrc", ".yarnrc",
	".yarnrc.yml", ".pypirc", ".config/pip/pip.conf", ".pip/pip.conf", ".gem/credentials", ".m2/settings.xml",
	".gradle/gradle.properties", ".composer/auth.json", ".config/composer/auth.json", ".bundle/config", ".config/configstore",
	".cargo/credentials", ".cargo/credentials.toml", ".terraform.d/credentials.tfrc.json", ".terraformrc", ".config/rclone", ".s3cfg",
	".vault-token", ".pgpass", ".my.cnf", ".mylogin.cnf", ".huggingface", ".cache/huggingface/token",
	// AI tools: their keys and logins
	".config/github-copilot", ".codex", ".claude", ".claude.json", ".claude.json.backup", ".config/openai", ".config/anthropic",
	".gemini", ".cursor", ".config/Cursor/User/globalStorage", ".continue", ".config/aichat", ".config/io.datasette.llm",
	".config/shell_gpt", ".aider.conf.yml",
	// yaicli's own state
	".config/yaicli", ".local/state/yaicli",
	// histories besides those named .*_history and .*history (sensitiveNames)
	".lesshst", ".viminfo", ".local/share/fish/fish_history",
	// password stores, keyrings, browser and mail profiles
	".password-store", ".local/share/password-store", ".local/share/keyrings", ".local/share/kwalletd", ".mozilla", ".thunderbird",
	".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge", ".config/vivaldi", ".config/opera",
	".config/Code/User/globalStorage", "Library/Keychains", "Library/Cookies", "Library/Application Support/Google/Chrome",
	"Library/Application Support/Firefox", "Library/Application Support/BraveSoftware"}

// startupHome are files in the home directory that run code the next time
// the person logs in, opens a shell or runs git: a write there asks every
// time.
var startupHome = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv",
	".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".config/fish", ".inputrc", ".gitconfig", ".config/git", ".config/autostart",
	".config/systemd", ".config/environment.d", ".pam_environment", ".xprofile", ".xsession", ".xinitrc", ".local/bin", "bin",
	".config/yaicli", ".vimrc", ".config/nvim", ".emacs", ".emacs.d"}

// sensitiveSystem are system places that hold secrets: password hashes
// and their backups (the files ending in -), host keys, TLS private keys,
// sudo rules, network and VPN secrets, the kernel's memory, the secrets
// containers, clusters and systemd hand to services. Every account's home
// is added to it for the fence (systemSensitive).
var sensitiveSystem = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/security/opasswd",
	"/etc/master.passwd", "/etc/spwd.db", "/etc/ssh", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssl/private", "/etc/pki/tls/private",
	"/etc/letsencrypt", "/etc/krb5.keytab", "/etc/NetworkManager/system-connections", "/etc/wireguard", "/proc/kcore",
	// containers' and clusters' secrets, systemd's credentials, VPN and dial-up secrets
	"/run/secrets", "/var/run/secrets", "/etc/kubernetes/admin.conf", "/etc/kubernetes/pki", "/etc/rancher/k3s/k3s.yaml",
	"/etc/credstore", "/etc/credstore.encrypted",
	"/etc/ipsec.secrets", "/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets", "/etc/openvpn",
	// backups of the password and group databases
	"/var/backups"}

// reProcPID matches a process's directory in /proc, whose environ, memory,
// command line and open files may hold secrets (the API key among them).
var reProcPID = regexp.MustCompile(`^/proc/([0-9]+|self|thread-self)(/|$)`)

// reWriteRuns matches places inside any directory where a write makes code
// run later: git hooks and config, direnv's .envrc.
var reWriteRuns = regexp.MustCompile(`(^|/)(\.git/(hooks|config)(/|$)|\.envrc$)`)

// places are the directories the sensitive rules are relative to, all
// resolved real paths.
type places struct {
	home      string   // the home directory, for the stores in it
	configDir string   // yaicli's own configuration directory
	spill     string   // TOOL_OUTPUT_DIR: yaicli's own free area
	state     []string // yaicli's own files and directories (permissions, audit log, chats)
	accounts  []string // every account's home (nil: read from the passwd database)
	path      pathDirs // the run's PATH directories and environments, writes there asked (pathplaces.go)
	inodes    *inodeTable
}

// homes are every account's home directory.
func (p places) homes() []string {
	if p.accounts != nil {
		return p.accounts
	}
	return homesOnce()
}

// sensitive says why reading path (a real path) is asked every time, or "".
// TOOL_OUTPUT_DIR is yaicli's own area: a place that holds it (the state
// directory holds it by default) does not make it sensitive, while a place
// inside it stays sensitive.
func (p places) sensitive(path string) string {
	why, place := p.sensitivePlace(path)
	if why != "" && p.spill != "" && insideDir(path, p.spill) && insideDir(p.spill, place) && p.spill != place {
		return ""
	}
	return why
}

// sensitivePlace is why path is sensitive and the place (file or
// directory) whose rule says so.
func (p places) sensitivePlace(path string) (string, string) {
	switch {
	case p.spill != "" && insideDir(path, filepath.Join(p.spill, sensitiveSpillDir)):
		return "a saved output of a sensitive read (as sensitive as what was read)", filepath.Join(p.spill, sensitiveSpillDir)
	case reProcPID.MatchString(path):
		return "a process's environment, memory or open files (/proc)", "/proc"
	case insideDir(path, p.configDir):
		return "yaicli's own configuration (it holds the API key)", p.configDir
	case reKeyName.MatchString(filepath.Base(path)):
		return "a key or credentials file", path
	}
	for _, s := range p.state {
		if insideDir(path, s) {
			return "yaicli's own state (permissions, audit log, saved chats)", s
		}
	}
	for _, s := range sensitiveSystem {
		if insideDir(path, s) {
			return "a system secret (" + s + ")", s
		}
	}
	if p.home != "" {
		for _, s := range sensitiveHome {
			if d := filepath.Join(p.home, s); insideDir(path, d) {
				return "credentials (~/" + s + ")", d
			}
		}
	}
	return otherHomePlace(path, p.home, p.homes())
}

// writeSensitive says why a write to path (a real path) is asked every
// time: a sensitive place, a file that runs code later (shell start-up
// files; anything in a git directory or its hooks directory as git finds
// them, .envrc, .husky and editors' tasks: runsLater; PATH directories:
// onPath), or yaicli's own files.
func (p places) writeSensitive(path string) string {
	if why, _ := p.sensitivePlace(path); why != "" {
		return why
	}
	if reWriteRuns.MatchString(path) {
		return "a file that runs code later (git hooks and config, .envrc)"
	}
	if why := runsLater(path, p.home); why != "" {
		return why
	}
	if why := p.path.onPath(path); why != "" {
		return why
	}
	if p.home != "" {
		for _, s := range startupHome {
			if insideDir(path, filepath.Join(p.home, s)) {
				return "a start-up file that runs code later (~/" + s + ")"
			}
		}
	}
	return ""
}

// contentScanMax bounds how much of a file sensitiveContent reads: past
// it, redaction alone keeps the secrets out of what the tool returns.
const contentScanMax = 64 << 20

// reUserinfoURL matches a URL with a user name and password or token in
// it, or a header git sends, as a git config holds them.
var reUserinfoURL = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://[^/\s@:]+:[^/\s@]+@|extraheader\s*=`)

// sensitiveContent says why the file at path, whose content f gives, is
// sensitive by what it holds: a secret of this run (red: the key in use;
// secret is then set, and what is read of it is redacted), a private key
// or cloud secret (holdsKey), or, for a git config, credentials in a
// remote's URL. "" when none.
func sensitiveContent(path string, f io.ReadSeeker, red *redactor) (why string, secret bool) {
	if filepath.Base(path) == "config" && strings.HasSuffix(filepath.Dir(path), ".git") {
		b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
		if reUserinfoURL.Match(b) {
			return "a git config with credentials in a URL or header", false
		}
		f.Seek(0, io.SeekStart)
	}
	switch sec, key := scanContent(io.LimitReader(f, contentScanMax), red); {
	case sec:
		return "a file that holds the API key in use (or another secret of this run)", true
	case key:
		return "a file that holds a private key or a cloud secret", false
	}
	return "", false
}

// One judgement per file, the same for every tool: a file is sensitive by
// its name or place (sensitive.go's lists, for every account's home, not
// only the run's), by what it holds (a private key, a cloud secret, a
// secret of this run) and by what it is (a hard link to a sensitive file
// judges like its target). Reads, searches, listings, copies and spills
// all ask the same question through judgeHandle, on the handle they read
// from, so no tool reads what another would ask about.

// passwdFile is the account database every home is read from.
var passwdFile = "/etc/passwd"

// accountHomes lists the home directory of every account in the passwd
// file at path: absolute, resolved, existing directories other than "/".
// Another account's ~/.kube/config is as sensitive as the person's own.
func accountHomes(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(io.LimitReader(f, 4<<20))
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) < 7 || !filepath.IsAbs(fields[5]) {
			continue
		}
		h := fields[5]
		if r, err := filepath.EvalSymlinks(h); err == nil {
			h = r
		}
		if st, err := os.Stat(h); h == "/" || err != nil || !st.IsDir() || seen[h] {
			continue
		}
		seen[h] = true
		out = append(out, h)
	}
	return out
}

// homesOnce reads the account homes once per run.
var homesOnce = sync.OnceValue(func() []string { return accountHomes(passwdFile) })

// systemSensitive is the one list of absolute sensitive places the fence
// denies: the system's secrets (sensitiveSystem), every account's stores
// (sensitiveHome under each home in the passwd database, those there when
// the run starts: the fs tools judge the rest as they are asked) and the spill
// directory's sensitive part, where outputs of approved sensitive reads
// are kept (spill: TOOL_OUTPUT_DIR, "" for none).
func systemSensitive(spill string) []string {
	out := append([]string{}, sensitiveSystem...)
	for _, h := range homesOnce() {
		for _, s := range sensitiveHome {
			if p := filepath.Join(h, s); placeExists(p) { // what the run starts with: 12 homes x 100 names cost the fence 60 ms a command to resolve
				out = append(out, p)
			}
		}
	}
	if spill != "" {
		out = append(out, filepath.Join(spill, sensitiveSpillDir))
	}
	return out
}

// placeExists reports whether something is at p (not followed).
func placeExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// otherHomePlace is why path is in a credential store of an account's home
// (homes: every account's; own: the run's, judged before), and the store.
func otherHomePlace(path, own string, homes []string) (string, string) {
	for _, h := range homes {
		if h == own || !insideDir(path, h) {
			continue
		}
		for _, s := range sensitiveHome {
			if d := filepath.Join(h, s); insideDir(path, d) {
				return "credentials of the account whose home is " + h + " (~/" + s + ")", d
			}
		}
	}
	return "", ""
}

// keyOverlap is how far one window of a content scan reaches into the last:
// enough for reKeyContent's longest match.
const keyOverlap = 512

// scanContent reads r in windows that overlap (by the longest secret and
// keyOverlap) and reports whether it holds a secret of this run (red; nil:
// none) or a credential (reKeyContent).
func scanContent(r io.Reader, red *redactor) (secret, key bool) {
	over := keyOverlap
	if red != nil && !red.empty() {
		over = max(over, len(red.secrets[0]))
	}
	buf := make([]byte, 0, 64<<10+over)
	chunk := make([]byte, 64<<10)
	for {
		n, err := io.ReadFull(r, chunk)
		buf = append(buf, chunk[:n]...)
		if red != nil && !red.empty() {
			for _, s := range red.secrets {
				if bytes.Contains(buf, s) {
					return true, false
				}
			}
		}
		if holdsKey(buf) {
			return false, true
		}
		if err != nil {
			return false, false
		}
		buf = append(buf[:0], buf[max(0, len(buf)-over):]...)
	}
}

// inodeWalkMax bounds how many entries the table of sensitive files'
// inodes reads, inodeWalkDepth how deep it goes in each place.
const (
	inodeWalkMax   = 20000
	inodeWalkDepth = 5
)

// inodeTable is the device and inode of each file in the sensitive places
// that exist and of each file named like a key in the workspace (at any
// depth), made when a file with more than one link is first judged and
// made again when a file with more than one link changed its links since
// (link(2) sets the inode's ctime): a hard link to a key judges like the
// key, wherever either is found.
type inodeTable struct {
	workspace string // "" when there is none
	mu        sync.Mutex
	m         map[[2]uint64]string
	built     time.Time
	partial   bool // the walk of the workspace stopped short (unproven)
}

// target is the sensitive file (one of its names) whose inode is dev, ino,
// or ""; ctime is the inode's change time.
func (t *inodeTable) target(p places, dev, ino uint64, ctime time.Time) string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	k := [2]uint64{dev, ino}
	if t.m == nil || t.m[k] == "" && !ctime.Before(t.built) {
		t.built = ctime.Add(time.Nanosecond) // made again only for a link changed after this one
		t.m = p.sensitiveInodes()
		t.partial = !walkKeyNames(t.workspace, t.m)
	}
	return t.m[k]
}

// walkKeyNames adds to m the regular files named like keys under dir, at
// any depth (inodeWalkMax entries in all), and whether it read all of dir.
func walkKeyNames(dir string, m map[[2]uint64]string) bool {
	if dir == "" {
		return true
	}
	n, whole := 0, true
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if n++; err != nil || n > inodeWalkMax {
			whole = false
			return skipOrAll(d, n)
		}
		if d.Type().IsRegular() && reKeyName.MatchString(d.Name()) {
			if info, err := d.Info(); err == nil {
				if sys, ok := info.Sys().(*syscall.Stat_t); ok {
					m[[2]uint64{uint64(sys.Dev), uint64(sys.Ino)}] = path
				}
			}
		}
		return nil
	})
	return whole
}

// ctimeOf is the change time of st.
func ctimeOf(st *syscall.Stat_t) time.Time {
	_, c := fileTimes(st)
	return time.Unix(0, c)
}

// identities are the inode tables of the run, by the tree whose key
// files they hold (identityTable).
var identities sync.Map

// identityTable is the run's inode table for root: the sensitive places'
// files and the files named like keys under root at any depth.
func identityTable(root string) *inodeTable {
	t, _ := identities.LoadOrStore(root, &inodeTable{workspace: root})
	return t.(*inodeTable)
}

// identity is the one judgement of a file by what it is, wherever it was
// found (at path, its real path): when it is a hard link to a sensitive
// file (a file in any account's credential store or the system's secrets
// or yaicli's own, or a key file anywhere in the tree of p.inodes) it says
// so ("a hard link to PATH, WHY"), else "". A file with one link is where
// its name is, and is judged there by name and place. Every read of a
// file found by path (judgeHandle) and project instructions go through it.
func (p places) identity(sys *syscall.Stat_t, path string) string {
	if sys == nil || sys.Nlink < 2 {
		return ""
	}
	t := p.inodes.target(p, uint64(sys.Dev), uint64(sys.Ino), ctimeOf(sys))
	if t == "" || t == path {
		return p.inodes.unproven(uint64(sys.Dev), uint64(sys.Ino)) // the walk stopped short: fail closed (unproven)
	}
	if why := p.sensitive(t); why != "" {
		return "a hard link to " + t + ", " + why
	}
	return ""
}

// sensitiveIdentity is identity for the file open in f, with the
// sensitive places of every account and the key files under workDir.
func sensitiveIdentity(f *os.File, workDir string) string {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	sys, _ := st.Sys().(*syscall.Stat_t)
	return places{inodes: identityTable(workDir)}.identity(sys, f.Name())
}

// sensitiveInodes walks every sensitive place that exists (the run's home
// and every account's, the system's, yaicli's own) for its regular files.
func (p places) sensitiveInodes() map[[2]uint64]string {
	m := map[[2]uint64]string{}
	roots := append(systemSensitive(p.spill), p.configDir)
	roots = append(roots, p.state...)
	if p.home != "" {
		for _, s := range sensitiveHome {
			roots = append(roots, filepath.Join(p.home, s))
		}
	}
	n := 0
	for _, r := range roots {
		if r == "" || insideDir(r, "/proc") {
			continue
		}
		filepath.WalkDir(r, func(path string, d fs.DirEntry, err error) error {
			if n++; err != nil || n > inodeWalkMax {
				return skipOrAll(d, n)
			}
			if d.IsDir() && strings.Count(strings.TrimPrefix(path, r), "/") >= inodeWalkDepth {
				return fs.SkipDir
			}
			if d.Type().IsRegular() {
				if info, err := d.Info(); err == nil {
					if sys, ok := info.Sys().(*syscall.Stat_t); ok {
						m[[2]uint64{uint64(sys.Dev), uint64(sys.Ino)}] = path
					}
				}
			}
			return nil
		})
	}
	return m
}

// skipOrAll ends a walk past its bound, else skips an unreadable entry.
func skipOrAll(d fs.DirEntry, n int) error {
	if n > inodeWalkMax {
		return fs.SkipAll
	}
	if d != nil && d.IsDir() {
		return fs.SkipDir
	}
	return nil
}

// sensitiveSpillDir is the part of TOOL_OUTPUT_DIR where outputs of calls
// that read a sensitive place are kept: a later read of one is judged as
// sensitive as its source (places.sensitivePlace), and the fence never
// grants it (systemSensitive).
const sensitiveSpillDir = "sensitive"

// byPrivilege says why a file outside the workspace, the home and
// TOOL_READ_ROOTS (free: those places) is sensitive by its owner and mode,
// or "": a file its owner keeps from others (no read bit for others) that
// this run reads by privilege or by a group, not as its owner (another
// account's secret, a service's credentials); run as root, any such file
// of root's own (/var/backups/shadow.bak, a service's key under /srv):
// root reads every file, so the mode is what says it is private. uid is
// the run's.
func byPrivilege(st *syscall.Stat_t, path string, uid int, free []string) string {
	if st.Mode&0o004 != 0 {
		return ""
	}
	for _, f := range append(free, "/tmp", "/var/tmp", "/dev/shm") { // temp files are the person's work, not a service's
		if f != "" && insideDir(path, f) {
			return ""
		}
	}
	switch {
	case int(st.Uid) != uid:
		return "a file of another account (uid " + strconv.Itoa(int(st.Uid)) + ") that others may not read: you read it by privilege or group"
	case uid == 0 && st.Mode&0o040 == 0:
		return "a file only root may read (mode " + strconv.FormatUint(uint64(st.Mode&0o777), 8) + "): yaicli reads it only because it runs as root"
	}
	return ""
}

// The judgement of a file by identity fails closed: a hard link to a key
// file is found by its partner's name in the table of identities
// (inodeTable), and that table's walk of the workspace stops at
// inodeWalkMax entries or where a directory cannot be read. When it
// stopped short, a regular file with more than one link whose inode the
// table does not hold may be a link to a key file it never reached, so it
// is asked about like a key file. A file with one link is judged by its
// own name and place as before.

// unproven says why the file dev, ino (more than one link, already looked
// up by target) is judged like a key: the table's walk was incomplete and
// did not find it; "" when the walk was whole or it is in the table.
func (t *inodeTable) unproven(dev, ino uint64) string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.partial || t.m[[2]uint64{dev, ino}] != "" {
		return ""
	}
	return "a file with more than one name, and the walk for key files stopped short of the workspace's whole tree (past " +
		strconv.Itoa(inodeWalkMax) + " entries, or a directory it could not read): it may be a hard link to a key file"
}
