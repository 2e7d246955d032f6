package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
)

// fittedFamilies are the families with prices of their own.
var fittedFamilies = []family{o200kFamily, cl100kFamily, claudeFamily, llama3Family, qwenFamily, deepseekFamily, gemmaFamily}

// The band the issue asks for, the share of check samples each family must
// have in it, and the band every check sample must lie in. TestFamilyBand
// fails below the share or outside the hold band and logs every sample
// outside the target, so the gap stays in view. The hold band is wider
// than the target because prose of one language varies more than one price
// can follow (a Portuguese help text at 1.43 for cl100k, another paragraph
// at 0.88; a Welsh help text at 0.75): see testdata/tokens/samples.md. The
// share and the hold band are what the check files show today (97.6-99.1%,
// 0.77-1.51), not looser; the generic family's, 98.9% and 0.82-1.83.
const (
	targetLow, targetHigh = 0.85, 1.25
	targetShare           = 0.97
	holdLow, holdHigh     = 0.74, 1.55
	genericHigh           = 1.6  // the generic family's band is [0.85, genericHigh]
	genericLow            = 0.75 // and every check sample lies within [genericLow, genericHold]
	genericHold           = 1.85
	genericShare          = 0.98 // share of the check samples within its band
)

// TestFamilyBand: on samples the fit never saw (checkFiles: some 340 kinds
// of text besides 80 languages), every family's estimate lies within
// [holdLow, holdHigh] of its tokenizer's real count, and targetShare of
// them within the target; the generic family's lies within [0.85, 1.6] of
// both o200k's and cl100k's on genericShare of the samples where the two
// agree within 1.5x, and within [genericLow, genericHold] on all. With -v it
// logs the range per family and per kind, and the samples outside the
// target band.
func TestFamilyBand(t *testing.T) {
	t.Parallel()
	samples := loadFiles(t, checkFiles(t))
	if len(samples) < 200 {
		t.Fatalf("%d check samples, want 200 or more", len(samples))
	}
	perKind := map[string][2]float64{}
	for _, f := range fittedFamilies {
		lo, hi, outside := math.Inf(1), math.Inf(-1), 0
		for _, s := range samples {
			r := float64(f.tokens(s.Text)) / float64(realCount(s, f.name))
			lo, hi = min(lo, r), max(hi, r)
			k := perKind[s.Cat]
			if k == [2]float64{} {
				k = [2]float64{r, r}
			}
			perKind[s.Cat] = [2]float64{min(k[0], r), max(k[1], r)}
			switch {
			case r < holdLow || r > holdHigh:
				t.Errorf("%s family: estimate/real of %s (%s) = %.2f, want within [%.2f, %.2f]", f.name, s.Cat, s.Src, r, holdLow, holdHigh)
			case r < targetLow || r > targetHigh:
				outside++
				t.Logf("%s family: estimate/real of %s (%s) = %.2f, outside the target [%.2f, %.2f]", f.name, s.Cat, s.Src, r, targetLow, targetHigh)
			}
		}
		share := 1 - float64(outside)/float64(len(samples))
		t.Logf("%-8s family: estimate/real %.2f-%.2f on %d samples, %d outside the target (%.1f%% in it)", f.name, lo, hi, len(samples), outside, 100*share)
		if share < targetShare {
			t.Errorf("%s family: %.1f%% of the check samples within [%.2f, %.2f], want %.0f%% or more", f.name, 100*share, targetLow, targetHigh, 100*targetShare)
		}
	}
	kinds := make([]string, 0, len(perKind))
	for k := range perKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "\n  %-18s %.2f-%.2f", k, perKind[k][0], perKind[k][1])
	}
	t.Logf("estimate/real per kind over the seven families:%s", b.String())
	// The generic family is fitted on both tokenizers at once (genericAim):
	// it is held on every check sample where o200k and cl100k agree within
	// 1.5x, as the issue asks, against both, and elsewhere to at least
	// genericLow of the larger count.
	agree, in := 0, 0
	for _, s := range samples {
		if max(s.O200k, s.Cl100k)*2 > min(s.O200k, s.Cl100k)*3 {
			// no estimate suits both (Hindi costs cl100k three times what
			// it costs o200k): it must not be far under the larger
			if est := float64(estimateTokens(s.Text)); est < genericLow*float64(max(s.O200k, s.Cl100k)) {
				t.Errorf("generic: estimate of %s (%s) = %.0f, under %.2f of the larger of o200k %d and cl100k %d", s.Cat, s.Src, est, genericLow, s.O200k, s.Cl100k)
			}
			continue
		}
		agree++
		est := float64(estimateTokens(s.Text))
		ro, rc := est/float64(s.O200k), est/float64(s.Cl100k)
		switch {
		case min(ro, rc) < genericLow || max(ro, rc) > genericHold:
			t.Errorf("generic: estimate/real of %s (%s) = %.2f (o200k), %.2f (cl100k), want within [%.2f, %.2f]", s.Cat, s.Src, ro, rc, genericLow, genericHold)
		case min(ro, rc) >= 0.85 && max(ro, rc) <= genericHigh:
			in++
		default:
			t.Logf("generic: estimate/real of %s (%s) = %.2f (o200k), %.2f (cl100k), outside [0.85, %.1f]", s.Cat, s.Src, ro, rc, genericHigh)
		}
	}
	t.Logf("generic: %d of %d check samples within [0.85, %.1f] of both o200k and cl100k where the two agree within 1.5x", in, agree, genericHigh)
	if float64(in) < genericShare*float64(agree) {
		t.Errorf("generic: %d of %d within [0.85, %.1f], want %.0f%% or more", in, agree, genericHigh, 100*genericShare)
	}
}

// TestFamilyOf: the family comes from the model's name, whatever its case
// and provider prefix; names that tell none are generic.
func TestFamilyOf(t *testing.T) {
	for model, want := range map[string]string{
		"gpt-4o": "o200k", "gpt-4o-mini": "o200k", "openai/gpt-4o-2024-08-06": "o200k", "chatgpt-4o-latest": "o200k",
		"gpt-4.1-mini": "o200k", "gpt-5": "o200k", "GPT-5-Codex": "o200k", "o1": "o200k", "o1-mini": "o200k", "o3-mini": "o200k",
		"o4-mini-2025-04-16": "o200k", "gpt-oss-120b": "o200k", "openai/gpt-oss-20b": "o200k", "gpt-oss:20b": "o200k",
		"gpt-4": "cl100k", "gpt-4-turbo": "cl100k", "gpt-4-0613": "cl100k", "gpt-3.5-turbo": "cl100k", "azure/gpt-35-turbo": "cl100k",
		"claude-sonnet-4-20250514": "claude", "anthropic/claude-3.5-haiku": "claude", "us.anthropic.claude-3-7-sonnet-20250219-v1:0": "claude",
		"llama3.1:8b": "llama3", "meta-llama/Llama-3.3-70B-Instruct": "llama3", "llama-3.2-3b-preview": "llama3",
		"accounts/fireworks/models/llama-v3p1-8b-instruct": "llama3", "Meta-Llama-3-8B-Instruct": "llama3",
		"qwen2.5:7b": "qwen", "Qwen/Qwen3-30B-A3B": "qwen", "qwq-32b": "qwen", "qwen-max": "qwen",
		"deepseek-chat": "deepseek", "deepseek-reasoner": "deepseek", "deepseek-ai/DeepSeek-V3": "deepseek", "deepseek-r1:7b": "deepseek",
		"deepseek-r1-distill-llama-70b": "llama3", "DeepSeek-R1-Distill-Qwen-32B": "qwen",
		"gemma3:4b": "gemma", "google/gemma-2-9b-it": "gemma", "gemini-2.5-pro": "gemma", "models/gemini-1.5-flash": "gemma",
		"mistral-large-latest": "generic", "llama2:13b": "generic", "grok-4": "generic", "o1something": "generic",
		"kimi-k2-0905-preview": "generic", "": "generic", "phi4": "generic",
	} {
		if got := familyOf(model).name; got != want {
			t.Errorf("familyOf(%q) = %s, want %s", model, got, want)
		}
	}
}

// TestFamilyNamed: /context and --verbose say which family prices the
// estimates, and the agent prices with the configured model's family.
func TestFamilyNamed(t *testing.T) {
	cache := t.TempDir() // the user cache directory the edge would give
	cfg, _ := load(t, "", nil, map[string]string{"MODEL": "qwen3:8b"})
	cfg.cacheDir = cache
	var v strings.Builder
	writeEffective(&v, cfg, cfg.redactor())
	if !strings.Contains(v.String(), "token estimates: qwen family (from MODEL qwen3:8b)") {
		t.Errorf("--verbose does not name the family:\n%s", v.String())
	}
	a := agentOver(t, cfg, io.Discard, io.Discard)
	if a.fam.name != "qwen" {
		t.Fatalf("agent for qwen3:8b prices with the %s family", a.fam.name)
	}
	var c strings.Builder
	writeContext(&c, a.contextReport([]message{{Role: roleUser, Content: "1234567890 1234567890"}}))
	if !strings.Contains(c.String(), "estimated for the qwen tokenizer family (model qwen3:8b)") {
		t.Errorf("/context does not name the family:\n%s", c.String())
	}
	m := message{Role: roleUser, Content: strings.Repeat("20250101 ", 100)}
	if a.estimate(m) == genericFamily.messageTokens(m) {
		t.Errorf("agent estimate %d equals the generic one: the family is not used", a.estimate(m))
	}
	// Attached files (/add, and the file named when they overflow) are
	// priced with the family too.
	big := strings.Repeat("20250101 ", 200)
	path, n := largestAttachment([]attachment{{path: "small", text: "x"}, {path: "big", text: big}}, a.textTokens)
	if path != "big" || n != qwenFamily.tokens(big) || n == genericFamily.tokens(big) {
		t.Errorf("largestAttachment = %s ~%d tokens, want big ~%d (qwen; generic says %d)", path, n, qwenFamily.tokens(big), genericFamily.tokens(big))
	}
}

// TestPieces: the scan counts the pieces the families price apart.
func TestPieces(t *testing.T) {
	for _, c := range []struct {
		text  string
		piece int
		want  int32
	}{
		{"AAAAAAAA", pRepeat, 7}, {"ABCDEFGH", pRepeat, 0},
		{"AAAAAAAA", pRepeatLong, 4}, {"AAAAbAAAAB", pRepeatLong, 0}, {"xAAAAAx", pRepeatLong, 1},
		{" KIND OF", pCapsShort, 4}, {" MXSQGTKB", pCapsShort, 0}, {" MXSQGTKB", pCapsLetter, 7},
		{"kitabu cha mwalimu", pRareEnd, 3}, {"the printed lines", pRareEnd, 0},
		{"帳 號 終", pSpaceWide, 2}, {"a 1", pSpaceWide, 0}, {"a 1", pSpaceDigit, 1},
		{"Xin chào các bạn, hôm nay", pVietnamese, 4}, {"Xin chào các bạn, hôm nay", pAccent, 0},
		{"déjà vu à la française", pAccent, 4}, {"déjà vu à la française", pVietnamese, 0},
		{"12345678", pDigit, 8}, {"12345678", pDigitGroup, 3}, {"0000 2001", pDigit, 4}, {"0000 2001", pDigitSame, 4},
		{"x\n\n\n    y", pBlankLine, 2}, {"x\n\n\n    y", pIndent, 1},
		{"a" + strings.Repeat(" ", 40) + "b", pSpaceMore, 1},
		{"también atualização", pAccentCont, 2}, {"también atualização", pWord, 2}, {"Übersicht", pWord, 0},
		{"Übersicht", pAccentCont, 1}, {"Übersicht", pUmlaut, 1}, {"Übersicht", pAccent, 0},
		{"Příliš žluťoučký kůň", pAccentExt, 9}, {"Příliš žluťoučký kůň", pAccent, 0},
		{"la aplicación del programa", pRareEndWest, 2}, {"la aplicación del programa", pRareEnd, 0}, {"kitabu cha mwalimu", pRareEndWest, 0},
		{"Привет, мир и все", pCyrWord, 3}, {"Привет, мир и все", pScriptWord, 0}, {"Γεια σου κόσμε", pScriptWord, 2}, {"Привет, мир и все", pScriptBare, 1}, {"தமிழ்\nதமிழ்", pScriptBare, 2}, {"Привет, мир", pCyrRussian, 0}, {"ẹ̀kọ́", pCombining, 2},
		{"این یک کتاب است", pArabicFa, 12}, {"یہ ایک کتاب ہے", pArabicUr, 11}, {"هذا كتاب جديد", pArabic, 11},
		{"the documentation", pLongEnglish, 8}, {"the documentation", pLongLetter, 0}, {"kirjoittaminen", pLongLetter, 9},
		{"See the Redistributions", pLongEnglish, 10}, {"ọmọ ẹ̀kọ́ ṣe", pVietnamese, 0}, {"ọmọ ẹ̀kọ́ ṣe", pAccentExt, 5},
		{"Það er gaman að læra íslensku á hverjum degi í skólanum með góðum vinum", pAccentDense, 11},
		{"A aplicação não abre depois da atualização do sistema operativo", pAccentDense, 0},
		{"root\tx\t0", pTab, 2}, {"root\tx\t0", pSpaces, 0}, {"a\t\tb", pSpaces, 1}, {"a\t\tb", pTab, 0},
		{"bash      5.2-15", pSpacesDigit, 1}, {"bash      5.2-15", pSpaces, 1}, {"bash 5.2", pSpacesDigit, 0},
		{"a" + strings.Repeat(" ", 40) + "\nb", pSpaceEnd, 1}, {"a" + strings.Repeat(" ", 40) + "\nb", pSpaces, 0}, {"a \nb", pSpaceEnd, 0},
		{"THE WARRANTIES OF MERCHANTABILITY", pCapsEnglish, 15}, {"THE WARRANTIES OF MERCHANTABILITY", pLongLetter, 0}, {"MFRGGZDFMZTWQ", pCapsEnglish, 0},
		{"a" + strings.Repeat(" ", 300) + "b", pRunSpace, 2}, {"x" + strings.Repeat("-", 100), pRunPunct, 3}, {"x" + strings.Repeat("-", 32), pRunPunct, 0},
		{"x" + strings.Repeat("\n", 40) + "y", pRunBreak, 2}, {"x" + strings.Repeat("\n", 40) + "y", pBlankLine, 3}, {"x\n\n\ny", pRunBreak, 0},
		{"x\n" + strings.Repeat("\t", 40) + "y", pRunTab, 2}, {"x\n" + strings.Repeat(" ", 300) + "y", pRunSpace, 2},
		{"x" + strings.Repeat("\n   ", 5) + "\ny", pNewline, 6}, {"x" + strings.Repeat("\n   ", 5) + "\ny", pBlankLine, 0},
		{"x\n    42 the", pSpacesDigit, 1}, {"x\n 42", pSpaceDigit, 1}, {"x\n    the", pSpacesDigit, 0},
		{`\s+\d*`, pEscape, 2}, {`a\\\\b`, pEscape, 1},
		{"GREEK CAPITAL HETA", pCapsRare, 2}, {"HTTP JSON GNU", pCapsRare, 0},
		{"𝐀𝐁 x", pAstral, 2}, {"😀 中", pAstral, 0},
		{"├── a\n│   └── b", pSymbolMore, 4}, {"├── a\n│   └── b", pSymbol, 3}, {"x → y ≤ z", pSymbolMore, 0},
		{`(?:[^"\\]|\\.)*"`, pPunctMixed, 13}, {`(?:[^"\\]|\\.)*"`, pPunctMore, 2}, {"x = ----------", pPunctMixed, 0}, {"f(a));", pPunctMixed, 0},
		{"Ngesikhathi ukuze bhfuil the printed lines", pRareStart, 3}, {"la aplicación del programa", pRareStart, 0},
		{"Rīgā notika svētki; Vilniuje įvyko šventė", pBaltic, 5}, {"Příliš žluťoučký kůň", pBaltic, 0},
		{`^[a-z](?i)\w+`, pPunctLetter, 3}, {"see /usr/bin, a.go or a[i] = x", pPunctLetter, 1},
		{"Această aplicație să fie închisă", pAccentExt, 5}, {"Această aplicație să fie închisă", pVietnamese, 0},
		{"Калі даступная новая версія, тэлефон пакажа", pCyrShortU, 37}, {"Калі даступная новая версія, тэлефон пакажа", pCyrRussian, 0},
		{"Прывітанне, сусвет! Добры дзень, як справы ў цябе?", pCyrShortU, 39}, {"Если доступна новая версия, телефон покажет", pCyrShortU, 0},
		{"ಕನ್ನಡ", pKannada, 5}, {"தமிழ்", pTamil, 5}, {"ქართული", pGeorgian, 7}, {"🙂\ufe0f", pVarSel, 1},
	} {
		var got pieces
		countPieces(c.text, &got)
		if got[c.piece] != c.want {
			t.Errorf("countPieces(%q)[%s] = %d, want %d", c.text, pieceNames[c.piece], got[c.piece], c.want)
		}
	}
}

// TestFamilyKnownMisses: the kinds of text no price follows yet
// (testdata/tokens/misses.jsonl: source maps' VLQ, Unicode character-name
// listings, historic scripts) stay at least as close as they are today,
// and the test logs how far each family is, so the gap stays in view
// (testdata/tokens/samples.md says why each is out).
func TestFamilyKnownMisses(t *testing.T) {
	t.Parallel()
	const missLow, missHigh = 0.48, 1.1 // today 0.52-1.03 over the seven families
	for _, s := range loadSampleFile(t, "testdata/tokens/misses.jsonl") {
		var b strings.Builder
		for _, f := range fittedFamilies {
			r := float64(f.tokens(s.Text)) / float64(realCount(s, f.name))
			fmt.Fprintf(&b, " %s %.2f", f.name, r)
			if r < missLow || r > missHigh {
				t.Errorf("%s family: estimate/real of %s (%s) = %.2f, want within [%.2f, %.2f]", f.name, s.Cat, s.Src, r, missLow, missHigh)
			}
		}
		t.Logf("%s (%s):%s", s.Cat, s.Src, b.String())
	}
}

// TestFamilyLongRuns: a long run of one character (4000 spaces, line
// breaks, dashes, tabs or dots, after a line break too, a line of 2000
// box-drawing characters, 1000 lines of blanks, and runs of 40-200 between
// text) costs every family at least a quarter of what its tokenizer counts
// and at most 13 times (box drawing: deepseek 12; its tokens hold twice as
// much of it as cl100k's). Priced per character, as the fit priced them,
// 4000 line breaks or spaces came to 1-8% of the real count, and 1000 lines
// of blanks to 0.5-50%. Generic is held to the larger of o200k's and
// cl100k's counts from below and to the smaller from above.
func TestFamilyLongRuns(t *testing.T) {
	t.Parallel()
	for _, s := range loadSampleFile(t, "testdata/tokens/runs.jsonl") {
		for _, f := range append([]family{genericFamily}, fittedFamilies...) {
			est := float64(f.tokens(s.Text))
			low, high := float64(realCount(s, f.name)), float64(realCount(s, f.name))
			if f.name == "generic" {
				low, high = float64(max(s.O200k, s.Cl100k)), float64(min(s.O200k, s.Cl100k))
			}
			if est < 0.24*low || est > 13*high {
				t.Errorf("%s family: estimate of %s = %.0f, want within [0.24 × %.0f, 13 × %.0f]", f.name, s.Cat, est, low, high)
			}
		}
	}
}

// largestAttachment names the attachment to drop first when they do not
// fit, with its size in tokens as est prices them (the model's family).
func largestAttachment(atts []attachment, est func(string) int) (string, int) {
	if len(atts) == 0 {
		return "", 0
	}
	big := slices.MaxFunc(atts, func(a, b attachment) int { return len(a.text) - len(b.text) })
	return big.path, est(big.text)
}

// estimateTokens is the estimated token count of s for the generic family,
// without calibration: at least one for any text, as even a lone space is
// a token.
func estimateTokens(s string) int { return genericFamily.tokens(s) }

// estimateRaw is the generic family's fractional estimate of s.
func estimateRaw(s string) float64 { return genericFamily.raw(s) }

// messageTokens estimates one message with the generic family.
func messageTokens(m message) int { return genericFamily.messageTokens(m) }

// toolsTokens estimates tool schemas with the generic family.
func toolsTokens(specs []toolSpec) int { return genericFamily.toolsTokens(specs) }
