package main

import "strings"

// Tokenizers differ most where their training text was thin: Hindi costs
// o200k under half of what it costs cl100k, Qwen and Gemma give every digit
// a token of its own, Gemma has no byte-level fallback for spaces. One
// price table cannot be within 25% of all of them, so each family of
// tokenizers has its own, chosen from the model's name. The tables were
// fitted on testdata/tokens_fit.jsonl and the other files named in
// testdata/tokens_fit.md; testdata/tokens_check.jsonl, which was not
// looked at while fitting, checks them (tokenfamily_test.go).

// family is a tokenizer family: its name and what each piece costs in it.
type family struct {
	name   string
	prices *prices
}

// familyRules choose a family from the model's name, first match wins:
// every prefix or substring is tested on the lowercased name without its
// provider prefix. Distilled models take their base's tokenizer, so llama
// and qwen are tested before deepseek.
var familyRules = []struct {
	family         *family
	prefix, substr []string
}{
	{family: &o200kFamily, prefix: []string{"gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "gpt-oss", "o1", "o3", "o4", "codex"}},
	{family: &cl100kFamily, prefix: []string{"gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada"}},
	{family: &claudeFamily, substr: []string{"claude"}},
	{family: &gemmaFamily, substr: []string{"gemma", "gemini"}},
	{family: &qwenFamily, substr: []string{"qwen", "qwq"}},
	{family: &llama3Family, substr: []string{"llama3", "llama-3", "llama_3", "llama-v3", "llama 3", "distill-llama"}},
	{family: &deepseekFamily, substr: []string{"deepseek"}},
}

// familyOf returns the tokenizer family of a model name, generic when the
// name tells none.
func familyOf(model string) family {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:] // openai/gpt-4o, meta-llama/Llama-3.1-8B, accounts/x/models/y
	}
	for _, r := range familyRules {
		for _, p := range r.prefix {
			if strings.HasPrefix(m, p) && oSeriesEnd(m, p) {
				return *r.family
			}
		}
		for _, s := range r.substr {
			if strings.Contains(m, s) {
				return *r.family
			}
		}
	}
	return genericFamily
}

// oSeriesEnd reports whether a short o-series prefix (o1, o3, o4) ends
// where the name or its version part does, so that o1-mini matches and a
// model named o1something does not. Other prefixes are long enough.
func oSeriesEnd(m, p string) bool {
	if len(p) != 2 || len(m) == 2 {
		return true
	}
	c := m[2]
	return c == '-' || c == ':' || c == '.' || c == '@'
}

// orGeneric is f, or the generic family for the zero family, so that an
// agent built without a model still estimates.
func (f family) orGeneric() family {
	if f.prices == nil {
		return genericFamily
	}
	return f
}

// raw is the family's fractional estimate of s.
func (f family) raw(s string) float64 {
	var c pieces
	countPieces(s, &c)
	return c.cost(f.orGeneric().prices)
}

// tokens is the estimated token count of s, without calibration: at least
// one for any text, as even a lone space is a token.
func (f family) tokens(s string) int {
	if s == "" {
		return 0
	}
	return max(1, int(f.raw(s)+0.999))
}

// messageTokens estimates one message: overhead, text, tool calls.
func (f family) messageTokens(m message) int {
	n := msgOverhead + f.tokens(m.Content) + f.tokens(m.Name) + imagesTokens(m)
	for _, tc := range m.ToolCalls {
		n += msgOverhead + f.tokens(tc.Function.Name) + f.tokens(tc.Function.Arguments)
	}
	return n
}

// toolsTokens estimates the tool schemas sent with every request.
func (f family) toolsTokens(specs []toolSpec) int {
	n := 0
	for _, s := range specs {
		n += msgOverhead + f.tokens(s.Function.Name) + f.tokens(s.Function.Description) + f.tokens(string(s.Function.Parameters))
	}
	return n
}

// messageTokens estimates one message with the generic family.
func messageTokens(m message) int { return genericFamily.messageTokens(m) }

// toolsTokens estimates tool schemas with the generic family.
func toolsTokens(specs []toolSpec) int { return genericFamily.toolsTokens(specs) }

// genericFamily prices models whose tokenizer is unknown. Its ASCII prices
// were fitted on testdata/tokens.jsonl (minimax of estimate/real over o200k
// and cl100k, aimed at 1.2), its script prices checked on
// tokens_heldout.jsonl and tokens_kinds.jsonl: estimate/real is 0.93-1.48
// on every kind in the first and 0.91-1.59 in the others wherever the two
// tokenizers agree well enough for one number to fit both. Erring high is
// deliberate: an estimate that is too low ends in a rejection. The pieces
// added later cost here what they were counted as before, so its estimates
// are unchanged but for six non-English pieces (see testdata/tokens_fit.md).
var genericFamily = family{"generic", &prices{
	pWord: 1.158, pLongLetter: 0.154, pRareEnd: 0.2, pLongEnglish: 0.154, pCapsLetter: 0.4, pCapsShort: 0.4, pCaseFlip: 2.176,
	pDigitGroup: 1.255, pPunct: 0.975, pPunctMore: 0.547, pPunctWord: 0.5,
	pNewline: 1.895, pSpaces: 1.498, pSpaceDigit: 0.8, pCtrl: 1.0,
	pAccent: 0.35, pUmlaut: 0.8, pAccentDense: 0.8, pAccentExt: 1.0, pAccentCont: 1.158, pCombining: 0.42, pTurkish: 0.8, pVietnamese: 0.35, pGreek: 0.92,
	pCyrRussian: 0.40, pCyrDefault: 0.525, pCyrSouth: 0.63, pCyrTurkic: 0.75, pCyrKyrgyz: 0.54,
	pArmenian: 0.42, pGeorgian: 0.42, pHebrew: 0.6, pArabic: 0.68, pArabicFa: 0.68, pArabicUr: 0.68, pEthiopic: 2.4,
	pDevanagari: 1.1, pBengali: 1.3, pGurmukhi: 1.3, pGujarati: 1.3, pOriya: 1.3, pTamil: 1.3,
	pTelugu: 1.3, pKannada: 1.3, pMalayalam: 1.3, pSinhala: 1.3,
	pThai: 0.94, pLao: 2.2, pMyanmar: 1.3, pKhmer: 1.3, pHangul: 1.15,
	pHanSimple: 1.0, pHanTrad: 1.40, pKanji: 1.26, pKana: 0.87, pCJKPunct: 1.0,
	pAlphabet: 0.42, pVarSel: 0.42, pEmoji: 2.2, pUniSpace: 0.5, pUniPunct: 1.0, pSymbol: 1.0,
	pTab: 1.498, pSpacesDigit: 0, pCapsEnglish: 0.154, pSpaceEnd: 1.498,
}}

// The fitted families: prices written by TestFitPrices (go test -run
// TestFitPrices -fit FILE) from the samples named in testdata/tokens_fit.md.
var (
	o200kFamily = family{"o200k", &prices{
		pWord: 0.877, pLongLetter: 0.27, pLongEnglish: 0.011, pRareEnd: 0.824, pRareEndWest: 0.243, pCapsLetter: 0.523, pCapsShort: 0.013, pRepeat: -0.093,
		pCaseFlip: 3.142, pDigitGroup: 0.979, pDigit: 0.001, pPunct: 0.912, pPunctMore: 0.135, pPunctWord: 0.284, pNewline: 1.765, pBlankLine: 0.001,
		pIndent: 0.178, pSpaces: 1.543, pSpaceMore: 0, pSpaceDigit: 0.989, pSpaceWide: 0.145, pCtrl: 1.484, pAccent: 0.655, pUmlaut: 0.46,
		pAccentDense: 1.155, pAccentExt: 1.07, pAccentCont: 0.199, pCombining: 0.42, pTurkish: 1.331, pVietnamese: 0.422, pGreek: 0.407, pCyrRussian: 0.242,
		pCyrDefault: 0.35, pCyrSouth: 0.376, pCyrTurkic: 0.34, pCyrKyrgyz: 0.305, pArmenian: 0.337, pGeorgian: 0.358, pHebrew: 0.435, pArabic: 0.331,
		pArabicFa: 0.35, pArabicUr: 0.364, pEthiopic: 2.199, pDevanagari: 0.388, pBengali: 0.394, pGurmukhi: 0.636, pGujarati: 0.433, pOriya: 1.155,
		pTamil: 0.452, pTelugu: 0.425, pKannada: 0.456, pMalayalam: 0.343, pSinhala: 0.617, pThai: 0.449, pLao: 1.915, pMyanmar: 0.561,
		pKhmer: 0.555, pHangul: 0.683, pHanSimple: 0.69, pHanTrad: 1.128, pKanji: 1.022, pKana: 0.557, pCJKPunct: 1.369, pAlphabet: 0.42,
		pScriptWord: 0.005, pVarSel: 4, pEmoji: 0.975, pUniSpace: 0.25, pUniPunct: 1.411, pSymbol: 0.939, pTab: 0.871, pSpacesDigit: 0.546,
		pCapsEnglish: 0.001, pSpaceEnd: 0.002}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.98, pLongLetter: 0.403, pLongEnglish: 0.005, pRareEnd: 1.022, pRareEndWest: 0.125, pCapsLetter: 0.484, pCapsShort: 0.008, pRepeat: -0.215,
		pCaseFlip: 2.981, pDigitGroup: 1.146, pDigit: 0.001, pPunct: 0.829, pPunctMore: 0.108, pPunctWord: 0.003, pNewline: 1.408, pBlankLine: 0.001,
		pIndent: 0.053, pSpaces: 1.309, pSpaceMore: 0, pSpaceDigit: 0.801, pSpaceWide: 0.555, pCtrl: 0.227, pAccent: 1.79, pUmlaut: 1.872,
		pAccentDense: 1.671, pAccentExt: 1.82, pAccentCont: 0.024, pCombining: 0.42, pTurkish: 2.272, pVietnamese: 1.141, pGreek: 0.984, pCyrRussian: 0.409,
		pCyrDefault: 0.543, pCyrSouth: 0.602, pCyrTurkic: 0.768, pCyrKyrgyz: 0.609, pArmenian: 2.108, pGeorgian: 2.104, pHebrew: 1.098, pArabic: 0.759,
		pArabicFa: 0.792, pArabicUr: 1.043, pEthiopic: 2.99, pDevanagari: 1.143, pBengali: 1.376, pGurmukhi: 1.946, pGujarati: 1.956, pOriya: 2.971,
		pTamil: 1.501, pTelugu: 1.988, pKannada: 1.995, pMalayalam: 1.82, pSinhala: 2.129, pThai: 0.993, pLao: 2.275, pMyanmar: 2.082,
		pKhmer: 1.76, pHangul: 1.081, pHanSimple: 0.954, pHanTrad: 1.351, pKanji: 1.791, pKana: 0.642, pCJKPunct: 3.041, pAlphabet: 0.42,
		pScriptWord: 0.037, pVarSel: 0.954, pEmoji: 2.124, pUniSpace: 2.562, pUniPunct: 0.384, pSymbol: 0.68, pTab: 0.589, pSpacesDigit: 0.403,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002}}

	claudeFamily = family{"claude", &prices{
		pWord: 1.069, pLongLetter: 0.479, pLongEnglish: 0.002, pRareEnd: 1.181, pRareEndWest: 0.321, pCapsLetter: 0.595, pCapsShort: 0.315, pRepeat: -0.3,
		pCaseFlip: 2.591, pDigitGroup: 0.494, pDigit: 0.228, pPunct: 0.851, pPunctMore: 0.01, pPunctWord: 0.891, pNewline: 1.133, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 1.324, pSpaceMore: 0, pSpaceDigit: 0.013, pSpaceWide: 0.439, pCtrl: 1.658, pAccent: 1.789, pUmlaut: 1.902,
		pAccentDense: 1.914, pAccentExt: 2.232, pAccentCont: 0.079, pCombining: 0.42, pTurkish: 2.913, pVietnamese: 2.221, pGreek: 1.326, pCyrRussian: 0.536,
		pCyrDefault: 0.636, pCyrSouth: 0.688, pCyrTurkic: 0.856, pCyrKyrgyz: 0.736, pArmenian: 2.195, pGeorgian: 1.424, pHebrew: 1.052, pArabic: 1.076,
		pArabicFa: 1.154, pArabicUr: 1.407, pEthiopic: 3.286, pDevanagari: 1.367, pBengali: 2.105, pGurmukhi: 3.291, pGujarati: 3.259, pOriya: 3.256,
		pTamil: 2.176, pTelugu: 2.444, pKannada: 2.449, pMalayalam: 2.535, pSinhala: 1.894, pThai: 1.911, pLao: 3.245, pMyanmar: 1.102,
		pKhmer: 3.276, pHangul: 1.329, pHanSimple: 0.831, pHanTrad: 1.252, pKanji: 1.729, pKana: 0.671, pCJKPunct: 3.425, pAlphabet: 0.42,
		pScriptWord: 0.055, pVarSel: 1.336, pEmoji: 2.3, pUniSpace: 0.872, pUniPunct: 0.327, pSymbol: 0.973, pTab: 1.34, pSpacesDigit: 0.008,
		pCapsEnglish: 0.003, pSpaceEnd: 0.005}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.913, pLongLetter: 0.442, pLongEnglish: 0.03, pRareEnd: 1.121, pRareEndWest: 0.114, pCapsLetter: 0.496, pCapsShort: 0.012, pRepeat: -0.257,
		pCaseFlip: 3.138, pDigitGroup: 1.157, pDigit: 0.001, pPunct: 0.88, pPunctMore: 0.108, pPunctWord: 0.003, pNewline: 1.379, pBlankLine: 0.001,
		pIndent: 0.04, pSpaces: 1.334, pSpaceMore: 0, pSpaceDigit: 0.798, pSpaceWide: 0.509, pCtrl: 0.214, pAccent: 1.485, pUmlaut: 1.152,
		pAccentDense: 1.167, pAccentExt: 1.025, pAccentCont: 0.513, pCombining: 0.42, pTurkish: 0.733, pVietnamese: 0.018, pGreek: 0.369, pCyrRussian: 0.265,
		pCyrDefault: 0.335, pCyrSouth: 0.453, pCyrTurkic: 0.577, pCyrKyrgyz: 0.425, pArmenian: 1.83, pGeorgian: 2.113, pHebrew: 1.112, pArabic: 0.367,
		pArabicFa: 0.319, pArabicUr: 0.723, pEthiopic: 3.006, pDevanagari: 0.558, pBengali: 1.385, pGurmukhi: 1.952, pGujarati: 1.968, pOriya: 2.923,
		pTamil: 1.509, pTelugu: 1.996, pKannada: 2.001, pMalayalam: 1.786, pSinhala: 2.118, pThai: 0.502, pLao: 2.071, pMyanmar: 2.085,
		pKhmer: 1.743, pHangul: 0.64, pHanSimple: 0.798, pHanTrad: 0.977, pKanji: 0.922, pKana: 0.612, pCJKPunct: 0.731, pAlphabet: 0.42,
		pScriptWord: 0.007, pVarSel: 0.371, pEmoji: 2.268, pUniSpace: 1.903, pUniPunct: 0.595, pSymbol: 0.672, pTab: 0.608, pSpacesDigit: 0.345,
		pCapsEnglish: 0.001, pSpaceEnd: 0.002}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.924, pLongLetter: 0.432, pLongEnglish: 0.022, pRareEnd: 1.085, pRareEndWest: 0.038, pCapsLetter: 0.421, pCapsShort: 0.006, pRepeat: -0.246,
		pCaseFlip: 2.838, pDigitGroup: 0.483, pDigit: 0.908, pPunct: 0.846, pPunctMore: 0.065, pPunctWord: 0.002, pNewline: 1.573, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 1.241, pSpaceMore: 0, pSpaceDigit: 0.593, pSpaceWide: 1.075, pCtrl: 0.025, pAccent: 1.584, pUmlaut: 1.141,
		pAccentDense: 1.241, pAccentExt: 1.157, pAccentCont: 0.406, pCombining: 0.42, pTurkish: 1.335, pVietnamese: 0.123, pGreek: 0.876, pCyrRussian: 0.216,
		pCyrDefault: 0.373, pCyrSouth: 0.413, pCyrTurkic: 0.536, pCyrKyrgyz: 0.435, pArmenian: 1.018, pGeorgian: 1.022, pHebrew: 0.242, pArabic: 0.251,
		pArabicFa: 0.523, pArabicUr: 0.583, pEthiopic: 1.308, pDevanagari: 0.954, pBengali: 1.126, pGurmukhi: 1.699, pGujarati: 1.635, pOriya: 2.232,
		pTamil: 1.143, pTelugu: 1.623, pKannada: 1.495, pMalayalam: 1.44, pSinhala: 1.577, pThai: 0.582, pLao: 1.351, pMyanmar: 1.575,
		pKhmer: 1.29, pHangul: 0.587, pHanSimple: 0.662, pHanTrad: 0.891, pKanji: 0.681, pKana: 0.622, pCJKPunct: 0.566, pAlphabet: 0.42,
		pScriptWord: 0.001, pVarSel: 0.029, pEmoji: 1.17, pUniSpace: 2.101, pUniPunct: 0.456, pSymbol: 0.419, pTab: 0.534, pSpacesDigit: 0.369,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 1.013, pLongLetter: 0.333, pLongEnglish: 0.001, pRareEnd: 0.901, pRareEndWest: 0.071, pCapsLetter: 0.504, pCapsShort: 0.019, pRepeat: -0.123,
		pCaseFlip: 2.557, pDigitGroup: 1.058, pDigit: 0.001, pPunct: 0.854, pPunctMore: 0.124, pPunctWord: 0.364, pNewline: 1.588, pBlankLine: 0.001,
		pIndent: 0.121, pSpaces: 1.044, pSpaceMore: 0, pSpaceDigit: 0.909, pSpaceWide: 0.759, pCtrl: 1.34, pAccent: 1.332, pUmlaut: 1.657,
		pAccentDense: 1.018, pAccentExt: 1.087, pAccentCont: 0.519, pCombining: 0.42, pTurkish: 2.151, pVietnamese: 0.519, pGreek: 0.442, pCyrRussian: 0.226,
		pCyrDefault: 0.365, pCyrSouth: 0.382, pCyrTurkic: 0.489, pCyrKyrgyz: 0.388, pArmenian: 0.539, pGeorgian: 0.767, pHebrew: 0.432, pArabic: 0.317,
		pArabicFa: 0.351, pArabicUr: 0.438, pEthiopic: 2.239, pDevanagari: 0.607, pBengali: 0.433, pGurmukhi: 1.04, pGujarati: 0.924, pOriya: 1.225,
		pTamil: 0.586, pTelugu: 0.804, pKannada: 0.76, pMalayalam: 0.881, pSinhala: 1.043, pThai: 0.435, pLao: 1.838, pMyanmar: 0.919,
		pKhmer: 1.338, pHangul: 0.683, pHanSimple: 0.587, pHanTrad: 0.839, pKanji: 0.718, pKana: 0.614, pCJKPunct: 0.421, pAlphabet: 0.42,
		pScriptWord: 0.001, pVarSel: 0.593, pEmoji: 1.479, pUniSpace: 0.741, pUniPunct: 0.588, pSymbol: 0.592, pTab: 0.992, pSpacesDigit: 0.001,
		pCapsEnglish: 0.039, pSpaceEnd: 0.003}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.913, pLongLetter: 0.239, pLongEnglish: 0.046, pRareEnd: 0.924, pRareEndWest: 0.077, pCapsLetter: 0.532, pCapsShort: 0.01, pRepeat: -0.084,
		pCaseFlip: 2.497, pDigitGroup: 0.458, pDigit: 0.721, pPunct: 0.871, pPunctMore: 0.003, pPunctWord: 0.935, pNewline: 2.197, pBlankLine: 0.836,
		pIndent: 0.042, pSpaces: 1.129, pSpaceMore: 0, pSpaceDigit: 1.429, pSpaceWide: 0.202, pCtrl: 0.093, pAccent: 0.994, pUmlaut: 0.46,
		pAccentDense: 0.74, pAccentExt: 0.842, pAccentCont: 0.487, pCombining: 0.42, pTurkish: 1.004, pVietnamese: 0.016, pGreek: 0.408, pCyrRussian: 0.222,
		pCyrDefault: 0.309, pCyrSouth: 0.376, pCyrTurkic: 0.401, pCyrKyrgyz: 0.285, pArmenian: 0.541, pGeorgian: 0.441, pHebrew: 0.513, pArabic: 0.344,
		pArabicFa: 0.33, pArabicUr: 0.314, pEthiopic: 0.726, pDevanagari: 0.313, pBengali: 0.27, pGurmukhi: 0.644, pGujarati: 0.433, pOriya: 0.8,
		pTamil: 0.311, pTelugu: 0.36, pKannada: 0.443, pMalayalam: 0.366, pSinhala: 0.544, pThai: 0.364, pLao: 0.552, pMyanmar: 0.437,
		pKhmer: 0.584, pHangul: 0.62, pHanSimple: 0.546, pHanTrad: 0.688, pKanji: 0.734, pKana: 0.277, pCJKPunct: 1.909, pAlphabet: 0.42,
		pScriptWord: 0.004, pVarSel: 0.105, pEmoji: 0.957, pUniSpace: 0.732, pUniPunct: 0.175, pSymbol: 0.694, pTab: 1.39, pSpacesDigit: 0.001,
		pCapsEnglish: 0.001, pSpaceEnd: 0.006}}
)
