package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// What the person's programs run later is not only in the workspace: the
// home's start-up places are read through links (a dotfiles repository,
// ~/.config/nvim -> ~/dotfiles/nvim, installed by stow or a dotfiles
// manager), an activated environment runs its whole prefix (a .pth in a
// virtualenv's site-packages runs in every later python), and a home
// under a temp directory lies inside a place every command may write.
// The fence finds these places before each command and, where the
// wrapper has a mount namespace, binds the real places read-only
// (laterNow), else withholds them from writing by Landlock (spec).

// homeStartupMore are start-up places besides startupHome and
// sandboxNoWriteHome: shells' drop-in directories and frameworks, the
// terminal multiplexer's and prompt's configurations, direnv's own.
var homeStartupMore = []string{".bashrc.d", ".zshrc.d", ".config/zsh", ".oh-my-zsh", ".zsh", ".zim", ".zinit", ".zplug", ".antigen",
	".tmux.conf", ".config/tmux", ".tmux", ".config/direnv", ".config/starship.toml", ".vim", ".config/mise", ".config/environment.d",
	".bash_aliases", ".bash_functions", ".aliases", ".functions", ".exports", ".config/shell", ".config/sh", ".inputrc", ".screenrc"}

// homeLinkDepth is how deep the home's hidden places are looked through
// for links into writable places (~/.config/nvim/lua is three levels).
const homeLinkDepth = 3

// laterPlaces are the places outside the workspace's own run-later list
// that the person's programs run later and that lie in one of writes
// (resolved), real paths: the home's start-up places (homeLinks) and the
// prefixes of activated environments (s.prefixes). The root of a
// writable place itself is left out (binding the workspace read-only
// would leave nothing to work in).
func (s *sandbox) laterPlaces(writes []string) []string {
	var out []string
	add := func(p string) {
		r, err := filepath.EvalSymlinks(p)
		if err != nil || slices.Contains(writes, r) || !insideAny(r, writes) {
			return
		}
		out = append(out, r)
	}
	for _, p := range s.prefixes {
		add(p)
	}
	if s.home != "" {
		for _, rel := range slices.Concat(startupHome, sandboxNoWriteHome, homeStartupMore) {
			add(filepath.Join(s.home, rel))
		}
		for _, l := range s.homeLinks() {
			add(l)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// homeLinks are the links in the home's hidden places and ~/bin, to
// homeLinkDepth levels: what dotfiles managers install, read by shells,
// editors and tools at their start. The caches and sensitive places
// are not looked in; directories are read through the walk's cache.
func (s *sandbox) homeLinks() []string {
	skip := map[string]bool{}
	for _, p := range append(resolveAll(s.caches), resolveAll(s.deny)...) {
		skip[p] = true
	}
	var out []string
	type level struct {
		dir   string
		depth int
	}
	queue := []level{{s.home, 1}}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		ents, _ := s.readDirCached(d.dir) // a directory it cannot read holds no link it could follow either
		for _, e := range ents {
			p := filepath.Join(d.dir, e.name)
			if d.depth == 1 && !strings.HasPrefix(e.name, ".") && e.name != "bin" || skip[p] {
				continue
			}
			switch {
			case e.typ&os.ModeSymlink != 0:
				out = append(out, p)
			case e.typ.IsDir() && d.depth < homeLinkDepth:
				queue = append(queue, level{p, d.depth + 1})
			}
		}
	}
	return out
}

// activatedPrefixes are the prefixes of the environments environ has
// activated: VIRTUAL_ENV and CONDA_PREFIX, and each PATH directory's
// parent that is an environment (a pyvenv.cfg or conda-meta in it, or
// node_modules of a node_modules/.bin). Everything in a prefix runs
// later, not only its bin/.
func activatedPrefixes(environ []string) []string {
	var out []string
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if p := envValue(environ, v); filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	for _, d := range filepath.SplitList(envValue(environ, "PATH")) {
		if !filepath.IsAbs(d) {
			continue
		}
		parent := filepath.Dir(filepath.Clean(d))
		switch {
		case placeExists(filepath.Join(parent, "pyvenv.cfg")), placeExists(filepath.Join(parent, "conda-meta")):
			out = append(out, parent)
		case filepath.Base(d) == ".bin" && filepath.Base(parent) == "node_modules":
			out = append(out, parent)
		}
	}
	return out
}

// homeInWritable is the home, when it lies inside one of writes
// (resolved) as a home under the temp directory does (HOME=/tmp/…, in
// containers and CI): withheld whole from writing, so it is granted as
// a home is, only its named caches, not child by child as a temp
// directory's other entries are.
func (s *sandbox) homeInWritable(writes []string) []string {
	if s.home == "" {
		return nil
	}
	h := resolvePathOf(s.home)
	for _, w := range writes {
		if beneath(h, w) {
			return []string{h}
		}
	}
	return nil
}

// absolutePATH is environ with the relative and empty entries of PATH
// left out ("bin", "node_modules/.bin", "" which is "."): they name a
// different directory in every directory a command runs in, so a
// program a fenced command planted in the workspace would run in place
// of the real one in the next unfenced command. It says so once on warn.
func absolutePATH(environ []string, warn io.Writer) []string {
	var out []string
	var dropped []string
	for _, kv := range environ {
		v, ok := strings.CutPrefix(kv, "PATH=")
		if !ok {
			out = append(out, kv)
			continue
		}
		var keep []string
		for _, d := range strings.Split(v, string(os.PathListSeparator)) {
			if filepath.IsAbs(d) {
				keep = append(keep, d)
			} else if q := fmt.Sprintf("%q", d); !slices.Contains(dropped, q) {
				dropped = append(dropped, q)
			}
		}
		out = append(out, "PATH="+strings.Join(keep, string(os.PathListSeparator)))
	}
	if len(dropped) == 0 {
		return environ
	}
	fmt.Fprintf(warn, "yaicli: PATH holds relative entries (%s): they are left out of the PATH commands get, since a program a command made there would run in place of the real one; use absolute directories\n", strings.Join(dropped, ", "))
	return out
}
