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
		pWord: 0.745, pLongLetter: 0.259, pLongEnglish: 0.177, pRareEnd: 0.549, pRareEndWest: 0.23, pCapsLetter: 0.507, pCapsShort: 0.207, pRepeat: -0.083,
		pCaseFlip: 3.581, pDigitGroup: 1.112, pDigit: 0.001, pPunct: 1.061, pPunctMore: 0.033, pPunctWord: 0.207, pNewline: 1.431, pBlankLine: 0.162,
		pIndent: 0.275, pSpaces: 1.244, pSpaceMore: 0, pSpaceDigit: 0.697, pSpaceWide: 0.816, pCtrl: 1.354, pAccent: 0.397, pUmlaut: 0.517,
		pAccentDense: 0.68, pAccentExt: 0.839, pAccentCont: 0.801, pCombining: 0.42, pTurkish: 0.355, pVietnamese: 0.014, pGreek: 0.26, pCyrRussian: 0.13,
		pCyrDefault: 0.228, pCyrSouth: 0.239, pCyrTurkic: 0.21, pCyrKyrgyz: 0.125, pArmenian: 0.207, pGeorgian: 0.219, pHebrew: 0.257, pArabic: 0.155,
		pArabicFa: 0.175, pArabicUr: 0.173, pEthiopic: 1.909, pDevanagari: 0.206, pBengali: 0.231, pGurmukhi: 0.427, pGujarati: 0.259, pOriya: 1.03,
		pTamil: 0.286, pTelugu: 0.318, pKannada: 0.304, pMalayalam: 0.261, pSinhala: 0.474, pThai: 0.44, pLao: 1.892, pMyanmar: 0.536,
		pKhmer: 0.639, pHangul: 0.499, pHanSimple: 0.728, pHanTrad: 0.971, pKanji: 1.032, pKana: 0.569, pCJKPunct: 0.963, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.797, pEmoji: 1.357, pUniSpace: 1.117, pUniPunct: 0.379, pSymbol: 1.506, pTab: 0.91, pSpacesDigit: 0.926,
		pCapsEnglish: 0.001, pSpaceEnd: 0.007, pScriptBare: 2.248, pDigitSame: 0.001, pPunctMixed: 0.451, pSymbolMore: 0.028, pRareStart: 0.939}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.867, pLongLetter: 0.361, pLongEnglish: 0.03, pRareEnd: 0.458, pRareEndWest: 0.001, pCapsLetter: 0.555, pCapsShort: 0.041, pRepeat: -0.187,
		pCaseFlip: 3.788, pDigitGroup: 1.069, pDigit: 0.001, pPunct: 1.069, pPunctMore: 0.015, pPunctWord: 0.003, pNewline: 1.113, pBlankLine: 0.001,
		pIndent: 0.325, pSpaces: 0.906, pSpaceMore: 0, pSpaceDigit: 0.77, pSpaceWide: 0.947, pCtrl: 0.154, pAccent: 1.328, pUmlaut: 1.619,
		pAccentDense: 1.387, pAccentExt: 1.627, pAccentCont: 0.541, pCombining: 0.42, pTurkish: 1.396, pVietnamese: 0.856, pGreek: 0.903, pCyrRussian: 0.334,
		pCyrDefault: 0.465, pCyrSouth: 0.511, pCyrTurkic: 0.699, pCyrKyrgyz: 0.524, pArmenian: 2.041, pGeorgian: 2.033, pHebrew: 0.989, pArabic: 0.662,
		pArabicFa: 0.673, pArabicUr: 0.937, pEthiopic: 2.882, pDevanagari: 1.049, pBengali: 1.294, pGurmukhi: 1.834, pGujarati: 1.862, pOriya: 2.896,
		pTamil: 1.433, pTelugu: 1.916, pKannada: 1.922, pMalayalam: 1.737, pSinhala: 2.032, pThai: 0.991, pLao: 2.26, pMyanmar: 2.07,
		pKhmer: 1.699, pHangul: 0.898, pHanSimple: 0.935, pHanTrad: 1.319, pKanji: 1.727, pKana: 0.639, pCJKPunct: 3.246, pAlphabet: 0.42,
		pScriptWord: 0.018, pVarSel: 0.981, pEmoji: 1.984, pUniSpace: 1.62, pUniPunct: 1.034, pSymbol: 0.629, pTab: 0.881, pSpacesDigit: 1.128,
		pCapsEnglish: 0.003, pSpaceEnd: 0.006, pScriptBare: 1.149, pDigitSame: 0.041, pPunctMixed: 0.404, pSymbolMore: 0.752, pRareStart: 1.426}}

	claudeFamily = family{"claude", &prices{
		pWord: 0.968, pLongLetter: 0.454, pLongEnglish: 0.004, pRareEnd: 0.807, pRareEndWest: 0.007, pCapsLetter: 0.7, pCapsShort: 0.468, pRepeat: -0.278,
		pCaseFlip: 2.81, pDigitGroup: 0.661, pDigit: 0.191, pPunct: 1.105, pPunctMore: 0.038, pPunctWord: 0.422, pNewline: 1.05, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 0.832, pSpaceMore: 0, pSpaceDigit: 0.047, pSpaceWide: 0.499, pCtrl: 1.27, pAccent: 1.507, pUmlaut: 1.263,
		pAccentDense: 1.654, pAccentExt: 1.981, pAccentCont: 0.44, pCombining: 0.42, pTurkish: 2.499, pVietnamese: 2.008, pGreek: 1.308, pCyrRussian: 0.529,
		pCyrDefault: 0.633, pCyrSouth: 0.682, pCyrTurkic: 0.85, pCyrKyrgyz: 0.737, pArmenian: 2.186, pGeorgian: 1.419, pHebrew: 1.027, pArabic: 1.073,
		pArabicFa: 1.14, pArabicUr: 1.396, pEthiopic: 3.269, pDevanagari: 1.351, pBengali: 2.097, pGurmukhi: 3.281, pGujarati: 3.251, pOriya: 3.248,
		pTamil: 2.168, pTelugu: 2.437, pKannada: 2.441, pMalayalam: 2.512, pSinhala: 1.878, pThai: 1.907, pLao: 3.24, pMyanmar: 1.101,
		pKhmer: 3.221, pHangul: 1.294, pHanSimple: 0.803, pHanTrad: 1.249, pKanji: 1.599, pKana: 0.706, pCJKPunct: 3.724, pAlphabet: 0.42,
		pScriptWord: 0.037, pVarSel: 2.035, pEmoji: 2.105, pUniSpace: 0.922, pUniPunct: 0.869, pSymbol: 1.584, pTab: 1.412, pSpacesDigit: 0.282,
		pCapsEnglish: 0.004, pSpaceEnd: 0.008, pScriptBare: 0.056, pDigitSame: 0.001, pPunctMixed: 0.443, pSymbolMore: 0.603, pRareStart: 1.45}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.803, pLongLetter: 0.446, pLongEnglish: 0.102, pRareEnd: 0.819, pRareEndWest: 0.032, pCapsLetter: 0.539, pCapsShort: 0.08, pRepeat: -0.273,
		pCaseFlip: 3.839, pDigitGroup: 1.134, pDigit: 0.001, pPunct: 1.078, pPunctMore: 0.011, pPunctWord: 0.004, pNewline: 1.155, pBlankLine: 0.009,
		pIndent: 0.174, pSpaces: 1.166, pSpaceMore: 0, pSpaceDigit: 0.678, pSpaceWide: 1.18, pCtrl: 0.159, pAccent: 1.525, pUmlaut: 1.106,
		pAccentDense: 1.179, pAccentExt: 1.024, pAccentCont: 0.537, pCombining: 0.42, pTurkish: 0.001, pVietnamese: 0.006, pGreek: 0.237, pCyrRussian: 0.128,
		pCyrDefault: 0.208, pCyrSouth: 0.322, pCyrTurkic: 0.466, pCyrKyrgyz: 0.292, pArmenian: 1.718, pGeorgian: 1.997, pHebrew: 0.937, pArabic: 0.202,
		pArabicFa: 0.141, pArabicUr: 0.533, pEthiopic: 2.822, pDevanagari: 0.404, pBengali: 1.244, pGurmukhi: 1.766, pGujarati: 1.813, pOriya: 2.797,
		pTamil: 1.4, pTelugu: 1.879, pKannada: 1.885, pMalayalam: 1.677, pSinhala: 1.971, pThai: 0.489, pLao: 2.048, pMyanmar: 2.057,
		pKhmer: 1.715, pHangul: 0.434, pHanSimple: 0.791, pHanTrad: 0.906, pKanji: 0.869, pKana: 0.607, pCJKPunct: 0.774, pAlphabet: 0.42,
		pScriptWord: 0.009, pVarSel: 0.582, pEmoji: 1.996, pUniSpace: 1.165, pUniPunct: 0.842, pSymbol: 0.619, pTab: 0.731, pSpacesDigit: 0.659,
		pCapsEnglish: 0.002, pSpaceEnd: 0.003, pScriptBare: 1.492, pDigitSame: 0.025, pPunctMixed: 0.375, pSymbolMore: 0.464, pRareStart: 0.839}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.808, pLongLetter: 0.408, pLongEnglish: 0.092, pRareEnd: 0.797, pRareEndWest: 0.032, pCapsLetter: 0.547, pCapsShort: 0.017, pRepeat: -0.238,
		pCaseFlip: 3.772, pDigitGroup: 0.369, pDigit: 0.835, pPunct: 1.081, pPunctMore: 0.008, pPunctWord: 0.002, pNewline: 1.272, pBlankLine: 0.117,
		pIndent: 0.047, pSpaces: 1.245, pSpaceMore: 0, pSpaceDigit: 0.736, pSpaceWide: 1.446, pCtrl: 0.152, pAccent: 1.537, pUmlaut: 1.234,
		pAccentDense: 1.18, pAccentExt: 1.222, pAccentCont: 0.576, pCombining: 0.42, pTurkish: 0.332, pVietnamese: 0.007, pGreek: 0.793, pCyrRussian: 0.127,
		pCyrDefault: 0.28, pCyrSouth: 0.32, pCyrTurkic: 0.461, pCyrKyrgyz: 0.337, pArmenian: 0.945, pGeorgian: 0.944, pHebrew: 0.124, pArabic: 0.147,
		pArabicFa: 0.395, pArabicUr: 0.478, pEthiopic: 1.106, pDevanagari: 0.857, pBengali: 1.022, pGurmukhi: 1.581, pGujarati: 1.534, pOriya: 2.158,
		pTamil: 1.071, pTelugu: 1.547, pKannada: 1.418, pMalayalam: 1.369, pSinhala: 1.483, pThai: 0.574, pLao: 1.337, pMyanmar: 1.565,
		pKhmer: 1.28, pHangul: 0.463, pHanSimple: 0.638, pHanTrad: 0.794, pKanji: 0.791, pKana: 0.573, pCJKPunct: 0.735, pAlphabet: 0.42,
		pScriptWord: 0.002, pVarSel: 0.028, pEmoji: 1.067, pUniSpace: 1.619, pUniPunct: 0.61, pSymbol: 0.516, pTab: 1.004, pSpacesDigit: 0.77,
		pCapsEnglish: 0.003, pSpaceEnd: 0.004, pScriptBare: 1.296, pDigitSame: 1.028, pPunctMixed: 0.342, pSymbolMore: 0.443, pRareStart: 0.971}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.936, pLongLetter: 0.311, pLongEnglish: 0.008, pRareEnd: 0.413, pRareEndWest: 0.001, pCapsLetter: 0.599, pCapsShort: 0.003, pRepeat: -0.098,
		pCaseFlip: 2.996, pDigitGroup: 1.112, pDigit: 0.001, pPunct: 0.919, pPunctMore: 0.041, pPunctWord: 0.371, pNewline: 1.426, pBlankLine: 0.066,
		pIndent: 0.351, pSpaces: 0.784, pSpaceMore: 0, pSpaceDigit: 0.778, pSpaceWide: 0.899, pCtrl: 1.325, pAccent: 0.721, pUmlaut: 0.965,
		pAccentDense: 0.478, pAccentExt: 0.665, pAccentCont: 1.424, pCombining: 0.42, pTurkish: 1.109, pVietnamese: 0.071, pGreek: 0.4, pCyrRussian: 0.178,
		pCyrDefault: 0.328, pCyrSouth: 0.338, pCyrTurkic: 0.448, pCyrKyrgyz: 0.318, pArmenian: 0.498, pGeorgian: 0.726, pHebrew: 0.374, pArabic: 0.265,
		pArabicFa: 0.273, pArabicUr: 0.396, pEthiopic: 2.168, pDevanagari: 0.554, pBengali: 0.37, pGurmukhi: 0.978, pGujarati: 0.867, pOriya: 1.19,
		pTamil: 0.517, pTelugu: 0.761, pKannada: 0.716, pMalayalam: 0.834, pSinhala: 0.989, pThai: 0.412, pLao: 1.834, pMyanmar: 0.917,
		pKhmer: 1.325, pHangul: 0.638, pHanSimple: 0.553, pHanTrad: 0.756, pKanji: 0.742, pKana: 0.591, pCJKPunct: 0.87, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 0.687, pEmoji: 1.399, pUniSpace: 0.064, pUniPunct: 0.786, pSymbol: 0.768, pTab: 1.015, pSpacesDigit: 0.001,
		pCapsEnglish: 0.205, pSpaceEnd: 0.006, pScriptBare: 0.991, pDigitSame: 0.001, pPunctMixed: 0.451, pSymbolMore: 0.531, pRareStart: 1.137}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.756, pLongLetter: 0.255, pLongEnglish: 0.194, pRareEnd: 0.6, pRareEndWest: 0.015, pCapsLetter: 0.629, pCapsShort: 0.102, pRepeat: -0.111,
		pCaseFlip: 3.249, pDigitGroup: 0.427, pDigit: 0.742, pPunct: 0.889, pPunctMore: 0.003, pPunctWord: 0.95, pNewline: 1.846, pBlankLine: 0.839,
		pIndent: 0.341, pSpaces: 1.162, pSpaceMore: 0, pSpaceDigit: 1.113, pSpaceWide: 0.348, pCtrl: 0.35, pAccent: 1.413, pUmlaut: 1.003,
		pAccentDense: 0.961, pAccentExt: 0.94, pAccentCont: 0.455, pCombining: 0.42, pTurkish: 0.001, pVietnamese: 0.174, pGreek: 0.375, pCyrRussian: 0.223,
		pCyrDefault: 0.297, pCyrSouth: 0.348, pCyrTurkic: 0.376, pCyrKyrgyz: 0.253, pArmenian: 0.515, pGeorgian: 0.414, pHebrew: 0.474, pArabic: 0.31,
		pArabicFa: 0.289, pArabicUr: 0.273, pEthiopic: 0.677, pDevanagari: 0.276, pBengali: 0.232, pGurmukhi: 0.603, pGujarati: 0.4, pOriya: 0.774,
		pTamil: 0.285, pTelugu: 0.336, pKannada: 0.41, pMalayalam: 0.349, pSinhala: 0.516, pThai: 0.358, pLao: 0.549, pMyanmar: 0.44,
		pKhmer: 0.592, pHangul: 0.582, pHanSimple: 0.594, pHanTrad: 0.622, pKanji: 0.831, pKana: 0.271, pCJKPunct: 1.723, pAlphabet: 0.42,
		pScriptWord: 0.004, pVarSel: 0.06, pEmoji: 0.982, pUniSpace: 0.371, pUniPunct: 0.053, pSymbol: 1.101, pTab: 1.537, pSpacesDigit: 0.001,
		pCapsEnglish: 0.002, pSpaceEnd: 0.005, pScriptBare: 0.646, pDigitSame: 0.852, pPunctMixed: 0.527, pSymbolMore: 0.004, pRareStart: 1.131}}
)
