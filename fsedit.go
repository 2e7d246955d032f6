package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// editParams is fs_edit_file's schema: one replacement, several (edits,
// all or none), or a range of lines.
const editParams = `{"type":"object","properties":{"file_path":{"type":"string"},` +
	`"old_text":{"type":"string","description":"the text to replace, copied from the file"},"new_text":{"type":"string"},"replace_all":{"type":"boolean"},` +
	`"edits":{"type":"array","description":"several replacements in order, applied all or none","items":{"type":"object","properties":{"old_text":{"type":"string"},"new_text":{"type":"string"},"replace_all":{"type":"boolean"}},"required":["old_text","new_text"]}},` +
	`"start_line":{"type":"integer"},"end_line":{"type":"integer"},"dry_run":{"type":"boolean"}},"required":["file_path"]}`

// editDesc is fs_edit_file's description.
const editDesc = "Edit a file: replace old_text with new_text (one match unless replace_all; a unique match that differs only in whitespace or indentation is taken, re-indented), " +
	"several replacements at once in edits (all or none), or lines start_line..end_line. dry_run returns the result unwritten."

// editFile is fs_edit_file: replace text (old_text -> new_text, or each of
// edits in order, all or none) or lines (start_line..end_line ->
// new_text); dry_run shows the result without writing. The file is read
// and written through one handle; a file changed since the model last
// read or wrote it is refused with its current lines.
func editFile(ctx context.Context, args map[string]any, out io.Writer) error {
	dry := argBool(args, "dry_run")
	flags := os.O_RDWR
	if dry {
		flags = os.O_RDONLY
	}
	f, path, err := judgedFile(args, flags)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	named, seen := argString(args, "file_path", path), seenIn(ctx)
	if seen.changed(named, st) {
		seen.saw(named, st) // the refusal shows the current lines: the next edit is against them
		return errors.New(staleNote(string(b), path, args))
	}
	updated, notes, err := edited(string(b), path, args)
	if err != nil {
		return err
	}
	if dry {
		return writeJSON(out, map[string]any{"path": path, "success": true, "dry_run": true, "new_content": updated})
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(updated), 0); err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil {
		seen.saw(named, st)
	}
	if err := f.Close(); err != nil {
		return err
	}
	res := map[string]any{"path": path, "success": true, "bytes_written": len(updated)}
	if len(notes) > 0 {
		res["note"] = strings.Join(notes, "; ")
	}
	return writeJSON(out, res)
}

// edit is one replacement of an fs_edit_file call.
type edit struct {
	old, new string
	all      bool
}

// editsOf is the replacements args asks for: edits, or old_text and
// new_text; none when it asks for lines.
func editsOf(args map[string]any) ([]edit, error) {
	if list, ok := args["edits"].([]any); ok && len(list) > 0 {
		out := make([]edit, 0, len(list))
		for i, v := range list {
			m, ok := v.(map[string]any)
			_, hasNew := m["new_text"].(string)
			if !ok || argString(m, "old_text", "") == "" || !hasNew {
				return nil, fmt.Errorf("edit %d of %d needs old_text and new_text (strings); nothing was changed", i+1, len(list))
			}
			out = append(out, edit{old: argString(m, "old_text", ""), new: argString(m, "new_text", ""), all: argBool(m, "replace_all")})
		}
		return out, nil
	}
	if old := argString(args, "old_text", ""); old != "" {
		return []edit{{old: old, new: argString(args, "new_text", ""), all: argBool(args, "replace_all")}}, nil
	}
	return nil, nil
}

// edited is old with the edits args asks for applied, each in turn to
// the result of the last; notes say where a match was not exact. Any
// edit that cannot be placed fails them all.
func edited(old, path string, args map[string]any) (string, []string, error) {
	edits, err := editsOf(args)
	if err != nil {
		return "", nil, err
	}
	if len(edits) == 0 {
		if argInt(args, "start_line", 0) > 0 {
			s, err := editLines(old, path, args)
			return s, nil, err
		}
		return "", nil, errors.New("give old_text and new_text, edits (a list of them), or start_line, end_line and new_text")
	}
	text, notes := old, []string(nil)
	for i, e := range edits {
		next, note, err := applyEdit(text, path, e)
		if err != nil {
			if len(edits) > 1 {
				err = fmt.Errorf("edit %d of %d: %w; none of the %d edits was applied", i+1, len(edits), err, len(edits))
			}
			return "", nil, err
		}
		if note != "" {
			if len(edits) > 1 {
				note = fmt.Sprintf("edit %d: %s", i+1, note)
			}
			notes = append(notes, note)
		}
		text = next
	}
	return text, notes, nil
}

// editLines replaces lines start_line..end_line with new_text.
func editLines(old, path string, args map[string]any) (string, error) {
	newText := argString(args, "new_text", "")
	lines := strings.SplitAfter(old, "\n")
	start, end := argInt(args, "start_line", 0), argInt(args, "end_line", 0)
	if end < start {
		end = start
	}
	if start > len(lines) || end > len(lines) {
		return "", fmt.Errorf("lines %d-%d are outside %s (%d lines)", start, end, path, len(lines))
	}
	eol := dominantEOL(old)
	newText = withEOL(newText, eol)
	if newText != "" && !strings.HasSuffix(newText, "\n") && end < len(lines) {
		newText += eol
	}
	return strings.Join(lines[:start-1], "") + newText + strings.Join(lines[end:], ""), nil
}

// applyEdit places one replacement in text: exactly; else line by line
// ignoring trailing whitespace, then indentation, then runs of inner
// whitespace (the strictest way that finds it, when it finds it once or
// e.all); else with the slips small models make undone (escaped
// newlines, line numbers copied from a result). A miss names the closest
// lines and the call that reads them.
func applyEdit(text, path string, e edit) (string, string, error) {
	for _, v := range variants(e) {
		out, note, err, found := placeEdit(text, path, v)
		if found {
			if note != "" && v.why != "" {
				note = v.why + ", " + note
			} else if v.why != "" {
				note = v.why
			}
			return out, note, err
		}
	}
	return "", "", errors.New(missNote(text, path, e.old))
}

// editVariant is a reading of an edit: as given, or with a slip undone.
type editVariant struct {
	edit
	why string // the slip undone; "" as given
}

// numberedRe is a line as numbered results show it (numberLines).
var numberedRe = regexp.MustCompile(`^ *\d+\|`)

// variants are the readings of e to try, as given first.
func variants(e edit) []editVariant {
	vs := []editVariant{{edit: e}}
	if !strings.Contains(e.old, "\n") && (strings.Contains(e.old, `\n`) || strings.Contains(e.old, `\t`)) {
		u := e
		u.old = unescapeText(e.old)
		if !strings.Contains(e.new, "\n") {
			u.new = unescapeText(e.new)
		}
		vs = append(vs, editVariant{edit: u, why: `old_text's \n escapes read as line breaks`})
	}
	if lines := strings.Split(strings.TrimRight(e.old, "\n"), "\n"); allNumbered(lines) {
		u := e
		u.old = stripNumbers(e.old)
		if allNumbered(strings.Split(strings.TrimRight(e.new, "\n"), "\n")) {
			u.new = stripNumbers(e.new)
		}
		vs = append(vs, editVariant{edit: u, why: "line numbers left out of old_text"})
	}
	return vs
}

// allNumbered reports whether every non-blank line starts with a line
// number as numberLines writes it.
func allNumbered(lines []string) bool {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !numberedRe.MatchString(l) {
			return false
		}
		n++
	}
	return n > 0
}

// stripNumbers takes numberLines' prefixes off s's lines.
func stripNumbers(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = numberedRe.ReplaceAllString(l, "")
	}
	return strings.Join(lines, "\n")
}

// unescapeText turns the JSON escapes a model wrote twice (\n \t \r \"
// \\) into what they stand for.
func unescapeText(s string) string {
	r := strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", `\r`, "", `\"`, `"`)
	return r.Replace(s)
}

// placeEdit tries v in text: found is false when it is nowhere.
func placeEdit(text, path string, v editVariant) (out, note string, err error, found bool) {
	eol := dominantEOL(text)
	if n := strings.Count(text, v.old); n > 0 {
		if n > 1 && !v.all {
			return "", "", fmt.Errorf("old_text occurs %d times in %s (at lines %s); add lines around it to make it unique, or set replace_all; nothing was changed",
				n, path, lineList(exactLines(text, v.old))), true
		}
		return strings.ReplaceAll(text, v.old, withEOL(v.new, eol)), "", nil, true
	}
	fl := splitLines(text)
	oldLines, newLines := trimBlankEnds(editLinesOf(v.old), editLinesOf(v.new))
	if len(oldLines) == 0 {
		return "", "", nil, false
	}
	for level := 1; level <= 3; level++ {
		at := fl.find(oldLines, level)
		if len(at) == 0 {
			continue
		}
		if len(at) > 1 && !v.all {
			return "", "", fmt.Errorf("old_text was not found exactly, and ignoring %s it matches %d places in %s (lines %s); add lines around it to make it unique, or set replace_all; nothing was changed",
				levelWords[level], len(at), path, lineList(plusOne(at))), true
		}
		return fl.replace(at, len(oldLines), oldLines, newLines), fmt.Sprintf("old_text matched line %s ignoring %s", lineList(plusOne(at)), levelWords[level]), nil, true
	}
	return "", "", nil, false
}

// levelWords says what each level of the line match ignores.
var levelWords = [...]string{1: "trailing whitespace and line endings", 2: "indentation (new_text re-indented to match)", 3: "runs of whitespace"}

// editLinesOf splits s into lines without their endings; a final line
// break ends the last line rather than opening an empty one.
func editLinesOf(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// trimBlankEnds drops blank lines at the ends of old, and as many at the
// same ends of new: a model often pads both with an empty line.
func trimBlankEnds(old, new []string) ([]string, []string) {
	for len(old) > 0 && strings.TrimSpace(old[0]) == "" {
		old = old[1:]
		if len(new) > 0 && strings.TrimSpace(new[0]) == "" {
			new = new[1:]
		}
	}
	for len(old) > 0 && strings.TrimSpace(old[len(old)-1]) == "" {
		old = old[:len(old)-1]
		if len(new) > 0 && strings.TrimSpace(new[len(new)-1]) == "" {
			new = new[:len(new)-1]
		}
	}
	return old, new
}

// fileLines is a file's text as lines: each line's text (no ending) and
// its ending ("\n", "\r\n" or "" for the last).
type fileLines struct {
	text []string
	eol  []string
}

// splitLines splits text into fileLines.
func splitLines(text string) fileLines {
	var fl fileLines
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			fl.text, fl.eol = append(fl.text, text), append(fl.eol, "")
			break
		}
		line, end := text[:i], "\n"
		if strings.HasSuffix(line, "\r") {
			line, end = line[:len(line)-1], "\r\n"
		}
		fl.text, fl.eol = append(fl.text, line), append(fl.eol, end)
		text = text[i+1:]
	}
	return fl
}

// lineForm is a line as a level of the match compares it.
func lineForm(s string, level int) string {
	switch level {
	case 1:
		return strings.TrimRight(s, " \t\r")
	case 2:
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// find is where old's lines stand in fl at level (0-based starts, not
// overlapping): for levels past 1, only where old's indentation maps to
// the file's one way and keeps its order (indentMap).
func (fl fileLines) find(old []string, level int) []int {
	want := make([]string, len(old))
	for i, l := range old {
		want[i] = lineForm(l, level)
	}
	var at []int
	for j := 0; j+len(old) <= len(fl.text); j++ {
		if len(at) > 0 && j < at[len(at)-1]+len(old) {
			continue
		}
		ok := true
		for i := range old {
			if lineForm(fl.text[j+i], level) != want[i] {
				ok = false
				break
			}
		}
		if ok && level > 1 {
			_, ok = indentMap(old, fl.text[j:j+len(old)])
		}
		if ok {
			at = append(at, j)
		}
	}
	return at
}

// replace puts newLines in place of the n lines at each start, each
// re-indented as its match is indented and ended as the file ends lines.
func (fl fileLines) replace(at []int, n int, old, newLines []string) string {
	var b strings.Builder
	next := 0
	for _, j := range at {
		for i := next; i < j; i++ {
			b.WriteString(fl.text[i] + fl.eol[i])
		}
		eol := fl.eol[j]
		if eol == "" {
			eol = fl.eolOr("\n")
		}
		m, _ := indentMap(old, fl.text[j:j+n])
		m.units(append(append([]string(nil), old...), newLines...), fl.text)
		for i, l := range newLines {
			b.WriteString(m.apply(strings.TrimRight(l, "\r")))
			if i < len(newLines)-1 || fl.eol[j+n-1] != "" {
				b.WriteString(eol)
			}
		}
		next = j + n
	}
	for i := next; i < len(fl.text); i++ {
		b.WriteString(fl.text[i] + fl.eol[i])
	}
	return b.String()
}

// eolOr is the file's first line ending, or def.
func (fl fileLines) eolOr(def string) string {
	for _, e := range fl.eol {
		if e != "" {
			return e
		}
	}
	return def
}

// indentOf is s's leading whitespace.
func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// reindent maps the indentation the model wrote to the file's: exact
// indents seen in old_text, and for others the model's unit of indent
// (spaces or a tab) counted in the file's unit, shifted by as many levels
// as the match was.
type reindent struct {
	exact     map[string]string
	modelUnit string    // one level as the model wrote it
	fileUnit  string    // one level as the file has it
	shift     int       // levels the file is deeper than the model's text
	first     [2]string // the first pair of indents: the model's, the file's
	identity  bool
}

// indentMap is how old's indentation maps to the lines it matched; ok is
// false when it does not map one way, or reverses an order (a deeper
// line of old_text matched a shallower one).
func indentMap(old, matched []string) (reindent, bool) {
	r := reindent{exact: map[string]string{}, identity: true}
	type pair struct{ m, f string }
	var pairs []pair
	for i, l := range old {
		if strings.TrimSpace(l) == "" {
			continue
		}
		mi, fi := indentOf(l), indentOf(matched[i])
		if prev, ok := r.exact[mi]; ok && prev != fi {
			return r, false
		}
		r.exact[mi] = fi
		r.identity = r.identity && mi == fi
		pairs = append(pairs, pair{mi, fi})
	}
	for _, a := range pairs {
		for _, b := range pairs {
			if len(a.m) < len(b.m) && !(indentWidth(a.f) < indentWidth(b.f)) {
				return r, false
			}
		}
	}
	if r.identity || len(pairs) == 0 {
		return r, true
	}
	r.first = [2]string{pairs[0].m, pairs[0].f}
	return r, true
}

// units sets the units of indent, the model's from its lines (old_text
// and new_text) and the file's from the whole file, and the shift
// between them.
func (r *reindent) units(model, file []string) {
	if r.identity {
		return
	}
	r.modelUnit, r.fileUnit = unitOf(model), unitOf(file)
	r.shift = levels(r.first[1], r.fileUnit) - levels(r.first[0], r.modelUnit)
}

// apply re-indents one line of new_text.
func (r reindent) apply(line string) string {
	if r.identity || strings.TrimSpace(line) == "" {
		return line
	}
	in := indentOf(line)
	if f, ok := r.exact[in]; ok {
		return f + line[len(in):]
	}
	n := max(levels(in, r.modelUnit)+r.shift, 0)
	return strings.Repeat(r.fileUnit, n) + line[len(in):]
}

// indentWidth is an indent's width in columns, a tab as four.
func indentWidth(s string) int {
	return len(strings.ReplaceAll(s, "\t", "    "))
}

// unitOf guesses one level of indent from lines: a tab when most
// indented lines start with one, else the most common step in spaces
// between one line and the next deeper one (four when there is none).
func unitOf(lines []string) string {
	tabbed, spaced := 0, 0
	steps := map[int]int{}
	prev := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		in := indentOf(l)
		switch {
		case strings.HasPrefix(in, "\t"):
			tabbed++
		case in != "":
			spaced++
		}
		w := indentWidth(in)
		if prev >= 0 && w > prev {
			steps[w-prev]++
		}
		prev = w
	}
	if tabbed > spaced {
		return "\t"
	}
	unit, most := 0, 0
	for d, n := range steps {
		if n > most || n == most && d < unit {
			unit, most = d, n
		}
	}
	if unit == 0 {
		unit = 4
	}
	return strings.Repeat(" ", unit)
}

// levels is how many units deep indent is (tabs count one each).
func levels(indent, unit string) int {
	tabs := strings.Count(indent, "\t")
	spaces := len(indent) - tabs
	if unit == "\t" {
		return tabs + spaces/4
	}
	return tabs + spaces/max(len(unit), 1)
}

// dominantEOL is "\r\n" when most of text's lines end so, else "\n".
func dominantEOL(text string) string {
	crlf := strings.Count(text, "\r\n")
	if crlf > 0 && crlf*2 > strings.Count(text, "\n") {
		return "\r\n"
	}
	return "\n"
}

// withEOL ends s's lines with eol.
func withEOL(s, eol string) string {
	if eol == "\n" {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", eol)
}

// exactLines is the 1-based lines where find starts in text.
func exactLines(text, find string) []int {
	var out []int
	for i, off := 0, 0; ; {
		j := strings.Index(text[off:], find)
		if j < 0 {
			return out
		}
		i += strings.Count(text[off:off+j], "\n")
		out = append(out, i+1)
		off += j + max(len(find), 1)
		i += strings.Count(find, "\n")
	}
}

// plusOne is 0-based line indexes as 1-based line numbers.
func plusOne(at []int) []int {
	out := make([]int, len(at))
	for i, j := range at {
		out[i] = j + 1
	}
	return out
}

// lineList renders line numbers, the first ten.
func lineList(ns []int) string {
	var parts []string
	for i, n := range ns {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ns)-10))
			break
		}
		parts = append(parts, fmt.Sprint(n))
	}
	return strings.Join(parts, ", ")
}

// numberLines renders lines from..to (1-based, inclusive) of fl as
// "   N|text", the form results show lines in (numberedRe).
func (fl fileLines) numberLines(from, to int) string {
	var b strings.Builder
	for n := max(from, 1); n <= min(to, len(fl.text)); n++ {
		fmt.Fprintf(&b, "%4d|%s\n", n, fl.text[n-1])
	}
	return b.String()
}

// readCallFor is the fs_read_file call that reads lines from..to of text
// (1-based, inclusive): its offset and limit count characters.
func readCallFor(text, path string, from, to int) string {
	offset, limit, line := 0, 0, 1
	for _, r := range text {
		switch {
		case line < from:
			offset++
		case line <= to:
			limit++
		}
		if r == '\n' {
			line++
		}
	}
	return readMoreCall([]string{path}, offset, limit)
}

// closest is the window of fl most like old's lines: its 0-based start
// and how alike it is (0 to 1, by each line's character bigrams).
func (fl fileLines) closest(old []string) (int, float64) {
	if len(old) == 0 || len(fl.text) == 0 {
		return 0, 0
	}
	want := make([]map[string]int, len(old))
	for i, l := range old {
		want[i] = bigrams(lineForm(l, 3))
	}
	have := make([]map[string]int, len(fl.text))
	best, bestScore := 0, -1.0
	for j := 0; j < len(fl.text); j++ {
		score := 0.0
		for i := range old {
			if j+i >= len(fl.text) {
				break
			}
			if have[j+i] == nil {
				have[j+i] = bigrams(lineForm(fl.text[j+i], 3))
			}
			score += dice(want[i], have[j+i])
		}
		if score > bestScore {
			best, bestScore = j, score
		}
	}
	return best, bestScore / float64(len(old))
}

// bigrams counts s's pairs of characters.
func bigrams(s string) map[string]int {
	m := map[string]int{}
	r := []rune(s)
	for i := 0; i+1 < len(r); i++ {
		m[string(r[i:i+2])]++
	}
	if len(r) == 1 {
		m[s]++
	}
	return m
}

// dice is the Sørensen–Dice likeness of two bigram counts.
func dice(a, b map[string]int) float64 {
	na, nb, both := 0, 0, 0
	for k, n := range a {
		na += n
		both += min(n, b[k])
	}
	for _, n := range b {
		nb += n
	}
	if na+nb == 0 {
		return 1
	}
	return 2 * float64(both) / float64(na+nb)
}

// missNote says that old was not found in text, shows the closest lines
// with their numbers and gives the call that reads them.
func missNote(text, path, old string) string {
	fl := splitLines(text)
	lines, _ := trimBlankEnds(editLinesOf(old), nil)
	j, score := fl.closest(lines)
	if len(fl.text) == 0 || score < 0.3 {
		return fmt.Sprintf("old_text was not found in %s (%d lines), and no lines are like it; nothing was changed. Copy old_text from the file; %s",
			path, len(fl.text), readCallFor(text, path, 1, min(len(fl.text), 60)))
	}
	from, to := j+1-2, j+len(lines)+2
	from, to = max(from, 1), min(to, len(fl.text))
	if to-from > 60 {
		to = from + 60
	}
	return fmt.Sprintf("old_text was not found in %s, even ignoring whitespace and indentation; nothing was changed. The closest lines are %d-%d:\n%s"+
		"Copy old_text from these lines (without the numbers and the |); %s",
		path, from, to, fl.numberLines(from, to), readCallFor(text, path, from, to))
}

// staleNote refuses an edit of a file that changed since the model last
// saw it, with the current lines the edit is about: those its old_text is
// closest to, or its range of lines, or the whole of a short file.
func staleNote(text, path string, args map[string]any) string {
	fl := splitLines(text)
	from, to := 1, len(fl.text)
	edits, _ := editsOf(args)
	switch {
	case len(fl.text) <= 40:
	case len(edits) > 0:
		lines, _ := trimBlankEnds(editLinesOf(edits[0].old), nil)
		j, _ := fl.closest(lines)
		from, to = j+1-3, j+len(lines)+3
	case argInt(args, "start_line", 0) > 0:
		from, to = argInt(args, "start_line", 0)-3, max(argInt(args, "end_line", 0), argInt(args, "start_line", 0))+3
	}
	from, to = max(from, 1), min(to, len(fl.text), max(from, 1)+60)
	return fmt.Sprintf("%s changed since you last read or wrote it; nothing was changed. Its current lines %d-%d (of %d):\n%s"+
		"Make the edit against the file as it is now; %s",
		path, from, to, len(fl.text), fl.numberLines(from, to), readCallFor(text, path, from, to))
}
