package main

// This file draws Markdown tables: rows held until the table ends, columns
// shared out to the terminal width, cells wrapped.

import (
	"bytes"
	"strings"
)

// isTableRow reports a line that could be a table row: it starts with |.
// Every line outside code is asked, so one that starts with an ASCII
// letter or mark other than | is told at its first byte, without trimming.
func isTableRow(s string) bool {
	if c, ok := firstByte(s); ok && c != '|' {
		return false
	}
	t := strings.TrimSpace(s)
	return len(t) > 1 && t[0] == '|'
}

// splitRow appends a table row's cells' text to cells, honouring \|.
func splitRow(cells []string, s string) []string {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = t[:len(t)-1]
	}
	start, esc := 0, false
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			esc = true
			i++
		case '|':
			cells = append(cells, cellText(t[start:i], esc))
			start, esc = i+1, false
		}
	}
	return append(cells, cellText(t[start:], esc))
}

// cellText is a cell's text, trimmed, \| unescaped when esc says the cell
// has a backslash: most have none, and are not searched for one again.
func cellText(s string, esc bool) string {
	if esc {
		s = strings.ReplaceAll(s, `\|`, "|")
	}
	return strings.TrimSpace(s)
}

// appendRow appends the n cells of the table row s to cells: a missing
// cell is empty, cells past the header's count are dropped.
func appendRow(cells []string, s string, n int) []string {
	k := len(cells)
	cells = splitRow(cells, s)
	for len(cells) < k+n {
		cells = append(cells, "")
	}
	return cells[:k+n]
}

// openTable opens a table when s is the delimiter row under the header
// row head. The cells are split into the scratch kept from the last
// table, so a table's rows cost no allocation of their own.
func (m *markdown) openTable(head, s string) bool {
	if !isTableRow(s) {
		return false
	}
	cells := splitRow(m.tcells[:0], head)
	n := len(cells)
	cells = splitRow(cells, s)
	m.tcells = cells
	al, ok := delimiterRow(m.align[:0], cells[n:], n)
	if !ok {
		return false
	}
	m.tcells, m.align, m.cols = cells[:n], al, n
	return true
}

// delimiterRow reports whether cells are the |---|:--:| row under a
// table's header of n columns, and appends the columns' alignment to al.
func delimiterRow(al []byte, cells []string, n int) ([]byte, bool) {
	if len(cells) != n {
		return al, false
	}
	for _, c := range cells {
		body := strings.Trim(c, ":")
		if len(body) == 0 || strings.Trim(body, "-") != "" {
			return al, false
		}
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			al = append(al, 'c')
		case strings.HasSuffix(c, ":"):
			al = append(al, 'r')
		default:
			al = append(al, 'l')
		}
	}
	return al, true
}

// endTable lays the open table out to the terminal's width and draws it:
// columns as wide as their widest cell when they fit, else shared out and
// the cells wrapped; the header bold, borders drawn with box characters.
func (m *markdown) endTable() {
	n := m.cols
	if n == 0 {
		return
	}
	m.cols = 0
	ps, ends := m.tpieces[:0], append(m.tends[:0], 0) // cell k's pieces: ps[ends[k]:ends[k+1]]
	natural := append(m.twidth[:0], make([]int, n)...)
	st := stBold // the header's
	for k, c := 0, 0; k < len(m.tcells); k, c = k+1, c+1 {
		if c == n { // the next row: counted, not k%n, a division per cell
			c, st = 0, 0
		}
		ps = m.inline(m.tcells[k], st, ps)
		ends = append(ends, len(ps))
		natural[c] = max(natural[c], piecesWidth(ps[ends[k]:]), 1)
	}
	m.tpieces, m.tends = ps, ends
	widths := fitColumns(natural, m.o.width())
	m.twidth = widths
	rows := len(m.tcells) / n
	m.border("┌", "┬", "┐", widths)
	for r := range rows {
		cellPieces := m.trow[:0]
		for k := r * n; k < (r+1)*n; k++ {
			cellPieces = append(cellPieces, ps[ends[k]:ends[k+1]])
		}
		m.trow = cellPieces
		m.tableRow(cellPieces, widths)
		if r == 0 && rows > 1 {
			m.border("├", "┼", "┤", widths)
		}
	}
	m.border("└", "┴", "┘", widths)
}

// fitColumns shares width (<= 0: unlimited) out among columns that want
// natural cells each: narrow columns keep their width, wide ones split the
// rest evenly. Borders take 3 cells a column and one more. When they fit
// the widths are natural itself, not a copy: tables mostly fit.
func fitColumns(natural []int, width int) []int {
	n := len(natural)
	avail := width - 3*n - 1
	if width <= 0 || widthSum(natural) <= avail {
		return natural
	}
	out := append([]int(nil), natural...)
	fixed := make([]bool, n)
	for left := n; left > 0; {
		share := max(avail/left, 1)
		changed := false
		for i, w := range natural {
			if !fixed[i] && w <= share {
				fixed[i], out[i], changed = true, w, true
				avail -= w
				left--
			}
		}
		if !changed {
			extra := max(avail-share*left, 0)
			for i := range natural {
				if !fixed[i] {
					out[i] = share
					if extra > 0 {
						out[i]++
						extra--
					}
				}
			}
			break
		}
	}
	return out
}

// widthSum adds widths up.
func widthSum(ws []int) int {
	n := 0
	for _, w := range ws {
		n += w
	}
	return n
}

// border draws a table's horizontal border.
func (m *markdown) border(left, mid, right string, widths []int) {
	if m.o.color {
		m.out = append(m.out, m.sgr(stRule)...)
	}
	m.out = append(m.out, left...)
	for i, w := range widths {
		if i > 0 {
			m.out = append(m.out, mid...)
		}
		m.out = appendRule(m.out, w+2)
	}
	m.out = append(m.out, right...)
	if m.o.color {
		m.out = append(m.out, "\x1b[0m"...)
	}
	m.out = append(m.out, '\n')
}

// tableRow draws one table row, its cells wrapped to their columns.
func (m *markdown) tableRow(cellPieces [][]piece, widths []int) {
	m.cell = m.cell[:0]
	m.spans = m.spans[:0]
	first := append(m.tfirst[:0], make([]int, len(widths)+1)...) // cell c's rows are spans[first[c]:first[c+1]]
	m.tfirst = first
	height := 1
	for c, ps := range cellPieces {
		first[c] = len(m.spans)
		m.cellLines(ps, widths[c], m.align[c])
		height = max(height, len(m.spans)-first[c])
	}
	first[len(widths)] = len(m.spans)
	bar := m.paint(m.bar[:0], stRule, "│")
	m.bar = bar
	for r := range height {
		m.out = append(m.out, bar...)
		for c, w := range widths {
			m.out = append(m.out, ' ')
			if k := first[c] + r; k < first[c+1] {
				m.out = append(m.out, m.cell[m.spans[k][0]:m.spans[k][1]]...)
			} else {
				m.out = append(m.out, spaces(w)...)
			}
			m.out = append(m.out, ' ')
			m.out = append(m.out, bar...)
		}
		m.out = append(m.out, '\n')
	}
}

// cellLines wraps a cell's pieces to w cells, each row padded to w, into
// m.cell, and records each row's span of it.
func (m *markdown) cellLines(ps []piece, w int, align byte) {
	out := m.out
	m.out = m.cell
	mark := len(m.out)
	justify := "left"
	switch align {
	case 'c':
		justify = "center"
	case 'r':
		justify = "right"
	}
	m.pad = true
	m.wrap(ps, "", "", w, justify)
	m.pad = false
	if len(m.out) == mark {
		m.out = append(m.out, spaces(w)...)
		m.out = append(m.out, '\n')
	}
	for i := mark; i < len(m.out); {
		j := i + bytes.IndexByte(m.out[i:], '\n')
		m.spans = append(m.spans, [2]int{i, j})
		i = j + 1
	}
	m.cell, m.out = m.out, out
}
