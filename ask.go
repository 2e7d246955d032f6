package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// askOn returns a question asker on the terminal: stdin when it is one,
// else the session's controlling terminal (/dev/tty, opened at the first
// question), as sudo and ssh ask when stdin is a pipe. Without either it
// is nil, and tools that need approval are refused. stdinTTY is the edge's
// word on stdin. Every byte of a question goes through a screenWriter, the
// one type that writes to stderr or the terminal: what a model, a file
// name or a tool put in it (ESC, CR, U+2028, a bidirectional override) is
// shown, never obeyed.
func askOn(stdin io.Reader, stdinTTY bool, w io.Writer, openTTY func() (*os.File, error)) func(string) (string, error) {
	if stdinTTY {
		return lineAsker(bufio.NewReader(stdin), w)
	}
	tty, err := openTTY()
	if err != nil {
		return nil
	}
	return lineAsker(bufio.NewReader(tty), tty)
}

// lineAsker asks on w and reads the answer, a line, from br. A question
// taller than the screen shows its head (the size line and the command's
// first lines) and the question, with how many lines are not shown; s
// shows it whole and asks again.
func lineAsker(br *bufio.Reader, w io.Writer) func(string) (string, error) {
	sw := screenWriter{w: w}
	if inner, ok := w.(screenWriter); ok {
		sw = inner
	}
	return func(q string) (string, error) {
		for all := false; ; all = true {
			width, height := screenSize(sw.w)
			cut := writeQuestion(sw, q, width, height, all)
			answer, err := br.ReadString('\n')
			if err != nil || !cut || strings.TrimSpace(answer) != "s" {
				return answer, err
			}
		}
	}
}

// screenSize is the terminal's size when w is one, else 80 by 24.
func screenSize(w io.Writer) (width, height int) {
	if f, ok := w.(*os.File); ok {
		if wd, ht, err := term.GetSize(int(f.Fd())); err == nil && wd > 0 && ht > 0 {
			return wd, ht
		}
	}
	return 80, 24
}

// writeQuestion writes q, whose last line is what is asked: whole when all
// is true or it fits a screen of width by height, else its head (the size
// line first, then the command's first line) and the question together,
// saying how many lines are not shown and how to see them; it reports
// whether it cut.
func writeQuestion(w screenWriter, q string, width, height int, all bool) (cut bool) {
	lines := strings.Split(q, "\n")
	body, ask := lines[:len(lines)-1], lines[len(lines)-1]
	room := max(height-3, 3) // the "more" line, the question and a row to spare
	if all || rowsAt(body, width)+rowsAt([]string{ask}, width) <= room+1 {
		fmt.Fprint(w, q)
		return false
	}
	room -= rowsAt([]string{ask}, width) - 1 // a question that wraps takes its rows from the head
	shown, used := 0, 0
	for shown < len(body) && (shown < 2 || used+rowsAt(body[shown:shown+1], width) <= room-1) {
		used += rowsAt(body[shown:shown+1], width)
		shown++
	}
	fmt.Fprintf(w, "%s\n  … +%d more lines not shown: answer s to see them all\n%s", strings.Join(body[:shown], "\n"), len(body)-shown, ask)
	return true
}
