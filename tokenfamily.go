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
		pWord: 0.746, pLongLetter: 0.259, pLongEnglish: 0.176, pRareEnd: 0.55, pRareEndWest: 0.231, pCapsLetter: 0.507, pCapsShort: 0.207, pRepeat: -0.083,
		pCaseFlip: 3.578, pDigitGroup: 1.112, pDigit: 0.001, pPunct: 1.059, pPunctMore: 0.034, pPunctWord: 0.207, pNewline: 1.432, pBlankLine: 0.152,
		pIndent: 0.276, pSpaces: 1.24, pSpaceMore: 0, pSpaceDigit: 0.698, pSpaceWide: 0.788, pCtrl: 1.352, pAccent: 0.396, pUmlaut: 0.52,
		pAccentDense: 0.68, pAccentExt: 0.838, pAccentCont: 0.805, pCombining: 0.42, pTurkish: 0.354, pVietnamese: 0.014, pGreek: 0.264, pCyrRussian: 0.08,
		pCyrDefault: 0.172, pCyrSouth: 0.187, pCyrTurkic: 0.168, pCyrKyrgyz: 0.103, pArmenian: 0.209, pGeorgian: 0.221, pHebrew: 0.262, pArabic: 0.159,
		pArabicFa: 0.179, pArabicUr: 0.181, pEthiopic: 1.899, pDevanagari: 0.212, pBengali: 0.233, pGurmukhi: 0.431, pGujarati: 0.262, pOriya: 1.034,
		pTamil: 0.285, pTelugu: 0.321, pKannada: 0.306, pMalayalam: 0.263, pSinhala: 0.476, pThai: 0.44, pLao: 1.893, pMyanmar: 0.537,
		pKhmer: 0.638, pHangul: 0.507, pHanSimple: 0.73, pHanTrad: 0.974, pKanji: 1.032, pKana: 0.571, pCJKPunct: 0.945, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.77, pEmoji: 1.373, pUniSpace: 1.125, pUniPunct: 0.392, pSymbol: 1.511, pTab: 0.91, pSpacesDigit: 0.935,
		pCapsEnglish: 0.001, pSpaceEnd: 0.007, pScriptBare: 2.296, pDigitSame: 0.001, pPunctMixed: 0.451, pSymbolMore: 0.024, pRareStart: 0.939, pCyrWord: 0.379}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.867, pLongLetter: 0.361, pLongEnglish: 0.03, pRareEnd: 0.458, pRareEndWest: 0.001, pCapsLetter: 0.555, pCapsShort: 0.041, pRepeat: -0.187,
		pCaseFlip: 3.788, pDigitGroup: 1.069, pDigit: 0.001, pPunct: 1.069, pPunctMore: 0.015, pPunctWord: 0.003, pNewline: 1.113, pBlankLine: 0.001,
		pIndent: 0.325, pSpaces: 0.906, pSpaceMore: 0, pSpaceDigit: 0.77, pSpaceWide: 0.95, pCtrl: 0.154, pAccent: 1.329, pUmlaut: 1.619,
		pAccentDense: 1.387, pAccentExt: 1.628, pAccentCont: 0.541, pCombining: 0.42, pTurkish: 1.396, pVietnamese: 0.856, pGreek: 0.898, pCyrRussian: 0.336,
		pCyrDefault: 0.467, pCyrSouth: 0.514, pCyrTurkic: 0.7, pCyrKyrgyz: 0.525, pArmenian: 2.037, pGeorgian: 2.028, pHebrew: 0.982, pArabic: 0.656,
		pArabicFa: 0.667, pArabicUr: 0.927, pEthiopic: 2.875, pDevanagari: 1.042, pBengali: 1.289, pGurmukhi: 1.827, pGujarati: 1.857, pOriya: 2.89,
		pTamil: 1.43, pTelugu: 1.911, pKannada: 1.918, pMalayalam: 1.734, pSinhala: 2.027, pThai: 0.991, pLao: 2.261, pMyanmar: 2.07,
		pKhmer: 1.7, pHangul: 0.898, pHanSimple: 0.936, pHanTrad: 1.319, pKanji: 1.728, pKana: 0.64, pCJKPunct: 3.248, pAlphabet: 0.42,
		pScriptWord: 0.05, pVarSel: 0.982, pEmoji: 1.983, pUniSpace: 1.621, pUniPunct: 1.031, pSymbol: 0.623, pTab: 0.881, pSpacesDigit: 1.128,
		pCapsEnglish: 0.003, pSpaceEnd: 0.006, pScriptBare: 1.157, pDigitSame: 0.041, pPunctMixed: 0.404, pSymbolMore: 0.756, pRareStart: 1.428, pCyrWord: 0.001}}

	claudeFamily = family{"claude", &prices{
		pWord: 0.968, pLongLetter: 0.454, pLongEnglish: 0.004, pRareEnd: 0.806, pRareEndWest: 0.007, pCapsLetter: 0.7, pCapsShort: 0.468, pRepeat: -0.278,
		pCaseFlip: 2.81, pDigitGroup: 0.661, pDigit: 0.191, pPunct: 1.105, pPunctMore: 0.038, pPunctWord: 0.422, pNewline: 1.05, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 0.832, pSpaceMore: 0, pSpaceDigit: 0.047, pSpaceWide: 0.5, pCtrl: 1.27, pAccent: 1.507, pUmlaut: 1.263,
		pAccentDense: 1.654, pAccentExt: 1.981, pAccentCont: 0.44, pCombining: 0.42, pTurkish: 2.498, pVietnamese: 2.008, pGreek: 1.304, pCyrRussian: 0.534,
		pCyrDefault: 0.638, pCyrSouth: 0.687, pCyrTurkic: 0.854, pCyrKyrgyz: 0.739, pArmenian: 2.184, pGeorgian: 1.417, pHebrew: 1.022, pArabic: 1.069,
		pArabicFa: 1.137, pArabicUr: 1.39, pEthiopic: 3.266, pDevanagari: 1.347, pBengali: 2.094, pGurmukhi: 3.277, pGujarati: 3.248, pOriya: 3.244,
		pTamil: 2.166, pTelugu: 2.435, pKannada: 2.439, pMalayalam: 2.511, pSinhala: 1.875, pThai: 1.907, pLao: 3.24, pMyanmar: 1.101,
		pKhmer: 3.221, pHangul: 1.294, pHanSimple: 0.803, pHanTrad: 1.248, pKanji: 1.599, pKana: 0.706, pCJKPunct: 3.723, pAlphabet: 0.42,
		pScriptWord: 0.059, pVarSel: 2.034, pEmoji: 2.105, pUniSpace: 0.922, pUniPunct: 0.868, pSymbol: 1.581, pTab: 1.413, pSpacesDigit: 0.282,
		pCapsEnglish: 0.004, pSpaceEnd: 0.008, pScriptBare: 0.052, pDigitSame: 0.001, pPunctMixed: 0.443, pSymbolMore: 0.606, pRareStart: 1.45, pCyrWord: 0.007}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.803, pLongLetter: 0.446, pLongEnglish: 0.099, pRareEnd: 0.823, pRareEndWest: 0.039, pCapsLetter: 0.54, pCapsShort: 0.074, pRepeat: -0.273,
		pCaseFlip: 3.829, pDigitGroup: 1.135, pDigit: 0.001, pPunct: 1.074, pPunctMore: 0.012, pPunctWord: 0.004, pNewline: 1.152, pBlankLine: 0.01,
		pIndent: 0.198, pSpaces: 1.221, pSpaceMore: 0, pSpaceDigit: 0.68, pSpaceWide: 1.143, pCtrl: 0.16, pAccent: 1.52, pUmlaut: 1.114,
		pAccentDense: 1.18, pAccentExt: 1.022, pAccentCont: 0.541, pCombining: 0.42, pTurkish: 0.001, pVietnamese: 0.006, pGreek: 0.239, pCyrRussian: 0.059,
		pCyrDefault: 0.136, pCyrSouth: 0.254, pCyrTurkic: 0.412, pCyrKyrgyz: 0.249, pArmenian: 1.714, pGeorgian: 1.993, pHebrew: 0.938, pArabic: 0.202,
		pArabicFa: 0.135, pArabicUr: 0.543, pEthiopic: 2.814, pDevanagari: 0.404, pBengali: 1.236, pGurmukhi: 1.763, pGujarati: 1.807, pOriya: 2.8,
		pTamil: 1.395, pTelugu: 1.875, pKannada: 1.88, pMalayalam: 1.67, pSinhala: 1.966, pThai: 0.49, pLao: 2.047, pMyanmar: 2.059,
		pKhmer: 1.711, pHangul: 0.444, pHanSimple: 0.786, pHanTrad: 0.923, pKanji: 0.87, pKana: 0.604, pCJKPunct: 0.827, pAlphabet: 0.42,
		pScriptWord: 0.005, pVarSel: 0.556, pEmoji: 2.017, pUniSpace: 1.156, pUniPunct: 0.889, pSymbol: 0.616, pTab: 0.767, pSpacesDigit: 0.574,
		pCapsEnglish: 0.002, pSpaceEnd: 0.003, pScriptBare: 1.767, pDigitSame: 0.026, pPunctMixed: 0.376, pSymbolMore: 0.453, pRareStart: 0.831, pCyrWord: 0.468}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.808, pLongLetter: 0.408, pLongEnglish: 0.093, pRareEnd: 0.797, pRareEndWest: 0.031, pCapsLetter: 0.547, pCapsShort: 0.017, pRepeat: -0.237,
		pCaseFlip: 3.77, pDigitGroup: 0.369, pDigit: 0.835, pPunct: 1.081, pPunctMore: 0.008, pPunctWord: 0.002, pNewline: 1.273, pBlankLine: 0.113,
		pIndent: 0.044, pSpaces: 1.242, pSpaceMore: 0, pSpaceDigit: 0.733, pSpaceWide: 1.442, pCtrl: 0.152, pAccent: 1.539, pUmlaut: 1.233,
		pAccentDense: 1.18, pAccentExt: 1.222, pAccentCont: 0.577, pCombining: 0.42, pTurkish: 0.331, pVietnamese: 0.007, pGreek: 0.755, pCyrRussian: 0.126,
		pCyrDefault: 0.279, pCyrSouth: 0.319, pCyrTurkic: 0.456, pCyrKyrgyz: 0.322, pArmenian: 0.916, pGeorgian: 0.914, pHebrew: 0.077, pArabic: 0.103,
		pArabicFa: 0.351, pArabicUr: 0.416, pEthiopic: 1.057, pDevanagari: 0.814, pBengali: 0.983, pGurmukhi: 1.531, pGujarati: 1.493, pOriya: 2.121,
		pTamil: 1.044, pTelugu: 1.516, pKannada: 1.388, pMalayalam: 1.347, pSinhala: 1.444, pThai: 0.574, pLao: 1.337, pMyanmar: 1.566,
		pKhmer: 1.279, pHangul: 0.464, pHanSimple: 0.638, pHanTrad: 0.795, pKanji: 0.791, pKana: 0.573, pCJKPunct: 0.733, pAlphabet: 0.42,
		pScriptWord: 0.228, pVarSel: 0.028, pEmoji: 1.069, pUniSpace: 1.612, pUniPunct: 0.605, pSymbol: 0.46, pTab: 0.995, pSpacesDigit: 0.774,
		pCapsEnglish: 0.003, pSpaceEnd: 0.004, pScriptBare: 1.51, pDigitSame: 1.028, pPunctMixed: 0.342, pSymbolMore: 0.495, pRareStart: 0.975, pCyrWord: 0.001}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.935, pLongLetter: 0.311, pLongEnglish: 0.007, pRareEnd: 0.415, pRareEndWest: 0.001, pCapsLetter: 0.597, pCapsShort: 0.003, pRepeat: -0.098,
		pCaseFlip: 2.993, pDigitGroup: 1.112, pDigit: 0.001, pPunct: 0.909, pPunctMore: 0.046, pPunctWord: 0.373, pNewline: 1.425, pBlankLine: 0.073,
		pIndent: 0.385, pSpaces: 0.79, pSpaceMore: 0, pSpaceDigit: 0.777, pSpaceWide: 0.871, pCtrl: 1.338, pAccent: 0.728, pUmlaut: 0.974,
		pAccentDense: 0.483, pAccentExt: 0.667, pAccentCont: 1.424, pCombining: 0.42, pTurkish: 1.107, pVietnamese: 0.079, pGreek: 0.4, pCyrRussian: 0.125,
		pCyrDefault: 0.272, pCyrSouth: 0.282, pCyrTurkic: 0.402, pCyrKyrgyz: 0.273, pArmenian: 0.491, pGeorgian: 0.719, pHebrew: 0.373, pArabic: 0.261,
		pArabicFa: 0.263, pArabicUr: 0.402, pEthiopic: 2.157, pDevanagari: 0.553, pBengali: 0.357, pGurmukhi: 0.97, pGujarati: 0.856, pOriya: 1.191,
		pTamil: 0.508, pTelugu: 0.753, pKannada: 0.708, pMalayalam: 0.824, pSinhala: 0.981, pThai: 0.412, pLao: 1.835, pMyanmar: 0.919,
		pKhmer: 1.325, pHangul: 0.646, pHanSimple: 0.552, pHanTrad: 0.774, pKanji: 0.743, pKana: 0.591, pCJKPunct: 0.889, pAlphabet: 0.42,
		pScriptWord: 0.002, pVarSel: 0.647, pEmoji: 1.419, pUniSpace: 0.047, pUniPunct: 0.802, pSymbol: 0.793, pTab: 1.056, pSpacesDigit: 0.001,
		pCapsEnglish: 0.221, pSpaceEnd: 0.006, pScriptBare: 1.366, pDigitSame: 0.001, pPunctMixed: 0.453, pSymbolMore: 0.51, pRareStart: 1.14, pCyrWord: 0.351}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.768, pLongLetter: 0.253, pLongEnglish: 0.189, pRareEnd: 0.597, pRareEndWest: 0.003, pCapsLetter: 0.608, pCapsShort: 0.102, pRepeat: -0.107,
		pCaseFlip: 3.144, pDigitGroup: 0.499, pDigit: 0.729, pPunct: 0.83, pPunctMore: 0.003, pPunctWord: 0.971, pNewline: 1.847, pBlankLine: 0.87,
		pIndent: 0.441, pSpaces: 1.136, pSpaceMore: 0, pSpaceDigit: 1.041, pSpaceWide: 0.261, pCtrl: 0.358, pAccent: 1.433, pUmlaut: 1.031,
		pAccentDense: 0.968, pAccentExt: 0.942, pAccentCont: 0.463, pCombining: 0.42, pTurkish: 0.001, pVietnamese: 0.174, pGreek: 0.392, pCyrRussian: 0.099,
		pCyrDefault: 0.178, pCyrSouth: 0.24, pCyrTurkic: 0.29, pCyrKyrgyz: 0.203, pArmenian: 0.521, pGeorgian: 0.423, pHebrew: 0.493, pArabic: 0.324,
		pArabicFa: 0.301, pArabicUr: 0.296, pEthiopic: 0.687, pDevanagari: 0.293, pBengali: 0.243, pGurmukhi: 0.616, pGujarati: 0.409, pOriya: 0.786,
		pTamil: 0.285, pTelugu: 0.347, pKannada: 0.411, pMalayalam: 0.348, pSinhala: 0.524, pThai: 0.36, pLao: 0.553, pMyanmar: 0.445,
		pKhmer: 0.594, pHangul: 0.61, pHanSimple: 0.589, pHanTrad: 0.67, pKanji: 0.836, pKana: 0.272, pCJKPunct: 1.742, pAlphabet: 0.42,
		pScriptWord: 0.002, pVarSel: 0.062, pEmoji: 1.01, pUniSpace: 0.192, pUniPunct: 0.076, pSymbol: 1.171, pTab: 1.474, pSpacesDigit: 0.001,
		pCapsEnglish: 0.002, pSpaceEnd: 0.005, pScriptBare: 0.799, pDigitSame: 0.824, pPunctMixed: 0.557, pSymbolMore: 0.003, pRareStart: 1.143, pCyrWord: 0.81}}
)
