package main

import "unicode/utf8"

// Blanks for the scan (tokenscan.go): line breaks, indentation, spaces and
// tabs, and long runs of one character. Like the scan, every function here
// is //go:norace.

// How long a run of one character the first piece of it covers, from the
// real tokenizers' counts of runs of 16 to 4000 (testdata/tokens/samples.md):
// 128 spaces, 32 punctuation characters (a token holds 32 to 80), 16 line
// breaks, 16 tabs. Each further stretch costs a pRunSpace, pRunPunct,
// pRunBreak or pRunTab, priced per family from those counts (gemma's tokens
// hold a quarter of the spaces and dashes others' do). Priced per
// character, as the fit priced them, 4000 line breaks or 100 KB of padding
// came to a few tokens.
const (
	blankRun   = 3 // blank lines priced one by one (pBlankLine) before a run's stretches count
	runPunct   = 32
	runSpace   = 128
	runNewline = 16
	runTab     = 16
)

// newlineRun counts line breaks with the blank lines and indentation after
// them, and returns the end of the run. Breaks with nothing between them
// (\n\n\n, \r\n\r\n) are a run of one character; blanks on the lines
// between them are runs of their own.
//
//go:norace
func newlineRun(s string, i int, c *pieces) int {
	j, blank, bare, adjacent, indent, tabs := i+1, 0, 0, 0, 0, 0
	for ; j < len(s); j++ {
		switch s[j] {
		case '\n', '\r':
			if s[j-1] == '\n' || s[j-1] == '\r' {
				adjacent++
				if s[j] == '\n' {
					bare++ // a break right after a break
				}
			} else {
				if s[j] == '\n' {
					blank++ // a break after blanks: a line that held only them, a line break of its own
				}
				longBlanks(indent-tabs, tabs, c)
			}
			indent, tabs = 0, 0
			continue
		case '\t':
			tabs++
		case ' ':
		default:
			goto done
		}
		indent++
	}
done:
	longBlanks(indent-tabs, tabs, c)
	c[pNewline] += int32(1 + blank) // "   \n": blanks fold into their line's break
	c[pBlankLine] += int32(min(bare, blankRun))
	c[pRunBreak] += int32(max(adjacent-blankRun, 0) / runNewline)
	if indent > 1 || indent == 1 && s[j-1] == '\t' {
		c[pIndent]++
	}
	if indent > 0 && s[j-1] == ' ' && j < len(s) && asciiClass[s[j]] == clsDigit {
		// a number right-aligned at a line's start (cat -n, uniq -c, ps):
		// as after spaces inside a line, the last space is a token apart
		if indent == 1 {
			c[pSpaceDigit]++
		} else {
			c[pSpacesDigit]++
		}
	}
	return j
}

// longBlanks counts the tokens a run of spaces and tabs needs past the
// first stretch of each (runSpace, runTab).
//
//go:norace
func longBlanks(spaces, tabs int, c *pieces) {
	if spaces > runSpace {
		c[pRunSpace] += int32((spaces - 1) / runSpace)
	}
	if tabs > runTab {
		c[pRunTab] += int32((tabs - 1) / runTab)
	}
}

// spaceRun counts a run of spaces and tabs and returns its end. A single
// space belongs to the word after it, except before a digit, which most
// tokenizers split off; so does the last space of a run. A run of spaces
// is one token up to 128 spaces in most tokenizers (the padding
// of columns in dpkg -l or ps), a single tab is one token (TSV), and blanks
// that end a line go with the line break in most tokenizers.
//
//go:norace
func spaceRun(s string, i int, c *pieces) int {
	j, tabs := i+1, int32(0)
	if s[i] == '\t' {
		tabs++
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		if s[j] == '\t' {
			tabs++
		}
		j++
	}
	longBlanks(j-i-int(tabs), int(tabs), c)
	switch {
	case (j-i > 1 || s[i] == '\t') && j < len(s) && (s[j] == '\n' || s[j] == '\r'):
		c[pSpaceEnd]++
	case j-i == 1 && s[i] == '\t':
		c[pTab]++
	case j-i > 1:
		c[pSpaces]++
		c[pSpaceMore] += int32((min(j-i, runSpace) - 1) / 32)
		if j < len(s) && asciiClass[s[j]] == clsDigit {
			c[pSpacesDigit]++
		}
	case j < len(s) && asciiClass[s[j]] == clsDigit:
		c[pSpaceDigit]++
	case j < len(s) && s[j] >= utf8.RuneSelf:
		c[pSpaceWide]++
	}
	return j
}
