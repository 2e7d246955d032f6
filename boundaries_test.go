package main

import (
	"slices"
	"strings"
	"testing"
)

// part is a piece of the package that could be a package of its own and
// is kept as one without being one (the design card asks for one flat
// package main): its files, and the names of the rest of the package it
// may use, as file:name (a method as file:Type.method, a field as
// file:.field). Each name is a door into the rest; adding one is a
// decision, made here, not an accident.
type part struct {
	name  string
	files []string
	may   []string
}

// walledParts are the pieces whose doors TestPartsKeepTheirDoors counts.
var walledParts = []part{
	{"the token estimator", []string{"tokenscan.go", "tokenenglish.go", "tokenblanks.go", "tokenscripts.go", "tokenfamily.go"}, []string{
		// it prices messages and tool schemas, and an image part's tokens
		"conversation.go:.Arguments", "conversation.go:.Content", "conversation.go:.Description", "conversation.go:.Function",
		"conversation.go:.Name", "conversation.go:.Parameters", "conversation.go:.ToolCalls", "conversation.go:message",
		"conversation.go:toolSpec", "images.go:imagesTokens",
	}},
	{"the Markdown renderer", []string{"markdown.go", "mdinline.go", "mdwrap.go", "mdtable.go", "highlight.go"}, []string{
		// the terminal's safety and cell widths (its settings come as renderOptions)
		"termsafe.go:isControl", "termsafe.go:sanitize",
		"width.go:lsb8", "width.go:msb8", "width.go:printable8", "width.go:runeWidth", "width.go:stringWidth",
		"width.go:tabbedLen", "width.go:word8", "width.go:writeTabsTo", "width.go:boolInt", "width.go:spaces",
	}},
	{"the provider client", []string{"provider.go", "streamassemble.go", "thinktags.go", "idleread.go", "openaiwire.go", "anthropic.go", "ollamawire.go", "apierror.go", "ssefast.go"}, []string{
		// (its settings come as clientOptions) the conversation it sends and the answer it builds
		"conversation.go:.Arguments", "conversation.go:.Content", "conversation.go:.Data", "conversation.go:.Description",
		"conversation.go:.Function", "conversation.go:.ID", "conversation.go:.Name", "conversation.go:.Parameters",
		"conversation.go:roleAssistant", "conversation.go:roleSystem", "conversation.go:roleTool", "conversation.go:roleUser",
		// the providers whose name changes the wire
		"presets.go:providerAnthropic", "presets.go:providerAzure", "presets.go:providerOllama", "presets.go:providerOpenAI",
		"conversation.go:.Role", "conversation.go:.Signature", "conversation.go:.Thinking", "conversation.go:.ToolCallID",
		"conversation.go:.ToolCalls", "conversation.go:.Type", "conversation.go:.data", "conversation.go:.images",
		"conversation.go:.mediaType", "conversation.go:.reasoning", "conversation.go:.thinking", "conversation.go:.url",
		"conversation.go:functionCall", "conversation.go:imagePart", "conversation.go:message", "conversation.go:thinkingBlock",
		"conversation.go:toolCall", "conversation.go:toolSpec", "images.go:hasImages", "images.go:imagePart.dataURL", "images.go:imagePart.label",
		// the size limits of what a provider sends, and the kinds of its errors
		"limits.go:.limit", "limits.go:.side", "limits.go:.what", "limits.go:blame", "limits.go:brokenPeer", "limits.go:limitError",
		"limits.go:maxAnswerText", "limits.go:maxBody", "limits.go:maxSSEEvent", "limits.go:maxToolArgs", "limits.go:maxToolCalls",
		"limits.go:peerError", "errclass.go:.raw", "errclass.go:kindOf", "errclass.go:readError",
		// what is known of each provider, the optional settings, SSE, and the proxy of the environment
		"presets.go:.baseURL", "presets.go:.start", "presets.go:marksParts", "presets.go:presets", "presets.go:takesCacheKey",
		"sampling.go:.CacheTTL", "sampling.go:.FrequencyPenalty", "sampling.go:.NumCtx", "sampling.go:.PresencePenalty",
		"sampling.go:.PromptCache", "sampling.go:.Seed", "sampling.go:.TopK", "sampling.go:anthropicThinking",
		"sampling.go:openaiSampling", "sampling.go:sampling",
		"sse.go:.data", "sse.go:.name", "sse.go:newSSEReader", "sse.go:sseReader.next", "edge.go:envProxy",
		// the usage each wire reports, in the one shape
		"usage.go:usage", "usage.go:.PromptTokens", "usage.go:.CompletionTokens", "usage.go:.CachedTokens", "usage.go:.CacheWriteTokens",
	}},
	{"the MCP client", []string{"mcp.go", "mcptransport.go", "rpcread.go"}, []string{
		// (its settings and the children's environment come as mcpOptions)
		// the size limits of what a server sends, and SSE for its HTTP transport
		"limits.go:.limit", "limits.go:.what", "limits.go:blame", "limits.go:limitError", "limits.go:maxRPCMessage",
		"limits.go:maxRPCSpill", "limits.go:sizeText", "sse.go:.data", "sse.go:.name", "sse.go:newSSEReader", "sse.go:sseReader.next",
		// a server's stderr made safe for the terminal, its tools in the toolbox's shape
		"termsafe.go:.w", "termsafe.go:sanitize", "termsafe.go:termWriter", "jsonout.go:writeJSON",
		"tools.go:.changes", "tools.go:.desc", "tools.go:.mcp", "tools.go:.name", "tools.go:.params", "tools.go:.run", "tools.go:.server",
		"tools.go:.paths", "tools.go:pathArgsOf", "toolbox.go:oneLine", "tools.go:tool", "spill.go:asciiName", "width.go:firstRunes",
		// mcp.json read only if no one else can write it, its faults said at their line and column
		"trustedfile.go:openTrusted", "jsonplace.go:jsonFileError",
		// a stdio server started fenced, as a command is
		"sandbox.go:sandbox", "shellstart.go:shellStart", "shellstart.go:shellStart.environ", "shellstart.go:shellStart.fenced",
		"shellstart.go:shellStart.done", "sandbox_linux.go:shellStart.serverCommand", "mcpfence.go:serverStart",
		// an HTTP server's connections under the web tools' address rules, its own host and port allowed
		"netguard.go:netGuard", "netguard.go:allowEntries", "netguard.go:.allowHosts", "netguard.go:.environ",
		"netguard.go:netGuard.client", "redact.go:maskUserinfo",
	}},
}

// TestPartsKeepTheirDoors fails when a part uses a name of the rest of the
// package that its list does not name (a new door: name it, or use one it
// has), and when its list names one it no longer uses (take it off).
func TestPartsKeepTheirDoors(t *testing.T) {
	t.Parallel()
	uses := packageUses(t)
	for _, p := range walledParts {
		used := map[string]bool{}
		for _, u := range uses {
			if slices.Contains(p.files, u.from) && !slices.Contains(p.files, u.to) {
				used[u.to+":"+u.name] = true
			}
		}
		for door := range used {
			if !slices.Contains(p.may, door) {
				t.Errorf("%s uses %s, which its list in boundaries_test.go does not name: name it there, or keep to the names it has", p.name, door)
			}
		}
		for _, door := range p.may {
			if !used[door] {
				t.Errorf("%s no longer uses %s: take it off its list in boundaries_test.go", p.name, door)
			}
		}
	}
}

// TestPartsKeepTheirDoorsCanFail: the count sees a use across a part's
// edge (the estimator prices messages, so it uses conversation.go's
// message type).
func TestPartsKeepTheirDoorsCanFail(t *testing.T) {
	t.Parallel()
	found := false
	for _, u := range packageUses(t) {
		found = found || strings.HasPrefix(u.from, "token") && u.to == "conversation.go" && u.name == "message"
	}
	if !found {
		t.Error("packageUses does not see tokenfamily.go's use of conversation.go's message type")
	}
}
