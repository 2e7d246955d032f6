package main

import (
	"path/filepath"
	"strings"
)

// What a fenced command reads is granted, not everything but what is
// denied: the fence cannot know a key file it did not find (deeper than
// its walk, under /srv or another account's home), so it grants reading
// only where ordinary work reads (fenceReadRoots), each carved around the
// sensitive places as before, and nothing else: /srv, /mnt, /media,
// /home's other accounts, a data disk at / stay closed.

// fenceSystemRoots are the system's directories a fenced command reads:
// programs, libraries, configuration (its secrets carved out), the
// kernel's and devices' views, run-time and variable state, temp, and the
// package managers that install at / (Nix, Snap, Guix).
var fenceSystemRoots = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc",
	"/sys", "/dev", "/run", "/var", "/tmp", "/nix", "/snap", "/gnu"}

// fenceHomeToolchains are the places in the home where toolchains, their
// caches and the configuration they read live: Go (modules, build cache,
// installed toolchains), Node (npm, nvm, volta, pnpm, yarn, bun, deno),
// Rust (cargo, rustup), Python (pyenv, pip's user site, pipx), Java
// (Maven, Gradle, SDKMAN), Ruby, .NET, and git's own configuration.
var fenceHomeToolchains = []string{"go", "sdk", ".cache", ".npm", ".nvm", ".volta", ".local/share/pnpm", ".yarn", ".bun", ".deno",
	".cargo", ".rustup", ".pyenv", ".local/bin", ".local/lib", ".local/share/pipx", ".m2", ".gradle", ".sdkman", ".rbenv",
	".gem", ".dotnet", ".nuget", ".gitconfig", ".config/git"}

// fenceToolchainVars name toolchains installed elsewhere than their
// default place.
var fenceToolchainVars = []string{"GOROOT", "GOPATH", "CARGO_HOME", "RUSTUP_HOME", "NVM_DIR", "VOLTA_HOME", "PYENV_ROOT",
	"BUN_INSTALL", "DENO_DIR", "SDKMAN_DIR", "JAVA_HOME"}

// fenceReadRoots lists where a fenced command may read, before carving:
// the start directory (unless it is /), the system's directories, the
// toolchains in the home and those the environment names, the
// directories on PATH (a program found there runs), and TOOL_READ_ROOTS
// (extra). What it writes (the workspace, temp, caches) it reads too.
// A PATH entry that is / or holds the home is left out: it would open all.
func fenceReadRoots(workDir, homeDir string, environ, extra []string) []string {
	out := append([]string{}, fenceSystemRoots...)
	if workDir != "" && !holdsHome(workDir, homeDir) {
		out = append(out, workDir)
	}
	if homeDir != "" {
		for _, t := range fenceHomeToolchains {
			out = append(out, filepath.Join(homeDir, t))
		}
	}
	for _, v := range fenceToolchainVars {
		for _, d := range filepath.SplitList(envValue(environ, v)) {
			if filepath.IsAbs(d) && !holdsHome(d, homeDir) {
				out = append(out, d)
			}
		}
	}
	for _, d := range filepath.SplitList(envValue(environ, "PATH")) {
		if filepath.IsAbs(d) && !holdsHome(d, homeDir) {
			out = append(out, filepath.Clean(d))
		}
	}
	for _, r := range extra {
		if r = expandHome(strings.TrimSpace(r), homeDir); filepath.IsAbs(r) {
			out = append(out, r)
		}
	}
	return out
}

// holdsHome reports whether granting d would grant a whole home: d is /,
// the run's home or above it, or any account's home or a directory
// holding one (/home, a GOPATH=$HOME, a start in ~ or /home). Such a
// place is not granted whole; its toolchains are, by name.
func holdsHome(d, home string) bool {
	d = resolvePathOf(d)
	if d == "/" {
		return true
	}
	for _, h := range append([]string{home}, homesOnce()...) {
		if h != "" && insideDir(resolvePathOf(h), d) {
			return true
		}
	}
	return false
}
