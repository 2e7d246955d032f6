package main

import (
	"strings"
	"testing"
)

// The same script costs more in the language tokenizers saw less of; the
// tally must tell them apart by their marks and price the whole text.
func TestScriptTiers(t *testing.T) {
	for _, c := range []struct {
		name          string
		cheap, dearer string
	}{
		// Same letter count; Russian has ы/э, Ukrainian і/ї/є and no Russian marks.
		{"russian vs ukrainian", "Вы можете выбрать этот файл", "Ви можете вибрати цей файл"},
		{"simplified vs traditional", "这个文件无法打开请检查设置选项", "這個文件無法打開請檢查設置選項"},
	} {
		cheap := estimateRaw(strings.Repeat(c.cheap+"\n", 50))
		dearer := estimateRaw(strings.Repeat(c.dearer+"\n", 50))
		if dearer <= cheap*1.1 {
			t.Errorf("%s: %.0f vs %.0f, want the second at least 10%% dearer", c.name, cheap, dearer)
		}
	}
}

// Japanese kanji are dearer than the same characters in simplified Chinese.
func TestKanjiWithKana(t *testing.T) {
	han := "日本人大小山川" // the same in both scripts: no form marks
	zh := estimateRaw(strings.Repeat(han, 40))
	ja := estimateRaw(strings.Repeat(han+"です", 40)) - estimateRaw(strings.Repeat("です", 40))
	if ja <= zh*1.1 {
		t.Errorf("kanji in Japanese text %.0f, in Chinese %.0f; want Japanese dearer", ja, zh)
	}
}

// An ALL-CAPS word (LC_MESSAGES, PASS) is a token or two; capitals of the
// same length from base32 are several.
func TestCapsWordsCheaperThanBase32(t *testing.T) {
	word, noise := estimateRaw(" MESSAGES"), estimateRaw(" MXSQGTKB")
	if word >= noise-1 {
		t.Errorf("MESSAGES %.1f, MXSQGTKB %.1f: want the word at least a token cheaper", word, noise)
	}
	for run, want := range map[string]bool{"ERROR": true, "MESSAGES": true, "PASS": true, "LC": true, "MXSQ": false, "QZ": false, "KJHGTRBN": false} {
		if capsWord(run) != want {
			t.Errorf("capsWord(%s) = %v, want %v", run, !want, want)
		}
	}
}
