package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// fileOpsParams is fs_file_operations' schema, with YAICLI's names
// (operation, path, destination) and recursive, which YAICLI lacks: it
// deletes a directory and all in it without being asked.
const fileOpsParams = `{"type":"object","properties":{` +
	`"operation":{"type":"string","enum":["create_dir","mkdir","delete","move","copy","exists","get_info"]},` +
	`"path":{"type":"string","description":"the source of move and copy"},` +
	`"destination":{"type":"string","description":"an existing directory receives it under its own name"},` +
	`"recursive":{"type":"boolean","description":"delete a directory with everything in it"}},` +
	`"required":["operation","path"]}`

// Bounds of what fs_file_operations walks: a copy or a recursive delete
// counts what it will touch before the person is asked, and stops
// counting (and refuses) past these.
const (
	fileOpsMaxEntries = 100000
	dirCountMax       = 10000 // get_info's item_count stops here
)

// protectedDirs are system directories fs_file_operations never writes
// into or removes from, approved or not, as YAICLI refuses them.
var protectedDirs = []string{"/etc", "/sys", "/proc", "/dev", "/bin", "/usr", "/sbin", "/boot", "/lib", "/lib64"}

// fileOp is one fs_file_operations call resolved: the paths it touches
// with their directories' links resolved and their last component not
// followed, and what is there now. The approval prompt and the run use the
// same plan, so what runs is what was shown.
type fileOp struct {
	op        string // create_dir, delete, move, copy, exists, get_info
	path      string // resolved source or target
	dest      string // resolved destination of move and copy; into a directory already joined
	recursive bool
	src       os.FileInfo // Lstat of path; nil when it does not exist
	destInfo  os.FileInfo // Lstat of dest; nil when it does not exist
	// srcDir and destDir are the directories holding path and dest as
	// planned: the run changes them through handles checked against these
	// (fsheld.go), never by path again.
	srcDir, destDir os.FileInfo
	// hide is what a copy leaves out: the entries a read would ask about
	// (permissions.hider: name, place, inode, content), unless the source
	// itself is sensitive and so was asked about every time. nil: none.
	hide func(path string, f *os.File) bool
}

// writes reports whether the operation changes anything.
func (op fileOp) writes() bool { return op.op != "exists" && op.op != "get_info" }

// lexicalOp is the operation named in args, with mkdir read as create_dir.
func lexicalOp(args map[string]any) string {
	op := strings.ToLower(strings.TrimSpace(argString(args, "operation", "")))
	if op == "mkdir" {
		op = "create_dir"
	}
	return op
}

// resolveLeaf makes p absolute from base with its directory resolved as
// the kernel resolves it (`..` after a link applies to where the link
// led), and its last component kept as it is: a link there is the thing
// operated on, never followed. A last component of `..` or `.` is no
// name, and the whole path is resolved.
func resolveLeaf(p, base, home string) string {
	abs := lexicalAbs(expandHome(p, home), base)
	dir, name := filepath.Split(strings.TrimRight(abs, "/"))
	if name == "" || name == "." || name == ".." {
		return resolvePath(abs, "/")
	}
	return filepath.Join(resolvePath(dir, "/"), name)
}

// planFileOp resolves a call, relative paths from base and ~ as home; it
// fails when the call cannot run as asked.
func planFileOp(args map[string]any, base, home string) (fileOp, error) {
	op := fileOp{op: lexicalOp(args), recursive: argBool(args, "recursive")}
	switch op.op {
	case "create_dir", "delete", "move", "copy", "exists", "get_info":
	default:
		return op, fmt.Errorf("unknown operation %q; use create_dir (mkdir), delete, move, copy, exists or get_info", argString(args, "operation", ""))
	}
	p := argString(args, "path", "")
	if p == "" {
		return op, errors.New("path is required")
	}
	op.path = resolveLeaf(p, base, home)
	op.src, _ = os.Lstat(op.path)
	op.srcDir = parentInfo(op.path)
	if err := op.protected(); err != nil || op.op != "move" && op.op != "copy" && op.op != "delete" {
		return op, err
	}
	if op.src == nil {
		return op, fmt.Errorf("%s does not exist", op.path)
	}
	if op.op == "delete" {
		return op, nil
	}
	d := argString(args, "destination", "")
	if d == "" {
		return op, fmt.Errorf("destination is required for %s", op.op)
	}
	op.dest = resolveLeaf(d, base, home)
	if st, err := os.Lstat(op.dest); err == nil && st.IsDir() {
		op.dest = filepath.Join(op.dest, filepath.Base(op.path))
	}
	op.destInfo, _ = os.Lstat(op.dest)
	op.destDir = parentInfo(op.dest)
	if op.destInfo != nil && op.destInfo.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(op.dest)
		return op, fmt.Errorf("destination %s is a symbolic link (to %s); links are not written through: name the directory or file itself", op.dest, target)
	}
	if op.dest == op.path || insideDir(op.dest, op.path) && op.src.IsDir() {
		return op, fmt.Errorf("cannot %s %s into itself (%s)", op.op, op.path, op.dest)
	}
	if op.destInfo != nil && op.destInfo.IsDir() != op.src.IsDir() {
		return op, fmt.Errorf("destination %s exists and is %s; the source is %s", op.dest, entryKind(op.destInfo), entryKind(op.src))
	}
	return op, op.protected()
}

// protected refuses writes into or removals from protectedDirs, and
// deleting or moving / or a directory right under it.
func (op fileOp) protected() error {
	var touched []string
	switch op.op {
	case "delete", "move":
		if filepath.Dir(op.path) == "/" {
			return fmt.Errorf("%s is / or a directory right under it: fs_file_operations does not %s it; the person can do it in a shell", op.path, op.op)
		}
		fallthrough
	case "create_dir":
		touched = append(touched, op.path)
	}
	if op.dest != "" {
		touched = append(touched, op.dest)
	}
	for _, p := range touched {
		for _, d := range protectedDirs {
			if insideDir(p, d) {
				return fmt.Errorf("%s is inside %s, a system directory: fs_file_operations does not change it; the person can do it in a shell", p, d)
			}
		}
	}
	return nil
}

// entryKind is "file", "directory", "symlink" or "other".
func entryKind(st os.FileInfo) string {
	switch m := st.Mode(); {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}

// treeCount is what a walk of a directory found, links not followed.
type treeCount struct {
	files, dirs, links int
	bytes              int64
	more               bool // stopped at fileOpsMaxEntries
}

// countTree counts what is under root (root included).
func countTree(root string) treeCount {
	var c treeCount
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if c.files+c.dirs+c.links >= fileOpsMaxEntries {
			c.more = true
			return fs.SkipAll
		}
		switch {
		case d.IsDir():
			c.dirs++
		case d.Type()&fs.ModeSymlink != 0:
			c.links++
		default:
			c.files++
			if info, err := d.Info(); err == nil {
				c.bytes += info.Size()
			}
		}
		return nil
	})
	return c
}

// String is "3 files (120 bytes), 2 directories, 1 link".
func (c treeCount) String() string {
	dirs := fmt.Sprintf("%d directories", c.dirs)
	if c.dirs == 1 {
		dirs = "1 directory"
	}
	s := fmt.Sprintf("%s (%d bytes), %s", plural(c.files, "file"), c.bytes, dirs)
	if c.links > 0 {
		s += ", " + plural(c.links, "symbolic link") + " (copied or removed as links, never followed)"
	}
	if c.more {
		s += fmt.Sprintf(", and more: over %d entries", fileOpsMaxEntries)
	}
	return s
}

// describe says what is at path now, for the prompt.
func describe(path string, st os.FileInfo) string {
	switch {
	case st == nil:
		return path + "  (does not exist)"
	case st.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		return path + "  (symbolic link to " + target + "; the link itself)"
	case st.IsDir():
		return path + "  (directory)"
	}
	return fmt.Sprintf("%s  (%s, %d bytes)", path, entryKind(st), st.Size())
}

// summary is the approval prompt's text: the operation, the resolved
// paths and what each will do to what is there.
func (op fileOp) summary() string {
	var b strings.Builder
	switch op.op {
	case "create_dir":
		fmt.Fprintf(&b, "fs_file_operations wants to create the directory (and missing parents)\n%s", boxed(describe(op.path, op.src), 0, "│"))
	case "delete":
		what := "delete"
		if op.src != nil && op.src.IsDir() && op.recursive {
			what = "delete recursively, with everything in it: " + countTree(op.path).String() + ","
		} else if op.src != nil && op.src.IsDir() {
			what = "delete the directory if it is empty (not recursive)"
		}
		fmt.Fprintf(&b, "fs_file_operations wants to %s\n%s", what, boxed(describe(op.path, op.src), 0, "│"))
	case "move", "copy":
		fmt.Fprintf(&b, "fs_file_operations wants to %s\n%s", op.op, boxed(describe(op.path, op.src), 0, "│"))
		if op.src != nil && op.src.IsDir() {
			fmt.Fprintf(&b, "  %s\n", countTree(op.path))
		}
		dest := describe(op.dest, op.destInfo)
		if op.destInfo != nil {
			dest = strings.Replace(dest, "  (", "  (replacing: ", 1)
			if op.destInfo.IsDir() {
				dest += " (merged into)"
			}
		}
		fmt.Fprintf(&b, "to\n%s", boxed(dest, 0, "│"))
	}
	return b.String()
}

// planKey is where fileOpsApproval leaves its plan in a call's arguments
// for the run: what runs is what was shown, and a call that could not be
// planned when it was judged (so nobody was asked) fails even if it could
// be planned a moment later. Decoded JSON never holds a planned value.
const planKey = "\x00plan"

// planned is a plan, or why there is none.
type planned struct {
	op  fileOp
	err error
}

// fileOpsApproval is the question for a call: reads (exists, get_info)
// are asked like fs_read_file's, outside the free area only; writes are
// always asked, showing the plan, and every time when a path is sensitive.
func (tb *toolbox) fileOpsApproval(t tool, args map[string]any) (approval, bool) {
	base := tb.perm.workspaceOr()
	op, err := planFileOp(args, base, tb.o.homeDir)
	if err == nil && op.op == "copy" {
		op.hide = tb.perm.hider(op.path)
	}
	args[planKey] = planned{op, err}
	if err == nil && !op.writes() || err != nil && (lexicalOp(args) == "exists" || lexicalOp(args) == "get_info") {
		return tb.readApproval(t, []string{argString(args, "path", ".")}, args)
	}
	if err != nil {
		return approval{}, false // the call fails as it runs, changing nothing
	}
	a := approval{tool: t.name, question: strings.TrimSuffix(t.questionText(), "?") + " (" + op.op + ")?", unasked: "--yes or TOOL_APPROVAL=auto", body: op.summary(), workspace: true}
	a.subject = op.op + " " + op.path
	if op.dest != "" {
		a.subject += " -> " + op.dest
	}
	a.what = a.subject
	switch { // destructive.go: the workspace, home or a directory holding one
	case (op.op == "delete" || op.op == "move") && tb.perm.wholePlace(resolvePath(op.path, "/")):
		a.scope(scopeWhy) // the path is in the body, shown safely
	case op.destInfo != nil && tb.perm.wholePlace(resolvePath(op.dest, "/")):
		a.scope(scopeWhy)
	}
	if op.op == "copy" { // a copy reads its source: judged as a read of it is
		if rc := tb.perm.classify(op.path); rc.sensitive != "" {
			a.placeOf(rc.sensitive, "make that change yourself")
		}
	}
	for _, p := range []string{op.path, op.dest} {
		switch {
		case p == "":
		case tb.perm.writeSensitive(resolvePath(p, "/")) != "":
			a.placeOf(tb.perm.writeSensitive(resolvePath(p, "/")), "make that change yourself")
		case tb.perm.writeSensitive(p) != "":
			a.placeOf(tb.perm.writeSensitive(p), "make that change yourself")
		case a.sensitive == "" && (tb.perm.workspace == "" || !insideDir(p, tb.perm.workspace) || p == tb.perm.workspace):
			a.sensitive = "a change outside the workspace"
		}
	}
	return a, true
}

// plannedWrites are the paths a planned call changes: the source of a
// delete, a move or a new directory, and the destination of a move or a
// copy; none for a check or a call that could not be planned.
func plannedWrites(args map[string]any) []string {
	p, ok := args[planKey].(planned)
	if !ok || p.err != nil || !p.op.writes() {
		return nil
	}
	var out []string
	if p.op.op != "copy" {
		out = append(out, p.op.path)
	}
	if p.op.dest != "" {
		out = append(out, p.op.dest)
	}
	return out
}

// fileOpResult is the JSON of one fs_file_operations call, YAICLI's keys.
type fileOpResult map[string]any

// fileOperations is fs_file_operations: create_dir, delete, move, copy,
// exists and get_info, with YAICLI's result objects.
func fileOperations(ctx context.Context, args map[string]any, base, home string, out io.Writer) error {
	p, ok := args[planKey].(planned)
	if !ok {
		p.op, p.err = planFileOp(args, base, home)
	} else if p.err == nil && p.op.writes() && !samePlan(p.op, args, base, home) {
		p.err = fmt.Errorf("%s: %w", p.op.path, errChanged)
	}
	op, err := p.op, p.err
	res := fileOpResult{"operation": op.op, "path": op.path, "success": false, "error": nil}
	if op.path == "" {
		res["path"] = argString(args, "path", "")
	}
	if op.dest != "" {
		delete(res, "path")
		res["source"], res["destination"] = op.path, op.dest
	}
	if err == nil {
		err = op.run(ctx, res)
	}
	if err != nil {
		res["success"], res["error"] = false, err.Error()
	}
	return writeJSON(out, res)
}

// samePlan reports whether planning the call again now gives the plan that
// was shown: the same real paths, and the same file at the source. A link
// or a file swapped in while the person was asked makes the call fail.
func samePlan(op fileOp, args map[string]any, base, home string) bool {
	now, err := planFileOp(args, base, home)
	switch {
	case err != nil || now.path != op.path || now.dest != op.dest:
		return false
	case op.src == nil || now.src == nil:
		return op.src == nil && now.src == nil
	}
	return os.SameFile(op.src, now.src)
}

// run carries out a plan, filling res.
func (op fileOp) run(ctx context.Context, res fileOpResult) error {
	switch op.op {
	case "exists":
		res["exists"], res["type"], res["size"] = op.src != nil, nil, nil
		delete(res, "success")
		delete(res, "error")
		if op.src != nil {
			res["type"], res["size"] = entryKind(op.src), op.src.Size()
		}
		return nil
	case "get_info":
		if op.src == nil {
			return fmt.Errorf("%s does not exist", op.path)
		}
		res["info"] = pathInfo(op.path, op.src)
	case "create_dir":
		return op.createDir(res)
	case "delete":
		return op.remove(res)
	case "move":
		if err := op.held().moveHeld(ctx); err != nil {
			return err
		}
		res["message"] = "Moved successfully"
	case "copy":
		res["type"] = entryKind(op.src)
		var left []string
		if err := op.held().copyOp(ctx, op.hide, &left); err != nil {
			return err
		}
		if len(left) > 0 {
			res["sensitive_not_copied"] = left
		}
		res["message"] = strings.ToUpper(entryKind(op.src)[:1]) + entryKind(op.src)[1:] + " copied"
	}
	res["success"] = true
	return nil
}

// held is what op was planned on, for the change through handles.
func (op fileOp) held() heldPlan {
	return heldPlan{path: op.path, dest: op.dest, src: op.src, destInfo: op.destInfo, srcDir: op.srcDir, destDir: op.destDir}
}

// remove deletes a file or link (the link itself), an empty directory, or
// with recursive a directory and all in it, through the directory held
// (heldPlan.removeHeld).
func (op fileOp) remove(res fileOpResult) error {
	if op.src == nil {
		return fmt.Errorf("%s does not exist", op.path)
	}
	kind := entryKind(op.src)
	res["type"] = kind
	err := op.held().removeHeld(op.recursive)
	if errors.Is(err, errNotEmpty) {
		return fmt.Errorf("%s is a directory with %s in it; delete it with recursive: true (the person is shown what it holds)", op.path, countTree(op.path))
	}
	if err != nil {
		return err
	}
	res["success"], res["message"] = true, strings.ToUpper(kind[:1])+kind[1:]+" deleted"
	return nil
}

// createDir makes the directory and its missing parents.
func (op fileOp) createDir(res fileOpResult) error {
	if op.src != nil {
		if !op.src.IsDir() {
			return fmt.Errorf("%s exists and is %s, not a directory", op.path, entryKind(op.src))
		}
		res["success"], res["message"] = true, "Directory already exists"
		return nil
	}
	if err := os.MkdirAll(op.path, 0o755); err != nil {
		return err
	}
	res["success"], res["message"] = true, "Directory created"
	return nil
}

// pathInfo is the facts of one path (not followed if it is a link).
func pathInfo(path string, st os.FileInfo) map[string]any {
	info := map[string]any{"type": entryKind(st), "size": st.Size(), "modified": st.ModTime().Format(time.RFC3339),
		"permissions": fmt.Sprintf("%03o", st.Mode().Perm()), "mode": st.Mode().String()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		info["uid"], info["gid"] = sys.Uid, sys.Gid
		if u, err := user.LookupId(strconv.Itoa(int(sys.Uid))); err == nil {
			info["owner"] = u.Username
		}
		if g, err := user.LookupGroupId(strconv.Itoa(int(sys.Gid))); err == nil {
			info["group"] = g.Name
		}
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		info["link_target"], _ = os.Readlink(path)
	case st.IsDir():
		if f, err := os.Open(path); err == nil {
			names, _ := f.Readdirnames(dirCountMax + 1)
			f.Close()
			info["item_count"] = min(len(names), dirCountMax)
			if len(names) > dirCountMax {
				info["item_count_note"] = fmt.Sprintf("counting stopped at %d", dirCountMax)
			}
		}
	}
	return info
}

// scope marks a as a destructive change to a whole place (why; "": none),
// asked every time as a sensitive place is.
func (a *approval) scope(why string) {
	if why != "" {
		a.placeOf(why, "do it yourself in a shell if you mean it")
	}
}

// fileOperationsTool is fs_file_operations: it reads or writes by its
// operation, so it judges its own calls (fileOpsApproval).
func fileOperationsTool() tool {
	return tool{
		name:    "fs_file_operations",
		desc:    "Create a directory, delete, move or copy a file or directory, or check one (exists, get_info). Links are handled as links, never followed; a directory with contents is deleted only when recursive is true.",
		params:  fileOpsParams,
		paths:   []pathArg{{key: "path", use: pathPlanned}, {key: "destination", use: pathPlanned}},
		changes: true,
		approve: (*toolbox).fileOpsApproval,
		written: plannedWrites,
		bind: func(e *toolEnv) runFunc {
			return func(ctx context.Context, a map[string]any, out io.Writer) error {
				return fileOperations(ctx, a, e.perm.workspaceOr(), e.homeDir, out)
			}
		},
	}
}
