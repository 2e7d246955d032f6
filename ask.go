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

// writeQuestion writes q, whose last line is what is asked, laid out by
// fitQuestion; it reports whether it cut.
func writeQuestion(w screenWriter, q string, width, height int, all bool) (cut bool) {
	lines := strings.Split(q, "\n")
	body, ask := lines[:len(lines)-1], lines[len(lines)-1]
	shown, more := fitQuestion(body, ask, width, height, all)
	if more == "" {
		fmt.Fprint(w, q)
		return false
	}
	fmt.Fprintf(w, "%s\n%s\n%s", strings.Join(shown, "\n"), more, ask)
	return true
}

// fitQuestion is the one layout of a question (the approval question of
// one-shot runs and of the REPL, and -s's command before its question):
// body, the lines above the line asked (ask), on a screen of width by
// height cells. It returns the lines of body to show and the line that
// says how many are not shown and how to see them ("" when body is
// shown whole): whole when all is set or body and ask fit the screen
// with a row to spare; else body's head, its first two lines at least (a
// question's size line and the command's first line), so the head and
// what is asked are on the screen together.
func fitQuestion(body []string, ask string, width, height int, all bool) (shown []string, more string) {
	room := max(height-3, 3) // the "more" line, the question and a row to spare
	askRows := rowsAt([]string{ask}, width)
	if all || rowsAt(body, width)+askRows <= room+1 {
		return body, ""
	}
	room -= askRows - 1 // a question that wraps takes its rows from the head
	n, used := 0, 0
	for n < len(body) && (n < 2 || used+rowsAt(body[n:n+1], width) <= room-1) {
		used += rowsAt(body[n:n+1], width)
		n++
	}
	return body[:n], fmt.Sprintf("  … +%d more lines not shown: answer s to see them all", len(body)-n)
}

// thenEnter is an approval question's choices (ending ": ") saying that
// the answer is a line: one-shot runs read it whole, and the REPL the same
// way, so y alone does nothing until Enter.
func thenEnter(choices string) string {
	return strings.TrimSuffix(choices, ": ") + " (then Enter): "
}
