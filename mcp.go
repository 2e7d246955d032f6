package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// mcpVersions are the protocol versions yaicli speaks, newest first.
var mcpVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// mcpInitTimeout bounds starting one server: spawn, initialize, tools/list.
const mcpInitTimeout = 30 * time.Second

// mcpServerConfig is one entry of mcp.json's "mcpServers", in the shape
// Claude Desktop, Cursor and YAICLI use.
type mcpServerConfig struct {
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	Cwd       string            `json:"cwd"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	Type      string            `json:"type"`
	Transport string            `json:"transport"`
	Trusted   bool              `json:"trusted"` // its tools run without approval
	Disabled  bool              `json:"disabled"`
	Sandbox   *bool             `json:"sandbox"` // false: a stdio server runs unfenced (mcpfence.go)
	// UnixSockets lets a fenced stdio server connect to Unix sockets (an
	// ssh or gpg agent, docker.sock, a desktop bus); off by default.
	UnixSockets bool `json:"unix_sockets"`
	// environ is what a stdio server inherits before its own env: the
	// run's environment without the API key (config.childEnv).
	environ []string
	workDir string   // the run's workspace: where a server without cwd starts, and what a relative cwd is under
	box     *sandbox // the run's sandbox, which fences a stdio server (nil: none)
}

// kind is the transport: stdio, http or sse.
func (s mcpServerConfig) kind() string {
	k := strings.ToLower(s.Type + s.Transport)
	switch {
	case strings.Contains(k, "sse") && !strings.Contains(k, "stream"),
		k == "" && s.Command == "" && strings.HasSuffix(strings.TrimRight(s.URL, "/"), "/sse"): // the legacy endpoint's usual name
		return "sse"
	case k == "stdio" || (k == "" && s.Command != ""):
		return "stdio"
	}
	return "http"
}

// mcpOptions is what the MCP client needs of the configuration, taken
// by its reader (config.mcp), so the client itself never reads config.
type mcpOptions struct {
	path     string                                // MCP_CONFIG, else mcp.json in the config directory
	timeout  time.Duration                         // MCP_TIMEOUT: one call's deadline
	version  string                                // yaicli's, sent as the client's
	workDir  string                                // where a server with a relative cwd starts
	childEnv func(keep map[string]string) []string // a server's environment: no secrets but what its env names
	box      *sandbox                              // fences stdio servers (nil: none)
}

// readMCPConfig reads the servers; a missing file means none.
// One that others can write is refused: it names commands to run.
func readMCPConfig(path string) (map[string]mcpServerConfig, error) {
	f, err := openTrusted(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading MCP config: %w", err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading MCP config: %w", err)
	}
	var c struct {
		MCPServers map[string]mcpServerConfig `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, jsonFileError(path, b, err)
	}
	return c.MCPServers, nil
}

// rpcMessage is any JSON-RPC 2.0 message: request, notification or response.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
	big     *bigMessage     // a response too long for memory, on disk instead of Result
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error is the server's message with its code.
func (e *rpcError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// mcpTransport carries JSON-RPC to one server: stdio or streamable HTTP.
type mcpTransport interface {
	call(ctx context.Context, method string, params any) (json.RawMessage, error)
	notify(ctx context.Context, method string, params any) error
	toolsChanged() bool // a notifications/tools/list_changed arrived since the last ask
	close()
}

// answerServer replies to a request the server sent us: ping and roots/list
// are answered, anything else is refused, as the protocol asks.
func answerServer(m rpcMessage) rpcMessage {
	out := rpcMessage{JSONRPC: "2.0", ID: m.ID}
	switch m.Method {
	case "ping":
		out.Result = json.RawMessage(`{}`)
	case "roots/list":
		// No roots: a server such as server-filesystem would otherwise
		// replace the directories its configuration grants with ours.
		out.Result = json.RawMessage(`{"roots":[]}`)
	default:
		out.Error = &rpcError{Code: -32601, Message: "method not supported by yaicli: " + m.Method}
	}
	return out
}

// mcpServer is one started server and its tools.
type mcpServer struct {
	name          string
	cfg           mcpServerConfig
	conn          mcpTransport
	version       string // the protocol version the server chose
	clientVersion string // yaicli's own, for clientInfo
	tools         []mcpTool
	err           error
}

// mcpTool is a tool as the server lists it.
type mcpTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// mcpHub owns the MCP servers of this process.
type mcpHub struct {
	servers []*mcpServer
	timeout time.Duration
}

// startMCP starts every configured server in parallel, once. A server that
// fails is reported once on warn and left out; the others keep working.
func startMCP(ctx context.Context, o mcpOptions, warn io.Writer, verbose bool) (*mcpHub, error) {
	conf, err := readMCPConfig(o.path)
	if err != nil {
		return nil, err
	}
	hub := &mcpHub{timeout: o.timeout}
	names := make([]string, 0, len(conf))
	for n, s := range conf {
		if !s.Disabled {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var wg sync.WaitGroup
	for _, n := range names {
		s := &mcpServer{name: n, cfg: conf[n], clientVersion: o.version}
		s.cfg.environ, s.cfg.workDir, s.cfg.box = o.childEnv(s.cfg.Env), o.workDir, o.box
		hub.servers = append(hub.servers, s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.err = s.start(ctx, warn, verbose)
		}()
	}
	wg.Wait()
	for _, s := range hub.servers {
		if s.err != nil {
			fmt.Fprintf(warn, "yaicli: MCP server %s: %s (its tools are left out)\n", sanitize(s.name), sanitize(s.err.Error()))
		}
	}
	return hub, nil
}

// start connects, initializes and lists the tools.
func (s *mcpServer) start(ctx context.Context, warn io.Writer, verbose bool) error {
	ctx, cancel := context.WithTimeout(ctx, mcpInitTimeout)
	defer cancel()
	var err error
	switch s.cfg.kind() {
	case "stdio":
		if s.cfg.Command == "" {
			return errors.New(`no "command" to start`)
		}
		var t *stdioTransport
		if t, err = startStdio(s.name, s.cfg, warn, verbose); err == nil {
			s.conn = t
		}
	case "http":
		if s.cfg.URL == "" {
			return errors.New(`no "url" to connect to`)
		}
		s.conn = newHTTPTransport(s.cfg)
	case "sse":
		if s.cfg.URL == "" {
			return errors.New(`no "url" to connect to`)
		}
		var t *sseTransport
		if t, err = startSSE(ctx, s.cfg); err == nil {
			s.conn = t
		}
	}
	if err != nil {
		return err
	}
	if err := s.initialize(ctx); err != nil {
		s.conn.close()
		return err
	}
	return s.listTools(ctx)
}

// initialize negotiates the protocol version and sends notifications/initialized.
func (s *mcpServer) initialize(ctx context.Context) error {
	res, err := s.conn.call(ctx, "initialize", map[string]any{
		"protocolVersion": mcpVersions[0],
		"capabilities":    map[string]any{"roots": map[string]any{"listChanged": false}},
		"clientInfo":      map[string]any{"name": "yaicli", "version": s.clientVersion},
	})
	if err != nil {
		return fmt.Errorf("initialize: %w", blame(err, "MCP server "+s.name))
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(res, &init)
	supported := false
	for _, v := range mcpVersions {
		supported = supported || v == init.ProtocolVersion
	}
	if !supported {
		return fmt.Errorf("server speaks protocol %q; yaicli speaks %s", init.ProtocolVersion, strings.Join(mcpVersions, ", "))
	}
	s.version = init.ProtocolVersion
	if h, ok := s.conn.(*httpTransport); ok {
		h.setVersion(init.ProtocolVersion)
	}
	return s.conn.notify(ctx, "notifications/initialized", nil)
}

// listTools reads every page of tools/list.
func (s *mcpServer) listTools(ctx context.Context) error {
	s.tools = nil
	cursor := ""
	for page := 0; page < 100; page++ {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		res, err := s.conn.call(ctx, "tools/list", params)
		if err != nil {
			return fmt.Errorf("tools/list: %w", blame(err, "MCP server "+s.name))
		}
		var r struct {
			Tools      []mcpTool `json:"tools"`
			NextCursor string    `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &r); err != nil {
			return fmt.Errorf("tools/list answer: %w", err)
		}
		s.tools = append(s.tools, r.Tools...)
		if cursor = r.NextCursor; cursor == "" {
			return nil
		}
	}
	return errors.New("tools/list: more than 100 pages")
}

// mcpToolName is the name the model sees: mcp__<server>__<tool>, only
// [A-Za-z0-9_-], at most 64 characters.
func mcpToolName(server, tool string) string {
	n := "mcp__" + asciiName(server) + "__" + asciiName(tool)
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// tools returns the tools of the servers that started, for the toolbox.
func (h *mcpHub) tools() []tool {
	if h == nil {
		return nil
	}
	var out []tool
	for _, s := range h.servers {
		if s.err != nil {
			continue
		}
		for _, t := range s.tools {
			schema := t.InputSchema
			if !json.Valid(schema) || len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object","properties":{}}`)
			}
			s, t := s, t
			out = append(out, tool{
				name: mcpToolName(s.name, t.Name), desc: t.Description, params: string(schema), changes: !s.cfg.Trusted, mcp: true, server: s.name,
				paths: pathArgsOf(string(schema)), // judged as read and written: fail closed
				run: func(ctx context.Context, args map[string]any, w io.Writer) error {
					return h.callTool(ctx, s, t.Name, modelArgs(args), w)
				},
			})
		}
	}
	return out
}

// modelArgs is args as the model wrote them: without what the toolbox
// left in them for a built-in's run (judgements under keys starting with
// a NUL, which decoded JSON never holds).
func modelArgs(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if !strings.HasPrefix(k, "\x00") {
			out[k] = v
		}
	}
	return out
}

// callTool runs tools/call with a timeout and writes the result's JSON text.
func (h *mcpHub) callTool(ctx context.Context, s *mcpServer, name string, args map[string]any, w io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	if args == nil {
		args = map[string]any{} // servers validate arguments; null fails where {} passes
	}
	res, err := s.conn.call(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
	var big *bigMessage
	if errors.As(err, &big) {
		return writeBig(w, s.name, name, big)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			why := "" // the plain deadline says it all; a write cut short says more
			if err != context.DeadlineExceeded {
				why = ": " + err.Error()
			}
			return fmt.Errorf("MCP server %s did not answer %s within %s (MCP_TIMEOUT)%s", s.name, name, h.timeout, why)
		}
		var le *limitError
		if errors.As(err, &le) {
			return blame(err, "MCP server "+s.name)
		}
		return fmt.Errorf("MCP server %s: %s: %w", s.name, name, err)
	}
	var r struct {
		Content           []map[string]any `json:"content"`
		StructuredContent json.RawMessage  `json:"structuredContent"`
		IsError           bool             `json:"isError"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return fmt.Errorf("MCP server %s answered %s with something that is not a tool result: %v", s.name, name, err)
	}
	text := mcpContentText(r.Content)
	if text == "" && len(r.StructuredContent) > 0 {
		text = string(r.StructuredContent)
	}
	if r.IsError {
		return writeJSON(w, map[string]any{"server": s.name, "tool": name, "success": false, "error": text})
	}
	return writeJSON(w, map[string]any{"server": s.name, "tool": name, "success": true, "content": text})
}

// mcpContentText joins text content; images and resources are summarised.
func mcpContentText(content []map[string]any) string {
	var parts []string
	for _, c := range content {
		str := func(k string) string { s, _ := c[k].(string); return s }
		switch str("type") {
		case "text":
			parts = append(parts, str("text"))
		case "image", "audio":
			parts = append(parts, fmt.Sprintf("[%s: %s, %d bytes of base64]", str("type"), str("mimeType"), len(str("data"))))
		case "resource":
			res, _ := c["resource"].(map[string]any)
			uri, _ := res["uri"].(string)
			if text, ok := res["text"].(string); ok {
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", uri, text))
			} else {
				parts = append(parts, fmt.Sprintf("[resource %s: binary]", uri))
			}
		case "resource_link":
			parts = append(parts, fmt.Sprintf("[resource link %s: %s]", str("uri"), str("name")))
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// refresh lists the tools again of every server that announced a change;
// it reports whether any tool list was read anew.
func (h *mcpHub) refresh(ctx context.Context) bool {
	if h == nil {
		return false
	}
	changed := false
	for _, s := range h.servers {
		if s.err == nil && s.conn.toolsChanged() {
			ctx, cancel := context.WithTimeout(ctx, mcpInitTimeout)
			if err := s.listTools(ctx); err == nil {
				changed = true
			}
			cancel()
		}
	}
	return changed
}

// close stops every server.
func (h *mcpHub) close() {
	if h == nil {
		return
	}
	var wg sync.WaitGroup
	for _, s := range h.servers {
		if s.conn != nil {
			wg.Add(1)
			go func() { defer wg.Done(); s.conn.close() }()
		}
	}
	wg.Wait()
}

// writeMCPList prints --list-mcp: each server, its state and its tools.
// It returns how many servers failed, so scripts can check a setup.
func writeMCPList(w io.Writer, h *mcpHub, path string) (failed int) {
	if h == nil || len(h.servers) == 0 {
		fmt.Fprintf(w, "no MCP servers configured in %s\n", path)
		return 0
	}
	for _, s := range h.servers {
		state := fmt.Sprintf("%s, protocol %s, %d tools", s.cfg.kind(), s.version, len(s.tools))
		if s.err != nil {
			state = "failed: " + s.err.Error()
			failed++
		}
		if s.cfg.Trusted {
			state += ", trusted"
		}
		// Names, descriptions and errors are the servers' words: shown safe.
		fmt.Fprintf(w, "%s (%s)\n", sanitize(s.name), sanitize(state))
		for _, t := range s.tools {
			fmt.Fprintf(w, "  %s  %s\n", sanitize(mcpToolName(s.name, t.Name)), sanitize(firstRunes(oneLine(t.Description), 80)))
		}
	}
	return failed
}
