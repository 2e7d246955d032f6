package main

import (
	"strings"
	"testing"
)

// TestPreviewScreenRows: the preview's line cap counts the rows a line
// wraps to on a terminal of the given width.
func TestPreviewScreenRows(t *testing.T) {
	long := strings.Repeat("x", 4000)
	for _, tc := range []struct {
		name         string
		in           string
		lines, width int
		wantRows     int  // rows of the preview before the marker
		wantMarker   bool // "… +N lines" follows
	}{
		{"one long line, 100 columns", long, 15, 100, 15, true},
		{"one long line, width unknown", long, 15, 0, 40, false}, // 4000 chars: under the 4000-char cap, one line
		{"short lines", "a\nb\nc", 15, 100, 3, false},
		{"lines and a long one", "a\nb\n" + long, 5, 100, 5, true},
		{"exact fit", strings.Repeat("y", 300), 3, 100, 3, false},
		{"wide characters", strings.Repeat("日", 200), 2, 100, 2, true},
		{"tabs count as the cells they take", strings.Repeat("a\t", 30), 2, 100, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := displayPreview(tc.in, tc.lines, 4000, tc.width, "")
			body, marker, _ := strings.Cut(got, "\n… +")
			rows := 0
			w := tc.width
			if w == 0 {
				w = 100 // to count what a 100-column terminal would show
			}
			for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
				rows += max((stringWidth(expandTabs(l))+w-1)/w, 1)
			}
			if rows != tc.wantRows || (marker != "") != tc.wantMarker {
				t.Errorf("displayPreview(%.20q, %d lines, width %d) takes %d rows, marker %q; want %d rows, marker %v",
					tc.in, tc.lines, tc.width, rows, marker, tc.wantRows, tc.wantMarker)
			}
		})
	}
}
