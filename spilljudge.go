package main

import "path/filepath"

// spillDirOf is where the output of a call with args is spilled: dir, or
// its sensitive part when the call's judgement found a sensitive file.
func spillDirOf(dir string, args map[string]any) string {
	j, ok := args[readsKey].(judged)
	if !ok || dir == "" {
		return dir
	}
	for _, rc := range j.files {
		if rc.sensitive != "" {
			return filepath.Join(dir, sensitiveSpillDir)
		}
	}
	return dir
}
