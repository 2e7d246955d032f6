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
		pWord: 0.748, pLongLetter: 0.258, pLongEnglish: 0.174, pRareEnd: 0.547, pRareEndWest: 0.225, pCapsLetter: 0.506, pCapsShort: 0.204, pRepeat: -0.082,
		pCaseFlip: 3.567, pDigitGroup: 1.112, pDigit: 0.001, pPunct: 1.058, pPunctMore: 0.034, pPunctWord: 0.206, pNewline: 1.431, pBlankLine: 0.159,
		pIndent: 0.278, pSpaces: 1.239, pSpaceMore: 0, pSpaceDigit: 0.697, pSpaceWide: 0.793, pCtrl: 1.352, pAccent: 0.405, pUmlaut: 0.525,
		pAccentDense: 0.686, pAccentExt: 0.711, pAccentCont: 0.797, pCombining: 0.42, pTurkish: 0.357, pVietnamese: 0.016, pGreek: 0.263, pCyrRussian: 0.08,
		pCyrDefault: 0.172, pCyrSouth: 0.187, pCyrTurkic: 0.168, pCyrKyrgyz: 0.102, pArmenian: 0.208, pGeorgian: 0.22, pHebrew: 0.261, pArabic: 0.158,
		pArabicFa: 0.178, pArabicUr: 0.18, pEthiopic: 1.897, pDevanagari: 0.211, pBengali: 0.232, pGurmukhi: 0.43, pGujarati: 0.261, pOriya: 1.034,
		pTamil: 0.284, pTelugu: 0.321, pKannada: 0.305, pMalayalam: 0.263, pSinhala: 0.475, pThai: 0.44, pLao: 1.893, pMyanmar: 0.537,
		pKhmer: 0.639, pHangul: 0.505, pHanSimple: 0.729, pHanTrad: 0.974, pKanji: 1.033, pKana: 0.57, pCJKPunct: 0.948, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.786, pEmoji: 1.366, pUniSpace: 1.35, pUniPunct: 0.377, pSymbol: 1.509, pTab: 0.912, pSpacesDigit: 0.934,
		pCapsEnglish: 0.001, pSpaceEnd: 0.007, pScriptBare: 2.303, pDigitSame: 0.001, pPunctMixed: 0.451, pSymbolMore: 0.025, pRareStart: 0.939, pCyrWord: 0.376,
		pBaltic: 0.608}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.861, pLongLetter: 0.364, pLongEnglish: 0.031, pRareEnd: 0.465, pRareEndWest: 0.001, pCapsLetter: 0.557, pCapsShort: 0.04, pRepeat: -0.19,
		pCaseFlip: 3.797, pDigitGroup: 1.071, pDigit: 0.001, pPunct: 1.073, pPunctMore: 0.015, pPunctWord: 0.003, pNewline: 1.102, pBlankLine: 0.001,
		pIndent: 0.343, pSpaces: 0.916, pSpaceMore: 0, pSpaceDigit: 0.767, pSpaceWide: 0.964, pCtrl: 0.162, pAccent: 1.468, pUmlaut: 1.751,
		pAccentDense: 1.53, pAccentExt: 1.6, pAccentCont: 0.369, pCombining: 0.42, pTurkish: 1.515, pVietnamese: 0.994, pGreek: 0.895, pCyrRussian: 0.334,
		pCyrDefault: 0.465, pCyrSouth: 0.511, pCyrTurkic: 0.698, pCyrKyrgyz: 0.522, pArmenian: 2.035, pGeorgian: 2.026, pHebrew: 0.979, pArabic: 0.652,
		pArabicFa: 0.665, pArabicUr: 0.923, pEthiopic: 2.871, pDevanagari: 1.039, pBengali: 1.286, pGurmukhi: 1.823, pGujarati: 1.853, pOriya: 2.888,
		pTamil: 1.428, pTelugu: 1.909, pKannada: 1.916, pMalayalam: 1.735, pSinhala: 2.025, pThai: 0.992, pLao: 2.26, pMyanmar: 2.07,
		pKhmer: 1.706, pHangul: 0.894, pHanSimple: 0.937, pHanTrad: 1.32, pKanji: 1.725, pKana: 0.641, pCJKPunct: 3.235, pAlphabet: 0.42,
		pScriptWord: 0.051, pVarSel: 0.946, pEmoji: 1.989, pUniSpace: 1.955, pUniPunct: 0.956, pSymbol: 0.622, pTab: 0.883, pSpacesDigit: 1.113,
		pCapsEnglish: 0.003, pSpaceEnd: 0.006, pScriptBare: 1.194, pDigitSame: 0.039, pPunctMixed: 0.406, pSymbolMore: 0.751, pRareStart: 1.434, pCyrWord: 0.001,
		pBaltic: 1.109}}

	claudeFamily = family{"claude", &prices{
		pWord: 0.968, pLongLetter: 0.454, pLongEnglish: 0.004, pRareEnd: 0.806, pRareEndWest: 0.005, pCapsLetter: 0.699, pCapsShort: 0.468, pRepeat: -0.277,
		pCaseFlip: 2.811, pDigitGroup: 0.662, pDigit: 0.191, pPunct: 1.105, pPunctMore: 0.038, pPunctWord: 0.421, pNewline: 1.054, pBlankLine: 0.002,
		pIndent: 0.001, pSpaces: 0.832, pSpaceMore: 0, pSpaceDigit: 0.047, pSpaceWide: 0.501, pCtrl: 1.271, pAccent: 1.575, pUmlaut: 1.344,
		pAccentDense: 1.73, pAccentExt: 1.887, pAccentCont: 0.35, pCombining: 0.42, pTurkish: 2.559, pVietnamese: 2.07, pGreek: 1.304, pCyrRussian: 0.534,
		pCyrDefault: 0.638, pCyrSouth: 0.687, pCyrTurkic: 0.853, pCyrKyrgyz: 0.738, pArmenian: 2.184, pGeorgian: 1.416, pHebrew: 1.022, pArabic: 1.068,
		pArabicFa: 1.137, pArabicUr: 1.389, pEthiopic: 3.265, pDevanagari: 1.346, pBengali: 2.094, pGurmukhi: 3.277, pGujarati: 3.248, pOriya: 3.244,
		pTamil: 2.166, pTelugu: 2.434, pKannada: 2.439, pMalayalam: 2.511, pSinhala: 1.875, pThai: 1.907, pLao: 3.24, pMyanmar: 1.101,
		pKhmer: 3.222, pHangul: 1.293, pHanSimple: 0.803, pHanTrad: 1.247, pKanji: 1.6, pKana: 0.706, pCJKPunct: 3.719, pAlphabet: 0.42,
		pScriptWord: 0.059, pVarSel: 2.034, pEmoji: 2.104, pUniSpace: 1.148, pUniPunct: 0.846, pSymbol: 1.577, pTab: 1.412, pSpacesDigit: 0.28,
		pCapsEnglish: 0.004, pSpaceEnd: 0.008, pScriptBare: 0.052, pDigitSame: 0.001, pPunctMixed: 0.442, pSymbolMore: 0.608, pRareStart: 1.454, pCyrWord: 0.007,
		pBaltic: 0.694}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.81, pLongLetter: 0.43, pLongEnglish: 0.076, pRareEnd: 0.758, pRareEndWest: 0.033, pCapsLetter: 0.552, pCapsShort: 0.045, pRepeat: -0.256,
		pCaseFlip: 3.823, pDigitGroup: 1.107, pDigit: 0.001, pPunct: 1.079, pPunctMore: 0.012, pPunctWord: 0.004, pNewline: 1.139, pBlankLine: 0.065,
		pIndent: 0.242, pSpaces: 1.179, pSpaceMore: 0, pSpaceDigit: 0.702, pSpaceWide: 1.242, pCtrl: 0.191, pAccent: 1.695, pUmlaut: 1.524,
		pAccentDense: 1.436, pAccentExt: 0.979, pAccentCont: 0.244, pCombining: 0.42, pTurkish: 0.001, pVietnamese: 0.198, pGreek: 0.223, pCyrRussian: 0.069,
		pCyrDefault: 0.144, pCyrSouth: 0.261, pCyrTurkic: 0.417, pCyrKyrgyz: 0.252, pArmenian: 1.704, pGeorgian: 1.982, pHebrew: 0.919, pArabic: 0.184,
		pArabicFa: 0.119, pArabicUr: 0.516, pEthiopic: 2.799, pDevanagari: 0.387, pBengali: 1.223, pGurmukhi: 1.744, pGujarati: 1.793, pOriya: 2.784,
		pTamil: 1.386, pTelugu: 1.864, pKannada: 1.87, pMalayalam: 1.663, pSinhala: 1.952, pThai: 0.488, pLao: 2.045, pMyanmar: 2.054,
		pKhmer: 1.711, pHangul: 0.415, pHanSimple: 0.79, pHanTrad: 0.859, pKanji: 0.872, pKana: 0.602, pCJKPunct: 0.78, pAlphabet: 0.42,
		pScriptWord: 0.005, pVarSel: 0.653, pEmoji: 1.949, pUniSpace: 1.77, pUniPunct: 0.847, pSymbol: 0.533, pTab: 0.911, pSpacesDigit: 0.678,
		pCapsEnglish: 0.002, pSpaceEnd: 0.003, pScriptBare: 1.784, pDigitSame: 0.043, pPunctMixed: 0.386, pSymbolMore: 0.544, pRareStart: 0.958, pCyrWord: 0.32,
		pBaltic: 1.787}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.796, pLongLetter: 0.416, pLongEnglish: 0.098, pRareEnd: 0.796, pRareEndWest: 0.027, pCapsLetter: 0.545, pCapsShort: 0.018, pRepeat: -0.245,
		pCaseFlip: 3.785, pDigitGroup: 0.392, pDigit: 0.827, pPunct: 1.083, pPunctMore: 0.008, pPunctWord: 0.002, pNewline: 1.246, pBlankLine: 0.141,
		pIndent: 0.081, pSpaces: 1.253, pSpaceMore: 0, pSpaceDigit: 0.729, pSpaceWide: 1.477, pCtrl: 0.162, pAccent: 1.553, pUmlaut: 1.208,
		pAccentDense: 1.183, pAccentExt: 0.917, pAccentCont: 0.569, pCombining: 0.42, pTurkish: 0.33, pVietnamese: 0.013, pGreek: 0.75, pCyrRussian: 0.12,
		pCyrDefault: 0.273, pCyrSouth: 0.311, pCyrTurkic: 0.451, pCyrKyrgyz: 0.317, pArmenian: 0.912, pGeorgian: 0.909, pHebrew: 0.071, pArabic: 0.096,
		pArabicFa: 0.343, pArabicUr: 0.408, pEthiopic: 1.049, pDevanagari: 0.807, pBengali: 0.977, pGurmukhi: 1.523, pGujarati: 1.487, pOriya: 2.115,
		pTamil: 1.039, pTelugu: 1.511, pKannada: 1.383, pMalayalam: 1.341, pSinhala: 1.439, pThai: 0.574, pLao: 1.336, pMyanmar: 1.565,
		pKhmer: 1.28, pHangul: 0.455, pHanSimple: 0.638, pHanTrad: 0.795, pKanji: 0.794, pKana: 0.573, pCJKPunct: 0.729, pAlphabet: 0.42,
		pScriptWord: 0.224, pVarSel: 0.025, pEmoji: 1.064, pUniSpace: 2.197, pUniPunct: 0.587, pSymbol: 0.453, pTab: 1.017, pSpacesDigit: 0.744,
		pCapsEnglish: 0.003, pSpaceEnd: 0.004, pScriptBare: 1.571, pDigitSame: 1.018, pPunctMixed: 0.347, pSymbolMore: 0.502, pRareStart: 1.002, pCyrWord: 0.001,
		pBaltic: 1.31}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.93, pLongLetter: 0.307, pLongEnglish: 0.006, pRareEnd: 0.433, pRareEndWest: 0.001, pCapsLetter: 0.604, pCapsShort: 0.003, pRepeat: -0.092,
		pCaseFlip: 2.968, pDigitGroup: 1.129, pDigit: 0.001, pPunct: 0.911, pPunctMore: 0.037, pPunctWord: 0.375, pNewline: 1.384, pBlankLine: 0.105,
		pIndent: 0.424, pSpaces: 0.796, pSpaceMore: 0, pSpaceDigit: 0.741, pSpaceWide: 0.885, pCtrl: 1.337, pAccent: 1.45, pUmlaut: 1.819,
		pAccentDense: 1.259, pAccentExt: 1.033, pAccentCont: 0.474, pCombining: 0.42, pTurkish: 1.758, pVietnamese: 0.82, pGreek: 0.397, pCyrRussian: 0.125,
		pCyrDefault: 0.271, pCyrSouth: 0.282, pCyrTurkic: 0.402, pCyrKyrgyz: 0.272, pArmenian: 0.49, pGeorgian: 0.716, pHebrew: 0.371, pArabic: 0.258,
		pArabicFa: 0.262, pArabicUr: 0.398, pEthiopic: 2.153, pDevanagari: 0.55, pBengali: 0.354, pGurmukhi: 0.967, pGujarati: 0.853, pOriya: 1.188,
		pTamil: 0.507, pTelugu: 0.751, pKannada: 0.706, pMalayalam: 0.826, pSinhala: 0.98, pThai: 0.414, pLao: 1.835, pMyanmar: 0.919,
		pKhmer: 1.332, pHangul: 0.642, pHanSimple: 0.558, pHanTrad: 0.767, pKanji: 0.745, pKana: 0.594, pCJKPunct: 0.835, pAlphabet: 0.42,
		pScriptWord: 0.002, pVarSel: 0.606, pEmoji: 1.43, pUniSpace: 0.72, pUniPunct: 0.696, pSymbol: 0.755, pTab: 1.038, pSpacesDigit: 0.001,
		pCapsEnglish: 0.273, pSpaceEnd: 0.006, pScriptBare: 1.414, pDigitSame: 0.001, pPunctMixed: 0.466, pSymbolMore: 0.544, pRareStart: 1.156, pCyrWord: 0.337,
		pBaltic: 1.308}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.766, pLongLetter: 0.248, pLongEnglish: 0.187, pRareEnd: 0.582, pRareEndWest: 0.008, pCapsLetter: 0.6, pCapsShort: 0.096, pRepeat: -0.103,
		pCaseFlip: 3.14, pDigitGroup: 0.526, pDigit: 0.723, pPunct: 0.811, pPunctMore: 0.004, pPunctWord: 0.968, pNewline: 1.886, pBlankLine: 0.863,
		pIndent: 0.452, pSpaces: 1.115, pSpaceMore: 0, pSpaceDigit: 1.018, pSpaceWide: 0.272, pCtrl: 0.363, pAccent: 1.454, pUmlaut: 1.094,
		pAccentDense: 0.994, pAccentExt: 0.873, pAccentCont: 0.433, pCombining: 0.42, pTurkish: 0.002, pVietnamese: 0.199, pGreek: 0.39, pCyrRussian: 0.099,
		pCyrDefault: 0.179, pCyrSouth: 0.24, pCyrTurkic: 0.289, pCyrKyrgyz: 0.202, pArmenian: 0.52, pGeorgian: 0.421, pHebrew: 0.491, pArabic: 0.323,
		pArabicFa: 0.299, pArabicUr: 0.293, pEthiopic: 0.684, pDevanagari: 0.291, pBengali: 0.241, pGurmukhi: 0.614, pGujarati: 0.407, pOriya: 0.785,
		pTamil: 0.284, pTelugu: 0.346, pKannada: 0.41, pMalayalam: 0.347, pSinhala: 0.522, pThai: 0.359, pLao: 0.553, pMyanmar: 0.443,
		pKhmer: 0.594, pHangul: 0.607, pHanSimple: 0.588, pHanTrad: 0.658, pKanji: 0.836, pKana: 0.27, pCJKPunct: 1.756, pAlphabet: 0.42,
		pScriptWord: 0.002, pVarSel: 0.064, pEmoji: 0.994, pUniSpace: 0.392, pUniPunct: 0.055, pSymbol: 1.188, pTab: 1.468, pSpacesDigit: 0.001,
		pCapsEnglish: 0.002, pSpaceEnd: 0.005, pScriptBare: 0.783, pDigitSame: 0.811, pPunctMixed: 0.57, pSymbolMore: 0.003, pRareStart: 1.194, pCyrWord: 0.803,
		pBaltic: 0.827}}
)
