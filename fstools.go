package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Limits of one fs_read_file call. The model sees at most 64 KB of a
// result (the rest is spilled for paging), so a window far larger only
// grows the spill file; and a call may list the same huge file many times,
// so all its windows together get one budget as well.
const (
	// readWindowMax is the most characters one window returns: 4x the
	// tool's 64 KB result cap, so "limit: 0" on a big file still pages.
	readWindowMax = 256 << 10
	// readCallMax is the most characters all windows of one call return
	// together; files past it are answered with an error, unread.
	readCallMax = 1 << 20
	// readChunk is how much of a file is decoded at once; cancellation is
	// checked between chunks.
	readChunk = 256 << 10
)

// fileWindow is fs_read_file's answer for one file.
type fileWindow struct {
	Path          string `json:"path"`
	Success       bool   `json:"success"`
	Content       string `json:"content"`
	Size          int64  `json:"size"`
	Error         string `json:"error,omitempty"`
	Offset        int    `json:"offset"`
	Limit         int    `json:"limit"`
	TotalChars    int    `json:"total_chars"`
	ReturnedChars int    `json:"returned_chars"`
	Truncated     bool   `json:"truncated"`
	Note          string `json:"note,omitempty"`
}

// openRegular opens path for reading only when it is a regular file: a
// FIFO, a device or a socket would block or never end. The mode is checked
// before opening (opening a device can have effects) and again on the open
// file, which O_NONBLOCK keeps from blocking if the path was swapped.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := regularOnly(path, st.Mode()); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	return checkedRegular(f, err)
}

// checkedRegular is f once its open file is seen to be a regular file.
func checkedRegular(f *os.File, err error) (*os.File, os.FileInfo, error) {
	path := ""
	if f != nil {
		path = f.Name()
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = regularOnly(path, st.Mode())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// readsKey is where the approval leaves its judgement of each path a read
// tool names (a judged) for the run, which opens exactly the files judged.
// Decoded JSON never holds it.
const readsKey = "\x00reads"

// judged is the approval's judgement of a read call: each path's check (by
// the path as named, and with ~ expanded) and this run's secrets.
type judged struct {
	files map[string]readCheck
	red   *redactor
}

// opener opens a file a read tool names.
type opener func(path string) (io.ReadCloser, os.FileInfo, error)

// openPlain is openRegular as an opener.
func openPlain(path string) (io.ReadCloser, os.FileInfo, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, nil, err
	}
	return f, st, nil
}

// readOpener opens the files judged for args: by their real paths beneath
// their free roots, and only if they are still the files judged; a file
// that holds a secret of this run is read with its secrets redacted, so
// no window of it, however placed, shows part of one. Without a judgement
// (a tool called outside the toolbox) it opens by path.
func readOpener(args map[string]any) opener {
	j, ok := args[readsKey].(judged)
	if !ok {
		return openPlain
	}
	return func(path string) (io.ReadCloser, os.FileInfo, error) {
		rc, ok := j.files[path]
		if !ok {
			return nil, nil, fmt.Errorf("%s was not checked before the call ran; call again", path)
		}
		if rc.err == nil && rc.at.exists {
			if err := regularOnly(path, rc.at.mode); err != nil {
				return nil, nil, err
			}
		}
		f, st, err := checkedRegular(rc.open(os.O_RDONLY | syscall.O_NONBLOCK))
		if err != nil || !rc.secret {
			return f, st, err
		}
		return redactedFile{f, newRedactReader(f, j.red)}, st, nil
	}
}

// redactedFile reads a file through a redactor and closes the file.
type redactedFile struct {
	f *os.File
	r io.Reader
}

// Read reads the redacted text.
func (rf redactedFile) Read(p []byte) (int, error) { return rf.r.Read(p) }

// Close closes the file.
func (rf redactedFile) Close() error { return rf.f.Close() }

// regularOnly says why st is not a file fs_read_file reads.
func regularOnly(path string, m fs.FileMode) error {
	switch {
	case m.IsDir():
		return fmt.Errorf("%s is a directory; use fs_list_directory", path)
	case m.IsRegular():
		return nil
	case m&os.ModeNamedPipe != 0:
		return fmt.Errorf("%s is a named pipe (FIFO): reading it could wait forever; only regular files are read", path)
	case m&os.ModeSocket != 0:
		return fmt.Errorf("%s is a socket; only regular files are read", path)
	case m&os.ModeDevice != 0:
		return fmt.Errorf("%s is a device, which may never end; only regular files are read", path)
	}
	return fmt.Errorf("%s is not a regular file (%v); only regular files are read", path, m.Type())
}

// readWindowKnown is readWindow remembering, in totals (nil: none), each
// file's character count: a file listed again is read only up to the end
// of its window instead of to its end.
func readWindowKnown(ctx context.Context, open opener, path, encoding string, offset, limit int, totals map[fileKey]int) fileWindow {
	fw := fileWindow{Path: path, Offset: offset, Limit: limit}
	f, st, err := open(path)
	if err != nil {
		fw.Error = err.Error() + missingSpill(path, err)
		return fw
	}
	defer f.Close()
	seenIn(ctx).saw(path, st) // an edit of this file after it changes is refused (fsedit.go)
	fw.Size = st.Size()
	want := limit
	if want <= 0 || want > readWindowMax {
		want = readWindowMax
	}
	key, keyed := keyOf(st)
	known, seen := totals[key]
	seen = seen && keyed
	var content strings.Builder
	n, err := scanChars(ctx, f, isLatin1(encoding), offset, want, seen, &content)
	if err != nil {
		fw.Error = fmt.Sprintf("reading %s: %v", path, err)
		return fw
	}
	if seen {
		n = known
	} else if keyed && totals != nil {
		totals[key] = n
	}
	fw.Content = content.String()
	fw.TotalChars = n
	fw.ReturnedChars = utf8.RuneCountInString(fw.Content)
	fw.Truncated = fw.ReturnedChars < n
	fw.Success = true
	return fw
}

// scanChars reads r to the end in chunks, counting characters (UTF-8, an
// invalid byte counting as one; or one per byte for latin-1) and writing
// those in [offset, offset+want) to content. Chunks wholly outside the
// window are only counted, which is what keeps a 300 MB file fast. With
// stop, reading ends after the window (the caller knows the total).
func scanChars(ctx context.Context, r io.Reader, latin1 bool, offset, want int, stop bool, content *strings.Builder) (int, error) {
	buf := make([]byte, readChunk+utf8.UTFMax)
	carry, total := 0, 0
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		m, err := io.ReadFull(r, buf[carry:carry+readChunk])
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return total, err
		}
		data := buf[:carry+m]
		end := len(data)
		if !latin1 && !eof {
			end = completeRunes(data)
		}
		chunk := data[:end]
		n := len(chunk)
		if !latin1 {
			n = utf8.RuneCount(chunk)
		}
		if total+n > offset && total < offset+want {
			windowPart(chunk, latin1, total, offset, want, content)
		}
		total += n
		if eof || stop && total >= offset+want {
			return total, nil
		}
		carry = copy(buf, data[end:])
	}
}

// completeRunes is the length of data without a UTF-8 sequence cut at its
// end, which the next chunk completes.
func completeRunes(data []byte) int {
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if utf8.FullRune(data[i:]) {
				return len(data)
			}
			return i
		}
	}
	return len(data)
}

// windowPart writes the characters of chunk that fall in the window; the
// chunk's first character is number first of the file.
func windowPart(chunk []byte, latin1 bool, first, offset, want int, content *strings.Builder) {
	i := first
	for len(chunk) > 0 && i < offset+want {
		r, size := rune(chunk[0]), 1
		if !latin1 {
			r, size = utf8.DecodeRune(chunk)
		}
		if i >= offset {
			content.WriteRune(r)
		}
		chunk = chunk[size:]
		i++
	}
}

// isLatin1 reports whether enc names ISO-8859-1.
func isLatin1(enc string) bool {
	switch strings.ToLower(strings.ReplaceAll(enc, "_", "-")) {
	case "latin-1", "latin1", "iso-8859-1", "iso8859-1":
		return true
	}
	return false
}

// fitWindow shortens fw's content, cut after a line break where one is
// near, until its JSON is at most limit characters (0: as it is), and its
// note is the ready call of the next page: in the same file, never a spill.
// limit is in characters of the JSON text, as the tool's cap counts; the
// content is measured as JSON writes it (a line break is two characters,
// a '<' six), so a file of short lines keeps all the room it fits.
func fitWindow(fw fileWindow, limit int) fileWindow {
	return fitNoting(fw, limit, func(next int) string {
		return windowCapNote(fw.Path, next, min(pageLimit, max(limit/2, minPage))) // the same ready call as every other cut
	})
}

// fitNoting is fitWindow with note(offset of the next page) as the note of
// a window it cuts.
func fitNoting(fw fileWindow, limit int, note func(next int) string) fileWindow {
	if b, _ := json.Marshal(fw); limit <= 0 || utf8.RuneCount(b) <= limit || fw.Content == "" {
		return fw
	}
	full := fw.Content
	room := limit
	for range 4 {
		fw.Content, fw.Truncated = "", true
		fw.Note = note(fw.Offset + utf8.RuneCountInString(full))
		fw.ReturnedChars = utf8.RuneCountInString(full)
		b, _ := json.Marshal(fw)
		c := escapedPrefix(full, room-utf8.RuneCount(b))
		if i := strings.LastIndexByte(c, '\n'); i >= 0 && len(c)-i < 400 {
			c = c[:i+1]
		}
		fw.Content, fw.ReturnedChars = c, utf8.RuneCountInString(c)
		fw.Note = note(fw.Offset + fw.ReturnedChars)
		b, _ = json.Marshal(fw)
		over := utf8.RuneCount(b) - limit
		if over <= 0 || c == "" {
			return fw
		}
		room -= over
	}
	return fw
}

// escapedPrefix is the longest prefix of s whose JSON string form (quotes
// aside) is at most room characters.
func escapedPrefix(s string, room int) string {
	used := 0
	for i, r := range s {
		n := 1
		switch {
		case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t':
			n = 2
		case r < 0x20 || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError:
			n = 6
		}
		if used += n; used > room {
			return s[:i]
		}
	}
	return s
}

// readFilesWithin is fs_read_file whose one-file answer fits resultMax
// characters (the tool's cap, capFor; 0: no fitting): a window larger
// than the cap would be cut by the clipper and its JSON spilled, so the
// model would page escaped JSON in a new file instead of the file itself.
func readFilesWithin(resultMax int) func(context.Context, map[string]any, io.Writer) error {
	return func(ctx context.Context, args map[string]any, out io.Writer) error {
		return readFilesFit(ctx, args, out, resultMax)
	}
}

// readFilesFit is readFiles with a one-file answer fitted to resultMax
// characters (fitWindow).
func readFilesFit(ctx context.Context, args map[string]any, out io.Writer, resultMax int) error {
	paths, _ := stringOrList(args["file_paths"])
	if len(paths) == 0 {
		return errors.New(`file_paths is required: a path or a list of paths`)
	}
	enc := argString(args, "encoding", "utf-8")
	if !isLatin1(enc) && !strings.EqualFold(strings.ReplaceAll(enc, "-", ""), "utf8") {
		return fmt.Errorf("encoding %q is not supported; use utf-8 or latin-1", enc)
	}
	offset, limit := argCount(args, "offset"), argCount(args, "limit")
	note := ""
	if limit > readWindowMax {
		note = fmt.Sprintf("limit %d lowered to %d, the largest window one read returns; page with offset", limit, readWindowMax)
		limit = readWindowMax
	}
	open := readOpener(args)
	if len(paths) == 1 {
		fw := readWindowKnown(ctx, open, paths[0], enc, offset, limit, nil)
		fw.Note = note
		return writeJSON(out, fitWindow(fw, resultMax))
	}
	return readPaths(ctx, out, paths, pathsRead{open: open, enc: enc, offset: offset, limit: limit, note: note, share: shareOf(resultMax, len(paths))})
}

// listEnvelope is room kept in a list read's cap for what surrounds the
// windows: {"total_files", "files": [...], the counts and the commas.
const listEnvelope = 160

// shareOf is each file's share of a list read's cap resultMax (0: no
// fitting): every window is fitted to it as a one-file read is fitted to
// the whole cap, so the list as a whole stays within the cap and is never
// clipped and spilled as JSON (which the model would page escaped).
func shareOf(resultMax, files int) int {
	if resultMax <= 0 {
		return 0
	}
	return max((resultMax-listEnvelope)/files-1, 1) // -1: the comma between windows
}

// pathsRead is how a list read reads each of its files: the opener, the
// encoding, the window asked, the note for every window and the share of
// the cap each window is fitted to (shareOf).
type pathsRead struct {
	open                 opener
	enc, note            string
	offset, limit, share int
}

// readPaths writes fs_read_file's answer for a list of paths, one window
// at a time (memory holds one), each fitted to its share of the cap.
func readPaths(ctx context.Context, out io.Writer, paths []string, lr pathsRead) error {
	fmt.Fprintf(out, `{"total_files":%d,"files":[`, len(paths))
	budget, totals := readCallMax, map[fileKey]int{}
	var sum readSummary
	for i, p := range paths {
		if i > 0 {
			io.WriteString(out, ",")
		}
		fw := lr.window(ctx, p, budget, totals)
		budget -= fw.ReturnedChars
		sum.add(fw)
		if err := writeJSON(out, fw); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(out, `],"success_count":%d,"error_count":%d,"total_size":%d}`+"\n", sum.ok, sum.failed, sum.size)
	return err
}

// window reads path's window of a list read with budget characters of the
// call left, fitted to its share: cut after a line, its note naming the
// one-file call that reads on from where it stops.
func (lr pathsRead) window(ctx context.Context, p string, budget int, totals map[fileKey]int) fileWindow {
	fw := fileWindow{Path: p, Offset: lr.offset, Limit: lr.limit, Note: lr.note}
	switch {
	case ctx.Err() != nil:
		fw.Error = "not read: the call was cancelled"
		return fw
	case budget <= 0:
		fw.Error = fmt.Sprintf("not read: this call already returned %d characters, the most one call returns; read this file in another call", readCallMax)
		return fw
	}
	lim := lr.limit
	if lim == 0 || lim > budget {
		lim = budget
	}
	fw = readWindowKnown(ctx, lr.open, p, lr.enc, lr.offset, lim, totals)
	fw.Limit, fw.Note = lr.limit, lr.note
	if fw.Truncated && lim == budget && lim < readWindowMax {
		fw.Note = fmt.Sprintf("window shortened to %d characters: one call returns at most %d; read the rest in another call", lim, readCallMax)
	}
	return fitNoting(fw, lr.share, listNote(fw))
}

// listNote is the note of a list read's window cut at next: the one-file
// call that reads on from there, in pages as large as what it kept.
func listNote(fw fileWindow) func(next int) string {
	q, _ := json.Marshal([]string{fw.Path})
	return func(next int) string {
		return fmt.Sprintf("window cut to its share of this tool's result cap; read on with fs_read_file: {\"file_paths\": %s, \"offset\": %d, \"limit\": %d}",
			q, next, max(next-fw.Offset, 1))
	}
}

// fileList is fs_read_file's answer for a list of paths, as readPaths
// writes it.
type fileList struct {
	TotalFiles   int          `json:"total_files"`
	Files        []fileWindow `json:"files"`
	SuccessCount int          `json:"success_count"`
	ErrorCount   int          `json:"error_count"`
	TotalSize    int64        `json:"total_size"`
}

// listCutter is how a list read's result m is rendered within n
// characters when the room left in a request is smaller than the tool's
// cap (mask.go's cutter): every window refitted to its share of n, each
// continuing in its own file. Its full text is the files, so nothing of
// it is spilled: a spilled list would be paged as escaped JSON. ok is
// false when m is not a list read.
func listCutter(m message) (render func(n int) string, ok bool) {
	var l fileList
	if m.Role != roleTool || m.Name != readFileTool().name || !strings.HasPrefix(m.Content, `{"total_files":`) ||
		json.Unmarshal([]byte(m.Content), &l) != nil || len(l.Files) == 0 {
		return nil, false
	}
	return func(n int) string {
		cut, share := l, shareOf(n, len(l.Files))
		cut.Files = make([]fileWindow, len(l.Files))
		for i, fw := range l.Files {
			cut.Files[i] = fitNoting(fw, share, listNote(fw))
		}
		return jsonText(cut)
	}, true
}

// readSummary counts a list read's outcomes for its closing fields.
type readSummary struct {
	ok, failed int
	size       int64 // bytes of the files read
}

// add counts one file's window.
func (s *readSummary) add(fw fileWindow) {
	if !fw.Success {
		s.failed++
		return
	}
	s.ok++
	s.size += fw.Size
}

// writeKey is where the approval leaves its judgement (a readCheck from
// writeCheck) of the file a write or edit changes, for the run, which
// changes that file and no other. Decoded JSON never holds it.
const writeKey = "\x00write"

// judgedFile opens the file a write or edit names: the one judged for args
// (writeKey, or readsKey for a dry run), else by path (a tool called
// outside the toolbox). It returns the path to report.
func judgedFile(args map[string]any, flags int) (*os.File, string, error) {
	path := argString(args, "file_path", "")
	if rc, ok := args[writeKey].(readCheck); ok {
		if flags&os.O_CREATE != 0 && rc.err == nil {
			if err := os.MkdirAll(filepath.Dir(rc.path), 0o755); err != nil {
				return nil, rc.path, err
			}
		}
		f, err := rc.open(flags)
		return f, rc.path, err
	}
	if j, ok := args[readsKey].(judged); ok {
		rc, ok := j.files[path]
		if !ok {
			return nil, path, fmt.Errorf("%s was not checked before the call ran; call again", path)
		}
		f, err := rc.open(flags)
		return f, rc.path, err
	}
	if flags&os.O_CREATE != 0 {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, path, err
		}
	}
	f, err := os.OpenFile(path, flags, 0o644)
	return f, path, err
}

// writeFile is fs_write_file: write (or append) text, creating parent
// directories. The file is truncated only once it is known to be the one
// judged.
func writeFile(ctx context.Context, args map[string]any, out io.Writer) error {
	if argString(args, "file_path", "") == "" {
		return errors.New("file_path is required")
	}
	content := argString(args, "content", "")
	flags := os.O_WRONLY | os.O_CREATE
	if argBool(args, "append") {
		flags |= os.O_APPEND
	}
	f, path, err := judgedFile(args, flags)
	if err != nil {
		return err
	}
	if !argBool(args, "append") {
		err = f.Truncate(0)
	}
	if err == nil {
		_, err = f.WriteString(content)
	}
	if st, serr := f.Stat(); err == nil && serr == nil {
		seenIn(ctx).saw(argString(args, "file_path", path), st) // what the model wrote, it has seen (fsedit.go)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return writeJSON(out, map[string]any{"path": path, "success": true, "bytes_written": len(content)})
}

// stringOrList accepts a string or a list of strings; list reports which.
func stringOrList(v any) (items []string, list bool) {
	switch t := v.(type) {
	case string:
		if t != "" {
			return []string{t}, false
		}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				items = append(items, s)
			}
		}
		return items, true
	}
	return nil, false
}

// readFileTool is fs_read_file: windows of text files, paged by offset
// and limit; the pager every marker's ready call names.
func readFileTool() tool {
	return tool{
		name: "fs_read_file",
		desc: "Read text files. offset and limit (characters; 0: start, to the end) page through large ones, a spilled tool output too; keep limit under 64000 (e.g. 12000).",
		params: `{"type":"object","properties":{"file_paths":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}],"description":"a path or a list"},` +
			`"encoding":{"type":"string","description":"utf-8 (default) or latin-1"},"offset":{"type":"integer","minimum":0},"limit":{"type":"integer","minimum":0}},"required":["file_paths"]}`,
		paths: []pathArg{{key: "file_paths", use: pathReads}},
		cap:   capRatio{2, 1},
		pages: pageFiles,
		bind: func(e *toolEnv) runFunc {
			return readFilesWithin(readFileTool().capOf(e.outputMaxChars))
		},
	}
}

// writeFileTool is fs_write_file: text to a file, judged as a write.
func writeFileTool() tool {
	return tool{
		name:    "fs_write_file",
		desc:    "Write text to a file, creating parent directories; append adds to the end instead of replacing.",
		params:  `{"type":"object","properties":{"file_path":{"type":"string"},"content":{"type":"string"},"append":{"type":"boolean"}},"required":["file_path","content"]}`,
		paths:   []pathArg{{key: "file_path", use: pathWrites}},
		changes: true,
		summary: func(name string, a map[string]any, rc readCheck) string {
			return writeSummary(name, rc, argString(a, "content", ""), argBool(a, "append"))
		},
		bind: func(*toolEnv) runFunc {
			return writeFile
		},
	}
}

// editFileTool is fs_edit_file: a change to a file, judged as a write; a
// dry run is judged as a read.
func editFileTool() tool {
	return tool{
		name:       "fs_edit_file",
		desc:       editDesc,
		params:     editParams,
		paths:      []pathArg{{key: "file_path", use: pathWrites}},
		changes:    true,
		readOnlyIf: "dry_run",
		summary:    editSummary,
		bind: func(*toolEnv) runFunc {
			return editFile
		},
	}
}
