package main

// What English looks like to the scan (tokenscan.go): the starts, ends and
// tails of the English words tokenizers hold whole, and the capitals that
// read as words. Text whose words start or end otherwise is split more.
// Like the scan, every function here is //go:norace.

// englishEnds are the last two letters of 93% of the English words (of
// three letters or more) in the prose, man pages, changelogs and commit
// messages of testdata/tokens/fit/set1.jsonl. A word ending otherwise is rarer
// in the English that tokenizers learned most from, so more often split:
// Basque, Swahili, Dutch, Finnish, identifiers like cfg or ptr.
const englishEnds = "ad al am an ar as at ay ce ch ct de ds ed ee em en er es et ey fy ge he ht ic in io is it ke ks ld le " +
	"ll ls ly ma me mp ms nd ne ng ns nt ny ol om on or ot ou ow ps pt py rd re rg rk rm rs rt ry se so ss st te th ts ty ub " +
	"um un up ur ut ve ws xt ze"

// englishTails are the last three letters of 77% of the English words of
// six letters or more in testdata/tokens/fit/set1.jsonl's prose, man pages,
// licences and changelogs, and of 15% of the other Latin-script words
// there. English words this long are mostly one token (documentation,
// Redistributions); Dutch, Finnish or Swahili ones, not ending so, split.
const englishTails = "ace age ain ard ary ate ble cal ces cts ded der des ect ely ent ers ess ets ght her ial ice ide " +
	"ied ies ify ily ing ion ire ise ity ive ize led lly nal nce ncy ned nge nse nts ons ors ose ple rce red ses ted tly " +
	"uce uct ude ugh uld ure ute ved ves "

// englishStarts are the first two letters of 97% of the English words
// (of three letters or more) in the prose, man pages, changelogs, licences
// and Markdown of the fit files (testdata/tokens/samples.md). Words starting
// otherwise are common in the languages tokenizers learned little of
// (Irish bh-, gc-, Zulu uk-, ng-, Estonian ja-, vä-, Basque tx-), rarer in
// the Romance languages, whose words share English's Latin roots. (With
// 95%, que, est and vous cost a rare start: a Spanish, Portuguese or
// French help text was 1.19-1.28 of gemma's count, now 1.16-1.23.)
const englishStarts = "ab ac ad af ag al am an ap ar as at au av ba be bi bl bo br bu ca ce ch ci cl co cr cu da de di do dr du ea ef ei el en eq er es et ev ex fa fe fi fl fo fr fu ge gi go gr gu ha he hi ho ht id im in ir is it ke kn la le " +
	"li lo ma me mi mo mu na ne ni no nu ob oc of ol on op or ot ou ov ow pa pe ph pi pl po pr pu qu ra re ri ro ru sa sc se sh si sl sn so sp st su sw sy ta te th ti to tr tw ty un up ur us va ve vi vn vo wa we wh wi wo wr yo "

// commonStart has bit b&31 of entry a set when the lowercase letters a, b
// start many English words (englishStarts).
var commonStart = func() (t [256]uint32) {
	for i := 0; i+1 < len(englishStarts); i += 3 {
		t[englishStarts[i]] |= 1 << (englishStarts[i+1] & 31)
	}
	return t
}()

// commonTail has bit c&31 of entry (a&31)<<5|b&31 set when the lowercase
// letters a, b, c are one of englishTails.
var commonTail = func() (t [1024]uint32) {
	for i := 0; i+2 < len(englishTails); i += 4 {
		t[int(englishTails[i]&31)<<5|int(englishTails[i+1]&31)] |= 1 << (englishTails[i+2] & 31)
	}
	return t
}()

// englishTail reports whether the lowercase letters a, b, c end many
// English words (englishTails).
//
//go:norace
func englishTail(a, b, c byte) bool {
	return commonTail[(int(a&31)<<5|int(b&31))&1023]&(1<<(c&31)) != 0
}

// commonEnd has bit b&31 of entry a set when the lowercase letters a, b
// end an English word often (englishEnds). Indexed by byte, so the hot
// path needs no bounds check.
var commonEnd = func() (t [256]uint32) {
	for i := 0; i+1 < len(englishEnds); i += 3 {
		t[englishEnds[i]] |= 1 << (englishEnds[i+1] & 31)
	}
	return t
}()

// hasVowel reports whether an ASCII run has a vowel (Y counts).
//
//go:norace
func hasVowel(run string) bool {
	for i := 0; i < len(run); i++ {
		switch run[i] | 0x20 {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			return true
		}
	}
	return false
}

// capsWord reports whether an ALL-CAPS run reads as a word (MESSAGES, ERROR,
// PASS): one of the capitals tool output is full of, or four letters or
// more, a third of them vowels. Tokenizers know such words whole, while
// capitals from base32 or hashes, with few vowels, cost a token every two or
// three letters.
//
//go:norace
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
//
//go:norace
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
