package main

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCappedReadEndsWithReadyCall: a window of a file cut to fs_read_file's
// cap ends with the same ready call as every other cut, and the call the
// product reads back (markerCall: the paging_call event, the viewer)
// continues right where the window ends, in the same file.
func TestCappedReadEndsWithReadyCall(t *testing.T) {
	content := strings.Repeat("a line of the file\n", 5000)
	fw := fileWindow{Path: "/w/big.txt", Success: true, Content: content, TotalChars: utf8.RuneCountInString(content), ReturnedChars: utf8.RuneCountInString(content)}
	got := fitWindow(fw, 64000)
	args, ok := markerCall(got.Note)
	if !ok || !strings.HasPrefix(got.Note, "window cut to fit this tool's result cap; read more with fs_read_file: ") {
		t.Fatalf("note %q names no ready call", got.Note)
	}
	if fmt.Sprint(args["file_paths"]) != "[/w/big.txt]" || int(args["offset"].(float64)) != got.Offset+got.ReturnedChars || args["limit"].(float64) < minPage {
		t.Errorf("call %v does not continue the window (offset %d, %d returned)", args, got.Offset, got.ReturnedChars)
	}
}

// TestMarkerTextsReadBack: every writer of marker.go is read back by its
// reader: a stub by isStub and stubTokens, a truncation marker by
// findMarker, every paging call by markerCall.
func TestMarkerTextsReadBack(t *testing.T) {
	stub := stubText("execute_shell_command", 3100000, 691, []string{"/o/x.txt"}, 0, 984)
	if !isStub(stub) || stubTokens(stub) != 691 {
		t.Errorf("stub %q not read back", stub)
	}
	marker := "head" + omittedHead(90, 100) + fullOutputAt("/o/y.txt") + "\n" + readMoreCall([]string{"/o/y.txt"}, 5, 700) + "]\ntail"
	if findMarker(marker) == nil {
		t.Errorf("marker %q not found", marker)
	}
	for _, text := range []string{stub, marker, pageCutNote("/o/z.txt", 10, 20, 30, 600), windowCapNote("/o/w.txt", 7, 800)} {
		if _, ok := markerCall(text); !ok {
			t.Errorf("no paging call read back from %q", text)
		}
	}
}
