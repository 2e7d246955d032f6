package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFileOpsActOnWhatWasPlanned: a directory on the path swapped for a
// link between the plan (what the question showed) and the change does
// not lead the change elsewhere: delete, move and copy act through the
// handles of the directories planned, and fail when those are gone.
func TestFileOpsActOnWhatWasPlanned(t *testing.T) {
	for _, c := range []map[string]any{
		{"operation": "delete", "path": "d/f"},
		{"operation": "move", "path": "d/f", "destination": "moved.txt"},
		{"operation": "copy", "path": "d/f", "destination": "copied.txt"},
		{"operation": "delete", "path": "d/sub", "recursive": true},
	} {
		base, _ := filepath.EvalSymlinks(t.TempDir())
		ws, other := filepath.Join(base, "ws"), filepath.Join(base, "other")
		for _, d := range []string{filepath.Join(ws, "d", "sub"), filepath.Join(other, "sub")} {
			os.MkdirAll(d, 0o700)
		}
		os.WriteFile(filepath.Join(ws, "d", "f"), []byte("planned"), 0o600)
		os.WriteFile(filepath.Join(other, "f"), []byte("victim"), 0o600)
		os.WriteFile(filepath.Join(other, "sub", "g"), []byte("victim"), 0o600)
		op, err := planFileOp(c, ws, "")
		if err != nil {
			t.Fatal(err)
		}
		os.Rename(filepath.Join(ws, "d"), filepath.Join(ws, "d.old")) // the swap, after the question
		os.Symlink(other, filepath.Join(ws, "d"))
		res := fileOpResult{}
		err = op.run(context.Background(), res)
		if b, _ := os.ReadFile(filepath.Join(other, "f")); string(b) != "victim" {
			t.Errorf("%v: the file behind the swapped link was changed", c)
		}
		if _, serr := os.Stat(filepath.Join(other, "sub", "g")); serr != nil {
			t.Errorf("%v: the directory behind the swapped link was deleted", c)
		}
		for _, out := range []string{"moved.txt", "copied.txt"} {
			if b, _ := os.ReadFile(filepath.Join(ws, out)); string(b) == "victim" {
				t.Errorf("%v: the file behind the swapped link was taken", c)
			}
		}
		if err == nil {
			t.Errorf("%v: the change ran after its directory was swapped", c)
		}
	}
}
