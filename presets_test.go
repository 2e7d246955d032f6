package main

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestAzureBase: the resource URL gets the deployment (MODEL) and the
// api-version; a deployment URL and an api-version already given stay.
func TestAzureBase(t *testing.T) {
	tests := []struct {
		base, model, want string
		wantErr           string
	}{
		{base: "https://acme.openai.azure.com", model: "gpt4o-prod",
			want: "https://acme.openai.azure.com/openai/deployments/gpt4o-prod?api-version=2024-10-21"},
		{base: "https://acme.openai.azure.com/openai/", model: "gpt4o-prod",
			want: "https://acme.openai.azure.com/openai/deployments/gpt4o-prod?api-version=2024-10-21"},
		{base: "https://acme.openai.azure.com/openai/deployments/mini", model: "gpt-4o-mini",
			want: "https://acme.openai.azure.com/openai/deployments/mini?api-version=2024-10-21"},
		{base: "https://acme.openai.azure.com/openai/deployments/mini?api-version=2025-01-01-preview", model: "x",
			want: "https://acme.openai.azure.com/openai/deployments/mini?api-version=2025-01-01-preview"},
		{base: "", model: "x", wantErr: "PROVIDER=azure needs BASE_URL"},
		{base: "acme.openai.azure.com", model: "x", wantErr: "is not a URL"},
		{base: "https://acme.openai.azure.com", model: "", wantErr: "needs MODEL"},
	}
	for _, tt := range tests {
		got, err := azureBase(tt.base, tt.model, "2024-10-21")
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("azureBase(%q, %q) error = %v, want %q", tt.base, tt.model, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("azureBase(%q, %q) = %q, %v; want %q", tt.base, tt.model, got, err, tt.want)
		}
	}
}

// azureServer is a fake Azure OpenAI resource: it answers chat completions
// under /openai/deployments/{name}/ and records path, query and headers.
type azureServer struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
}

func newAzureServer(t *testing.T) *azureServer {
	a := &azureServer{}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.reqs = append(a.reqs, r.Clone(r.Context()))
		a.mu.Unlock()
		if !strings.HasPrefix(r.URL.Path, "/openai/deployments/") || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			w.WriteHeader(404)
			w.Write([]byte(`{"error":{"code":"404","message":"Resource not found"}}`))
			return
		}
		if r.Header.Get("api-key") == "" {
			w.WriteHeader(401)
			w.Write([]byte(`{"error":{"code":"401","message":"Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."}}`))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(textStream("Hello ", "from Azure.")))
	}))
	t.Cleanup(a.srv.Close)
	return a
}

// last is the last chat request the server received.
func (a *azureServer) last(t *testing.T) *http.Request {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.reqs) - 1; i >= 0; i-- {
		if strings.HasSuffix(a.reqs[i].URL.Path, "/chat/completions") {
			return a.reqs[i]
		}
	}
	t.Fatal("no chat completions request reached the fake Azure resource")
	return nil
}

// TestAzureEndToEnd: the binary with PROVIDER=azure posts to the
// deployment's path with the api-version query and the key in api-key,
// never as a bearer token.
func TestAzureEndToEnd(t *testing.T) {
	tests := []struct {
		name, base, wantPath, wantVersion string
		env                               []string
	}{
		{name: "resource URL, MODEL is the deployment", base: "", wantPath: "/openai/deployments/gpt4o-prod/chat/completions", wantVersion: "2024-10-21"},
		{name: "deployment URL with its api-version", base: "/openai/deployments/mini?api-version=2025-01-01-preview",
			wantPath: "/openai/deployments/mini/chat/completions", wantVersion: "2025-01-01-preview"},
		{name: "AZURE_API_VERSION", base: "", env: []string{"YAI_AZURE_API_VERSION=2024-06-01"},
			wantPath: "/openai/deployments/gpt4o-prod/chat/completions", wantVersion: "2024-06-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			az := newAzureServer(t)
			env := append([]string{"YAI_PROVIDER=azure", "YAI_MODEL=gpt4o-prod", "AZURE_OPENAI_API_KEY=azure-key-0123456789abcdef",
				"YAI_BASE_URL=" + az.srv.URL + tt.base}, tt.env...)
			res := runBinary(t, nil, e2e{args: []string{"hi"}, env: env})
			if res.code != 0 || res.stdout != "Hello from Azure.\n" {
				t.Fatalf("exit %d, stdout %q, stderr %s", res.code, res.stdout, res.stderr)
			}
			r := az.last(t)
			if r.URL.Path != tt.wantPath {
				t.Errorf("path = %s, want %s", r.URL.Path, tt.wantPath)
			}
			if v := r.URL.Query().Get("api-version"); v != tt.wantVersion {
				t.Errorf("api-version = %q, want %q", v, tt.wantVersion)
			}
			if k := r.Header.Get("api-key"); k != "azure-key-0123456789abcdef" {
				t.Errorf("api-key header = %q, want the AZURE_OPENAI_API_KEY value", k)
			}
			if a := r.Header.Get("Authorization"); a != "" {
				t.Errorf("Authorization = %q, want none (Azure takes api-key)", a)
			}
		})
	}
}

// TestAzureEndpointVariable: without BASE_URL, AZURE_OPENAI_ENDPOINT (as
// Azure's SDKs read it) names the resource; with neither, exit 2 saying
// what to set, before any request.
func TestAzureEndpointVariable(t *testing.T) {
	az := newAzureServer(t)
	res := runBinary(t, nil, e2e{args: []string{"hi"}, env: []string{"YAI_PROVIDER=azure", "YAI_MODEL=dep1",
		"AZURE_OPENAI_API_KEY=azure-key-0123456789abcdef", "AZURE_OPENAI_ENDPOINT=" + az.srv.URL + "/"}})
	if res.code != 0 || az.last(t).URL.Path != "/openai/deployments/dep1/chat/completions" {
		t.Fatalf("exit %d, stderr %s", res.code, res.stderr)
	}
	res = runBinary(t, nil, e2e{args: []string{"hi"}, env: []string{"YAI_PROVIDER=azure", "AZURE_OPENAI_API_KEY=k"}})
	if res.code != exitUsage || !strings.Contains(res.stderr, "PROVIDER=azure needs BASE_URL") {
		t.Errorf("without an endpoint: exit %d, stderr %q; want 2 naming BASE_URL", res.code, res.stderr)
	}
	res = runBinary(t, nil, e2e{args: []string{"hi"}, env: []string{"YAI_PROVIDER=azure", "YAI_BASE_URL=https://acme.openai.azure.com"}})
	if res.code != exitUsage || !strings.Contains(res.stderr, "AZURE_OPENAI_API_KEY") {
		t.Errorf("without a key: exit %d, stderr %q; want 2 naming AZURE_OPENAI_API_KEY", res.code, res.stderr)
	}
}

// TestListProvidersAzure: --list-providers shows the deployment URL's
// shape and the key variable.
func TestListProvidersAzure(t *testing.T) {
	var b strings.Builder
	writeProviders(&b)
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "azure ") {
			if !strings.Contains(line, azureTemplate) || !strings.HasSuffix(line, "needs AZURE_OPENAI_API_KEY") {
				t.Errorf("azure line = %q", line)
			}
			return
		}
	}
	t.Errorf("--list-providers has no azure line:\n%s", b.String())
}

// TestHostedPresets: each hosted preset YAICLI users name resolves to its
// documented endpoint, takes its key from its conventional variable, and
// is listed by --list-providers with both.
func TestHostedPresets(t *testing.T) {
	var list strings.Builder
	writeProviders(&list)
	for _, p := range []struct{ name, url, keyEnv string }{
		{"cerebras", "https://api.cerebras.ai/v1", "CEREBRAS_API_KEY"},
		{"fireworks", "https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"},
		{"sambanova", "https://api.sambanova.ai/v1", "SAMBANOVA_API_KEY"},
		{"nvidia", "https://integrate.api.nvidia.com/v1", "NVIDIA_API_KEY"},
		{"huggingface", "https://router.huggingface.co/v1", "HF_TOKEN"},
		{"cohere", "https://api.cohere.ai/compatibility/v1", "COHERE_API_KEY"},
	} {
		env := map[string]string{"YAI_PROVIDER": p.name, p.keyEnv: "k-" + p.name}
		c, _ := load(t, "", env, nil)
		if got := c.baseURL(); got != p.url {
			t.Errorf("%s: base URL %q, want %q", p.name, got, p.url)
		}
		if c.APIKey != "k-"+p.name || c.apiKeySource != "env "+p.keyEnv {
			t.Errorf("%s: key %q from %q, want it from %s", p.name, c.APIKey, c.apiKeySource, p.keyEnv)
		}
		bare, _ := load(t, "", map[string]string{"YAI_PROVIDER": p.name}, nil)
		if err := checkAPIKey(bare); err == nil || !strings.Contains(err.Error(), p.keyEnv) {
			t.Errorf("%s without a key: %v, want an error naming %s", p.name, err, p.keyEnv)
		}
		if !matches(`(?m)^`+p.name+`\s+`+regexp.QuoteMeta(p.url)+`\s+needs `+p.keyEnv+`$`, list.String()) {
			t.Errorf("--list-providers lacks %s with %s and %s:\n%s", p.name, p.url, p.keyEnv, list.String())
		}
	}
}

// TestREADMEListsKeyVariables: every preset's key variable is in the
// configuration guide's list, and the README and the developers' guide
// say how long the tests take and that -race needs cgo.
func TestREADMEListsKeyVariables(t *testing.T) {
	conf := docText(t, docConfiguration)
	for _, n := range presetNames() {
		if v := presets[n].keyEnv; v != "" && !strings.Contains(conf, "`"+v+"`") {
			t.Errorf("%s does not list %s (provider %s)", docConfiguration, v, n)
		}
	}
	for _, doc := range []string{"README.md", docDeveloping} {
		text := docText(t, doc)
		for _, want := range []string{"The suite takes about three minutes under `-race`", "`-race` needs cgo"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q", doc, want)
			}
		}
	}
}
