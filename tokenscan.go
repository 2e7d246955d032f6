package main

import "unicode/utf8"

// The estimator walks text the way BPE pre-tokenizers split it (letter
// runs, digit runs, punctuation runs, whitespace runs, scripts) and counts
// each kind of piece; a tokenizer family's price table (tokenfamily.go)
// turns the counts into tokens. Counting and pricing are apart so that one
// scan serves every family and the prices can be fitted to real counts:
// the estimate is linear in them. What English words look like to it is in
// tokenenglish.go, blanks and long runs in tokenblanks.go, scripts and
// their tiers in tokenscripts.go.
//
// Every function of the scan is //go:norace: it reads only its text, an
// immutable string, and the tables built at start-up, and writes only the
// tallies its caller gives it, so the race detector has nothing to find in
// it; checking every byte it reads made estimating most of what the trimming
// and masking property tests did under -race (37 cpu-s of them -> 16).

const (
	msgOverhead = 4 // role, separators and framing of one message
	wordFree    = 5 // letters a word piece covers before each further one costs
)

// Pieces the scan counts: indexes into a pieces array and a price table.
const (
	pWord        = iota // a letter run (or camelCase piece)
	pLongLetter         // each letter past the fifth in a piece
	pLongEnglish        // the same in a word with a common English ending of three letters (-tion, -ment, -ing)
	pRareEnd            // a word of three letters or more with an ending rare in English
	pRareEndWest        // the same in a Western European text (Spanish -do, Italian -lo are common there)
	pCapsLetter         // each letter after the first of an ALL-CAPS run that is no word
	pCapsShort          // the same in a run of five capitals or fewer with a vowel
	pRepeat             // a capital repeating the one before (AAAA in base64 of zeros): a discount
	pCaseFlip           // an upper-to-lower flip inside a run: random text
	pDigitGroup         // each group of up to three digits
	pDigit              // each digit unlike the one before it (tokenizers that split every digit)
	pPunct              // a run of punctuation
	pPunctMore          // each further character of such a run, up to runPunct
	pPunctWord          // one punctuation character glued to a word ("/usr", ".go")
	pNewline            // line breaks with the indentation after them
	pBlankLine          // each line break right after another, up to blankRun of them (a line of blanks costs a pNewline)
	pIndent             // a line break followed by two or more spaces or a tab
	pSpaces             // a run of two or more spaces, or a tab
	pSpaceMore          // each further 32 spaces or tabs of such a run, up to runSpace
	pSpaceDigit         // a single space before a digit
	pSpaceWide          // a single space before a non-ASCII character (spaced-out CJK)
	pCtrl               // an ASCII control character
	pAccent             // an accented Latin letter of a Western European text (Latin-1: é, ñ, ü, ç)
	pUmlaut             // ä, ö, ü, å, ø, æ, ß, õ, ő in such a text: German, Nordic, Finnic words split there more
	pAccentDense        // one of a text with an accented letter in every third word or more (Hungarian, Icelandic)
	pAccentExt          // one of a text whose accents are past Latin-1 (Czech, Polish, Baltic, Romanian)
	pAccentCont         // a letter run going on after an accented letter: the rest of "también"
	pCombining          // a combining mark (U+0300-U+036F) after a letter: decomposed accents, Yoruba tones
	pTurkish            // ı, ş, ğ: Turkish and Azerbaijani
	pVietnamese         // Latin Extended Additional: Vietnamese tone marks
	pGreek              // Greek
	pCyrRussian         // Cyrillic of a Russian text (tokenscripts.go tells the tiers)
	pCyrDefault         // Ukrainian, Bulgarian and Cyrillic with no marks
	pCyrSouth           // Serbian, Macedonian, Belarusian, Uzbek
	pCyrTurkic          // Kazakh, Tatar, Mongolian
	pCyrKyrgyz          // Kyrgyz
	pArmenian           // Armenian
	pGeorgian           // Georgian
	pHebrew             // Hebrew
	pArabic             // Arabic
	pArabicFa           // Arabic script of a Persian text (tokenscripts.go tells the tiers)
	pArabicUr           // Arabic script of an Urdu text
	pEthiopic           // Amharic, Tigrinya
	pDevanagari         // Hindi, Marathi, Nepali
	pBengali            // Bengali, Assamese
	pGurmukhi           // Punjabi
	pGujarati           // Gujarati
	pOriya              // Odia
	pTamil              // Tamil
	pTelugu             // Telugu
	pKannada            // Kannada
	pMalayalam          // Malayalam
	pSinhala            // Sinhala
	pThai               // Thai
	pLao                // Lao
	pMyanmar            // Burmese
	pKhmer              // Khmer
	pHangul             // a Hangul syllable or letter
	pHanSimple          // Han in simplified Chinese (and unmarked text)
	pHanTrad            // Han in traditional Chinese
	pKanji              // Han in Japanese (a text with kana)
	pKana               // hiragana and katakana
	pCJKPunct           // CJK and full-width punctuation
	pAlphabet           // letters and marks of other scripts
	pScriptWord         // a word of a spaced non-Latin alphabet (Cyrillic, Greek, Arabic, Indic...): its first letter after ASCII
	pVarSel             // variation selectors (the U+FE0F after many emoji)
	pEmoji              // emoji and pictographs
	pUniSpace           // a non-ASCII space
	pUniPunct           // Latin-1 and general punctuation: quotes, dashes, «», ©
	pSymbol             // any other character: arrows, box drawing, maths
	pTab                // a single tab inside a line: a field separator, one token, no space glued to the word after
	pSpacesDigit        // a run of spaces before a digit: most tokenizers split its last space off as a token of its own
	pCapsEnglish        // each letter past the fifth of an ALL-CAPS word with an English tail (WARRANTIES, DESCRIPTION)
	pSpaceEnd           // a run of spaces or a tab before a line break: trailing blanks most tokenizers fold into the break
	pScriptBare         // the same word with no space before it (after a line break, a quote or a digit)
	pDigitSame          // each digit repeating the one before it: runs of one digit merge in some tokenizers
	pPunctMixed         // each character past the third of a run of mixed punctuation (regexes)
	pSymbolMore         // a symbol right after another (the ── of "├──", a rule of ═): runs of them merge
	pRareStart          // a word of three letters or more whose first two letters start few English words
	pCyrWord            // a Cyrillic word after a space: Russian costs o200k about two tokens a word, short or long
	pBaltic             // a letter with a macron, ogonek or cedilla of Latvian and Lithuanian (ā ē ī ū ė į ų ģ ķ ļ ņ): on top of its accent tier
	pCyrShortU          // Cyrillic of a text with ў (Belarusian, Uzbek): the south tier's letters, split more than Serbian's
	pPunctLetter        // a lone letter between punctuation, not after a backslash (the z of a-z], the i of (?i)): no merge on either side
	pRepeatLong         // a pRepeat from the fifth capital of a run of one on (base64 of zeros): a further discount, as tokenizers hold AAAA and longer runs whole
	pCapsRare           // an ALL-CAPS run of three letters or more whose start or end is rare in English (HETA, TONOS, ECDHE, GAKG): split more than capitals of common words
	pEscape             // a backslash (\s, \d, \( in regexes, \n in strings, \\ in paths): tokenizers merge it with little
	pRunSpace           // a token a run of spaces needs past its first runSpace: priced from the real counts of long runs, never fitted
	pRunPunct           // the same for a run of one punctuation character (runPunct, runRule)
	pRunBreak           // the same for a run of line breaks (runNewline)
	pRunTab             // the same for a run of tabs (runTab)
	pAstral             // a character past U+FFFF that is neither emoji nor Han (math bold 𝐀, Gothic, musical symbols): four UTF-8 bytes that byte-level tokenizers seldom merge
	nPieces
)

// pieces counts what one text is made of.
type pieces [nPieces]int32

// prices is what each piece costs in one tokenizer family.
type prices [nPieces]float64

// cost prices the counted pieces.
//
//go:norace
func (c *pieces) cost(p *prices) float64 {
	var sum float64
	for i, n := range c {
		if n != 0 {
			sum += float64(n) * p[i]
		}
	}
	return sum
}

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

// rareEnd reports whether a word ending in the lowercase letters a, b has
// an ending rare in English; capitals never do.
//
//go:norace
func rareEnd(a, b byte) bool {
	if asciiClass[a] != clsLower || asciiClass[b] != clsLower {
		return false
	}
	return commonEnd[a]&(1<<(b&31)) == 0
}

// isLetter reports whether c is an ASCII letter.
//
//go:norace
func isLetter(c byte) bool { return asciiClass[c] == clsLower || asciiClass[c] == clsUpper }

// countPieces counts the pieces of s in one pass.
//
//go:norace
func countPieces(s string, c *pieces) {
	var tally scriptTally
	var w wordCounts // the lowercase fast path's counts
	var marks textMarks
	glue := -1 // where the last accented Latin letter ends: a letter run there goes on its word
	n := len(s)
	for i := 0; i < n; {
		b := s[i]
		if b >= utf8.RuneSelf {
			var latin bool
			if i, latin = wideRune(s, i, c, &tally, &marks); latin {
				glue = i
			}
			continue
		}
		switch asciiClass[b] {
		case clsLower:
			// Fast path: an all-lowercase word, the commonest piece of all.
			j := lowerEnd(s, i+1)
			if j == n || asciiClass[s[j]] != clsUpper {
				w.add(s, i, j, glue)
				i = j
				continue
			}
			i = gluedRun(s, i, glue, c)
		case clsUpper:
			i = gluedRun(s, i, glue, c)
		case clsDigit:
			i = digitRun(s, i, c)
		case clsPunct:
			i = punctRun(s, i, c)
		case clsNewline:
			if k := i + 1; k < n && asciiClass[s[k]] != clsSpace && asciiClass[s[k]] != clsNewline {
				// a bare line break, no blank line or indentation after it
				c[pNewline]++
				i++
				continue
			}
			i = newlineRun(s, i, c)
		case clsSpace:
			if b == ' ' && i+1 < n && asciiClass[s[i+1]] == clsLower {
				i++ // a single space before a word, the commonest space: free
				continue
			}
			i = spaceRun(s, i, c)
		default:
			c[pCtrl]++
			i++
		}
	}
	c.addWords(&w, &tally, &marks)
}

// wordCounts are the counts of countPieces' fast path, all-lowercase words.
type wordCounts struct {
	words, cont   int // words, and runs going on after an accented letter
	long, longEng int // letters past wordFree, in words with an English tail or without
	rare          int // words with an ending rare in English
	rareStart     int // words with a start rare in English
}

// textMarks count the letters that correct the tier tokenscripts.go gives a
// text: Cyrillic ў and і tell Belarusian (and Uzbek) from Serbian or
// Russian, and Vietnamese's tone marks tell it from Romanian, whose ă
// the tally counts as Vietnamese.
type textMarks struct{ shortU, dotI, tones int }

// add counts the lowercase word s[i:j]; glue is where the last accented
// letter ended.
//
//go:norace
func (w *wordCounts) add(s string, i, j, glue int) {
	n := j - i
	if i == glue {
		w.cont++
	} else {
		w.words++
	}
	if n < 3 {
		return
	}
	if i != glue {
		w.rareStart += int(commonStart[s[i]]>>(s[i+1]&31)&1 ^ 1)
	}
	w.rare += int(commonEnd[s[j-2]]>>(s[j-1]&31)&1 ^ 1)
	if n > wordFree {
		if englishTail(s[j-3], s[j-2], s[j-1]) {
			w.longEng += n - wordFree
		} else {
			w.long += n - wordFree
		}
	}
}

// wideRune counts the non-ASCII character at i (a word of a spaced script,
// a letter the tally prices by script, or a piece of its own) and returns
// where the next begins and whether it is a Latin letter, which glues a
// letter run after it onto its word.
//
//go:norace
func wideRune(s string, i int, c *pieces, tally *scriptTally, m *textMarks) (int, bool) {
	r, size := utf8.DecodeRuneInString(s[i:])
	if spacedScript(r) && (i == 0 || s[i-1] < utf8.RuneSelf) {
		switch {
		case i > 0 && s[i-1] == ' ' && r >= cyrillicFirst && r <= cyrillicLast:
			c[pCyrWord]++ // priced apart: the Cyrillic languages were learned from far more text than the others
		case i > 0 && s[i-1] == ' ':
			c[pScriptWord]++
		default:
			c[pScriptBare]++ // no space before it: a line's or a name's first word
		}
	}
	if r >= 0x100 && r < 0x180 && balticLetter[r-0x100] {
		c[pBaltic]++
	}
	switch r {
	case 'ў', 'Ў':
		m.shortU++ // Belarusian, Uzbek
	case 'і', 'І':
		m.dotI++ // Belarusian with ы and э, or Ukrainian
	}
	if r >= 0x1ea0 && r <= 0x1ef9 {
		m.tones++ // ạ ả ấ ầ ... ỹ: Vietnamese
	}
	if !tally.add(r) {
		p := runePiece(r)
		if p == pSymbol && i > 0 && s[i-1] >= utf8.RuneSelf {
			if prev, _ := utf8.DecodeLastRuneInString(s[:i]); prev != utf8.RuneError && runePiece(prev) == pSymbol {
				p = pSymbolMore // "├──", "═════": tokenizers merge runs of box drawing
			}
		}
		c[p]++
	}
	return i + size, latinLetter(r)
}

// balticLetter marks, in Latin Extended-A, the letters of Latvian and
// Lithuanian that Czech, Slovak, Polish, Romanian or Croatian do not
// write: tokenizers learned the Baltic languages from less text than those,
// and their words split more.
var balticLetter = func() (t [0x80]bool) {
	for _, r := range "āĀēĒīĪūŪėĖįĮųŲģĢķĶļĻņŅ" {
		t[r-0x100] = true
	}
	return t
}()

// digitRun counts the run of digits at i, a piece per digit and per group
// of three, and returns its end.
//
//go:norace
func digitRun(s string, i int, c *pieces) int {
	j, same := i+1, int32(0)
	for j < len(s) && asciiClass[s[j]] == clsDigit {
		if s[j] == s[j-1] {
			same++ // 0000 in a hex dump, 2000 in a date
		}
		j++
	}
	c[pDigitGroup] += int32((j - i + 2) / 3)
	c[pDigit] += int32(j-i) - same
	c[pDigitSame] += same
	return j
}

// addWords adds the counts countPieces kept in registers, and the script
// tally's; rare word ends are priced as Western ones when accented Latin
// text is most of the words.
//
//go:norace
func (c *pieces) addWords(w *wordCounts, tally *scriptTally, m *textMarks) {
	c[pWord] += int32(w.words)
	c[pAccentCont] += int32(w.cont)
	c[pLongLetter] += int32(w.long)
	c[pLongEnglish] += int32(w.longEng)
	c[pRareEnd] += int32(w.rare)
	c[pRareStart] += int32(w.rareStart)
	latin := tally.count(c)
	if latin == pVietnamese && m.tones*vietnameseShare < tally.latin {
		// ă, not tone marks, made it Vietnamese: Romanian, which is
		// Central European
		c[pAccentExt], c[pVietnamese], latin = c[pVietnamese], 0, pAccentExt
	}
	switch {
	case m.shortU > 0 && m.shortU*markShare >= tally.cyr && c[pCyrSouth] > 0:
		// ў: Belarusian or Uzbek, languages tokenizers learned from less
		// text than Serbian or Macedonian, which share the south tier
		c[pCyrShortU], c[pCyrSouth] = c[pCyrSouth], 0
	case m.dotI > 0 && m.dotI*russianShare >= tally.cyr && c[pCyrRussian] > 0:
		// і with the ы and э that made it Russian: Belarusian
		c[pCyrShortU], c[pCyrRussian] = c[pCyrRussian], 0
	}
	if latin == pAccent && tally.latin*westShare >= int(c[pWord]+c[pAccentCont]) {
		c[pRareEndWest], c[pRareEnd] = c[pRareEnd], 0
	}
}

// gluedRun counts the letter run at i with letterRun, its first piece as
// the rest of a word when an accented letter glues it to the letters before
// ("Ubersetzung" after Ü): tokenizers see one word there, not two.
//
//go:norace
func gluedRun(s string, i, glue int, c *pieces) int {
	if i == glue {
		c[pWord]--
		c[pAccentCont]++
	}
	return letterRun(s, i, c)
}

// latinLetter reports whether r is a Latin letter outside ASCII, or a
// combining mark: either goes on the word it is in.
//
//go:norace
func latinLetter(r rune) bool {
	return r >= 0xc0 && r <= 0x24f && r != 0xd7 && r != 0xf7 || r >= 0x1e00 && r <= 0x1eff || r >= 0x300 && r <= 0x36f
}

// spacedScript reports whether r is a letter of a non-Latin alphabet
// written with spaces between words (Greek to Sinhala, Georgian, Ethiopic):
// there a letter after ASCII starts a word, which tokenizers price apart
// from its letters. Thai, Lao, Burmese and Khmer put no spaces between
// words; CJK has no words to count.
//
//go:norace
func spacedScript(r rune) bool {
	return r >= 0x370 && r < 0xe00 || r >= 0x10a0 && r < 0x1100 || r >= 0x1200 && r < 0x13a0
}

// punctRun counts the punctuation run starting at i and returns its end.
//
//go:norace
func punctRun(s string, i int, c *pieces) int {
	j, escapes := i+1, int32(0)
	if s[i] == '\\' {
		escapes++
	}
	for j < len(s) && asciiClass[s[j]] == clsPunct {
		if s[j] == '\\' && s[j-1] != '\\' {
			escapes++ // \\ in JSON or C: one escape, however many backslashes
		}
		j++
	}
	c[pEscape] += escapes
	switch {
	case j-i == 1 && j < len(s) && isLetter(s[j]):
		c[pPunctWord]++
	case j-i > punctShort && !sameBytes(s[i:j]):
		// a long run of mixed punctuation ("(?:[^\"\\]|\\.)*" in a regex):
		// few such runs are tokens, so its characters cost more
		c[pPunct]++
		c[pPunctMore] += punctShort - 1
		c[pPunctMixed] += int32(j - i - punctShort)
	default:
		c[pPunct]++
		c[pPunctMore] += int32(min(j-i, runPunct) - 1)
		if j-i > runPunct {
			c[pRunPunct] += int32((j - i - 1) / runPunct) // a rule of 4000 dashes
		}
	}
	if j+1 < len(s) && s[j-1] != '\\' && isLetter(s[j]) && asciiClass[s[j+1]] == clsPunct {
		c[pPunctLetter]++ // [a-z], (?i): regexes, indexes
	}
	return j
}

// punctShort is the longest punctuation run priced as one piece and its
// further characters: "();", "*/", "-->" are tokens, longer mixes rarely.
const punctShort = 3

// sameBytes reports whether every byte of s is its first (a rule of ---- or ====).
//
//go:norace
func sameBytes(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return true
}

// lowerEnd returns the index of the first byte at or after i that is not a
// lowercase ASCII letter. It tests eight bytes at a time: a byte b < 0x80 is
// in 'a'..'z' when b+0x1f has its top bit set and b+0x05 has not.
//
//go:norace
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

// letterRun counts the ASCII letter run starting at i and returns its end.
// A lower-to-upper change starts a new piece (camelCase, random text); an
// upper-to-lower flip after two capitals marks random text. It scans whole
// lowercase and uppercase stretches at a time: prose is long lowercase
// stretches, and this loop is the estimator's hot path.
//
//go:norace
func letterRun(s string, i int, c *pieces) int {
	seg, caps, closed := 0, 0, 0 // letters in this piece, capitals in the run, pieces closed
	prevUpper, started := false, false
	j, n := i, len(s)
	for j < n {
		k := j
		for k < n && asciiClass[s[k]] == clsLower {
			k++
		}
		if k > j {
			if prevUpper && seg > 1 {
				c[pCaseFlip]++
			}
			seg += k - j
			prevUpper, started = false, true
			j = k
		}
		for k < n && asciiClass[s[k]] == clsUpper {
			if k > i && s[k] == s[k-1] {
				c[pRepeat]++
				if k-4 >= i && s[k-4] == s[k] && s[k-3] == s[k] && s[k-2] == s[k] {
					c[pRepeatLong]++ // the fifth A of AAAAA on
				}
			}
			k++
		}
		if k == j {
			break
		}
		if started && !prevUpper { // lower-to-upper: the piece so far is closed
			c[pWord]++
			longPiece(s, j, seg, c)
			closed++
			seg = 0
		}
		seg += k - j
		caps += k - j
		prevUpper, started = true, true
		j = k
	}
	lastPiece(s, i, j, seg, caps, closed == 0, c)
	return j
}

// lastPiece counts the last piece of the letter run s[i:j], seg letters
// long, caps of the run's letters capitals; whole says it is the run's
// only piece. Capitals are priced by what they read as: English words
// (WARRANTIES), short words (OF, AND), rare ones (HETA, ECDHE: a start or
// an end rare in English, split more) or no word (base32).
//
//go:norace
func lastPiece(s string, i, j, seg, caps int, whole bool, c *pieces) {
	c[pWord]++
	if whole && caps == 1 && j-i >= 3 && commonStart[s[i]|0x20]&(1<<(s[i+1]&31)) == 0 {
		c[pRareStart]++ // a capitalised word: Tallinna, Ngesikhathi
	}
	if seg >= 3 && rareEnd(s[j-2], s[j-1]) {
		c[pRareEnd]++
	}
	allCaps := whole && caps == seg
	switch {
	case allCaps && seg > wordFree && englishTail(s[j-3]|0x20, s[j-2]|0x20, s[j-1]|0x20):
		c[pCapsEnglish] += int32(seg - wordFree) // WARRANTIES, DESCRIPTION: English, in capitals
	case allCaps && seg > 1 && !capsWord(s[i:j]):
		if seg <= 5 && hasVowel(s[i:j]) {
			c[pCapsShort] += int32(seg - 1) // OF, AND, KIND: words more often than not
		} else {
			c[pCapsLetter] += int32(seg - 1)
		}
	default:
		longPiece(s, j, seg, c)
	}
	if allCaps && seg >= 3 && (commonStart[s[i]|0x20]&(1<<(s[i+1]&31)) == 0 || commonEnd[s[j-2]|0x20]&(1<<(s[j-1]&31)) == 0) && !commonCaps(s[i:j]) {
		c[pCapsRare]++
	}
}

// longPiece counts the letters past wordFree of the piece of seg letters
// ending at j, as English ones when it has an English tail.
//
//go:norace
func longPiece(s string, j, seg int, c *pieces) {
	if seg <= wordFree {
		return
	}
	if isLower3(s[j-3], s[j-2], s[j-1]) && englishTail(s[j-3], s[j-2], s[j-1]) {
		c[pLongEnglish] += int32(seg - wordFree)
		return
	}
	c[pLongLetter] += int32(seg - wordFree)
}

// isLower3 reports whether a, b and c are lowercase ASCII letters.
//
//go:norace
func isLower3(a, b, c byte) bool {
	return asciiClass[a] == clsLower && asciiClass[b] == clsLower && asciiClass[c] == clsLower
}
