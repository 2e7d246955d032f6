package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
// depth 2, skipping hidden entries, .git, node_modules, binaries and files
// over 1 MB; every skipped item is named with the reason.
func collectAttachments(path string) ([]attachment, []string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		a, why := readAttachment(path, st.Size())
		if why != "" {
			return nil, []string{path + ": " + why}, nil
		}
		return []attachment{a}, nil, nil
	}
	var atts []attachment
	var skipped []string
	root := filepath.Clean(path)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			skipped = append(skipped, p+": "+err.Error())
			return nil
		}
		if p == root {
			return nil
		}
		name := d.Name()
		depth := strings.Count(strings.TrimPrefix(p, root+string(filepath.Separator)), string(filepath.Separator)) + 1
		switch {
		case strings.HasPrefix(name, "."):
			skipped = append(skipped, p+": hidden")
			return skip(d)
		case name == "node_modules":
			skipped = append(skipped, p+": node_modules")
			return skip(d)
		case d.IsDir() && depth >= attachMaxDepth:
			skipped = append(skipped, p+": deeper than 2 levels")
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if a, why := readAttachment(p, info.Size()); why != "" {
			skipped = append(skipped, p+": "+why)
		} else {
			atts = append(atts, a)
		}
		return nil
	})
	return atts, skipped, nil
}

// readAttachment reads one file, or says why it is skipped.
func readAttachment(path string, size int64) (attachment, string) {
	if size > attachMaxFile {
		return attachment{}, fmt.Sprintf("over 1 MB (%d bytes)", size)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return attachment{}, err.Error()
	}
	if bytes.IndexByte(b[:min(len(b), 8192)], 0) >= 0 {
		return attachment{}, "binary"
	}
	return attachment{path: path, text: string(b)}, ""
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
func missingRefs(prompt, home string) []string {
	var out []string
	for _, p := range atRefs(prompt) {
		if !strings.ContainsAny(p, "./~") {
			continue
		}
		if _, err := os.Stat(expandHome(p, home)); errors.Is(err, fs.ErrNotExist) {
			out = append(out, "@"+p+": no such file (sent as typed)")
		}
	}
	return out
}

// expandFileRefs appends the files a prompt the person typed references
// with @ to it, and names the ones that could not be attached; ~ is home.
func expandFileRefs(prompt, home string) (string, []string) {
	return expandTypedRefs(prompt, prompt, home)
}

// expandTypedRefs appends to prompt the files that typed, the part of it
// the person typed or passed as the question, references with @. Text
// piped in (a web page, a log), tool output and saved chats are never
// read for references: a page that names @~/.ssh/id_ed25519 must not
// attach the key.
func expandTypedRefs(prompt, typed, home string) (string, []string) {
	var atts []attachment
	problems := missingRefs(typed, home)
	for _, ref := range fileRefs(typed, home) {
		a, skipped, err := collectAttachments(expandHome(ref, home))
		if err != nil {
			problems = append(problems, ref+": "+err.Error())
		}
		problems = append(problems, skipped...)
		atts = append(atts, a...)
	}
	return prompt + renderAttachments(atts), problems
}

// largestAttachment names the attachment to drop first when they do not
// fit, with its size in tokens as est prices them (the model's family).
func largestAttachment(atts []attachment, est func(string) int) (string, int) {
	if len(atts) == 0 {
		return "", 0
	}
	big := slices.MaxFunc(atts, func(a, b attachment) int { return len(a.text) - len(b.text) })
	return big.path, est(big.text)
}

// attachedHeader starts the system message that carries /add'ed files.
const attachedHeader = "Files the user attached to this session:"
