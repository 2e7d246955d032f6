package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic replaces path with b through a temp file in the same
// directory and a rename, mode 0600 before the rename, so a crash never
// leaves a half-written file and no reader ever sees a wider mode. It is the
// one atomic write: chats, roles, the history file, the window cache and the
// permissions file all go through it. A path that names something other
// than a regular file (/dev/null, a FIFO, a directory) is refused: the
// rename would replace the device itself, as root.
func writeFileAtomic(path string, b []byte) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("not replacing %s: it is not a regular file (%s); point the setting at a file", path, fi.Mode().Type())
	}
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
