package main

import "strconv"

// The judgement of a file by identity fails closed: a hard link to a key
// file is found by its partner's name in the table of identities
// (inodeTable), and that table's walk of the workspace stops at
// inodeWalkMax entries or where a directory cannot be read. When it
// stopped short, a regular file with more than one link whose inode the
// table does not hold may be a link to a key file it never reached, so it
// is asked about like a key file. A file with one link is judged by its
// own name and place as before.

// unproven says why the file dev, ino (more than one link, already looked
// up by target) is judged like a key: the table's walk was incomplete and
// did not find it; "" when the walk was whole or it is in the table.
func (t *inodeTable) unproven(dev, ino uint64) string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.partial || t.m[[2]uint64{dev, ino}] != "" {
		return ""
	}
	return "a file with more than one name, and the walk for key files stopped short of the workspace's whole tree (past " +
		strconv.Itoa(inodeWalkMax) + " entries, or a directory it could not read): it may be a hard link to a key file"
}
