package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// blockedNets are the destinations fetch_webpage does not reach unless the
// person allows them: this machine, the private networks around it and the
// cloud metadata address, which a model (or a page it was sent to) would
// otherwise read through yaicli.
var blockedNets = []struct {
	prefix netip.Prefix
	why    string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "an unspecified (\"this network\") address"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address (this machine)"},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private address (RFC 1918)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private address (RFC 1918)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private address (RFC 1918)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT address (RFC 6598)"},
	{netip.MustParsePrefix("169.254.169.254/32"), "the cloud metadata address (link-local)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address (RFC 6890)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking network address (RFC 2544)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address (240/4, broadcast)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address (TEST-NET-1)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address (TEST-NET-3)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a 6to4 relay address (deprecated)"},
	{netip.MustParsePrefix("::/128"), "the unspecified address"},
	{netip.MustParsePrefix("::1/128"), "a loopback address (this machine)"},
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible address (deprecated)"},
	{netip.MustParsePrefix("fc00::/7"), "a private address (unique local, fc00::/7)"},
	{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address (deprecated)"},
	{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
	{netip.MustParsePrefix("2002::/16"), "a 6to4 address (it reaches the IPv4 address inside it)"},
	{netip.MustParsePrefix("2001::/32"), "a Teredo address (it reaches an IPv4 address inside it)"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation address"},
	{netip.MustParsePrefix("2001:10::/28"), "an ORCHID address"},
	{netip.MustParsePrefix("2001:20::/28"), "an ORCHIDv2 address"},
	{netip.MustParsePrefix("100::/64"), "a discard-only address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 address"},
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "an IPv4-translated address"},
	{netip.MustParsePrefix("5f00::/16"), "a segment-routing address"},
}

// embeddedV4 are IPv6 prefixes whose last 32 bits are an IPv4 address a
// translator forwards to (NAT64, 6to4 keeps it in bits 16-48).
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// blockedAddr says why ip is not a public destination, or "" when it is.
// An IPv4-mapped or NAT64 IPv6 address is judged by its IPv4 address.
func blockedAddr(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("")
	if ip.Is6() && nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	for _, n := range blockedNets {
		if n.prefix.Contains(ip) {
			return n.why
		}
	}
	return ""
}

// inetAton reads the numeric host spellings C libraries and many proxies
// accept besides dotted decimal: 2130706433, 0x7f000001, 0177.0.0.1, 127.1.
func inetAton(host string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a, true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 || host == "" {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32) // base from prefix: 0x hex, 0 octal
		if err != nil {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	last := nums[len(nums)-1]
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (24 - 8*i)
	}
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// errBlocked is a destination refused by the private-network guard.
type errBlocked struct {
	host, addr, why string
}

// Error says what was refused, why, and which setting allows it.
func (e *errBlocked) Error() string {
	return fmt.Sprintf("refused: %s resolves to %s, %s; fetch_webpage does not reach this machine or private networks. "+
		"The person can allow it with FETCH_ALLOW_HOSTS=%s, or FETCH_ALLOW_PRIVATE=true for every address", e.host, e.addr, e.why, e.host)
}

// netGuard decides which hosts fetch_webpage may reach.
type netGuard struct {
	environ      []string // the run's, for its proxy variables
	allowPrivate bool
	allowHosts   []string // lower-case names or IP literals; "*.x" or ".x" for subdomains
}

// guardAddr says why ip is not a destination for fetch_webpage, or "":
// a blocked range, or an address of this machine, asked of the kernel (an
// address it lets a socket bind to is its own, whatever the interface).
func guardAddr(ip netip.Addr) string {
	if why := blockedAddr(ip); why != "" {
		return why
	}
	c, err := net.ListenPacket("udp", netip.AddrPortFrom(ip.Unmap(), 0).String())
	if err == nil {
		c.Close()
		return "an address of this machine"
	}
	return ""
}

// allowed reports whether host was named by the person, on this port: an
// entry with a port allows that port only (FETCH_ALLOW_HOSTS and
// WEB_SEARCH_URL entries always carry one, see newNetGuard).
func (g netGuard) allowed(host, port string) bool {
	if g.allowPrivate {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	for _, h := range g.allowHosts {
		if eh, ep, err := net.SplitHostPort(h); err == nil {
			if ep != port {
				continue
			}
			h = eh
		}
		switch {
		case strings.HasPrefix(h, "*.") || strings.HasPrefix(h, "."):
			if strings.HasSuffix(host, "."+strings.TrimLeft(h, "*.")) {
				return true
			}
		case h == host:
			return true
		default:
			a, err1 := netip.ParseAddr(h)
			b, err2 := netip.ParseAddr(host)
			if err1 == nil && err2 == nil && a.Unmap() == b.Unmap() {
				return true
			}
		}
	}
	return false
}

// newNetGuard is the guard of FETCH_ALLOW_PRIVATE (allowPrivate),
// FETCH_ALLOW_HOSTS (hosts) and the host of WEB_SEARCH_URL (searchURL),
// which the person chose, each on its port only: the one given (host:port,
// a URL's) or else 80 and 443. environ is the run's, for its proxy.
func newNetGuard(allowPrivate bool, hosts []string, searchURL string, environ []string) netGuard {
	g := netGuard{allowPrivate: allowPrivate, environ: environ}
	for _, h := range hosts {
		g.allowHosts = append(g.allowHosts, allowEntries(h)...)
	}
	if u, err := url.Parse(searchURL); err == nil && u.Hostname() != "" {
		g.allowHosts = append(g.allowHosts, allowEntries(u.Scheme+"://"+u.Host)...)
	}
	return g
}

// allowEntries reads one allowed host (a name, host:port or a URL) as
// host:port entries.
func allowEntries(h string) []string {
	ports := []string{"80", "443"}
	if u, err := url.Parse(h); err == nil && u.Host != "" {
		h = u.Hostname() // a URL was given
		ports = []string{cmp.Or(u.Port(), map[string]string{"http": "80", "https": "443"}[u.Scheme], "443")}
	} else if host, port, err := net.SplitHostPort(h); err == nil {
		h, ports = host, []string{port}
	}
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	var out []string
	for _, p := range ports {
		out = append(out, net.JoinHostPort(h, p))
	}
	return out
}

// urlPort is u's port, or its scheme's.
func urlPort(u *url.URL) string {
	return cmp.Or(u.Port(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
}

// proxyKey marks a request's context with the proxy it goes through, whose
// address the person configured and may be private.
type proxyKey struct{}

// client is an HTTP client whose every connection, redirects included, is
// checked on the address actually dialled; requests through a proxy are
// checked on their target's resolved addresses before they are sent.
func (g netGuard) client() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = envProxy(g.environ)
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, _ := net.SplitHostPort(addr)
		if g.allowed(host, port) || ctx.Value(proxyKey{}) == addr {
			return dialer.DialContext(ctx, network, addr)
		}
		d := *dialer
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("dialling %s: unexpected address %q", host, address)
			}
			if why := guardAddr(ap.Addr()); why != "" {
				return &errBlocked{host: host, addr: ap.Addr().String(), why: why}
			}
			return nil
		}
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: guardedTransport{g: g, tr: tr}}
}

// guardedTransport checks each request's host before the transport sends
// it: numeric spellings at once, and names through a proxy by resolving.
type guardedTransport struct {
	g  netGuard
	tr *http.Transport
}

// RoundTrip refuses a blocked target, else sends req.
func (t guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Hostname()
	if t.g.allowed(host, urlPort(req.URL)) {
		return t.tr.RoundTrip(req)
	}
	if a, ok := inetAton(host); ok {
		if why := guardAddr(a); why != "" {
			return nil, &errBlocked{host: host, addr: a.String(), why: why}
		}
	}
	proxy, err := t.tr.Proxy(req)
	if err != nil || proxy == nil {
		return t.tr.RoundTrip(req)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(req.Context(), "ip", host)
	if err != nil {
		return nil, fmt.Errorf("resolving %s to check it is not private: %w", host, err)
	}
	for _, a := range addrs {
		if why := guardAddr(a); why != "" {
			return nil, &errBlocked{host: host, addr: a.String(), why: why}
		}
	}
	port := proxy.Port()
	if port == "" {
		port = map[string]string{"https": "443", "socks5": "1080"}[proxy.Scheme]
		if port == "" {
			port = "80"
		}
	}
	ctx := context.WithValue(req.Context(), proxyKey{}, net.JoinHostPort(proxy.Hostname(), port))
	return t.tr.RoundTrip(req.WithContext(ctx))
}

// blockedError finds a guard refusal inside err.
func blockedError(err error) (*errBlocked, bool) {
	var b *errBlocked
	return b, errors.As(err, &b)
}
