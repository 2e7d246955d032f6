package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// countTokens prints the estimate for files (or stdin) priced by the
// model's tokenizer family, and names the family; with several files, a
// line for each before the total, as wc prints them. Inputs are read in
// blocks (countReader), so a log of any size is counted in bounded memory.
func countTokens(model string, files []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fam := familyOf(model)
	if len(files) == 0 {
		n, err := countReader(fam, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: reading stdin: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(stdout, "~%d tokens (%s family: %s)\n", n, fam.name, model)
		return exitOK
	}
	total := 0
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: %v\n", err)
			return exitUsage
		}
		n, err := countReader(fam, f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "yaicli: reading %s: %v\n", name, err)
			return exitFailure
		}
		if len(files) > 1 {
			fmt.Fprintf(stdout, "~%d tokens  %s\n", n, name)
		}
		total += n
	}
	fmt.Fprintf(stdout, "~%d tokens (%s family: %s)\n", total, fam.name, model)
	return exitOK
}

// countBlock is how much of an input countReader estimates at a time.
const countBlock = 4 << 20

// countReader estimates what r holds a block at a time, each cut after its
// last line break (or, in a line longer than a block, before a character
// the block's end would split), so that no word or run is cut in two.
func countReader(fam family, r io.Reader) (int, error) {
	buf := make([]byte, countBlock)
	total, have := 0, 0
	for {
		n, err := io.ReadFull(r, buf[have:])
		have += n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return total + fam.tokens(string(buf[:have])), nil
		}
		if err != nil {
			return 0, err
		}
		cut := blockCut(buf)
		total += fam.tokens(string(buf[:cut]))
		have = copy(buf, buf[cut:have])
	}
}

// blockCut is where a full block b is cut: after its last line break, or,
// in a line longer than the block, before a character its end would split.
func blockCut(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
