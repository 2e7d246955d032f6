package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// sandbox is how execute_shell_command's commands are started: SANDBOX's
// mode, the places they may write and read, the network they may reach.
type sandbox struct {
	mode    string // auto, strict or off
	self    string // the yaicli binary, re-executed as the wrapper
	read    []string
	write   []string
	deny    []string         // the sensitive places: never granted for reading or writing
	own     []string         // yaicli's own places: never granted, even before they exist
	now     func() time.Time // the clock a command's start is read from (takeBack)
	noWrite []string         // never granted for writing (start-up files, PATH directories)
	keyRoot []keyDir         // where files named like keys are looked for: the workspace, home
	caches  []string         // not looked in: what every command may write anyway
	spill   string           // read inside the denied state directory
	network string           // SANDBOX_NETWORK: off, on or ports
	abi     int              // the kernel's Landlock version, read once; 0: none
	temp    string           // the run's temp directory (TMPDIR, else /tmp): a command gets one of its own inside when it is carved
	// cacheDir is the user's cache directory, which holds the fence's own
	// (fencecaches.go); "" = none.
	cacheDir string
	prefixes []string // the activated environments' prefixes (fencehomeplaces.go)
	// workspace and home are where the files that run code later are
	// looked for (fenceRunsLater); workspace is "" when there is none.
	workspace, home string
	// pathList is the run's PATH, where the programs yaicli starts
	// unfenced are found once (program) and whose directories inside
	// writable places a fenced command may not write.
	pathList string
	// givenPATH is PATH as the person's shell has it (pathList without its
	// relative entries is what commands get): a relative entry names a
	// workspace directory the person's next command runs programs from.
	givenPATH string
	progMu    sync.Mutex
	progs     map[string]progFound
	// walkCache is what the walks for key files read, by directory
	// (survey); a directory is read again only when it changed.
	walkMu    sync.Mutex
	walkCache map[string]dirSeen
}

// progFound is a program resolved by trustedProgram, kept for the run.
type progFound struct {
	path string
	err  error
}

// program is prog resolved once per run to where yaicli may start it
// outside the fence (trustedProgram over the places fenced commands and
// servers write).
func (s *sandbox) program(prog string) (string, error) {
	s.progMu.Lock()
	defer s.progMu.Unlock()
	if f, ok := s.progs[prog]; ok {
		return f.path, f.err
	}
	p, err := trustedProgram(prog, s.pathList, s.write, os.Getuid())
	if s.progs == nil {
		s.progs = map[string]progFound{}
	}
	s.progs[prog] = progFound{p, err}
	return p, err
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

// sandboxCachesUser are the build caches in the user's cache directory
// (~/.cache) a fenced command may write: nothing else there, since shells,
// prompts and editors keep files in it that they run.
var sandboxCachesUser = []string{"go-build", "pip", "pypoetry", "uv", "node-gyp", "yarn", "pnpm", "bun", "deno", "ccache", "sccache",
	"bazel", "golangci-lint", "gopls", "ms-playwright", "cypress", "electron", "typescript", "zig", "cargo", "composer", "coursier"}

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
	// givenPATH is PATH as the person's shell has it, relative entries
	// included (config.givenPATH).
	givenPATH string
	// readRoots are TOOL_READ_ROOTS: read by a fenced command too, besides
	// the system's directories, toolchains and the workspace (fenceReadRoots).
	readRoots []string
	// environ is the run's environment, read for TMPDIR, GOPATH and the
	// caches named by sandboxCacheVars; cacheDir the user's cache
	// directory ("" = none).
	environ  []string
	cacheDir string
	// workDir is the start directory, written unless it holds the home
	// directory; homeDir the run's home ("" when unknown); spill
	// TOOL_OUTPUT_DIR, read inside the denied state directory.
	workDir, homeDir, spill string
	private                 []string         // yaicli's own places (ownPlaces.all): never read nor written
	now                     func() time.Time // the clock a command's start is read from, for takeBack (nil: the zero time)
}

// newSandbox is the sandbox of o; self is the yaicli binary ("": none,
// commands start directly).
func newSandbox(f sandboxOptions, self string) *sandbox {
	s := &sandbox{mode: f.mode, self: wrapperProgram(self), pathList: envValue(f.environ, "PATH"), givenPATH: f.givenPATH, network: f.network, spill: f.spill, read: fenceReadRoots(f.workDir, f.homeDir, f.environ, f.readRoots), abi: landlockABI(), own: f.private, now: f.now,
		cacheDir: f.cacheDir, prefixes: activatedPrefixes(f.environ)}
	home := f.homeDir
	s.home = home
	if ws := resolvePathOf(f.workDir); ws != "/" && (home == "" || !insideAny(resolvePathOf(home), []string{ws})) {
		s.write = append(s.write, ws) // started in /, $HOME or above it, there is no workspace to write
		s.workspace = ws
		s.keyRoot = append(s.keyRoot, keyDir{ws, 0})
	}
	s.caches = append(s.caches, envValue(f.environ, "TMPDIR"), "/tmp", "/var/tmp", "/dev/shm")
	if s.temp = envValue(f.environ, "TMPDIR"); s.temp == "" { // the environment the command gets, not this process's
		s.temp = "/tmp"
	}
	if f.cacheDir != "" { // only the named build caches: shells and prompts keep files there that run (an instant prompt's cache)
		os.MkdirAll(filepath.Join(f.cacheDir, "go-build"), 0o700) // go build needs it, and could not make it in ~/.cache
		s.caches = append(s.caches, joinAll(f.cacheDir, sandboxCachesUser)...)
	}
	for _, v := range sandboxCacheVars {
		if d := envValue(f.environ, v); filepath.IsAbs(d) {
			s.caches = append(s.caches, d)
		}
	}
	if gp := envValue(f.environ, "GOPATH"); gp != "" {
		s.caches = append(s.caches, filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod"))
	}
	if home != "" {
		s.caches = append(s.caches, joinAll(home, sandboxCachesHome)...)
		s.deny = joinAll(home, sensitiveHome)
		s.noWrite = joinAll(home, sandboxNoWriteHome)
		s.keyRoot = append(s.keyRoot, keyDir{home, keyWalkHomeDepth})
		s.keyRoot = append(s.keyRoot, homeReadKeyRoots(s.read, home)...) // keypin.go: granted home places at every depth
	}
	s.write = append(append(s.write, s.caches...), f.writable...)
	s.deny = append(s.deny, systemSensitive(f.spill)...)
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
	st := &shellStart{self: s.self, program: s.program}
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
	since, before := time.Time{}, s.laterNow(survey{later: st.fence.RunsLater}, nil)
	if s.now != nil {
		since = s.now()
	}
	st.takeBack = func() string {
		named, writes := resolveAll(s.deny), resolveAll(s.write)
		return takeBack(before, s.laterNow(survey{later: s.survey(named).later}, writes), append(writes, st.fence.Write...), since)
	}
	if st.fence.TempDir = s.privateTemp(st.fence.Write); st.fence.TempDir != "" {
		st.fence.Write = append(st.fence.Write, st.fence.TempDir)
	}
	return st
}

// spec lists what the fence grants now: the tree is read again for each
// command, so a place made since, or a key file, is judged too.
func (s *sandbox) spec() *fenceSpec {
	named := resolveAll(s.deny)
	sv := s.survey(named)
	read := s.denied(named, sv)
	f := &fenceSpec{Devices: sandboxDevices, Network: s.network == "on"}
	for _, r := range resolveAll(s.read) {
		read.carve(r, &f.Read, &f.ReadDirs)
	}
	if s.spill != "" {
		read.carve(resolvePathOf(s.spill), &f.Read, &f.ReadDirs)
	}
	write := read.with(resolveAll(s.noWrite))
	writes := resolveAll(s.write)
	if !mountNamespace() { // no mount to bind them read-only: Landlock withholds them (their directory is granted child by child)
		write = write.with(slices.Concat(s.pathInWritable(writes), s.laterPlaces(writes)))
	}
	write = write.with(s.homeInWritable(writes)) // a home under temp is granted as a home (fencehomeplaces.go)
	for _, w := range writes {
		if !insideAny(w, read.block) && !insideAny(w, read.files) {
			write.carve(w, &f.Write, &f.WriteDirs)
		}
	}
	f.RunsLater = s.laterNow(sv, writes)
	f.KeysBound = mountNamespace()
	s.layerCaches(f) // the person's caches under overlays of the fence's own (fencecaches.go)
	for _, p := range strings.Split(s.network, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil && n > 0 && n < 65536 {
			f.Ports = append(f.Ports, n)
		}
	}
	// With ports listed, UDP (which goes anywhere: the filter cannot see a
	// datagram's address) only when 53 is one of them; else names resolve
	// over TCP to port 53 (RES_OPTIONS=use-vc, shellStart.environ), which
	// reaches no further than the listed TCP ports already do.
	if len(f.Ports) > 0 && !f.Network {
		if f.UDP = slices.Contains(f.Ports, 53); !f.UDP {
			f.Ports = append(f.Ports, 53)
		}
	}
	return f
}

// laterNow lists what the wrapper binds read-only, as it exists now: the
// files that run code later in the workspace's repository (fenceRunsLater)
// and anywhere in the workspace (the walk's, sv), key files in writable
// places (a .env is withheld from writing as well as reading), and the
// directories on PATH that lie in writable places (writes): a program
// planted there would run in the person's next shell.
func (s *sandbox) laterNow(sv survey, writes []string) []string {
	out := append(fenceRunsLater(s.workspace, s.home), sv.later...)
	for _, k := range sv.keys { // sv.keys is nil for takeBack: a new key file is not taken back
		if insideAny(k, writes) && !inPackages(k) { // keypin.go
			out = append(out, k)
		}
	}
	for _, d := range s.pathInWritable(writes) {
		if placeExists(d) {
			out = append(out, d)
		}
	}
	out = append(out, s.laterPlaces(writes)...) // home's start-up places through links, activated environments (fencehomeplaces.go)
	sort.Strings(out)
	return slices.Compact(out)
}

// pathInWritable are the directories on the run's PATH and on the
// person's (givenPATH, relative entries taken in the workspace) that lie
// in one of writes (resolved), whether they exist or not.
func (s *sandbox) pathInWritable(writes []string) []string {
	var out []string
	// Both lists: the commands' PATH and the person's, which need not be
	// the other's absolute part (a run's environment may set its own).
	for _, d := range filepath.SplitList(s.givenPATH + string(filepath.ListSeparator) + s.pathList) {
		if !filepath.IsAbs(d) { // bin, node_modules/.bin: taken in the workspace, where the person's shell runs them
			if s.workspace == "" || filepath.Clean(d) == "." || d == "" {
				continue // the workspace itself: binding it would withhold everything; the fs tools ask about its programs (pathplaces.go)
			}
			d = filepath.Join(s.workspace, d)
		}
		if r := resolvePathOf(d); insideAny(r, writes) {
			out = append(out, r)
		}
	}
	return out
}

// privateTemp makes a temporary directory of the command's own when the
// temp directory is not granted whole (full): a sensitive place inside it
// (a home or a workspace holding a key file under /tmp, as a temp HOME is)
// carves it child by child, and nothing new can be made there, so go
// build, mktemp and most toolchains would fail. The command gets it as
// TMPDIR (shellStart.environ); it is removed when the command ends
// (shellStart.done). "" when the temp directory is whole or unusable.
func (s *sandbox) privateTemp(full []string) string {
	root := resolvePathOf(s.temp)
	if root == "" || slices.Contains(full, root) || insideAny(root, full) {
		return ""
	}
	dir, err := os.MkdirTemp(root, "yaicli-fenced-")
	if err != nil {
		return ""
	}
	return dir
}

// denied is what the fence never grants: the sensitive places that exist
// (sensitive.go's lists, named: resolved), files named like keys in the
// workspace and home (the walk's, sv), what the walk did not reach, and
// yaicli's own places even before they exist (a command must not plant a
// permissions file).
func (s *sandbox) denied(named []string, sv survey) *denySet {
	d := &denySet{inodes: map[[2]uint64]bool{}}
	d.block = append(d.block, sv.unwalked...)
	for _, p := range append(named, sv.keys...) {
		if beneath(p, "/proc") { // carving /proc would leave every later process without its /proc/PID
			continue
		}
		var st syscall.Stat_t
		switch err := syscall.Lstat(p, &st); {
		case err != nil:
			// missing: nothing to read there, and a directory is not carved for a name
		case st.Mode&syscall.S_IFMT == syscall.S_IFDIR:
			d.block = append(d.block, p)
		default:
			d.files = append(d.files, p)
			d.inodes[[2]uint64{uint64(st.Dev), st.Ino}] = true
		}
	}
	d.block = append(d.block, resolveAll(s.own)...)
	d.sort()
	return d
}

// denySet is what a fence leaves out. A place in block is never granted
// and a directory holding one gets no rule of its own (it is granted child
// by child); a file in files is never granted either, but its directory
// keeps the rights that do not read files (listing, running, making
// files), so ordinary work goes on beside a key file.
type denySet struct {
	block, files []string           // sorted, without duplicates
	inodes       map[[2]uint64]bool // device and inode of each file in files
}

// sort sorts both lists and drops duplicates.
func (d *denySet) sort() {
	for _, l := range []*[]string{&d.block, &d.files} {
		sort.Strings(*l)
		*l = slices.Compact(*l)
	}
}

// with is d with more places blocked.
func (d *denySet) with(block []string) *denySet {
	e := &denySet{block: append(slices.Clone(d.block), block...), files: d.files, inodes: d.inodes}
	e.sort()
	return e
}

// holdsUnder reports whether sorted list has a place strictly beneath dir.
func holdsUnder(list []string, dir string) bool {
	prefix := dir + "/"
	if dir == "/" {
		prefix = "/"
	}
	i := sort.SearchStrings(list, prefix)
	return i < len(list) && strings.HasPrefix(list[i], prefix)
}

// carve lists what to grant under root so that nothing denied is: root
// itself (into full) when nothing denied is inside it; else root into
// dirs when only key files are (its rule keeps the rights that do not
// read files), and its children one by one, recursively. Links are left
// out (the kernel judges an access through a link at its target), and so
// is a hard link made beside a key file. A directory that cannot be
// listed is not granted (the list fails closed).
func (d *denySet) carve(root string, full, dirs *[]string) {
	if _, ok := slices.BinarySearch(d.block, root); ok {
		return
	}
	if _, ok := slices.BinarySearch(d.files, root); ok {
		return
	}
	blocks, keys := holdsUnder(d.block, root), holdsUnder(d.files, root)
	if !blocks && !keys {
		*full = append(*full, root)
		return
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	if !blocks {
		*dirs = append(*dirs, root)
	}
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		if e.Type()&fs.ModeSymlink != 0 || !blocks && e.Type().IsRegular() && d.hardLink(p) {
			continue
		}
		d.carve(p, full, dirs)
	}
}

// hardLink reports whether the file at p is one of the key files under
// another name: a command may link one beside it (it may make files
// there), and the next command must not read it by the new name.
func (d *denySet) hardLink(p string) bool {
	var st syscall.Stat_t
	if syscall.Lstat(p, &st) != nil {
		return true
	}
	return st.Nlink > 1 && d.inodes[[2]uint64{uint64(st.Dev), st.Ino}]
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
