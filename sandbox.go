package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// sandbox is how execute_shell_command's commands are started: SANDBOX's
// mode, the places they may write and read, the network they may reach.
type sandbox struct {
	mode    string // auto, strict or off
	self    string // the yaicli binary, re-executed as the wrapper
	read    []string
	write   []string
	deny    []string // never granted for reading or writing
	noWrite []string // never granted for writing (start-up files, PATH directories)
	spill   string   // read inside the denied state directory
	network string   // SANDBOX_NETWORK: off, on or ports
	abi     int      // the kernel's Landlock version, read once; 0: none
}

// askedKey marks a context whose tool call the person approved by answering
// the question; SANDBOX=auto leaves such a command unfenced.
type askedKey struct{}

// withAsked marks ctx as the context of a call the person was asked about.
func withAsked(ctx context.Context) context.Context {
	return context.WithValue(ctx, askedKey{}, true)
}

// wasAsked reports whether the person approved this call when asked.
func wasAsked(ctx context.Context) bool {
	v, _ := ctx.Value(askedKey{}).(bool)
	return v
}

// sandboxDenyHome are the places in the home directory a fenced command
// never reads, besides the fs tools' sensitive list: histories, token
// files, keyrings and browser profiles.
var sandboxDenyHome = []string{".bash_history", ".zsh_history", ".local/share/fish", ".python_history", ".psql_history",
	".mysql_history", ".node_repl_history", ".lesshst", ".viminfo", ".cargo/credentials", ".cargo/credentials.toml", ".terraform.d",
	".config/rclone", ".s3cfg", ".config/github-copilot", ".local/share/keyrings", ".mozilla", ".config/google-chrome",
	".config/chromium", ".config/BraveSoftware", ".thunderbird", ".gradle/gradle.properties", ".m2/settings.xml", ".config/hub",
	".config/op", ".local/share/password-store"}

// sandboxNoWriteHome are places in the home directory a fenced command
// never writes, even when the workspace holds them: what runs the next
// time the person opens a shell or runs git, and directories on PATH.
var sandboxNoWriteHome = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
	".zprofile", ".zlogin", ".config/fish", ".gitconfig", ".config/git", ".local/bin", "bin", "go/bin", ".cargo/bin",
	".config/autostart", ".config/systemd", ".config/environment.d", ".pam_environment", ".xprofile", ".xinitrc"}

// sandboxCachesHome are the build caches ordinary work writes to, granted
// when they exist (the user cache directory, ~/.cache, is created).
var sandboxCachesHome = []string{"go/pkg/mod", ".npm", ".cargo/registry", ".cargo/git", ".m2/repository", ".gradle/caches",
	".gradle/wrapper", ".local/share/pnpm", ".bun/install/cache", ".nuget/packages", ".yarn/berry/cache", ".rustup/tmp"}

// sandboxCacheVars name caches elsewhere than their default place.
var sandboxCacheVars = []string{"GOCACHE", "GOMODCACHE", "npm_config_cache", "PIP_CACHE_DIR", "YARN_CACHE_FOLDER", "CARGO_TARGET_DIR"}

// sandboxDevices are the device files a fenced command reads and writes.
// Not /dev/tty nor /dev/pts: the person's terminal is yaicli's to write
// to (sanitised) and to read answers from.
var sandboxDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// sandboxOptions are SANDBOX's settings and the facts of the run the
// fence is drawn from.
type sandboxOptions struct {
	mode     string   // SANDBOX: auto, strict or off
	network  string   // SANDBOX_NETWORK: off, on or ports
	writable []string // SANDBOX_WRITABLE: places also granted for writing
	// environ is the run's environment, read for TMPDIR, GOPATH and the
	// caches named by sandboxCacheVars; cacheDir the user's cache
	// directory ("" = none).
	environ  []string
	cacheDir string
	// workDir is the start directory, written unless it holds the home
	// directory; homeDir the run's home ("" when unknown); spill
	// TOOL_OUTPUT_DIR, read inside the denied state directory.
	workDir, homeDir, spill string
	private                 []string // yaicli's own places (ownPlaces.all): never read nor written
}

// newSandbox is the sandbox of o; self is the yaicli binary ("": none,
// commands start directly).
func newSandbox(f sandboxOptions, self string) *sandbox {
	s := &sandbox{mode: f.mode, self: self, network: f.network, spill: f.spill, read: []string{"/"}, abi: landlockABI()}
	home := f.homeDir
	if ws := resolvePathOf(f.workDir); ws != "/" && (home == "" || !insideAny(resolvePathOf(home), []string{ws})) {
		s.write = append(s.write, ws) // started in /, $HOME or above it, there is no workspace to write
	}
	s.write = append(s.write, envValue(f.environ, "TMPDIR"), "/tmp", "/var/tmp", "/dev/shm")
	if f.cacheDir != "" {
		os.MkdirAll(f.cacheDir, 0o700) // go build needs ~/.cache/go-build; the directory is the XDG standard one
		s.write = append(s.write, f.cacheDir)
	}
	for _, v := range sandboxCacheVars {
		if d := envValue(f.environ, v); filepath.IsAbs(d) {
			s.write = append(s.write, d)
		}
	}
	if gp := envValue(f.environ, "GOPATH"); gp != "" {
		s.write = append(s.write, filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod"))
	}
	s.write = append(s.write, f.writable...)
	if home != "" {
		s.write = append(s.write, joinAll(home, sandboxCachesHome)...)
		s.deny = append(joinAll(home, sensitiveHome), joinAll(home, sandboxDenyHome)...)
		s.noWrite = joinAll(home, sandboxNoWriteHome)
	}
	s.deny = append(s.deny, sensitiveSystem...)
	s.deny = append(s.deny, f.private...)
	return s
}

// joinAll is each of rel under dir.
func joinAll(dir string, rel []string) []string {
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = filepath.Join(dir, r)
	}
	return out
}

// start is how the call in ctx starts its command: fenced unless SANDBOX
// is off, or auto and the person approved this very command when asked;
// where Landlock is missing, unfenced under auto and refused under strict.
func (s *sandbox) start(ctx context.Context) *shellStart {
	if s == nil || s.self == "" {
		return nil
	}
	st := &shellStart{self: s.self}
	switch {
	case s.mode == "off" || s.mode == "auto" && wasAsked(ctx):
		return st
	case s.abi < 1:
		if s.mode == "strict" {
			st.refuse = "SANDBOX=strict and this system has no Landlock sandbox (" + landlockMissing() + "); set SANDBOX=auto or off to run commands unfenced"
		}
		return st
	}
	st.fence = s.spec()
	return st
}

// spec lists what the fence grants now: the tree is read again for each
// command, so a place made since is judged too.
func (s *sandbox) spec() *fenceSpec {
	var deny []string
	for _, d := range resolveAll(s.deny) {
		if !beneath(d, "/proc") { // carving /proc would leave every later process without its /proc/PID
			deny = append(deny, d)
		}
	}
	f := &fenceSpec{Devices: sandboxDevices, Network: s.network == "on"}
	for _, r := range resolveAll(s.read) {
		f.Read = append(f.Read, carve(r, deny)...)
	}
	if s.spill != "" {
		f.Read = append(f.Read, carve(resolvePathOf(s.spill), deny)...)
	}
	noWrite := append(resolveAll(s.noWrite), deny...)
	for _, w := range resolveAll(s.write) {
		if !insideAny(w, deny) {
			f.Write = append(f.Write, carve(w, noWrite)...)
		}
	}
	for _, p := range strings.Split(s.network, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil && n > 0 && n < 65536 {
			f.Ports = append(f.Ports, n)
		}
	}
	return f
}

// resolveAll is paths absolute with their links resolved, without
// duplicates; a missing place keeps its name (the kernel grants nothing
// there, and a denied name still must not be granted through a parent).
func resolveAll(paths []string) []string {
	seen := map[string]bool{}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		seen[filepath.Clean(p)] = true
		seen[resolvePathOf(p)] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// resolvePathOf is p with its links resolved, or p cleaned when it is missing.
func resolvePathOf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// beneath reports whether p is strictly inside dir.
func beneath(p, dir string) bool {
	if dir == "/" {
		return p != "/" && strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+"/")
}

// insideAny reports whether p is one of dirs or inside one.
func insideAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || beneath(p, d) {
			return true
		}
	}
	return false
}

// carve lists what to grant under root so that no place in deny is
// granted: root itself when no denied place is inside it, else its
// children one by one, recursively. Links are left out: the kernel judges
// an access through a link at its target. A directory that cannot be
// listed is not granted (the list fails closed).
func carve(root string, deny []string) []string {
	holds := false
	for _, d := range deny {
		if d == root {
			return nil
		}
		holds = holds || beneath(d, root)
	}
	if !holds {
		return []string{root}
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.Type()&fs.ModeSymlink == 0 {
			out = append(out, carve(filepath.Join(root, e.Name()), deny)...)
		}
	}
	return out
}

// providerKeyVars are the variables that hold a provider's key: every
// preset's, and yaicli's own. No child gets them unless an MCP server's
// env names one.
func providerKeyVars() []string {
	out := []string{"YAI_API_KEY", "API_KEY"}
	for _, n := range presetNames() {
		if v := presets[n].keyEnv; v != "" {
			out = append(out, v)
		}
	}
	return out
}

// sandboxStatus is one line for /context and --verbose: whether commands
// are fenced, how, and where Landlock is missing what happens instead.
func sandboxStatus(mode, network string) string {
	abi := landlockABI()
	switch {
	case mode == "off":
		return "sandbox: off (SANDBOX=off): commands run with all of your rights"
	case abi < 1 && mode == "strict":
		return "sandbox: missing (" + landlockMissing() + "); SANDBOX=strict refuses every command"
	case abi < 1:
		return "sandbox: missing (" + landlockMissing() + "); commands run unfenced, as before"
	}
	who := "commands that run without a question (TOOL_ALLOW, always, --yes)"
	if mode == "strict" {
		who = "every command"
	}
	net := "TCP connect and bind refused"
	switch {
	case network == "on":
		net = "network open"
	case abi < 4:
		net = "network open (Landlock ABI < 4 has no network rules)"
	case network != "off" && network != "":
		net = "TCP connect only to ports " + network
	}
	return fmt.Sprintf("sandbox: Landlock ABI %d fences %s: writes only in the workspace, temp and build caches, no reads of keys or yaicli's state, %s", abi, who, net)
}
