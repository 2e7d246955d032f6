package main

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// serverStart is how an MCP stdio server starts: fenced with the server
// profile (sandbox.serverStart) unless its entry in the MCP config says
// "sandbox": false, which is said on start; nil: directly, as before.
func serverStart(name string, cfg mcpServerConfig, warn io.Writer) (*shellStart, error) {
	if cfg.Sandbox != nil && !*cfg.Sandbox {
		if cfg.box != nil && cfg.box.mode != "off" {
			fmt.Fprintf(warn, "yaicli: MCP server %s runs unfenced (\"sandbox\": false in the MCP config): it can read and write whatever you can\n", sanitize(name))
		}
		if cfg.box != nil { // unfenced, and still never a program a fenced command could have planted
			return &shellStart{program: cfg.box.program}, nil
		}
		return nil, nil
	}
	st := cfg.box.serverStart(cfg.UnixSockets)
	if st.fenced() {
		st.fence.serverCaches(name) // a cache set of the server's own (fencecaches.go)
	}
	if st != nil && st.refuse != "" {
		return nil, errors.New(st.refuse)
	}
	if !st.fenced() && cfg.box != nil {
		return &shellStart{program: cfg.box.program}, nil
	}
	if !st.fenced() {
		return nil, nil
	}
	return st, nil
}

// serverStart is the fence of an MCP server: a server nobody is asked
// about, so fenced under SANDBOX=auto and strict; the places are a
// command's (no sensitive place, none of yaicli's state, writes in the
// workspace, temp and caches), TCP and UDP open (a server is a client of
// some service; what it may read is what bounds what it can send), and
// the commands' socket rules: no Unix socket (an ssh agent would sign
// with the person's keys at the server's start, before any question)
// unless unix (the entry's "unix_sockets": true).
func (s *sandbox) serverStart(unix bool) *shellStart {
	st := s.start(context.Background())
	if st.fenced() {
		st.fence.Network, st.fence.Ports, st.fence.UDP, st.fence.UnixOff = true, nil, false, !unix
	}
	return st
}
