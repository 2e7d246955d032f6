package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rsaBody is a private key's body, the part a judgement must not let out.
var rsaBody = strings.Repeat("MIIEpAIBAAKCAQEAx5Yb8qkZ0q3gL1PQbodyKEYBODYkeybodyKEYBODY", 3)

// rsaPEM is rsaBody armoured as a key file holds it, in lines.
var rsaPEM = "-----BEGIN RSA PRIVATE KEY-----\n" + rsaBody[:64] + "\n" + rsaBody[64:128] + "\n" + rsaBody[128:] + "\n-----END RSA PRIVATE KEY-----\n"

// TestHoldsKeySpellings: a private key is found however its body is
// spelled (the spellings CI variables, .env files, notebooks, kubeconfigs
// and Kubernetes secrets use), and documentation that names the armour,
// a certificate and a certificate base64-encoded are not keys.
func TestHoldsKeySpellings(t *testing.T) {
	oneLine := strings.ReplaceAll(strings.TrimSpace(rsaPEM), "\n", " ")
	var nb strings.Builder // a notebook's output: one JSON string per line
	for _, l := range strings.SplitAfter(rsaPEM, "\n") {
		if l != "" {
			nb.WriteString("    \"" + strings.TrimSuffix(l, "\n") + "\\n\",\n")
		}
	}
	cert := "-----BEGIN CERTIFICATE-----\n" + rsaBody + "\n-----END CERTIFICATE-----\n"
	keys := map[string]string{
		"lines":                  rsaPEM,
		"one line with spaces":   `DEPLOY_KEY="` + oneLine + `"`,
		"notebook strings":       "{\"outputs\": [{\"text\": [\n" + nb.String() + "]}]}",
		"kubeconfig base64":      "users:\n- name: a\n  user:\n    client-key-data: " + base64.StdEncoding.EncodeToString([]byte(rsaPEM)) + "\n",
		"base64 at offset 1":     "tls.key: " + base64.StdEncoding.EncodeToString([]byte("\n"+rsaPEM)),
		"base64 at offset 2":     "tls.key: " + base64.StdEncoding.EncodeToString([]byte("\n\n"+rsaPEM)),
		"base64 wrapped at 76":   wrap76(base64.StdEncoding.EncodeToString([]byte(rsaPEM))),
		"JSON-escaped":           `{"private_key": "` + strings.ReplaceAll(rsaPEM, "\n", `\n`) + `"}`,
		"AWS secret assigned":    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
		"AWS secret in JSON":     `{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}`,
		"PuTTY":                  "PuTTY-User-Key-File-3: ssh-ed25519\n",
		"after ordinary content": strings.Repeat("log line\n", 1000) + rsaPEM,
	}
	for name, s := range keys {
		if !holdsKey([]byte(s)) {
			t.Errorf("%s: the key is not found in %.120q", name, s)
		}
	}
	notKeys := map[string]string{
		"prose naming the armour": "Keys start with -----BEGIN OPENSSH PRIVATE KEY----- and end so.\n",
		"armour then prose":       "-----BEGIN RSA PRIVATE KEY-----\nthen comes the body, which we do not show here.\n",
		"a certificate":           cert,
		"a certificate in base64": "certificate-authority-data: " + base64.StdEncoding.EncodeToString([]byte(cert)),
		"ordinary base64":         base64.StdEncoding.EncodeToString([]byte(strings.Repeat("hello world ", 50))),
	}
	for name, s := range notKeys {
		if holdsKey([]byte(s)) {
			t.Errorf("%s is judged a key: %.120q", name, s)
		}
	}
}

// wrap76 breaks s into lines of 76 characters, as base64(1) writes them.
func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	return b.String() + s + "\n"
}

// TestKeyNamesByShape: key files are known by their name's shape with
// case folded, and ordinary source and config files are not.
func TestKeyNamesByShape(t *testing.T) {
	for _, n := range []string{".env", ".ENV", ".env.local", ".env-prod", ".env_local", "prod.env", "deploy.PEM", "CERT.PFX", "Server.KEY",
		"secrets.toml", "secrets.yaml", "app.secrets.json", ".dev.vars", "terraform.tfvars", "prod.auto.tfvars", ".yarnrc.yml", "ID_RSA"} {
		if !reKeyName.MatchString(n) {
			t.Errorf("%s is not named like a key", n)
		}
	}
	for _, n := range []string{"env.go", "environment.ts", "venv", ".envoy.yaml", "main.go", "README.md", "secret_test.go", "keys.go", "tokens.json", "Makefile"} {
		if reKeyName.MatchString(n) {
			t.Errorf("%s is named like a key", n)
		}
	}
}

// keyShapeAttacks read, without a terminal and under --yes, files that
// hold a key in the spellings TestHoldsKeySpellings names or are named
// like key files by shape: the body must not reach the result.
func keyShapeAttacks() []atkCase {
	read := func(name, content, mark string) atkCase {
		return atkCase{"read " + name, true, func(t *testing.T, a string) bool {
			w := newAtkWorld(t, "ws", a)
			p := filepath.Join(w.ws, name)
			os.MkdirAll(filepath.Dir(p), 0o700)
			os.WriteFile(p, []byte(content), 0o600)
			return !strings.Contains(w.tool(nil, "fs_read_file", map[string]any{"file_paths": name}), mark)
		}}
	}
	oneLine := strings.ReplaceAll(strings.TrimSpace(rsaPEM), "\n", " ")
	kube := "users:\n- name: a\n  user:\n    client-key-data: " + base64.StdEncoding.EncodeToString([]byte(rsaPEM)) + "\n"
	var nb strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(rsaPEM), "\n") {
		nb.WriteString(" \"" + l + "\\n\",\n")
	}
	return []atkCase{
		read("kubeconfig", kube, kube[60:90]),
		read("ci.txt", `DEPLOY_KEY="`+oneLine+`"`, rsaBody[:30]),
		read("notebook.ipynb", "{\"text\": [\n"+nb.String()+"]}", rsaBody[:30]),
		read("deploy.PEM", "PEM-NAMED-BY-CASE\n", "PEM-NAMED-BY-CASE"),
		read("prod.env", "DOTENV-SHAPE-SECRET=1\n", "DOTENV-SHAPE-SECRET"),
		read(".env-prod", "DOTENV-SHAPE-SECRET=1\n", "DOTENV-SHAPE-SECRET"),
		read(".streamlit/secrets.toml", "token = 'SECRETS-TOML-TOKEN'\n", "SECRETS-TOML-TOKEN"),
		read("terraform.tfvars", "db_password = \"TFVARS-SECRET\"\n", "TFVARS-SECRET"),
		read(".dev.vars", "API_TOKEN=DEV-VARS-SECRET\n", "DEV-VARS-SECRET"),
	}
}

// TestKeyShapeAttacks runs keyShapeAttacks as TestJudgeAttacks runs its own.
func TestKeyShapeAttacks(t *testing.T) {
	runAttacks(t, "key shape attacks", keyShapeAttacks())
}
