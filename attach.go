package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Limits of what a file reference may attach.
const (
	attachMaxFile  = 1 << 20 // bytes; larger files are skipped
	attachMaxDepth = 2       // directory levels /add walks
)

// attachment is a text file attached to the conversation.
type attachment struct {
	path string
	text string
}

// collectAttachments reads a file, or the text files of a directory to
// depth 2, skipping hidden entries, .git, node_modules, links, binaries and
// files over 1 MB; every skipped item is named with the reason. Each file
// is judged and opened as the fs tools judge and open one (gate.classify:
// the kernel's resolution, the sensitive places, the content check for the
// key in use), so a workspace link to ~/.aws/credentials is not attached,
// and what is attached passes the run's redactor. A sensitive path named
// itself is an error (the person hears it on stderr).
func collectAttachments(path string, gate *permissions) ([]attachment, []string, error) {
	path = expandHome(path, gate.home) // the name kept, shown and dropped by
	rc := gate.classify(path)
	switch {
	case rc.sensitive != "":
		return nil, nil, errors.New(refusal(path, rc, gate))
	case rc.err != nil:
		return nil, nil, rc.err
	case !rc.at.mode.IsDir():
		a, why := readJudged(path, rc, gate.red)
		if why != "" {
			return nil, []string{path + ": " + why}, nil
		}
		return []attachment{a}, nil, nil
	}
	return walkAttachments(filepath.Clean(path), rc.path, gate)
}

// walkAttachments is collectAttachments of the directory real (its real
// path), named shown as the person wrote it.
func walkAttachments(shown, real string, gate *permissions) ([]attachment, []string, error) {
	var atts []attachment
	var skipped []string
	filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(real, p)
		name := filepath.Join(shown, rel)
		if err != nil {
			skipped = append(skipped, name+": "+err.Error())
			return nil
		}
		if p == real {
			return nil
		}
		if why := walkSkip(d, rel); why != "" {
			skipped = append(skipped, name+": "+why)
			return skip(d)
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil // a link is attached only when named itself, judged where it leads
		}
		rc := gate.classify(p)
		if rc.sensitive != "" {
			skipped = append(skipped, refusal(name, rc, gate))
			return nil
		}
		if a, why := readJudged(name, rc, gate.red); why != "" {
			skipped = append(skipped, name+": "+why)
		} else {
			atts = append(atts, a)
		}
		return nil
	})
	return atts, skipped, nil
}

// walkSkip says why a directory walk leaves the entry d at rel out
// (hidden, node_modules, too deep), or "".
func walkSkip(d fs.DirEntry, rel string) string {
	depth := strings.Count(rel, string(filepath.Separator)) + 1
	switch {
	case strings.HasPrefix(d.Name(), "."):
		return "hidden"
	case d.Name() == "node_modules":
		return "node_modules"
	case d.IsDir() && depth >= attachMaxDepth:
		return "deeper than 2 levels"
	}
	return ""
}

// refusal tells the person that shown, judged sensitive by gate, is not
// attached: the real place (where a link led) and the deliberate way to
// share it.
func refusal(shown string, rc readCheck, gate *permissions) string {
	where := shown
	if rc.path != filepath.Clean(lexicalAbs(shown, gate.base)) {
		where += " (really " + rc.path + ")"
	}
	return where + " is " + rc.sensitive + "; a sensitive file is never attached " +
		"(to share it deliberately, ask the model to read it: fs_read_file asks you first, every time)"
}

// readJudged reads the file rc judged, opened as judged (no link followed
// on the way, still the file judged), or says why it is skipped. Its text
// passes red: the key in use, and any 12 characters of it, are redacted.
func readJudged(shown string, rc readCheck, red *redactor) (attachment, string) {
	if !rc.at.mode.IsRegular() {
		return attachment{}, "not a regular file"
	}
	f, err := rc.open(os.O_RDONLY | syscall.O_NONBLOCK)
	if err != nil {
		return attachment{}, err.Error()
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > attachMaxFile {
		return attachment{}, fmt.Sprintf("over 1 MB (%d bytes)", st.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, attachMaxFile+1))
	switch {
	case err != nil:
		return attachment{}, err.Error()
	case len(b) > attachMaxFile:
		return attachment{}, "over 1 MB (it grew while read)"
	case bytes.IndexByte(b[:min(len(b), 8192)], 0) >= 0:
		return attachment{}, "binary"
	}
	return attachment{path: shown, text: red.text(string(b))}, ""
}

// renderAttachments is the text a model sees for attached files.
func renderAttachments(atts []attachment) string {
	var b strings.Builder
	for _, a := range atts {
		fmt.Fprintf(&b, "\n\n--- file: %s ---\n%s", a.path, a.text)
		if !strings.HasSuffix(a.text, "\n") {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "--- end of %s ---", a.path)
	}
	return b.String()
}

// atRefs finds @path and @"path with spaces" references in a prompt; an @
// inside a word (user@host) is not one.
func atRefs(prompt string) []string {
	var refs []string
	for i := 0; i < len(prompt); i++ {
		if prompt[i] != '@' || i > 0 && prompt[i-1] != ' ' && prompt[i-1] != '\n' && prompt[i-1] != '\t' {
			continue
		}
		rest := prompt[i+1:]
		var p string
		if strings.HasPrefix(rest, `"`) {
			end := strings.Index(rest[1:], `"`)
			if end < 0 {
				continue
			}
			p = rest[1 : end+1]
		} else if end := strings.IndexAny(rest, " \n\t"); end >= 0 {
			p = rest[:end]
		} else {
			p = rest
		}
		if p = strings.TrimRight(p, ",.;:!?)"); p != "" {
			refs = append(refs, p)
		}
	}
	return refs
}

// fileRefs are the @-references of a prompt that name existing files; ~
// is home.
func fileRefs(prompt, home string) []string {
	var refs []string
	for _, p := range atRefs(prompt) {
		if st, err := os.Stat(expandHome(p, home)); err == nil && !st.IsDir() {
			refs = append(refs, p)
		}
	}
	return refs
}

// missingRefs are the @-references that look like paths (a dot or a slash
// in them, or ~) but name nothing: the user meant a file and should hear it
// was not found. "@alice" is a mention and stays quiet.
func missingRefs(prompt string, gate *permissions) []string {
	var out []string
	for _, p := range atRefs(prompt) {
		if !strings.ContainsAny(p, "./~") {
			continue
		}
		if rc := gate.classify(p); rc.err != nil && errors.Is(rc.err, fs.ErrNotExist) || rc.err == nil && !rc.at.exists {
			out = append(out, "@"+p+": no such file (sent as typed)")
		}
	}
	return out
}

// expandFileRefs appends the files a prompt the person typed references
// with @ to it, and names the ones that could not be attached.
func expandFileRefs(prompt string, gate *permissions) (string, []string) {
	return expandTypedRefs(prompt, prompt, gate)
}

// expandTypedRefs appends to prompt the files that typed, the part of it
// the person typed or passed as the question, references with @, each
// judged and read by gate (collectAttachments). Text piped in (a web page,
// a log), tool output and saved chats are never read for references: a
// page that names @~/.ssh/id_ed25519 must not attach the key.
func expandTypedRefs(prompt, typed string, gate *permissions) (string, []string) {
	var atts []attachment
	problems := missingRefs(typed, gate)
	for _, ref := range atRefs(typed) {
		if rc := gate.classify(ref); !rc.at.exists && rc.sensitive == "" || rc.at.mode.IsDir() {
			continue // a mention, a missing file (told above) or a directory
		}
		a, skipped, err := collectAttachments(ref, gate)
		if err != nil {
			problems = append(problems, err.Error())
		}
		problems = append(problems, skipped...)
		atts = append(atts, a...)
	}
	return prompt + renderAttachments(atts), problems
}

// attachGate is the permissions attachments are judged by: the fs tools'
// places and rules (o) and the run's redactor, built for one prompt or /add, so
// it judges the same with the tools off (ENABLE_FUNCTIONS=false).
func attachGate(o permissionOptions, red *redactor) *permissions {
	return newPermissions(o, red, func(string) {}) // the toolbox tells the permissions file's warnings
}

// attachedHeader starts the system message that carries /add'ed files.
const attachedHeader = "Files the user attached to this session:"
