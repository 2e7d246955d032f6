package main

import (
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// fastDepth bounds the nesting the fast path follows in members chunk does
// not read; deeper input is left to encoding/json, whose limit is far higher.
const fastDepth = 32

// fastChunk decodes one streamed chat completion event into ch without
// encoding/json, for the shapes nearly every event has: choices whose delta
// (or message) carries content, reasoning and tool-call fragments, next to
// members chunk does not read (id, model, created, usage null, x_groq, ...).
// Decoding each delta with json.Unmarshal cost about 4 µs, so 2 MB of
// arguments in 9-byte deltas took a second; this takes a tenth of that.
//
// It returns true only when data is valid JSON that json.Unmarshal would
// decode into exactly this chunk and in which bodyError finds no error: no
// top-level member named like error or base_resp, object and type not
// "error". Anything it is not sure of (a usage object, a key that differs
// from a field's name only in case, a key twice, invalid UTF-8, deep
// nesting, a type json would refuse) returns false with ch zero, and the
// caller takes the encoding/json path, so behaviour is the same either way.
//
// Every function here is //go:norace: the scan reads only data, which is an
// immutable string, and writes only its own fastScan and the caller's
// chunk, so the race detector has nothing to find inside it, while checking
// each byte it reads cost the stream tests under -race a third of their time.
//
// Strings without escapes are substrings of data; ids and names, which the
// reply keeps, are copied so the history does not pin whole events.
//
//go:norace
func fastChunk(data string, ch *chunk) bool {
	p := fastScan{s: data}
	p.ws()
	if p.top(ch) && p.end() {
		return true
	}
	*ch = chunk{}
	return false
}

// fastScan is a cursor over one event's JSON text.
type fastScan struct {
	s     string
	i     int
	depth int
}

// top reads the event's object: choices, usage (only null), object and
// type (only when not "error"); other members are validated and skipped.
//
//go:norace
func (p *fastScan) top(ch *chunk) bool {
	var seen uint8
	return p.object(func(k string) bool {
		switch k {
		case "choices":
			return once(&seen, 1) && fastArray(p, &ch.Choices, func(i int) bool {
				c := &ch.Choices[i]
				return p.choice(&c.Delta, &c.Message, &c.FinishReason)
			})
		case "usage": // usage comes once a stream; its numbers take encoding/json
			return once(&seen, 2) && p.lit("null")
		case "object", "type": // bodyError treats "error" here as the provider's rejection
			var v string
			return p.strOrNull(&v) && v != "error"
		}
		return p.other(k, "choices", "usage", "object", "type", "error", "base_resp")
	})
}

// choice reads one element of choices.
//
//go:norace
func (p *fastScan) choice(d, m *delta, finish *string) bool {
	var seen uint8
	return p.object(func(k string) bool {
		switch k {
		case "delta":
			return once(&seen, 1) && p.delta(d)
		case "message":
			return once(&seen, 2) && p.delta(m)
		case "finish_reason":
			return once(&seen, 4) && p.strOrNull(finish)
		}
		return p.other(k, "delta", "message", "finish_reason")
	})
}

// delta reads a choice's delta or message.
//
//go:norace
func (p *fastScan) delta(d *delta) bool {
	var seen uint8
	return p.object(func(k string) bool {
		switch k {
		case "content":
			return once(&seen, 1) && p.strOrNull(&d.Content)
		case "reasoning_content":
			return once(&seen, 2) && p.strOrNull(&d.ReasoningContent)
		case "reasoning":
			return once(&seen, 4) && p.strOrNull(&d.Reasoning)
		case "tool_calls":
			return once(&seen, 8) && fastArray(p, &d.ToolCalls, func(i int) bool { return p.toolCall(&d.ToolCalls[i]) })
		}
		return p.other(k, "content", "reasoning_content", "reasoning", "tool_calls")
	})
}

// toolCall reads one tool-call fragment. The index is kept raw, as
// json.RawMessage keeps it, when it is null or a number; any other value
// takes encoding/json.
//
//go:norace
func (p *fastScan) toolCall(tc *toolCallDelta) bool {
	var seen uint8
	return p.object(func(k string) bool {
		switch k {
		case "index":
			start := p.i
			if !once(&seen, 1) || !(p.lit("null") || p.number()) {
				return false
			}
			tc.Index = json.RawMessage(p.s[start:p.i])
			return true
		case "id":
			return once(&seen, 2) && p.strOrNull(&tc.ID) && p.keep(&tc.ID)
		case "type":
			return once(&seen, 4) && p.strOrNull(&tc.Type)
		case "function":
			return once(&seen, 8) && p.function(&tc.Function.Name, &tc.Function.Arguments)
		}
		return p.other(k, "index", "id", "type", "function")
	})
}

// function reads a fragment's function: its name and a piece of arguments.
//
//go:norace
func (p *fastScan) function(name, args *string) bool {
	var seen uint8
	return p.object(func(k string) bool {
		switch k {
		case "name":
			return once(&seen, 1) && p.strOrNull(name) && p.keep(name)
		case "arguments":
			return once(&seen, 2) && p.strOrNull(args)
		}
		return p.other(k, "name", "arguments")
	})
}

// keep copies a string the reply holds on to, so it does not pin the
// event it was cut from; it always succeeds.
//
//go:norace
func (p *fastScan) keep(s *string) bool {
	*s = strings.Clone(*s)
	return true
}

// once reports whether bit is not yet in seen, and sets it: a key given
// twice is left to encoding/json, which merges or replaces by type.
//
//go:norace
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// other skips the value of a member the caller does not read, unless its
// key equals one of names but for case: encoding/json would match it to
// that field (or bodyError would look at it), so that takes encoding/json.
//
//go:norace
func (p *fastScan) other(k string, names ...string) bool {
	for _, n := range names {
		if len(n) == len(k) && strings.EqualFold(n, k) {
			return false
		}
	}
	return p.skip()
}

// object reads an object or null, calling member for each key with the
// cursor at its value. Keys are taken only as plain ASCII, without escapes,
// so that a key matches a field here exactly when it does in encoding/json.
//
//go:norace
func (p *fastScan) object(member func(key string) bool) bool {
	if p.lit("null") {
		return true // null leaves a struct as it is
	}
	if !p.enter('{') {
		return false
	}
	p.ws()
	if p.next('}') {
		return p.leave()
	}
	for {
		k, ok := p.key()
		if !ok || !p.next(':') {
			return false
		}
		p.ws()
		if !member(k) {
			return false
		}
		p.ws()
		if p.next('}') {
			return p.leave()
		}
		if !p.next(',') {
			return false
		}
		p.ws()
	}
}

// fastArray reads an array or null into *s: each item appends a zero
// element that elem(i) fills. null is a nil slice and [] an empty non-nil
// one, as encoding/json makes them.
//
//go:norace
func fastArray[E any](p *fastScan, s *[]E, elem func(i int) bool) bool {
	if p.lit("null") {
		*s = nil
		return true
	}
	if p.peek() != '[' {
		return false
	}
	*s = make([]E, 0, 1)
	return p.list(func() bool {
		var zero E
		*s = append(*s, zero)
		return elem(len(*s) - 1)
	})
}

// list reads an array, calling item with the cursor at each value.
//
//go:norace
func (p *fastScan) list(item func() bool) bool {
	if !p.enter('[') {
		return false
	}
	p.ws()
	if p.next(']') {
		return p.leave()
	}
	for {
		if !item() {
			return false
		}
		p.ws()
		if p.next(']') {
			return p.leave()
		}
		if !p.next(',') {
			return false
		}
		p.ws()
	}
}

// enter consumes the opening bracket c of an object or array, within fastDepth.
//
//go:norace
func (p *fastScan) enter(c byte) bool {
	if p.depth == fastDepth || !p.next(c) {
		return false
	}
	p.depth++
	return true
}

// leave ends an object or array that enter began; it always succeeds.
//
//go:norace
func (p *fastScan) leave() bool {
	p.depth--
	return true
}

// skip validates and passes over any JSON value. Strings in values nobody
// reads are taken only as ASCII, a check that costs nothing for the ids,
// model names and fingerprints found there.
//
//go:norace
func (p *fastScan) skip() bool {
	switch p.peek() {
	case '{':
		return p.object(func(string) bool { return p.skip() })
	case '[':
		return p.list(p.skip)
	case '"':
		s, ok := p.str()
		for i := 0; ok && i < len(s); i++ {
			ok = s[i] < utf8.RuneSelf
		}
		return ok
	case 't':
		return p.lit("true")
	case 'f':
		return p.lit("false")
	case 'n':
		return p.lit("null")
	}
	return p.number()
}

// strOrNull reads a string into *dst; null leaves *dst as it is.
//
//go:norace
func (p *fastScan) strOrNull(dst *string) bool {
	if p.lit("null") {
		return true
	}
	s, ok := p.str()
	if ok {
		*dst = s
	}
	return ok
}

// str reads a string. Without escapes it is a substring of the event; text
// that is not valid UTF-8 is refused, since encoding/json would rewrite it.
//
//go:norace
func (p *fastScan) str() (string, bool) {
	if !p.next('"') {
		return "", false
	}
	start, ascii := p.i, true
	for ; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; {
		case c == '"':
			v := p.s[start:p.i]
			p.i++
			return v, ascii || utf8.ValidString(v)
		case c == '\\':
			return p.unescape(start, ascii)
		case c < ' ':
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// unescape finishes a string that has escapes, from its first character at
// start with the cursor on the first backslash (ascii: no byte before it
// was past ASCII), decoding as encoding/json does: a \u surrogate pair is
// one character, a lone surrogate is U+FFFD.
//
//go:norace
func (p *fastScan) unescape(start int, ascii bool) (string, bool) {
	var b strings.Builder
	b.Grow(p.i - start + 16)
	b.WriteString(p.s[start:p.i])
	for p.i < len(p.s) {
		j := p.i
		for ; j < len(p.s) && p.s[j] != '"' && p.s[j] != '\\' && p.s[j] >= ' '; j++ {
			if p.s[j] >= utf8.RuneSelf {
				ascii = false
			}
		}
		b.WriteString(p.s[p.i:j])
		p.i = j
		switch {
		case j == len(p.s) || p.s[j] < ' ':
			return "", false
		case p.s[j] == '"':
			p.i++
			v := b.String()
			return v, ascii || utf8.ValidString(v)
		case !p.escape(&b):
			return "", false
		}
	}
	return "", false
}

// escape decodes the escape at the cursor into b and moves past it.
//
//go:norace
func (p *fastScan) escape(b *strings.Builder) bool {
	if p.i+1 >= len(p.s) {
		return false
	}
	e := p.s[p.i+1]
	p.i += 2
	switch e {
	case '"', '\\', '/':
		b.WriteByte(e)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r := hex4(p.s, p.i)
		if r < 0 {
			return false
		}
		p.i += 4
		if utf16.IsSurrogate(r) {
			r2 := rune(-1)
			if strings.HasPrefix(p.s[p.i:], `\u`) {
				r2 = hex4(p.s, p.i+2)
			}
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				r = d
				p.i += 6 // the second half
			} else {
				r = utf8.RuneError
			}
		}
		b.WriteRune(r)
	default:
		return false
	}
	return true
}

// hex4 is the value of the four hex digits at s[i:], or -1.
//
//go:norace
func hex4(s string, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// number passes over a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
//
//go:norace
func (p *fastScan) number() bool {
	p.next('-')
	switch c := p.peek(); {
	case c == '0':
		p.i++
	case '1' <= c && c <= '9':
		p.digits()
	default:
		return false
	}
	if p.next('.') && !p.digits() {
		return false
	}
	if p.next('e') || p.next('E') {
		if !p.next('+') {
			p.next('-')
		}
		return p.digits()
	}
	return true
}

// digits passes over one or more decimal digits.
//
//go:norace
func (p *fastScan) digits() bool {
	start := p.i
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// key reads an object key and the space after it; escapes and non-ASCII
// bytes are refused (see object).
//
//go:norace
func (p *fastScan) key() (string, bool) {
	if !p.next('"') {
		return "", false
	}
	for start := p.i; p.i < len(p.s); p.i++ {
		switch c := p.s[p.i]; {
		case c == '"':
			k := p.s[start:p.i]
			p.i++
			p.ws()
			return k, true
		case c == '\\' || c < ' ' || c >= utf8.RuneSelf:
			return "", false
		}
	}
	return "", false
}

// lit passes over the literal word (true, false, null) if it is next.
//
//go:norace
func (p *fastScan) lit(word string) bool {
	if strings.HasPrefix(p.s[p.i:], word) {
		p.i += len(word)
		return true
	}
	return false
}

// next passes over c if it is the next byte.
//
//go:norace
func (p *fastScan) next(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// peek is the next byte, or 0 at the end.
//
//go:norace
func (p *fastScan) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// ws passes over JSON whitespace.
//
//go:norace
func (p *fastScan) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// end reports whether only whitespace is left, as json.Unmarshal requires.
//
//go:norace
func (p *fastScan) end() bool {
	p.ws()
	return p.i == len(p.s)
}
