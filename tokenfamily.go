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

// raw is the family's fractional estimate of s.
func (f family) raw(s string) float64 {
	var c pieces
	countPieces(s, &c)
	return c.cost(f.prices)
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
	n := msgOverhead + f.tokens(m.Content) + f.tokens(m.Name)
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
	pWord: 1.158, pLongLetter: 0.154, pCapsLetter: 0.4, pCaseFlip: 2.176,
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
		pWord: 0.898, pLongLetter: 0.259, pOpenEnd: 0.835, pCapsLetter: 0.372, pCaseFlip: 2.343, pDigitGroup: 1.305, pDigit: 0.001, pPunct: 0.584,
		pPunctMore: 0.197, pPunctWord: 0.487, pNewline: 0.972, pBlankLine: 0.152, pIndent: 0.683, pSpaces: 1.704, pSpaceMore: 0.21, pSpaceDigit: 0.657,
		pCtrl: 0.025, pAccent: 1.148, pTurkish: 0.533, pVietnamese: 0.002, pGreek: 0.415, pCyrRussian: 0.301, pCyrDefault: 0.403, pCyrSouth: 0.45,
		pCyrTurkic: 0.41, pCyrKyrgyz: 0.37, pArmenian: 0.421, pGeorgian: 0.411, pHebrew: 0.481, pArabic: 0.388, pEthiopic: 0.42, pDevanagari: 0.461,
		pBengali: 0.462, pGurmukhi: 0.868, pGujarati: 0.485, pOriya: 1.3, pTamil: 0.657, pTelugu: 0.531, pKannada: 0.669, pMalayalam: 0.43,
		pSinhala: 0.69, pThai: 0.413, pLao: 0.94, pMyanmar: 0.617, pKhmer: 0.605, pHangul: 0.716, pHanSimple: 0.784, pHanTrad: 1.239,
		pKanji: 1.599, pKana: 0.463, pCJKPunct: 0.818, pAlphabet: 0.42, pVarSel: 0.256, pEmoji: 1.921, pUniSpace: 0.016, pUniPunct: 0.519,
		pSymbol: 4,
	}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.967, pLongLetter: 0.299, pOpenEnd: 1.381, pCapsLetter: 0.349, pCaseFlip: 2.414, pDigitGroup: 1.397, pDigit: 0.001, pPunct: 0.515,
		pPunctMore: 0.203, pPunctWord: 0.278, pNewline: 0.659, pBlankLine: 0.001, pIndent: 1.11, pSpaces: 1.603, pSpaceMore: 0.001, pSpaceDigit: 0.502,
		pCtrl: 0.001, pAccent: 2.006, pTurkish: 1.342, pVietnamese: 1.029, pGreek: 1.09, pCyrRussian: 0.508, pCyrDefault: 0.662, pCyrSouth: 0.711,
		pCyrTurkic: 0.917, pCyrKyrgyz: 0.697, pArmenian: 2.224, pGeorgian: 2.169, pHebrew: 1.273, pArabic: 0.9, pEthiopic: 0.42, pDevanagari: 1.261,
		pBengali: 1.476, pGurmukhi: 2.11, pGujarati: 2.071, pOriya: 1.3, pTamil: 1.654, pTelugu: 2.075, pKannada: 2.104, pMalayalam: 1.871,
		pSinhala: 2.264, pThai: 1.004, pLao: 0.94, pMyanmar: 2.169, pKhmer: 1.874, pHangul: 1.216, pHanSimple: 1.154, pHanTrad: 1.804,
		pKanji: 2.137, pKana: 0.733, pCJKPunct: 0.998, pAlphabet: 0.42, pVarSel: 0.003, pEmoji: 2.8, pUniSpace: 0.013, pUniPunct: 0.561,
		pSymbol: 4,
	}}

	claudeFamily = family{"claude", &prices{
		pWord: 1.08, pLongLetter: 0.262, pOpenEnd: 1.848, pCapsLetter: 0.46, pCaseFlip: 2.372, pDigitGroup: 0.736, pDigit: 0.146, pPunct: 0.855,
		pPunctMore: 0.001, pPunctWord: 1.168, pNewline: 0.806, pBlankLine: 0.098, pIndent: 0.137, pSpaces: 1.022, pSpaceMore: 0.49, pSpaceDigit: 0.005,
		pCtrl: 0.001, pAccent: 2.21, pTurkish: 1.717, pVietnamese: 1.967, pGreek: 1.388, pCyrRussian: 0.608, pCyrDefault: 0.714, pCyrSouth: 0.748,
		pCyrTurkic: 0.96, pCyrKyrgyz: 0.789, pArmenian: 2.275, pGeorgian: 1.414, pHebrew: 1.172, pArabic: 1.211, pEthiopic: 0.42, pDevanagari: 1.447,
		pBengali: 2.219, pGurmukhi: 3.347, pGujarati: 3.369, pOriya: 1.3, pTamil: 2.213, pTelugu: 2.522, pKannada: 2.549, pMalayalam: 2.598,
		pSinhala: 2.021, pThai: 1.916, pLao: 0.94, pMyanmar: 1.125, pKhmer: 3.291, pHangul: 1.462, pHanSimple: 1.048, pHanTrad: 1.727,
		pKanji: 1.344, pKana: 0.964, pCJKPunct: 0.508, pAlphabet: 0.42, pVarSel: 0.113, pEmoji: 2.931, pUniSpace: 0.002, pUniPunct: 0.747,
		pSymbol: 4,
	}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.913, pLongLetter: 0.325, pOpenEnd: 1.454, pCapsLetter: 0.36, pCaseFlip: 2.532, pDigitGroup: 1.374, pDigit: 0.001, pPunct: 0.534,
		pPunctMore: 0.208, pPunctWord: 0.304, pNewline: 0.76, pBlankLine: 0.166, pIndent: 1.009, pSpaces: 1.687, pSpaceMore: 0.001, pSpaceDigit: 0.537,
		pCtrl: 0.001, pAccent: 1.463, pTurkish: 0.001, pVietnamese: 0.001, pGreek: 0.445, pCyrRussian: 0.357, pCyrDefault: 0.429, pCyrSouth: 0.562,
		pCyrTurkic: 0.767, pCyrKyrgyz: 0.499, pArmenian: 1.924, pGeorgian: 2.165, pHebrew: 1.292, pArabic: 0.456, pEthiopic: 0.42, pDevanagari: 0.673,
		pBengali: 1.468, pGurmukhi: 2.103, pGujarati: 2.068, pOriya: 1.3, pTamil: 1.648, pTelugu: 2.066, pKannada: 2.091, pMalayalam: 1.805,
		pSinhala: 2.226, pThai: 0.504, pLao: 0.94, pMyanmar: 2.164, pKhmer: 1.727, pHangul: 0.769, pHanSimple: 0.873, pHanTrad: 1.247,
		pKanji: 1.589, pKana: 0.487, pCJKPunct: 0.239, pAlphabet: 0.42, pVarSel: 0.001, pEmoji: 2.791, pUniSpace: 0.001, pUniPunct: 1.437,
		pSymbol: 4,
	}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.899, pLongLetter: 0.353, pOpenEnd: 1.472, pCapsLetter: 0.26, pCaseFlip: 1.856, pDigitGroup: 1.132, pDigit: 0.733, pPunct: 0.429,
		pPunctMore: 0.27, pPunctWord: 0.253, pNewline: 0.611, pBlankLine: 0.096, pIndent: 1.359, pSpaces: 1.455, pSpaceMore: 0.001, pSpaceDigit: 0.274,
		pCtrl: 0.001, pAccent: 1.647, pTurkish: 0.77, pVietnamese: 0.001, pGreek: 1.093, pCyrRussian: 0.391, pCyrDefault: 0.551, pCyrSouth: 0.608,
		pCyrTurkic: 0.76, pCyrKyrgyz: 0.562, pArmenian: 1.183, pGeorgian: 1.143, pHebrew: 0.477, pArabic: 0.53, pEthiopic: 0.42, pDevanagari: 1.168,
		pBengali: 1.28, pGurmukhi: 1.951, pGujarati: 1.849, pOriya: 1.3, pTamil: 1.341, pTelugu: 1.766, pKannada: 1.686, pMalayalam: 1.511,
		pSinhala: 1.785, pThai: 0.625, pLao: 0.94, pMyanmar: 1.686, pKhmer: 1.2, pHangul: 0.88, pHanSimple: 0.785, pHanTrad: 1.146,
		pKanji: 1.308, pKana: 0.503, pCJKPunct: 0.917, pAlphabet: 0.42, pVarSel: 0.094, pEmoji: 1.92, pUniSpace: 0.001, pUniPunct: 1.825,
		pSymbol: 4,
	}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.953, pLongLetter: 0.324, pOpenEnd: 1.358, pCapsLetter: 0.408, pCaseFlip: 1.98, pDigitGroup: 1.387, pDigit: 0.001, pPunct: 0.521,
		pPunctMore: 0.276, pPunctWord: 0.66, pNewline: 0.489, pBlankLine: 0.08, pIndent: 1.13, pSpaces: 1.39, pSpaceMore: 0.228, pSpaceDigit: 0.404,
		pCtrl: 0.001, pAccent: 1.604, pTurkish: 1.824, pVietnamese: 0.62, pGreek: 0.568, pCyrRussian: 0.361, pCyrDefault: 0.505, pCyrSouth: 0.542,
		pCyrTurkic: 0.69, pCyrKyrgyz: 0.507, pArmenian: 0.696, pGeorgian: 0.844, pHebrew: 0.611, pArabic: 0.489, pEthiopic: 0.42, pDevanagari: 0.779,
		pBengali: 0.549, pGurmukhi: 1.295, pGujarati: 1.06, pOriya: 1.3, pTamil: 0.855, pTelugu: 0.916, pKannada: 1.019, pMalayalam: 0.967,
		pSinhala: 1.212, pThai: 0.418, pLao: 0.94, pMyanmar: 1.057, pKhmer: 1.419, pHangul: 0.932, pHanSimple: 0.701, pHanTrad: 1.068,
		pKanji: 1.077, pKana: 0.601, pCJKPunct: 0.504, pAlphabet: 0.42, pVarSel: 0.217, pEmoji: 2.186, pUniSpace: 0.001, pUniPunct: 0.555,
		pSymbol: 4,
	}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.836, pLongLetter: 0.296, pOpenEnd: 0.892, pCapsLetter: 0.295, pCaseFlip: 1.399, pDigitGroup: 1.229, pDigit: 0.541, pPunct: 0.555,
		pPunctMore: 0.183, pPunctWord: 1.26, pNewline: 1.245, pBlankLine: 0.937, pIndent: 1.137, pSpaces: 1.23, pSpaceMore: 0.001, pSpaceDigit: 0.771,
		pCtrl: 4, pAccent: 1.163, pTurkish: 0.516, pVietnamese: 0.001, pGreek: 0.423, pCyrRussian: 0.247, pCyrDefault: 0.347, pCyrSouth: 0.411,
		pCyrTurkic: 0.508, pCyrKyrgyz: 0.364, pArmenian: 0.632, pGeorgian: 0.466, pHebrew: 0.597, pArabic: 0.405, pEthiopic: 0.42, pDevanagari: 0.383,
		pBengali: 0.316, pGurmukhi: 0.896, pGujarati: 0.487, pOriya: 1.3, pTamil: 0.498, pTelugu: 0.47, pKannada: 0.64, pMalayalam: 0.382,
		pSinhala: 0.597, pThai: 0.328, pLao: 0.94, pMyanmar: 0.501, pKhmer: 0.614, pHangul: 0.647, pHanSimple: 0.618, pHanTrad: 0.804,
		pKanji: 0.962, pKana: 0.272, pCJKPunct: 1.674, pAlphabet: 0.42, pVarSel: 0.149, pEmoji: 1.322, pUniSpace: 0.002, pUniPunct: 0.342,
		pSymbol: 4,
	}}
)
