package main

import (
	"path/filepath"
	"testing"
)

// The samples of testdata/tokens/**/*.jsonl as the estimator's tests read
// them. tools/tokenfit fits the prices on the fit samples (its README
// says how they were made); these tests check them on the others.

// checkFiles are the samples the fit never saw: every file of
// testdata/tokens/check, as tools/tokenfit takes them, so a new one is
// checked by both without a list to keep in step.
func checkFiles(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob("testdata/tokens/check/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no samples in testdata/tokens/check")
	}
	return files
}

// realCount is the real count of s under a family's tokenizer.
func realCount(s sample, family string) int {
	switch family {
	case "o200k":
		return s.O200k
	case "cl100k":
		return s.Cl100k
	case "claude":
		return s.Claude
	case "llama3":
		return s.Llama3
	case "qwen":
		return s.Qwen3
	case "deepseek":
		return s.DeepseekV3
	case "gemma":
		return s.Gemma3
	}
	return 0
}

// pieceNames are the Go names of the pieces, for messages about them.
var pieceNames = [nPieces]string{
	"pWord", "pLongLetter", "pLongEnglish", "pRareEnd", "pRareEndWest", "pCapsLetter", "pCapsShort", "pRepeat", "pCaseFlip", "pDigitGroup", "pDigit", "pPunct", "pPunctMore",
	"pPunctWord", "pNewline", "pBlankLine", "pIndent", "pSpaces", "pSpaceMore", "pSpaceDigit", "pSpaceWide", "pCtrl",
	"pAccent", "pUmlaut", "pAccentDense", "pAccentExt", "pAccentCont", "pCombining", "pTurkish", "pVietnamese", "pGreek", "pCyrRussian", "pCyrDefault", "pCyrSouth", "pCyrTurkic",
	"pCyrKyrgyz", "pArmenian", "pGeorgian", "pHebrew", "pArabic", "pArabicFa", "pArabicUr", "pEthiopic", "pDevanagari", "pBengali",
	"pGurmukhi", "pGujarati", "pOriya", "pTamil", "pTelugu", "pKannada", "pMalayalam", "pSinhala",
	"pThai", "pLao", "pMyanmar", "pKhmer", "pHangul", "pHanSimple", "pHanTrad", "pKanji",
	"pKana", "pCJKPunct", "pAlphabet", "pScriptWord", "pVarSel", "pEmoji", "pUniSpace", "pUniPunct", "pSymbol",
	"pTab", "pSpacesDigit", "pCapsEnglish", "pSpaceEnd", "pScriptBare", "pDigitSame", "pPunctMixed", "pSymbolMore", "pRareStart", "pCyrWord", "pBaltic", "pCyrShortU", "pPunctLetter", "pRepeatLong", "pCapsRare", "pEscape", "pRunSpace", "pRunPunct", "pRunBreak", "pRunTab", "pAstral",
}

// loadFiles reads the samples of every file in paths.
func loadFiles(t testing.TB, paths []string) []sample {
	t.Helper()
	var out []sample
	for _, p := range paths {
		out = append(out, loadSampleFile(t, p)...)
	}
	return out
}
