package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func runTool(t *testing.T, f func(map[string]any, *bytes.Buffer) error, args string) (map[string]any, error) {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := f(a, &out)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	json.Unmarshal(out.Bytes(), &m)
	return m, nil
}

func TestReadFilePaging(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	text := "héllo wörld 日本語 " + strings.Repeat("abc", 10)
	os.WriteFile(p, []byte(text), 0o644)
	runes := []rune(text)
	read := func(a map[string]any, out *bytes.Buffer) error { return readFiles(t.Context(), a, out) }
	for _, tc := range []struct {
		offset, limit int
		want          string
		truncated     bool
	}{
		{0, 0, text, false},
		{1, 4, "éllo", true},
		{12, 3, "日本語", true},
		{len(runes) - 2, 100, "bc", true},
		{len(runes) + 5, 10, "", true},
	} {
		args, _ := json.Marshal(map[string]any{"file_paths": p, "offset": tc.offset, "limit": tc.limit})
		m, err := runTool(t, read, string(args))
		if err != nil {
			t.Fatal(err)
		}
		if m["content"] != tc.want || m["truncated"] != tc.truncated || m["total_chars"] != float64(len(runes)) ||
			m["returned_chars"] != float64(len([]rune(tc.want))) || m["offset"] != float64(tc.offset) || m["limit"] != float64(tc.limit) ||
			m["success"] != true || m["size"] != float64(len(text)) || m["path"] != p {
			t.Errorf("read(offset %d, limit %d) = %v", tc.offset, tc.limit, m)
		}
	}
}

// readList is fs_read_file's answer to a list of several paths.
type readList struct {
	TotalFiles   int          `json:"total_files"`
	SuccessCount int          `json:"success_count"`
	ErrorCount   int          `json:"error_count"`
	TotalSize    int64        `json:"total_size"`
	Files        []fileWindow `json:"files"`
}

// TestReadFileShapes: as in YAICLI, a path and a one-element list both
// answer with the file's object; several paths answer with counts, the
// bytes read and one object per file, errors included.
func TestReadFileShapes(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(p, []byte("héllo"), 0o644)
	os.WriteFile(q, []byte("0123456789"), 0o644)
	read := func(paths any) string {
		var out bytes.Buffer
		if err := readFiles(t.Context(), map[string]any{"file_paths": paths, "limit": 2.0}, &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	for _, paths := range []any{p, []any{p}} {
		var w fileWindow
		got := read(paths)
		if err := json.Unmarshal([]byte(got), &w); err != nil || w.Path != p || w.Content != "hé" || !w.Success || w.Size != 6 {
			t.Errorf("read(%v) = %s (%v), want one object for %s", paths, got, err, p)
		}
	}
	got := read([]any{p, filepath.Join(dir, "missing"), q})
	var l readList
	if err := json.Unmarshal([]byte(got), &l); err != nil {
		t.Fatalf("read(3 paths) = %s: %v", got, err)
	}
	if l.TotalFiles != 3 || l.SuccessCount != 2 || l.ErrorCount != 1 || l.TotalSize != 16 || len(l.Files) != 3 {
		t.Errorf("read(3 paths) = %s, want 3 files, 2 read, 1 error, 16 bytes", got)
	}
	if len(l.Files) == 3 && (l.Files[0].Content != "hé" || l.Files[1].Success || !strings.Contains(l.Files[1].Error, "no such file") || l.Files[2].Content != "01") {
		t.Errorf("files = %+v", l.Files)
	}
}

func TestReadFileLatin1(t *testing.T) {
	p := filepath.Join(t.TempDir(), "l1.txt")
	os.WriteFile(p, []byte{'c', 0xe9, 0xc3, 0xa9}, 0o644)
	w := readWindow(t.Context(), p, "latin-1", 0, 0)
	if w.Content != "céÃ©" || w.TotalChars != 4 {
		t.Errorf("latin-1 read = %q (%d chars)", w.Content, w.TotalChars)
	}
}

func TestWriteAndEdit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new", "f.txt")
	write := func(a map[string]any, out *bytes.Buffer) error { return writeFile(context.Background(), a, out) }
	edit := func(a map[string]any, out *bytes.Buffer) error { return editFile(context.Background(), a, out) }
	runTool(t, write, `{"file_path": "`+p+`", "content": "one\ntwo\nthree\n"}`)
	if m, err := runTool(t, edit, `{"file_path": "`+p+`", "old_text": "two", "new_text": "2", "dry_run": true}`); err != nil || m["new_content"] != "one\n2\nthree\n" {
		t.Errorf("dry run = %v %v", m, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\nthree\n" {
		t.Errorf("dry run wrote the file: %q", b)
	}
	runTool(t, edit, `{"file_path": "`+p+`", "start_line": 3, "end_line": 3, "new_text": "3"}`)
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\n3\n" {
		t.Errorf("line edit = %q", b)
	}
	if _, err := runTool(t, edit, `{"file_path": "`+p+`", "old_text": "absent", "new_text": "x"}`); err == nil {
		t.Error("editing absent text succeeded")
	}
}

// TestReadFileOnlyRegular: a FIFO, a device and a socket get an error
// result at once instead of a read that never ends.
func TestReadFileOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, tc := range []struct{ path, want string }{
		{fifo, "named pipe"}, {"/dev/zero", "device"}, {sock, "socket"}, {dir, "is a directory"},
	} {
		done := make(chan fileWindow, 1)
		go func() { done <- readWindow(t.Context(), tc.path, "utf-8", 0, 0) }()
		select {
		case w := <-done:
			if w.Success || !strings.Contains(w.Error, tc.want) {
				t.Errorf("readWindow(%s) = %+v, want an error saying %q", tc.path, w, tc.want)
			}
		case <-time.After(hangBound):
			t.Fatalf("readWindow(%s) blocked", tc.path)
		}
	}
}

// TestReadFileClampsNumbers: any JSON number is a valid offset or limit.
func TestReadFileClampsNumbers(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(p, []byte("hello"), 0o644)
	for _, tc := range []struct {
		args, want string
	}{
		{`{"offset": 1e300}`, ""}, {`{"limit": 1e12}`, "hello"}, {`{"limit": 1e300, "offset": 1.5}`, "ello"},
		{`{"offset": -3, "limit": -1}`, "hello"}, {`{"offset": "2", "limit": "2"}`, "ll"},
	} {
		var a map[string]any
		json.Unmarshal([]byte(tc.args), &a)
		a["file_paths"] = p
		var out bytes.Buffer
		if err := readFiles(t.Context(), a, &out); err != nil {
			t.Errorf("read(%s) = %v, want a result", tc.args, err)
			continue
		}
		var w fileWindow
		json.Unmarshal(out.Bytes(), &w)
		if !w.Success || w.Content != tc.want || w.TotalChars != 5 || w.Limit > readWindowMax {
			t.Errorf("read(%s) = %+v, want content %q", tc.args, w, tc.want)
		}
	}
}

// TestReadWindowChunks: windows across chunk boundaries, with multi-byte
// and invalid sequences cut between chunks, equal the slice of the
// decoded text, and total_chars counts every character.
func TestReadWindowChunks(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", "日", "🙂", "\xff", "\xe6\x97", "\n"}
	var b strings.Builder
	for b.Len() < 3*readChunk+100 {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	text := b.String()
	runes := []rune(text)
	p := filepath.Join(t.TempDir(), "mixed.txt")
	os.WriteFile(p, []byte(text), 0o644)
	for _, tc := range []struct{ offset, limit int }{
		{0, 10}, {readChunk/2 - 3, readChunk/2 + 7}, {readChunk - 5, 2 * readChunk / 3}, {len(runes) - 4, 100}, {len(runes) + 1, 5},
	} {
		w := readWindow(t.Context(), p, "utf-8", tc.offset, tc.limit)
		lo, hi := min(tc.offset, len(runes)), min(tc.offset+tc.limit, len(runes))
		if want := string(runes[lo:hi]); w.Content != want || w.TotalChars != len(runes) {
			t.Errorf("window(%d, %d): %d chars of %d, want %d of %d", tc.offset, tc.limit, w.ReturnedChars, w.TotalChars, hi-lo, len(runes))
		}
	}
}

// TestReadFilesBounded: one call listing a big file many times returns at
// most readCallMax characters, names the files it did not read, and a
// cancelled call stops reading.
func TestReadFilesBounded(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "big.txt")
	os.WriteFile(p, bytes.Repeat([]byte("0123456789abcdef"), 128<<10), 0o644) // 2 MiB
	paths := make([]any, 40)
	for i := range paths {
		paths[i] = p
	}
	var out bytes.Buffer
	if err := readFiles(t.Context(), map[string]any{"file_paths": paths, "limit": 1e12}, &out); err != nil {
		t.Fatal(err)
	}
	var l readList
	if err := json.Unmarshal(out.Bytes(), &l); err != nil || len(l.Files) != len(paths) {
		t.Fatalf("list = %d entries, %v", len(l.Files), err)
	}
	list := l.Files
	returned, unread := 0, 0
	for _, w := range list {
		returned += w.ReturnedChars
		if strings.Contains(w.Error, "the most one call returns") {
			unread++
		}
		if w.Success && w.TotalChars != 2<<20 {
			t.Errorf("total_chars = %d, want %d", w.TotalChars, 2<<20)
		}
	}
	if returned > readCallMax || unread != len(paths)-readCallMax/readWindowMax {
		t.Errorf("returned %d chars (max %d), %d unread", returned, readCallMax, unread)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out.Reset()
	readFiles(ctx, map[string]any{"file_paths": paths[:3], "limit": 5.0}, &out)
	if strings.Contains(out.String(), `"success":true`) || !strings.Contains(out.String(), "cancel") {
		t.Errorf("cancelled read = %.300s", out.String())
	}
}

// BenchmarkReadFileHuge lists a 300 MB file 200 times with limit 1e12, as
// a hostile model would, and once with a small limit 200 times; peak
// memory of the process is reported as maxrss-MiB above the idle figure.
// Run with: go test -run XXX -bench ReadFileHuge -benchtime 1x
func BenchmarkReadFileHuge(b *testing.B) {
	p := filepath.Join(b.TempDir(), "huge.txt")
	f, _ := os.Create(p)
	line := bytes.Repeat([]byte("héllo wörld 日本語 0123456789\n"), 1<<10)
	for written := 0; written < 300<<20; written += len(line) {
		f.Write(line)
	}
	f.Close()
	paths := make([]any, 200)
	for i := range paths {
		paths[i] = p
	}
	idle := maxRSS()
	for b.Loop() {
		for _, limit := range []float64{1e12, 100} {
			start := time.Now()
			cl := newClipper(capFor("fs_read_file", 32000), spillOpener(b.TempDir(), "fs_read_file", time.Now()))
			if err := readFiles(context.Background(), map[string]any{"file_paths": paths, "limit": limit}, cl); err != nil {
				b.Fatal(err)
			}
			cl.finish()
			b.ReportMetric(time.Since(start).Seconds(), fmt.Sprintf("limit-%g-s", limit))
		}
	}
	b.ReportMetric(float64(idle)/(1<<20), "idle-maxrss-MiB")
	b.ReportMetric(float64(maxRSS())/(1<<20), "maxrss-MiB")
}

// TestBigReadFitsItsCap: a read of a file larger than fs_read_file's cap
// answers with a window that fits the cap, cut after a line, and a note
// naming the next offset in the same file: nothing is spilled, so the model
// pages the file itself, not an escaped copy of its JSON. Default settings.
func TestBigReadFitsItsCap(t *testing.T) {
	t.Parallel()
	cfg, _ := load(t, "", nil, nil)
	// its own workspace: a test never writes into the repository
	cfg.workDir = t.TempDir()
	text := strings.Repeat("a line of the log \"quoted\"\n", 12000) // 324,000 characters
	os.WriteFile(filepath.Join(cfg.workDir, "big.log"), []byte(text), 0o600)
	tb := newToolbox(cfg.toolbox(), cfg.redactor(), &bytes.Buffer{}, nil, nil)
	offset, got := 0, ""
	for page := 0; offset < len(text) && page < 20; page++ {
		m := tb.call(t.Context(), call("r", "fs_read_file", fmt.Sprintf(`{"file_paths": "big.log", "offset": %d}`, offset)))
		var fw fileWindow
		if err := json.Unmarshal([]byte(m.Content), &fw); err != nil || m.clip.onDisk() != "" || !fw.Success {
			t.Fatalf("page at %d: spilled to %q, or not one window (%v): %.300s", offset, m.clip.onDisk(), err, m.Content)
		}
		if n := utf8.RuneCountInString(m.Content); n > capFor("fs_read_file", cfg.ToolOutputMaxChars) {
			t.Fatalf("page at %d is %d characters, over the cap", offset, n)
		}
		if offset+fw.ReturnedChars < len(text) && (!strings.HasSuffix(fw.Content, "\n") || !strings.Contains(fw.Note, fmt.Sprint(offset+fw.ReturnedChars))) {
			t.Fatalf("page at %d: cut mid-line or the note does not name the next offset: %q … %q", offset, fw.Note, fw.Content[len(fw.Content)-40:])
		}
		got += fw.Content
		offset += fw.ReturnedChars
	}
	if got != text {
		t.Errorf("the pages joined hold %d of the file's %d characters", len(got), len(text))
	}
}

// seqText is `seq 1 n`.
func seqText(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// listPageRe finds the one-file call a fitted window of a list read offers.
var listPageRe = regexp.MustCompile(`read on with fs_read_file: (\{.*\})$`)

// listModel is the scenario model reading two files in one fs_read_file
// call (the question "READ2 a b"), then following each paging call it is
// offered: a list window's note, or a marker's call, up to pages; RECALL
// reads the oldest masked result back with its stub's call.
func listModel(sm scenarioModel) step {
	return func(w http.ResponseWriter, r received) {
		msgs := r.messages()
		last := msgs[len(msgs)-1]
		if last.Role == roleUser && strings.HasPrefix(last.Content, "READ2 ") {
			args, _ := json.Marshal(map[string]any{"file_paths": strings.Fields(strings.ReplaceAll(last.Content[6:], "READ ", ""))})
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, toolStream(fakeCall{fmt.Sprintf("call_%d", sm.calls.Add(1)), "fs_read_file", string(args)}))
			return
		}
		if last.Role == roleUser && last.Content == "RECALL" {
			for _, m := range msgs {
				if call, ok := markerCall(m.Content); ok && m.Role == roleTool && isStub(m.Content) {
					args, _ := json.Marshal(call)
					w.Header().Set("Content-Type", "text/event-stream")
					io.WriteString(w, toolStream(fakeCall{fmt.Sprintf("call_%d", sm.calls.Add(1)), "fs_read_file", string(args)}))
					return
				}
			}
		}
		if last.Role == roleTool && strings.HasPrefix(last.Content, `{"total_files"`) && pagesThisTurn(msgs) < sm.pages {
			var list struct{ Files []fileWindow }
			json.Unmarshal([]byte(last.Content), &list)
			for _, fw := range list.Files {
				if m := listPageRe.FindStringSubmatch(fw.Note); m != nil {
					w.Header().Set("Content-Type", "text/event-stream")
					io.WriteString(w, toolStream(fakeCall{fmt.Sprintf("call_%d", sm.calls.Add(1)), "fs_read_file", m[1]}))
					return
				}
			}
		}
		sm.step(w, r)
	}
}

// TestListReadPagesRealLines: `fs_read_file {"file_paths": [big1, big2]}`
// on two files of `seq 1 30000`, over the cap, on the default path (no -y,
// default directories) at the default cap and in 8k and 32k windows: the
// list is never spilled as JSON; each window is fitted to its share, cut
// after a line, says it is not whole and offers the one-file call that
// reads on; every page the model follows returns real lines of the file,
// and no request carries a line break escaped twice.
func TestListReadPagesRealLines(t *testing.T) {
	t.Parallel()
	for _, model := range []string{"gpt-4o", "qwen2.5", "llama3"} {
		t.Run(model, func(t *testing.T) {
			t.Parallel()
			sm := scenarioModel{fam: familyOf(model), pages: 3, calls: new(atomic.Int64)}
			all := map[int]step{}
			for i := 1; i <= 40; i++ {
				all[i] = listModel(sm) // every request: call ids stay unique
			}
			sr := runScenario(t, scenario{model: model, args: []string{"READ2 READ big1.txt READ big2.txt"}, pages: 3,
				files: map[string]string{"big1.txt": seqText(30000), "big2.txt": seqText(30000)}, override: all})
			if sr.r.code != 0 {
				t.Fatalf("code %d stderr:\n%s", sr.r.code, sr.r.stderr)
			}
			for i, q := range sr.reqs {
				if raw := string(q.Raw); strings.Contains(raw, `\\\\n`) {
					t.Errorf("request %d carries a line break escaped twice: %s", i+1, firstRunes(raw[strings.Index(raw, `\\\\n`)-40:], 120))
				}
			}
			list := ""
			for _, m := range sr.reqs[1].messages() {
				if m.Role == roleTool {
					list = m.Content
				}
			}
			var got struct{ Files []fileWindow }
			if err := json.Unmarshal([]byte(list), &got); err != nil || len(got.Files) != 2 {
				t.Fatalf("the list read is not whole JSON (%v): %s", err, firstRunes(list, 300))
			}
			for _, fw := range got.Files {
				if !fw.Truncated || !strings.HasSuffix(fw.Content, "\n") || !listPageRe.MatchString(fw.Note) {
					t.Errorf("%s: truncated %v, ends %q, note %q", fw.Path, fw.Truncated, fw.Content[max(len(fw.Content)-8, 0):], fw.Note)
				}
			}
			checkPages(t, sr, true)
			for _, p := range pagesFollowed(sr) {
				if b := filepath.Base(p.path); b != "big1.txt" && b != "big2.txt" {
					t.Errorf("a page of %s was followed: the list read was spilled", p.path)
				}
			}
			checkWithinBudget(t, sr)
		})
	}
}

// readWindow returns characters [offset, offset+limit) of a file (limit 0 =
// to the end, at most readWindowMax), counting every character so
// total_chars is exact, while holding only the window in memory.
func readWindow(ctx context.Context, path, encoding string, offset, limit int) fileWindow {
	return readWindowKnown(ctx, openPlain, path, encoding, offset, limit, nil)
}

// readFiles is fs_read_file: one window per path. As in YAICLI, a path or
// a one-element list answers with that file's object, and a longer list
// with {"total_files", "files": [...], "success_count", "error_count",
// "total_size"} (bytes of the files read), the files written one at a
// time so memory holds one window.
func readFiles(ctx context.Context, args map[string]any, out io.Writer) error {
	return readFilesWithin(0)(ctx, args, out)
}
