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
	pTab: 1.498, pSpacesDigit: 0, pCapsEnglish: 0.154, pSpaceEnd: 1.498, pSymbolMore: 1.0, pPunctMixed: 0.547, pScriptBare: 0, pDigitSame: 0,
}}

// The fitted families: prices written by TestFitPrices (go test -run
// TestFitPrices -fit FILE) from the samples named in testdata/tokens_fit.md.
var (
	o200kFamily = family{"o200k", &prices{
		pWord: 0.769, pLongLetter: 0.312, pLongEnglish: 0.076, pRareEnd: 0.964, pRareEndWest: 0.273, pCapsLetter: 0.524, pCapsShort: 0.066, pRepeat: -0.131,
		pCaseFlip: 3.348, pDigitGroup: 1.087, pDigit: 0.001, pPunct: 1.007, pPunctMore: 0.014, pPunctWord: 0.322, pNewline: 1.528, pBlankLine: 0.001,
		pIndent: 0.318, pSpaces: 1.634, pSpaceMore: 0, pSpaceDigit: 0.736, pSpaceWide: 0.671, pCtrl: 1.436, pAccent: 1.124, pUmlaut: 0.977,
		pAccentDense: 0.982, pAccentExt: 1.022, pAccentCont: 0.314, pCombining: 0.42, pTurkish: 0.647, pVietnamese: 0.348, pGreek: 0.286, pCyrRussian: 0.153,
		pCyrDefault: 0.255, pCyrSouth: 0.263, pCyrTurkic: 0.23, pCyrKyrgyz: 0.147, pArmenian: 0.23, pGeorgian: 0.241, pHebrew: 0.292, pArabic: 0.188,
		pArabicFa: 0.211, pArabicUr: 0.213, pEthiopic: 1.948, pDevanagari: 0.24, pBengali: 0.26, pGurmukhi: 0.464, pGujarati: 0.288, pOriya: 1.056,
		pTamil: 0.311, pTelugu: 0.339, pKannada: 0.327, pMalayalam: 0.277, pSinhala: 0.503, pThai: 0.441, pLao: 1.897, pMyanmar: 0.54,
		pKhmer: 0.647, pHangul: 0.534, pHanSimple: 0.735, pHanTrad: 0.978, pKanji: 1.056, pKana: 0.563, pCJKPunct: 0.893, pAlphabet: 0.42,
		pScriptWord: 0.005, pVarSel: 0.467, pEmoji: 1.522, pUniSpace: 1.591, pUniPunct: 0.267, pSymbol: 1.351, pTab: 0.696, pSpacesDigit: 0.424,
		pCapsEnglish: 0.001, pSpaceEnd: 0.003, pScriptBare: 1.972, pDigitSame: 0.001, pPunctMixed: 0.433, pSymbolMore: 0.013}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.934, pLongLetter: 0.432, pLongEnglish: 0.007, pRareEnd: 1.06, pRareEndWest: 0.096, pCapsLetter: 0.486, pCapsShort: 0.016, pRepeat: -0.241,
		pCaseFlip: 3.05, pDigitGroup: 1.186, pDigit: 0.001, pPunct: 0.919, pPunctMore: 0.012, pPunctWord: 0.005, pNewline: 1.332, pBlankLine: 0.001,
		pIndent: 0.117, pSpaces: 1.33, pSpaceMore: 0, pSpaceDigit: 0.622, pSpaceWide: 0.731, pCtrl: 0.126, pAccent: 1.939, pUmlaut: 1.895,
		pAccentDense: 1.561, pAccentExt: 1.663, pAccentCont: 0.149, pCombining: 0.42, pTurkish: 1.653, pVietnamese: 1.036, pGreek: 0.945, pCyrRussian: 0.375,
		pCyrDefault: 0.508, pCyrSouth: 0.56, pCyrTurkic: 0.733, pCyrKyrgyz: 0.561, pArmenian: 2.073, pGeorgian: 2.068, pHebrew: 1.044, pArabic: 0.713,
		pArabicFa: 0.73, pArabicUr: 0.995, pEthiopic: 2.93, pDevanagari: 1.098, pBengali: 1.342, pGurmukhi: 1.891, pGujarati: 1.908, pOriya: 2.936,
		pTamil: 1.467, pTelugu: 1.951, pKannada: 1.958, pMalayalam: 1.777, pSinhala: 2.08, pThai: 0.992, pLao: 2.269, pMyanmar: 2.075,
		pKhmer: 1.728, pHangul: 0.974, pHanSimple: 0.948, pHanTrad: 1.336, pKanji: 1.683, pKana: 0.667, pCJKPunct: 3.1, pAlphabet: 0.42,
		pScriptWord: 0.028, pVarSel: 1.039, pEmoji: 2.079, pUniSpace: 2.029, pUniPunct: 0.706, pSymbol: 0.785, pTab: 0.464, pSpacesDigit: 0.353,
		pCapsEnglish: 0.002, pSpaceEnd: 0.003, pScriptBare: 0.627, pDigitSame: 0.001, pPunctMixed: 0.369, pSymbolMore: 0.406}}

	claudeFamily = family{"claude", &prices{
		pWord: 1.065, pLongLetter: 0.485, pLongEnglish: 0.001, pRareEnd: 1.273, pRareEndWest: 0.342, pCapsLetter: 0.557, pCapsShort: 0.326, pRepeat: -0.3,
		pCaseFlip: 2.43, pDigitGroup: 0.626, pDigit: 0.284, pPunct: 0.894, pPunctMore: 0.037, pPunctWord: 0.571, pNewline: 1.113, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 1.18, pSpaceMore: 0, pSpaceDigit: 0.022, pSpaceWide: 0.452, pCtrl: 1.343, pAccent: 1.555, pUmlaut: 1.727,
		pAccentDense: 1.646, pAccentExt: 1.961, pAccentCont: 0.358, pCombining: 0.42, pTurkish: 2.556, pVietnamese: 1.949, pGreek: 1.315, pCyrRussian: 0.535,
		pCyrDefault: 0.64, pCyrSouth: 0.686, pCyrTurkic: 0.857, pCyrKyrgyz: 0.738, pArmenian: 2.191, pGeorgian: 1.426, pHebrew: 1.038, pArabic: 1.081,
		pArabicFa: 1.143, pArabicUr: 1.406, pEthiopic: 3.273, pDevanagari: 1.361, pBengali: 2.106, pGurmukhi: 3.291, pGujarati: 3.259, pOriya: 3.253,
		pTamil: 2.174, pTelugu: 2.442, pKannada: 2.447, pMalayalam: 2.509, pSinhala: 1.881, pThai: 1.908, pLao: 3.244, pMyanmar: 1.102,
		pKhmer: 3.198, pHangul: 1.309, pHanSimple: 0.816, pHanTrad: 1.261, pKanji: 1.642, pKana: 0.701, pCJKPunct: 3.522, pAlphabet: 0.42,
		pScriptWord: 0.046, pVarSel: 2.249, pEmoji: 2.121, pUniSpace: 0.639, pUniPunct: 1.089, pSymbol: 1.591, pTab: 1.265, pSpacesDigit: 0.001,
		pCapsEnglish: 0.002, pSpaceEnd: 0.004, pScriptBare: 0.04, pDigitSame: 0.001, pPunctMixed: 0.44, pSymbolMore: 0.346}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.904, pLongLetter: 0.447, pLongEnglish: 0.026, pRareEnd: 1.093, pRareEndWest: 0.163, pCapsLetter: 0.485, pCapsShort: 0.02, pRepeat: -0.258,
		pCaseFlip: 3.127, pDigitGroup: 1.21, pDigit: 0.001, pPunct: 0.955, pPunctMore: 0.01, pPunctWord: 0.005, pNewline: 1.272, pBlankLine: 0.001,
		pIndent: 0.157, pSpaces: 1.376, pSpaceMore: 0, pSpaceDigit: 0.583, pSpaceWide: 1.11, pCtrl: 0.121, pAccent: 1.565, pUmlaut: 1.368,
		pAccentDense: 1.174, pAccentExt: 1.007, pAccentCont: 0.461, pCombining: 0.42, pTurkish: 0.001, pVietnamese: 0.005, pGreek: 0.251, pCyrRussian: 0.143,
		pCyrDefault: 0.223, pCyrSouth: 0.337, pCyrTurkic: 0.478, pCyrKyrgyz: 0.308, pArmenian: 1.73, pGeorgian: 2.011, pHebrew: 0.957, pArabic: 0.221,
		pArabicFa: 0.167, pArabicUr: 0.551, pEthiopic: 2.84, pDevanagari: 0.421, pBengali: 1.264, pGurmukhi: 1.788, pGujarati: 1.831, pOriya: 2.81,
		pTamil: 1.414, pTelugu: 1.893, pKannada: 1.899, pMalayalam: 1.694, pSinhala: 1.989, pThai: 0.489, pLao: 2.051, pMyanmar: 2.057,
		pKhmer: 1.726, pHangul: 0.458, pHanSimple: 0.791, pHanTrad: 0.931, pKanji: 0.884, pKana: 0.599, pCJKPunct: 0.768, pAlphabet: 0.42,
		pScriptWord: 0.015, pVarSel: 0.931, pEmoji: 1.935, pUniSpace: 1.521, pUniPunct: 0.698, pSymbol: 0.634, pTab: 0.481, pSpacesDigit: 0.282,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 1.238, pDigitSame: 0.001, pPunctMixed: 0.361, pSymbolMore: 0.321}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.921, pLongLetter: 0.43, pLongEnglish: 0.026, pRareEnd: 1.095, pRareEndWest: 0.112, pCapsLetter: 0.419, pCapsShort: 0.011, pRepeat: -0.237,
		pCaseFlip: 2.786, pDigitGroup: 0.49, pDigit: 0.937, pPunct: 0.886, pPunctMore: 0.007, pPunctWord: 0.002, pNewline: 1.429, pBlankLine: 0.001,
		pIndent: 0.016, pSpaces: 1.278, pSpaceMore: 0, pSpaceDigit: 0.439, pSpaceWide: 1.336, pCtrl: 0.015, pAccent: 1.657, pUmlaut: 1.411,
		pAccentDense: 1.167, pAccentExt: 1.186, pAccentCont: 0.496, pCombining: 0.42, pTurkish: 0.455, pVietnamese: 0.016, pGreek: 0.815, pCyrRussian: 0.151,
		pCyrDefault: 0.302, pCyrSouth: 0.349, pCyrTurkic: 0.481, pCyrKyrgyz: 0.354, pArmenian: 0.962, pGeorgian: 0.965, pHebrew: 0.156, pArabic: 0.175,
		pArabicFa: 0.424, pArabicUr: 0.508, pEthiopic: 1.129, pDevanagari: 0.884, pBengali: 1.049, pGurmukhi: 1.613, pGujarati: 1.559, pOriya: 2.179,
		pTamil: 1.089, pTelugu: 1.566, pKannada: 1.438, pMalayalam: 1.389, pSinhala: 1.509, pThai: 0.574, pLao: 1.343, pMyanmar: 1.566,
		pKhmer: 1.293, pHangul: 0.502, pHanSimple: 0.652, pHanTrad: 0.804, pKanji: 0.813, pKana: 0.574, pCJKPunct: 0.607, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.097, pEmoji: 1.063, pUniSpace: 1.781, pUniPunct: 0.443, pSymbol: 0.633, pTab: 0.467, pSpacesDigit: 0.34,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 1.022, pDigitSame: 0.877, pPunctMixed: 0.338, pSymbolMore: 0.182}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.954, pLongLetter: 0.386, pLongEnglish: 0.002, pRareEnd: 0.885, pRareEndWest: 0.001, pCapsLetter: 0.524, pCapsShort: 0.084, pRepeat: -0.179,
		pCaseFlip: 2.764, pDigitGroup: 1.132, pDigit: 0.001, pPunct: 0.955, pPunctMore: 0.023, pPunctWord: 0.414, pNewline: 1.423, pBlankLine: 0.001,
		pIndent: 0.183, pSpaces: 0.977, pSpaceMore: 0, pSpaceDigit: 0.711, pSpaceWide: 0.888, pCtrl: 1.223, pAccent: 1.552, pUmlaut: 1.515,
		pAccentDense: 0.887, pAccentExt: 0.927, pAccentCont: 0.768, pCombining: 0.42, pTurkish: 1.723, pVietnamese: 0.375, pGreek: 0.401, pCyrRussian: 0.179,
		pCyrDefault: 0.329, pCyrSouth: 0.34, pCyrTurkic: 0.449, pCyrKyrgyz: 0.32, pArmenian: 0.5, pGeorgian: 0.726, pHebrew: 0.375, pArabic: 0.267,
		pArabicFa: 0.277, pArabicUr: 0.399, pEthiopic: 2.173, pDevanagari: 0.557, pBengali: 0.372, pGurmukhi: 0.98, pGujarati: 0.868, pOriya: 1.192,
		pTamil: 0.518, pTelugu: 0.762, pKannada: 0.717, pMalayalam: 0.838, pSinhala: 0.993, pThai: 0.412, pLao: 1.834, pMyanmar: 0.917,
		pKhmer: 1.332, pHangul: 0.636, pHanSimple: 0.563, pHanTrad: 0.768, pKanji: 0.764, pKana: 0.58, pCJKPunct: 0.744, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.428, pEmoji: 1.524, pUniSpace: 0.344, pUniPunct: 0.697, pSymbol: 0.69, pTab: 0.762, pSpacesDigit: 0.001,
		pCapsEnglish: 0.044, pSpaceEnd: 0.004, pScriptBare: 0.967, pDigitSame: 0.001, pPunctMixed: 0.373, pSymbolMore: 0.508}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.794, pLongLetter: 0.327, pLongEnglish: 0.168, pRareEnd: 0.923, pRareEndWest: 0.008, pCapsLetter: 0.606, pCapsShort: 0.018, pRepeat: -0.19,
		pCaseFlip: 3.348, pDigitGroup: 0.284, pDigit: 0.809, pPunct: 0.994, pPunctMore: 0.002, pPunctWord: 1.038, pNewline: 1.83, pBlankLine: 0.824,
		pIndent: 0.063, pSpaces: 1.337, pSpaceMore: 0, pSpaceDigit: 1.053, pSpaceWide: 0.311, pCtrl: 0.206, pAccent: 1.511, pUmlaut: 0.779,
		pAccentDense: 0.773, pAccentExt: 0.819, pAccentCont: 0.618, pCombining: 0.42, pTurkish: 0.007, pVietnamese: 0.016, pGreek: 0.381, pCyrRussian: 0.226,
		pCyrDefault: 0.301, pCyrSouth: 0.351, pCyrTurkic: 0.381, pCyrKyrgyz: 0.26, pArmenian: 0.52, pGeorgian: 0.418, pHebrew: 0.48, pArabic: 0.316,
		pArabicFa: 0.296, pArabicUr: 0.283, pEthiopic: 0.689, pDevanagari: 0.285, pBengali: 0.238, pGurmukhi: 0.609, pGujarati: 0.405, pOriya: 0.779,
		pTamil: 0.286, pTelugu: 0.34, pKannada: 0.412, pMalayalam: 0.352, pSinhala: 0.522, pThai: 0.358, pLao: 0.549, pMyanmar: 0.442,
		pKhmer: 0.593, pHangul: 0.584, pHanSimple: 0.581, pHanTrad: 0.633, pKanji: 0.821, pKana: 0.267, pCJKPunct: 1.801, pAlphabet: 0.42,
		pScriptWord: 0.006, pVarSel: 0.049, pEmoji: 1.086, pUniSpace: 0.343, pUniPunct: 0.093, pSymbol: 1.023, pTab: 1.465, pSpacesDigit: 0.001,
		pCapsEnglish: 0.001, pSpaceEnd: 0.004, pScriptBare: 0.581, pDigitSame: 0.94, pPunctMixed: 0.364, pSymbolMore: 0.005}}
)
