package main

import (
	"bufio"
	gguf "encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// The real-server tests serve a model they make themselves: a llama with
// random weights, too small to say anything sensible but real in every way
// that matters to yaicli. Its tokenizer is the real Llama 3 one cut to its
// first tinyVocab ranks (the merges that stay inside them kept, in order):
// English, Go and JSON cost it 5-9% more tokens than Llama 3 (prose, `go
// help build`, a Go file, package.json, the README), and the server's work,
// which grows with the vocabulary (decoding it on every /api/show and load,
// a logit per token of it), shrinks fourfold. Its template decides what the
// server counts, and the server runs, cuts and reports it as it would any
// model.

// tinyLlama is the shape of the generated model: 64-dim, 2 layers, 4 heads
// and 2 KV heads; about 6 MB, almost all of it the embedding and the vocabulary.
const (
	tinyDim     = 64
	tinyLayers  = 2
	tinyHeads   = 4
	tinyKVHeads = 2
	tinyFFN     = 128
	tinyTrained = 131072 // llama.context_length: the window it claims to be trained for
	ggufAlign   = 32
	tinyVocab   = 32768 // the ranks kept: the 256 bytes and the first merges
)

// GGUF metadata value types.
const (
	ggufUint32  = 4
	ggufInt32   = 5
	ggufFloat32 = 6
	ggufString  = 8
	ggufArray   = 9
)

// GGUF tensor types.
const (
	ggmlF32 = 0
	ggmlF16 = 1
)

// llama3Specials are Llama 3's 256 special tokens, which follow the normal
// ones (ids 128000-128255 in the whole vocabulary).
func llama3Specials() []string {
	named := []string{"<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>",
		"<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|reserved_special_token_2|>",
		"<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>"}
	for i := 3; len(named) < 256; i++ {
		named = append(named, fmt.Sprintf("<|reserved_special_token_%d|>", i))
	}
	return named
}

// llama3Vocab reads the Llama 3 vocabulary (encoder.json: token -> id) and
// merges (vocab.bpe) from dir, the ollama module's tokenizer/testdata/llama3.2,
// keeps the tokens of the first n ranks and the merges that make one of
// them from two of them, and appends the special tokens. A byte-level BPE
// ranks its 256 bytes first, so any text still has a tokenization.
func llama3Vocab(dir string, n int) (tokens []string, merges []string, err error) {
	b, err := os.ReadFile(filepath.Join(dir, "encoder.json"))
	if err != nil {
		return nil, nil, err
	}
	var ids map[string]int
	if err := json.Unmarshal(b, &ids); err != nil {
		return nil, nil, fmt.Errorf("encoder.json: %w", err)
	}
	tokens = make([]string, min(n, len(ids)))
	for tok, id := range ids {
		if id < 0 || id >= len(ids) {
			return nil, nil, fmt.Errorf("encoder.json: id %d out of range", id)
		}
		if id < len(tokens) {
			tokens[id] = tok
		}
	}
	kept := make(map[string]bool, len(tokens))
	for _, tok := range tokens {
		kept[tok] = true
	}
	f, err := os.Open(filepath.Join(dir, "vocab.bpe"))
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if a, b, ok := strings.Cut(line, " "); ok && kept[a] && kept[b] && kept[a+b] {
			merges = append(merges, line)
		}
	}
	return append(tokens, llama3Specials()...), merges, sc.Err()
}

// ggufWriter writes GGUF v3 little-endian, keeping the first error.
type ggufWriter struct {
	w   *bufio.Writer
	n   int64 // bytes written
	err error
}

// raw writes v in little-endian order.
func (g *ggufWriter) raw(v any) {
	if g.err == nil {
		g.err = gguf.Write(g.w, gguf.LittleEndian, v)
		g.n += int64(gguf.Size(v))
	}
}

// str writes a GGUF string: its length as uint64, then the bytes.
func (g *ggufWriter) str(s string) {
	g.raw(uint64(len(s)))
	if g.err == nil {
		_, g.err = g.w.WriteString(s)
		g.n += int64(len(s))
	}
}

// kv writes one metadata pair; v is uint32, int32, float32, string,
// []string or []int32.
func (g *ggufWriter) kv(key string, v any) {
	g.str(key)
	switch t := v.(type) {
	case uint32:
		g.raw(uint32(ggufUint32))
		g.raw(t)
	case float32:
		g.raw(uint32(ggufFloat32))
		g.raw(t)
	case string:
		g.raw(uint32(ggufString))
		g.str(t)
	case []string:
		g.raw(uint32(ggufArray))
		g.raw(uint32(ggufString))
		g.raw(uint64(len(t)))
		for _, s := range t {
			g.str(s)
		}
	case []int32:
		g.raw(uint32(ggufArray))
		g.raw(uint32(ggufInt32))
		g.raw(uint64(len(t)))
		g.raw(t)
	default:
		g.err = fmt.Errorf("gguf: no encoding for %T", v)
	}
}

// pad writes zeros up to the next multiple of ggufAlign.
func (g *ggufWriter) pad() {
	for g.n%ggufAlign != 0 && g.err == nil {
		g.raw(uint8(0))
	}
}

// ggufTensor is one tensor: dims innermost first, as GGUF stores them.
type ggufTensor struct {
	name string
	dims []uint64
	typ  uint32 // ggmlF32 for norms, ggmlF16 for weights
}

// bytes is the tensor's data size.
func (t ggufTensor) bytes() int64 {
	n := int64(1)
	for _, d := range t.dims {
		n *= int64(d)
	}
	if t.typ == ggmlF16 {
		return 2 * n
	}
	return 4 * n
}

// tinyTensors lists the llama tensors; the output layer is tied to the
// embedding (no output.weight), as in Llama 3.2.
func tinyTensors(vocab int) []ggufTensor {
	kv := uint64(tinyDim / tinyHeads * tinyKVHeads)
	ts := []ggufTensor{
		{"token_embd.weight", []uint64{tinyDim, uint64(vocab)}, ggmlF16},
		{"output_norm.weight", []uint64{tinyDim}, ggmlF32},
	}
	for i := 0; i < tinyLayers; i++ {
		p := fmt.Sprintf("blk.%d.", i)
		ts = append(ts,
			ggufTensor{p + "attn_norm.weight", []uint64{tinyDim}, ggmlF32},
			ggufTensor{p + "attn_q.weight", []uint64{tinyDim, tinyDim}, ggmlF16},
			ggufTensor{p + "attn_k.weight", []uint64{tinyDim, kv}, ggmlF16},
			ggufTensor{p + "attn_v.weight", []uint64{tinyDim, kv}, ggmlF16},
			ggufTensor{p + "attn_output.weight", []uint64{tinyDim, tinyDim}, ggmlF16},
			ggufTensor{p + "ffn_norm.weight", []uint64{tinyDim}, ggmlF32},
			ggufTensor{p + "ffn_gate.weight", []uint64{tinyDim, tinyFFN}, ggmlF16},
			ggufTensor{p + "ffn_up.weight", []uint64{tinyDim, tinyFFN}, ggmlF16},
			ggufTensor{p + "ffn_down.weight", []uint64{tinyFFN, tinyDim}, ggmlF16},
		)
	}
	return ts
}

// writeTinyLlama writes the model as GGUF v3 to w: metadata, tensor
// infos, then the data, with norms of one and random weights (seeded, so
// every run serves the same model; another seed is another model, with a
// runner of its own: Ollama runs models of one file in one runner, which
// /api/ps lists under the name that loaded it).
func writeTinyLlama(w io.Writer, tokens, merges []string, seed uint64) error {
	g := &ggufWriter{w: bufio.NewWriterSize(w, 1<<20)}
	normal := len(tokens) - len(llama3Specials())
	types := make([]int32, len(tokens))
	for i := range types {
		types[i] = 1 // normal
		if i >= normal {
			types[i] = 3 // control
		}
	}
	tensors := tinyTensors(len(tokens))
	meta := []struct {
		k string
		v any
	}{
		{"general.architecture", "llama"},
		{"general.name", "yaicli tiny llama"},
		{"general.file_type", uint32(1)}, // mostly F16
		{"llama.context_length", uint32(tinyTrained)},
		{"llama.embedding_length", uint32(tinyDim)},
		{"llama.block_count", uint32(tinyLayers)},
		{"llama.feed_forward_length", uint32(tinyFFN)},
		{"llama.attention.head_count", uint32(tinyHeads)},
		{"llama.attention.head_count_kv", uint32(tinyKVHeads)},
		{"llama.rope.dimension_count", uint32(tinyDim / tinyHeads)},
		{"llama.rope.freq_base", float32(500000)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"llama.vocab_size", uint32(len(tokens))},
		{"tokenizer.ggml.model", "gpt2"},
		{"tokenizer.ggml.pre", "llama-bpe"},
		{"tokenizer.ggml.tokens", tokens},
		{"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.merges", merges},
		{"tokenizer.ggml.bos_token_id", uint32(normal)},     // <|begin_of_text|>
		{"tokenizer.ggml.eos_token_id", uint32(normal + 9)}, // <|eot_id|>
	}
	g.w.WriteString("GGUF")
	g.n += 4
	g.raw(uint32(3))
	g.raw(uint64(len(tensors)))
	g.raw(uint64(len(meta)))
	for _, m := range meta {
		g.kv(m.k, m.v)
	}
	var off uint64
	for _, t := range tensors {
		g.str(t.name)
		g.raw(uint32(len(t.dims)))
		g.raw(t.dims)
		g.raw(t.typ)
		g.raw(off)
		off += uint64((t.bytes() + ggufAlign - 1) / ggufAlign * ggufAlign)
	}
	g.pad()
	rng := rand.New(rand.NewPCG(22, seed))
	for _, t := range tensors {
		writeTensorData(g, t, rng)
		g.pad()
	}
	if g.err != nil {
		return g.err
	}
	return g.w.Flush()
}

// writeTensorData writes ones for a norm, small normal noise for a weight.
func writeTensorData(g *ggufWriter, t ggufTensor, rng *rand.Rand) {
	if t.typ == ggmlF32 {
		ones := make([]float32, t.bytes()/4)
		for i := range ones {
			ones[i] = 1
		}
		g.raw(ones)
		return
	}
	buf := make([]uint16, 1<<16)
	for left := t.bytes() / 2; left > 0 && g.err == nil; {
		n := min(left, int64(len(buf)))
		for i := range buf[:n] {
			buf[i] = float16(float32(rng.NormFloat64() * 0.05))
		}
		g.raw(buf[:n])
		left -= n
	}
}

// float16 converts f to IEEE half precision, rounding toward zero; the
// weights are small and finite, so neither infinities nor NaN arise.
func float16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case exp <= 0: // subnormal or zero in half precision
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		return sign | uint16(mant>>uint(14-exp))
	case exp >= 31:
		return sign | 0x7bff // the largest finite half
	}
	return sign | uint16(exp)<<10 | uint16(mant>>13)
}

// llama31Template renders the tool schemas the way Meta's Llama 3.1
// template does: inside the last user message only, so a request whose
// last message is a tool result carries no schemas at all. Its .Tools
// gives the model the tools capability.
const llama31Template = `{{- if or .System .Tools }}<|start_header_id|>system<|end_header_id|>
{{- if .System }}

{{ .System }}
{{- end }}<|eot_id|>
{{- end }}
{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 }}
{{- if eq .Role "user" }}<|start_header_id|>user<|end_header_id|>
{{- if and $.Tools $last }}

Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.

Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}. Do not use variables.

{{ range $.Tools }}
{{- . }}
{{ end }}
Question: {{ .Content }}<|eot_id|>
{{- else }}

{{ .Content }}<|eot_id|>
{{- end }}{{ if $last }}<|start_header_id|>assistant<|end_header_id|>

{{ end }}
{{- else if eq .Role "assistant" }}<|start_header_id|>assistant<|end_header_id|>
{{- if .ToolCalls }}
{{ range .ToolCalls }}
{"name": "{{ .Function.Name }}", "parameters": {{ .Function.Arguments }}}{{ end }}
{{- else }}

{{ .Content }}
{{- end }}{{ if not $last }}<|eot_id|>{{ end }}
{{- else if eq .Role "tool" }}<|start_header_id|>ipython<|end_header_id|>

{{ .Content }}<|eot_id|>{{ if $last }}<|start_header_id|>assistant<|end_header_id|>

{{ end }}
{{- end }}
{{- end }}`

// qwenTemplate renders tools and calls as Qwen 2.5's template does, calls
// inside <tool_call> tags: the tag Ollama's parser then looks for, so a
// call the model writes without it stays text.
const qwenTemplate = `{{- if or .System .Tools }}<|im_start|>system
{{- if .System }}
{{ .System }}
{{- end }}
{{- if .Tools }}

# Tools

<tools>
{{- range .Tools }}
{{ . }}
{{- end }}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags.
{{- end }}<|im_end|>
{{ end }}
{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 -}}
{{- if eq .Role "user" }}<|im_start|>user
{{ .Content }}<|im_end|>
{{ else if eq .Role "assistant" }}<|im_start|>assistant
{{ if .Content }}{{ .Content }}
{{- else if .ToolCalls }}<tool_call>
{{ range .ToolCalls }}{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}
{{ end }}</tool_call>
{{- end }}{{ if not $last }}<|im_end|>
{{ end }}
{{- else if eq .Role "tool" }}<|im_start|>user
<tool_response>
{{ .Content }}
</tool_response><|im_end|>
{{ end }}
{{- if and (ne .Role "assistant") $last }}<|im_start|>assistant
{{ end }}
{{- end }}`

// llama3Template is Ollama's llama3-instruct template: no .Tools, so the
// server refuses tools for the model.
const llama3Template = `{{- range .Messages }}<|start_header_id|>{{ .Role }}<|end_header_id|>

{{ .Content }}<|eot_id|>
{{- end }}<|start_header_id|>assistant<|end_header_id|>

`
