package main

import "golang.org/x/sys/unix"

// statfsBytes is a filesystem's total, free and available bytes: OpenBSD
// names statfs's fields F_*.
func statfsBytes(s *unix.Statfs_t) (total, free, avail uint64) {
	bs := uint64(s.F_bsize)
	return s.F_blocks * bs, s.F_bfree * bs, uint64(s.F_bavail) * bs
}
