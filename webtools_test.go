package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHTMLText(t *testing.T) {
	in := `<html><head><title>t</title><style>p{}</style></head><body><script>alert(1)</script>
<h1>Title</h1><p>One &amp; two&nbsp;three</p><!-- hidden --><ul><li>a</li><li>b</li></ul></body></html>`
	if got, want := htmlText(in), "Title\n\nOne & two\u00a0three\n\na\n\nb"; got != want {
		t.Errorf("htmlText = %q, want %q", got, want)
	}
}

func TestFetchWebpage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><p>Hello from the page</p><script>x()</script></body></html>")
	}))
	defer srv.Close()
	var out bytes.Buffer
	web := netGuard{allowHosts: []string{"127.0.0.1"}}.client() // the test page is on loopback
	cl := newClipper(0, nil)
	if err := fetchWebpage(t.Context(), web, map[string]any{"url": srv.URL}, resultWriter{w: cl, c: cl}, 5*time.Second, "test"); err != nil {
		t.Fatal(err)
	}
	c := cl.finish()
	if got, want := c.modelText(), "url: "+srv.URL+"\ntext:\nHello from the page"; got != want || c.headText() != "Hello from the page" {
		t.Errorf("fetch = %q (text %q), want %q", got, c.headText(), want)
	}
	err := fetchWebpage(t.Context(), web, map[string]any{"url": "http://no-such-host.invalid/"}, &out, 2*time.Second, "test")
	if err == nil || !strings.Contains(err.Error(), "may be offline") {
		t.Errorf("offline fetch error = %v", err)
	}
	if err := fetchWebpage(t.Context(), web, map[string]any{"url": "file:///etc/passwd"}, &out, time.Second, "test"); err == nil {
		t.Error("file:// URL accepted")
	}
}

func TestWebSearch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/search": // SearXNG with format=json
			io.WriteString(w, `{"query":"go","results":[{"url":"https://go.dev/","title":"The Go Programming Language","content":"Build simple, secure, scalable systems with Go."},{"url":"https://b","title":"B","content":"b"}]}`)
		case "/html/": // DuckDuckGo's HTML endpoint
			io.WriteString(w, `<div class="result"><h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2F&amp;rut=abc">The <b>Go</b> Programming Language</a></h2>
<a class="result__snippet" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2F">Build simple, secure, scalable systems with <b>Go</b>.</a></div>`)
		}
	}))
	defer srv.Close()
	for _, provider := range []string{"searxng", "duckduckgo"} {
		o := webOptions{searchProvider: provider, searchURL: srv.URL, timeout: time.Minute}
		var out bytes.Buffer
		// WEB_SEARCH_URL is the person's choice: its loopback host is allowed.
		if err := webSearch(t.Context(), o, o.guard().client(), map[string]any{"query": "go", "max_results": 1.0}, &out); err != nil {
			t.Fatal(err)
		}
		var m struct{ Results []searchResult }
		json.Unmarshal(out.Bytes(), &m)
		want := searchResult{Title: "The Go Programming Language", URL: "https://go.dev/", Snippet: "Build simple, secure, scalable systems with Go."}
		if len(m.Results) != 1 || m.Results[0] != want {
			t.Errorf("%s results = %+v", provider, m.Results)
		}
	}
	o := webOptions{searchProvider: "searxng", timeout: time.Minute}
	if err := webSearch(t.Context(), o, o.guard().client(), map[string]any{"query": "go"}, io.Discard); err == nil || !strings.Contains(err.Error(), "needs WEB_SEARCH_URL") {
		t.Errorf("searxng without URL: %v", err)
	}
}

// TestFetchedPageSpillsText: a page longer than fetch_webpage's cap reaches
// the model as its text's head and tail under the URL, and the spill file
// holds the page's text as extracted, line for line.
func TestFetchedPageSpillsText(t *testing.T) {
	var page strings.Builder
	page.WriteString("<html><body>")
	for i := 0; page.Len() < 300000; i++ {
		fmt.Fprintf(&page, "<p>paragraph %d of the page &amp; its text</p>", i)
	}
	page.WriteString("</body></html>")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page.String())
	}))
	defer srv.Close()
	// An allowed host is allowed on its port only (netguard.go): name it.
	cfg, _ := load(t, "", nil, map[string]string{"FETCH_ALLOW_HOSTS": strings.TrimPrefix(srv.URL, "http://"), "TOOL_OUTPUT_DIR": filepath.Join(t.TempDir(), "spill")})
	tb := newToolbox(cfg.toolbox(), cfg.redactor(), &bytes.Buffer{}, nil, nil)
	m := tb.call(t.Context(), call("w", "fetch_webpage", fmt.Sprintf(`{"url": %q}`, srv.URL)))
	full, err := os.ReadFile(m.clip.onDisk())
	if err != nil || string(full) != htmlText(page.String()) {
		t.Fatalf("spill file: %v; holds %d bytes, want the page's text (%d)", err, len(full), len(htmlText(page.String())))
	}
	if !strings.HasPrefix(m.Content, "url: "+srv.URL+"\ntext:\nparagraph 0 of the page & its text\n") || strings.Contains(m.Content, `\n`) ||
		!strings.Contains(m.Content, "(the page's text as extracted") || !strings.HasSuffix(m.Content, strings.TrimSpace(string(full[len(full)-40:]))) {
		t.Errorf("fetched page as the model reads it: %.200q … %.200q", m.Content, m.Content[len(m.Content)-200:])
	}
}

// TestFetchOfflineHintIsNotAboutSearch: fetch_webpage failing to connect
// says to check the network; only web_search names SearXNG.
func TestFetchOfflineHintIsNotAboutSearch(t *testing.T) {
	var out strings.Builder
	err := fetchWebpage(t.Context(), &http.Client{}, map[string]any{"url": "http://127.0.0.1:1/page"}, &out, 5*time.Second, "test")
	if err == nil || strings.Contains(strings.ToLower(err.Error()), "searxng") || !strings.Contains(err.Error(), "check the network") {
		t.Errorf("fetch offline: %v", err)
	}
}
