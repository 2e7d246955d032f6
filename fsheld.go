package main

// fs_file_operations changes what it showed through handles, never by
// path again: the directories holding the source and the destination are
// opened as os.Root and must be the directories planned (device and
// inode), the entry in them must still be the one planned, and everything
// after (a rename between the two handles, a recursive delete, a copy's
// walk, its reads and writes) goes through those handles. A directory
// swapped for a link, or an entry swapped, between the question and the
// change makes the call fail (errChanged) instead of acting elsewhere.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// heldDir opens dir as an os.Root, only if it is still the directory
// planned (want; nil: it was not seen, and the call fails).
func heldDir(dir string, want os.FileInfo) (*os.Root, error) {
	if want == nil {
		return nil, fmt.Errorf("%s: %w", dir, errChanged)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if st, err := r.Stat("."); err != nil || !os.SameFile(st, want) {
		r.Close()
		return nil, fmt.Errorf("%s: %w", dir, errChanged)
	}
	return r, nil
}

// heldEntry is the entry name in r, checked to be the one planned (want).
func heldEntry(r *os.Root, name string, want os.FileInfo) error {
	st, err := r.Lstat(name)
	if err != nil {
		return err
	}
	if want == nil || !os.SameFile(st, want) {
		return fmt.Errorf("%s: %w", name, errChanged)
	}
	return nil
}

// parentInfo is what is at the directory holding p now (followed), or nil.
func parentInfo(p string) os.FileInfo {
	st, err := os.Stat(filepath.Dir(p))
	if err != nil {
		return nil
	}
	return st
}

// heldPlan is what a change was planned on: the source and destination
// paths, what was at each and at the directories holding them.
type heldPlan struct {
	path, dest                     string
	src, destInfo, srcDir, destDir os.FileInfo
}

// errNotEmpty is a delete of a directory that holds entries, without
// recursive.
var errNotEmpty = errors.New("directory not empty")

// removeHeld deletes h.path through its held directory: a file or link
// (the link itself), an empty directory, or with recursive a directory
// and all in it (os.Root.RemoveAll: nothing outside it is touched).
func (h heldPlan) removeHeld(recursive bool) error {
	if h.src == nil {
		return fmt.Errorf("%s does not exist", h.path)
	}
	r, err := heldDir(filepath.Dir(h.path), h.srcDir)
	if err != nil {
		return err
	}
	defer r.Close()
	name := filepath.Base(h.path)
	if err := heldEntry(r, name, h.src); err != nil {
		return err
	}
	if h.src.IsDir() && recursive {
		return r.RemoveAll(name)
	}
	err = r.Remove(name)
	if h.src.IsDir() && (errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST)) {
		return errNotEmpty
	}
	return err
}

// heldPair opens the source's and the destination's directories as
// planned and checks the source entry, and the destination's when one was
// there (none may have appeared since).
func (op heldPlan) heldPair() (src, dst *os.Root, err error) {
	if src, err = heldDir(filepath.Dir(op.path), op.srcDir); err != nil {
		return nil, nil, err
	}
	if dst, err = heldDir(filepath.Dir(op.dest), op.destDir); err != nil {
		src.Close()
		return nil, nil, err
	}
	err = heldEntry(src, filepath.Base(op.path), op.src)
	if err == nil && op.destInfo != nil {
		err = heldEntry(dst, filepath.Base(op.dest), op.destInfo)
	} else if _, lerr := dst.Lstat(filepath.Base(op.dest)); err == nil && op.destInfo == nil && lerr == nil {
		err = fmt.Errorf("%s: %w", op.dest, errChanged)
	}
	if err != nil {
		src.Close()
		dst.Close()
		return nil, nil, err
	}
	return src, dst, nil
}

// moveHeld renames the source to the destination between the two held
// directories (renameat on their handles); across filesystems it copies
// through them, then removes the source through its own.
func (op heldPlan) moveHeld(ctx context.Context) error {
	src, dst, err := op.heldPair()
	if err != nil {
		return err
	}
	defer src.Close()
	defer dst.Close()
	sd, err := src.Open(".")
	if err != nil {
		return err
	}
	defer sd.Close()
	dd, err := dst.Open(".")
	if err != nil {
		return err
	}
	defer dd.Close()
	err = unix.Renameat(int(sd.Fd()), filepath.Base(op.path), int(dd.Fd()), filepath.Base(op.dest))
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	if err := copyHeld(ctx, src, dst, op, nil, nil); err != nil {
		return err
	}
	return src.RemoveAll(filepath.Base(op.path))
}

// copyOp copies the source to the destination through the held
// directories; entries hide reports are left out and listed in left.
func (op heldPlan) copyOp(ctx context.Context, hide func(string, *os.File) bool, left *[]string) error {
	src, dst, err := op.heldPair()
	if err != nil {
		return err
	}
	defer src.Close()
	defer dst.Close()
	return copyHeld(ctx, src, dst, op, hide, left)
}

// copyHeld copies op's source entry in src to op's destination entry in
// dst: a file's bytes and mode, a link as a link, a directory's tree (its
// own os.Root, merged into an existing one); never through a link, each
// file read from the handle it was judged on (hide; nil: none).
func copyHeld(ctx context.Context, src, dst *os.Root, op heldPlan, hide func(string, *os.File) bool, left *[]string) error {
	name, dname := filepath.Base(op.path), filepath.Base(op.dest)
	if !op.src.IsDir() {
		return copyEntryHeld(src, dst, name, dname, op.path, op.src, hide, left)
	}
	if err := dst.Mkdir(dname, op.src.Mode().Perm()|0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	from, err := src.OpenRoot(name)
	if err != nil {
		return err
	}
	defer from.Close()
	if st, err := from.Stat("."); err != nil || !os.SameFile(st, op.src) {
		return fmt.Errorf("%s: %w", op.path, errChanged)
	}
	to, err := dst.OpenRoot(dname)
	if err != nil {
		return err
	}
	defer to.Close()
	return fs.WalkDir(from.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		shown := filepath.Join(op.path, rel)
		if hide != nil && d.IsDir() && hide(shown, nil) {
			*left = append(*left, shown)
			return fs.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyEntryHeld(from, to, rel, rel, shown, info, hide, left)
	})
}

// copyEntryHeld copies the entry at rel in from to drel in to, st being
// what the walk saw there; shown is its path for the judgement and left.
func copyEntryHeld(from, to *os.Root, rel, drel, shown string, st os.FileInfo, hide func(string, *os.File) bool, left *[]string) error {
	switch m := st.Mode(); {
	case m.IsDir():
		if err := to.Mkdir(drel, m.Perm()|0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if d, err := to.Lstat(drel); err != nil || !d.IsDir() {
			return fmt.Errorf("%s is not a directory to copy into", drel)
		}
		return nil
	case m&fs.ModeSymlink != 0:
		target, err := from.Readlink(rel)
		if err != nil {
			return err
		}
		to.Remove(drel)
		return to.Symlink(target, drel)
	case !m.IsRegular():
		return fmt.Errorf("%s is %v, not a file, directory or link; it is not copied", shown, m.Type())
	}
	in, err := from.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if now, err := in.Stat(); err != nil || !now.Mode().IsRegular() || !os.SameFile(now, st) {
		return fmt.Errorf("%s: %w", shown, errChanged)
	}
	if hide != nil && hide(shown, in) {
		*left = append(*left, shown)
		return nil
	}
	return writeThrough(to, drel, in, st)
}

// writeThrough writes what in gives to a new temporary file beside drel in
// to, then renames it over drel: a link at drel is replaced, never written
// through.
func writeThrough(to *os.Root, drel string, in io.Reader, st os.FileInfo) error {
	tmp := filepath.Join(filepath.Dir(drel), "."+filepath.Base(drel)+".yaicli-copy.tmp")
	to.Remove(tmp)
	out, err := to.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, st.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Chmod(st.Mode().Perm())
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		to.Chtimes(tmp, st.ModTime(), st.ModTime())
		err = to.Rename(tmp, drel)
	}
	if err != nil {
		to.Remove(tmp)
	}
	return err
}
