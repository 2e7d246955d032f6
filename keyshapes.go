package main

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"slices"
	"strings"
)

// What a key file looks like, by name and by content, for the one
// judgement every read goes through (sensitive.go) and the fence's walk
// (sandboxwalk.go). Names are matched with case folded: the file systems
// these files travel on (FAT, exFAT, NTFS, macOS) fold it, and Windows
// exports write DEPLOY.PEM. A dotenv is judged by its shape, not one
// spelling: .env, .env.local, .env-prod, .env_local, prod.env.

// sensitiveNames are the names of key files and credential stores
// anywhere, as regular expressions over a file's whole name: keys and
// certificates' private halves, keystores, Terraform state and variables,
// dotenv files and other secrets files, token files, histories, browser
// logins.
var sensitiveNames = []string{`id_[a-z0-9_-]+(\.pub)?`, `.*\.(pem|key|p12|pfx|jks|kdbx|keystore|ppk|tfstate|tfstate\.backup|keytab|keychain|keychain-db|gpg)`,
	`\.env([._-].*)?`, `.*\.env`, `\.envrc`, `\.dev\.vars`, `.*\.tfvars(\.json)?`, `(.*[._-])?secrets?\.(ya?ml|json|toml|ini|env)`,
	`\.netrc`, `\.pgpass`, `\.npmrc`, `\.yarnrc(\.yml)?`, `\.pypirc`, `\.git-credentials`, `\.s3cfg`, `\.vault-token`, `\.htpasswd`,
	`\.my\.cnf`, `\.boto`, `credentials(\.json|\.toml)?`, `rclone\.conf`, `.*_history`, `\..*history`, `\.histfile`, `logins\.json`,
	`key[34]\.db`, `.*\.keyring`, `Login Data`, `Cookies`, `cookies\.sqlite`, `secring\..*`}

// reKeyName matches sensitiveNames, case folded.
var reKeyName = regexp.MustCompile(`(?i)^(` + strings.Join(sensitiveNames, "|") + `)$`)

// rePrivateArmour is a private key's opening armour line.
var rePrivateArmour = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)

// reCloudSecret is PuTTY's key file and a cloud secret assigned, as a
// credentials file, a shell or JSON writes it (aws_secret_access_key = …,
// "SecretAccessKey": "…").
var reCloudSecret = regexp.MustCompile(`PuTTY-User-Key-File-[0-9]+:|(?i:"?(?:aws_?)?secret_?access_?key"?)\s*[=:]\s*"?[A-Za-z0-9/+=]{40}`)

// cloudSecretHint is what a window must hold before reCloudSecret is tried.
var cloudSecretHint = [][]byte{[]byte("PuTTY-User-Key-File-"), []byte("ecret_access_key"), []byte("ECRET_ACCESS_KEY"),
	[]byte("ecretAccessKey"), []byte("ecretaccesskey"), []byte("ECRETACCESSKEY")}

// armourBase64 are "-----BEGIN" in base64 at each of the three
// alignments it can take in an encoded file (a kubeconfig's
// client-key-data, a Kubernetes secret's tls.key): what is found there is
// decoded and judged again.
var armourBase64 = [][]byte{[]byte("LS0tLS1CRUdJ"), []byte("LS0tQkVHSU"), []byte("LS0tLUJFR0lO")}

// keyHints are what text holding a key (holdsKey) holds one of: a cheap
// look before the judgement, for a stream judged as it passes.
var keyHints = slices.Concat([][]byte{[]byte("PRIVATE KEY")}, armourBase64, cloudSecretHint)

// armourBody is how many base64 characters must follow the armour for it
// to be a key rather than documentation naming the header.
const armourBody = 64

// holdsKey reports whether b holds a private key (its armour with a body,
// however the body is spelled: lines, one line with spaces, JSON-escaped
// as a service account's key file holds it, one JSON string per line as
// a notebook holds it, or the whole PEM base64-encoded) or a cloud secret.
func holdsKey(b []byte) bool {
	for _, loc := range rePrivateArmour.FindAllIndex(b, -1) {
		if armouredBody(b[loc[1]:]) {
			return true
		}
	}
	for _, h := range armourBase64 {
		for i := 0; ; {
			j := bytes.Index(b[i:], h)
			if j < 0 {
				break
			}
			if decoded := decodeRun(b, i+j); decoded != nil && rePrivateArmour.Match(decoded) && holdsKey(decoded) {
				return true
			}
			i += j + len(h)
		}
	}
	for _, h := range cloudSecretHint {
		if bytes.Contains(b, h) {
			return reCloudSecret.Match(b)
		}
	}
	return false
}

// armouredBody reports whether what follows an armour line begins with a
// key's body: armourBody base64 characters, skipping what separates them
// in the spellings holdsKey names (spaces, line ends, escaped line ends,
// quotes and commas, a PEM header's "Proc-Type: 4,ENCRYPTED").
func armouredBody(rest []byte) bool {
	n := 0
	for i := 0; i < len(rest) && i < 4*armourBody+256; i++ {
		c := rest[i]
		switch {
		case isBase64Char(c):
			if n++; n >= armourBody {
				return true
			}
		case c == '\\' && i+1 < len(rest) && (rest[i+1] == 'n' || rest[i+1] == 'r'):
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"' || c == '\'' || c == ',' || c == ':' || c == '-':
		default:
			return false
		}
	}
	return false
}

// isBase64Char reports whether c is in the base64 alphabets (standard and
// URL-safe).
func isBase64Char(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
}

// decodeRun decodes the run of base64 (line ends allowed inside it) that
// holds b[at]: from the run's start, up to 16 KiB of it; nil when it does
// not decode.
func decodeRun(b []byte, at int) []byte {
	start := at
	for start > 0 && isBase64Char(b[start-1]) {
		start--
	}
	var run []byte
	for i := start; i < len(b) && len(run) < 16<<10; i++ {
		switch c := b[i]; {
		case isBase64Char(c) && c != '=':
			run = append(run, c)
		case c == '\n' || c == '\r' || c == '=':
		default:
			i = len(b)
		}
	}
	run = run[:len(run)/4*4]
	enc := base64.StdEncoding
	if bytes.ContainsAny(run, "-_") {
		enc = base64.URLEncoding
	}
	out := make([]byte, enc.DecodedLen(len(run)))
	n, err := enc.Decode(out, run)
	if err != nil {
		return nil
	}
	return out[:n]
}
