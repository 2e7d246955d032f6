package main

import (
	"bytes"
	"io"
	"path/filepath"
	"regexp"
	"strings"
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
// sudo rules, network and VPN secrets, the kernel's memory.
var sensitiveSystem = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/security/opasswd",
	"/etc/master.passwd", "/etc/spwd.db", "/etc/ssh", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssl/private", "/etc/pki/tls/private",
	"/etc/letsencrypt", "/etc/krb5.keytab", "/etc/NetworkManager/system-connections", "/etc/wireguard", "/proc/kcore"}

// reProcPID matches a process's directory in /proc, whose environ, memory,
// command line and open files may hold secrets (the API key among them).
var reProcPID = regexp.MustCompile(`^/proc/([0-9]+|self|thread-self)(/|$)`)

// sensitiveNames are the names of key files and credential stores
// anywhere, as regular expressions over a file's whole name: keys and
// certificates' private halves, keystores, Terraform state, dotenv files,
// token files, histories, browser logins.
var sensitiveNames = []string{`id_[a-z0-9_-]+(\.pub)?`, `.*\.(pem|key|p12|pfx|jks|kdbx|keystore|ppk|tfstate|tfstate\.backup|keytab|keychain|keychain-db|gpg)`,
	`\.env(\..*)?`, `\.envrc`, `\.netrc`, `\.pgpass`, `\.npmrc`, `\.pypirc`, `\.git-credentials`, `\.s3cfg`, `\.vault-token`, `\.htpasswd`,
	`\.my\.cnf`, `\.boto`, `credentials(\.json|\.toml)?`, `rclone\.conf`, `.*_history`, `\..*history`, `\.histfile`, `logins\.json`,
	`key[34]\.db`, `Login Data`, `Cookies`, `cookies\.sqlite`, `secring\..*`}

// reKeyName matches sensitiveNames.
var reKeyName = regexp.MustCompile(`^(` + strings.Join(sensitiveNames, "|") + `)$`)

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
	return "", ""
}

// writeSensitive says why a write to path (a real path) is asked every
// time: a sensitive place, a file that runs code later (shell start-up
// files, git hooks, .envrc), or yaicli's own files.
func (p places) writeSensitive(path string) string {
	if why, _ := p.sensitivePlace(path); why != "" {
		return why
	}
	if reWriteRuns.MatchString(path) {
		return "a file that runs code later (git hooks and config, .envrc)"
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
// sensitive by what it holds: a secret of this run (red: the key in use),
// or, for a git config, credentials in a remote's URL. "" when neither.
func sensitiveContent(path string, f io.ReadSeeker, red *redactor) string {
	if filepath.Base(path) == "config" && strings.HasSuffix(filepath.Dir(path), ".git") {
		b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
		if reUserinfoURL.Match(b) {
			return "a git config with credentials in a URL or header"
		}
		f.Seek(0, io.SeekStart)
	}
	if red.readerHolds(io.LimitReader(f, contentScanMax)) {
		return "a file that holds the API key in use (or another secret of this run)"
	}
	return ""
}

// readerHolds reports whether what r gives holds a whole secret, read in
// chunks that overlap by the longest secret.
func (r *redactor) readerHolds(rd io.Reader) bool {
	if r.empty() {
		return false
	}
	longest := len(r.secrets[0])
	buf := make([]byte, 0, 64<<10+longest)
	chunk := make([]byte, 64<<10)
	for {
		n, err := io.ReadFull(rd, chunk)
		buf = append(buf, chunk[:n]...)
		for _, s := range r.secrets {
			if bytes.Contains(buf, s) {
				return true
			}
		}
		if err != nil {
			return false
		}
		buf = append(buf[:0], buf[max(0, len(buf)-longest):]...)
	}
}
