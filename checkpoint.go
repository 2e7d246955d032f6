package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Checkpoints: before a file tool changes a path, what was there is kept
// in a private store under yaicli's state directory, so /undo and /rewind
// (checkpointcmd.go) can put it back without git. The store holds:
//
//	objects/ab/abcdef…   a file's content, once per content (its SHA-256)
//	sessions/ID.json     one session's turns and, per path changed, what
//	                     was there before and a print of what the tool left
//	lock                 shared while a call saves, exclusive to collect
//
// Directories are 0700, files 0600, checked as every private directory of
// yaicli's is (privdir.go). A saved chat names its session (savedChat).

// checkpointOptions is what the store needs of the configuration.
type checkpointOptions struct {
	on           bool   // CHECKPOINTS
	dir          string // the store: <state dir>/checkpoints
	maxBytes     int64  // CHECKPOINT_MAX_MB: the whole store; oldest sessions go first
	maxFileBytes int64  // CHECKPOINT_MAX_FILE_MB: a path larger is not saved
}

// Kinds of state a path can be found in, and kept as.
const (
	cpAbsent  = "absent"  // nothing was there
	cpFile    = "file"    // a regular file: Mode, Hash, Size
	cpLink    = "link"    // a symbolic link: Target (the link, never followed)
	cpDir     = "dir"     // a directory: Mode and its Tree
	cpMoved   = "moved"   // moved by the call to To (a move: moved back, not copied)
	cpUnsaved = "unsaved" // not kept: Why
)

// cpTreeMax bounds the entries of one directory kept: the walk of a
// recursive delete or a move onto a directory stops there, unsaved.
const cpTreeMax = 100000

// pathState is what was at a path: a file by its content's hash, a link
// as its target, a directory with everything under it (Tree, each entry
// named by Rel), a move by where it went, or why it was not kept.
type pathState struct {
	Kind   string      `json:"kind"`
	Rel    string      `json:"rel,omitempty"`
	Mode   fs.FileMode `json:"mode,omitempty"`
	Hash   string      `json:"hash,omitempty"`
	Size   int64       `json:"size,omitempty"`
	Target string      `json:"target,omitempty"`
	Tree   []pathState `json:"tree,omitempty"`
	To     string      `json:"to,omitempty"`
	Print  string      `json:"print,omitempty"` // moved: the print of To as the move left it
	Why    string      `json:"why,omitempty"`
}

// pathChange is one path a call changed: what was there before, and the
// print of what the call left (prints), so a path changed since is seen.
// Shallow: a directory the call made to hold a file (its parents, or
// create_dir), taken back only while it holds no files.
type pathChange struct {
	Call    int       `json:"call"`
	Tool    string    `json:"tool"`
	Path    string    `json:"path"`
	Before  pathState `json:"before"`
	After   string    `json:"after"`
	Shallow bool      `json:"shallow,omitempty"`
}

// cpTurn is one turn of a session: its question, the paths it changed in
// order, the tools that ran whose changes are not tracked (a shell
// command), and whether /undo took it back.
type cpTurn struct {
	N         int          `json:"n"`
	Question  string       `json:"question"` // its first line, for /rewind's list
	Key       string       `json:"key"`      // the hash of the user message as the history holds it
	Changes   []pathChange `json:"changes,omitempty"`
	Untracked []string     `json:"untracked,omitempty"`
	Undone    bool         `json:"undone,omitempty"`
	Evicted   bool         `json:"evicted,omitempty"` // its copies went to keep CHECKPOINT_MAX_MB
	Calls     int          `json:"calls,omitempty"`
}

// cpSession is one session's log, as sessions/ID.json holds it.
type cpSession struct {
	ID    string   `json:"id"`
	Turns []cpTurn `json:"turns"`
}

// cpStore is the store as one session uses it.
type cpStore struct {
	o    checkpointOptions
	sess cpSession
	// ready: the store's directories were made and checked; fail is why
	// they could not be (said once; the tools then run unsaved).
	ready bool
	fail  error
	lock  *os.File // held shared from a call's save to its log entry
	// turnOpen: a turn is open and the calls log into it; told: the
	// person was told once that the log could not be written; dirty: the
	// log on disk is behind.
	turnOpen, told, dirty bool
	// used is the store's size as last measured plus what this session
	// added since (-1: not measured), so a call does not walk the store.
	used int64
	// created are the objects the call being saved added to the store:
	// those its log does not name (the path did not change) go again.
	created []string
}

// newCPStore is the store of one session, a new one; nil when off.
func newCPStore(o checkpointOptions) *cpStore {
	if !o.on || o.dir == "" {
		return nil
	}
	st := &cpStore{o: o, used: -1}
	st.fresh()
	return st
}

// fresh starts a new session (a new chat: /clear).
func (st *cpStore) fresh() {
	b := make([]byte, 12)
	rand.Read(b)
	st.sess = cpSession{ID: hex.EncodeToString(b)}
}

// resume continues the session id (a saved chat's); false when it is gone
// (evicted, or never written), and a new one is started.
func (st *cpStore) resume(id string) bool {
	if !validID(id) || st.open() != nil {
		st.fresh()
		return false
	}
	b, err := os.ReadFile(st.sessionPath(id))
	var s cpSession
	if err != nil || json.Unmarshal(b, &s) != nil || s.ID != id {
		st.fresh()
		st.sess.ID = id // the chat keeps naming it; what comes is logged there
		return false
	}
	st.sess = s
	return true
}

// validID is a session id as fresh makes them (or a hash): lower-case hex
// only, so it names a file inside the store and nothing else.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// open makes and checks the store's directories, once.
func (st *cpStore) open() error {
	if st.ready || st.fail != nil {
		return st.fail
	}
	for _, d := range []string{st.o.dir, filepath.Join(st.o.dir, "objects"), filepath.Join(st.o.dir, "sessions")} {
		if err := privateDir(d, os.Geteuid(), "CHECKPOINTS=false, or XDG_STATE_HOME"); err != nil {
			st.fail = err
			return err
		}
	}
	st.ready = true
	return nil
}

// sessionPath is the log of session id.
func (st *cpStore) sessionPath(id string) string {
	return filepath.Join(st.o.dir, "sessions", id+".json")
}

// objectPath is where the content of hash is kept; a hash that is not
// one (a log edited by hand) names no file.
func (st *cpStore) objectPath(hash string) string {
	if len(hash) != sha256.Size*2 || !validID(hash) {
		return filepath.Join(st.o.dir, "objects", "none")
	}
	return filepath.Join(st.o.dir, "objects", hash[:2], hash)
}

// hold takes the shared lock a call holds while what it saved is not yet
// named in its session's log, so no collection removes it meanwhile.
func (st *cpStore) hold() {
	if st.lock != nil || st.open() != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(st.o.dir, "lock"), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_SH) != nil {
		f.Close()
		return
	}
	st.lock = f
}

// release lets the shared lock go.
func (st *cpStore) release() {
	if st.lock != nil {
		syscall.Flock(int(st.lock.Fd()), syscall.LOCK_UN)
		st.lock.Close()
		st.lock = nil
	}
}

// writeLog writes the session's log.
func (st *cpStore) writeLog() error {
	if err := st.open(); err != nil {
		return err
	}
	b, err := json.Marshal(st.sess)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(st.sessionPath(st.sess.ID), b); err != nil {
		return err
	}
	st.dirty = false
	return nil
}

// snapshot keeps what is at path now: a directory with all in it; what
// is over CHECKPOINT_MAX_FILE_MB (a directory: its files together) or
// cannot be read is not kept, and says why.
func (st *cpStore) snapshot(path string) pathState {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pathState{Kind: cpAbsent}
	case err != nil:
		return pathState{Kind: cpUnsaved, Why: err.Error()}
	}
	if size, entries := sizeUnder(path, fi); size > st.o.maxFileBytes || entries > cpTreeMax {
		return pathState{Kind: cpUnsaved, Why: st.tooLarge(size, entries)}
	}
	if err := st.open(); err != nil {
		return pathState{Kind: cpUnsaved, Why: err.Error()}
	}
	s, err := st.keep(path, fi)
	if err != nil {
		return pathState{Kind: cpUnsaved, Why: err.Error()}
	}
	if fi.IsDir() {
		err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == path {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			e, err := st.keep(p, info)
			e.Rel, _ = filepath.Rel(path, p)
			s.Tree = append(s.Tree, e)
			return err
		})
		if err != nil {
			return pathState{Kind: cpUnsaved, Why: "reading it: " + err.Error()}
		}
	}
	return s
}

// tooLarge is why a path of size bytes (entries under it) is not kept.
func (st *cpStore) tooLarge(size int64, entries int) string {
	if entries > cpTreeMax {
		return fmt.Sprintf("it holds over %d entries", cpTreeMax)
	}
	return fmt.Sprintf("%s is over CHECKPOINT_MAX_FILE_MB=%d", mib(size), st.o.maxFileBytes>>20)
}

// mib is n bytes as "12.3 MB".
func mib(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// sizeUnder is the bytes of the files at and under path and the entries
// under it, counting stops past the bounds.
func sizeUnder(path string, fi fs.FileInfo) (int64, int) {
	if !fi.IsDir() {
		return fi.Size(), 0
	}
	var size int64
	n := 0
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > cpTreeMax {
			return fs.SkipAll
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	return size, n - 1
}

// keep is one entry's state, its content saved when it is a file.
func (st *cpStore) keep(path string, fi fs.FileInfo) (pathState, error) {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		t, err := os.Readlink(path)
		return pathState{Kind: cpLink, Target: t}, err
	case m.IsDir():
		return pathState{Kind: cpDir, Mode: m.Perm() | m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)}, nil
	case m.IsRegular():
		hash, n, err := st.put(path)
		return pathState{Kind: cpFile, Mode: m.Perm() | m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), Hash: hash, Size: n}, err
	}
	return pathState{}, fmt.Errorf("%s is %s, which is not kept", path, entryKind(fi))
}

// put saves the content of the file at path once, by its hash: a copy
// in a temporary file of the store, renamed to its hash, or dropped when
// that content is already there.
func (st *cpStore) put(path string) (string, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s is no longer a regular file", path)
	}
	tmp, err := os.CreateTemp(filepath.Join(st.o.dir, "objects"), ".put-*")
	if err != nil {
		return "", 0, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(f, st.o.maxFileBytes+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > st.o.maxFileBytes {
		err = fmt.Errorf("it grew past CHECKPOINT_MAX_FILE_MB=%d while it was saved", st.o.maxFileBytes>>20)
	}
	if err != nil {
		return "", 0, err
	}
	hash := hex.EncodeToString(h.Sum(nil))
	obj := st.objectPath(hash)
	if _, err := os.Lstat(obj); err == nil {
		return hash, n, nil // kept once
	}
	if err := os.MkdirAll(filepath.Dir(obj), 0o700); err != nil {
		return "", 0, err
	}
	if err := os.Rename(tmp.Name(), obj); err != nil {
		return "", 0, err
	}
	if st.used >= 0 {
		st.used += n
	}
	st.created = append(st.created, hash)
	return hash, n, nil
}

// fingerprint is a print of what is at path now: equal prints, the same
// thing (a file's mode and content, a link's target, a directory's mode
// and, deep, every entry under it by name, kind, mode, size and time).
func fingerprint(path string, deep bool) string {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return cpAbsent
	case err != nil:
		return "error " + err.Error()
	}
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		t, _ := os.Readlink(path)
		return "link " + t
	case m.IsRegular():
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			return fmt.Sprintf("file %v %d %d unreadable", m, fi.Size(), fi.ModTime().UnixNano())
		}
		defer f.Close()
		h := sha256.New()
		io.Copy(h, f)
		return fmt.Sprintf("file %v %x", m, h.Sum(nil))
	case m.IsDir() && deep:
		h := sha256.New()
		filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == path {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(path, p)
			fmt.Fprintf(h, "%q %v %d", rel, info.Mode(), info.Size())
			if !info.IsDir() {
				fmt.Fprintf(h, " %d", info.ModTime().UnixNano())
			}
			if info.Mode()&fs.ModeSymlink != 0 {
				t, _ := os.Readlink(p)
				fmt.Fprintf(h, " %q", t)
			}
			h.Write([]byte{0})
			return nil
		})
		return fmt.Sprintf("dir %v %x", m, h.Sum(nil))
	case m.IsDir():
		return fmt.Sprintf("dir %v", m)
	}
	return fmt.Sprintf("other %v", m)
}

// print is the fingerprint of what s kept, where s says all of it (an
// absent path, a file, a link); "" where the path must be looked at.
func (s pathState) print() string {
	switch s.Kind {
	case cpAbsent:
		return cpAbsent
	case cpFile:
		return fmt.Sprintf("file %v %s", s.Mode, s.Hash)
	case cpLink:
		return "link " + s.Target
	}
	return ""
}

// restoreResult is what taking back one change did.
type restoreResult struct {
	path    string
	outcome string // "restored", "left" (changed since), "unsaved", "failed"
	why     string
}

// restore puts back what was at ch.Path before its call, when what is
// there is still what the call left (vacated: a path a move just moved
// back from, found empty as it should be); else it is left as it is.
func (st *cpStore) restore(ch pathChange, vacated map[string]bool) restoreResult {
	r := restoreResult{path: ch.Path}
	now := fingerprint(ch.Path, !ch.Shallow)
	if now != ch.After && !(vacated[ch.Path] && now == cpAbsent) {
		r.outcome, r.why = "left", "changed since yaicli changed it"
		return r
	}
	var err error
	switch b := ch.Before; b.Kind {
	case cpUnsaved:
		r.outcome, r.why = "unsaved", "its earlier state was not saved: "+b.Why
		return r
	case cpMoved:
		if fingerprint(b.To, true) != b.Print {
			r.outcome, r.why = "left", fmt.Sprintf("%s, where it was moved, changed since", b.To)
			return r
		}
		if err = os.Rename(b.To, ch.Path); err == nil {
			vacated[b.To] = true
		}
	case cpAbsent:
		err = removeMade(ch.Path, ch.Shallow)
	default:
		err = st.putBack(ch.Path, b)
	}
	if err != nil {
		r.outcome, r.why = "failed", err.Error()
		return r
	}
	r.outcome = "restored"
	return r
}

// removeMade takes away what a call made where nothing was: a directory
// made to hold files (shallow) only while it holds none.
func removeMade(path string, shallow bool) error {
	if shallow {
		files := 0
		filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files++
			}
			return nil
		})
		if files > 0 {
			return fmt.Errorf("it holds %s yaicli did not make in that turn", plural(files, "file"))
		}
	}
	return os.RemoveAll(path)
}

// putBack makes path what b says was there: what is there now goes (it
// is what the call left), then the file, link or directory is made again
// from the store. A file there now is written in place, so its inode and
// links stay as the tool found them.
func (st *cpStore) putBack(path string, b pathState) error {
	fi, err := os.Lstat(path)
	inPlace := err == nil && fi.Mode().IsRegular() && b.Kind == cpFile
	if err == nil && !inPlace {
		if err := os.RemoveAll(path); err != nil {
			return err
		}
	}
	if err := st.make(path, b, inPlace); err != nil {
		return err
	}
	for i := len(b.Tree) - 1; i >= 0; i-- { // children first: a read-only directory is closed last
		if e := b.Tree[i]; e.Kind == cpDir {
			if err := os.Chmod(filepath.Join(path, e.Rel), e.Mode); err != nil {
				return err
			}
		}
	}
	if b.Kind == cpDir {
		return os.Chmod(path, b.Mode)
	}
	return nil
}

// make creates one entry of a state (a directory's entries after it,
// a directory writable until they are in); inPlace writes a file that is
// there already.
func (st *cpStore) make(path string, b pathState, inPlace bool) error {
	switch b.Kind {
	case cpLink:
		return os.Symlink(b.Target, path)
	case cpDir:
		if err := os.Mkdir(path, 0o700); err != nil {
			return err
		}
		for _, e := range b.Tree {
			if err := st.make(filepath.Join(path, e.Rel), e, false); err != nil {
				return err
			}
		}
		return nil
	case cpFile:
		return st.writeObject(path, b, inPlace)
	}
	return fmt.Errorf("nothing kept to restore (%s)", b.Kind)
}

// writeObject writes the saved content b names to path, with its mode.
func (st *cpStore) writeObject(path string, b pathState, inPlace bool) error {
	src, err := os.Open(st.objectPath(b.Hash))
	if err != nil {
		return fmt.Errorf("its saved copy is gone (%v)", err)
	}
	defer src.Close()
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL | syscall.O_NOFOLLOW
	if inPlace {
		flags = os.O_WRONLY | os.O_TRUNC | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, src)
	if err == nil {
		err = f.Chmod(b.Mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// usage is the bytes the store takes on disk: its objects and logs.
func (st *cpStore) usage() int64 {
	var n int64
	filepath.WalkDir(st.o.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// bound keeps the store within CHECKPOINT_MAX_MB: other sessions go
// first, oldest first, then this session's oldest turns' copies (their
// turns stay listed, marked evicted). It reports what it evicted.
func (st *cpStore) bound() []string {
	if !st.ready {
		return nil
	}
	if st.used < 0 || st.used > st.o.maxBytes {
		st.used = st.usage()
	}
	if st.used <= st.o.maxBytes {
		return nil
	}
	defer func() { st.used = st.usage() }()
	var gone []string
	for _, s := range st.otherSessions() {
		os.Remove(s)
		gone = append(gone, "session "+strings.TrimSuffix(filepath.Base(s), ".json"))
		if st.collect(); st.usage() <= st.o.maxBytes {
			return gone
		}
	}
	for i := range st.sess.Turns {
		t := &st.sess.Turns[i]
		if t.Evicted || len(t.Changes) == 0 {
			continue
		}
		t.Evicted, t.Changes = true, nil
		st.writeLog()
		gone = append(gone, fmt.Sprintf("turn %d of this session", t.N))
		if st.collect(); st.usage() <= st.o.maxBytes {
			return gone
		}
	}
	return gone
}

// otherSessions are the logs of the store but this session's, oldest
// (last written) first.
func (st *cpStore) otherSessions() []string {
	paths, _ := filepath.Glob(filepath.Join(st.o.dir, "sessions", "*.json"))
	type dated struct {
		p string
		t time.Time
	}
	var ds []dated
	for _, p := range paths {
		if fi, err := os.Lstat(p); err == nil && p != st.sessionPath(st.sess.ID) {
			ds = append(ds, dated{p, fi.ModTime()})
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].t.Before(ds[j].t) })
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.p
	}
	return out
}

// collect removes the objects no session names, under the exclusive
// lock; while another run holds it shared (saving), nothing is removed.
func (st *cpStore) collect() {
	f, err := os.OpenFile(filepath.Join(st.o.dir, "lock"), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	mine := st.lock != nil
	if mine { // this session's own shared lock: trade it for the exclusive one
		st.release()
		defer st.hold()
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	used := map[string]bool{}
	logs, _ := filepath.Glob(filepath.Join(st.o.dir, "sessions", "*.json"))
	for _, p := range logs {
		var s cpSession
		if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &s) == nil {
			s.hashes(used)
		}
	}
	st.sess.hashes(used)
	objs, _ := filepath.Glob(filepath.Join(st.o.dir, "objects", "*", "*"))
	for _, o := range objs {
		if !used[filepath.Base(o)] {
			os.Remove(o)
		}
	}
}

// dropUnused removes the objects this call created that the session's
// log does not name: what a call saved of a path it then left as it was.
func (st *cpStore) dropUnused() {
	if len(st.created) == 0 {
		return
	}
	used := map[string]bool{}
	st.sess.hashes(used)
	for _, h := range st.created {
		if !used[h] {
			os.Remove(st.objectPath(h))
		}
	}
	st.created = nil
}

// hashes adds the content hashes s names to used.
func (s cpSession) hashes(used map[string]bool) {
	var walk func(p pathState)
	walk = func(p pathState) {
		if p.Hash != "" {
			used[p.Hash] = true
		}
		for _, e := range p.Tree {
			walk(e)
		}
	}
	for _, t := range s.Turns {
		for _, c := range t.Changes {
			walk(c.Before)
		}
	}
}
