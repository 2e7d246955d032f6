//go:build !openbsd

package main

import "golang.org/x/sys/unix"

// statfsBytes is a filesystem's total, free and available bytes.
func statfsBytes(s *unix.Statfs_t) (total, free, avail uint64) {
	bs := uint64(s.Bsize)
	return uint64(s.Blocks) * bs, uint64(s.Bfree) * bs, uint64(s.Bavail) * bs
}
