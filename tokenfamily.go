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
// deliberate: an estimate that is too low ends in a rejection.
var genericFamily = family{"generic", &prices{
	pWord: 1.158, pLongLetter: 0.154, pCapsLetter: 0.4, pCapsShort: 0.4, pCaseFlip: 2.176,
	pDigitGroup: 1.255, pPunct: 0.975, pPunctMore: 0.547, pPunctWord: 0.5,
	pNewline: 1.895, pSpaces: 1.498, pSpaceDigit: 0.8, pCtrl: 1.0,
	pAccent: 0.35, pTurkish: 0.8, pVietnamese: 0.35, pGreek: 0.92,
	pCyrRussian: 0.40, pCyrDefault: 0.525, pCyrSouth: 0.63, pCyrTurkic: 0.75, pCyrKyrgyz: 0.54,
	pArmenian: 0.42, pGeorgian: 0.42, pHebrew: 0.6, pArabic: 0.68, pEthiopic: 0.42,
	pDevanagari: 1.1, pBengali: 1.3, pGurmukhi: 1.3, pGujarati: 1.3, pOriya: 1.3, pTamil: 1.3,
	pTelugu: 1.3, pKannada: 1.3, pMalayalam: 1.3, pSinhala: 1.3,
	pThai: 0.94, pLao: 0.94, pMyanmar: 1.3, pKhmer: 1.3, pHangul: 1.15,
	pHanSimple: 1.0, pHanTrad: 1.40, pKanji: 1.26, pKana: 0.87, pCJKPunct: 1.0,
	pAlphabet: 0.42, pVarSel: 0.42, pEmoji: 2.2, pUniSpace: 0.5, pUniPunct: 1.0, pSymbol: 1.0,
}}

// The fitted families: prices written by TestFitPrices (go test -run
// TestFitPrices -fit FILE) from the samples named in testdata/tokens_fit.md.
var (
	o200kFamily = family{"o200k", &prices{
		pWord: 0.743, pLongLetter: 0.287, pRareEnd: 0.684, pCapsLetter: 0.541, pCapsShort: 0.002, pRepeat: -0.193, pCaseFlip: 4, pDigitGroup: 1.097,
		pDigit: 0.001, pPunct: 0.82, pPunctMore: 0.093, pPunctWord: 0.424, pNewline: 1.482, pBlankLine: 0.022, pIndent: 0.478, pSpaces: 1.473,
		pSpaceMore: 2.012, pSpaceDigit: 1.023, pSpaceWide: 0.238, pCtrl: 1, pAccent: 0.765, pTurkish: 0.501, pVietnamese: 0.082, pGreek: 0.39,
		pCyrRussian: 0.242, pCyrDefault: 0.345, pCyrSouth: 0.381, pCyrTurkic: 0.33, pCyrKyrgyz: 0.32, pArmenian: 0.357, pGeorgian: 0.393, pHebrew: 0.425,
		pArabic: 0.353, pEthiopic: 0.42, pDevanagari: 0.402, pBengali: 0.438, pGurmukhi: 0.665, pGujarati: 0.43, pOriya: 1.3, pTamil: 0.46,
		pTelugu: 0.504, pKannada: 0.484, pMalayalam: 0.365, pSinhala: 0.624, pThai: 0.458, pLao: 0.94, pMyanmar: 0.559, pKhmer: 0.499,
		pHangul: 0.676, pHanSimple: 0.749, pHanTrad: 1.085, pKanji: 0.913, pKana: 0.633, pCJKPunct: 1.1, pAlphabet: 0.42, pVarSel: 4,
		pEmoji: 0.993, pUniSpace: 0.012, pUniPunct: 1.701, pSymbol: 0.93,
	}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.88, pLongLetter: 0.357, pRareEnd: 1.065, pCapsLetter: 0.456, pCapsShort: 0.002, pRepeat: -0.201, pCaseFlip: 3.402, pDigitGroup: 1.393,
		pDigit: 0.002, pPunct: 0.567, pPunctMore: 0.135, pPunctWord: 0.024, pNewline: 0.864, pBlankLine: 0.001, pIndent: 1.055, pSpaces: 1.068,
		pSpaceMore: 1.719, pSpaceDigit: 0.544, pSpaceWide: 0.737, pCtrl: 1, pAccent: 1.398, pTurkish: 1.105, pVietnamese: 0.772, pGreek: 0.997,
		pCyrRussian: 0.406, pCyrDefault: 0.591, pCyrSouth: 0.641, pCyrTurkic: 0.766, pCyrKyrgyz: 0.642, pArmenian: 2.107, pGeorgian: 2.111, pHebrew: 1.116,
		pArabic: 0.777, pEthiopic: 0.42, pDevanagari: 1.136, pBengali: 1.383, pGurmukhi: 1.958, pGujarati: 1.953, pOriya: 1.3, pTamil: 1.522,
		pTelugu: 1.998, pKannada: 2.007, pMalayalam: 1.792, pSinhala: 2.132, pThai: 1.01, pLao: 0.94, pMyanmar: 2.087, pKhmer: 1.722,
		pHangul: 1.049, pHanSimple: 1.099, pHanTrad: 1.564, pKanji: 1.632, pKana: 0.885, pCJKPunct: 0.736, pAlphabet: 0.42, pVarSel: 4,
		pEmoji: 1.622, pUniSpace: 0.201, pUniPunct: 0.752, pSymbol: 0.72,
	}}

	claudeFamily = family{"claude", &prices{
		pWord: 0.925, pLongLetter: 0.356, pRareEnd: 1.567, pCapsLetter: 0.58, pCapsShort: 0.204, pRepeat: -0.294, pCaseFlip: 4, pDigitGroup: 0.697,
		pDigit: 0.155, pPunct: 0.727, pPunctMore: 0.004, pPunctWord: 0.918, pNewline: 0.851, pBlankLine: 0.414, pIndent: 0.293, pSpaces: 1.434,
		pSpaceMore: 1.374, pSpaceDigit: 0.01, pSpaceWide: 0.71, pCtrl: 1, pAccent: 1.22, pTurkish: 1.453, pVietnamese: 1.707, pGreek: 1.317,
		pCyrRussian: 0.513, pCyrDefault: 0.616, pCyrSouth: 0.672, pCyrTurkic: 0.835, pCyrKyrgyz: 0.748, pArmenian: 2.173, pGeorgian: 1.415, pHebrew: 1.033,
		pArabic: 1.087, pEthiopic: 0.42, pDevanagari: 1.343, pBengali: 2.113, pGurmukhi: 3.265, pGujarati: 3.256, pOriya: 1.3, pTamil: 2.171,
		pTelugu: 2.445, pKannada: 2.445, pMalayalam: 2.519, pSinhala: 1.841, pThai: 1.935, pLao: 0.94, pMyanmar: 1.101, pKhmer: 3.223,
		pHangul: 1.258, pHanSimple: 0.956, pHanTrad: 1.445, pKanji: 1.42, pKana: 0.906, pCJKPunct: 0.757, pAlphabet: 0.42, pVarSel: 4,
		pEmoji: 1.838, pUniSpace: 0.021, pUniPunct: 0.953, pSymbol: 0.907,
	}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.789, pLongLetter: 0.412, pRareEnd: 1.052, pCapsLetter: 0.489, pCapsShort: 0.002, pRepeat: -0.275, pCaseFlip: 3.77, pDigitGroup: 1.356,
		pDigit: 0.002, pPunct: 0.578, pPunctMore: 0.163, pPunctWord: 0.091, pNewline: 0.907, pBlankLine: 0.021, pIndent: 1.099, pSpaces: 1.171,
		pSpaceMore: 1.769, pSpaceDigit: 0.595, pSpaceWide: 0.787, pCtrl: 1, pAccent: 1.043, pTurkish: 0.004, pVietnamese: 0.002, pGreek: 0.347,
		pCyrRussian: 0.256, pCyrDefault: 0.351, pCyrSouth: 0.454, pCyrTurkic: 0.562, pCyrKyrgyz: 0.445, pArmenian: 1.807, pGeorgian: 2.105, pHebrew: 1.109,
		pArabic: 0.343, pEthiopic: 0.42, pDevanagari: 0.542, pBengali: 1.375, pGurmukhi: 1.94, pGujarati: 1.943, pOriya: 1.3, pTamil: 1.517,
		pTelugu: 1.989, pKannada: 1.998, pMalayalam: 1.728, pSinhala: 2.088, pThai: 0.512, pLao: 0.94, pMyanmar: 2.083, pKhmer: 1.641,
		pHangul: 0.57, pHanSimple: 0.863, pHanTrad: 1.055, pKanji: 1.056, pKana: 0.625, pCJKPunct: 0.111, pAlphabet: 0.42, pVarSel: 4,
		pEmoji: 1.564, pUniSpace: 0.006, pUniPunct: 1.391, pSymbol: 0.746,
	}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.812, pLongLetter: 0.377, pRareEnd: 1.086, pCapsLetter: 0.477, pCapsShort: 0.003, pRepeat: -0.234, pCaseFlip: 3.635, pDigitGroup: 0.185,
		pDigit: 1.143, pPunct: 0.467, pPunctMore: 0.234, pPunctWord: 0.032, pNewline: 1.204, pBlankLine: 0.007, pIndent: 1.002, pSpaces: 1.246,
		pSpaceMore: 1.597, pSpaceDigit: 0.341, pSpaceWide: 0.841, pCtrl: 1, pAccent: 1.118, pTurkish: 0.416, pVietnamese: 0.001, pGreek: 0.933,
		pCyrRussian: 0.269, pCyrDefault: 0.46, pCyrSouth: 0.491, pCyrTurkic: 0.575, pCyrKyrgyz: 0.476, pArmenian: 1.053, pGeorgian: 1.066, pHebrew: 0.323,
		pArabic: 0.406, pEthiopic: 0.42, pDevanagari: 1.012, pBengali: 1.185, pGurmukhi: 1.779, pGujarati: 1.679, pOriya: 1.3, pTamil: 1.202,
		pTelugu: 1.678, pKannada: 1.53, pMalayalam: 1.44, pSinhala: 1.617, pThai: 0.62, pLao: 0.94, pMyanmar: 1.603, pKhmer: 1.207,
		pHangul: 0.685, pHanSimple: 0.646, pHanTrad: 0.947, pKanji: 1.247, pKana: 0.448, pCJKPunct: 1.811, pAlphabet: 0.42, pVarSel: 4,
		pEmoji: 0.694, pUniSpace: 0.378, pUniPunct: 1.289, pSymbol: 0.538,
	}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.921, pLongLetter: 0.33, pRareEnd: 0.902, pCapsLetter: 0.594, pCapsShort: 0.008, pRepeat: -0.111, pCaseFlip: 2.843, pDigitGroup: 1.211,
		pDigit: 0.016, pPunct: 0.62, pPunctMore: 0.127, pPunctWord: 0.494, pNewline: 0.945, pBlankLine: 0.025, pIndent: 0.847, pSpaces: 0.954,
		pSpaceMore: 1.91, pSpaceDigit: 0.709, pSpaceWide: 0.827, pCtrl: 1, pAccent: 1.252, pTurkish: 1.601, pVietnamese: 0.43, pGreek: 0.453,
		pCyrRussian: 0.247, pCyrDefault: 0.403, pCyrSouth: 0.412, pCyrTurkic: 0.508, pCyrKyrgyz: 0.43, pArmenian: 0.558, pGeorgian: 0.791, pHebrew: 0.454,
		pArabic: 0.373, pEthiopic: 0.42, pDevanagari: 0.635, pBengali: 0.488, pGurmukhi: 1.082, pGujarati: 0.911, pOriya: 1.3, pTamil: 0.629,
		pTelugu: 0.834, pKannada: 0.793, pMalayalam: 0.915, pSinhala: 1.089, pThai: 0.462, pLao: 0.94, pMyanmar: 0.924, pKhmer: 1.4,
		pHangul: 0.719, pHanSimple: 0.659, pHanTrad: 0.866, pKanji: 0.687, pKana: 0.683, pCJKPunct: 0.16, pAlphabet: 0.42, pVarSel: 4,
		pEmoji: 0.962, pUniSpace: 0.003, pUniPunct: 0.321, pSymbol: 0.675,
	}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.759, pLongLetter: 0.253, pRareEnd: 0.757, pCapsLetter: 0.492, pCapsShort: 0.004, pRepeat: -0.153, pCaseFlip: 3.349, pDigitGroup: 0.413,
		pDigit: 0.782, pPunct: 0.973, pPunctMore: 0.03, pPunctWord: 1.016, pNewline: 2.16, pBlankLine: 0.874, pIndent: 0.087, pSpaces: 1.437,
		pSpaceMore: 0.583, pSpaceDigit: 1.134, pSpaceWide: 0.268, pCtrl: 1, pAccent: 0.462, pTurkish: 0.375, pVietnamese: 0.003, pGreek: 0.374,
		pCyrRussian: 0.208, pCyrDefault: 0.29, pCyrSouth: 0.365, pCyrTurkic: 0.365, pCyrKyrgyz: 0.284, pArmenian: 0.523, pGeorgian: 0.435, pHebrew: 0.498,
		pArabic: 0.333, pEthiopic: 0.42, pDevanagari: 0.286, pBengali: 0.287, pGurmukhi: 0.659, pGujarati: 0.408, pOriya: 1.3, pTamil: 0.306,
		pTelugu: 0.422, pKannada: 0.434, pMalayalam: 0.352, pSinhala: 0.547, pThai: 0.362, pLao: 0.94, pMyanmar: 0.425, pKhmer: 0.59,
		pHangul: 0.59, pHanSimple: 0.49, pHanTrad: 0.597, pKanji: 0.516, pKana: 0.329, pCJKPunct: 2.434, pAlphabet: 0.42, pVarSel: 0.155,
		pEmoji: 1.066, pUniSpace: 0.307, pUniPunct: 0.451, pSymbol: 0.555,
	}}
)
