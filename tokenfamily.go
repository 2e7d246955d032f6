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
		pWord: 0.803, pLongLetter: 0.268, pRareEnd: 0.776, pCapsLetter: 0.564, pCapsShort: 0.001, pCaseFlip: 2.713, pDigitGroup: 1.233, pDigit: 0.001,
		pPunct: 0.668, pPunctMore: 0.214, pPunctWord: 0.297, pNewline: 1.044, pBlankLine: 0.127, pIndent: 0.761, pSpaces: 1.723, pSpaceMore: 0.02,
		pSpaceDigit: 0.769, pCtrl: 4, pAccent: 0.934, pTurkish: 0.38, pVietnamese: 0.023, pGreek: 0.414, pCyrRussian: 0.299, pCyrDefault: 0.396,
		pCyrSouth: 0.445, pCyrTurkic: 0.408, pCyrKyrgyz: 0.364, pArmenian: 0.414, pGeorgian: 0.407, pHebrew: 0.481, pArabic: 0.382, pEthiopic: 0.42,
		pDevanagari: 0.456, pBengali: 0.459, pGurmukhi: 0.859, pGujarati: 0.481, pOriya: 1.3, pTamil: 0.648, pTelugu: 0.525, pKannada: 0.659,
		pMalayalam: 0.415, pSinhala: 0.685, pThai: 0.413, pLao: 0.94, pMyanmar: 0.614, pKhmer: 0.541, pHangul: 0.711, pHanSimple: 0.792,
		pHanTrad: 1.244, pKanji: 1.773, pKana: 0.428, pCJKPunct: 0.757, pAlphabet: 0.42, pVarSel: 0.189, pEmoji: 1.943, pUniSpace: 0.024,
		pUniPunct: 0.887, pSymbol: 4,
	}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.864, pLongLetter: 0.318, pRareEnd: 1.183, pCapsLetter: 0.542, pCapsShort: 0.001, pCaseFlip: 2.64, pDigitGroup: 1.365, pDigit: 0.001,
		pPunct: 0.633, pPunctMore: 0.178, pPunctWord: 0.008, pNewline: 0.653, pBlankLine: 0.019, pIndent: 1.092, pSpaces: 1.437, pSpaceMore: 0.001,
		pSpaceDigit: 0.553, pCtrl: 0.029, pAccent: 1.688, pTurkish: 1.284, pVietnamese: 1.007, pGreek: 1.093, pCyrRussian: 0.509, pCyrDefault: 0.658,
		pCyrSouth: 0.713, pCyrTurkic: 0.918, pCyrKyrgyz: 0.696, pArmenian: 2.22, pGeorgian: 2.167, pHebrew: 1.28, pArabic: 0.898, pEthiopic: 0.42,
		pDevanagari: 1.245, pBengali: 1.475, pGurmukhi: 2.103, pGujarati: 2.07, pOriya: 1.3, pTamil: 1.648, pTelugu: 2.07, pKannada: 2.097,
		pMalayalam: 1.861, pSinhala: 2.264, pThai: 1.004, pLao: 0.94, pMyanmar: 2.167, pKhmer: 1.829, pHangul: 1.221, pHanSimple: 1.122,
		pHanTrad: 1.817, pKanji: 2.377, pKana: 0.681, pCJKPunct: 1.063, pAlphabet: 0.42, pVarSel: 0.003, pEmoji: 2.789, pUniSpace: 0.009,
		pUniPunct: 0.827, pSymbol: 4,
	}}

	claudeFamily = family{"claude", &prices{
		pWord: 0.99, pLongLetter: 0.263, pRareEnd: 1.534, pCapsLetter: 0.651, pCapsShort: 0.013, pCaseFlip: 2.569, pDigitGroup: 0.721, pDigit: 0.152,
		pPunct: 0.869, pPunctMore: 0.002, pPunctWord: 0.819, pNewline: 0.787, pBlankLine: 0.185, pIndent: 0.202, pSpaces: 1.135, pSpaceMore: 0.001,
		pSpaceDigit: 0.011, pCtrl: 0.001, pAccent: 1.842, pTurkish: 1.433, pVietnamese: 1.756, pGreek: 1.387, pCyrRussian: 0.609, pCyrDefault: 0.708,
		pCyrSouth: 0.75, pCyrTurkic: 0.965, pCyrKyrgyz: 0.79, pArmenian: 2.275, pGeorgian: 1.413, pHebrew: 1.172, pArabic: 1.212, pEthiopic: 0.42,
		pDevanagari: 1.432, pBengali: 2.22, pGurmukhi: 3.347, pGujarati: 3.369, pOriya: 1.3, pTamil: 2.213, pTelugu: 2.518, pKannada: 2.547,
		pMalayalam: 2.588, pSinhala: 2.027, pThai: 1.919, pLao: 0.94, pMyanmar: 1.124, pKhmer: 3.248, pHangul: 1.464, pHanSimple: 0.982,
		pHanTrad: 1.727, pKanji: 1.461, pKana: 0.924, pCJKPunct: 0.689, pAlphabet: 0.42, pVarSel: 0.189, pEmoji: 2.876, pUniSpace: 0.003,
		pUniPunct: 1.02, pSymbol: 4,
	}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.809, pLongLetter: 0.341, pRareEnd: 1.221, pCapsLetter: 0.555, pCapsShort: 0.001, pCaseFlip: 2.779, pDigitGroup: 1.344, pDigit: 0.001,
		pPunct: 0.657, pPunctMore: 0.199, pPunctWord: 0.022, pNewline: 0.762, pBlankLine: 0.163, pIndent: 0.957, pSpaces: 1.494, pSpaceMore: 0.001,
		pSpaceDigit: 0.579, pCtrl: 4, pAccent: 1.202, pTurkish: 0.001, pVietnamese: 0.001, pGreek: 0.442, pCyrRussian: 0.358, pCyrDefault: 0.428,
		pCyrSouth: 0.563, pCyrTurkic: 0.768, pCyrKyrgyz: 0.497, pArmenian: 1.919, pGeorgian: 2.162, pHebrew: 1.302, pArabic: 0.455, pEthiopic: 0.42,
		pDevanagari: 0.662, pBengali: 1.469, pGurmukhi: 2.095, pGujarati: 2.066, pOriya: 1.3, pTamil: 1.641, pTelugu: 2.062, pKannada: 2.083,
		pMalayalam: 1.797, pSinhala: 2.227, pThai: 0.504, pLao: 0.94, pMyanmar: 2.162, pKhmer: 1.693, pHangul: 0.763, pHanSimple: 0.885,
		pHanTrad: 1.264, pKanji: 1.665, pKana: 0.487, pCJKPunct: 0.096, pAlphabet: 0.42, pVarSel: 0.001, pEmoji: 2.785, pUniSpace: 0.001,
		pUniPunct: 1.636, pSymbol: 4,
	}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.797, pLongLetter: 0.356, pRareEnd: 1.267, pCapsLetter: 0.512, pCapsShort: 0.001, pCaseFlip: 2.491, pDigitGroup: 0.498, pDigit: 1.027,
		pPunct: 0.537, pPunctMore: 0.251, pPunctWord: 0.005, pNewline: 0.57, pBlankLine: 0.178, pIndent: 1.435, pSpaces: 1.377, pSpaceMore: 0.001,
		pSpaceDigit: 0.342, pCtrl: 4, pAccent: 1.367, pTurkish: 0.534, pVietnamese: 0.001, pGreek: 1.089, pCyrRussian: 0.389, pCyrDefault: 0.545,
		pCyrSouth: 0.613, pCyrTurkic: 0.762, pCyrKyrgyz: 0.564, pArmenian: 1.199, pGeorgian: 1.142, pHebrew: 0.473, pArabic: 0.529, pEthiopic: 0.42,
		pDevanagari: 1.153, pBengali: 1.28, pGurmukhi: 1.945, pGujarati: 1.848, pOriya: 1.3, pTamil: 1.337, pTelugu: 1.763, pKannada: 1.681,
		pMalayalam: 1.506, pSinhala: 1.786, pThai: 0.625, pLao: 0.94, pMyanmar: 1.685, pKhmer: 1.168, pHangul: 0.875, pHanSimple: 0.79,
		pHanTrad: 1.162, pKanji: 1.348, pKana: 0.498, pCJKPunct: 0.822, pAlphabet: 0.42, pVarSel: 0.092, pEmoji: 1.917, pUniSpace: 0.001,
		pUniPunct: 1.989, pSymbol: 0.039,
	}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.895, pLongLetter: 0.325, pRareEnd: 1.074, pCapsLetter: 0.555, pCapsShort: 0.003, pCaseFlip: 2.137, pDigitGroup: 1.346, pDigit: 0.001,
		pPunct: 0.589, pPunctMore: 0.227, pPunctWord: 0.406, pNewline: 0.554, pBlankLine: 0.065, pIndent: 1.159, pSpaces: 1.277, pSpaceMore: 0.001,
		pSpaceDigit: 0.506, pCtrl: 0.027, pAccent: 1.353, pTurkish: 1.649, pVietnamese: 0.536, pGreek: 0.565, pCyrRussian: 0.36, pCyrDefault: 0.503,
		pCyrSouth: 0.542, pCyrTurkic: 0.689, pCyrKyrgyz: 0.502, pArmenian: 0.692, pGeorgian: 0.84, pHebrew: 0.608, pArabic: 0.487, pEthiopic: 0.42,
		pDevanagari: 0.766, pBengali: 0.547, pGurmukhi: 1.287, pGujarati: 1.056, pOriya: 1.3, pTamil: 0.848, pTelugu: 0.911, pKannada: 1.012,
		pMalayalam: 0.959, pSinhala: 1.213, pThai: 0.418, pLao: 0.94, pMyanmar: 1.053, pKhmer: 1.392, pHangul: 0.924, pHanSimple: 0.704,
		pHanTrad: 1.077, pKanji: 1.105, pKana: 0.593, pCJKPunct: 0.445, pAlphabet: 0.42, pVarSel: 1.032, pEmoji: 1.983, pUniSpace: 0.001,
		pUniPunct: 0.712, pSymbol: 4,
	}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.761, pLongLetter: 0.288, pRareEnd: 0.876, pCapsLetter: 0.449, pCapsShort: 0.001, pCaseFlip: 1.866, pDigitGroup: 1.004, pDigit: 0.59,
		pPunct: 0.55, pPunctMore: 0.249, pPunctWord: 1.053, pNewline: 1.474, pBlankLine: 0.93, pIndent: 1.218, pSpaces: 1.213, pSpaceMore: 0.001,
		pSpaceDigit: 0.976, pCtrl: 4, pAccent: 0.811, pTurkish: 0.42, pVietnamese: 0.001, pGreek: 0.419, pCyrRussian: 0.24, pCyrDefault: 0.33,
		pCyrSouth: 0.402, pCyrTurkic: 0.499, pCyrKyrgyz: 0.348, pArmenian: 0.623, pGeorgian: 0.457, pHebrew: 0.597, pArabic: 0.398, pEthiopic: 0.42,
		pDevanagari: 0.378, pBengali: 0.309, pGurmukhi: 0.884, pGujarati: 0.48, pOriya: 1.3, pTamil: 0.487, pTelugu: 0.46, pKannada: 0.626,
		pMalayalam: 0.364, pSinhala: 0.588, pThai: 0.326, pLao: 0.94, pMyanmar: 0.492, pKhmer: 0.547, pHangul: 0.647, pHanSimple: 0.578,
		pHanTrad: 0.778, pKanji: 0.962, pKana: 0.254, pCJKPunct: 1.85, pAlphabet: 0.42, pVarSel: 0.137, pEmoji: 1.288, pUniSpace: 0.002,
		pUniPunct: 0.706, pSymbol: 4,
	}}
)
