package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesystemInfo: a path's facts (a link described, not followed;
// a missing path exists: false), the disk space of its filesystem, and
// reads outside the workspace asked like fs_read_file.
func TestFilesystemInfo(t *testing.T) {
	w := newPermWorld(t, nil)
	get := func(args map[string]any) map[string]any {
		t.Helper()
		var out bytes.Buffer
		if err := filesystemInfo(args, w.ws, w.home, &out); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(out.Bytes(), &m)
		return m
	}
	m := get(map[string]any{"path": "notes.txt"})
	pi, _ := m["path_info"].(map[string]any)
	owner := ""
	if u, err := user.Current(); err == nil {
		owner = u.Username
	}
	if m["success"] != true || pi["exists"] != true || pi["type"] != "file" || pi["size"] != float64(len("text of notes.txt")) || pi["permissions"] != "600" ||
		pi["path"] != filepath.Join(w.ws, "notes.txt") || owner != "" && pi["owner"] != owner || pi["modified"] == "" {
		t.Errorf("path_info = %v (owner %q)", pi, owner)
	}
	dirs, _ := m["directories"].(map[string]any)
	if dirs["working_directory"] != w.ws || dirs["home_directory"] != w.home {
		t.Errorf("directories = %v", dirs)
	}
	du, _ := m["disk_usage"].([]any)
	first, _ := func() (map[string]any, bool) {
		if len(du) == 0 {
			return nil, false
		}
		d, ok := du[0].(map[string]any)
		return d, ok
	}()
	if first == nil || first["total"].(float64) <= 0 || first["free"].(float64) > first["total"].(float64) ||
		!insideDir(filepath.Join(w.ws, "notes.txt"), first["mount_point"].(string)) {
		t.Errorf("disk_usage = %v", du)
	}
	if pi := get(map[string]any{"path": "escape", "include_disk_usage": false})["path_info"].(map[string]any); pi["type"] != "symlink" || pi["link_target"] != w.outside {
		t.Errorf("a link = %v", pi)
	}
	if m := get(map[string]any{"path": "nope", "include_disk_usage": false}); m["path_info"].(map[string]any)["exists"] != false || m["disk_usage"] != nil {
		t.Errorf("missing path = %v", m)
	}
	tb := newToolbox(w.cfg.toolbox(), w.cfg.redactor(), &bytes.Buffer{}, nil, nil)
	res := tb.call(context.Background(), call("i", "fs_get_filesystem_info", `{"path": "`+w.outside+`"}`)).Content
	if !strings.Contains(res, "no terminal to ask on") {
		t.Errorf("info outside the workspace without a terminal = %s", res)
	}
	if res := tb.call(context.Background(), call("i", "fs_get_filesystem_info", `{}`)).Content; !strings.Contains(res, `"exists":true`) {
		t.Errorf("info of the workspace = %.300s", res)
	}
}
