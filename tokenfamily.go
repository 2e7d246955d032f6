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
		pWord: 0.722, pLongLetter: 0.308, pRareEnd: 0.706, pCapsLetter: 0.544, pCapsShort: 0.003, pRepeat: -0.206, pCaseFlip: 4, pDigitGroup: 1.122,
		pDigit: 0.001, pPunct: 0.755, pPunctMore: 0.125, pPunctWord: 0.441, pNewline: 1.438, pBlankLine: 0.109, pIndent: 0.592, pSpaces: 1.482,
		pSpaceMore: 1.986, pSpaceDigit: 0.983, pSpaceWide: 0.134, pCtrl: 4, pAccent: 0.767, pTurkish: 0.532, pVietnamese: 0.16, pGreek: 0.395,
		pCyrRussian: 0.262, pCyrDefault: 0.364, pCyrSouth: 0.4, pCyrTurkic: 0.344, pCyrKyrgyz: 0.33, pArmenian: 0.366, pGeorgian: 0.405, pHebrew: 0.45,
		pArabic: 0.378, pEthiopic: 0.42, pDevanagari: 0.424, pBengali: 0.454, pGurmukhi: 0.689, pGujarati: 0.451, pOriya: 1.3, pTamil: 0.472,
		pTelugu: 0.521, pKannada: 0.504, pMalayalam: 0.401, pSinhala: 0.655, pThai: 0.461, pLao: 0.94, pMyanmar: 0.566, pKhmer: 0.583,
		pHangul: 0.709, pHanSimple: 0.75, pHanTrad: 1.147, pKanji: 0.998, pKana: 0.606, pCJKPunct: 1.322, pAlphabet: 0.001, pVarSel: 0.036,
		pEmoji: 1.917, pUniSpace: 0.036, pUniPunct: 1.002, pSymbol: 4,
	}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.878, pLongLetter: 0.366, pRareEnd: 1.063, pCapsLetter: 0.452, pCapsShort: 0.002, pRepeat: -0.202, pCaseFlip: 3.348, pDigitGroup: 1.412,
		pDigit: 0.003, pPunct: 0.538, pPunctMore: 0.149, pPunctWord: 0.028, pNewline: 0.83, pBlankLine: 0.001, pIndent: 1.101, pSpaces: 1.07,
		pSpaceMore: 1.705, pSpaceDigit: 0.508, pSpaceWide: 0.403, pCtrl: 0.013, pAccent: 1.425, pTurkish: 1.135, pVietnamese: 0.817, pGreek: 1.034,
		pCyrRussian: 0.448, pCyrDefault: 0.608, pCyrSouth: 0.685, pCyrTurkic: 0.805, pCyrKyrgyz: 0.664, pArmenian: 2.133, pGeorgian: 2.142, pHebrew: 1.18,
		pArabic: 0.832, pEthiopic: 0.42, pDevanagari: 1.192, pBengali: 1.424, pGurmukhi: 2.02, pGujarati: 2.01, pOriya: 1.3, pTamil: 1.556,
		pTelugu: 2.035, pKannada: 2.042, pMalayalam: 1.819, pSinhala: 2.175, pThai: 1.019, pLao: 0.94, pMyanmar: 2.104, pKhmer: 1.717,
		pHangul: 1.14, pHanSimple: 1.132, pHanTrad: 1.613, pKanji: 1.7, pKana: 0.888, pCJKPunct: 0.641, pAlphabet: 0.001, pVarSel: 0.008,
		pEmoji: 2.565, pUniSpace: 0.234, pUniPunct: 0.842, pSymbol: 4,
	}}

	claudeFamily = family{"claude", &prices{
		pWord: 0.923, pLongLetter: 0.357, pRareEnd: 1.571, pCapsLetter: 0.579, pCapsShort: 0.208, pRepeat: -0.295, pCaseFlip: 4, pDigitGroup: 0.703,
		pDigit: 0.154, pPunct: 0.726, pPunctMore: 0.004, pPunctWord: 0.917, pNewline: 0.843, pBlankLine: 0.413, pIndent: 0.298, pSpaces: 1.427,
		pSpaceMore: 1.382, pSpaceDigit: 0.01, pSpaceWide: 0.65, pCtrl: 0.02, pAccent: 1.23, pTurkish: 1.458, pVietnamese: 1.719, pGreek: 1.319,
		pCyrRussian: 0.521, pCyrDefault: 0.623, pCyrSouth: 0.68, pCyrTurkic: 0.842, pCyrKyrgyz: 0.752, pArmenian: 2.175, pGeorgian: 1.42, pHebrew: 1.044,
		pArabic: 1.098, pEthiopic: 0.42, pDevanagari: 1.353, pBengali: 2.12, pGurmukhi: 3.276, pGujarati: 3.267, pOriya: 1.3, pTamil: 2.177,
		pTelugu: 2.451, pKannada: 2.451, pMalayalam: 2.527, pSinhala: 1.85, pThai: 1.936, pLao: 0.94, pMyanmar: 1.104, pKhmer: 3.233,
		pHangul: 1.274, pHanSimple: 0.964, pHanTrad: 1.455, pKanji: 1.426, pKana: 0.908, pCJKPunct: 0.725, pAlphabet: 0.001, pVarSel: 0.011,
		pEmoji: 2.648, pUniSpace: 0.022, pUniPunct: 0.885, pSymbol: 3.373,
	}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.803, pLongLetter: 0.414, pRareEnd: 1.059, pCapsLetter: 0.483, pCapsShort: 0.002, pRepeat: -0.264, pCaseFlip: 3.666, pDigitGroup: 1.353,
		pDigit: 0.015, pPunct: 0.512, pPunctMore: 0.189, pPunctWord: 0.079, pNewline: 0.868, pBlankLine: 0.127, pIndent: 1.16, pSpaces: 1.211,
		pSpaceMore: 1.699, pSpaceDigit: 0.544, pSpaceWide: 0.393, pCtrl: 0.015, pAccent: 1.048, pTurkish: 0.004, pVietnamese: 0.003, pGreek: 0.396,
		pCyrRussian: 0.305, pCyrDefault: 0.38, pCyrSouth: 0.504, pCyrTurkic: 0.6, pCyrKyrgyz: 0.47, pArmenian: 1.84, pGeorgian: 2.141, pHebrew: 1.185,
		pArabic: 0.402, pEthiopic: 0.42, pDevanagari: 0.605, pBengali: 1.423, pGurmukhi: 2.014, pGujarati: 2.011, pOriya: 1.3, pTamil: 1.556,
		pTelugu: 2.032, pKannada: 2.04, pMalayalam: 1.761, pSinhala: 2.14, pThai: 0.522, pLao: 0.94, pMyanmar: 2.103, pKhmer: 1.643,
		pHangul: 0.689, pHanSimple: 0.891, pHanTrad: 1.098, pKanji: 1.144, pKana: 0.617, pCJKPunct: 0.088, pAlphabet: 0.001, pVarSel: 0.001,
		pEmoji: 2.592, pUniSpace: 0.006, pUniPunct: 1.433, pSymbol: 4,
	}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.812, pLongLetter: 0.38, pRareEnd: 1.085, pCapsLetter: 0.479, pCapsShort: 0.003, pRepeat: -0.236, pCaseFlip: 3.638, pDigitGroup: 0.167,
		pDigit: 1.154, pPunct: 0.454, pPunctMore: 0.24, pPunctWord: 0.034, pNewline: 1.19, pBlankLine: 0.007, pIndent: 1.016, pSpaces: 1.251,
		pSpaceMore: 1.587, pSpaceDigit: 0.332, pSpaceWide: 0.834, pCtrl: 0.016, pAccent: 1.114, pTurkish: 0.42, pVietnamese: 0.001, pGreek: 0.927,
		pCyrRussian: 0.27, pCyrDefault: 0.462, pCyrSouth: 0.493, pCyrTurkic: 0.576, pCyrKyrgyz: 0.477, pArmenian: 1.049, pGeorgian: 1.067, pHebrew: 0.325,
		pArabic: 0.408, pEthiopic: 0.42, pDevanagari: 1.013, pBengali: 1.186, pGurmukhi: 1.781, pGujarati: 1.681, pOriya: 1.3, pTamil: 1.202,
		pTelugu: 1.679, pKannada: 1.531, pMalayalam: 1.44, pSinhala: 1.619, pThai: 0.62, pLao: 0.94, pMyanmar: 1.603, pKhmer: 1.207,
		pHangul: 0.687, pHanSimple: 0.645, pHanTrad: 0.948, pKanji: 1.261, pKana: 0.445, pCJKPunct: 1.821, pAlphabet: 0.001, pVarSel: 0.047,
		pEmoji: 1.452, pUniSpace: 0.413, pUniPunct: 1.279, pSymbol: 4,
	}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.92, pLongLetter: 0.332, pRareEnd: 0.906, pCapsLetter: 0.595, pCapsShort: 0.008, pRepeat: -0.112, pCaseFlip: 2.842, pDigitGroup: 1.209,
		pDigit: 0.02, pPunct: 0.618, pPunctMore: 0.125, pPunctWord: 0.494, pNewline: 0.938, pBlankLine: 0.016, pIndent: 0.855, pSpaces: 0.943,
		pSpaceMore: 1.921, pSpaceDigit: 0.718, pSpaceWide: 0.825, pCtrl: 0.016, pAccent: 1.253, pTurkish: 1.608, pVietnamese: 0.434, pGreek: 0.453,
		pCyrRussian: 0.248, pCyrDefault: 0.4, pCyrSouth: 0.413, pCyrTurkic: 0.508, pCyrKyrgyz: 0.431, pArmenian: 0.554, pGeorgian: 0.791, pHebrew: 0.455,
		pArabic: 0.374, pEthiopic: 0.42, pDevanagari: 0.636, pBengali: 0.489, pGurmukhi: 1.085, pGujarati: 0.912, pOriya: 1.3, pTamil: 0.63,
		pTelugu: 0.835, pKannada: 0.794, pMalayalam: 0.916, pSinhala: 1.091, pThai: 0.462, pLao: 0.94, pMyanmar: 0.924, pKhmer: 1.406,
		pHangul: 0.721, pHanSimple: 0.66, pHanTrad: 0.869, pKanji: 0.692, pKana: 0.683, pCJKPunct: 0.151, pAlphabet: 0.001, pVarSel: 3.74,
		pEmoji: 1.036, pUniSpace: 0.004, pUniPunct: 0.28, pSymbol: 4,
	}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.764, pLongLetter: 0.254, pRareEnd: 0.76, pCapsLetter: 0.525, pCapsShort: 0.004, pRepeat: -0.153, pCaseFlip: 3.358, pDigitGroup: 0.336,
		pDigit: 0.823, pPunct: 0.905, pPunctMore: 0.052, pPunctWord: 1.048, pNewline: 2.152, pBlankLine: 0.848, pIndent: 0.152, pSpaces: 1.539,
		pSpaceMore: 0.322, pSpaceDigit: 1.096, pSpaceWide: 0.211, pCtrl: 0.011, pAccent: 0.484, pTurkish: 0.323, pVietnamese: 0.003, pGreek: 0.379,
		pCyrRussian: 0.218, pCyrDefault: 0.302, pCyrSouth: 0.373, pCyrTurkic: 0.37, pCyrKyrgyz: 0.288, pArmenian: 0.525, pGeorgian: 0.442, pHebrew: 0.513,
		pArabic: 0.346, pEthiopic: 0.42, pDevanagari: 0.296, pBengali: 0.297, pGurmukhi: 0.672, pGujarati: 0.419, pOriya: 1.3, pTamil: 0.313,
		pTelugu: 0.43, pKannada: 0.445, pMalayalam: 0.368, pSinhala: 0.56, pThai: 0.364, pLao: 0.94, pMyanmar: 0.428, pKhmer: 0.618,
		pHangul: 0.606, pHanSimple: 0.495, pHanTrad: 0.638, pKanji: 0.546, pKana: 0.324, pCJKPunct: 2.406, pAlphabet: 0.001, pVarSel: 0.113,
		pEmoji: 1.101, pUniSpace: 0.621, pUniPunct: 0.218, pSymbol: 4,
	}}
)
