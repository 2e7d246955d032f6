package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// shapeKey is a key as providers issue them: letters, digits, dashes.
const shapeKey = "sk-proj-Q7vX2mKp9LzR4tWn8YbC3hJd"

// fold cuts s into lines of n bytes, as fold -w n does.
func fold(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	return b.String() + s
}

// reverse is s backwards, as rev prints it.
func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// TestRedactorShapes: the key folded, spaced, dotted, reversed, upper-cased,
// as hex either case and in xxd's dump, and as base64 at each of the three
// offsets of a stream (and URL-safe, and wrapped) leaves no run of minRun
// of any of its shapes.
func TestRedactorShapes(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: shapeKey}).redactor()
	b64 := func(prefix string) string { return base64.StdEncoding.EncodeToString([]byte(prefix + shapeKey + "\n")) }
	shapes := map[string]string{
		"fold -w6":      fold(shapeKey, 6),
		"fold CRLF":     strings.ReplaceAll(fold(shapeKey, 5), "\n", "\r\n"),
		"spaced":        strings.Join(strings.Split(shapeKey, ""), " "),
		"dotted":        strings.Join(strings.Split(shapeKey, ""), "."),
		"zero-width":    strings.Join(strings.Split(shapeKey, ""), "\u200b"),
		"json escapes":  strings.ReplaceAll(fold(shapeKey, 4), "\n", `\u2028`),
		"quoted lines":  strings.ReplaceAll(fold(shapeKey, 7), "\n", "\n> "),
		"colored":       "\x1b[31m" + shapeKey[:10] + "\x1b[0m" + shapeKey[10:],
		"rev":           reverse(shapeKey),
		"rev folded":    fold(reverse(shapeKey), 6),
		"upper":         strings.ToUpper(shapeKey),
		"hex":           hex.EncodeToString([]byte(shapeKey)),
		"HEX":           strings.ToUpper(hex.EncodeToString([]byte(shapeKey))),
		"xxd":           hex.Dump([]byte("KEY=" + shapeKey + "\n")),
		"hex spaced":    strings.TrimSpace(strings.Join(strings.SplitAfter(hex.EncodeToString([]byte(shapeKey)), ""), " ")),
		"base64 at 0":   b64(""),
		"base64 at 1":   b64("K"),
		"base64 at 2":   b64("KE"),
		"base64 at 0+3": b64("KEY"),
		"base64 url":    base64.URLEncoding.EncodeToString([]byte("x=" + shapeKey)),
		"base64 folded": fold(b64("KEY="), 5),
	}
	for name, s := range shapes {
		got := r.text("before " + s + " after")
		if left := leftOfKey(got); left != "" {
			t.Errorf("%s: text(%q) = %q: %s", name, s, got, left)
		}
		if !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") {
			t.Errorf("%s: the words around it went: %q", name, got)
		}
	}
}

// leftOfKey says what run of minRun of one of the key's shapes is in s.
func leftOfKey(s string) string {
	sk := skeletonBytes([]byte(s))
	for _, sh := range shapesOf(shapeKey) {
		for off := 0; off+minRun <= len(sh); off++ {
			if strings.Contains(string(sk), string(sh[off:off+minRun])) {
				return "holds " + string(sh[off:off+minRun])
			}
		}
	}
	return ""
}

// Ordinary text, code, hex and base64 of other bytes pass untouched, and
// so does the key's own shape broken by a wide gap (letters scattered over
// a page are not a key).
func TestRedactorShapesSpareText(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: shapeKey}).redactor()
	for _, s := range []string{
		"func (r *redactor) scan(dst, data []byte, final bool) (out []byte, held int) {",
		hex.Dump([]byte("an ordinary file of no interest at all, 0123456789")),
		base64.StdEncoding.EncodeToString([]byte("an ordinary file of no interest at all, 0123456789")),
		shapeKey[:11] + strings.Repeat(" ", maxGap+1) + shapeKey[11:22],
		"sk-proj-Q7v is the start of something, then X2mKp9LzR4 in other words",
		seq(1, 20000), "\x1b[01;34mdir\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  notes.txt",
		"&lt;p&gt;caf&#233; &amp; cr&#xE8;me &#8212; &#65;&#66;&#67;&lt;/p&gt;", "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ ２０２６",
		base32.StdEncoding.EncodeToString([]byte("an ordinary file of no interest at all, 0123456789")),
	} {
		if got := r.text(s); got != s {
			t.Errorf("text(%q) = %q, want it unchanged", s, got)
		}
	}
}

// A shape cut anywhere between writes, or dribbled a few bytes at a time,
// is redacted as it is at once.
func TestRedactWriterSplitShapes(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: shapeKey}).redactor()
	text := "a: " + fold(shapeKey, 6) + " b: " + base64.StdEncoding.EncodeToString([]byte("K"+shapeKey)) + " c: " + reverse(shapeKey) + ` d: ` + strings.ReplaceAll(fold(shapeKey, 3), "\n", `\u2028`) + " end"
	want := r.text(text)
	if leftOfKey(want) != "" {
		t.Fatalf("at once: %q", want)
	}
	for cut := 0; cut <= len(text); cut++ {
		got, _ := io.ReadAll(newRedactReader(io.MultiReader(strings.NewReader(text[:cut]), strings.NewReader(text[cut:])), r))
		if string(got) != want {
			t.Fatalf("cut at %d: %q, want %q", cut, got, want)
		}
	}
}

// In a JSON text no replacement spans two strings: the key split over two
// fields is redacted in each and the text stays JSON.
func TestRedactorJSONStaysJSON(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: shapeKey}).redactor()
	b, _ := json.Marshal(map[string]string{"a": shapeKey[:16], "b": shapeKey[16:], "c": fold(shapeKey, 6), "d": reverse(shapeKey)})
	got := r.jsonText(b)
	var m map[string]string
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("jsonText(%s) = %s: %v", b, got, err)
	}
	if m["c"] != redactedMark || m["d"] != redactedMark {
		t.Errorf("jsonText(%s) = %s", b, got)
	}
}

// encodings are the key in the shapes issue 47 found passing: a colour
// code between every character (short, 256-colour and 24-bit; raw, JSON-
// escaped and as cat -v shows it), base32 at each offset of a stream,
// octal and decimal bytes (od -b, od -tu1, printf escapes, HTML entities),
// rot13, fullwidth letters, reversed base64, even and odd characters, and
// \xHH escapes.
func encodings(key string) map[string]string {
	each := func(f func(i int, c byte) string) string {
		var b strings.Builder
		for i := 0; i < len(key); i++ {
			b.WriteString(f(i, key[i]))
		}
		return b.String()
	}
	b32 := func(prefix string) string { return base32.StdEncoding.EncodeToString([]byte(prefix + key + "\n")) }
	rot := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return 'a' + (r-'a'+13)%26
			case r >= 'A' && r <= 'Z':
				return 'A' + (r-'A'+13)%26
			}
			return r
		}, s)
	}
	return map[string]string{
		"colour between every character": each(func(_ int, c byte) string { return "\x1b[31m" + string(c) + "\x1b[0m" }),
		"256 colours between every one":  each(func(i int, c byte) string { return fmt.Sprintf("\x1b[38;5;%dm%c\x1b[0m", 16+i, c) }),
		"24-bit colours":                 each(func(i int, c byte) string { return fmt.Sprintf("\x1b[0;1;38;2;%d;%d;%dm%c", i*7, 255-i, i, c) }),
		"JSON-escaped colours":           each(func(_ int, c byte) string { return `\u001b[35m` + string(c) + `\u001b[0m` }),
		"cat -v colours":                 each(func(_ int, c byte) string { return "^[[1;32m" + string(c) + "^[[m" }),
		"OSC title between":              each(func(_ int, c byte) string { return "\x1b]0;\x07" + string(c) }),
		"base32 at 0":                    b32(""),
		"base32 at 1":                    b32("K"),
		"base32 at 2":                    b32("KE"),
		"base32 at 3":                    b32("KEY"),
		"base32 at 4":                    b32("KEY="),
		"base32 lower":                   strings.ToLower(b32("X")),
		"od -b":                          each(func(_ int, c byte) string { return fmt.Sprintf("%03o ", c) }),
		"printf octal":                   each(func(_ int, c byte) string { return fmt.Sprintf(`\%03o`, c) }),
		"od -tu1":                        each(func(_ int, c byte) string { return fmt.Sprintf("%4d", c) }),
		"decimal, commas":                each(func(_ int, c byte) string { return fmt.Sprintf("%d,", c) }),
		"HTML decimal entities":          each(func(_ int, c byte) string { return fmt.Sprintf("&#%d;", c) }),
		"HTML hex entities":              each(func(_ int, c byte) string { return fmt.Sprintf("&#x%x;", c) }),
		"\\x escapes":                    each(func(_ int, c byte) string { return fmt.Sprintf(`\x%02x`, c) }),
		"rot13":                          rot(key),
		"fullwidth":                      each(func(_ int, c byte) string { return string(rune(c) + 0xfee0) }),
		"reversed base64":                reverse(base64.StdEncoding.EncodeToString([]byte("K" + key))),
		"even characters":                each(func(i int, c byte) string { return map[bool]string{true: string(c)}[i%2 == 0] }),
		"odd characters":                 each(func(i int, c byte) string { return map[bool]string{true: string(c)}[i%2 == 1] }),
	}
}

// TestRedactorEncodings: each of encodings leaves no run of minRun of any
// of the key's shapes, whole and streamed in pieces of 7 bytes, and the
// words around it stay.
func TestRedactorEncodings(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: shapeKey}).redactor()
	for name, s := range encodings(shapeKey) {
		text := "before " + s + " after"
		got := r.text(text)
		if got == text || strings.Count(got, redactedMark) == 0 {
			t.Errorf("%s: passed: %q", name, got)
			continue
		}
		if !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") {
			t.Errorf("%s: the words around it went: %q", name, got)
		}
		var b bytes.Buffer
		w := newRedactWriter(&b, r)
		for p := text; len(p) > 0; p = p[min(7, len(p)):] {
			w.Write([]byte(p[:min(7, len(p))]))
		}
		w.(*redactWriter).Close()
		if b.String() != got {
			t.Errorf("%s: streamed %q, at once %q", name, b.String(), got)
		}
	}
}

// seq is seq(1)'s output from a to b.
func seq(a, b int) string {
	var sb strings.Builder
	for i := a; i <= b; i++ {
		fmt.Fprintf(&sb, "%d\n", i)
	}
	return sb.String()
}

// TestFragmentsAddUp: pieces of a key shorter than a run add up over a
// session whatever shape they take (plain, hex, reversed): past the
// budget the next new piece is the mark; a piece shown before stays
// shown; text without the key is untouched; a secret of words is not
// counted in pieces.
func TestFragmentsAddUp(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: shapeKey, ExtraHeaders: map[string]string{"X-Org": "my-organization-name"}}).redactor()
	f := r.frag
	own := string(skeletonBytes([]byte(shapeKey))) // skprojq7vx2mkp9lzr4twn8ybc3hjd
	first := "piece: " + shapeKey[8:15]            // Q7vX2mK: 7 of 11
	if got := f.track(first); got != first {
		t.Errorf("the first piece: %q", got)
	}
	if got := f.track(first); got != first {
		t.Errorf("the first piece again: %q", got)
	}
	hexPiece := "hex: " + hex.EncodeToString([]byte(shapeKey[20:25])) // 5 bytes as 10 hex characters: 7+5 > 11
	if got := f.track(hexPiece); got != "hex: "+redactedMark {
		t.Errorf("a hex piece past the budget: %q", got)
	}
	small := "tail: " + reverse(own[len(own)-4:]) // 4 characters: under fragMin, not counted
	if got := f.track(small); got != small {
		t.Errorf("a piece under fragMin: %q", got)
	}
	if got := f.track("rev: " + reverse(shapeKey[15:22])); got != "rev: "+redactedMark {
		t.Errorf("a reversed piece past the budget: %q", got)
	}
	for _, s := range []string{"the organization name is in the my-organization field", seq(1, 3000), "plain words and code: func main() {}"} {
		if got := f.track(s); got != s {
			t.Errorf("track(%.60q) changed it: %.200q", s, got)
		}
	}
}

// TestRedactorUnpacks: the key compressed with zlib or gzip and sent as
// base64 or hex is found inside and the blob is sent as the mark; a
// compressed blob of other text is not touched.
func TestRedactorUnpacks(t *testing.T) {
	r := (&config{Provider: "openai", APIKey: shapeKey}).redactor()
	pack := func(gz bool, s string) []byte {
		var b bytes.Buffer
		var w io.WriteCloser = zlib.NewWriter(&b)
		if gz {
			w = gzip.NewWriter(&b)
		}
		io.WriteString(w, s)
		w.Close()
		return b.Bytes()
	}
	for name, blob := range map[string]string{
		"zlib base64": base64.StdEncoding.EncodeToString(pack(false, "token="+shapeKey+"\n")),
		"gzip base64": base64.StdEncoding.EncodeToString(pack(true, "token="+shapeKey+"\n")),
		"zlib hex":    hex.EncodeToString(pack(false, shapeKey)),
		"gzip url":    base64.RawURLEncoding.EncodeToString(pack(true, reverse(shapeKey))),
	} {
		text := "out: " + blob + " end"
		if got := r.request(chatRequest{Messages: []message{{Role: roleTool, Content: text}}}).Messages[0].Content; got != "out: "+redactedMark+" end" {
			t.Errorf("%s: sent %q", name, got)
		}
	}
	other := "out: " + base64.StdEncoding.EncodeToString(pack(false, "an ordinary log line\n")) + " end"
	if got := r.unpacked(other); got != other {
		t.Errorf("an ordinary compressed blob: %q", got)
	}
}
