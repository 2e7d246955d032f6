package main

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// The estimator walks text the way BPE pre-tokenizers split it (letter
// runs, digit runs of three, punctuation runs, whitespace runs, scripts) and
// prices each piece; scripts.go prices Cyrillic and Han by the language. The
// ASCII prices were fitted on testdata/tokens.jsonl (minimax of
// estimate/real over o200k and cl100k, aimed at 1.2), the script prices
// checked on testdata/tokens_heldout.jsonl and tokens_kinds.jsonl:
// estimate/real is 0.93-1.48 on every kind in the first and 0.91-1.59 in the
// others wherever the two tokenizers agree well enough for one number to fit
// both. Erring high is deliberate: an estimate that is too low ends in a
// rejection.
const (
	msgOverhead = 4 // role, separators and framing of one message

	costWord       = 1.158 // a letter run (or camelCase piece)
	costLongLetter = 0.154 // each letter past the fifth in a run
	costCapsLetter = 0.4   // each letter after the first of an ALL-CAPS run
	costCaseFlip   = 2.176 // an upper-to-lower flip inside a run: random text
	costDigits     = 1.255 // each group of up to three digits
	costPunct      = 0.975 // a run of punctuation
	costPunctMore  = 0.547 // each further character of such a run
	costPunctWord  = 0.5   // one punctuation character glued to a word ("/usr", ".go")
	costNewline    = 1.895 // line breaks with the indentation after them
	costSpaces     = 1.498 // a run of two or more spaces, or a tab
	costSpaceDigit = 0.8   // a single space before a digit: both tokenizers split it off
	costHangul     = 1.15  // a Hangul syllable
	costIndic      = 1.3   // Bengali, Tamil and other Indic scripts: byte-level in cl100k
	costDevanagari = 1.1   // Hindi and others
	costThai       = 0.94  // Thai, Lao
	costArabic     = 0.68  // Arabic, Persian, Urdu letters
	costHebrew     = 0.6   // Hebrew letters
	costGreek      = 0.92  // Greek: cheap in o200k, dear in cl100k; priced for cl100k
	costAlphabet   = 0.42  // other alphabets (Armenian, Georgian, ...)
	costAccent     = 0.35  // an accented Latin letter
	costTurkish    = 0.8   // ı, ş, ğ: Turkish and Azerbaijani, split off more often
	costEmoji      = 2.2   // emoji and pictographs
	costOther      = 1.0   // any other character
	wordFree       = 5     // letters covered by costWord
)

// byte classes for the ASCII fast path.
const (
	clsOther byte = iota
	clsLower
	clsUpper
	clsDigit
	clsSpace
	clsNewline
	clsPunct
)

// asciiClass maps each byte to its class; bytes of UTF-8 sequences are clsOther.
var asciiClass = func() (t [256]byte) {
	for c := 0; c < 128; c++ {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = clsLower
		case c >= 'A' && c <= 'Z':
			t[c] = clsUpper
		case c >= '0' && c <= '9':
			t[c] = clsDigit
		case c == ' ' || c == '\t':
			t[c] = clsSpace
		case c == '\n' || c == '\r':
			t[c] = clsNewline
		case c > ' ' && c < 127:
			t[c] = clsPunct
		}
	}
	return t
}()

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return asciiClass[c] == clsLower || asciiClass[c] == clsUpper }

// estimateTokens is the estimated token count of s, without calibration:
// at least one for any text, as even a lone space is a token.
func estimateTokens(s string) int {
	if s == "" {
		return 0
	}
	return max(1, int(estimateRaw(s)+0.999))
}

// estimateRaw prices s piece by piece in one pass.
func estimateRaw(s string) float64 {
	var cost float64
	var tally scriptTally
	n := len(s)
	for i := 0; i < n; {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !tally.add(r) {
				cost += runeCost(r)
			}
			i += size
			continue
		}
		switch asciiClass[c] {
		case clsLower:
			// Fast path: an all-lowercase word, the commonest piece of all.
			j := lowerEnd(s, i+1)
			if j == n || asciiClass[s[j]] != clsUpper {
				cost += costWord + costLongLetter*float64(max(0, j-i-wordFree))
				i = j
				continue
			}
			j, w := letterRun(s, i)
			cost += w
			i = j
		case clsUpper:
			j, w := letterRun(s, i)
			cost += w
			i = j
		case clsDigit:
			j := i + 1
			for j < n && asciiClass[s[j]] == clsDigit {
				j++
			}
			cost += costDigits * float64((j-i+2)/3)
			i = j
		case clsPunct:
			j := i + 1
			for j < n && asciiClass[s[j]] == clsPunct {
				j++
			}
			if j-i == 1 && j < n && isLetter(s[j]) {
				cost += costPunctWord
			} else {
				cost += costPunct + costPunctMore*float64(j-i-1)
			}
			i = j
		case clsNewline:
			j := i + 1
			for j < n && (s[j] == '\n' || s[j] == '\r' || s[j] == ' ' || s[j] == '\t') {
				j++
			}
			cost += costNewline
			i = j
		case clsSpace:
			j := i + 1
			for j < n && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j-i > 1 || s[i] == '\t' {
				cost += costSpaces
			} else if j < n && asciiClass[s[j]] == clsDigit {
				cost += costSpaceDigit
			}
			i = j
		default:
			cost += costOther
			i++
		}
	}
	return cost + tally.cost()
}

// lowerEnd returns the index of the first byte at or after i that is not a
// lowercase ASCII letter. It tests eight bytes at a time: a byte b < 0x80 is
// in 'a'..'z' when b+0x1f has its top bit set and b+0x05 has not.
func lowerEnd(s string, i int) int {
	const hi, lo1f, lo05 = 0x8080808080808080, 0x1f1f1f1f1f1f1f1f, 0x0505050505050505
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if (w+lo1f)&^(w+lo05)&^w&hi != hi {
			break
		}
	}
	for i < len(s) && asciiClass[s[i]] == clsLower {
		i++
	}
	return i
}

// letterRun prices the ASCII letter run starting at i and returns its end.
// A lower-to-upper change starts a new piece (camelCase, random text); an
// upper-to-lower flip after two capitals marks random text. It scans whole
// lowercase and uppercase stretches at a time: prose is long lowercase
// stretches, and this loop is the estimator's hot path.
func letterRun(s string, i int) (int, float64) {
	var cost float64
	seg, caps, pieces := 0, 0, 0 // letters in this piece, capitals in the run, pieces closed
	prevUpper, started := false, false
	j, n := i, len(s)
	for j < n {
		k := j
		for k < n && asciiClass[s[k]] == clsLower {
			k++
		}
		if k > j {
			if prevUpper && seg > 1 {
				cost += costCaseFlip
			}
			seg += k - j
			prevUpper, started = false, true
			j = k
		}
		for k < n && asciiClass[s[k]] == clsUpper {
			k++
		}
		if k == j {
			break
		}
		if started && !prevUpper { // lower-to-upper: the piece so far is closed
			cost += costWord + costLongLetter*float64(max(0, seg-wordFree))
			pieces++
			seg = 0
		}
		seg += k - j
		caps += k - j
		prevUpper, started = true, true
		j = k
	}
	cost += costWord
	if caps == seg && seg > 1 && pieces == 0 && !capsWord(s[j-seg:j]) {
		cost += costCapsLetter * float64(seg-1)
	} else {
		cost += costLongLetter * float64(max(0, seg-wordFree))
	}
	return j, cost
}

// capsWord reports whether an ALL-CAPS run reads as a word (MESSAGES, ERROR,
// PASS): one of the capitals tool output is full of, or four letters or
// more, a third of them vowels. Tokenizers know such words whole, while
// capitals from base32 or hashes, with few vowels, cost a token every two or
// three letters.
func capsWord(run string) bool {
	if commonCaps(run) {
		return true
	}
	vowels := 0
	for i := 0; i < len(run); i++ {
		switch run[i] {
		case 'A', 'E', 'I', 'O', 'U':
			vowels++
		}
	}
	return len(run) >= 4 && vowels*3 >= len(run)
}

// commonCaps reports capitals frequent in logs, test output, ps and HTTP,
// with too few vowels for capsWord's rule. (A switch, not a map: Go
// compiles it to a search without hashing.)
func commonCaps(w string) bool {
	switch w {
	case "OK", "ID", "PID", "TTY", "CPU", "MEM", "RSS", "VSZ", "STAT", "CMD", "UID", "GID", "USER", "TIME",
		"RUN", "PASS", "FAIL", "SKIP", "CONT", "WARN", "INFO", "TODO", "NULL", "TRUE", "EOF", "UTC", "GMT",
		"GET", "PUT", "POST", "HEAD", "HTTP", "HTTPS", "URL", "URI", "API", "JSON", "XML", "HTML", "CSS", "SQL",
		"SSH", "TCP", "UDP", "DNS", "SHA", "MD", "UUID", "PATH", "SRC", "LIB", "BIN", "ETC", "TMP", "VAR",
		"LC", "GNU", "GPL", "MIT", "BSD":
		return true
	}
	return false
}

// runeCost prices one non-ASCII character by its script.
func runeCost(r rune) float64 {
	switch {
	case r == utf8.RuneError:
		return costOther
	case r >= 0x0900 && r <= 0x097f:
		return costDevanagari
	case r >= 0x0980 && r <= 0x0dff, r >= 0x1000 && r <= 0x109f, r >= 0x1780 && r <= 0x17ff:
		return costIndic
	case r >= 0x0e00 && r <= 0x0eff:
		return costThai
	case r >= 0x0600 && r <= 0x06ff, r >= 0x0750 && r <= 0x077f, r >= 0xfb50 && r <= 0xfdff, r >= 0xfe70 && r <= 0xfeff:
		return costArabic
	case r >= 0x0590 && r <= 0x05ff:
		return costHebrew
	case r >= 0x0370 && r <= 0x03ff, r >= 0x1f00 && r <= 0x1fff:
		return costGreek
	case isHangul(r):
		return costHangul
	case r >= 0x3000 && r <= 0x303f, r >= 0xff00 && r <= 0xffef:
		return costCJKPunct
	case r == 'ı' || r == 'İ' || r == 'ş' || r == 'Ş' || r == 'ğ' || r == 'Ğ':
		return costTurkish
	case unicode.Is(unicode.Latin, r):
		return costAccent
	case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
		return costAlphabet
	case r >= 0x1f000 || r >= 0x2600 && r <= 0x27bf:
		return costEmoji
	case unicode.IsSpace(r):
		return 0.5
	}
	return costOther
}

// messageTokens estimates one message: overhead, text, tool calls.
func messageTokens(m message) int {
	n := msgOverhead + estimateTokens(m.Content) + estimateTokens(m.Name)
	for _, tc := range m.ToolCalls {
		n += msgOverhead + estimateTokens(tc.Function.Name) + estimateTokens(tc.Function.Arguments)
	}
	return n
}

// toolsTokens estimates the tool schemas sent with every request.
func toolsTokens(specs []toolSpec) int {
	n := 0
	for _, s := range specs {
		n += msgOverhead + estimateTokens(s.Function.Name) + estimateTokens(s.Function.Description) + estimateTokens(string(s.Function.Parameters))
	}
	return n
}

// calibration scales estimates by what the provider reported for this model
// in this session, within bounds so one odd answer cannot make it absurd.
type calibration struct {
	ratio    float64 // real / estimated; 0 = none yet
	reported int     // the last prompt token count the provider reported
	estimate int     // our estimate of that same request
}

const (
	minRatio = 0.7
	maxRatio = 1.6
)

// observe records a reported prompt size against our estimate of it.
func (c *calibration) observe(reported, estimated int) {
	if reported <= 0 || estimated <= 0 {
		return
	}
	c.reported, c.estimate = reported, estimated
	r := float64(reported) / float64(estimated)
	if c.ratio == 0 {
		c.ratio = r
	} else {
		c.ratio = (c.ratio + r) / 2 // smooth: one odd answer moves it halfway at most
	}
	c.ratio = min(max(c.ratio, minRatio), maxRatio)
}

// scale applies the ratio to an estimate; never below the raw estimate by
// more than minRatio allows.
func (c *calibration) scale(n int) int {
	if c.ratio == 0 {
		return n
	}
	return int(float64(n)*c.ratio + 0.5)
}

// budget is the token budget of one request and where it came from.
type budget struct {
	tokens int
	source string // for /context: "CONTEXT_BUDGET_TOKENS", "70% of gpt-4o's 128000-token window", ...
	window int    // the model's window, 0 when unknown
}

// fallbackWindow is assumed for models nobody knows the window of.
const fallbackWindow = 128000

// budgetFor derives the request budget from the setting or the window.
func budgetFor(setting int, model string, window int, windowSource string) budget {
	if setting > 0 {
		return budget{tokens: setting, source: "CONTEXT_BUDGET_TOKENS", window: window}
	}
	if window <= 0 {
		return budget{tokens: fallbackWindow * 7 / 10, source: fmt.Sprintf("70%% of the fallback %d-token window (%s is not a known model)", fallbackWindow, model)}
	}
	return budget{tokens: window * 7 / 10, source: fmt.Sprintf("70%% of %s's %d-token window, %s", model, window, windowSource), window: window}
}
