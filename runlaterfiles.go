package main

import (
	"path/filepath"
	"regexp"
	"strings"
)

// The files of a project that make a program run code later, without the
// person asking for it at that moment, as one list: the fs tools ask
// about a write to one every time (runsLater), the fence binds those that
// exist read-only (runsLaterPlaces) and takes back those a command made
// (the walk, sandboxwalk.go), at any depth of the workspace.
//
// Each is there for what runs it: direnv's .envrc and mise's configs (on
// cd and every prompt: hooks, _.source), husky's hooks and pre-commit's
// config (on commit), the editors' configurations that run programs when
// a folder opens or name the programs the editor runs (.vscode/,
// *.code-workspace, .idea/'s run configurations and workspace, Neovim's
// .nvim.lua and .lazy.lua, vi's .exrc, .devcontainer/), yarn's .yarnrc.yml
// (yarnPath runs on any yarn), cargo's config (build.rustc-wrapper, run by
// rust-analyzer when the folder opens) and the Gradle wrapper's properties
// (the distribution an IDE's sync runs). A Makefile or package.json runs
// only when the person asks for it, and is not on the list.

// runLaterFiles are those files and directories, as paths relative to
// the directory that holds them; a directory counts with everything in
// it.
var runLaterFiles = []string{".envrc", ".husky", ".pre-commit-config.yaml", ".pre-commit-config.yml", ".devcontainer", ".nvim.lua",
	".lazy.lua", ".exrc", ".vscode/tasks.json", ".vscode/settings.json", ".vscode/launch.json", "mise.toml", ".mise.toml",
	"mise.local.toml", ".mise.local.toml", ".mise", ".config/mise", ".yarnrc.yml", ".cargo/config.toml", ".cargo/config",
	"gradle/wrapper/gradle-wrapper.properties", ".idea/workspace.xml", ".idea/runConfigurations"}

// runLaterSuffixes end the names of run-later files that take any name.
var runLaterSuffixes = []string{".code-workspace"}

// reRunsLater matches a path that is one of runLaterFiles or inside one,
// a *.code-workspace, or a .git entry.
var reRunsLater = func() *regexp.Regexp {
	var alts []string
	for _, f := range runLaterFiles {
		alts = append(alts, regexp.QuoteMeta(f)+`(/.*)?`)
	}
	for _, s := range runLaterSuffixes {
		alts = append(alts, `[^/]+`+regexp.QuoteMeta(s))
	}
	return regexp.MustCompile(`(^|/)(` + strings.Join(alts, "|") + `|\.git)$`)
}()

// runLaterIn lists the run-later files of directory dir whose first
// component is name (an entry of dir the walk found) and that exist.
func runLaterIn(dir, name string) []string {
	var out []string
	for _, f := range runLaterFiles {
		if first, _, _ := strings.Cut(f, "/"); first == name && placeExists(filepath.Join(dir, f)) {
			out = append(out, filepath.Join(dir, f))
		}
	}
	for _, s := range runLaterSuffixes {
		if strings.HasSuffix(name, s) {
			out = append(out, filepath.Join(dir, name))
		}
	}
	return out
}
