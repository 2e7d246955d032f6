package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// agreeWithJSON checks fastChunk against encoding/json on data: when the
// fast path takes an event, json.Unmarshal must take it too and give the
// same chunk, and bodyError must find no error in it. It reports whether
// the fast path took the event.
func agreeWithJSON(t testing.TB, data string) bool {
	t.Helper()
	var fast, slow chunk
	ok := fastChunk(data, &fast)
	if !ok {
		if !reflect.DeepEqual(fast, chunk{}) {
			t.Fatalf("fastChunk(%q) declined but left %+v", data, fast)
		}
		return false
	}
	if err := json.Unmarshal([]byte(data), &slow); err != nil {
		t.Fatalf("fastChunk(%q) took an event json.Unmarshal refuses: %v", data, err)
	}
	if e := bodyError("p", []byte(data)); e != nil {
		t.Fatalf("fastChunk(%q) took an event bodyError rejects: %v", data, e)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fastChunk(%q) = %+v, json.Unmarshal gives %+v", data, fast, slow)
	}
	return true
}

// realEvents are the data of every event in testdata/sse, from real
// providers (OpenAI, Azure, DeepSeek, Gemini, xAI, Ollama, OpenRouter,
// llama.cpp, Anthropic).
func realEvents(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/sse/*.sse")
	if err != nil || len(files) == 0 {
		t.Fatalf("no SSE samples: %v", err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			if d, ok := strings.CutPrefix(strings.TrimRight(sc.Text(), "\r"), "data: "); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// TestFastChunkRealEvents: every recorded event decodes as encoding/json
// decodes it, or is left to it; the plain deltas are taken.
func TestFastChunkRealEvents(t *testing.T) {
	taken := 0
	events := realEvents(t)
	for _, d := range events {
		if agreeWithJSON(t, d) {
			taken++
		}
	}
	if taken < len(events)/2 {
		t.Errorf("the fast path took %d of %d recorded events, want most", taken, len(events))
	}
}

// fastShapes are chunks as providers send them. take says whether the fast
// path must decode it itself (a plain delta) or must leave it to
// encoding/json (errors, usage, anything unusual).
var fastShapes = []struct {
	name, data string
	take       bool
}{
	{"openai text", `{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1741570283,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_eb9dce56a8","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}],"usage":null}`, true},
	{"openai role", `{"id":"chatcmpl-B9","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}`, true},
	{"openai first call", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]}`, true},
	{"openai arguments", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"location\":\""}}]},"logprobs":null,"finish_reason":null}]}`, true},
	{"openai parallel", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"f","arguments":"{}"}},{"index":2,"id":"call_c","type":"function","function":{"name":"g","arguments":"{}"}}]}}]}`, true},
	{"finish", `{"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}`, true},
	{"deepseek reasoning", `{"id":"d1","object":"chat.completion.chunk","model":"deepseek-reasoner","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"The user asks 2+2. "},"logprobs":null,"finish_reason":null}]}`, true},
	{"ollama", `{"id":"chatcmpl-412","object":"chat.completion.chunk","created":1741570006,"model":"llama3.1:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"I only see the end."},"finish_reason":null}]}`, true},
	{"ollama call without index", `{"choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_x","function":{"name":"f","arguments":"{\"a\":1}"}}]},"finish_reason":null}]}`, true},
	{"openrouter reasoning", `{"id":"gen-1","provider":"Together","model":"deepseek/deepseek-r1","object":"chat.completion.chunk","created":1741570003,"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"thinking","reasoning_details":[{"type":"reasoning.text","text":"thinking","format":"unknown","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`, true},
	{"groq", `{"id":"chatcmpl-g","object":"chat.completion.chunk","created":1741570000,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_x","choices":[{"index":0,"delta":{"content":" world"},"logprobs":null,"finish_reason":null}],"x_groq":{"id":"req_01"}}`, true},
	{"groq usage in x_groq", `{"id":"chatcmpl-g","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"x_groq":{"id":"req_01","usage":{"queue_time":0.02,"prompt_tokens":18,"prompt_time":0.001,"completion_tokens":7,"total_tokens":25,"total_time":0.01}}}`, true},
	{"azure filter results", `{"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}`, true},
	{"message instead of delta", `{"choices":[{"index":0,"message":{"role":"assistant","content":"whole"},"finish_reason":"stop"}]}`, true},
	{"escapes", `{"choices":[{"delta":{"content":"a\"b\\c\/d\be\ff\ng\rh\ti\u00e9\u4e2d\ud83d\ude00\u0000"}}]}`, true},
	{"lone surrogates", `{"choices":[{"delta":{"content":"\ud800x\udc00\ud800\u0041\ud83d"}}]}`, true},
	{"raw unicode", `{"choices":[{"delta":{"content":"中文 é 😀 ` + "\u2028" + `"}}]}`, true},
	{"whitespace", " \t\r\n{ \"choices\" : [ { \"delta\" :\n{ \"content\" : \"x\" , \"tool_calls\" : [ ] } , \"finish_reason\" : null } ] } \n", true},
	{"key order", `{"choices":[{"finish_reason":null,"delta":{"tool_calls":[{"function":{"arguments":"1}","name":null},"type":null,"id":null,"index":0}],"content":null},"index":0}],"object":"chat.completion.chunk","id":"x"}`, true},
	{"nulls", `{"choices":[null,{"delta":null,"message":null,"finish_reason":null}],"usage":null,"object":null}`, true},
	{"null index", `{"choices":[{"delta":{"tool_calls":[{"index":null,"function":{"arguments":"x"}}]}}]}`, true},
	{"numbers skipped", `{"created":-1.5e+10,"n":0,"m":[1,2.25,-0,3E2,true,false,null,{}],"choices":[]}`, true},
	{"null event", `null`, true},

	{"usage object", `{"choices":[],"usage":{"prompt_tokens":2048,"completion_tokens":6,"total_tokens":2054}}`, false},
	{"error member", `{"error":{"message":"This endpoint's maximum context length is 8192 tokens.","code":400}}`, false},
	{"error beside choices", `{"id":"gen-1","choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}],"error":{"code":502,"message":"Upstream error"}}`, false},
	{"error in other case", `{"Error":"x","choices":[]}`, false},
	{"vllm object error", `{"object":"error","message":"too long","type":"BadRequestError","code":400}`, false},
	{"type error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, false},
	{"escaped error", `{"object":"\u0065rror","choices":[]}`, false},
	{"minimax base_resp", `{"choices":[],"base_resp":{"status_code":1008,"status_msg":"insufficient balance"}}`, false},
	{"key in other case", `{"choices":[{"delta":{"Content":"x"}}]}`, false},
	{"key with escape", `{"choices":[{"delta":{"\u0063ontent":"x"}}]}`, false},
	{"key twice", `{"choices":[{"delta":{"content":"a","content":"b"}}]}`, false},
	{"function twice", `{"choices":[{"delta":{"tool_calls":[{"function":{"name":"a"},"function":{"arguments":"b"}}]}}]}`, false},
	{"invalid utf-8", "{\"choices\":[{\"delta\":{\"content\":\"\xff\"}}]}", false},
	{"invalid utf-8 after escape", "{\"choices\":[{\"delta\":{\"content\":\"\\n\xc3\"}}]}", false},
	{"content array", `{"choices":[{"delta":{"content":[{"type":"text","text":"x"}]}}]}`, false},
	{"index string", `{"choices":[{"delta":{"tool_calls":[{"index":"0"}]}}]}`, false},
	{"trailing data", `{"choices":[]} x`, false},
	{"two values", `{"choices":[]}{}`, false},
	{"control character", "{\"choices\":[{\"delta\":{\"content\":\"a\tb\"}}]}", false},
	{"bad escape", `{"choices":[{"delta":{"content":"\x"}}]}`, false},
	{"short \\u", `{"choices":[{"delta":{"content":"\u12"}}]}`, false},
	{"trailing comma", `{"choices":[],}`, false},
	{"leading zero", `{"n":01,"choices":[]}`, false},
	{"deep nesting", `{"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, false},
	{"unterminated", `{"choices":[{"delta":{"content":"abc`, false},
	{"keep-alive", `ping`, false},
	{"empty", ``, false},
}

// TestFastChunkShapes: the provider shapes decode as encoding/json decodes
// them, the plain ones on the fast path, the rest left to encoding/json.
func TestFastChunkShapes(t *testing.T) {
	for _, tc := range fastShapes {
		t.Run(tc.name, func(t *testing.T) {
			if got := agreeWithJSON(t, tc.data); got != tc.take {
				t.Errorf("fastChunk(%q) took it: %v, want %v", tc.data, got, tc.take)
			}
		})
	}
}

// TestFastChunkEveryField: an event that sets every field chunk has (found
// by reflection, so a field added to chunk later is covered) is decoded
// the same, or left to encoding/json; never decoded without the new field.
func TestFastChunkEveryField(t *testing.T) {
	top := sampleOf(reflect.TypeOf(chunk{}), 0).(map[string]any)
	delete(top, "usage") // usage objects are left to encoding/json on purpose
	if !agreeWithJSON(t, mustJSON(t, top)) {
		t.Errorf("a chunk with every field set was left to encoding/json: %s", mustJSON(t, top))
	}
	if v := sampleOf(reflect.TypeOf(delta{}), 0); !agreeWithJSON(t, `{"choices":[{"delta":`+mustJSON(t, v)+`}]}`) {
		t.Errorf("a delta with every field set was left to encoding/json: %s", mustJSON(t, v))
	}
}

// sampleOf is a JSON-shaped value with every field of t set, keyed by
// the fields' json names; a raw index is the number 1.
func sampleOf(t reflect.Type, depth int) any {
	switch {
	case t == reflect.TypeOf(json.RawMessage{}):
		return 1
	case t.Kind() == reflect.Pointer:
		return sampleOf(t.Elem(), depth)
	case t.Kind() == reflect.Slice:
		return []any{sampleOf(t.Elem(), depth+1)}
	case t.Kind() == reflect.Struct:
		m := map[string]any{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				name = f.Name
			}
			m[name] = sampleOf(f.Type, depth+1)
		}
		return m
	case t.Kind() == reflect.String:
		return fmt.Sprintf("s%d", depth)
	}
	return depth + 1
}

// mustJSON marshals v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFastChunkRandomShapes: random chunks written with random key order,
// whitespace, escapes, nulls and members chunk does not read are all taken
// and decode as encoding/json decodes them.
func TestFastChunkRandomShapes(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(13))
	for i := range 3000 {
		data := randomChunk(r)
		if !agreeWithJSON(t, data) {
			t.Fatalf("case %d: fastChunk(%q) left a plain chunk to encoding/json", i, data)
		}
	}
}

// randomChunk writes one plain chunk in a random but valid way.
func randomChunk(r *rand.Rand) string {
	choice := func() string {
		d := randomObject(r, map[string]string{
			"content":           randomStringOrNull(r),
			"reasoning_content": randomStringOrNull(r),
			"reasoning":         randomStringOrNull(r),
			"role":              `"assistant"`,
			"tool_calls":        randomCalls(r),
		})
		return randomObject(r, map[string]string{"index": "0", "delta": d, "finish_reason": randomStringOrNull(r), "logprobs": "null"})
	}
	return randomObject(r, map[string]string{
		"id": `"chatcmpl-1"`, "object": `"chat.completion.chunk"`, "created": "1741570283",
		"choices": "[" + spaced(r, choice()) + "]", "usage": "null", "x_groq": `{"id":"req_1","n":[1,2.5e3]}`,
	})
}

// randomCalls is a tool_calls value: null, empty or a few fragments.
func randomCalls(r *rand.Rand) string {
	switch r.Intn(4) {
	case 0:
		return "null"
	case 1:
		return "[ ]"
	}
	var parts []string
	for range 1 + r.Intn(3) {
		fn := randomObject(r, map[string]string{"name": randomStringOrNull(r), "arguments": randomStringOrNull(r)})
		parts = append(parts, randomObject(r, map[string]string{"index": fmt.Sprint(r.Intn(200) - 50), "id": randomStringOrNull(r), "type": `"function"`, "function": fn}))
	}
	return "[" + strings.Join(parts, ","+ws(r)) + "]"
}

// randomObject writes members in random order with random whitespace,
// dropping some of them.
func randomObject(r *rand.Rand, members map[string]string) string {
	var parts []string
	for k, v := range members { // map order is random already
		if r.Intn(4) > 0 {
			parts = append(parts, spaced(r, `"`+k+`"`)+":"+spaced(r, v))
		}
	}
	return "{" + ws(r) + strings.Join(parts, ",") + ws(r) + "}"
}

// spaced puts random JSON whitespace around s.
func spaced(r *rand.Rand, s string) string { return ws(r) + s + ws(r) }

// ws is zero to three random JSON whitespace characters.
func ws(r *rand.Rand) string {
	var b strings.Builder
	for range r.Intn(4) {
		b.WriteByte(" \t\r\n"[r.Intn(4)])
	}
	return b.String()
}

// randomStringOrNull is null or a JSON string of random text, each
// character written plainly or escaped (\n, \uXXXX, surrogate pairs).
func randomStringOrNull(r *rand.Rand) string {
	if r.Intn(5) == 0 {
		return "null"
	}
	alphabet := []rune("ab{}\":\\/\n\t\x00\x1f é中😀\u2028\U0010FFFF\uFFFD")
	var b strings.Builder
	b.WriteByte('"')
	for range r.Intn(12) {
		c := alphabet[r.Intn(len(alphabet))]
		switch {
		case c == '"' || c == '\\' || c < ' ' || r.Intn(3) == 0:
			writeEscaped(&b, c, r)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeEscaped writes c as a JSON escape: a short one where JSON has it,
// else \uXXXX, or a surrogate pair past the BMP.
func writeEscaped(b *strings.Builder, c rune, r *rand.Rand) {
	short := map[rune]string{'"': `\"`, '\\': `\\`, '/': `\/`, '\n': `\n`, '\t': `\t`}
	if s, ok := short[c]; ok && r.Intn(2) == 0 {
		b.WriteString(s)
		return
	}
	if c > 0xFFFF {
		c -= 0x10000
		fmt.Fprintf(b, `\u%04X\u%04x`, 0xD800+(c>>10), 0xDC00+(c&0x3FF))
		return
	}
	fmt.Fprintf(b, `\u%04x`, c)
}

// FuzzFastChunk: on any input the fast path agrees with encoding/json and
// bodyError or declines, and leaves nothing behind when it declines.
func FuzzFastChunk(f *testing.F) {
	for _, tc := range fastShapes {
		f.Add(tc.data)
	}
	r := rand.New(rand.NewSource(20))
	for range 20 {
		f.Add(randomChunk(r))
	}
	f.Fuzz(func(t *testing.T, data string) {
		agreeWithJSON(t, data)
	})
}

// TestFastChunkSeesStreamErrors: the error events of the recorded streams
// still end the stream with the provider's error, through bodyError.
func TestFastChunkSeesStreamErrors(t *testing.T) {
	for _, name := range []string{"error_in_stream", "context_error_in_stream"} {
		b, err := os.ReadFile("testdata/sse/" + name + ".sse")
		if err != nil {
			t.Fatal(err)
		}
		_, err = openaiWire{provider: "p"}.stream(strings.NewReader(string(b)), streamSink{})
		if _, ok := err.(*apiError); !ok {
			t.Errorf("%s: stream error %v, want the provider's error", name, err)
		}
	}
}

// TestFastChunkArgumentsWhole: arguments split anywhere, even inside an
// escape's text or a multi-byte character's escape, reassemble exactly.
func TestFastChunkArgumentsWhole(t *testing.T) {
	args := `{"path":"a\\b \"c\" 中文 😀","n":[1,2]}`
	for n := 1; n <= 12; n++ {
		var events []string
		events = append(events, toolDelta("0", "c1", "f", ""))
		for rest := args; rest != ""; {
			k := min(n, len(rest))
			for !utf8.ValidString(rest[:k]) {
				k++
			}
			events = append(events, toolDelta("0", "", "", rest[:k]))
			rest = rest[k:]
		}
		events = append(events, chunkJSON(map[string]any{}, "tool_calls"))
		for _, e := range events {
			if !agreeWithJSON(t, e) {
				t.Fatalf("a plain delta was left to encoding/json: %s", e)
			}
		}
		r, err := openaiWire{provider: "p"}.stream(strings.NewReader(sseBody(events...)), streamSink{})
		if err != nil || len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Function.Arguments != args {
			t.Fatalf("%d-byte deltas: %v %+v", n, err, r.Message.ToolCalls)
		}
	}
}
