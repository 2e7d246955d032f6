package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// moreKey is a key as providers issue them, for the spellings of issue 47's
// attack report (B7, B13, B17).
const moreKey = "sk-proj-Hq3ZtR8vLw2NcY6pKx9BmD4s"

// toolPath is text as the shell tool's output reaches the provider: through
// the clipper's stream redactor in 32 KiB writes, then as a tool result of a
// request (r.request: the text again, packed blobs, the session's pieces).
func toolPath(r *redactor, text string) string {
	var b bytes.Buffer
	w := newRedactWriter(&b, r)
	for p := text; len(p) > 0; p = p[min(32<<10, len(p)):] {
		w.Write([]byte(p[:min(32<<10, len(p))]))
	}
	w.(*redactWriter).Close()
	return r.request(chatRequest{Messages: []message{{Role: roleTool, Content: b.String()}}}).Messages[0].Content
}

// wrapped cuts s into lines of n, as base64 and basenc do.
func wrapped(s string, n int) string { return fold(s, n) + "\n" }

// odWords is b as od -An -x (offsets false) or hexdump (true) prints it:
// 16-bit little-endian words, eight a line.
func odWords(b []byte, offsets bool) string {
	if len(b)%2 == 1 {
		b = append(b, 0)
	}
	var s strings.Builder
	for i := 0; i < len(b); i += 2 {
		if i%16 == 0 {
			if i > 0 {
				s.WriteString("\n")
			}
			if offsets {
				fmt.Fprintf(&s, "%07x", i)
			}
		}
		fmt.Fprintf(&s, " %02x%02x", b[i+1], b[i])
	}
	if offsets {
		fmt.Fprintf(&s, "\n%07x", len(b))
	}
	return s.String() + "\n"
}

// xxdDump is b as xxd prints it: offset, eight groups of two bytes, the
// characters.
func xxdDump(b []byte) string {
	var s strings.Builder
	for i := 0; i < len(b); i += 16 {
		line := b[i:min(i+16, len(b))]
		h := hex.EncodeToString(line)
		var groups []string
		for j := 0; j < len(h); j += 4 {
			groups = append(groups, h[j:min(j+4, len(h))])
		}
		asc := bytes.Map(func(r rune) rune {
			if r < 0x20 || r > 0x7e {
				return '.'
			}
			return r
		}, line)
		fmt.Fprintf(&s, "%08x: %-40s %s\n", i, strings.Join(groups, " "), asc)
	}
	return s.String()
}

// odBytes is b as od -An -tx1 prints it.
func odBytes(b []byte) string {
	var s strings.Builder
	for i, c := range b {
		if i > 0 && i%16 == 0 {
			s.WriteString("\n")
		}
		fmt.Fprintf(&s, " %02x", c)
	}
	return s.String() + "\n"
}

// uuencode is b as uuencode writes it (GNU: ` for a zero).
func uuencode(b []byte) string {
	var s strings.Builder
	s.WriteString("begin 644 settings.yaml\n")
	for i := 0; i < len(b); i += 45 {
		line := b[i:min(i+45, len(b))]
		s.WriteByte(0x20 + byte(len(line)))
		s.WriteString(uuencoded(line))
		s.WriteString("\n")
	}
	return s.String() + "`\nend\n"
}

// gz is s compressed by gzip.
func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// mapped is s with each byte's rune from f.
func mapped(s string, f func(c byte) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(f(s[i]))
	}
	return b.String()
}

// config is a settings file of n lines that holds key.
func configFile(key string) string {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "setting_%d: value\n", i)
	}
	return b.String() + "api_key: " + key + "\n"
}

var hexByte = regexp.MustCompile(`(?i)(?:0x|\\x\{|\\U0*)([0-9a-f]+)`)

// decodings are what can be read back from got as each of the spellings
// writes the key: every piece between marks decoded at every alignment.
func decodings(got string) string {
	var out strings.Builder
	out.WriteString(got)
	for _, m := range hexByte.FindAllStringSubmatch(got, -1) {
		v, _ := strconv.ParseUint(m[1], 16, 32)
		out.WriteRune(rune(v))
	}
	out.WriteString("\n")
	for _, w := range regexp.MustCompile(`\b[0-9a-f]{4}\b`).FindAllString(got, -1) {
		b, _ := hex.DecodeString(w)
		out.Write([]byte{b[1], b[0]})
	}
	out.WriteString("\n")
	out.WriteString(strings.Map(func(r rune) rune { // mathematical bold and circled back to ASCII
		switch {
		case r >= 0x1d41a && r <= 0x1d433:
			return 'a' + r - 0x1d41a
		case r >= 0x1d400 && r <= 0x1d419:
			return 'A' + r - 0x1d400
		case r >= 0x1d7ce && r <= 0x1d7d7:
			return '0' + r - 0x1d7ce
		case r >= 0x24d0 && r <= 0x24e9:
			return 'a' + r - 0x24d0
		case r >= 0x24b6 && r <= 0x24cf:
			return 'A' + r - 0x24b6
		case r >= 0x2460 && r <= 0x2468:
			return '1' + r - 0x2460
		case r == 0x24ea:
			return '0'
		}
		return r
	}, got))
	for _, seg := range strings.Split(got, redactedMark) {
		clean := func(alphabet string) string {
			return strings.Map(func(r rune) rune {
				if strings.ContainsRune(alphabet, r) {
					return r
				}
				return -1
			}, seg)
		}
		b64 := clean("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
		b32 := clean("0123456789ABCDEFGHIJKLMNOPQRSTUV")
		for a := 0; a < 8; a++ {
			if a < 4 && a < len(b64) {
				s := b64[a:]
				b, _ := base64.RawStdEncoding.DecodeString(s[:len(s)/4*4])
				out.Write(bytes.ReplaceAll(b, []byte{0}, nil))
				out.WriteString("\n")
			}
			if a < len(b32) {
				s := b32[a:]
				b, _ := base32.HexEncoding.WithPadding(base32.NoPadding).DecodeString(s[:len(s)/8*8])
				out.Write(b)
				out.WriteString("\n")
			}
		}
		for _, line := range strings.Split(seg, "\n") { // uuencode's lines, at each alignment
			for a := 0; a < 4 && a < len(line); a++ {
				for j := a; j+4 <= len(line); j += 4 {
					var v uint
					for _, c := range []byte(line[j : j+4]) {
						v = v<<6 | uint(c-0x20)&0x3f
					}
					out.Write([]byte{byte(v >> 16), byte(v >> 8), byte(v)})
				}
				out.WriteString("\n")
			}
		}
	}
	return out.String()
}

// TestRedactorMoreSpellings: the run's key in each spelling the attack
// report found passing (B7, B17) reaches the provider through the shell
// tool's path with neither the key nor 12 of its characters in a row
// readable back from it, and a compressed blob of it leaves none of its
// lines.
func TestRedactorMoreSpellings(t *testing.T) {
	key := moreKey
	line := "api_key: " + key + "\n"
	cfg := configFile(key)
	var tarball bytes.Buffer
	tw := tar.NewWriter(&tarball)
	tw.WriteHeader(&tar.Header{Name: "config.yaml", Mode: 0o644, Size: int64(len(cfg))})
	tw.Write([]byte(cfg))
	tw.Close()
	bold := func(c byte) string {
		switch {
		case c >= 'a' && c <= 'z':
			return string(rune(0x1d41a + int(c-'a')))
		case c >= 'A' && c <= 'Z':
			return string(rune(0x1d400 + int(c-'A')))
		case c >= '0' && c <= '9':
			return string(rune(0x1d7ce + int(c-'0')))
		}
		return string(c)
	}
	circled := func(c byte) string {
		switch {
		case c >= 'a' && c <= 'z':
			return string(rune(0x24d0 + int(c-'a')))
		case c >= 'A' && c <= 'Z':
			return string(rune(0x24b6 + int(c-'A')))
		case c == '0':
			return "⓪"
		case c >= '1' && c <= '9':
			return string(rune(0x2460 + int(c-'1')))
		}
		return string(c)
	}
	u16 := utf16Of([]byte(key), false)
	blobs := map[string]string{
		"gzip | base64":              wrapped(base64.StdEncoding.EncodeToString(gz(cfg)), 76),
		"tar cz | base64":            wrapped(base64.StdEncoding.EncodeToString(gz(tarball.String())), 76),
		"gzip | base64 -w 20":        wrapped(base64.StdEncoding.EncodeToString(gz(cfg)), 20),
		"gzip | xxd":                 xxdDump(gz(cfg)),
		"gzip | od -An -tx1":         odBytes(gz(cfg)),
		"gzip | hexdump":             odWords(gz(cfg), true),
		"key past 1 MiB, base64 -w0": base64.StdEncoding.EncodeToString(gz(strings.Repeat("\x00", 1100000)+cfg)) + "\n",
	}
	cases := map[string]string{
		"od -An -x":                  odWords([]byte(key), false),
		"od -An -x of the line":      odWords([]byte(line), false),
		"hexdump":                    odWords([]byte(line), true),
		"od -An -tx4":                mapped(string(swappedWords([]byte(line), 4)), func(c byte) string { return fmt.Sprintf("%02x", c) }),
		"xxd -i":                     mapped(key, func(c byte) string { return fmt.Sprintf("0x%02x, ", c) }),
		"uuencode":                   uuencode([]byte(line)),
		"basenc --base32hex":         wrapped(base32.HexEncoding.EncodeToString([]byte(line)), 76),
		"iconv -t utf-16le | base64": base64.StdEncoding.EncodeToString(u16) + "\n",
		"utf-16le | base64 at 1":     base64.StdEncoding.EncodeToString(append([]byte("a\x00"), u16...)),
		"utf-16le | xxd -p":          hex.EncodeToString(u16),
		"mathematical bold":          mapped(key, bold),
		"circled":                    mapped(key, circled),
		`\U00000073`:                 mapped(key, func(c byte) string { return fmt.Sprintf(`\U%08x`, c) }),
		`\x{73}`:                     mapped(key, func(c byte) string { return fmt.Sprintf(`\x{%x}`, c) }),
		`\u{73}`:                     mapped(key, func(c byte) string { return fmt.Sprintf(`\u{%x}`, c) }),
		"JSON surrogates of bold":    mapped(key, func(c byte) string { return strings.Trim(strconv.QuoteToASCII(bold(c)), `"`) }),
	}
	for name, s := range blobs {
		cases[name] = s
	}
	for name, text := range cases {
		r := (&config{Provider: "openai", APIKey: key}).redactor()
		got := toolPath(r, "$ cmd\n"+text+"done\n")
		back := decodings(got)
		for i := 0; i+minRun <= len(key); i++ {
			if strings.Contains(back, key[i:i+minRun]) {
				t.Errorf("%s: %q reads back from what was sent: %.300q", name, key[i:i+minRun], got)
				break
			}
		}
		if !strings.HasPrefix(got, "$ cmd\n") || !strings.HasSuffix(got, "done\n") {
			t.Errorf("%s: the lines around it went: %.200q", name, got)
		}
		if _, ok := blobs[name]; ok {
			lines := strings.Split(strings.TrimSpace(text), "\n")
			for _, l := range lines[min(1, len(lines)-1) : len(lines)-1] {
				if strings.Contains(got, l) {
					t.Errorf("%s: a line of the blob was sent: %q", name, l)
					break
				}
			}
			if len(lines) == 1 && strings.Contains(got, lines[0][20:60]) {
				t.Errorf("%s: the blob was sent", name)
			}
		}
	}
}

// TestRedactorMoreSpareText: ordinary text near the new spellings stays:
// C hex literals of other bytes, an address, circled numbers in a list,
// superscripts in prose, a gzip blob of other text, escapes of other code
// points.
func TestRedactorMoreSpareText(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: moreKey}).redactor()
	for _, s := range []string{
		"unsigned char buf[] = {0x00, 0x01, 0x7f, 0xff, 0x10};",
		"listen 0x7f000001:8080, mask 0xffffff00",
		"① install ② configure ③ run — x² + y³ = z⁴, ⓐ ⓑ ⓒ",
		`print("\U0001F600 \x{263A} \u{1F4A9}")`,
		"𝐁𝐨𝐥𝐝 𝐭𝐞𝐱𝐭 in a heading",
		base64.StdEncoding.EncodeToString(gz(strings.Repeat("an ordinary log line\n", 50))),
		xxdDump(gz("an ordinary file\n")),
	} {
		if got := toolPath(r, s); got != s {
			t.Errorf("%.80q changed: %.200q", s, got)
		}
	}
}

// TestFragmentsCountOneClassPieces: a piece of one class of characters
// (lower-case letters of the key's secret part) is not redacted, as words
// share such pieces by chance, but it is counted: eight characters plain
// then the next eight as base64 (B13) do not both reach the provider. The
// key's kind ("sk-proj-") is not counted.
func TestFragmentsCountOneClassPieces(t *testing.T) {
	const key = "sk-proj-hqztrvlwncypkx9BmD4s7Q2ZfW8"
	r := (&config{Provider: "openai", APIKey: key}).redactor()
	for _, first := range []string{key[:8] + "\n", key[8:16] + "\n"} {
		if got := r.frag.track(first); got != first {
			t.Errorf("a first piece: %q", got)
		}
	}
	second := base64.StdEncoding.EncodeToString([]byte(key[16:24] + "\n"))
	if got := r.frag.track(second); !strings.Contains(got, redactedMark) {
		t.Errorf("8 plain then 8 as base64: the second reached the provider: %q", got)
	}
}

// TestRedactorBlobPastCap: a compressed blob that inflates past packedMax
// is taken to hold a secret unread (fail closed), and sent as the mark.
func TestRedactorBlobPastCap(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 64 MiB")
	}
	r := (&config{Provider: "openai", APIKey: moreKey}).redactor()
	text := "$ cmd\n" + base64.StdEncoding.EncodeToString(gz(strings.Repeat("\x00", packedMax+1))) + "\ndone\n"
	if got := toolPath(r, text); got != "$ cmd\n"+redactedMark+"\ndone\n" {
		t.Errorf("a blob past the cap: %.120q", got)
	}
}
