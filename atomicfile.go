package main

import (
	"os"
	"path/filepath"
)

// writeFileAtomic replaces path with b through a temp file in the same
// directory and a rename, mode 0600 before the rename, so a crash never
// leaves a half-written file and no reader ever sees a wider mode. It is the
// one atomic write: chats, roles, the history file, the window cache and the
// permissions file all go through it.
func writeFileAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
