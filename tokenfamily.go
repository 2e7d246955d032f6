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
		pWord: 0.824, pLongLetter: 0.253, pLongEnglish: 0.115, pRareEnd: 0.828, pRareEndWest: 0.423, pCapsLetter: 0.531, pCapsShort: 0.003, pRepeat: -0.092,
		pCaseFlip: 3.416, pDigitGroup: 0.999, pDigit: 0.001, pPunct: 0.828, pPunctMore: 0.178, pPunctWord: 0.315, pNewline: 1.707, pBlankLine: 0.001,
		pIndent: 0.387, pSpaces: 1.617, pSpaceMore: 1.794, pSpaceDigit: 1.003, pSpaceWide: 0.106, pCtrl: 1.724, pAccent: 0.821, pUmlaut: 0.87,
		pAccentDense: 1.296, pAccentExt: 1.299, pAccentCont: 0.04, pCombining: 0.42, pTurkish: 1.307, pVietnamese: 0.579, pGreek: 0.393, pCyrRussian: 0.253,
		pCyrDefault: 0.352, pCyrSouth: 0.386, pCyrTurkic: 0.345, pCyrKyrgyz: 0.312, pArmenian: 0.344, pGeorgian: 0.366, pHebrew: 0.451, pArabic: 0.337,
		pArabicFa: 0.356, pArabicUr: 0.376, pEthiopic: 2.292, pDevanagari: 0.399, pBengali: 0.401, pGurmukhi: 0.649, pGujarati: 0.426, pOriya: 1.3,
		pTamil: 0.462, pTelugu: 0.432, pKannada: 0.464, pMalayalam: 0.344, pSinhala: 0.617, pThai: 0.446, pLao: 1.918, pMyanmar: 0.565,
		pKhmer: 0.552, pHangul: 0.687, pHanSimple: 0.665, pHanTrad: 1.12, pKanji: 1.018, pKana: 0.558, pCJKPunct: 1.648, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 4, pEmoji: 0.974, pUniSpace: 0.004, pUniPunct: 1.602, pSymbol: 0.944}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.938, pLongLetter: 0.409, pLongEnglish: 0.003, pRareEnd: 1.089, pRareEndWest: 0.197, pCapsLetter: 0.492, pCapsShort: 0.001, pRepeat: -0.264,
		pCaseFlip: 3.472, pDigitGroup: 1.125, pDigit: 0.001, pPunct: 0.73, pPunctMore: 0.134, pPunctWord: 0.002, pNewline: 1.457, pBlankLine: 0.001,
		pIndent: 0.252, pSpaces: 1.407, pSpaceMore: 1.631, pSpaceDigit: 0.783, pSpaceWide: 0.146, pCtrl: 0.561, pAccent: 1.751, pUmlaut: 1.296,
		pAccentDense: 1.575, pAccentExt: 1.707, pAccentCont: 0.177, pCombining: 0.42, pTurkish: 2.202, pVietnamese: 1.159, pGreek: 0.487, pCyrRussian: 0.001,
		pCyrDefault: 0.04, pCyrSouth: 0.036, pCyrTurkic: 0.324, pCyrKyrgyz: 0.183, pArmenian: 1.679, pGeorgian: 1.666, pHebrew: 0.416, pArabic: 0.093,
		pArabicFa: 0.169, pArabicUr: 0.192, pEthiopic: 2.278, pDevanagari: 0.569, pBengali: 0.831, pGurmukhi: 1.23, pGujarati: 1.344, pOriya: 1.3,
		pTamil: 1.1, pTelugu: 1.564, pKannada: 1.556, pMalayalam: 1.466, pSinhala: 1.587, pThai: 0.998, pLao: 2.289, pMyanmar: 2.104,
		pKhmer: 1.784, pHangul: 1.178, pHanSimple: 1.025, pHanTrad: 1.735, pKanji: 1.65, pKana: 0.835, pCJKPunct: 1.133, pAlphabet: 0.42,
		pScriptWord: 3.51, pVarSel: 4, pEmoji: 1.746, pUniSpace: 4, pUniPunct: 0.031, pSymbol: 0.772}}

	claudeFamily = family{"claude", &prices{
		pWord: 1.05, pLongLetter: 0.404, pLongEnglish: 0.002, pRareEnd: 1.379, pRareEndWest: 0.443, pCapsLetter: 0.545, pCapsShort: 0.156, pRepeat: -0.246,
		pCaseFlip: 2.594, pDigitGroup: 0.578, pDigit: 0.195, pPunct: 0.764, pPunctMore: 0.004, pPunctWord: 0.796, pNewline: 1.399, pBlankLine: 0.001,
		pIndent: 0.007, pSpaces: 1.365, pSpaceMore: 1.673, pSpaceDigit: 0.01, pSpaceWide: 0.44, pCtrl: 1.805, pAccent: 1.677, pUmlaut: 1.676,
		pAccentDense: 1.63, pAccentExt: 2.057, pAccentCont: 0.301, pCombining: 0.42, pTurkish: 2.78, pVietnamese: 2.04, pGreek: 0.691, pCyrRussian: 0.001,
		pCyrDefault: 0.007, pCyrSouth: 0.001, pCyrTurkic: 0.287, pCyrKyrgyz: 0.212, pArmenian: 1.651, pGeorgian: 0.885, pHebrew: 0.181, pArabic: 0.238,
		pArabicFa: 0.36, pArabicUr: 0.314, pEthiopic: 2.422, pDevanagari: 0.578, pBengali: 1.441, pGurmukhi: 2.382, pGujarati: 2.508, pOriya: 1.3,
		pTamil: 1.672, pTelugu: 1.911, pKannada: 1.901, pMalayalam: 2.088, pSinhala: 1.183, pThai: 1.911, pLao: 3.245, pMyanmar: 1.094,
		pKhmer: 3.274, pHangul: 1.32, pHanSimple: 0.888, pHanTrad: 1.388, pKanji: 1.615, pKana: 0.794, pCJKPunct: 1.497, pAlphabet: 0.42,
		pScriptWord: 4, pVarSel: 4, pEmoji: 1.762, pUniSpace: 2.13, pUniPunct: 0.155, pSymbol: 0.948}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.899, pLongLetter: 0.439, pLongEnglish: 0.007, pRareEnd: 1.14, pRareEndWest: 0.185, pCapsLetter: 0.499, pCapsShort: 0.001, pRepeat: -0.288,
		pCaseFlip: 3.523, pDigitGroup: 1.132, pDigit: 0.001, pPunct: 0.764, pPunctMore: 0.143, pPunctWord: 0.002, pNewline: 1.415, pBlankLine: 0.001,
		pIndent: 0.241, pSpaces: 1.402, pSpaceMore: 1.664, pSpaceDigit: 0.85, pSpaceWide: 0.415, pCtrl: 0.585, pAccent: 1.476, pUmlaut: 0.797,
		pAccentDense: 1.197, pAccentExt: 1.056, pAccentCont: 0.501, pCombining: 0.42, pTurkish: 0.829, pVietnamese: 0.024, pGreek: 0.065, pCyrRussian: 0.002,
		pCyrDefault: 0.058, pCyrSouth: 0.135, pCyrTurkic: 0.327, pCyrKyrgyz: 0.179, pArmenian: 1.583, pGeorgian: 1.853, pHebrew: 0.71, pArabic: 0.007,
		pArabicFa: 0.001, pArabicUr: 0.209, pEthiopic: 2.58, pDevanagari: 0.174, pBengali: 1.062, pGurmukhi: 1.528, pGujarati: 1.601, pOriya: 1.3,
		pTamil: 1.272, pTelugu: 1.746, pKannada: 1.742, pMalayalam: 1.589, pSinhala: 1.803, pThai: 0.501, pLao: 2.076, pMyanmar: 2.09,
		pKhmer: 1.783, pHangul: 0.668, pHanSimple: 0.806, pHanTrad: 0.995, pKanji: 0.98, pKana: 0.606, pCJKPunct: 0.513, pAlphabet: 0.42,
		pScriptWord: 1.952, pVarSel: 4, pEmoji: 1.634, pUniSpace: 4, pUniPunct: 0.002, pSymbol: 0.679}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.896, pLongLetter: 0.424, pLongEnglish: 0.004, pRareEnd: 1.14, pRareEndWest: 0.091, pCapsLetter: 0.441, pCapsShort: 0.001, pRepeat: -0.279,
		pCaseFlip: 3.36, pDigitGroup: 0.382, pDigit: 0.908, pPunct: 0.784, pPunctMore: 0.077, pPunctWord: 0.001, pNewline: 1.722, pBlankLine: 0.001,
		pIndent: 0.035, pSpaces: 1.446, pSpaceMore: 1.269, pSpaceDigit: 0.617, pSpaceWide: 0.991, pCtrl: 0.37, pAccent: 1.759, pUmlaut: 0.902,
		pAccentDense: 1.377, pAccentExt: 1.284, pAccentCont: 0.195, pCombining: 0.42, pTurkish: 1.412, pVietnamese: 0.265, pGreek: 0.677, pCyrRussian: 0.027,
		pCyrDefault: 0.174, pCyrSouth: 0.175, pCyrTurkic: 0.355, pCyrKyrgyz: 0.257, pArmenian: 0.843, pGeorgian: 0.841, pHebrew: 0.003, pArabic: 0.001,
		pArabicFa: 0.252, pArabicUr: 0.234, pEthiopic: 1.142, pDevanagari: 0.726, pBengali: 0.898, pGurmukhi: 1.404, pGujarati: 1.371, pOriya: 1.3,
		pTamil: 0.986, pTelugu: 1.445, pKannada: 1.309, pMalayalam: 1.302, pSinhala: 1.372, pThai: 0.592, pLao: 1.354, pMyanmar: 1.575,
		pKhmer: 1.319, pHangul: 0.592, pHanSimple: 0.683, pHanTrad: 0.924, pKanji: 0.786, pKana: 0.599, pCJKPunct: 0.292, pAlphabet: 0.42,
		pScriptWord: 1.344, pVarSel: 2.919, pEmoji: 0.657, pUniSpace: 4, pUniPunct: 0.002, pSymbol: 0.373}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 1.032, pLongLetter: 0.311, pLongEnglish: 0.002, pRareEnd: 0.979, pRareEndWest: 0.172, pCapsLetter: 0.519, pCapsShort: 0.01, pRepeat: -0.092,
		pCaseFlip: 2.415, pDigitGroup: 1.097, pDigit: 0.001, pPunct: 0.845, pPunctMore: 0.109, pPunctWord: 0.315, pNewline: 1.465, pBlankLine: 0.001,
		pIndent: 0.016, pSpaces: 1.075, pSpaceMore: 1.899, pSpaceDigit: 0.818, pSpaceWide: 0.848, pCtrl: 1.339, pAccent: 1.183, pUmlaut: 1.151,
		pAccentDense: 0.92, pAccentExt: 1.007, pAccentCont: 0.541, pCombining: 0.42, pTurkish: 2.247, pVietnamese: 0.459, pGreek: 0.429, pCyrRussian: 0.219,
		pCyrDefault: 0.351, pCyrSouth: 0.372, pCyrTurkic: 0.488, pCyrKyrgyz: 0.392, pArmenian: 0.53, pGeorgian: 0.763, pHebrew: 0.416, pArabic: 0.298,
		pArabicFa: 0.335, pArabicUr: 0.414, pEthiopic: 2.285, pDevanagari: 0.597, pBengali: 0.406, pGurmukhi: 1.03, pGujarati: 0.887, pOriya: 1.3,
		pTamil: 0.588, pTelugu: 0.79, pKannada: 0.749, pMalayalam: 0.858, pSinhala: 1.039, pThai: 0.435, pLao: 1.836, pMyanmar: 0.918,
		pKhmer: 1.34, pHangul: 0.652, pHanSimple: 0.57, pHanTrad: 0.808, pKanji: 0.782, pKana: 0.574, pCJKPunct: 0.638, pAlphabet: 0.42,
		pScriptWord: 0.003, pVarSel: 4, pEmoji: 0.802, pUniSpace: 1.589, pUniPunct: 0.596, pSymbol: 0.595}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.923, pLongLetter: 0.228, pLongEnglish: 0.066, pRareEnd: 1.005, pRareEndWest: 0.115, pCapsLetter: 0.484, pCapsShort: 0.007, pRepeat: -0.079,
		pCaseFlip: 2.569, pDigitGroup: 0.268, pDigit: 0.827, pPunct: 0.789, pPunctMore: 0.005, pPunctWord: 0.935, pNewline: 1.985, pBlankLine: 0.918,
		pIndent: 0.606, pSpaces: 1.495, pSpaceMore: 0.001, pSpaceDigit: 1.327, pSpaceWide: 0.001, pCtrl: 0.229, pAccent: 1.304, pUmlaut: 0.793,
		pAccentDense: 1.09, pAccentExt: 1.052, pAccentCont: 0.024, pCombining: 0.42, pTurkish: 1.289, pVietnamese: 0.204, pGreek: 0.414, pCyrRussian: 0.243,
		pCyrDefault: 0.321, pCyrSouth: 0.4, pCyrTurkic: 0.43, pCyrKyrgyz: 0.312, pArmenian: 0.579, pGeorgian: 0.472, pHebrew: 0.563, pArabic: 0.381,
		pArabicFa: 0.348, pArabicUr: 0.371, pEthiopic: 0.78, pDevanagari: 0.33, pBengali: 0.302, pGurmukhi: 0.693, pGujarati: 0.462, pOriya: 1.3,
		pTamil: 0.338, pTelugu: 0.385, pKannada: 0.468, pMalayalam: 0.345, pSinhala: 0.558, pThai: 0.374, pLao: 0.561, pMyanmar: 0.455,
		pKhmer: 0.511, pHangul: 0.656, pHanSimple: 0.614, pHanTrad: 0.802, pKanji: 0.809, pKana: 0.31, pCJKPunct: 1.085, pAlphabet: 0.42,
		pScriptWord: 0.001, pVarSel: 0.779, pEmoji: 0.926, pUniSpace: 0.037, pUniPunct: 1.188, pSymbol: 0.533}}
)
