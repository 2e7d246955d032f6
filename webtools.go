package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// webDownloadMax bounds what fetch_webpage and web_search read from the net.
const webDownloadMax = 5 << 20

// errOffline ends the message of a host that cannot be reached: what to
// check. web_search adds its SearXNG hint; fetch_webpage has no use for it.
var errOffline = errors.New("this machine may be offline, or the host name is wrong; check the network (or the proxy in HTTPS_PROXY) and retry")

// webGet fetches a URL through client with a bounded body and a clear
// offline message; a destination the guard refused says so.
func webGet(ctx context.Context, client *http.Client, u string, timeout time.Duration, yaicliVersion string) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", fmt.Errorf("bad url %q: %v", u, err)
	}
	req.Header.Set("User-Agent", "Mozilla/5.0 (compatible; yaicli/"+yaicliVersion+")")
	resp, err := client.Do(req)
	if err != nil {
		if b, ok := blockedError(err); ok {
			return nil, "", b // names the host, not the URL: a URL can carry what a model should not echo
		}
		var dns *net.DNSError
		var op *net.OpError
		if errors.As(err, &dns) || errors.As(err, &op) {
			return nil, "", fmt.Errorf("cannot reach %s (%v): %w", req.URL.Host, err, errOffline)
		}
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, "", fmt.Errorf("%s answered HTTP %d", req.URL.Host, resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, webDownloadMax))
	return b, resp.Header.Get("Content-Type"), err
}

// fetchWebpage is fetch_webpage: the page as readable text, fetched through
// client (the private-network guard), written to out as text; a labeler
// gets the header (the URL, and whether the download was cut), so the
// model reads the page's lines as lines and the spill file is the text.
func fetchWebpage(ctx context.Context, client *http.Client, args map[string]any, out io.Writer, timeout time.Duration, yaicliVersion string) error {
	u := argString(args, "url", "")
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return fmt.Errorf("url must start with http:// or https://, got %q", u)
	}
	body, ctype, err := webGet(ctx, client, u, timeout, yaicliVersion)
	if err != nil {
		return err
	}
	text := string(body)
	if strings.Contains(ctype, "html") || strings.Contains(strings.ToLower(text[:min(len(text), 512)]), "<html") {
		text = htmlText(text)
	}
	if _, err := io.WriteString(out, text); err != nil {
		return err
	}
	if l, ok := out.(labeler); ok {
		l.label(pageHeader(u, len(body) >= webDownloadMax, text == ""), pageHolds)
	}
	return nil
}

// pageHolds is what the spill file of a fetched page holds, for its marker.
const pageHolds = "the page's text as extracted, without the header above"

// pageHeader is the lines above a page's text: its URL, whether the
// download stopped at webDownloadMax, and where the text starts.
func pageHeader(u string, cut, empty bool) string {
	h := "url: " + u + "\n"
	if cut {
		h += fmt.Sprintf("download cut at %d bytes: the page is longer\n", webDownloadMax)
	}
	if empty {
		return h + "(no text)\n"
	}
	return h + "text:\n"
}

var (
	reHidden = regexp.MustCompile(`(?is)<(script|style|noscript|svg|head|template)\b.*?</(script|style|noscript|svg|head|template)\s*>|<!--.*?-->`)
	reBlock  = regexp.MustCompile(`(?i)</?(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|header|footer|pre|blockquote|hr)\b[^>]*>`)
	reTag    = regexp.MustCompile(`(?s)<[^>]*>`)
	reSpaces = regexp.MustCompile(`[ \t\r\f\v]+`)
	reBlank  = regexp.MustCompile(`\n\s*\n+`)
)

// htmlText turns HTML into readable text: hidden parts dropped, blocks on
// their own lines, entities decoded, whitespace collapsed.
func htmlText(s string) string {
	s = reHidden.ReplaceAllString(s, " ")
	s = reBlock.ReplaceAllString(s, "\n")
	s = reTag.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	s = reSpaces.ReplaceAllString(s, " ")
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.TrimSpace(reBlank.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// webOptions is what fetch_webpage and web_search need of the
// configuration (the guard's too: webOptions.guard).
type webOptions struct {
	searchProvider string // WEB_SEARCH_PROVIDER: duckduckgo or searxng
	searchURL      string // WEB_SEARCH_URL, without a trailing slash; "" = the provider's own
	allowPrivate   bool   // FETCH_ALLOW_PRIVATE: this machine and private networks too
	allowHosts     []string
	environ        []string      // the run's environment, for its proxy variables
	timeout        time.Duration // TIMEOUT: each request's
	version        string        // yaicli's, in the User-Agent
}

// guard is the network guard of the web tools' settings.
func (o webOptions) guard() netGuard {
	return newNetGuard(o.allowPrivate, o.allowHosts, o.searchURL, o.environ)
}

// searchResult is one web_search hit.
type searchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

var (
	reDDGLink    = regexp.MustCompile(`(?s)<a[^>]*class="result__a"[^>]*href="([^"]*)"[^>]*>(.*?)</a>`)
	reDDGSnippet = regexp.MustCompile(`(?s)class="result__snippet"[^>]*>(.*?)</a>`)
)

// webSearch is web_search: DuckDuckGo's HTML page by default, or a SearXNG
// instance (WEB_SEARCH_URL) for networks without the internet.
func webSearch(ctx context.Context, o webOptions, client *http.Client, args map[string]any, out io.Writer) error {
	q := argString(args, "query", "")
	if q == "" {
		return errors.New("query is required")
	}
	max := argInt(args, "max_results", 5)
	var res []searchResult
	var err error
	if o.searchProvider == "searxng" {
		res, err = searxng(ctx, o, client, q)
	} else {
		if res, err = duckduckgo(ctx, o, client, q); errors.Is(err, errOffline) {
			err = fmt.Errorf("%w; for a search engine on your own network set WEB_SEARCH_PROVIDER=searxng and WEB_SEARCH_URL", err)
		}
	}
	if err != nil {
		return err
	}
	if len(res) > max {
		res = res[:max]
	}
	return writeJSON(out, map[string]any{"query": q, "success": true, "results": res})
}

// searxng asks a SearXNG instance (format=json).
func searxng(ctx context.Context, o webOptions, client *http.Client, q string) ([]searchResult, error) {
	if o.searchURL == "" {
		return nil, errors.New("WEB_SEARCH_PROVIDER=searxng needs WEB_SEARCH_URL, the base URL of a SearXNG instance")
	}
	body, _, err := webGet(ctx, client, o.searchURL+"/search?format=json&q="+url.QueryEscape(q), o.timeout, o.version)
	if err != nil {
		return nil, err
	}
	var r struct {
		Results []struct{ Title, URL, Content string }
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("searxng answered something that is not its JSON format (enable format json in its settings): %v", err)
	}
	var out []searchResult
	for _, x := range r.Results {
		out = append(out, searchResult{Title: x.Title, URL: x.URL, Snippet: x.Content})
	}
	return out, nil
}

// duckduckgo reads DuckDuckGo's HTML results page.
func duckduckgo(ctx context.Context, o webOptions, client *http.Client, q string) ([]searchResult, error) {
	base := "https://html.duckduckgo.com"
	if o.searchURL != "" {
		base = o.searchURL
	}
	body, _, err := webGet(ctx, client, base+"/html/?q="+url.QueryEscape(q), o.timeout, o.version)
	if err != nil {
		return nil, err
	}
	links := reDDGLink.FindAllStringSubmatch(string(body), -1)
	snippets := reDDGSnippet.FindAllStringSubmatch(string(body), -1)
	var out []searchResult
	for i, l := range links {
		r := searchResult{URL: ddgTarget(html.UnescapeString(l[1])), Title: htmlText(l[2])}
		if i < len(snippets) {
			r.Snippet = htmlText(snippets[i][1])
		}
		out = append(out, r)
	}
	return out, nil
}

// ddgTarget unwraps DuckDuckGo's redirect links (/l/?uddg=<target>).
func ddgTarget(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return link
	}
	if t := u.Query().Get("uddg"); t != "" {
		return t
	}
	return link
}

// fetchWebpageTool is fetch_webpage: a public page as text.
func fetchWebpageTool() tool {
	return tool{
		name:    "fetch_webpage",
		desc:    "Download a public web page as readable text. Addresses on this machine and private networks are refused unless allowed.",
		params:  `{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`,
		caption: "url",
		cap:     capRatio{25, 8},
		bind: func(e *toolEnv) runFunc {
			return func(ctx context.Context, a map[string]any, out io.Writer) error {
				return fetchWebpage(ctx, e.client, a, out, e.web.timeout, e.web.version)
			}
		},
	}
}

// webSearchTool is web_search: titles, URLs and snippets.
func webSearchTool() tool {
	return tool{
		name:    "web_search",
		desc:    "Search the web and return titles, URLs and snippets.",
		params:  `{"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"integer"}},"required":["query"]}`,
		caption: "query",
		bind: func(e *toolEnv) runFunc {
			return func(ctx context.Context, a map[string]any, out io.Writer) error {
				return webSearch(ctx, e.web, e.client, a, out)
			}
		},
	}
}
