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
// are unchanged (see testdata/tokens_fit.md on why it was not refitted).
var genericFamily = family{"generic", &prices{
	pWord: 1.158, pLongLetter: 0.154, pCapsLetter: 0.4, pCapsShort: 0.4, pCaseFlip: 2.176,
	pDigitGroup: 1.255, pPunct: 0.975, pPunctMore: 0.547, pPunctWord: 0.5,
	pNewline: 1.895, pSpaces: 1.498, pSpaceDigit: 0.8, pCtrl: 1.0,
	pAccent: 0.35, pUmlaut: 0.35, pAccentExt: 0.35, pAccentCont: 1.158, pCombining: 0.42, pTurkish: 0.8, pVietnamese: 0.35, pGreek: 0.92,
	pCyrRussian: 0.40, pCyrDefault: 0.525, pCyrSouth: 0.63, pCyrTurkic: 0.75, pCyrKyrgyz: 0.54,
	pArmenian: 0.42, pGeorgian: 0.42, pHebrew: 0.6, pArabic: 0.68, pArabicFa: 0.68, pArabicUr: 0.68, pEthiopic: 0.42,
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
		pWord: 0.714, pLongLetter: 0.275, pRareEnd: 0.9, pRareEndWest: 0.476, pCapsLetter: 0.56, pCapsShort: 0.001, pRepeat: -0.122, pCaseFlip: 3.708,
		pDigitGroup: 1.02, pDigit: 0.001, pPunct: 0.865, pPunctMore: 0.181, pPunctWord: 0.353, pNewline: 1.657, pBlankLine: 0.001, pIndent: 0.398,
		pSpaces: 1.609, pSpaceMore: 1.852, pSpaceDigit: 0.968, pSpaceWide: 0.084, pCtrl: 1.795, pAccent: 1.246, pUmlaut: 1.008, pAccentExt: 1.44,
		pAccentCont: 0.001, pCombining: 0.42, pTurkish: 1.341, pVietnamese: 0.825, pGreek: 0.347, pCyrRussian: 0.206, pCyrDefault: 0.3, pCyrSouth: 0.331,
		pCyrTurkic: 0.301, pCyrKyrgyz: 0.274, pArmenian: 0.301, pGeorgian: 0.322, pHebrew: 0.381, pArabic: 0.272, pArabicFa: 0.289, pArabicUr: 0.29,
		pEthiopic: 2.221, pDevanagari: 0.331, pBengali: 0.344, pGurmukhi: 0.596, pGujarati: 0.366, pOriya: 1.3, pTamil: 0.422, pTelugu: 0.387,
		pKannada: 0.419, pMalayalam: 0.309, pSinhala: 0.563, pThai: 0.449, pLao: 1.918, pMyanmar: 0.569, pKhmer: 0.552, pHangul: 0.695,
		pHanSimple: 0.672, pHanTrad: 1.125, pKanji: 1.025, pKana: 0.56, pCJKPunct: 1.706, pAlphabet: 0.42, pScriptWord: 0.333, pVarSel: 4,
		pEmoji: 1.053, pUniSpace: 0.034, pUniPunct: 1.625, pSymbol: 0.964}}

	cl100kFamily = family{"cl100k", &prices{
		pWord: 0.867, pLongLetter: 0.303, pRareEnd: 1.377, pRareEndWest: 0.694, pCapsLetter: 0.495, pCapsShort: 0.001, pRepeat: -0.131, pCaseFlip: 3.327,
		pDigitGroup: 1.221, pDigit: 0.001, pPunct: 0.78, pPunctMore: 0.054, pPunctWord: 0.001, pNewline: 1.231, pBlankLine: 0.001, pIndent: 0.234,
		pSpaces: 1.316, pSpaceMore: 1.37, pSpaceDigit: 0.669, pSpaceWide: 0.154, pCtrl: 0.47, pAccent: 1.759, pUmlaut: 2.224, pAccentExt: 2.032,
		pAccentCont: 0.001, pCombining: 0.42, pTurkish: 2.205, pVietnamese: 1.532, pGreek: 0.494, pCyrRussian: 0.001, pCyrDefault: 0.049, pCyrSouth: 0.048,
		pCyrTurkic: 0.332, pCyrKyrgyz: 0.2, pArmenian: 1.687, pGeorgian: 1.673, pHebrew: 0.42, pArabic: 0.103, pArabicFa: 0.181, pArabicUr: 0.198,
		pEthiopic: 2.284, pDevanagari: 0.575, pBengali: 0.841, pGurmukhi: 1.242, pGujarati: 1.354, pOriya: 1.3, pTamil: 1.109, pTelugu: 1.573,
		pKannada: 1.564, pMalayalam: 1.475, pSinhala: 1.599, pThai: 1.004, pLao: 2.29, pMyanmar: 2.111, pKhmer: 1.793, pHangul: 1.187,
		pHanSimple: 1.056, pHanTrad: 1.753, pKanji: 1.645, pKana: 0.859, pCJKPunct: 1.004, pAlphabet: 0.42, pScriptWord: 3.484, pVarSel: 4,
		pEmoji: 1.831, pUniSpace: 4, pUniPunct: 0.001, pSymbol: 0.771}}

	claudeFamily = family{"claude", &prices{
		pWord: 0.93, pLongLetter: 0.322, pRareEnd: 1.856, pRareEndWest: 1.136, pCapsLetter: 0.556, pCapsShort: 0.24, pRepeat: -0.156, pCaseFlip: 2.772,
		pDigitGroup: 0.705, pDigit: 0.15, pPunct: 0.754, pPunctMore: 0.001, pPunctWord: 0.762, pNewline: 1.083, pBlankLine: 0.029, pIndent: 0.063,
		pSpaces: 1.486, pSpaceMore: 1.213, pSpaceDigit: 0.007, pSpaceWide: 0.455, pCtrl: 1.937, pAccent: 1.722, pUmlaut: 2.822, pAccentExt: 2.198,
		pAccentCont: 0.002, pCombining: 0.42, pTurkish: 2.732, pVietnamese: 2.353, pGreek: 0.697, pCyrRussian: 0.001, pCyrDefault: 0.017, pCyrSouth: 0.001,
		pCyrTurkic: 0.295, pCyrKyrgyz: 0.232, pArmenian: 1.659, pGeorgian: 0.893, pHebrew: 0.184, pArabic: 0.246, pArabicFa: 0.372, pArabicUr: 0.309,
		pEthiopic: 2.421, pDevanagari: 0.577, pBengali: 1.451, pGurmukhi: 2.392, pGujarati: 2.516, pOriya: 1.3, pTamil: 1.68, pTelugu: 1.919,
		pKannada: 1.909, pMalayalam: 2.099, pSinhala: 1.196, pThai: 1.92, pLao: 3.247, pMyanmar: 1.104, pKhmer: 3.296, pHangul: 1.328,
		pHanSimple: 0.949, pHanTrad: 1.424, pKanji: 1.656, pKana: 0.821, pCJKPunct: 1.104, pAlphabet: 0.42, pScriptWord: 4, pVarSel: 4,
		pEmoji: 1.884, pUniSpace: 2.538, pUniPunct: 0.017, pSymbol: 0.967}}

	llama3Family = family{"llama3", &prices{
		pWord: 0.587, pLongLetter: 0.475, pRareEnd: 1.568, pRareEndWest: 0.643, pCapsLetter: 0.555, pCapsShort: 0.001, pRepeat: -0.3, pCaseFlip: 4,
		pDigitGroup: 1.299, pDigit: 0.001, pPunct: 0.873, pPunctMore: 0.174, pPunctWord: 0.028, pNewline: 1.115, pBlankLine: 0.001, pIndent: 0.396,
		pSpaces: 1.304, pSpaceMore: 1.57, pSpaceDigit: 0.529, pSpaceWide: 0.834, pCtrl: 0.679, pAccent: 2.239, pUmlaut: 1.417, pAccentExt: 1.426,
		pAccentCont: 0.001, pCombining: 0.42, pTurkish: 1.035, pVietnamese: 0.93, pGreek: 0.083, pCyrRussian: 0.01, pCyrDefault: 0.096, pCyrSouth: 0.161,
		pCyrTurkic: 0.366, pCyrKyrgyz: 0.234, pArmenian: 1.608, pGeorgian: 1.878, pHebrew: 0.736, pArabic: 0.007, pArabicFa: 0.001, pArabicUr: 0.223,
		pEthiopic: 2.595, pDevanagari: 0.2, pBengali: 1.097, pGurmukhi: 1.562, pGujarati: 1.627, pOriya: 1.3, pTamil: 1.299, pTelugu: 1.771,
		pKannada: 1.768, pMalayalam: 1.611, pSinhala: 1.836, pThai: 0.501, pLao: 2.062, pMyanmar: 2.078, pKhmer: 1.784, pHangul: 0.544,
		pHanSimple: 0.827, pHanTrad: 1.016, pKanji: 1.01, pKana: 0.614, pCJKPunct: 0.299, pAlphabet: 0.42, pScriptWord: 1.495, pVarSel: 4,
		pEmoji: 1.731, pUniSpace: 4, pUniPunct: 0.015, pSymbol: 0.674}}

	qwenFamily = family{"qwen", &prices{
		pWord: 0.63, pLongLetter: 0.444, pRareEnd: 1.528, pRareEndWest: 0.555, pCapsLetter: 0.472, pCapsShort: 0.001, pRepeat: -0.294, pCaseFlip: 3.815,
		pDigitGroup: 0.587, pDigit: 0.916, pPunct: 0.871, pPunctMore: 0.123, pPunctWord: 0.001, pNewline: 1.337, pBlankLine: 0.001, pIndent: 0.176,
		pSpaces: 1.245, pSpaceMore: 1.214, pSpaceDigit: 0.191, pSpaceWide: 1.093, pCtrl: 0.368, pAccent: 2.204, pUmlaut: 1.356, pAccentExt: 1.503,
		pAccentCont: 0.001, pCombining: 0.42, pTurkish: 1.562, pVietnamese: 0.924, pGreek: 0.688, pCyrRussian: 0.041, pCyrDefault: 0.19, pCyrSouth: 0.199,
		pCyrTurkic: 0.372, pCyrKyrgyz: 0.292, pArmenian: 0.859, pGeorgian: 0.856, pHebrew: 0.008, pArabic: 0.001, pArabicFa: 0.275, pArabicUr: 0.241,
		pEthiopic: 1.146, pDevanagari: 0.743, pBengali: 0.917, pGurmukhi: 1.425, pGujarati: 1.388, pOriya: 1.3, pTamil: 1.002, pTelugu: 1.462,
		pKannada: 1.325, pMalayalam: 1.317, pSinhala: 1.393, pThai: 0.599, pLao: 1.352, pMyanmar: 1.583, pKhmer: 1.329, pHangul: 0.587,
		pHanSimple: 0.722, pHanTrad: 0.921, pKanji: 0.764, pKana: 0.62, pCJKPunct: 0.29, pAlphabet: 0.42, pScriptWord: 1.226, pVarSel: 2.699,
		pEmoji: 0.911, pUniSpace: 4, pUniPunct: 0.003, pSymbol: 0.496}}

	deepseekFamily = family{"deepseek", &prices{
		pWord: 0.941, pLongLetter: 0.262, pRareEnd: 1.238, pRareEndWest: 0.525, pCapsLetter: 0.483, pCapsShort: 0.001, pRepeat: -0.024, pCaseFlip: 2.531,
		pDigitGroup: 1.173, pDigit: 0.001, pPunct: 0.819, pPunctMore: 0.095, pPunctWord: 0.321, pNewline: 1.307, pBlankLine: 0.001, pIndent: 0.133,
		pSpaces: 1.094, pSpaceMore: 1.588, pSpaceDigit: 0.687, pSpaceWide: 0.8, pCtrl: 1.417, pAccent: 1.612, pUmlaut: 2.016, pAccentExt: 1.398,
		pAccentCont: 0.001, pCombining: 0.42, pTurkish: 2.54, pVietnamese: 1.21, pGreek: 0.388, pCyrRussian: 0.183, pCyrDefault: 0.311, pCyrSouth: 0.337,
		pCyrTurkic: 0.459, pCyrKyrgyz: 0.363, pArmenian: 0.495, pGeorgian: 0.728, pHebrew: 0.356, pArabic: 0.244, pArabicFa: 0.282, pArabicUr: 0.337,
		pEthiopic: 2.22, pDevanagari: 0.544, pBengali: 0.364, pGurmukhi: 0.971, pGujarati: 0.837, pOriya: 1.3, pTamil: 0.557, pTelugu: 0.758,
		pKannada: 0.716, pMalayalam: 0.838, pSinhala: 1, pThai: 0.444, pLao: 1.839, pMyanmar: 0.927, pKhmer: 1.373, pHangul: 0.673,
		pHanSimple: 0.625, pHanTrad: 0.86, pKanji: 0.825, pKana: 0.593, pCJKPunct: 0.205, pAlphabet: 0.42, pScriptWord: 0.33, pVarSel: 4,
		pEmoji: 0.912, pUniSpace: 1.099, pUniPunct: 0.335, pSymbol: 0.617}}

	gemmaFamily = family{"gemma", &prices{
		pWord: 0.586, pLongLetter: 0.415, pRareEnd: 0.99, pRareEndWest: 0.178, pCapsLetter: 0.49, pCapsShort: 0.001, pRepeat: -0.289, pCaseFlip: 3.547,
		pDigitGroup: 0.578, pDigit: 0.719, pPunct: 1.012, pPunctMore: 0.002, pPunctWord: 1.217, pNewline: 1.683, pBlankLine: 0.928, pIndent: 0.627,
		pSpaces: 1.356, pSpaceMore: 0.016, pSpaceDigit: 1.221, pSpaceWide: 0.011, pCtrl: 0.27, pAccent: 1.924, pUmlaut: 0.998, pAccentExt: 1.183,
		pAccentCont: 0.001, pCombining: 0.42, pTurkish: 1.27, pVietnamese: 0.907, pGreek: 0.412, pCyrRussian: 0.235, pCyrDefault: 0.311, pCyrSouth: 0.389,
		pCyrTurkic: 0.421, pCyrKyrgyz: 0.319, pArmenian: 0.57, pGeorgian: 0.461, pHebrew: 0.541, pArabic: 0.366, pArabicFa: 0.335, pArabicUr: 0.346,
		pEthiopic: 0.756, pDevanagari: 0.309, pBengali: 0.288, pGurmukhi: 0.676, pGujarati: 0.448, pOriya: 1.3, pTamil: 0.327, pTelugu: 0.375,
		pKannada: 0.459, pMalayalam: 0.35, pSinhala: 0.553, pThai: 0.379, pLao: 0.559, pMyanmar: 0.464, pKhmer: 0.525, pHangul: 0.656,
		pHanSimple: 0.685, pHanTrad: 0.845, pKanji: 0.824, pKana: 0.336, pCJKPunct: 0.741, pAlphabet: 0.42, pScriptWord: 0.085, pVarSel: 1.577,
		pEmoji: 1.061, pUniSpace: 0.164, pUniPunct: 1.101, pSymbol: 0.698}}
)
