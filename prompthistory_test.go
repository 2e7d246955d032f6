package main

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestPromptHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".yaicli_history")
	now := time.Date(2026, 12, 2, 16, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ { // two REPLs at once, many times
		wg.Add(1)
		go func() {
			defer wg.Done()
			appendHistory(path, "entry\nline two", 10, now)
		}()
	}
	wg.Wait()
	got := readHistory(path, 0)
	if len(got) > 12 || len(got) < 10 {
		t.Errorf("%d entries kept, want about MAX_HISTORY=10", len(got))
	}
	for _, e := range got {
		if e != "entry\nline two" {
			t.Fatalf("corrupt entry %q", e)
		}
	}
	// Python YAICLI's prompt_toolkit format reads back.
	py := "\n# 2024-01-01 10:00:00.000000\n+ls -la\n\n# 2024-01-01 10:01:00.000000\n+multi\n+line\n"
	if got := parseHistory(strings.NewReader(py)); len(got) != 2 || got[1] != "multi\nline" {
		t.Errorf("parseHistory = %q", got)
	}
}
