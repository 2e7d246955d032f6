package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestBlockedAddr(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		blocked bool
	}{
		{"127.0.0.1", true}, {"127.255.0.9", true}, {"10.1.2.3", true}, {"172.16.0.1", true}, {"172.31.255.255", true},
		{"172.32.0.1", false}, {"192.168.1.1", true}, {"100.64.0.1", true}, {"100.127.255.255", true}, {"100.128.0.1", false},
		{"169.254.169.254", true}, {"169.254.1.1", true}, {"0.0.0.0", true}, {"224.0.0.251", true}, {"255.255.255.255", true},
		{"8.8.8.8", false}, {"93.184.216.34", false}, {"1.1.1.1", false},
		{"::1", true}, {"::", true}, {"fc00::1", true}, {"fd12:3456::1", true}, {"fe80::1", true}, {"fe80::1%eth0", true}, {"ff02::1", true},
		{"::ffff:127.0.0.1", true}, {"::ffff:169.254.169.254", true}, {"::ffff:8.8.8.8", false}, {"64:ff9b::a9fe:a9fe", true},
		{"64:ff9b::808:808", false}, {"::127.0.0.1", true}, {"2606:4700:4700::1111", false}, {"2001:4860:4860::8888", false},
	} {
		a := netip.MustParseAddr(tc.addr)
		if got := blockedAddr(a) != ""; got != tc.blocked {
			t.Errorf("blockedAddr(%s) = %q, want blocked %v", tc.addr, blockedAddr(a), tc.blocked)
		}
	}
}

func TestInetAton(t *testing.T) {
	for _, tc := range []struct {
		host, want string // want "" = not a numeric host
	}{
		{"127.0.0.1", "127.0.0.1"}, {"0x7f000001", "127.0.0.1"}, {"2130706433", "127.0.0.1"}, {"0177.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"}, {"0x7f.1", "127.0.0.1"}, {"169.254.43518", "169.254.169.254"}, {"0xA9FEA9FE", "169.254.169.254"},
		{"[::1]", "::1"}, {"::ffff:7f00:1", "::ffff:127.0.0.1"}, {"10.0.0", "10.0.0.0"},
		{"example.com", ""}, {"1.2.3.4.5", ""}, {"256.1.1.1", ""}, {"08.1.1.1", ""}, {"1.2.3.256", ""}, {"", ""},
	} {
		a, ok := inetAton(tc.host)
		if got := map[bool]string{true: a.String()}[ok]; got != tc.want {
			t.Errorf("inetAton(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
}

func TestNetGuardAllowed(t *testing.T) {
	g := netGuard{allowHosts: []string{"intranet.corp", "*.lab.example", "10.0.0.5", "::1"}}
	for host, want := range map[string]bool{
		"intranet.corp": true, "INTRANET.corp.": true, "a.lab.example": true, "lab.example": false, "evil-lab.example": false,
		"10.0.0.5": true, "10.0.0.6": false, "[::1]": true, "0:0::1": true, "localhost": false,
	} {
		if got := g.allowed(host, "443"); got != want {
			t.Errorf("allowed(%q) = %v, want %v", host, got, want)
		}
	}
	if !(netGuard{allowPrivate: true}).allowed("localhost", "8080") {
		t.Error("FETCH_ALLOW_PRIVATE does not allow every host")
	}
}

// TestFetchGuard: a loopback page is refused by default on the resolved
// address (names, numeric spellings and redirects alike), with the reason
// and the setting that allows it; the allow settings lift it.
func TestFetchGuard(t *testing.T) {
	hits := 0
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		io.WriteString(w, "secret page")
	}))
	defer page.Close()
	port := page.URL[strings.LastIndex(page.URL, ":")+1:]
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+port+"/", http.StatusFound)
	}))
	defer redirect.Close()
	fetch := func(g netGuard, u string) (string, error) {
		var out bytes.Buffer
		err := fetchWebpage(t.Context(), g.client(), map[string]any{"url": u}, &out, 5*time.Second, "test")
		return out.String(), err
	}
	for _, u := range []string{page.URL, "http://localhost:" + port + "/", "http://0x7f000001:" + port + "/", "http://2130706433:" + port + "/",
		"http://[::ffff:127.0.0.1]:" + port + "/", "http://169.254.169.254/latest/meta-data/"} {
		_, err := fetch(netGuard{}, u)
		if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "FETCH_ALLOW_HOSTS=") || !strings.Contains(err.Error(), "FETCH_ALLOW_PRIVATE=true") {
			t.Errorf("fetch(%s) error = %v, want a refusal naming the settings", u, err)
		}
	}
	// The redirect's first hop is allowed by name; its target is not.
	if _, err := fetch(netGuard{allowHosts: []string{"127.0.0.1"}}, redirect.URL); err == nil || !strings.Contains(err.Error(), "localhost resolves to") {
		t.Errorf("redirect to localhost: %v", err)
	}
	if hits != 0 {
		t.Fatalf("the loopback page was fetched %d times while refused", hits)
	}
	for _, g := range []netGuard{{allowPrivate: true}, {allowHosts: []string{"127.0.0.1", "localhost"}}} {
		if out, err := fetch(g, redirect.URL); err != nil || !strings.Contains(out, "secret page") {
			t.Errorf("fetch with %+v = %q, %v", g, out, err)
		}
	}
}

// TestGuardAttacks are destinations fetch_webpage must refuse (issue 32,
// finding 11), beside public ones it must reach.
func TestGuardAttacks(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		blocked bool
	}{
		{"192.0.2.10", true}, {"198.51.100.7", true}, {"203.0.113.200", true}, {"192.88.99.1", true},
		{"198.18.0.1", true}, {"198.19.255.254", true}, {"239.255.255.250", true}, {"240.0.0.1", true}, {"255.255.255.255", true},
		{"2002:7f00:1::1", true}, {"2002:a9fe:a9fe::", true}, {"2002:808:808::1", true}, {"2001:0:4136:e378:8000:63bf:3fff:fdd2", true},
		{"2001:db8::1", true}, {"3fff::1", true}, {"2001:10::1", true}, {"2001:20::1", true}, {"100::1", true},
		{"64:ff9b:1::a00:1", true}, {"64:ff9b::a00:1", true}, {"64:ff9b::c0a8:101", true}, {"::ffff:0:a00:1", true},
		{"5f00::1", true}, {"ff05::2", true},
		{"64:ff9b::808:808", false}, {"8.8.8.8", false}, {"2606:4700:4700::1111", false}, {"2001:4860:4860::8888", false},
	} {
		a := netip.MustParseAddr(tc.addr)
		if got := guardAddr(a) != ""; got != tc.blocked {
			t.Errorf("guardAddr(%s) = %q, want blocked %v", tc.addr, guardAddr(a), tc.blocked)
		}
	}
}

// TestGuardOwnAddresses: every address of this machine is refused, found
// by the kernel, not by a list.
func TestGuardOwnAddresses(t *testing.T) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		skipWithout(t, "network interfaces", fmt.Sprintf("listing this machine's addresses: %v", err))
	}
	n := 0
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		if err != nil || p.Addr().IsLoopback() || p.Addr().IsLinkLocalUnicast() {
			continue
		}
		n++
		if guardAddr(p.Addr()) == "" {
			t.Errorf("guardAddr(%s) = \"\", want refused: it is an address of this machine", p.Addr())
		}
	}
	if n == 0 {
		skipWithout(t, "a non-loopback address", "no non-loopback address here")
	}
}

// TestGuardAllowedPort: an allowed host is allowed on its configured port
// only (FETCH_ALLOW_HOSTS bare: 80 and 443; host:port; WEB_SEARCH_URL's).
func TestGuardAllowedPort(t *testing.T) {
	g := newNetGuard(false, []string{"intranet.corp", "10.0.0.5:8080", "https://wiki.lan"}, "http://searx.lan:8888", nil)
	for _, tc := range []struct {
		host, port string
		want       bool
	}{
		{"intranet.corp", "443", true}, {"intranet.corp", "80", true}, {"intranet.corp", "22", false}, {"intranet.corp", "6379", false},
		{"10.0.0.5", "8080", true}, {"10.0.0.5", "80", false}, {"wiki.lan", "443", true}, {"wiki.lan", "80", false},
		{"searx.lan", "8888", true}, {"searx.lan", "80", false}, {"searx.lan", "2375", false},
	} {
		if got := g.allowed(tc.host, tc.port); got != tc.want {
			t.Errorf("allowed(%s, %s) = %v, want %v", tc.host, tc.port, got, tc.want)
		}
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer page.Close()
	u, _ := url.Parse(page.URL)
	for _, tc := range []struct {
		allow string
		ok    bool
	}{{u.Host, true}, {net.JoinHostPort(u.Hostname(), "1"), false}, {u.Hostname(), false}} {
		resp, err := newNetGuard(false, []string{tc.allow}, "", nil).client().Get(page.URL)
		if err == nil {
			resp.Body.Close()
		}
		if (err == nil) != tc.ok {
			t.Errorf("FETCH_ALLOW_HOSTS=%s, GET %s: err %v, want reached %v", tc.allow, page.URL, err, tc.ok)
		}
	}
}
