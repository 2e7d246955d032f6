package main

import (
	"strings"
)

// palette is one CODE_THEME: the SGR parameters of each kind of token in
// code and of the Markdown elements drawn in colour.
type palette struct {
	keyword, str, comment, number, label  string // code
	heading, code, link, url, quote, rule string // prose
}

// palettes are the built-in CODE_THEMEs: 256-colour SGR, which every
// terminal emulator in use draws, so no truecolour detection is needed.
var palettes = map[string]palette{
	"monokai": {keyword: "38;5;197", str: "38;5;186", comment: "38;5;242", number: "38;5;141", label: "2;3",
		heading: "38;5;81", code: "38;5;208", link: "38;5;81", url: "2", quote: "38;5;245", rule: "38;5;240"},
	"dracula": {keyword: "38;5;212", str: "38;5;228", comment: "38;5;61", number: "38;5;141", label: "2;3",
		heading: "38;5;141", code: "38;5;84", link: "38;5;117", url: "2", quote: "38;5;103", rule: "38;5;61"},
	"nord": {keyword: "38;5;110", str: "38;5;150", comment: "38;5;60", number: "38;5;139", label: "2;3",
		heading: "38;5;110", code: "38;5;180", link: "38;5;116", url: "2", quote: "38;5;103", rule: "38;5;60"},
	"solarized-light": {keyword: "38;5;64", str: "38;5;37", comment: "38;5;245", number: "38;5;125", label: "2;3",
		heading: "38;5;33", code: "38;5;166", link: "38;5;33", url: "2", quote: "38;5;240", rule: "38;5;245"},
}

// codeThemes are the names CODE_THEME accepts, default first.
var codeThemes = []string{"monokai", "dracula", "nord", "solarized-light"}

// lang is what a highlighter needs to know of a language: its keywords,
// its comments and its string quotes.
type lang struct {
	keywords            map[string]bool
	lineComment         []string // start a comment to the end of the line
	blockOpen, blockEnd string   // a comment that may span lines
	quotes              string   // each one opens a string that ends on its line
	multi               []string // delimiters of strings that may span lines
	foldCase            bool     // keywords in any case (SQL)
	keyColon            bool     // a leading "name:" is a key (YAML)
	jsonKeys            bool     // a string before a colon is a key (JSON)
	vars                bool     // $name is a variable (shell)
}

// words makes a keyword set of a space-separated list.
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// cKeywords are C's, shared by the languages that borrow its syntax.
const cKeywords = "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false NULL #include #define #ifdef #ifndef #endif #if #else #pragma"

// langs maps a fence's language name (and its usual aliases) to a lang.
var langs = func() map[string]*lang {
	goL := &lang{keywords: words("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil iota any error string int int64 uint8 byte rune bool float64 make new len cap append"),
		lineComment: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `"'`, multi: []string{"`"}}
	py := &lang{keywords: words("and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self print"),
		lineComment: []string{"#"}, quotes: `"'`, multi: []string{`"""`, `'''`}}
	js := &lang{keywords: words("async await break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof let new null return super switch this throw true try typeof undefined var void while with yield interface type enum implements private public protected readonly as from of number string boolean any unknown never"),
		lineComment: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `"'`, multi: []string{"`"}}
	sh := &lang{keywords: words("if then else elif fi for while until do done case esac in function return local export readonly set unset shift exit echo cd source alias sudo"),
		lineComment: []string{"#"}, quotes: `"'`, vars: true}
	json := &lang{keywords: words("true false null"), quotes: `"`, jsonKeys: true}
	yaml := &lang{keywords: words("true false null yes no on off"), lineComment: []string{"#"}, quotes: `"'`, keyColon: true}
	sql := &lang{keywords: words("select from where and or not insert into values update set delete create table index view drop alter add column primary key foreign references join left right inner outer full on group by order having limit offset as distinct union all null is in like between case when then else end exists default unique constraint begin commit rollback with returning integer int text varchar boolean date timestamp count sum avg min max"),
		lineComment: []string{"--"}, blockOpen: "/*", blockEnd: "*/", quotes: `'"`, foldCase: true}
	rust := &lang{keywords: words("as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while Some None Ok Err String Vec Option Result i32 i64 u8 u32 u64 usize f64 bool str"),
		lineComment: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `"`}
	c := &lang{keywords: words(cKeywords), lineComment: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `"'`}
	cpp := &lang{keywords: words(cKeywords + " class namespace template typename public private protected virtual override new delete this using std nullptr auto try catch throw constexpr"),
		lineComment: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `"'`}
	m := map[string]*lang{}
	for names, l := range map[string]*lang{
		"go golang": goL, "python py python3 py3": py, "javascript js jsx mjs cjs typescript ts tsx node": js,
		"sh bash shell zsh console shell-session ksh": sh, "json jsonc json5": json, "yaml yml": yaml,
		"sql postgresql postgres mysql sqlite plsql": sql, "rust rs": rust, "c h": c, "cpp c++ cc cxx hpp": cpp,
	} {
		for _, n := range strings.Fields(names) {
			m[n] = l
		}
	}
	return m
}()

// highlighter colours the lines of one code block, carrying an open block
// comment or multi-line string from one line to the next.
type highlighter struct {
	l     *lang
	p     palette
	open  string // the delimiter of a block comment or string still open
	isCmt bool   // open is a comment
}

// start makes h colour code of the named language, from its first line,
// and returns it; nil for a language it does not know (the code is then
// drawn uncoloured). A renderer keeps one highlighter for all its blocks.
func (h *highlighter) start(name string, p palette) *highlighter {
	l := langs[strings.ToLower(name)]
	if l == nil {
		return nil
	}
	*h = highlighter{l: l, p: p}
	return h
}

// line appends s, coloured, to b. s is sanitised text: it holds no
// escape of its own, so the SGR added here is the only one.
func (h *highlighter) line(b []byte, s string) []byte {
	i := 0
	if h.open != "" {
		k := strings.Index(s, h.open)
		if k < 0 {
			return paint(b, h.openColour(), s)
		}
		i = k + len(h.open)
		b = paint(b, h.openColour(), s[:i])
		h.open = ""
	}
	for i < len(s) {
		j, sgr := h.token(s, i)
		b = paint(b, sgr, s[i:j])
		i = j
	}
	return b
}

// openColour is the colour of the open comment or string.
func (h *highlighter) openColour() string {
	if h.isCmt {
		return h.p.comment
	}
	return h.p.str
}

// token is where the token at s[i] ends and its colour ("" for none).
func (h *highlighter) token(s string, i int) (int, string) {
	l := h.l
	c := s[i]
	for _, lc := range l.lineComment {
		if c == lc[0] && strings.HasPrefix(s[i:], lc) && (lc != "#" || i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			return len(s), h.p.comment
		}
	}
	if l.blockOpen != "" && c == l.blockOpen[0] && strings.HasPrefix(s[i:], l.blockOpen) {
		if k := strings.Index(s[i+len(l.blockOpen):], l.blockEnd); k >= 0 {
			return i + len(l.blockOpen) + k + len(l.blockEnd), h.p.comment
		}
		h.open, h.isCmt = l.blockEnd, true
		return len(s), h.p.comment
	}
	for _, d := range l.multi {
		if c == d[0] && strings.HasPrefix(s[i:], d) {
			if k := strings.Index(s[i+len(d):], d); k >= 0 {
				return i + len(d) + k + len(d), h.p.str
			}
			h.open, h.isCmt = d, false
			return len(s), h.p.str
		}
	}
	if isIn(l.quotes, c) {
		return quoted(s, i), h.colourString(s, i)
	}
	switch {
	case isDigit(c) && (i == 0 || !isIdent(s[i-1])):
		j := i + 1
		for j < len(s) && (isIdent(s[j]) || s[j] == '.') {
			j++
		}
		return j, h.p.number
	case isIdent(c) || c == '#' && i == 0:
		j := i + 1
		for j < len(s) && (isIdent(s[j]) || s[j] == '-' && l.keyColon) {
			j++
		}
		return j, h.colourWord(s, i, j)
	case c == '$' && l.vars:
		j := i + 1
		for j < len(s) && (isIdent(s[j]) || s[j] == '{' || s[j] == '}') {
			j++
		}
		return j, h.p.number
	}
	j := i + 1
	for j < len(s) && s[j] < 0x80 && !isIdent(s[j]) && s[j] != '#' && s[j] != '$' && !isIn(l.quotes, s[j]) &&
		(l.blockOpen == "" || s[j] != l.blockOpen[0]) && s[j] != '/' && s[j] != '-' && s[j] != '`' {
		j++
	}
	for j < len(s) && s[j] >= 0x80 { // non-ASCII text is never a token
		j++
	}
	return j, ""
}

// isIn reports whether c is one of the bytes of set, a language's one or
// two quotes: asked of every byte of code, so a loop the compiler inlines
// rather than a call to strings.IndexByte.
func isIn(set string, c byte) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == c {
			return true
		}
	}
	return false
}

// colourString is a string's colour: a key's in JSON (a string before a
// colon), else the string colour.
func (h *highlighter) colourString(s string, i int) string {
	j := quoted(s, i)
	if h.l.jsonKeys && strings.HasPrefix(strings.TrimLeft(s[j:], " "), ":") {
		return h.p.keyword
	}
	return h.p.str
}

// colourWord is an identifier's colour: keyword, YAML key, or none.
func (h *highlighter) colourWord(s string, i, j int) string {
	w := s[i:j]
	if h.l.keyColon && strings.TrimSpace(s[:i]) == "" || h.l.keyColon && strings.TrimSpace(s[:i]) == "-" {
		if strings.HasPrefix(s[j:], ":") {
			return h.p.keyword
		}
	}
	if h.l.foldCase {
		w = strings.ToLower(w)
	}
	if h.l.keywords[w] {
		return h.p.keyword
	}
	return ""
}

// quoted is where the string opened by the quote at s[i] ends: after its
// closing quote, or at the end of the line.
func quoted(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(s)
}

// isIdent reports bytes of identifiers.
func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c)
}

// isDigit reports ASCII digits.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// paint appends s to b in the colour sgr ("" = uncoloured), reset after.
func paint(b []byte, sgr, s string) []byte {
	if sgr == "" || s == "" {
		return append(b, s...)
	}
	b = append(b, "\x1b["...)
	b = append(b, sgr...)
	b = append(b, 'm')
	b = append(b, s...)
	return append(b, "\x1b[0m"...)
}
