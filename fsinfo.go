package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// filesystemInfoParams is fs_get_filesystem_info's schema: YAICLI's
// include_disk_usage, and path, which YAICLI lacks, for one file's facts.
const filesystemInfoParams = `{"type":"object","properties":{` +
	`"path":{"type":"string","description":"default: the working directory"},` +
	`"include_disk_usage":{"type":"boolean","description":"default true"}}}`

// filesystemInfo is fs_get_filesystem_info: YAICLI's system, directories
// and disk_usage (one entry per filesystem of the path, home, working
// directory and /), and, for path, path_info: whether it exists and its
// type, size, mode, modification time and owner (a link not followed).
func filesystemInfo(args map[string]any, workDir, home string, out io.Writer) error {
	base := workDir
	if base == "" {
		base = "/"
	}
	path := resolveLeaf(argString(args, "path", "."), base, home)
	res := map[string]any{"success": true, "error": nil,
		"system":      map[string]any{"os": runtime.GOOS, "architecture": runtime.GOARCH, "os_version": osRelease()},
		"directories": map[string]any{"working_directory": workDir, "home_directory": home}}
	pi := map[string]any{"path": path, "exists": false}
	if st, err := os.Lstat(path); err == nil {
		pi["exists"] = true
		for k, v := range pathInfo(path, st) {
			pi[k] = v
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		pi["error"] = err.Error()
	}
	res["path_info"] = pi
	if v, ok := args["include_disk_usage"].(bool); !ok || v {
		res["disk_usage"] = diskUsages([]string{path, home, workDir, "/"})
	}
	return writeJSON(out, res)
}

// diskUsages is diskUsage of each path's filesystem, each once; a path
// that does not exist is measured at its nearest existing parent.
func diskUsages(paths []string) []map[string]any {
	seen := map[string]bool{}
	var list []map[string]any
	for _, p := range paths {
		for p != "" && p != "/" {
			if _, err := os.Stat(p); err == nil {
				break
			}
			p = filepath.Dir(p)
		}
		if p == "" {
			continue
		}
		du, err := diskUsage(p)
		if err != nil || seen[du["mount_point"].(string)] {
			continue
		}
		seen[du["mount_point"].(string)] = true
		list = append(list, du)
	}
	return list
}

// diskUsage is the space of the filesystem holding path, by statfs(2).
func diskUsage(path string) (map[string]any, error) {
	var s unix.Statfs_t
	if err := unix.Statfs(path, &s); err != nil {
		return nil, err
	}
	total, free, avail := statfsBytes(&s)
	pct := 0.0
	if total > 0 {
		pct = float64(int(float64(total-free)/float64(total)*10000)) / 100
	}
	return map[string]any{"mount_point": mountPoint(path), "total": total, "used": total - free, "free": avail, "free_for_root": free, "percent_used": pct}, nil
}

// mountPoint is the topmost directory above path on the same device.
func mountPoint(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	dev := deviceOf(st)
	for p := path; ; {
		parent := filepath.Dir(p)
		pst, err := os.Stat(parent)
		if parent == p || err != nil || deviceOf(pst) != dev {
			return p
		}
		p = parent
	}
}

// deviceOf is the device a file is on; 0 where the system does not say.
func deviceOf(st os.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Dev)
	}
	return 0
}

// osRelease is the kernel's release, as YAICLI's os_version.
func osRelease() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Release[:])
}

// filesystemInfoTool is fs_get_filesystem_info: facts about a path, read.
func filesystemInfoTool() tool {
	return tool{
		name:   "fs_get_filesystem_info",
		desc:   "Facts about a path (type, size, mode, time, owner) and the system: OS, working and home directories, space used and free.",
		params: filesystemInfoParams,
		paths:  []pathArg{{key: "path", use: pathReads, dflt: "."}},
		bind: func(e *toolEnv) runFunc {
			return func(_ context.Context, a map[string]any, out io.Writer) error {
				return filesystemInfo(a, e.workDir, e.homeDir, out)
			}
		},
	}
}
