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
}}

// The fitted families: prices written by TestFitPrices (go test -run
// TestFitPrices -fit FILE) from the samples named in testdata/tokens_fit.md.
var (
	o200kFamily = family{"o200k", &prices{
		pWord: 0.858, pLongLetter: 0.27, pLongEnglish: 0.012, pRareEnd: 0.869, pRareEndWest: 0.281, pCapsLetter: 0.527, pCapsShort: 0.003, pRepeat: -0.1,
		pCaseFlip: 3.281, pDigitGroup: 0.978, pDigit: 0.001, pPunct: 0.884, pPunctMore: 0.161, pPunctWord: 0.266, pNewline: 1.768, pBlankLine: 0.001,
		pIndent: 0.147, pSpaces: 1.58, pSpaceMore: 1.833, pSpaceDigit: 1.031, pSpaceWide: 0.15, pCtrl: 1.554, pAccent: 0.785, pUmlaut: 0.549,
		pAccentDense: 1.216, pAccentExt: 1.114, pAccentCont: 0.126, pCombining: 0.42, pTurkish: 1.349, pVietnamese: 0.491, pGreek: 0.409, pCyrRussian: 0.242,
		pCyrDefault: 0.35, pCyrSouth: 0.376, pCyrTurkic: 0.34, pCyrKyrgyz: 0.305, pArmenian: 0.337, pGeorgian: 0.358, pHebrew: 0.435, pArabic: 0.33,
		pArabicFa: 0.349, pArabicUr: 0.363, pEthiopic: 2.198, pDevanagari: 0.388, pBengali: 0.393, pGurmukhi: 0.637, pGujarati: 0.433, pOriya: 1.155,
		pTamil: 0.453, pTelugu: 0.425, pKannada: 0.456, pMalayalam: 0.342, pSinhala: 0.617, pThai: 0.45, pLao: 1.911, pMyanmar: 0.561,
		pKhmer: 0.554, pHangul: 0.683, pHanSimple: 0.698, pHanTrad: 1.131, pKanji: 1.032, pKana: 0.559, pCJKPunct: 1.284, pAlphabet: 0.42,
		pScriptWord: 0.005, pVarSel: 4, pEmoji: 1.001, pUniSpace: 0.259, pUniPunct: 1.447, pSymbol: 0.937}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.933, pLongLetter: 0.414, pLongEnglish: 0.003, pRareEnd: 1.11, pRareEndWest: 0.215, pCapsLetter: 0.485, pCapsShort: 0.001, pRepeat: -0.244,
		pCaseFlip: 3.234, pDigitGroup: 1.174, pDigit: 0.001, pPunct: 0.769, pPunctMore: 0.155, pPunctWord: 0.003, pNewline: 1.362, pBlankLine: 0.001,
		pIndent: 0.122, pSpaces: 1.287, pSpaceMore: 1.682, pSpaceDigit: 0.754, pSpaceWide: 0.531, pCtrl: 0.36, pAccent: 1.883, pUmlaut: 1.957,
		pAccentDense: 1.69, pAccentExt: 1.808, pAccentCont: 0.021, pCombining: 0.42, pTurkish: 2.239, pVietnamese: 1.191, pGreek: 0.991, pCyrRussian: 0.416,
		pCyrDefault: 0.551, pCyrSouth: 0.61, pCyrTurkic: 0.775, pCyrKyrgyz: 0.614, pArmenian: 2.113, pGeorgian: 2.11, pHebrew: 1.108, pArabic: 0.766,
		pArabicFa: 0.799, pArabicUr: 1.05, pEthiopic: 2.996, pDevanagari: 1.15, pBengali: 1.385, pGurmukhi: 1.955, pGujarati: 1.964, pOriya: 2.976,
		pTamil: 1.507, pTelugu: 1.994, pKannada: 2.001, pMalayalam: 1.825, pSinhala: 2.136, pThai: 0.996, pLao: 2.276, pMyanmar: 2.085,
		pKhmer: 1.757, pHangul: 1.094, pHanSimple: 0.948, pHanTrad: 1.356, pKanji: 1.927, pKana: 0.597, pCJKPunct: 3.145, pAlphabet: 0.42,
		pScriptWord: 0.034, pVarSel: 0.648, pEmoji: 2.239, pUniSpace: 2.955, pUniPunct: 0.416, pSymbol: 0.731}}

	claudeFamily = family{"claude", &prices{
		pWord: 1.06, pLongLetter: 0.442, pLongEnglish: 0.001, pRareEnd: 1.286, pRareEndWest: 0.418, pCapsLetter: 0.542, pCapsShort: 0.127, pRepeat: -0.273,
		pCaseFlip: 2.556, pDigitGroup: 0.624, pDigit: 0.176, pPunct: 0.808, pPunctMore: 0.006, pPunctWord: 0.821, pNewline: 1.213, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 1.342, pSpaceMore: 1.66, pSpaceDigit: 0.009, pSpaceWide: 0.438, pCtrl: 1.664, pAccent: 1.806, pUmlaut: 2.162,
		pAccentDense: 1.907, pAccentExt: 2.217, pAccentCont: 0.074, pCombining: 0.42, pTurkish: 2.865, pVietnamese: 2.223, pGreek: 1.326, pCyrRussian: 0.535,
		pCyrDefault: 0.635, pCyrSouth: 0.687, pCyrTurkic: 0.856, pCyrKyrgyz: 0.731, pArmenian: 2.194, pGeorgian: 1.424, pHebrew: 1.052, pArabic: 1.074,
		pArabicFa: 1.147, pArabicUr: 1.407, pEthiopic: 3.282, pDevanagari: 1.366, pBengali: 2.103, pGurmukhi: 3.29, pGujarati: 3.257, pOriya: 3.255,
		pTamil: 2.175, pTelugu: 2.443, pKannada: 2.448, pMalayalam: 2.525, pSinhala: 1.888, pThai: 1.91, pLao: 3.246, pMyanmar: 1.1,
		pKhmer: 3.248, pHangul: 1.33, pHanSimple: 0.822, pHanTrad: 1.246, pKanji: 1.767, pKana: 0.655, pCJKPunct: 3.512, pAlphabet: 0.42,
		pScriptWord: 0.056, pVarSel: 1.538, pEmoji: 2.261, pUniSpace: 0.827, pUniPunct: 0.577, pSymbol: 0.961}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.89, pLongLetter: 0.444, pLongEnglish: 0.008, pRareEnd: 1.171, pRareEndWest: 0.183, pCapsLetter: 0.494, pCapsShort: 0.001, pRepeat: -0.273,
		pCaseFlip: 3.295, pDigitGroup: 1.173, pDigit: 0.001, pPunct: 0.812, pPunctMore: 0.147, pPunctWord: 0.003, pNewline: 1.356, pBlankLine: 0.001,
		pIndent: 0.122, pSpaces: 1.294, pSpaceMore: 1.7, pSpaceDigit: 0.772, pSpaceWide: 0.512, pCtrl: 0.374, pAccent: 1.533, pUmlaut: 1.219,
		pAccentDense: 1.174, pAccentExt: 1.032, pAccentCont: 0.518, pCombining: 0.42, pTurkish: 0.723, pVietnamese: 0.037, pGreek: 0.374, pCyrRussian: 0.267,
		pCyrDefault: 0.335, pCyrSouth: 0.455, pCyrTurkic: 0.578, pCyrKyrgyz: 0.427, pArmenian: 1.831, pGeorgian: 2.115, pHebrew: 1.117, pArabic: 0.368,
		pArabicFa: 0.319, pArabicUr: 0.722, pEthiopic: 3.005, pDevanagari: 0.56, pBengali: 1.388, pGurmukhi: 1.954, pGujarati: 1.971, pOriya: 2.923,
		pTamil: 1.511, pTelugu: 1.998, pKannada: 2.003, pMalayalam: 1.784, pSinhala: 2.118, pThai: 0.504, pLao: 2.072, pMyanmar: 2.086,
		pKhmer: 1.733, pHangul: 0.642, pHanSimple: 0.806, pHanTrad: 0.988, pKanji: 1, pKana: 0.595, pCJKPunct: 0.652, pAlphabet: 0.42,
		pScriptWord: 0.007, pVarSel: 1.89, pEmoji: 2.026, pUniSpace: 2.105, pUniPunct: 0.696, pSymbol: 0.735}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.9, pLongLetter: 0.43, pLongEnglish: 0.011, pRareEnd: 1.154, pRareEndWest: 0.114, pCapsLetter: 0.413, pCapsShort: 0.001, pRepeat: -0.26,
		pCaseFlip: 3.03, pDigitGroup: 0.569, pDigit: 0.845, pPunct: 0.789, pPunctMore: 0.104, pPunctWord: 0.001, pNewline: 1.567, pBlankLine: 0.001,
		pIndent: 0.001, pSpaces: 1.235, pSpaceMore: 1.394, pSpaceDigit: 0.616, pSpaceWide: 1.068, pCtrl: 0.15, pAccent: 1.706, pUmlaut: 1.316,
		pAccentDense: 1.333, pAccentExt: 1.235, pAccentCont: 0.298, pCombining: 0.42, pTurkish: 1.381, pVietnamese: 0.222, pGreek: 0.881, pCyrRussian: 0.22,
		pCyrDefault: 0.377, pCyrSouth: 0.416, pCyrTurkic: 0.539, pCyrKyrgyz: 0.436, pArmenian: 1.019, pGeorgian: 1.024, pHebrew: 0.247, pArabic: 0.253,
		pArabicFa: 0.524, pArabicUr: 0.586, pEthiopic: 1.31, pDevanagari: 0.957, pBengali: 1.13, pGurmukhi: 1.703, pGujarati: 1.638, pOriya: 2.234,
		pTamil: 1.146, pTelugu: 1.625, pKannada: 1.497, pMalayalam: 1.441, pSinhala: 1.579, pThai: 0.583, pLao: 1.353, pMyanmar: 1.576,
		pKhmer: 1.286, pHangul: 0.594, pHanSimple: 0.669, pHanTrad: 0.896, pKanji: 0.806, pKana: 0.591, pCJKPunct: 0.525, pAlphabet: 0.42,
		pScriptWord: 0.001, pVarSel: 0.021, pEmoji: 1.201, pUniSpace: 2.329, pUniPunct: 0.495, pSymbol: 0.434}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 1.002, pLongLetter: 0.35, pLongEnglish: 0.001, pRareEnd: 0.886, pRareEndWest: 0.031, pCapsLetter: 0.491, pCapsShort: 0.018, pRepeat: -0.139,
		pCaseFlip: 2.619, pDigitGroup: 1.036, pDigit: 0.001, pPunct: 0.832, pPunctMore: 0.139, pPunctWord: 0.35, pNewline: 1.625, pBlankLine: 0.001,
		pIndent: 0.003, pSpaces: 1.04, pSpaceMore: 2.093, pSpaceDigit: 0.948, pSpaceWide: 0.772, pCtrl: 1.404, pAccent: 1.342, pUmlaut: 1.534,
		pAccentDense: 0.976, pAccentExt: 1.05, pAccentCont: 0.568, pCombining: 0.42, pTurkish: 2.159, pVietnamese: 0.493, pGreek: 0.439, pCyrRussian: 0.225,
		pCyrDefault: 0.363, pCyrSouth: 0.38, pCyrTurkic: 0.486, pCyrKyrgyz: 0.385, pArmenian: 0.537, pGeorgian: 0.765, pHebrew: 0.429, pArabic: 0.313,
		pArabicFa: 0.346, pArabicUr: 0.434, pEthiopic: 2.234, pDevanagari: 0.605, pBengali: 0.43, pGurmukhi: 1.036, pGujarati: 0.921, pOriya: 1.221,
		pTamil: 0.584, pTelugu: 0.801, pKannada: 0.757, pMalayalam: 0.878, pSinhala: 1.039, pThai: 0.434, pLao: 1.838, pMyanmar: 0.918,
		pKhmer: 1.332, pHangul: 0.682, pHanSimple: 0.581, pHanTrad: 0.832, pKanji: 0.713, pKana: 0.614, pCJKPunct: 0.486, pAlphabet: 0.42,
		pScriptWord: 0.001, pVarSel: 0.471, pEmoji: 1.497, pUniSpace: 0.724, pUniPunct: 0.635, pSymbol: 0.598}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.915, pLongLetter: 0.237, pLongEnglish: 0.044, pRareEnd: 0.925, pRareEndWest: 0.079, pCapsLetter: 0.479, pCapsShort: 0.008, pRepeat: -0.082,
		pCaseFlip: 2.483, pDigitGroup: 0.501, pDigit: 0.697, pPunct: 0.873, pPunctMore: 0.003, pPunctWord: 0.91, pNewline: 2.202, pBlankLine: 0.835,
		pIndent: 0.02, pSpaces: 1.155, pSpaceMore: 0.276, pSpaceDigit: 1.434, pSpaceWide: 0.206, pCtrl: 0.074, pAccent: 0.996, pUmlaut: 0.465,
		pAccentDense: 0.738, pAccentExt: 0.841, pAccentCont: 0.483, pCombining: 0.42, pTurkish: 1.011, pVietnamese: 0.016, pGreek: 0.408, pCyrRussian: 0.222,
		pCyrDefault: 0.309, pCyrSouth: 0.376, pCyrTurkic: 0.4, pCyrKyrgyz: 0.285, pArmenian: 0.541, pGeorgian: 0.44, pHebrew: 0.512, pArabic: 0.342,
		pArabicFa: 0.33, pArabicUr: 0.313, pEthiopic: 0.726, pDevanagari: 0.312, pBengali: 0.269, pGurmukhi: 0.643, pGujarati: 0.432, pOriya: 0.799,
		pTamil: 0.31, pTelugu: 0.359, pKannada: 0.443, pMalayalam: 0.366, pSinhala: 0.543, pThai: 0.363, pLao: 0.552, pMyanmar: 0.437,
		pKhmer: 0.584, pHangul: 0.619, pHanSimple: 0.546, pHanTrad: 0.687, pKanji: 0.736, pKana: 0.276, pCJKPunct: 1.913, pAlphabet: 0.42,
		pScriptWord: 0.004, pVarSel: 0.105, pEmoji: 0.953, pUniSpace: 0.777, pUniPunct: 0.172, pSymbol: 0.683}}
)
