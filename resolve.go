package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// A path a tool names is judged by what the kernel would open, not by its
// spelling: `docs/theme/../X`, where docs/theme is a link, is X beside the
// link's target, because the kernel applies `..` after following the link
// (filepath.Clean applies it before). So a path is resolved the kernel's
// way to its real path (realPath), that real path is judged, and the file
// is then opened by its real path with no link allowed on the way and its
// identity compared with the one judged (openJudged): a link swapped in
// after the check makes the open fail instead of leading elsewhere.

// maxLinkHops is how many links one resolution follows, as the kernel's
// ELOOP limit (40).
const maxLinkHops = 40

// errChanged is the open of a path that is no longer the file judged.
var errChanged = errors.New("it changed since it was checked (a link or another file put in its place); ask again")

// spot is a path as resolved: its real path (no link, no `..` in it) and
// the identity of what is there.
type spot struct {
	real     string
	exists   bool
	dev, ino uint64
	mode     fs.FileMode
}

// lexicalAbs is p made absolute from base without cleaning it: `..` must
// stay where the kernel will apply it.
func lexicalAbs(p, base string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return base + string(filepath.Separator) + p
}

// resolveSpot is the real path of abs as the kernel resolves it, links in
// the last component followed when follow is set. A missing tail is
// joined to its real parent; a missing directory followed by `..` fails,
// as it does for the kernel.
func resolveSpot(abs string, follow bool) (spot, error) {
	if sp, err := kernelSpot(abs, follow); !errors.Is(err, syscall.ENOSYS) {
		return sp, err
	}
	return walkSpot(abs, follow)
}

// kernelSpot asks the kernel to resolve abs (kernelResolve: openat2 from
// /, magic links refused, the real path read back from /proc/self/fd); a
// missing last component is joined to its real parent. ENOSYS where the
// kernel cannot (no openat2 or no /proc): the walk resolves then.
func kernelSpot(abs string, follow bool) (spot, error) {
	real, dev, ino, mode, err := kernelResolve(abs, follow)
	switch {
	case errors.Is(err, syscall.ENOENT):
		return kernelMissing(abs)
	case errors.Is(err, syscall.ENOSYS):
		return spot{}, err
	case err != nil:
		return spot{}, &fs.PathError{Op: "resolve", Path: abs, Err: err}
	}
	return spot{real: real, exists: true, dev: dev, ino: ino, mode: mode}, nil
}

// kernelMissing resolves a path whose last component does not exist: its
// parent through the kernel, the name joined as written. `..` or `.` as
// the name, a dangling link, or a missing parent is the walk's to judge.
func kernelMissing(abs string) (spot, error) {
	dir, name := filepath.Split(abs)
	if name == "" || name == ".." || name == "." || dir == "" {
		return walkSpot(abs, true)
	}
	if st, err := os.Lstat(abs); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return walkSpot(abs, true) // what a dangling link names is what a write creates
	}
	parent, err := kernelSpot(dir, true)
	if err != nil || !parent.exists {
		return walkSpot(abs, true)
	}
	if !parent.mode.IsDir() {
		return spot{}, fmt.Errorf("%s: %w", parent.real, syscall.ENOTDIR)
	}
	return spot{real: filepath.Join(parent.real, name)}, nil
}

// reMagic matches the /proc links that are not paths but handles (a
// process's fds, root, cwd, executable): the kernel follows them anywhere,
// so they are refused, as RESOLVE_NO_MAGICLINKS refuses them.
var reMagic = regexp.MustCompile(`^/proc/[^/]+(/task/[^/]+)?/(fd/[^/]+|map_files/[^/]+|root|cwd|exe)$`)

// walkSpot resolves abs component by component, following links as the
// kernel does (a link's target replaces it, `..` applies to what it led
// to). It is the resolution where openat2 is missing; what it finds is
// bound to the file by openJudged all the same.
func walkSpot(abs string, follow bool) (spot, error) {
	todo := splitPath(abs)
	cur, hops := "/", 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		if c == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		st, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return missingTail(next, todo)
		}
		if err != nil {
			return spot{}, err
		}
		if st.Mode()&fs.ModeSymlink != 0 && (len(todo) > 0 || follow) {
			if hops++; hops > maxLinkHops || reMagic.MatchString(next) {
				return spot{}, fmt.Errorf("resolving %s: %w", abs, syscall.ELOOP)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return spot{}, err
			}
			if filepath.IsAbs(target) {
				cur = "/"
			}
			todo = append(splitPath(target), todo...)
			continue
		}
		if len(todo) > 0 && !st.IsDir() {
			return spot{}, fmt.Errorf("resolving %s: %s: %w", abs, next, syscall.ENOTDIR)
		}
		cur = next
	}
	return spotOf(cur)
}

// missingTail is the spot of a path whose component first does not exist:
// the rest is joined as written, and `..` after a missing name fails.
func missingTail(first string, rest []string) (spot, error) {
	for _, c := range rest {
		if c == ".." {
			return spot{}, fmt.Errorf("%s: %w", first, fs.ErrNotExist)
		}
	}
	return spot{real: filepath.Join(append([]string{first}, rest...)...)}, nil
}

// splitPath is p's components without empty ones and ".".
func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// spotOf is the identity of the real path p (not followed).
func spotOf(p string) (spot, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return spot{}, err
	}
	sp := spot{real: p, exists: true, mode: st.Mode()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		sp.dev, sp.ino = uint64(sys.Dev), uint64(sys.Ino)
	}
	return sp, nil
}

// openJudged opens the file judged at sp with flags: by its real path
// beneath root (a directory that holds it; "/" for none), with no link
// followed on the way (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|
// RESOLVE_NO_MAGICLINKS; elsewhere a walk of O_NOFOLLOW opens from
// root's handle), and it must still be the file judged (device and inode).
// A file that did not exist must not exist yet when flags create it.
func openJudged(sp spot, root string, flags int, mode uint32) (*os.File, error) {
	if !insideDir(sp.real, root) {
		root = "/"
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(sp.real, root), "/")
	if rel == "" {
		rel = "."
	}
	if !sp.exists && flags&os.O_CREATE != 0 {
		flags |= os.O_EXCL
	}
	if flags&os.O_CREATE == 0 {
		mode = 0 // openat2 refuses a mode it would not use
	}
	fd, err := openat2Beneath(root, rel, flags|unix.O_CLOEXEC|unix.O_NOCTTY, mode)
	if errors.Is(err, syscall.ENOSYS) {
		fd, err = walkBeneath(root, rel, flags|unix.O_CLOEXEC|unix.O_NOCTTY, mode)
	}
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EXDEV) || errors.Is(err, fs.ErrExist) && !sp.exists {
		return nil, fmt.Errorf("%s: %w", sp.real, errChanged)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: sp.real, Err: err}
	}
	f := os.NewFile(uintptr(fd), sp.real)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || sp.exists && (uint64(st.Dev) != sp.dev || uint64(st.Ino) != sp.ino) {
		f.Close()
		return nil, fmt.Errorf("%s: %w", sp.real, errChanged)
	}
	return f, nil
}

// walkBeneath opens rel (clean, relative, without `..`) from the directory
// root, one component at a time, none of them followed if it is a link.
func walkBeneath(root, rel string, flags int, mode uint32) (int, error) {
	dir, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	parts := splitPath(rel)
	if len(parts) == 0 {
		if flags&(unix.O_WRONLY|unix.O_RDWR) == 0 {
			return dir, nil
		}
		unix.Close(dir)
		return -1, syscall.EISDIR
	}
	for i, c := range parts {
		if c == ".." {
			unix.Close(dir)
			return -1, syscall.EXDEV
		}
		fl, m := unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(0)
		if i == len(parts)-1 {
			fl, m = flags|unix.O_NOFOLLOW, mode
		}
		next, err := unix.Openat(dir, c, fl, m)
		unix.Close(dir)
		if err != nil {
			return -1, err
		}
		dir = next
	}
	return dir, nil
}

// resolvePath makes p absolute (relative to base) and resolves it as the
// kernel does (resolveSpot: links followed, `..` applied after them), as
// far as it exists; on an error it is p made absolute and cleaned.
func resolvePath(p, base string) string {
	abs := lexicalAbs(p, base)
	sp, err := resolveSpot(abs, true)
	if err != nil {
		return filepath.Clean(abs)
	}
	return sp.real
}

// insideDir reports whether p is dir or inside it (both clean and absolute).
func insideDir(p, dir string) bool {
	return dir != "" && (p == dir || dir == "/" || strings.HasPrefix(p, dir+string(filepath.Separator)))
}

// expandHome replaces a leading ~/ with home, the home directory the run
// found at its edge; without one the path stays as typed.
func expandHome(p, home string) string {
	if strings.HasPrefix(p, "~/") && home != "" {
		return filepath.Join(home, p[2:])
	}
	return p
}
