package main

import (
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
)

// The providers whose name changes what yaicli does (the wire format, the
// fields sent, the key's variable); the other presets are OpenAI-compatible
// servers told apart by their URL only (the presets below).
const (
	providerOpenAI    = "openai"
	providerAnthropic = "anthropic"
	providerOllama    = "ollama"
	providerGemini    = "gemini"
	providerAzure     = "azure"
)

// preset is a provider's default endpoint, the environment variable that
// conventionally holds its key ("" for local servers that need none), and
// for local servers how one usually starts it (for the hint when nothing
// listens at its address).
type preset struct {
	baseURL string
	keyEnv  string
	start   string
}

// presets are the providers yaicli knows by name; all but anthropic speak
// OpenAI's chat completions format.
var presets = map[string]preset{
	"openai":      {"https://api.openai.com/v1", "OPENAI_API_KEY", ""},
	"anthropic":   {"https://api.anthropic.com/v1", "ANTHROPIC_API_KEY", ""},
	"deepseek":    {"https://api.deepseek.com/v1", "DEEPSEEK_API_KEY", ""},
	"groq":        {"https://api.groq.com/openai/v1", "GROQ_API_KEY", ""},
	"openrouter":  {"https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", ""},
	"together":    {"https://api.together.xyz/v1", "TOGETHER_API_KEY", ""},
	"xai":         {"https://api.x.ai/v1", "XAI_API_KEY", ""},
	"mistral":     {"https://api.mistral.ai/v1", "MISTRAL_API_KEY", ""},
	"moonshot":    {"https://api.moonshot.ai/v1", "MOONSHOT_API_KEY", ""},
	"siliconflow": {"https://api.siliconflow.cn/v1", "SILICONFLOW_API_KEY", ""},
	"dashscope":   {"https://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY", ""},
	"gemini":      {"https://generativelanguage.googleapis.com/v1beta/openai", "GEMINI_API_KEY", ""},
	"cerebras":    {"https://api.cerebras.ai/v1", "CEREBRAS_API_KEY", ""},
	"fireworks":   {"https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY", ""},
	"sambanova":   {"https://api.sambanova.ai/v1", "SAMBANOVA_API_KEY", ""},
	"nvidia":      {"https://integrate.api.nvidia.com/v1", "NVIDIA_API_KEY", ""},
	"huggingface": {"https://router.huggingface.co/v1", "HF_TOKEN", ""},
	"cohere":      {"https://api.cohere.ai/compatibility/v1", "COHERE_API_KEY", ""},
	"azure":       {azureTemplate, "AZURE_OPENAI_API_KEY", ""},
	"ollama":      {"http://localhost:11434/v1", "", "ollama serve"},
	"lmstudio":    {"http://localhost:1234/v1", "", "lms server start"},
	"llamacpp":    {"http://localhost:8080/v1", "", "llama-server -m MODEL.gguf"},
	"vllm":        {"http://localhost:8000/v1", "", "vllm serve MODEL"},
}

// takesCacheKey reports whether the provider routes by prompt_cache_key:
// OpenAI's own endpoint does; others may refuse a field they do not know,
// so it is not sent to them (EXCLUDE_PARAMS=prompt_cache_key removes it
// too, for a proxy under PROVIDER=openai that refuses it).
func takesCacheKey(provider string) bool { return provider == providerOpenAI }

// marksParts reports whether the endpoint is an Anthropic model behind
// OpenAI's wire that takes cache_control on content parts: OpenRouter's
// anthropic/ models.
func marksParts(provider, model string) bool {
	return provider == "openrouter" && strings.HasPrefix(strings.ToLower(model), "anthropic/")
}

// presetNames lists the presets alphabetically.
func presetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// writeProviders prints the presets: name, default URL, key variable, in
// columns as wide as the longest of each.
func writeProviders(w io.Writer) {
	width := 0
	for _, p := range presets {
		width = max(width, len(p.baseURL))
	}
	for _, n := range presetNames() {
		p := presets[n]
		key := "needs " + p.keyEnv
		if p.keyEnv == "" {
			key = "no key (local)"
		}
		fmt.Fprintf(w, "%-11s %-*s %s\n", n, width, p.baseURL, key)
	}
}

// Azure OpenAI serves each model as a deployment of a resource:
// https://RESOURCE.openai.azure.com/openai/deployments/DEPLOYMENT/chat/completions?api-version=V,
// with the key in an api-key header instead of a bearer token.
const (
	// azureTemplate is the preset's URL as --list-providers shows it.
	azureTemplate = "https://{resource}.openai.azure.com/openai/deployments/{deployment}"
	// azureEndpointEnv is where Azure's own SDKs read the resource URL
	// from, used when BASE_URL is empty.
	azureEndpointEnv = "AZURE_OPENAI_ENDPOINT"
)

// azureBase is the deployment URL requests go to, with its api-version
// query: BASE_URL (else $AZURE_OPENAI_ENDPOINT) is either the resource
// (https://RESOURCE.openai.azure.com, and MODEL names the deployment) or
// the deployment's URL; an api-version already in it wins over
// AZURE_API_VERSION.
func azureBase(base, model, version string) (string, error) {
	if base == "" {
		return "", fmt.Errorf("PROVIDER=azure needs BASE_URL (or $%s): https://RESOURCE.openai.azure.com, with MODEL naming the deployment, or the deployment's URL %s", azureEndpointEnv, azureTemplate)
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("BASE_URL %q for PROVIDER=azure is not a URL like https://RESOURCE.openai.azure.com", maskUserinfo(base))
	}
	path := strings.TrimRight(u.Path, "/")
	if !strings.Contains(path, "/deployments/") {
		if model == "" {
			return "", fmt.Errorf("PROVIDER=azure with BASE_URL %s needs MODEL: the deployment's name", maskUserinfo(base))
		}
		path = strings.TrimSuffix(path, "/openai") + "/openai/deployments/" + url.PathEscape(model)
	}
	u.Path, u.RawPath = path, ""
	q := u.Query()
	if q.Get("api-version") == "" {
		q.Set("api-version", version)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// checkBaseURL refuses a BASE_URL no request can go to, before any is
// sent: without http:// or https:// in front ("127.0.0.1:8080/v1" reads as
// a scheme "127.0.0.1", "myhost/v1" as a path), or without a host. ""
// stands for the provider's default.
func checkBaseURL(base string) error {
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	scheme, _, ok := strings.Cut(base, "://")
	switch {
	case !ok:
		shown := strings.TrimPrefix(maskUserinfo("http://"+base), "http://") // user:password@ stays hidden
		return fmt.Errorf("BASE_URL %s has no http:// or https:// in front: add http:// (BASE_URL=http://%s), or https:// for a server that needs it", shown, shown)
	case scheme != "http" && scheme != "https":
		return fmt.Errorf("BASE_URL %s starts with %s://: use http:// or https://", maskUserinfo(base), scheme)
	}
	return fmt.Errorf("BASE_URL %s is not a URL like http://HOST:PORT/v1", maskUserinfo(base))
}
