package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAllowAttacksMore are command lines an injected model might send
// under TOOL_ALLOW=git status,ls,cat (and a few common programs): other
// quoting, comment and redirection spellings than TestAllowAttacks, and
// long options abbreviated as getopt_long accepts them (--out for
// --output), beside lines that must still run unasked.
func TestAllowAttacksMore(t *testing.T) {
	allow := parseRules([]string{"git status", "ls", "cat", "sort", "file", "tree", "rg", "fd", "date", "grep", "echo", "git log", "uniq"})
	for _, tc := range []struct {
		cmd     string
		allowed bool
	}{
		{"sort --out=/etc/x y", false},
		{"sort --outp /etc/x y", false},
		{"sort --compress=/tmp/evil y", false},
		{"sort --compress-prog=/tmp/evil y", false},
		{"file --comp x", false},
		{"date --se=2020-01-01", false},
		{"ls#; touch X", false},
		{"ls # x\ntouch X", false},
		{"ls #\\\ntouch X", false},
		{"ls \\\n; touch X", false},
		{"l\\\ns; touch X", false},
		{"ls &> /tmp/x", false},
		{"ls >| /tmp/x", false},
		{"ls >> /tmp/x", false},
		{"ls 1<> /tmp/x", false},
		{"ls <> /tmp/x", false},
		{"ls >& /tmp/x", false},
		{"ls >&/tmp/x", false},
		{"ls &>>/tmp/x", false},
		{"ls 2>/dev/null/../../tmp/x", false},
		{"ls 2>/dev/../tmp/x", false},
		{"ls >/dev/tcp/127.0.0.1/80", false},
		{"ls ${x@P}", false},
		{"ls ${a[$(touch X)]}", false},
		{"ls ${x:=y}", false},
		{"ls ${!x}", false},
		{"ls $(<x)", false},
		{"ls & touch X", false},
		{"ls |& touch X", false},
		{"ls\rtouch X", false},
		{"ls ;; touch X", false},
		{"coproc touch X", false},
		{"ls() { touch X; }; ls", false},
		{"function ls { touch X; }; ls", false},
		{"case a in a) touch X;; esac", false},
		{"ls `# comment` ; touch X", false},
		{"cat 'a'\"b\"$'c' x", false},
		{"git status -c core.fsmonitor=x", false},
		{"git -c core.fsmonitor=x status", false},
		{"git status --porc", false},
		{"git log --outp=/tmp/x", false},
		{"git log --no-index", false},
		{"echo hi >/tmp/x", false},
		{"sort -uo/etc/x y", false},
		{"sort -o- y", false},
		{"tree -fo /tmp/x", false},
		{"rg --pre=/tmp/e x", false},
		{"fd -Hx rm", false},
		{"rg --hostname-bin=/tmp/evil --hyperlink-format=default x", false},
		{"rg --hostname-bin /tmp/evil x", false},
		{"uniq a.txt .git/config", false},
		{"uniq -c a.txt -- out", false},
		{"uniq -c a.txt", true},
		{"sort a | uniq -c", true},
		{"ls 2>&1", true},
		{"ls 2>/dev/null", true},
		{"ls -la | cat -n | sort -r", true},
		{"sort --reverse --unique x", true},
		{"sort --rev x", true},
		{"git status --short --branch", true},
		{"ls -- -x", true},
		{"cat a#b", true},
	} {
		if got := allowedBy(tc.cmd, allow) != nil; got != tc.allowed {
			t.Errorf("allowedBy(%q) = %v, want %v", tc.cmd, got, tc.allowed)
		}
	}
}

// TestDenyBypassesMore are further spellings around TOOL_DENY=rm,git
// push,curl than TestDenyBypasses: other wrappers and keywords, options
// glued together, builtins that change what a name runs.
func TestDenyBypassesMore(t *testing.T) {
	deny := parseRules([]string{"rm", "git push", "curl"})
	for _, tc := range []struct {
		cmd    string
		denied bool
	}{
		{"env -iS 'rm x'", true},
		{"env -vS'rm x'", true},
		{"env -i -- rm x", true},
		{"coproc rm x", true},
		{"coproc NAME { rm x; }", true},
		{"function f { rm x; }; f", true},
		{"function f() { rm x; }", true},
		{"case a in a) rm x;; esac", true},
		{"for i in 1; do rm x; done", true},
		{"select i in 1; do rm x; done", true},
		{"until false; do rm x; done", true},
		{"[ -e x ] && rm x", true},
		{"true || rm x", true},
		{"ionice -c3 rm x", true},
		{"chrt 10 rm x", true},
		{"taskset 1 rm x", true},
		{"stdbuf -oL rm x", true},
		{"setsid -f rm x", true},
		{"script -c 'rm x' /dev/null", true},
		{"script -qc 'rm x'", true},
		{"sg users -c 'rm x'", true},
		{"setpriv --reuid=1 rm x", true},
		{"prlimit --nofile=10 rm x", true},
		{"unbuffer rm x", true},
		{"fakeroot rm x", true},
		{"eatmydata rm x", true},
		{"firejail rm x", true},
		{"dbus-run-session rm x", true},
		{"ssh-agent rm x", true},
		{"tmux new -d 'rm x'", true},
		{"screen -dm rm x", true},
		{"at now <<< 'rm x'", true},
		{"batch <<< 'rm x'", true},
		{"shopt -s expand_aliases\nalias r=rm\nr x", true},
		{"hash -p /bin/rm ll; ll x", true},
		{"enable -n echo; echo x", true},
		{"/usr/lib/git-core/git-push origin", true},
		{"git-push origin", true},
		{"git --no-pager push", true},
		{"git -P push", true},
		{"git --git-dir=.git push", true},
		{"git -C . -c a=b push", true},
		{"git submodule foreach git push", true},
		{"git submodule foreach 'git push'", true},
		{"sudo -Es rm x", true},
		{"sudo -Eu root rm x", true},
		{"timeout -k5 10 rm x", true},
		{"nice -n5 rm x", true},
		{"xargs -0n1 rm", true},
		{"xargs -a list rm", true},
		{"xargs --arg-file=list rm", true},
		{"xargs -i rm {}", true},
		{"exec -c rm x", true},
		{"command -p rm x", true},
		{"nohup bash -c 'rm x'", true},
		{"bash -xeuc 'rm x'", true},
		{"bash +x -c 'rm x'", true},
		{"bash -O extglob -c 'rm x'", true},
		{"bash --rcfile /dev/null -c 'rm x'", true},
		{"busybox sh -c 'rm x'", true},
		{"find . -ok rm {} \\;", true},
		{"find . -execdir /bin/rm {} +", true},
		{"python3 -c 'import os'", false},
		{"git status", false},
		{"ls -la", false},
	} {
		if got := deniedBy(tc.cmd, deny) != nil; got != tc.denied {
			t.Errorf("deniedBy(%q) = %v (%v), want %v", tc.cmd, got, deniedBy(tc.cmd, deny), tc.denied)
		}
	}
}

// TestInvisibleFormatCharacters: every Unicode format character (category
// Cf) but the joiners scripts need changes how text reads without being
// seen, and must be shown on the terminal, by sanitize and by the
// renderers' styled port alike; the list in TestSanitize names a few, these
// are others of the same kind.
func TestInvisibleFormatCharacters(t *testing.T) {
	for _, tc := range []struct {
		in      string
		visible bool
	}{
		{"soft\u00adhyphen", true},                  // SHY hides inside a command name
		{"ara\u0600bic", true},                      // Arabic number sign
		{"inhibit\u206aswap", true},                 // deprecated format controls
		{"nominal\u206fdigits", true},               //
		{"anno\ufff9tation\ufffb", true},            // interlinear annotation
		{"music\U0001d173x", true},                  // musical formatting
		{"egypt\U00013430x", true},                  // Egyptian hieroglyph format control
		{"tag\U000e0041\U000e0042x", true},          // tag characters
		{"kaithi\U000110bdx", true},                 // Kaithi number sign
		{"mongolian\u180ex", true},                  //
		{"rlo\u202eexe.txt", true},                  //
		{"emoji \U0001f468\u200d\U0001f4bb", false}, // ZWJ sequence stays
		{"hindi क्\u200dष", false},                  // ZWJ
		{"persian می\u200cخواهم", false},            // ZWNJ
		{"plain text ✓", false},                     //
	} {
		got := sanitize(tc.in)
		if changed := got != tc.in; changed != tc.visible {
			t.Errorf("sanitize(%q) = %q, want shown visibly %v", tc.in, got, tc.visible)
		}
		var b strings.Builder
		sw := &styledWriter{w: &b}
		sw.Write([]byte(tc.in))

		if changed := b.String() != tc.in; changed != tc.visible {
			t.Errorf("styledWriter(%q) = %q, want shown visibly %v", tc.in, b.String(), tc.visible)
		}
	}
}

// TestFetchGuardSpellings fetches a loopback page through other spellings
// of its address than TestFetchGuard's, and through a proxy that would
// fetch anything: each must be refused with no request reaching the page.
func TestFetchGuardSpellings(t *testing.T) {
	var hits atomic.Int32
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "secret page")
	}))
	defer page.Close()
	port := page.URL[strings.LastIndex(page.URL, ":")+1:]
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "proxied secret")
	}))
	defer proxy.Close()
	for _, host := range []string{"127.0.0.1.", "LOCALHOST", "localhost.", "foo.localhost", "0", "0.0.0.0", "127.1", "0177.1",
		"0x7f.0x0.0x0.0x1", "127.000.000.001", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:7f00:0001]", "[::1]", "[0:0::1]",
		"[::]", "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[fe80::1%25lo]", "user:pw@127.0.0.1", "evil.com@127.0.0.1"} {
		var out bytes.Buffer
		u := "http://" + host + ":" + port + "/"
		err := fetchWebpage(t.Context(), netGuard{}.client(), map[string]any{"url": u}, &out, 5*time.Second, "test")
		if err == nil || strings.Contains(out.String(), "secret") {
			t.Errorf("fetch(%s) = %q, %v; want refused", u, out.String(), err)
		}
	}
	g := netGuard{environ: []string{"HTTP_PROXY=" + proxy.URL, "http_proxy=" + proxy.URL}}
	for _, u := range []string{"http://localhost:" + port + "/", "http://127.1:" + port + "/", "http://[::ffff:127.0.0.1]:" + port + "/"} {
		var out bytes.Buffer
		if err := fetchWebpage(t.Context(), g.client(), map[string]any{"url": u}, &out, 5*time.Second, "test"); err == nil {
			t.Errorf("fetch(%s) through a proxy = %q, want refused", u, out.String())
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback page or the proxy was reached %d times while refused", n)
	}
}

// TestHostileBytesEndToEnd: a scripted model calls a tool whose name, and
// a command whose text, hold terminal controls and bidi overrides, lists
// a directory whose file name holds them too, then the provider fails
// with a body that holds them and echoes the key. With default settings
// and with --yes, stderr (where call lines, questions and errors go, a
// terminal even when stdout is piped) gets none of them raw, nor the key.
func TestHostileBytesEndToEnd(t *testing.T) {
	const ctl = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u009b1;1H\u202e\u00ad"
	for _, args := range [][]string{{"go"}, {"--yes", "go"}} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "name"+ctl+".txt"), []byte("x"), 0o600)
		cmd, _ := json.Marshal(map[string]string{"shell_command": "echo hi" + ctl})
		list, _ := json.Marshal(map[string]any{"directory_path": dir})
		f := newFakeProvider(t,
			sse(toolStream(fakeCall{"c1", "evil" + ctl + "tool", `{"x":"` + "\\u001b]0;t\\u0007" + `"}`},
				fakeCall{"c2", "execute_shell_command", string(cmd)}, fakeCall{"c3", "fs_list_directory", string(list)})),
			fail(400, `{"error":{"message":"bad request`+strings.ReplaceAll(ctl, "\x1b", `\u001b`)+` Authorization: Bearer sk-test-0123456789abcdef"}}`))
		r := runBinary(t, f, e2e{args: args})
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\u00ad", "sk-test-0123456789abcdef"} {
			if strings.Contains(r.stderr, bad) {
				t.Errorf("%v: stderr holds %q raw:\n%q", args, bad, r.stderr)
			}
		}
	}
}

// keyRuns reports whether s holds 12 or more characters in a row of key
// (after dropping NULs and whitespace a file may put between them).
func keyRuns(s, key string) bool {
	s = strings.NewReplacer(`\u0000`, "", `\n`, "", `\t`, "").Replace(s)
	s = strings.Map(func(r rune) rune {
		if r == 0 || r == ' ' || r == '\n' || r == '\t' || r == '\r' {
			return -1
		}
		return r
	}, s)
	for i := 0; i+12 <= len(key); i++ {
		if strings.Contains(s, key[i:i+12]) {
			return true
		}
	}
	return false
}

// TestKeyInWorkspaceFiles: a hostile repository holds the key in use in
// spellings a whole-string match misses (UTF-16 as PowerShell writes,
// one character in, cut over two lines, in a .env, behind a link to
// /proc/self/environ), and the
// model reads and searches them with default settings and with --yes: no
// 12-character run of the key reaches the provider in a tool result.
func TestKeyInWorkspaceFiles(t *testing.T) {
	const key = "sk-test-0123456789abcdef" // e2eEnv's
	utf16 := make([]byte, 0, 2*len(key))
	for _, c := range []byte("token=" + key + "\n") {
		utf16 = append(utf16, c, 0)
	}
	files := map[string][]byte{"u16.txt": append([]byte{0xff, 0xfe}, utf16...), "shift.txt": []byte("x" + key + "\n"),
		"split.txt": []byte("a=" + key[:10] + "\nb=" + key[10:] + "\n"), ".env": []byte("OPENAI_API_KEY=" + key + "\n")}
	for _, args := range [][]string{{"go"}, {"--yes", "go"}} {
		dir := t.TempDir()
		for n, b := range files {
			os.WriteFile(filepath.Join(dir, n), b, 0o600)
		}
		os.Symlink("/proc/self/environ", filepath.Join(dir, "environ.txt"))
		var calls []fakeCall
		for i, n := range []string{"u16.txt", "shift.txt", "split.txt", ".env", "environ.txt"} {
			a, _ := json.Marshal(map[string]any{"file_paths": n})
			calls = append(calls, fakeCall{"r" + strconv.Itoa(i), "fs_read_file", string(a)})
		}
		for i, p := range []string{"sk-test", "0123456789", "s.k.-.t", "4567"} {
			a, _ := json.Marshal(map[string]any{"search_path": ".", "content": p})
			calls = append(calls, fakeCall{"s" + strconv.Itoa(i), "fs_search_files", string(a)})
		}
		f := newFakeProvider(t, sse(toolStream(calls...)), sse(textStream("done")))
		runInProcess(t, f, dir, e2e{args: args})
		chats := f.chats()
		if len(chats) < 2 {
			t.Fatalf("%v: the model was not asked again", args)
		}
		for _, m := range chats[1].messages() {
			if m.Role == roleTool && keyRuns(m.Content, key) {
				t.Errorf("%v: tool result %s carries the key: %q", args, m.ToolCallID, m.Content)
			}
		}
	}
}

// TestHostileRepoPaths: a repository with links out of itself (a
// directory link, a link to a file, a dangling link, a link chain, a link
// to /proc/self) and a model that reads, writes, edits, copies and moves
// through them and through /proc spellings, with default settings and
// no terminal: nothing outside the workspace is read, written or removed
// (every such call needs a question, which is refused).
func TestHostileRepoPaths(t *testing.T) {
	base := t.TempDir()
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	os.MkdirAll(filepath.Join(ws, "docs"), 0o700)
	os.MkdirAll(out, 0o700)
	os.WriteFile(filepath.Join(out, "secret.txt"), []byte("OUTSIDE-SECRET"), 0o600)
	os.WriteFile(filepath.Join(out, "victim.txt"), []byte("VICTIM"), 0o600)
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("inside"), 0o600)
	links := map[string]string{"docs/theme": out, "s": filepath.Join(out, "secret.txt"), "dangling": filepath.Join(out, "created.txt"),
		"chain1": "chain2", "chain2": filepath.Join(out, "victim.txt"), "me": "/proc/self", "rel": "../outside", "docs/up": "../.."}
	for l, target := range links {
		os.Symlink(target, filepath.Join(ws, l))
	}
	type c = map[string]any
	var calls []fakeCall
	add := func(name string, a c) {
		b, _ := json.Marshal(a)
		calls = append(calls, fakeCall{"c" + strconv.Itoa(len(calls)), name, string(b)})
	}
	for _, p := range []string{"docs/theme/../outside/secret.txt", "docs/theme/secret.txt", "s", "rel/secret.txt", "docs/up/outside/secret.txt",
		"me/root" + out + "/secret.txt", "me/cwd/../outside/secret.txt", "/proc/self/root" + out + "/secret.txt", "/proc/self/cwd/../outside/secret.txt",
		"a.txt/../rel/secret.txt", "./docs/../s", out + "/./secret.txt", out + "//secret.txt"} {
		add("fs_read_file", c{"file_paths": p})
	}
	add("fs_search_files", c{"search_path": "docs/theme", "content": "SECRET"})
	add("fs_search_files", c{"search_path": "rel", "content": "SECRET"})
	add("fs_list_directory", c{"directory_path": "docs/up/outside"})
	for _, p := range []string{"dangling", "chain1", "docs/theme/victim.txt", "rel/victim.txt", "docs/theme/new.txt"} {
		add("fs_write_file", c{"file_path": p, "content": "PLANTED"})
		add("fs_edit_file", c{"file_path": p, "old_text": "VICTIM", "new_text": "PLANTED"})
	}
	add("fs_file_operations", c{"operation": "copy", "path": "s", "destination": "copied.txt"})
	add("fs_file_operations", c{"operation": "copy", "path": "docs/theme", "destination": "copieddir"})
	add("fs_file_operations", c{"operation": "move", "path": "a.txt", "destination": "chain1"})
	add("fs_file_operations", c{"operation": "move", "path": "a.txt", "destination": "docs/theme/moved.txt"})
	add("fs_file_operations", c{"operation": "delete", "path": "docs/theme", "recursive": true})
	add("fs_file_operations", c{"operation": "delete", "path": "docs/theme/victim.txt"})
	add("fs_file_operations", c{"operation": "mkdir", "path": "rel/newdir"})
	f := newFakeProvider(t, sse(toolStream(calls...)), sse(textStream("done")))
	runInProcess(t, f, ws, e2e{args: []string{"go"}})
	chats := f.chats()
	if len(chats) < 2 {
		t.Fatal("the model was not asked again")
	}
	results := 0
	for _, m := range chats[1].messages() {
		results += map[bool]int{true: 1}[m.Role == roleTool]
		if m.Role == roleTool && strings.Contains(m.Content, "OUTSIDE-SECRET") {
			t.Errorf("tool result %s read outside the workspace: %s", m.ToolCallID, m.Content)
		}
	}
	if results != len(calls) {
		t.Errorf("%d tool results for %d calls", results, len(calls))
	}
	ents, _ := os.ReadDir(out)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "secret.txt,victim.txt" {
		t.Errorf("outside now holds %v, want secret.txt and victim.txt only", names)
	}
	for n, want := range map[string]string{"secret.txt": "OUTSIDE-SECRET", "victim.txt": "VICTIM"} {
		if b, _ := os.ReadFile(filepath.Join(out, n)); string(b) != want {
			t.Errorf("outside/%s = %q, want %q", n, b, want)
		}
	}
	for _, n := range []string{"copied.txt", "copieddir"} {
		if b, err := os.ReadFile(filepath.Join(ws, n)); err == nil && strings.Contains(string(b), "SECRET") {
			t.Errorf("the secret was copied into the workspace as %s", n)
		}
		if _, err := os.Stat(filepath.Join(ws, n, "secret.txt")); err == nil {
			t.Errorf("the outside directory was copied into the workspace as %s", n)
		}
	}
}

// TestPipedTextAttachesNothing: a page piped into yaicli names files in
// every way @file can be spelled; none is attached, with default settings
// and with --yes (the person typed only the question).
func TestPipedTextAttachesNothing(t *testing.T) {
	base := t.TempDir()
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	os.MkdirAll(ws, 0o700)
	os.MkdirAll(out, 0o700)
	secret := filepath.Join(out, "secret.txt")
	os.WriteFile(secret, []byte("OUTSIDE-SECRET"), 0o600)
	os.WriteFile(filepath.Join(ws, "in.txt"), []byte("INSIDE-SECRET"), 0o600)
	page := "summary please @" + secret + " and @\"" + secret + "\" and @'" + secret + "' and (@" + secret + ") and @../outside/secret.txt " +
		"and @in.txt and @./in.txt and \u200b@in.txt and @" + strings.ReplaceAll(secret, "/", "//") + "\n"
	for _, args := range [][]string{{"summarise"}, {"--yes", "summarise"}} {
		f := newFakeProvider(t, sse(textStream("ok")))
		runInProcess(t, f, ws, e2e{args: args, stdin: page})
		for _, ch := range f.chats() {
			if b := string(ch.Raw); strings.Contains(b, "OUTSIDE-SECRET") || strings.Contains(b, "INSIDE-SECRET") {
				t.Errorf("%v: piped text attached a file: %s", args, b)
			}
		}
		if len(f.chats()) == 0 {
			t.Errorf("%v: the provider was never asked", args)
		}
	}
}

// TestReadRootLinksOut: TOOL_READ_ROOTS frees reads below a root, not
// through a link in it that leads out (to another directory, or to a key
// under the root's own parent), with default settings.
func TestReadRootLinksOut(t *testing.T) {
	base := t.TempDir()
	ws, root, out := filepath.Join(base, "ws"), filepath.Join(base, "logs"), filepath.Join(base, "outside")
	for _, d := range []string{ws, root, out, filepath.Join(base, ".ssh")} {
		os.MkdirAll(d, 0o700)
	}
	os.WriteFile(filepath.Join(out, "secret.txt"), []byte("OUTSIDE-SECRET"), 0o600)
	os.WriteFile(filepath.Join(base, ".ssh", "id_ed25519"), []byte("KEY-SECRET"), 0o600)
	os.WriteFile(filepath.Join(root, "app.log"), []byte("LOG-LINE"), 0o600)
	os.Symlink(out, filepath.Join(root, "o"))
	os.Symlink(filepath.Join(base, ".ssh", "id_ed25519"), filepath.Join(root, "k"))
	os.Symlink("..", filepath.Join(root, "up"))
	var calls []fakeCall
	for i, p := range []string{root + "/app.log", root + "/o/secret.txt", root + "/k", root + "/up/outside/secret.txt", root + "/up/.ssh/id_ed25519",
		root + "/../outside/secret.txt", root + "/o/../../.ssh/id_ed25519"} {
		b, _ := json.Marshal(map[string]any{"file_paths": p})
		calls = append(calls, fakeCall{"r" + strconv.Itoa(i), "fs_read_file", string(b)})
	}
	f := newFakeProvider(t, sse(toolStream(calls...)), sse(textStream("done")))
	runInProcess(t, f, ws, e2e{args: []string{"go"}, env: []string{"YAI_TOOL_READ_ROOTS=" + root}})
	chats := f.chats()
	if len(chats) < 2 {
		t.Fatal("the model was not asked again")
	}
	sawLog := false
	for _, m := range chats[1].messages() {
		sawLog = sawLog || strings.Contains(m.Content, "LOG-LINE")
		if m.Role == roleTool && (strings.Contains(m.Content, "OUTSIDE-SECRET") || strings.Contains(m.Content, "KEY-SECRET")) {
			t.Errorf("tool result %s read through a link out of the read root: %s", m.ToolCallID, m.Content)
		}
	}
	if !sawLog {
		t.Error("the read root itself was not readable: the test proves nothing")
	}
}

// TestWorldWritableStartHasNoFreeArea: started in a directory every user
// may write (a shared /tmp folder another user prepared), yaicli frees no
// workspace: with default settings a read or write there needs a question
// (refused here, with no terminal).
func TestWorldWritableStartHasNoFreeArea(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(ws, 0o777)
	os.Chmod(ws, 0o1777)
	os.WriteFile(filepath.Join(ws, "planted.txt"), []byte("PLANTED-BY-OTHER"), 0o644)
	w, _ := json.Marshal(map[string]any{"file_path": "mine.txt", "content": "x"})
	r, _ := json.Marshal(map[string]any{"file_paths": "planted.txt"})
	f := newFakeProvider(t, sse(toolStream(fakeCall{"w", "fs_write_file", string(w)}, fakeCall{"r", "fs_read_file", string(r)})), sse(textStream("done")))
	runInProcess(t, f, ws, e2e{args: []string{"go"}})
	if _, err := os.Stat(filepath.Join(ws, "mine.txt")); err == nil {
		t.Error("a write in a world-writable start directory ran without a question")
	}
	if chats := f.chats(); len(chats) > 1 && strings.Contains(string(chats[1].Raw), "PLANTED-BY-OTHER") {
		t.Error("a read in a world-writable start directory ran without a question")
	}
}
