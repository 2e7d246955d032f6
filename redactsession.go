package main

import (
	"math"
	"strings"
	"sync"
)

// Runs of minRun characters are redacted wherever they are, but a model can
// ask for a key in pieces shorter than that, one tool call each (cut -c1-11,
// then cut -c12-22, ...), and put them together. So the session keeps
// count: every piece of fragMin characters or more of a secret's shapes
// that a tool result carries to the provider is recorded (which of the
// shape's characters it showed), and once the pieces shown come to
// fragBudget bytes of one secret, any piece that would show more is
// replaced by the mark. A piece shown before (the same result sent again
// in the next request, a page read twice) shows nothing new and stays.
// The count is kept over everything sent in this run (one session), in
// each shape by the secret's bytes a character stands for (hex: half).

// fragMin is the shortest piece of a shape that is counted: shorter ones
// are what any text shares with a key by chance. A piece of one class of
// characters (all digits, all letters) counts only from 2*minRun on, as a
// run does (skeletonKeyLike): seq's numbers are not a key's decimal bytes.
const fragMin = 5

// fragBudget is how many bytes of one secret a session's tool results may
// show in pieces, all together: one piece under minRun, never the rest.
const fragBudget = minRun - 1

// fragments is the session's count of the pieces of each secret shown.
type fragments struct {
	mu      sync.Mutex
	shapes  []weightedShape
	owner   []int               // the secret each shape is of
	min     []int               // the fewest characters of each shape counted (fragMin bytes' worth)
	public  []int               // the characters of each shape before the secret part (the own shape's "skproj" of "sk-proj-")
	grams   map[uint64][]gramAt // every fragMin-piece of every shape, at every offset
	shown   [][]bool            // which characters of each shape were shown
	spent   []float64           // bytes shown of each secret
	budget  []float64           // bytes each secret may show
	present bool
}

// newFragments counts the pieces of the secrets raw that are keys: a run of
// them would be redacted (keyLike, minRun or more); a secret of words or a
// short one is redacted whole and not counted in pieces.
func newFragments(raw []string) *fragments {
	f := &fragments{grams: map[uint64][]gramAt{}}
	n := 0
	for _, s := range raw {
		s = strings.TrimSpace(s)
		own := skeletonBytes([]byte(s))
		if len(own) < minRun || !keyLike([]byte(s)) {
			continue
		}
		f.spent = append(f.spent, 0)
		f.budget = append(f.budget, math.Min(fragBudget, float64(len(own))/2))
		own0 := true
		for _, w := range weightedShapes(s) {
			k := len(f.shapes)
			pub := 0
			if own0 { // the first shape is the secret's own skeleton
				pub, own0 = len(skeletonBytes([]byte(publicPrefix(s)))), false
			}
			f.public = append(f.public, pub)
			f.shapes, f.owner = append(f.shapes, w), append(f.owner, n)
			f.min = append(f.min, max(fragMin, int(math.Ceil(fragMin/w.per))))
			f.shown = append(f.shown, make([]bool, len(w.b)))
			for off := 0; off+fragMin <= len(w.b); off++ {
				g := fragKey(w.b[off:])
				f.grams[g] = append(f.grams[g], gramAt{k, off})
			}
		}
		n++
	}
	f.present = n > 0
	return f
}

// publicPrefix is the start of a key that names its kind, not its secret:
// lower-case words each ending with '-' or '_' in its first 16 bytes
// ("sk-proj-", "ghp_", "xoxb-").
func publicPrefix(s string) string {
	end := 0
	for i := 0; i < len(s) && i < 16; i++ {
		c := s[i]
		if c == '-' || c == '_' {
			end = i + 1
		} else if c < 'a' || c > 'z' {
			break
		}
	}
	return s[:end]
}

// fragKey packs the first fragMin bytes of b into a number.
func fragKey(b []byte) uint64 {
	var g uint64
	for _, c := range b[:fragMin] {
		g = g<<8 | uint64(c)
	}
	return g
}

// track is text, a tool result about to be sent, with every piece that
// would take a secret past its budget replaced by the mark; the pieces it
// keeps are counted as shown.
func (f *fragments) track(text string) string {
	if f == nil || !f.present || len(text) < fragMin {
		return text
	}
	data := []byte(text)
	var sk skeleton
	sk.build(data, false)
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []byte
	last := 0
	for p := 0; p+fragMin <= len(sk.b); {
		k, off, n := f.longest(sk.b, p)
		if n == 0 {
			p++
			continue
		}
		start, end := int(sk.at[p]), charEnd(data, int(sk.at[p+n-1]))
		if !skeletonKeyLike(&sk, data, p, p+n) { // one class of characters: what words share by chance, so shown, but counted
			f.spend(k, off, n)
			p += n
			continue
		}
		if f.show(k, off, n) {
			p += n
			continue
		}
		out = append(append(out, data[last:start]...), redactedMark...)
		last = end
		p += n
	}
	if out == nil {
		return text
	}
	return string(append(out, data[last:]...))
}

// longest is the longest piece of a shape that sk starts at p with, at
// least that shape's fewest characters counted: the shape, the offset in
// it and the length; n is 0 when there is none.
func (f *fragments) longest(sk []byte, p int) (k, off, n int) {
	if sk[p] == 0 {
		return 0, 0, 0
	}
	for _, g := range f.grams[fragKey(sk[p:])] {
		sh := f.shapes[g.k].b
		m := fragMin
		for p+m < len(sk) && g.off+m < len(sh) && sk[p+m] == sh[g.off+m] {
			m++
		}
		if m >= f.min[g.k] && m > n {
			k, off, n = g.k, g.off, m
		}
	}
	return k, off, n
}

// show counts the piece of shape k at off, n characters long, as shown,
// unless it shows more of its secret than is left of the budget: then it
// reports false and counts nothing.
func (f *fragments) show(k, off, n int) bool {
	shown := f.shown[k][off : off+n]
	fresh := 0
	for _, s := range shown {
		if !s {
			fresh++
		}
	}
	if fresh == 0 {
		return true
	}
	cost := float64(fresh) * f.shapes[k].per
	if o := f.owner[k]; f.spent[o]+cost > f.budget[o]+1e-9 {
		return false
	}
	f.spend(k, off, n)
	return true
}

// spend counts the piece of shape k at off, n characters long, as shown,
// whatever is left of the budget: a piece of one class of characters (the
// key's lower-case start "sk-attac") is shown, as words share such pieces
// by chance, but what it shows is spent, so the next piece in another
// shape does not show 8 more bytes (attack report B13).
func (f *fragments) spend(k, off, n int) {
	shown := f.shown[k][off : off+n]
	for i, s := range shown {
		if !s && off+i >= f.public[k] {
			f.spent[f.owner[k]] += f.shapes[k].per
			shown[i] = true
		}
	}
}
