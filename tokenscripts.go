package main

import (
	"unicode"
	"unicode/utf8"
)

// Some scripts cost what the language costs, not what the characters do:
// tokenizers learned Russian and simplified Chinese from far more text than
// Ukrainian, Serbian, Kazakh, traditional Chinese or Japanese kanji, so the
// same letters cost up to 40% more in the rarer languages (measured with
// o200k and cl100k on the machine's gettext catalogues, per character of
// pure script text). No single price per character is within 0.85-1.6 of
// both Russian and Ukrainian, or of both simplified and traditional Chinese.
// The estimator therefore counts these characters with the letters that
// mark each language and decides their piece once the whole text has been
// read; each family prices the tiers (tokenfamily.go).
// The tally is part of the scan, and //go:norace for the reason tokenscan.go
// gives.
const (
	markShare       = 1000 // a mark of a rarer language in 1 of 1000 letters decides
	russianShare    = 200  // ы, э or ё in 1 of 200 letters: Russian (2% in Russian prose)
	kanaShareOfHan  = 10   // kana in 1 of 10 CJK letters makes it Japanese
	urduShare       = 30   // ے, ہ, ں, ٹ, ڈ, ڑ or ھ in 1 of 30 Arabic-script letters: Urdu
	persianShare    = 30   // پ, چ, ژ, گ, ک or ی in 1 of 30: Persian (ی alone is 1 in 12 there)
	latinExtShare   = 5    // 1 in 5 accented letters past Latin-1 (č, ł, ā, ș): Central European or Baltic
	denseWords      = 5    // 2 accented letters in 5 words: Hungarian, Icelandic, Irish (Romance prose has under 1 in 3)
	denseMin        = 8    // ... and 8 of them at least: a short phrase tells no language
	westShare       = 25   // an accent of Latin-1 in 1 of 25 words: a Western European text (not English)
	vietnameseShare = 4    // ơ, ư, đ, ă or a tone mark in 1 of 4 accented letters: Vietnamese
	hanTableFirst   = 0x4e00
	hanTableLast    = 0x9fff
	cyrillicFirst   = 0x0400
	cyrillicLast    = 0x052f
	kanaFirst       = 0x3040
	kanaLast        = 0x30ff
	halfwidthKana   = 0xff66
	halfwidthKanaTo = 0xff9f
)

// scriptTally counts the characters priced by the language of the text.
type scriptTally struct {
	cyr, russian, south, turkic, kyrgyz, mongolian int
	han, kana, simplified, traditional             int
	latin, vietnamese, latinExt, umlaut            int // accented Latin letters, Vietnamese's own, those past Latin-1, umlauts
	arabic, persian, urdu                          int // Arabic script, and the letters Persian and Urdu add
}

// Forms of a Han character the tally tells languages by.
const (
	hanAny byte = iota
	hanSimplifiedOnly
	hanTraditionalOnly
)

// Common characters that have a different form in the other script: the
// simplified ones, and their traditional counterparts.
const (
	simplifiedMarks  = "这个们来时说为会对与后开关见长东车门问间电发现体点进国学产动种经还过当机样将从应语无实号档资设选项错误输显录数据类读写请变区网务参于业么义乐书亿价优传儿决况刚创删则势华单却压厂历县叶启员响团围图块处备复头夹标树桥检楼构气汉没测济满热爱状独环画盘码确离积称稳签简级线组细终结给统继续绝维罗职联脑节获药范装规视览计认让议记讯证识诉译试话该调谁负败贴费赛转软轮载边连递逻钟钮链销锁键闭阅队际隐难页顺须预题风饭驱验"
	traditionalMarks = "這個們來時說為會對與後開關見長東車門問間電發現體點進國學產動種經還過當機樣將從應語無實號檔資設選項錯誤輸顯錄數據類讀寫請變區網務參於業麼義樂書億價優傳兒決況剛創刪則勢華單卻壓廠歷縣葉啟員響團圍圖塊處備復頭夾標樹橋檢樓構氣漢沒測濟滿熱愛狀獨環畫盤碼確離積稱穩簽簡級線組細終結給統繼續絕維羅職聯腦節獲藥範裝規視覽計認讓議記訊證識訴譯試話該調誰負敗貼費賽轉軟輪載邊連遞邏鐘鈕鏈銷鎖鍵閉閱隊際隱難頁順須預題風飯驅驗"
)

// hanForm maps the CJK Unified Ideographs block to the form marks above.
var hanForm = func() (t [hanTableLast - hanTableFirst + 1]byte) {
	for _, r := range simplifiedMarks {
		t[r-hanTableFirst] = hanSimplifiedOnly
	}
	for _, r := range traditionalMarks {
		t[r-hanTableFirst] = hanTraditionalOnly
	}
	return t
}()

// add counts r when its price depends on the language and reports whether it did.
//
//go:norace
func (t *scriptTally) add(r rune) bool {
	switch {
	case r >= cyrillicFirst && r <= cyrillicLast:
		t.cyr++
		switch r {
		case 'ы', 'Ы', 'э', 'Э', 'ё', 'Ё':
			t.russian++
		case 'ђ', 'Ђ', 'ћ', 'Ћ', 'џ', 'Џ', 'љ', 'Љ', 'њ', 'Њ', 'ј', 'Ј', 'ѓ', 'Ѓ', 'ќ', 'Ќ', 'ѕ', 'Ѕ', 'ў', 'Ў', 'қ', 'Қ', 'ғ', 'Ғ', 'ҳ', 'Ҳ':
			t.south++
		case 'ә', 'Ә', 'ұ', 'Ұ', 'һ', 'Һ':
			t.turkic++
		case 'ң', 'Ң':
			t.kyrgyz++
		case 'ө', 'Ө', 'ү', 'Ү':
			t.mongolian++
		}
	case r >= hanTableFirst && r <= hanTableLast:
		t.han++
		switch hanForm[r-hanTableFirst] {
		case hanSimplifiedOnly:
			t.simplified++
		case hanTraditionalOnly:
			t.traditional++
		}
	case r >= kanaFirst && r <= kanaLast, r >= halfwidthKana && r <= halfwidthKanaTo:
		t.kana++
	case r >= 0x3400 && r <= 0x4dbf, r >= 0xf900 && r <= 0xfaff, r >= 0x20000 && r <= 0x3134f:
		t.han++ // rarer ideographs: priced as Han, no form marks
	case r >= 0x0600 && r <= 0x06ff, r >= 0x0750 && r <= 0x077f, r >= 0xfb50 && r <= 0xfdff, r >= 0xfe70 && r <= 0xfefe:
		t.arabic++
		switch r {
		case 'ٹ', 'ڈ', 'ڑ', 'ں', 'ے', 'ہ', 'ھ':
			t.urdu++
		case 'پ', 'چ', 'ژ', 'گ', 'ک', 'ی':
			t.persian++
		}
	case r >= 0x1e00 && r <= 0x1eff:
		t.latin++
		if r >= 0x1ea0 && r <= 0x1ef9 && r != 'ẹ' && r != 'Ẹ' && r != 'ọ' && r != 'Ọ' {
			t.vietnamese++ // Vietnamese's tone marks
		} else {
			t.latinExt++ // Yoruba's ẹ, ọ, ṣ; transliterations
		}
	case r >= 0xc0 && r <= 0x24f && r != 0xd7 && r != 0xf7 && !turkishLetter(r):
		t.latin++
		if r >= 0x100 {
			t.latinExt++
		}
		switch r {
		case 'ä', 'Ä', 'ö', 'Ö', 'ü', 'Ü', 'å', 'Å', 'ø', 'Ø', 'æ', 'Æ', 'ß', 'ë', 'ï', 'ő', 'ű', 'õ', 'Õ':
			t.umlaut++
		case 'ă', 'Ă', 'đ', 'Đ', 'ơ', 'Ơ', 'ư', 'Ư':
			t.vietnamese++
		}
	default:
		return false
	}
	return true
}

// count adds the tallied characters to c as the pieces of the language
// their marks point to, and returns the piece its accented letters were.
//
//go:norace
func (t *scriptTally) count(c *pieces) int {
	cyr := pCyrDefault
	switch {
	case t.cyr == 0:
	case marked(t.turkic, t.cyr): // Kazakh, Tatar, Bashkir
		cyr = pCyrTurkic
	case marked(t.mongolian, t.cyr) && t.kyrgyz > 0:
		cyr = pCyrKyrgyz
	case marked(t.mongolian, t.cyr):
		cyr = pCyrTurkic
	case marked(t.south, t.cyr):
		cyr = pCyrSouth
	case t.russian > 0 && t.russian*russianShare >= t.cyr:
		cyr = pCyrRussian
	}
	han := pHanSimple
	switch {
	case t.kana > 0 && t.kana*kanaShareOfHan >= t.han+t.kana:
		han = pKanji
	case t.traditional > t.simplified:
		han = pHanTrad
	}
	latin := t.latinPiece(int(c[pWord] + c[pAccentCont]))
	arabic := pArabic
	switch {
	case t.urdu*urduShare >= t.arabic && t.urdu > 0:
		arabic = pArabicUr
	case t.persian*persianShare >= t.arabic && t.persian > 0:
		arabic = pArabicFa
	}
	c[arabic] += int32(t.arabic)
	if latin == pAccent {
		c[pUmlaut] += int32(t.umlaut)
		t.latin -= t.umlaut
	}
	c[latin] += int32(t.latin)
	c[cyr] += int32(t.cyr)
	c[han] += int32(t.han)
	c[pKana] += int32(t.kana)
	return latin
}

// latinPiece is the piece the accented Latin letters of a text of words
// letter runs are: Vietnamese, Central European (past Latin-1), dense
// (Hungarian, Icelandic, Irish, Yoruba: languages tokenizers split more
// than the Romance ones, whose accents are rarer) or Western.
//
//go:norace
func (t *scriptTally) latinPiece(words int) int {
	switch {
	case t.latin == 0:
	case t.vietnamese*vietnameseShare >= t.latin:
		return pVietnamese
	case t.latinExt*latinExtShare >= t.latin:
		return pAccentExt
	case t.latin >= denseMin && t.latin*denseWords >= 2*words:
		return pAccentDense
	}
	return pAccent
}

// marked reports whether marks are frequent enough among n letters to name
// a language other than Russian: one stray letter in a long Russian text
// does not, a few in a thousand do.
//
//go:norace
func marked(marks, n int) bool { return marks > 0 && marks*markShare >= n }

// isHangul reports whether r is a Hangul syllable or letter.
//
//go:norace
func isHangul(r rune) bool { return unicode.Is(unicode.Hangul, r) }

// turkishLetter reports ı, ş, ğ and their capitals, priced apart from the
// other accented letters.
//
//go:norace
func turkishLetter(r rune) bool {
	return r == 'ı' || r == 'İ' || r == 'ş' || r == 'Ş' || r == 'ğ' || r == 'Ğ'
}

// runePiece names the piece one non-ASCII character is, by its script.
//
//go:norace
func runePiece(r rune) int {
	switch {
	case r == utf8.RuneError:
		return pSymbol
	case r >= 0x0900 && r <= 0x0dff:
		return indicPiece(r)
	case r >= 0x1000 && r <= 0x109f:
		return pMyanmar
	case r >= 0x1780 && r <= 0x17ff:
		return pKhmer
	case r >= 0x0e00 && r <= 0x0e7f:
		return pThai
	case r >= 0x0e80 && r <= 0x0eff:
		return pLao
	case r >= 0x0590 && r <= 0x05ff:
		return pHebrew
	case r >= 0x0370 && r <= 0x03ff, r >= 0x1f00 && r <= 0x1fff:
		return pGreek
	case isHangul(r):
		return pHangul
	case r >= 0x3000 && r <= 0x303f, r >= 0xff00 && r <= 0xffef:
		return pCJKPunct
	case turkishLetter(r):
		return pTurkish
	}
	return otherPiece(r)
}

// indicPiece names the Indic script of r, in 0x0900-0x0dff: each has its
// block of 128, and tokenizers learned them from very different amounts of
// text.
//
//go:norace
func indicPiece(r rune) int {
	return [...]int{pDevanagari, pBengali, pGurmukhi, pGujarati, pOriya, pTamil, pTelugu, pKannada, pMalayalam, pSinhala}[(r-0x0900)>>7]
}

// otherPiece names the piece of a character outside the scripts runePiece
// tells by their blocks.
//
//go:norace
func otherPiece(r rune) int {
	switch {
	case r > 0xffff && (r < 0x1f000 || r > 0x1faff):
		return pAstral
	case unicode.Is(unicode.Latin, r):
		return pAccent
	case r >= 0x300 && r <= 0x36f:
		return pCombining
	case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
		return alphabetPiece(r)
	case r >= 0x1f000 || r >= 0x2600 && r <= 0x27bf:
		return pEmoji
	case unicode.IsSpace(r):
		return pUniSpace
	case r >= 0x80 && r <= 0xbf, r >= 0x2000 && r <= 0x206f:
		return pUniPunct
	}
	return pSymbol
}

// alphabetPiece names the script of a letter or mark that has a price of
// its own in some families, pAlphabet for the rest.
//
//go:norace
func alphabetPiece(r rune) int {
	switch {
	case r >= 0x0530 && r <= 0x058f:
		return pArmenian
	case r >= 0x10a0 && r <= 0x10ff, r >= 0x1c90 && r <= 0x1cbf, r >= 0x2d00 && r <= 0x2d2f:
		return pGeorgian
	case r >= 0x1200 && r <= 0x139f:
		return pEthiopic
	case r >= 0xfe00 && r <= 0xfe0f:
		return pVarSel
	}
	return pAlphabet
}
