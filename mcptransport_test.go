package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// answerMCP answers one streamable-HTTP JSON-RPC request as a server with
// one tool would: initialize, tools/list, and 202 for a notification.
func answerMCP(w http.ResponseWriter, r *http.Request) {
	var m rpcMessage
	json.NewDecoder(r.Body).Decode(&m)
	if len(m.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	switch m.Method {
	case "initialize":
		reply["result"] = map[string]any{"protocolVersion": "2025-03-26", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "redirecting", "version": "1"}}
	case "tools/list":
		reply["result"] = map[string]any{"tools": []any{map[string]any{"name": "moved", "inputSchema": map[string]any{"type": "object"}}}}
	default:
		reply["error"] = map[string]any{"code": -32601, "message": "no"}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(reply)
}

// TestMCPRedirectStaysOnOrigin: an HTTP MCP server (streamable or legacy
// SSE) that redirects its requests to a loopback-only service on another
// port reaches nothing there, with or without the configured headers, and
// the warning says why and what to do; a redirect on the server's own
// origin is followed, with its headers, and the server works.
func TestMCPRedirectStaysOnOrigin(t *testing.T) {
	var reached, stolen atomic.Int64
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		if r.Header.Get("X-Api-Key") != "" || r.Header.Get("Authorization") != "" {
			stolen.Add(1)
		}
		answerMCP(w, r) // it would even answer as a server
	}))
	defer internal.Close()
	var ownHeaders atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away", "/sse-away":
			http.Redirect(w, r, internal.URL+"/admin", http.StatusTemporaryRedirect)
		case "/moved":
			http.Redirect(w, r, "/mcp", http.StatusPermanentRedirect)
		case "/mcp":
			if r.Header.Get("X-Api-Key") == "mcp-KEY-7Hq2Lz9Wx4" {
				ownHeaders.Add(1)
			}
			answerMCP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	headers := map[string]string{"X-Api-Key": "mcp-KEY-7Hq2Lz9Wx4", "Authorization": "Bearer mcp-TOKEN-123456"}
	path := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"away":    map[string]any{"url": srv.URL + "/away", "type": "http", "headers": headers},
		"sseaway": map[string]any{"url": srv.URL + "/sse-away", "type": "sse", "headers": headers},
		"moved":   map[string]any{"url": srv.URL + "/moved", "type": "http", "headers": headers},
	}})
	os.WriteFile(path, b, 0o600)
	cfg := secretConfig()
	o := cfg.mcp("", cfg.redactor(), cfg.toolbox().fence)
	o.path, o.timeout = path, hangBound
	var warn bytes.Buffer
	hub, err := startMCP(t.Context(), o, &warn, false)
	if err != nil {
		t.Fatal(err)
	}
	tools := hub.tools()
	hub.close()
	if n := reached.Load(); n != 0 {
		t.Errorf("%d requests reached the loopback-only service on another origin (%d with the server's headers)", n, stolen.Load())
	}
	if strings.Count(warn.String(), "not on its own origin") != 2 || !strings.Contains(warn.String(), `put the new address in the server's "url"`) {
		t.Errorf("warnings = %q, want both redirects refused with what to do", warn.String())
	}
	var names []string
	for _, x := range tools {
		names = append(names, x.name)
	}
	if len(names) != 1 || names[0] != "mcp__moved__moved" || ownHeaders.Load() == 0 {
		t.Errorf("a redirect on the server's own origin: tools %v, %d requests with its headers", names, ownHeaders.Load())
	}
}
