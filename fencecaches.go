package main

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The build caches a fenced command writes (go-build, ~/.npm with npx's
// _npx, uv's, Playwright's browsers, Gradle's wrapper, ~/.m2, cargo's
// registry, …) are executed from later without a check: by the person's
// unfenced builds and by yaicli's own MCP starts through npx or uvx. So a
// fenced command never writes the person's caches. Where the wrapper has
// a mount namespace it lays over each of them an overlay of the fence's
// own: the person's cache is the lower layer, read-only, and what the
// command writes lands in an upper directory under yaicli's cache
// directory (~/.cache/yaicli/fence, mode 0700), kept between commands so
// a rebuild stays fast. Commands share one set of upper directories; each
// MCP server has its own, so what one writes never runs in another (a
// server holding a token). A set has slots, each locked by the wrapper
// using it, so two commands at once never share an upper directory.
// Where an overlay cannot be made (no mount namespace, an old kernel, an
// upper directory on a file system overlayfs refuses) the command gets
// private cache directories of the fence's through the caches' variables
// (cacheEnviron) and the person's caches stay read-only: it fails closed.

// fenceCaches is the part of a fence that lays the person's caches under
// overlays (fenceSpec.Caches).
type fenceCaches struct {
	// Places are the person's caches that exist (resolved), to lay under
	// overlays; Root is the fence's own directory for the upper layers
	// and the private caches; Set names whose they are: "commands" or one
	// MCP server's.
	Places []string
	Root   string
	Set    string
	// Env are the caches' variables pointed at private directories, used
	// when the overlays cannot be made; Fallback says the parent already
	// knows they cannot (no mount namespace): the command gets Env.
	Env      map[string]string `json:",omitempty"`
	Fallback bool              `json:",omitempty"`
}

// fenceCacheVars are the variables that move the caches a fenced command
// writes to private directories when no overlay can be made, by the
// name of the directory under the set's private one: XDG_CACHE_HOME moves
// every cache in ~/.cache (and Go's build cache with it), the rest name
// caches outside it or set elsewhere by the person.
var fenceCacheVars = map[string]string{"XDG_CACHE_HOME": "xdg", "GOCACHE": "xdg/go-build", "npm_config_cache": "npm",
	"PIP_CACHE_DIR": "xdg/pip", "UV_CACHE_DIR": "xdg/uv", "YARN_CACHE_FOLDER": "xdg/yarn", "CARGO_TARGET_DIR": "cargo-target"}

// fenceCacheRoot is the fence's own directory under the user's cache
// directory, made private (0700, the user's); "" when it cannot be.
func fenceCacheRoot(cacheDir string) string {
	if cacheDir == "" {
		return ""
	}
	root := filepath.Join(cacheDir, "yaicli", "fence")
	if privateDir(root, os.Getuid(), "XDG_CACHE_HOME") != nil {
		return ""
	}
	return resolvePathOf(root)
}

// personCaches are the caches of s the person's programs run from: every
// cache but the temp directories, resolved, that exists as a directory
// and does not lie in the workspace (written anyway) nor in the fence's
// own directory.
func (s *sandbox) personCaches(root string) []string {
	temps := resolveAll([]string{s.temp, "/tmp", "/var/tmp", "/dev/shm"})
	var out []string
	for _, c := range resolveAll(s.caches) {
		if slices.Contains(temps, c) || s.workspace != "" && insideAny(c, []string{resolvePathOf(s.workspace)}) || root != "" && insideAny(c, []string{root}) {
			continue
		}
		if st, err := os.Stat(c); err == nil && st.IsDir() && resolvePathOf(c) == c { // a link's name: its target is listed
			out = append(out, c)
		}
	}
	return out
}

// layerCaches fills in f's caches (spec's hook): the person's caches to
// lay under overlays in the wrapper, or, with no mount namespace, taken
// out of f's writable places with the private directories given instead.
func (s *sandbox) layerCaches(f *fenceSpec) {
	root := fenceCacheRoot(s.cacheDir)
	if root != "" && insideAny(root, slices.Concat(f.Write, f.WriteDirs)) { // a command could plant links there: no layers, no private caches
		root = ""
	}
	c := &fenceCaches{Places: s.personCaches(root), Root: root, Set: "commands"}
	if len(c.Places) == 0 {
		return
	}
	f.Caches = c
	if !mountNamespace() {
		c.Fallback = true
		c.fallBack(f, c.Places)
	}
}

// serverCaches gives a fenced MCP server's caches (f's) a set of their
// own, so nothing a command or another server wrote runs in it.
func (f *fenceSpec) serverCaches(name string) {
	c := f.Caches
	if c == nil {
		return
	}
	old := filepath.Join(c.Root, c.Set, "private")
	sum := sha256.Sum256([]byte(name))
	c.Set = "server-" + hex.EncodeToString(sum[:8])
	if c.Fallback { // the commands' private directories are not the server's
		f.Write = slices.DeleteFunc(f.Write, func(p string) bool { return p == old })
		c.fallBack(f, c.Places)
	}
}

// fallBack takes the caches failed out of f's writable places (they stay
// read-only) and, where the fence has its own directory, points the
// caches' variables at private directories there, granted for writing.
func (c *fenceCaches) fallBack(f *fenceSpec, failed []string) {
	keep := func(l []string) []string {
		return slices.DeleteFunc(l, func(p string) bool { return insideAny(p, failed) })
	}
	f.Write, f.WriteDirs = keep(f.Write), keep(f.WriteDirs)
	if c.Root == "" {
		return
	}
	dir := filepath.Join(c.Root, c.Set, "private")
	c.Env = map[string]string{}
	for v, sub := range fenceCacheVars {
		p := filepath.Join(dir, sub)
		if os.MkdirAll(p, 0o700) == nil {
			c.Env[v] = p
		}
	}
	f.Write = append(f.Write, dir)
}

// cacheEnviron is environ, the command's, with the caches' variables
// pointed at c's private directories when c fell back (in the parent or
// the wrapper); as it is otherwise.
func cacheEnviron(environ []string, c *fenceCaches) []string {
	if c == nil || !c.Fallback || len(c.Env) == 0 {
		return environ
	}
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return c.Env[k] != ""
	})
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		out = append(out, k+"="+c.Env[k])
	}
	return out
}

// layerName is the name of the upper layer of cache p in a slot: its base
// name and a hash of its path, so it stays the same whatever the order.
func layerName(p string) string {
	sum := sha256.Sum256([]byte(p))
	return strings.TrimPrefix(filepath.Base(p), ".") + "-" + hex.EncodeToString(sum[:6])
}
