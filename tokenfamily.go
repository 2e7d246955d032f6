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
		pWord: 0.815, pLongLetter: 0.294, pLongEnglish: 0.071, pRareEnd: 0.881, pRareEndWest: 0.333, pCapsLetter: 0.525, pCapsShort: 0.034, pRepeat: -0.118,
		pCaseFlip: 3.345, pDigitGroup: 1.049, pDigit: 0.001, pPunct: 0.905, pPunctMore: 0.049, pPunctWord: 0.322, pNewline: 1.631, pBlankLine: 0.001,
		pIndent: 0.413, pSpaces: 1.584, pSpaceMore: 0, pSpaceDigit: 0.833, pSpaceWide: 0.657, pCtrl: 1.53, pAccent: 0.505, pUmlaut: 0.398,
		pAccentDense: 0.984, pAccentExt: 0.947, pAccentCont: 0.414, pCombining: 0.42, pTurkish: 1.061, pVietnamese: 0.265, pGreek: 0.291, pCyrRussian: 0.153,
		pCyrDefault: 0.248, pCyrSouth: 0.265, pCyrTurkic: 0.231, pCyrKyrgyz: 0.148, pArmenian: 0.232, pGeorgian: 0.245, pHebrew: 0.297, pArabic: 0.192,
		pArabicFa: 0.21, pArabicUr: 0.217, pEthiopic: 1.945, pDevanagari: 0.244, pBengali: 0.265, pGurmukhi: 0.468, pGujarati: 0.292, pOriya: 1.058,
		pTamil: 0.318, pTelugu: 0.342, pKannada: 0.332, pMalayalam: 0.28, pSinhala: 0.501, pThai: 0.439, pLao: 1.899, pMyanmar: 0.538,
		pKhmer: 0.622, pHangul: 0.539, pHanSimple: 0.729, pHanTrad: 0.966, pKanji: 1.064, pKana: 0.553, pCJKPunct: 0.952, pAlphabet: 0.42,
		pScriptWord: 0.004, pVarSel: 0.251, pEmoji: 1.517, pUniSpace: 1.778, pUniPunct: 0.502, pSymbol: 1.356, pTab: 0.792, pSpacesDigit: 0.501,
		pCapsEnglish: 0.001, pSpaceEnd: 0.002, pScriptBare: 1.887, pDigitSame: 0.001, pPunctMixed: 0.357, pSymbolMore: 0.011}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.967, pLongLetter: 0.4, pLongEnglish: 0.006, pRareEnd: 1.059, pRareEndWest: 0.141, pCapsLetter: 0.491, pCapsShort: 0.01, pRepeat: -0.214,
		pCaseFlip: 3.052, pDigitGroup: 1.138, pDigit: 0.001, pPunct: 0.853, pPunctMore: 0.007, pPunctWord: 0.003, pNewline: 1.423, pBlankLine: 0.001,
		pIndent: 0.122, pSpaces: 1.284, pSpaceMore: 0, pSpaceDigit: 0.786, pSpaceWide: 0.589, pCtrl: 0.223, pAccent: 1.815, pUmlaut: 1.875,
		pAccentDense: 1.66, pAccentExt: 1.802, pAccentCont: 0.024, pCombining: 0.42, pTurkish: 2.163, pVietnamese: 1.133, pGreek: 0.972, pCyrRussian: 0.402,
		pCyrDefault: 0.537, pCyrSouth: 0.592, pCyrTurkic: 0.756, pCyrKyrgyz: 0.585, pArmenian: 2.095, pGeorgian: 2.092, pHebrew: 1.08, pArabic: 0.747,
		pArabicFa: 0.77, pArabicUr: 1.033, pEthiopic: 2.961, pDevanagari: 1.13, pBengali: 1.373, pGurmukhi: 1.928, pGujarati: 1.938, pOriya: 2.963,
		pTamil: 1.489, pTelugu: 1.974, pKannada: 1.981, pMalayalam: 1.809, pSinhala: 2.114, pThai: 0.994, pLao: 2.273, pMyanmar: 2.08,
		pKhmer: 1.763, pHangul: 1.022, pHanSimple: 0.96, pHanTrad: 1.351, pKanji: 1.678, pKana: 0.684, pCJKPunct: 2.99, pAlphabet: 0.42,
		pScriptWord: 0.032, pVarSel: 0.948, pEmoji: 2.118, pUniSpace: 2.613, pUniPunct: 0.345, pSymbol: 0.966, pTab: 0.554, pSpacesDigit: 0.469,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 0.335, pDigitSame: 0.001, pPunctMixed: 0.274, pSymbolMore: 0.413}}

	claudeFamily = family{"claude", &prices{
		pWord: 1.062, pLongLetter: 0.483, pLongEnglish: 0.002, pRareEnd: 1.245, pRareEndWest: 0.299, pCapsLetter: 0.538, pCapsShort: 0.293, pRepeat: -0.3,
		pCaseFlip: 2.479, pDigitGroup: 0.527, pDigit: 0.329, pPunct: 0.765, pPunctMore: 0.02, pPunctWord: 0.811, pNewline: 1.243, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 1.194, pSpaceMore: 0, pSpaceDigit: 0.048, pSpaceWide: 0.426, pCtrl: 1.591, pAccent: 1.836, pUmlaut: 1.746,
		pAccentDense: 1.869, pAccentExt: 2.155, pAccentCont: 0.096, pCombining: 0.42, pTurkish: 2.919, pVietnamese: 2.213, pGreek: 1.321, pCyrRussian: 0.541,
		pCyrDefault: 0.644, pCyrSouth: 0.693, pCyrTurkic: 0.857, pCyrKyrgyz: 0.732, pArmenian: 2.191, pGeorgian: 1.428, pHebrew: 1.048, pArabic: 1.085,
		pArabicFa: 1.16, pArabicUr: 1.411, pEthiopic: 3.264, pDevanagari: 1.366, pBengali: 2.107, pGurmukhi: 3.295, pGujarati: 3.26, pOriya: 3.259,
		pTamil: 2.177, pTelugu: 2.445, pKannada: 2.451, pMalayalam: 2.537, pSinhala: 1.896, pThai: 1.906, pLao: 3.246, pMyanmar: 1.1,
		pKhmer: 3.279, pHangul: 1.32, pHanSimple: 0.835, pHanTrad: 1.27, pKanji: 1.636, pKana: 0.703, pCJKPunct: 3.367, pAlphabet: 0.42,
		pScriptWord: 0.053, pVarSel: 1.881, pEmoji: 2.183, pUniSpace: 0.949, pUniPunct: 0.269, pSymbol: 1.817, pTab: 1.188, pSpacesDigit: 0.001,
		pCapsEnglish: 0.003, pSpaceEnd: 0.002, pScriptBare: 0.027, pDigitSame: 0.001, pPunctMixed: 0.249, pSymbolMore: 0.077}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.898, pLongLetter: 0.446, pLongEnglish: 0.04, pRareEnd: 1.136, pRareEndWest: 0.147, pCapsLetter: 0.501, pCapsShort: 0.018, pRepeat: -0.265,
		pCaseFlip: 3.288, pDigitGroup: 1.161, pDigit: 0.001, pPunct: 0.899, pPunctMore: 0.007, pPunctWord: 0.004, pNewline: 1.374, pBlankLine: 0.001,
		pIndent: 0.159, pSpaces: 1.333, pSpaceMore: 0, pSpaceDigit: 0.753, pSpaceWide: 1.19, pCtrl: 0.25, pAccent: 1.491, pUmlaut: 1.088,
		pAccentDense: 1.144, pAccentExt: 0.941, pAccentCont: 0.44, pCombining: 0.42, pTurkish: 0.317, pVietnamese: 0.01, pGreek: 0.239, pCyrRussian: 0.152,
		pCyrDefault: 0.215, pCyrSouth: 0.327, pCyrTurkic: 0.468, pCyrKyrgyz: 0.297, pArmenian: 1.719, pGeorgian: 2.002, pHebrew: 0.943, pArabic: 0.205,
		pArabicFa: 0.154, pArabicUr: 0.53, pEthiopic: 2.82, pDevanagari: 0.407, pBengali: 1.252, pGurmukhi: 1.771, pGujarati: 1.817, pOriya: 2.798,
		pTamil: 1.405, pTelugu: 1.883, pKannada: 1.889, pMalayalam: 1.689, pSinhala: 1.978, pThai: 0.485, pLao: 2.048, pMyanmar: 2.049,
		pKhmer: 1.736, pHangul: 0.437, pHanSimple: 0.804, pHanTrad: 0.882, pKanji: 0.89, pKana: 0.6, pCJKPunct: 0.617, pAlphabet: 0.42,
		pScriptWord: 0.01, pVarSel: 0.497, pEmoji: 1.962, pUniSpace: 1.819, pUniPunct: 0.551, pSymbol: 0.656, pTab: 0.583, pSpacesDigit: 0.361,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 1.248, pDigitSame: 0.001, pPunctMixed: 0.285, pSymbolMore: 0.264}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.927, pLongLetter: 0.43, pLongEnglish: 0.027, pRareEnd: 1.099, pRareEndWest: 0.058, pCapsLetter: 0.439, pCapsShort: 0.009, pRepeat: -0.245,
		pCaseFlip: 2.942, pDigitGroup: 0.332, pDigit: 0.995, pPunct: 0.83, pPunctMore: 0.006, pPunctWord: 0.002, pNewline: 1.555, pBlankLine: 0.001,
		pIndent: 0.021, pSpaces: 1.233, pSpaceMore: 0, pSpaceDigit: 0.723, pSpaceWide: 1.319, pCtrl: 0.087, pAccent: 1.558, pUmlaut: 1.113,
		pAccentDense: 1.22, pAccentExt: 1.149, pAccentCont: 0.392, pCombining: 0.42, pTurkish: 1.271, pVietnamese: 0.091, pGreek: 0.82, pCyrRussian: 0.166,
		pCyrDefault: 0.305, pCyrSouth: 0.355, pCyrTurkic: 0.483, pCyrKyrgyz: 0.358, pArmenian: 0.965, pGeorgian: 0.97, pHebrew: 0.162, pArabic: 0.18,
		pArabicFa: 0.429, pArabicUr: 0.513, pEthiopic: 1.132, pDevanagari: 0.889, pBengali: 1.056, pGurmukhi: 1.619, pGujarati: 1.564, pOriya: 2.183,
		pTamil: 1.093, pTelugu: 1.569, pKannada: 1.442, pMalayalam: 1.392, pSinhala: 1.512, pThai: 0.572, pLao: 1.344, pMyanmar: 1.563,
		pKhmer: 1.289, pHangul: 0.507, pHanSimple: 0.643, pHanTrad: 0.794, pKanji: 0.814, pKana: 0.568, pCJKPunct: 0.659, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.06, pEmoji: 1.052, pUniSpace: 2.151, pUniPunct: 0.435, pSymbol: 0.664, pTab: 0.553, pSpacesDigit: 0.406,
		pCapsEnglish: 0.002, pSpaceEnd: 0.002, pScriptBare: 0.882, pDigitSame: 0.838, pPunctMixed: 0.256, pSymbolMore: 0.125}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 1.001, pLongLetter: 0.342, pLongEnglish: 0.001, pRareEnd: 0.89, pRareEndWest: 0.084, pCapsLetter: 0.526, pCapsShort: 0.026, pRepeat: -0.133,
		pCaseFlip: 2.569, pDigitGroup: 1.091, pDigit: 0.001, pPunct: 0.894, pPunctMore: 0.033, pPunctWord: 0.386, pNewline: 1.518, pBlankLine: 0.001,
		pIndent: 0.171, pSpaces: 1.015, pSpaceMore: 0, pSpaceDigit: 0.841, pSpaceWide: 0.877, pCtrl: 1.277, pAccent: 1.379, pUmlaut: 1.667,
		pAccentDense: 1.08, pAccentExt: 1.128, pAccentCont: 0.437, pCombining: 0.42, pTurkish: 2.136, pVietnamese: 0.562, pGreek: 0.405, pCyrRussian: 0.192,
		pCyrDefault: 0.328, pCyrSouth: 0.343, pCyrTurkic: 0.452, pCyrKyrgyz: 0.324, pArmenian: 0.503, pGeorgian: 0.73, pHebrew: 0.379, pArabic: 0.271,
		pArabicFa: 0.282, pArabicUr: 0.401, pEthiopic: 2.174, pDevanagari: 0.561, pBengali: 0.377, pGurmukhi: 0.983, pGujarati: 0.872, pOriya: 1.191,
		pTamil: 0.525, pTelugu: 0.765, pKannada: 0.72, pMalayalam: 0.841, pSinhala: 0.996, pThai: 0.41, pLao: 1.834, pMyanmar: 0.915,
		pKhmer: 1.329, pHangul: 0.638, pHanSimple: 0.557, pHanTrad: 0.764, pKanji: 0.768, pKana: 0.573, pCJKPunct: 0.767, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.52, pEmoji: 1.462, pUniSpace: 0.775, pUniPunct: 0.675, pSymbol: 0.671, pTab: 0.86, pSpacesDigit: 0.001,
		pCapsEnglish: 0.063, pSpaceEnd: 0.003, pScriptBare: 0.848, pDigitSame: 0.001, pPunctMixed: 0.243, pSymbolMore: 0.482}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.898, pLongLetter: 0.254, pLongEnglish: 0.07, pRareEnd: 0.898, pRareEndWest: 0.075, pCapsLetter: 0.546, pCapsShort: 0.014, pRepeat: -0.101,
		pCaseFlip: 2.645, pDigitGroup: 0.347, pDigit: 0.784, pPunct: 0.849, pPunctMore: 0.003, pPunctWord: 0.982, pNewline: 2.103, pBlankLine: 0.867,
		pIndent: 0.066, pSpaces: 1.243, pSpaceMore: 0, pSpaceDigit: 1.138, pSpaceWide: 0.276, pCtrl: 0.186, pAccent: 0.998, pUmlaut: 0.469,
		pAccentDense: 0.737, pAccentExt: 0.863, pAccentCont: 0.506, pCombining: 0.42, pTurkish: 0.878, pVietnamese: 0.017, pGreek: 0.391, pCyrRussian: 0.206,
		pCyrDefault: 0.295, pCyrSouth: 0.358, pCyrTurkic: 0.386, pCyrKyrgyz: 0.261, pArmenian: 0.524, pGeorgian: 0.425, pHebrew: 0.491, pArabic: 0.325,
		pArabicFa: 0.304, pArabicUr: 0.293, pEthiopic: 0.695, pDevanagari: 0.294, pBengali: 0.246, pGurmukhi: 0.619, pGujarati: 0.412, pOriya: 0.785,
		pTamil: 0.294, pTelugu: 0.346, pKannada: 0.421, pMalayalam: 0.354, pSinhala: 0.526, pThai: 0.353, pLao: 0.551, pMyanmar: 0.436,
		pKhmer: 0.592, pHangul: 0.596, pHanSimple: 0.547, pHanTrad: 0.64, pKanji: 0.825, pKana: 0.256, pCJKPunct: 1.804, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.069, pEmoji: 0.969, pUniSpace: 0.954, pUniPunct: 0.092, pSymbol: 0.973, pTab: 1.337, pSpacesDigit: 0.001,
		pCapsEnglish: 0.001, pSpaceEnd: 0.004, pScriptBare: 0.372, pDigitSame: 0.884, pPunctMixed: 0.197, pSymbolMore: 0.004}}
)
