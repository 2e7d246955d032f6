package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
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
		if got := g.allowed(host); got != want {
			t.Errorf("allowed(%q) = %v, want %v", host, got, want)
		}
	}
	if !(netGuard{allowPrivate: true}).allowed("localhost") {
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
