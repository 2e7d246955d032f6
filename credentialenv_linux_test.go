package main

import (
	"slices"
	"strings"
	"testing"
)

// TestCredentialVarShapes: credential variables are known by name and by
// value; what tools and shells need to run is not taken.
func TestCredentialVarShapes(t *testing.T) {
	creds := map[string]string{"GITHUB_TOKEN": "x", "GH_TOKEN": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_SESSION_TOKEN": "x",
		"PGPASSWORD": "x", "MYSQL_PWD_PASSWD": "x", "STRIPE_API_KEY": "x", "OPENROUTER_APIKEY": "x", "SSH_KEY": "x",
		"DEPLOY_PRIVATE_KEY": "x", "GOOGLE_APPLICATION_CREDENTIALS": "/k.json", "NPM_AUTH": "x", "CI_JOB_PAT": "x",
		"DATABASE_URL": "postgres://app:db-pass-123@db.internal/app", "REDIS": "redis://default:pw@cache:6379",
		"MY_VAR": "ghp_0123456789abcdefABCDEF", "X": "AKIAIOSFODNN7EXAMPLE", "CERT": rsaPEM, "SLACK": "xoxb-123456789012-abc"}
	for k, v := range creds {
		if !credentialVar(k, v) {
			t.Errorf("%s=%.30s is not judged a credential", k, v)
		}
	}
	plain := map[string]string{"PATH": "/usr/bin:/bin", "HOME": "/home/a", "SSH_AUTH_SOCK": "/run/user/1000/ssh", "TERM": "xterm",
		"LANG": "C.UTF-8", "GOPATH": "/home/a/go", "KEYTIMEOUT": "1", "EDITOR": "vim", "HTTP_PROXY": "http://proxy:3128",
		"DATABASE_HOST": "db.internal", "GITHUB_ACTIONS": "true", "VIRTUAL_ENV": "/w/.venv", "GITHUB_TOKEN": ""}
	for k, v := range plain {
		if credentialVar(k, v) {
			t.Errorf("%s=%s is judged a credential", k, v)
		}
	}
	env := []string{"PATH=/bin", "GITHUB_TOKEN=ghp_x", "GITHUB_PERSONAL_ACCESS_TOKEN=named", "HOME=/h"}
	if got := withoutCredentials(env, map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "named"}); !slices.Equal(got, []string{"PATH=/bin", "GITHUB_PERSONAL_ACCESS_TOKEN=named", "HOME=/h"}) {
		t.Errorf("withoutCredentials = %v", got)
	}
}

// TestCredentialVarsKeptFromFencedCommands: yaicli is started with the
// person's credentials in its environment; a command run fenced (--yes)
// prints its environment, and none of them reaches the model, while the
// same command unfenced (SANDBOX=off, as one the person approved runs)
// still has them.
// An MCP server gets none but what its entry names.
func TestCredentialVarsKeptFromFencedCommands(t *testing.T) {
	slowTest(t)
	t.Parallel()
	creds := []string{"GITHUB_TOKEN=ghp_personAAAAAAAAAAAAAAAA", "AWS_SECRET_ACCESS_KEY=awsPERSONSECRETxxxxxxxxxxxxxxxxxxxxxxxxx",
		"DATABASE_URL=postgres://app:person-db-pass@db.internal/app"}
	marks := []string{"ghp_personAAAA", "awsPERSONSECRET", "person-db-pass"}
	for _, fenced := range []bool{true, false} {
		f := newFakeProvider(t, sse(toolStream(shellCall("env"))), sse(textStream("done")))
		env, _ := e2eEnv(t, f, e2e{env: creds})
		body, _ := runCommandYes(t, env, fenced, f)
		if !strings.Contains(body, "SHELL=/bin/sh") {
			t.Fatalf("fenced=%v: the command's output never reached the model", fenced)
		}
		for _, m := range marks {
			if got := strings.Contains(body, m); got == fenced {
				t.Errorf("fenced=%v: %s in what the model got = %v", fenced, m, got)
			}
		}
	}
	cfg := sandboxHome(t)
	cfg.environ = append(cfg.environ, creds...)
	cfg.environ = append(cfg.environ, "GITHUB_PERSONAL_ACCESS_TOKEN=named-for-the-server")
	server := cfg.mcp(t.TempDir(), cfg.redactor(), sandboxOptions{}).childEnv(map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "named-for-the-server"})
	joined := strings.Join(server, "\n")
	for _, m := range marks {
		if strings.Contains(joined, m) {
			t.Errorf("an MCP server's environment holds %s", m)
		}
	}
	if !strings.Contains(joined, "GITHUB_PERSONAL_ACCESS_TOKEN=named-for-the-server") {
		t.Error("an MCP server lost the variable its entry names")
	}
}
