//go:build linux

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// fenceCacheSlots bounds the sets of upper directories of one set in use
// at once (commands running together); past it a command falls back.
const fenceCacheSlots = 8

// mountCaches lays, in the wrapper's mount namespace and before
// readOnlyOutside, an overlay over each of f's caches: the person's
// cache below, read-only, and an upper directory of a free slot of the
// fence's own above. A cache whose overlay cannot be made is taken out
// of f's writable places and the caches' variables are pointed at
// private directories (fallBack), which the fenced process sets in the
// command's environment (cacheEnviron). userNS says the wrapper is in a user
// namespace (overlayfs then keeps its attributes in user.* xattrs).
func mountCaches(f *fenceSpec, userNS bool) error {
	c := f.Caches
	if c == nil || c.Fallback {
		return nil
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil { // no overlay may reach the person's namespace
		return err
	}
	slot := c.slot()
	var failed []string
	for _, p := range c.Places {
		if slot == "" || overlayCache(p, filepath.Join(slot, layerName(p)), userNS) != nil {
			failed = append(failed, p)
		}
	}
	if len(failed) > 0 {
		c.Fallback = true
		c.fallBack(f, failed)
	}
	return nil
}

// slot locks the first free slot of c's set and returns its directory;
// the lock is held until the wrapper ends. "" when none is free.
func (c *fenceCaches) slot() string {
	set := filepath.Join(c.Root, c.Set)
	if c.Root == "" || os.MkdirAll(set, 0o700) != nil {
		return ""
	}
	for i := range fenceCacheSlots {
		dir := filepath.Join(set, "slot"+strconv.Itoa(i))
		fd, err := unix.Open(dir+".lock", unix.O_RDONLY|unix.O_CREAT|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0o600) // read-only: a file open for writing would keep its mount from being made read-only
		if err != nil {
			continue
		}
		if unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) == nil {
			return dir // fd stays open: the lock is the wrapper's until it exits
		}
		unix.Close(fd)
	}
	return ""
}

// overlayCache mounts over cache p an overlay of p (read-only, below)
// and layer's upper directory (what the command writes).
func overlayCache(p, layer string, userNS bool) error {
	upper, work := filepath.Join(layer, "upper"), filepath.Join(layer, "work")
	for _, d := range []string{upper, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	for _, d := range []string{p, upper, work} {
		if strings.ContainsAny(d, `,:\`) { // the option string's separators
			return errors.New("a comma, colon or backslash in " + d)
		}
	}
	opts := "lowerdir=" + p + ",upperdir=" + upper + ",workdir=" + work
	if userNS {
		opts += ",userxattr"
	}
	// volatile: no sync of the upper layer when the namespace ends, which
	// costs about 15 ms a cache; it leaves a mark that refuses the next
	// mount, removed here (the slot is this wrapper's). A crash of the
	// machine may leave the layer torn: it is the fence's own, never the
	// person's cache.
	os.RemoveAll(filepath.Join(work, "work", "incompat"))
	if unix.Mount("overlay", p, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts+",volatile") == nil {
		return nil
	}
	return unix.Mount("overlay", p, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts) // before Linux 5.10
}
