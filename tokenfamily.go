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
	pTab: 1.498, pSpacesDigit: 0, pCapsEnglish: 0.154, pSpaceEnd: 1.498, pSymbolMore: 1.0, pPunctMixed: 0.547, pScriptBare: 0,
}}

// The fitted families: prices written by TestFitPrices (go test -run
// TestFitPrices -fit FILE) from the samples named in testdata/tokens_fit.md.
var (
	o200kFamily = family{"o200k", &prices{
		pWord: 0.823, pLongLetter: 0.291, pLongEnglish: 0.059, pRareEnd: 0.89, pRareEndWest: 0.34, pCapsLetter: 0.521, pCapsShort: 0.028, pRepeat: -0.114,
		pCaseFlip: 3.302, pDigitGroup: 1.057, pDigit: 0.001, pPunct: 0.891, pPunctMore: 0.057, pPunctWord: 0.313, pNewline: 1.613, pBlankLine: 0.001,
		pIndent: 0.444, pSpaces: 1.591, pSpaceMore: 0, pSpaceDigit: 0.838, pSpaceWide: 0.713, pCtrl: 1.549, pAccent: 0.756, pUmlaut: 0.583,
		pAccentDense: 1.17, pAccentExt: 1.106, pAccentCont: 0.173, pCombining: 0.42, pTurkish: 1.235, pVietnamese: 0.438, pGreek: 0.283, pCyrRussian: 0.144,
		pCyrDefault: 0.239, pCyrSouth: 0.256, pCyrTurkic: 0.222, pCyrKyrgyz: 0.139, pArmenian: 0.223, pGeorgian: 0.237, pHebrew: 0.29, pArabic: 0.179,
		pArabicFa: 0.204, pArabicUr: 0.202, pEthiopic: 1.926, pDevanagari: 0.23, pBengali: 0.249, pGurmukhi: 0.455, pGujarati: 0.282, pOriya: 1.049,
		pTamil: 0.309, pTelugu: 0.335, pKannada: 0.323, pMalayalam: 0.274, pSinhala: 0.493, pThai: 0.443, pLao: 1.897, pMyanmar: 0.536,
		pKhmer: 0.634, pHangul: 0.535, pHanSimple: 0.729, pHanTrad: 0.964, pKanji: 1.031, pKana: 0.564, pCJKPunct: 0.957, pAlphabet: 0.42,
		pScriptWord: 0.004, pVarSel: 0.418, pEmoji: 1.459, pUniSpace: 1.847, pUniPunct: 0.369, pSymbol: 1.359, pTab: 0.771, pSpacesDigit: 0.479,
		pCapsEnglish: 0.001, pSpaceEnd: 0.002, pScriptBare: 1.994, pPunctMixed: 0.359, pSymbolMore: 0.012}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.968, pLongLetter: 0.399, pLongEnglish: 0.006, pRareEnd: 1.06, pRareEndWest: 0.145, pCapsLetter: 0.49, pCapsShort: 0.01, pRepeat: -0.213,
		pCaseFlip: 3.049, pDigitGroup: 1.139, pDigit: 0.001, pPunct: 0.852, pPunctMore: 0.007, pPunctWord: 0.003, pNewline: 1.422, pBlankLine: 0.001,
		pIndent: 0.121, pSpaces: 1.283, pSpaceMore: 0, pSpaceDigit: 0.783, pSpaceWide: 0.648, pCtrl: 0.228, pAccent: 1.808, pUmlaut: 1.883,
		pAccentDense: 1.655, pAccentExt: 1.81, pAccentCont: 0.023, pCombining: 0.42, pTurkish: 2.26, pVietnamese: 1.138, pGreek: 0.962, pCyrRussian: 0.391,
		pCyrDefault: 0.525, pCyrSouth: 0.578, pCyrTurkic: 0.745, pCyrKyrgyz: 0.571, pArmenian: 2.084, pGeorgian: 2.081, pHebrew: 1.068, pArabic: 0.727,
		pArabicFa: 0.758, pArabicUr: 1.016, pEthiopic: 2.944, pDevanagari: 1.116, pBengali: 1.34, pGurmukhi: 1.911, pGujarati: 1.923, pOriya: 2.951,
		pTamil: 1.478, pTelugu: 1.963, pKannada: 1.971, pMalayalam: 1.8, pSinhala: 2.102, pThai: 0.992, pLao: 2.271, pMyanmar: 2.077,
		pKhmer: 1.767, pHangul: 1.056, pHanSimple: 0.955, pHanTrad: 1.343, pKanji: 1.791, pKana: 0.645, pCJKPunct: 3.033, pAlphabet: 0.42,
		pScriptWord: 0.035, pVarSel: 0.993, pEmoji: 2.084, pUniSpace: 2.633, pUniPunct: 0.299, pSymbol: 0.92, pTab: 0.536, pSpacesDigit: 0.468,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 0.475, pPunctMixed: 0.274, pSymbolMore: 0.434}}

	claudeFamily = family{"claude", &prices{
		pWord: 1.058, pLongLetter: 0.482, pLongEnglish: 0.002, pRareEnd: 1.218, pRareEndWest: 0.316, pCapsLetter: 0.604, pCapsShort: 0.359, pRepeat: -0.3,
		pCaseFlip: 2.634, pDigitGroup: 0.439, pDigit: 0.248, pPunct: 0.825, pPunctMore: 0.004, pPunctWord: 0.876, pNewline: 1.18, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 1.327, pSpaceMore: 0, pSpaceDigit: 0.011, pSpaceWide: 0.424, pCtrl: 1.737, pAccent: 1.825, pUmlaut: 1.846,
		pAccentDense: 1.899, pAccentExt: 2.215, pAccentCont: 0.082, pCombining: 0.42, pTurkish: 2.932, pVietnamese: 2.226, pGreek: 1.325, pCyrRussian: 0.539,
		pCyrDefault: 0.64, pCyrSouth: 0.691, pCyrTurkic: 0.858, pCyrKyrgyz: 0.735, pArmenian: 2.192, pGeorgian: 1.427, pHebrew: 1.057, pArabic: 1.079,
		pArabicFa: 1.158, pArabicUr: 1.412, pEthiopic: 3.268, pDevanagari: 1.37, pBengali: 2.107, pGurmukhi: 3.295, pGujarati: 3.261, pOriya: 3.259,
		pTamil: 2.177, pTelugu: 2.446, pKannada: 2.451, pMalayalam: 2.538, pSinhala: 1.897, pThai: 1.911, pLao: 3.246, pMyanmar: 1.101,
		pKhmer: 3.281, pHangul: 1.333, pHanSimple: 0.829, pHanTrad: 1.258, pKanji: 1.733, pKana: 0.668, pCJKPunct: 3.457, pAlphabet: 0.42,
		pScriptWord: 0.052, pVarSel: 1.482, pEmoji: 2.278, pUniSpace: 0.984, pUniPunct: 0.265, pSymbol: 1.791, pTab: 1.388, pSpacesDigit: 0.007,
		pCapsEnglish: 0.003, pSpaceEnd: 0.004, pScriptBare: 0.036, pPunctMixed: 0.204, pSymbolMore: 0.253}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.887, pLongLetter: 0.447, pLongEnglish: 0.052, pRareEnd: 1.163, pRareEndWest: 0.167, pCapsLetter: 0.5, pCapsShort: 0.022, pRepeat: -0.263,
		pCaseFlip: 3.266, pDigitGroup: 1.179, pDigit: 0.001, pPunct: 0.904, pPunctMore: 0.007, pPunctWord: 0.004, pNewline: 1.335, pBlankLine: 0.001,
		pIndent: 0.176, pSpaces: 1.334, pSpaceMore: 0, pSpaceDigit: 0.721, pSpaceWide: 1.174, pCtrl: 0.252, pAccent: 1.512, pUmlaut: 1.136,
		pAccentDense: 1.149, pAccentExt: 1, pAccentCont: 0.449, pCombining: 0.42, pTurkish: 0.658, pVietnamese: 0.01, pGreek: 0.245, pCyrRussian: 0.158,
		pCyrDefault: 0.221, pCyrSouth: 0.331, pCyrTurkic: 0.47, pCyrKyrgyz: 0.301, pArmenian: 1.722, pGeorgian: 2.004, pHebrew: 0.948, pArabic: 0.207,
		pArabicFa: 0.163, pArabicUr: 0.533, pEthiopic: 2.823, pDevanagari: 0.413, pBengali: 1.235, pGurmukhi: 1.775, pGujarati: 1.821, pOriya: 2.801,
		pTamil: 1.407, pTelugu: 1.886, pKannada: 1.893, pMalayalam: 1.698, pSinhala: 1.984, pThai: 0.489, pLao: 2.049, pMyanmar: 2.051,
		pKhmer: 1.755, pHangul: 0.442, pHanSimple: 0.807, pHanTrad: 0.896, pKanji: 0.911, pKana: 0.6, pCJKPunct: 0.593, pAlphabet: 0.42,
		pScriptWord: 0.015, pVarSel: 0.435, pEmoji: 1.995, pUniSpace: 1.977, pUniPunct: 0.37, pSymbol: 0.72, pTab: 0.552, pSpacesDigit: 0.367,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 1.236, pPunctMixed: 0.288, pSymbolMore: 0.219}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.917, pLongLetter: 0.428, pLongEnglish: 0.034, pRareEnd: 1.118, pRareEndWest: 0.077, pCapsLetter: 0.446, pCapsShort: 0.01, pRepeat: -0.245,
		pCaseFlip: 2.972, pDigitGroup: 0.363, pDigit: 0.968, pPunct: 0.838, pPunctMore: 0.005, pPunctWord: 0.002, pNewline: 1.55, pBlankLine: 0.001,
		pIndent: 0.025, pSpaces: 1.239, pSpaceMore: 0, pSpaceDigit: 0.586, pSpaceWide: 1.327, pCtrl: 0.088, pAccent: 1.629, pUmlaut: 1.199,
		pAccentDense: 1.286, pAccentExt: 1.206, pAccentCont: 0.313, pCombining: 0.42, pTurkish: 1.377, pVietnamese: 0.159, pGreek: 0.821, pCyrRussian: 0.169,
		pCyrDefault: 0.303, pCyrSouth: 0.352, pCyrTurkic: 0.482, pCyrKyrgyz: 0.357, pArmenian: 0.964, pGeorgian: 0.969, pHebrew: 0.171, pArabic: 0.177,
		pArabicFa: 0.44, pArabicUr: 0.51, pEthiopic: 1.131, pDevanagari: 0.888, pBengali: 1.045, pGurmukhi: 1.617, pGujarati: 1.562, pOriya: 2.181,
		pTamil: 1.091, pTelugu: 1.568, pKannada: 1.441, pMalayalam: 1.391, pSinhala: 1.511, pThai: 0.577, pLao: 1.343, pMyanmar: 1.563,
		pKhmer: 1.29, pHangul: 0.523, pHanSimple: 0.647, pHanTrad: 0.794, pKanji: 0.693, pKana: 0.605, pCJKPunct: 0.667, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.043, pEmoji: 1.063, pUniSpace: 2.173, pUniPunct: 0.419, pSymbol: 0.667, pTab: 0.556, pSpacesDigit: 0.42,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 0.888, pPunctMixed: 0.258, pSymbolMore: 0.132}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 1.009, pLongLetter: 0.343, pLongEnglish: 0.001, pRareEnd: 0.886, pRareEndWest: 0.136, pCapsLetter: 0.534, pCapsShort: 0.023, pRepeat: -0.131,
		pCaseFlip: 2.489, pDigitGroup: 1.136, pDigit: 0.001, pPunct: 0.853, pPunctMore: 0.046, pPunctWord: 0.39, pNewline: 1.418, pBlankLine: 0.001,
		pIndent: 0.274, pSpaces: 1.003, pSpaceMore: 0, pSpaceDigit: 0.747, pSpaceWide: 0.932, pCtrl: 1.306, pAccent: 1.365, pUmlaut: 1.779,
		pAccentDense: 1.136, pAccentExt: 1.172, pAccentCont: 0.381, pCombining: 0.42, pTurkish: 2.214, pVietnamese: 0.614, pGreek: 0.401, pCyrRussian: 0.191,
		pCyrDefault: 0.322, pCyrSouth: 0.336, pCyrTurkic: 0.445, pCyrKyrgyz: 0.319, pArmenian: 0.497, pGeorgian: 0.724, pHebrew: 0.376, pArabic: 0.258,
		pArabicFa: 0.285, pArabicUr: 0.386, pEthiopic: 2.163, pDevanagari: 0.56, pBengali: 0.377, pGurmukhi: 0.973, pGujarati: 0.864, pOriya: 1.185,
		pTamil: 0.521, pTelugu: 0.759, pKannada: 0.715, pMalayalam: 0.84, pSinhala: 0.989, pThai: 0.437, pLao: 1.833, pMyanmar: 0.915,
		pKhmer: 1.338, pHangul: 0.645, pHanSimple: 0.573, pHanTrad: 0.735, pKanji: 0.752, pKana: 0.591, pCJKPunct: 0.659, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.543, pEmoji: 1.444, pUniSpace: 1.005, pUniPunct: 0.596, pSymbol: 0.689, pTab: 0.801, pSpacesDigit: 0.001,
		pCapsEnglish: 0.115, pSpaceEnd: 0.004, pScriptBare: 0.964, pPunctMixed: 0.265, pSymbolMore: 0.479}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.905, pLongLetter: 0.261, pLongEnglish: 0.07, pRareEnd: 0.895, pRareEndWest: 0.058, pCapsLetter: 0.563, pCapsShort: 0.015, pRepeat: -0.106,
		pCaseFlip: 2.625, pDigitGroup: 0.318, pDigit: 0.819, pPunct: 0.828, pPunctMore: 0.004, pPunctWord: 1, pNewline: 1.992, pBlankLine: 0.877,
		pIndent: 0.132, pSpaces: 1.225, pSpaceMore: 0, pSpaceDigit: 1.181, pSpaceWide: 0.301, pCtrl: 0.218, pAccent: 1.016, pUmlaut: 0.454,
		pAccentDense: 0.748, pAccentExt: 0.875, pAccentCont: 0.492, pCombining: 0.42, pTurkish: 1.005, pVietnamese: 0.02, pGreek: 0.387, pCyrRussian: 0.206,
		pCyrDefault: 0.29, pCyrSouth: 0.355, pCyrTurkic: 0.383, pCyrKyrgyz: 0.258, pArmenian: 0.521, pGeorgian: 0.422, pHebrew: 0.489, pArabic: 0.318,
		pArabicFa: 0.304, pArabicUr: 0.286, pEthiopic: 0.69, pDevanagari: 0.289, pBengali: 0.242, pGurmukhi: 0.613, pGujarati: 0.408, pOriya: 0.781,
		pTamil: 0.291, pTelugu: 0.343, pKannada: 0.418, pMalayalam: 0.353, pSinhala: 0.523, pThai: 0.368, pLao: 0.551, pMyanmar: 0.437,
		pKhmer: 0.592, pHangul: 0.601, pHanSimple: 0.568, pHanTrad: 0.634, pKanji: 0.762, pKana: 0.287, pCJKPunct: 1.666, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.07, pEmoji: 0.969, pUniSpace: 1.14, pUniPunct: 0.062, pSymbol: 0.978, pTab: 1.322, pSpacesDigit: 0.001,
		pCapsEnglish: 0.001, pSpaceEnd: 0.005, pScriptBare: 0.499, pPunctMixed: 0.219, pSymbolMore: 0.004}}
)
