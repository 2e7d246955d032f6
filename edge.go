package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"
)

// edge is everything a run reads from its process, read once: main fills it
// from the real process (processEdge), a test from a map and temporary
// directories. Nothing below run reads the environment, the clock, the
// terminals, the working directory or the home directory any other way, so
// runs side by side in one process do not see each other (TestEdgeOnly).
type edge struct {
	getenv  func(string) string // one variable; "" when unset
	environ []string            // the whole environment, as child processes inherit it
	now     func() time.Time    // the wall clock, and elapsed time

	// stdinTTY, stdoutTTY and stderrTTY say which of the run's streams are
	// interactive terminals; a stream that is not an *os.File never is.
	stdinTTY, stdoutTTY, stderrTTY bool

	home     string // the home directory; "" = unknown (no files kept there)
	workDir  string // the start directory: the workspace, and where relative paths are
	tmpDir   string // TMPDIR or the system's default
	cacheDir string // the user's cache directory (XDG_CACHE_HOME); "" = none
	uid      int    // the effective user, owner of the files yaicli keeps

	// openTTY opens the controlling terminal (/dev/tty) to ask for approval
	// when stdin is a pipe; it fails when there is none.
	openTTY func() (*os.File, error)
	// interrupts returns a context that ends on Ctrl+C (SIGINT) while it is
	// in use, scoped to one run or one turn; stop releases it.
	interrupts func(ctx context.Context) (context.Context, context.CancelFunc)
}

// processEdge reads the edge of this process: its environment, clock,
// terminals and directories. Only main calls it.
func processEdge(stdin, stdout, stderr *os.File) *edge {
	e := &edge{
		getenv:  os.Getenv,
		environ: os.Environ(),
		now:     time.Now,
		tmpDir:  os.TempDir(),
		uid:     os.Geteuid(),
		openTTY: func() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) },
		interrupts: func(ctx context.Context) (context.Context, context.CancelFunc) {
			return signal.NotifyContext(ctx, os.Interrupt)
		},
		stdinTTY:  term.IsTerminal(int(stdin.Fd())),
		stdoutTTY: term.IsTerminal(int(stdout.Fd())),
		stderrTTY: term.IsTerminal(int(stderr.Fd())),
	}
	if e.home = os.Getenv("HOME"); e.home == "" {
		e.home, _ = os.UserHomeDir()
	}
	e.workDir, _ = os.Getwd()
	e.cacheDir, _ = os.UserCacheDir()
	return e
}

// configDir is $XDG_CONFIG_HOME/yaicli, else ~/.config/yaicli: config.ini,
// roles and mcp.json live there.
func (e *edge) configDir() string {
	if x := e.getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "yaicli")
	}
	return filepath.Join(e.home, ".config", "yaicli")
}

// envValue is key's value in environ (KEY=value lines; the last one wins,
// as getenv finds it), "" when unset.
func envValue(environ []string, key string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// envProxy is http.ProxyFromEnvironment over the run's environment, not
// the process's (which net/http reads once for the whole process):
// HTTPS_PROXY for https, HTTP_PROXY for http, either spelt in lower case
// too; no proxy for loopback hosts or the hosts NO_PROXY names.
func envProxy(environ []string) func(*http.Request) (*url.URL, error) {
	get := func(k string) string {
		if v := envValue(environ, k); v != "" {
			return v
		}
		return envValue(environ, strings.ToLower(k))
	}
	httpProxy, httpsProxy, noProxy := get("HTTP_PROXY"), get("HTTPS_PROXY"), get("NO_PROXY")
	return func(req *http.Request) (*url.URL, error) {
		p := httpProxy
		if req.URL.Scheme == "https" {
			p = httpsProxy
		}
		if p == "" || !proxied(req.URL.Hostname(), req.URL.Port(), noProxy) {
			return nil, nil
		}
		u, err := url.Parse(p)
		if err != nil || u.Scheme == "" || u.Host == "" {
			if u, err := url.Parse("http://" + p); err == nil && u.Host != "" {
				return u, nil // "proxy:3128", as curl takes it
			}
			return nil, fmt.Errorf("invalid proxy address %q in the environment", p)
		}
		return u, nil
	}
}

// proxied reports whether a request to host:port goes through the proxy:
// not for localhost and loopback addresses, nor for a NO_PROXY entry ("*",
// a name and its subdomains, ".name", an IP, a CIDR, any with a :port).
func proxied(host, port, noProxy string) bool {
	host = strings.ToLower(host)
	ip := net.ParseIP(host)
	if host == "localhost" || ip != nil && ip.IsLoopback() {
		return false
	}
	for _, e := range strings.Split(strings.ToLower(noProxy), ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if e == "*" {
			return false
		}
		if h, p, err := net.SplitHostPort(e); err == nil {
			if p != port {
				continue
			}
			e = h
		}
		if _, n, err := net.ParseCIDR(e); err == nil {
			if ip != nil && n.Contains(ip) {
				return false
			}
			continue
		}
		e = strings.TrimPrefix(strings.Trim(e, "[]"), "*")
		if host == strings.TrimPrefix(e, ".") || strings.HasPrefix(e, ".") && strings.HasSuffix(host, e) || !strings.HasPrefix(e, ".") && strings.HasSuffix(host, "."+e) {
			return false
		}
	}
	return true
}
