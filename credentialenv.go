package main

import (
	"regexp"
	"strings"
)

// The fence keeps ~/.aws/credentials and ~/.config/gh from a fenced
// command; the same secrets sit in the environment as AWS_SECRET_ACCESS_KEY,
// GITHUB_TOKEN or DATABASE_URL=postgres://app:pw@db/app, and every child
// would inherit them. So a variable is judged as a file is, by its shape:
// a fenced command (run without a question) and an MCP server get none
// whose name says it holds a credential or whose value is one, unless
// named for it (an MCP server's "env"). A command the person approved
// when asked runs outside the fence with the person's environment: that
// is how a command that needs a credential gets it.

// reCredentialName matches the names credential variables take.
var reCredentialName = regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|_KEY$|_PAT$|^PAT$|_AUTH$|^AUTH$)`)

// reCredentialValue matches values that are credentials whatever their
// name: a URL with a password in it, and the prefixes hosted services
// give their tokens (GitHub, GitLab, Slack, OpenAI and Stripe style,
// AWS access key ids, Hugging Face, npm, PyPI).
var reCredentialValue = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s@:]+:[^/\s@]+@|^(ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abpr]-|sk-|sk_live_|rk_live_|hf_|npm_|pypi-)[A-Za-z0-9_-]{8,}|^AKIA[0-9A-Z]{16}$`)

// credentialVar reports whether the variable name=value holds a credential.
func credentialVar(name, value string) bool {
	return value != "" && (reCredentialName.MatchString(name) || reCredentialValue.MatchString(value) || holdsKey([]byte(value)))
}

// withoutCredentials is environ without the credential variables
// (credentialVar) that keep does not name.
func withoutCredentials(environ []string, keep map[string]string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if _, named := keep[k]; !named && credentialVar(k, v) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
