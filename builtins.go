package main

import (
	"context"
	"errors"
	"io"
	"os"
)

// builtinTools are the tools yaicli offers, with YAICLI's names and
// parameters; red takes the run's secrets out of the shell's environment.
func builtinTools(o toolboxOptions, red *redactor, perm *permissions) []tool {
	web := o.web.guard().client()
	self, _ := os.Executable() // re-executed as each command's wrapper
	box := newSandbox(o.fence, self)
	env := red.childEnv(o.environ, nil) // the run's own, with the secrets left out
	return []tool{
		{
			name:    "execute_shell_command",
			desc:    "Run a command in the user's shell; returns its output (stdout and stderr merged) and exit code. Large output is cut; the result says where the whole is.",
			params:  `{"type":"object","properties":{"shell_command":{"type":"string"}},"required":["shell_command"]}`,
			changes: true,
			run: func(ctx context.Context, a map[string]any, out io.Writer) error {
				cmd := argString(a, "shell_command", "")
				if cmd == "" {
					return errors.New("shell_command is required")
				}
				return runShell(ctx, cmd, o.workDir, o.shellTimeout, env, box.start(ctx), out)
			},
		},
		{
			name: "fs_read_file",
			desc: "Read text files. offset and limit (characters; 0: start, to the end) page through large ones, a spilled tool output too; keep limit under 64000 (e.g. 12000).",
			params: `{"type":"object","properties":{"file_paths":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}],"description":"a path or a list"},` +
				`"encoding":{"type":"string","description":"utf-8 (default) or latin-1"},"offset":{"type":"integer","minimum":0},"limit":{"type":"integer","minimum":0}},"required":["file_paths"]}`,
			run: homed(o.homeDir, "file_paths", readFilesWithin(capFor("fs_read_file", o.outputMaxChars))),
		},
		{
			name:   "fs_list_directory",
			desc:   "List a directory, optionally recursively and with hidden entries. Symbolic links are shown, not followed.",
			params: `{"type":"object","properties":{"directory_path":{"type":"string"},"show_hidden":{"type":"boolean"},"recursive":{"type":"boolean"}},"required":["directory_path"]}`,
			run: homed(o.homeDir, "directory_path", func(ctx context.Context, a map[string]any, out io.Writer) error {
				return listDirectory(ctx, a, out, perm.hider(argString(a, "directory_path", ".")))
			}),
		},
		{
			name: "fs_search_files",
			desc: "Find files under search_path whose names match the glob pattern; with content, grep them by regular expression (path:line:text).",
			params: `{"type":"object","properties":{"search_path":{"type":"string"},"pattern":{"type":"string","description":"glob on file names, e.g. *.go"},` +
				`"exclude_patterns":{"type":"array","items":{"type":"string"}},"max_results":{"type":"integer"},"content":{"type":"string","description":"regular expression"}},"required":["search_path"]}`,
			run: homed(o.homeDir, "search_path", func(ctx context.Context, a map[string]any, out io.Writer) error {
				return searchFiles(ctx, a, out, perm.hider(argString(a, "search_path", ".")))
			}),
		},
		{
			name:    "fs_write_file",
			desc:    "Write text to a file, creating parent directories; append adds to the end instead of replacing.",
			params:  `{"type":"object","properties":{"file_path":{"type":"string"},"content":{"type":"string"},"append":{"type":"boolean"}},"required":["file_path","content"]}`,
			changes: true,
			run:     homed(o.homeDir, "file_path", writeFile),
		},
		{
			name:    "fs_edit_file",
			desc:    editDesc,
			params:  editParams,
			changes: true,
			run:     homed(o.homeDir, "file_path", editFile),
		},
		{
			name:    "fs_file_operations",
			desc:    "Create a directory, delete, move or copy a file or directory, or check one (exists, get_info). Links are handled as links, never followed; a directory with contents is deleted only when recursive is true.",
			params:  fileOpsParams,
			changes: true,
			run: func(ctx context.Context, a map[string]any, out io.Writer) error {
				return fileOperations(ctx, a, perm.workspaceOr(), o.homeDir, out)
			},
		},
		{
			name:   "fs_get_filesystem_info",
			desc:   "Facts about a path (type, size, mode, time, owner) and the system: OS, working and home directories, space used and free.",
			params: filesystemInfoParams,
			run: func(_ context.Context, a map[string]any, out io.Writer) error {
				return filesystemInfo(a, o.workDir, o.homeDir, out)
			},
		},
		{
			name:   "fetch_webpage",
			desc:   "Download a public web page as readable text. Addresses on this machine and private networks are refused unless allowed.",
			params: `{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`,
			run: func(ctx context.Context, a map[string]any, out io.Writer) error {
				return fetchWebpage(ctx, web, a, out, o.web.timeout, o.web.version)
			},
		},
		{
			name:   "web_search",
			desc:   "Search the web and return titles, URLs and snippets.",
			params: `{"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"integer"}},"required":["query"]}`,
			run: func(ctx context.Context, a map[string]any, out io.Writer) error {
				return webSearch(ctx, o.web, web, a, out)
			},
		},
	}
}

// homed runs a file tool with the ~ of its path argument (key; a string or
// a list of them) replaced by home, the run's home directory, so the tools
// read the home the run was given, not the process's.
func homed(home string, key string, run func(context.Context, map[string]any, io.Writer) error) func(context.Context, map[string]any, io.Writer) error {
	return func(ctx context.Context, a map[string]any, out io.Writer) error {
		switch v := a[key].(type) {
		case string:
			a[key] = expandHome(v, home)
		case []any:
			for i, p := range v {
				if s, ok := p.(string); ok {
					v[i] = expandHome(s, home)
				}
			}
		}
		return run(ctx, a, out)
	}
}
