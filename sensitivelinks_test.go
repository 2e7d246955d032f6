package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// linkFailAttacks are attack B14's shapes: a hard link to a .env whose
// partner the table of identities would not reach, past inodeWalkMax
// entries or under node_modules, read by fs_read_file.
func linkFailAttacks() []atkCase {
	link := func(t *testing.T, w atkWorld, key string) bool {
		os.MkdirAll(filepath.Dir(key), 0o700)
		os.WriteFile(key, []byte("OPENAI_API_KEY=sk-hardlinked-secret-0123456789\n"), 0o600)
		if err := os.Link(key, filepath.Join(w.ws, "linked.txt")); err != nil {
			t.Skip(err)
		}
		return !strings.Contains(w.tool(nil, "fs_read_file", map[string]any{"file_paths": "linked.txt"}), "sk-hardlinked")
	}
	return []atkCase{
		{"hard link to a .env past 20,100 entries", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			pad := filepath.Join(w.ws, "aaa")
			os.MkdirAll(pad, 0o700)
			for i := range inodeWalkMax + 100 {
				os.WriteFile(filepath.Join(pad, strconv.Itoa(i)), nil, 0o600)
			}
			return link(t, w, filepath.Join(w.ws, "zzz", ".env"))
		}},
		{"hard link to a .env under node_modules", true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			return link(t, w, filepath.Join(w.ws, "node_modules", "pkg", ".env"))
		}},
	}
}

// TestJudgeLinkFailsClosed: see linkFailAttacks.
func TestJudgeLinkFailsClosed(t *testing.T) {
	runAttacks(t, "hard links past the walk", linkFailAttacks())
}
