package main

import (
	"path/filepath"
	"slices"
	"strings"
)

// The walk for key files fails closed, and what it found cannot be moved
// out of its sight. A key file in a writable place is bound read-only
// over itself in the wrapper's mount namespace (laterNow lists it with the
// files that run code later), and so is every directory from the one
// holding it up to the writable root the command could move it from
// (keyHoldChain): a mount point cannot be renamed (EBUSY), so the
// directory holding a .env cannot be moved under node_modules, a .git
// or 18 levels of 250-character names, where a walk would not reach it.
// A directory the walk did not read (it could not: a path past PATH_MAX,
// no permission) is not granted (survey's unwalked), and the home's
// toolchain places, granted for reading, are walked at every depth
// (homeReadKeyRoots), not only keyWalkHomeDepth levels of the home.

// keyHoldChain lists the directories above p, outermost first, that a
// command granted roots (Write and WriteDirs) could rename: each whose
// parent is one of roots or inside one. Each is bound over itself.
func keyHoldChain(p string, roots []string) []string {
	var chain []string
	for d := filepath.Dir(p); d != filepath.Dir(d) && insideAny(filepath.Dir(d), roots); d = filepath.Dir(d) {
		chain = append(chain, d)
	}
	slices.Reverse(chain)
	return chain
}

// homeInstalls are the home's toolchain places that hold installed
// toolchains and packages, not the person's work: they are walked
// keyWalkHomeDepth levels of the home, as before (walked whole, a
// pyenv and a rustup of 290,000 entries cost seconds at a command).
var homeInstalls = []string{"sdk", ".cache", ".npm", ".nvm", ".volta", ".local/share/pnpm", ".yarn", ".bun", ".deno", ".cargo",
	".rustup", ".pyenv", ".local/bin", ".local/lib", ".local/share/pipx", ".m2", ".gradle", ".sdkman", ".rbenv", ".gem", ".dotnet",
	".nuget", "go/pkg", "go/bin"}

// homeReadKeyRoots are the places to walk for key files at every depth:
// the read roots (resolved) that lie in the home, which the fence grants
// for reading whole (a ~/go/src/github.com/me/api/.env is five levels
// below the home walk's reach; GOPATH's, TOOL_READ_ROOTS'), but for
// homeInstalls.
func homeReadKeyRoots(read []string, home string) []keyDir {
	if home == "" {
		return nil
	}
	h := resolvePathOf(home)
	installs := resolveAll(joinAll(h, homeInstalls))
	var out []keyDir
	for _, r := range resolveAll(read) {
		if beneath(r, h) && !insideAny(r, installs) {
			out = append(out, keyDir{r, 0})
		}
	}
	return out
}

// inPackages reports whether the key file k lies in installed packages
// (node_modules), which ship other people's test keys: it is withheld
// from reading like any key file, but not bound over itself, so npm can
// still remove or replace the package that holds it. The person's key
// files cannot be moved there (their directories are bound in place).
func inPackages(k string) bool {
	return strings.Contains(k, string(filepath.Separator)+"node_modules"+string(filepath.Separator))
}
