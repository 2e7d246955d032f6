package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pngBytes is a w x h PNG made with the standard encoder.
func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeTestFile writes b to name under dir and returns the path.
func writeTestFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// webpFile builds the first bytes of a WebP file of one chunk kind with
// the given canvas size, laid out as the WebP container specification
// says (RIFF header, chunk header, then the chunk's own size fields).
func webpFile(kind string, w, h int) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBP" + kind + "\x00\x00\x00\x00")
	switch kind {
	case "VP8X": // flags, reserved, 24-bit width-1, 24-bit height-1
		b = append(b, 0, 0, 0, 0, byte(w-1), byte((w-1)>>8), byte((w-1)>>16), byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
	case "VP8 ": // frame tag, start code, 14-bit width and height
		b = append(b, 0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, byte(w), byte(w>>8), byte(h), byte(h>>8))
	case "VP8L": // signature, 14-bit width-1 then 14-bit height-1
		v := uint32(w-1) | uint32(h-1)<<14
		b = append(b, 0x2f, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return append(b, make([]byte, 16)...)
}

// TestSniffImage: the type comes from the bytes, never the name; only the
// four formats the providers take pass, and the size is read from the
// header for each.
func TestSniffImage(t *testing.T) {
	var jp, gf bytes.Buffer
	jpeg.Encode(&jp, image.NewRGBA(image.Rect(0, 0, 640, 480)), nil)
	gif.Encode(&gf, image.NewPaletted(image.Rect(0, 0, 33, 17), color.Palette{color.Black, color.White}), nil)
	tests := []struct {
		name       string
		b          []byte
		wantType   string
		wantW      int
		wantH      int
		wantErrSub string
	}{
		{name: "png", b: pngBytes(t, 300, 200), wantType: "image/png", wantW: 300, wantH: 200},
		{name: "jpeg", b: jp.Bytes(), wantType: "image/jpeg", wantW: 640, wantH: 480},
		{name: "gif", b: gf.Bytes(), wantType: "image/gif", wantW: 33, wantH: 17},
		{name: "webp extended", b: webpFile("VP8X", 4000, 3000), wantType: "image/webp", wantW: 4000, wantH: 3000},
		{name: "webp lossy", b: webpFile("VP8 ", 1024, 768), wantType: "image/webp", wantW: 1024, wantH: 768},
		{name: "webp lossless", b: webpFile("VP8L", 513, 9), wantType: "image/webp", wantW: 513, wantH: 9},
		{name: "text", b: []byte("hello, this is not a picture\n"), wantErrSub: "is not an image (its bytes read as text/plain)"},
		{name: "bmp", b: append([]byte("BM"), make([]byte, 60)...), wantErrSub: "is image/bmp, which the providers do not take"},
		{name: "pdf", b: []byte("%PDF-1.7\n..."), wantErrSub: "application/pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mt, err := sniffImage(tt.b)
			if tt.wantErrSub != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrSub) {
					t.Fatalf("sniffImage = %q, %v; want error %q", mt, err, tt.wantErrSub)
				}
				return
			}
			if err != nil || mt != tt.wantType {
				t.Fatalf("sniffImage = %q, %v; want %s", mt, err, tt.wantType)
			}
			if w, h := imageDims(tt.b, mt); w != tt.wantW || h != tt.wantH {
				t.Errorf("imageDims = %dx%d, want %dx%d", w, h, tt.wantW, tt.wantH)
			}
		})
	}
}

// TestImageTokens checks both rules against the examples their providers
// document: OpenAI's 1024x1024 high-detail image is 765 tokens and a
// 2048x4096 one 1105, low detail 85 flat; Anthropic's 200x200 is ~54 and
// 1092x1092 ~1590, and larger ones are scaled to at most ~1600; Gemini's
// image of at most 384 pixels a side is 258, larger ones 258 a 768-pixel
// tile.
func TestImageTokens(t *testing.T) {
	tests := []struct {
		rule imageRule
		w, h int
		want int
	}{
		{imageTiles, 1024, 1024, 765},
		{imageTiles, 2048, 4096, 1105},
		{imageTiles, 512, 512, 255},
		{imageTiles, 100, 100, 255},
		{imageTiles, 0, 0, tileUnknown},
		{imagePixels, 200, 200, 54},
		{imagePixels, 1092, 1092, 1590},
		{imagePixels, 4000, 3000, anthropicImageTokens},
		{imagePixels, 0, 0, anthropicImageTokens},
		{imageGemini, 384, 384, 258},
		{imageGemini, 1024, 1024, 258 * 4},
		{imageGemini, 0, 0, geminiUnknown},
	}
	for _, tt := range tests {
		if got := tt.rule.tokens(imagePart{width: tt.w, height: tt.h}); got != tt.want {
			t.Errorf("rule %d tokens(%dx%d) = %d, want %d", tt.rule, tt.w, tt.h, got, tt.want)
		}
	}
	if got := openaiImageTokens(4000, 4000, "low"); got != 85 {
		t.Errorf("low detail = %d, want 85", got)
	}
	m := message{Role: roleUser, Content: "what is this?"}
	with := m
	with.images = []imagePart{imagePart{width: 1024, height: 1024}.priced("openai")}
	if d := messageTokens(with) - messageTokens(m); d != 765 {
		t.Errorf("an image adds %d tokens to the estimate, want 765", d)
	}
}

// TestLoadImageLimits: a file over maxImageBytes is refused from its size
// alone, a directory and a missing file say what they are, and Anthropic's
// own limits are checked before sending.
func TestLoadImageLimits(t *testing.T) {
	dir := t.TempDir()
	big := writeTestFile(t, dir, "big.png", pngBytes(t, 4, 4))
	if err := os.Truncate(big, maxImageBytes+1); err != nil {
		t.Fatal(err)
	}
	if _, err := loadImage(big); err == nil || !strings.Contains(err.Error(), "over yaicli's limit of 20 MiB") {
		t.Errorf("big file: %v", err)
	}
	if _, err := loadImage(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
	if _, err := loadImage(filepath.Join(dir, "nope.png")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing: %v", err)
	}
	wide := imagePart{path: "/x/wide.png", width: 9000, height: 10, data: "aGk="}
	if err := wide.fits("anthropic"); err == nil || !strings.Contains(err.Error(), "at most 8000 a side") {
		t.Errorf("9000 px for Anthropic: %v", err)
	}
	if err := wide.fits("openai"); err != nil {
		t.Errorf("9000 px for OpenAI: %v, want it left to the provider", err)
	}
	heavy := imagePart{path: "/x/heavy.png", width: 10, height: 10, data: strings.Repeat("A", anthropicMaxImageBase64+4)}
	if err := heavy.fits("anthropic"); err == nil || !strings.Contains(err.Error(), "over Anthropic's limit of 5 MiB") {
		t.Errorf("heavy for Anthropic: %v", err)
	}
}

// userParts decodes the content parts of the request's message i.
func userParts(t *testing.T, r received, i int) []map[string]any {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Raw, &body); err != nil || i >= len(body.Messages) {
		t.Fatalf("request has no message %d: %v\n%s", i, err, r.Raw)
	}
	var parts []map[string]any
	if err := json.Unmarshal(body.Messages[i].Content, &parts); err != nil {
		t.Fatalf("message %d content is not a list of parts: %s", i, body.Messages[i].Content)
	}
	return parts
}

// TestImageFlagOpenAI drives the binary with --image (a file and a URL)
// against an OpenAI-compatible fake provider and reads the request: the
// question is a text part, the file a data: URL of its exact bytes, the
// URL passed as given.
func TestImageFlagOpenAI(t *testing.T) {
	dir := t.TempDir()
	pic := pngBytes(t, 64, 48)
	path := writeTestFile(t, dir, "shot.bin", pic) // the name says nothing; the bytes do
	f := newFakeProvider(t, replay(t, "openai_text.sse"))
	res := runBinary(t, f, e2e{args: []string{"-i", path, "what is in these?", "--image", "https://example.com/cat.jpg"}})
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	parts := userParts(t, f.chats()[0], 1)
	if len(parts) != 3 || parts[0]["type"] != "text" || parts[0]["text"] != "what is in these?" {
		t.Fatalf("parts = %v, want the question then two images", parts)
	}
	url := parts[1]["image_url"].(map[string]any)["url"].(string)
	if want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pic); parts[1]["type"] != "image_url" || url != want {
		t.Errorf("file part = %v %.60s..., want image_url %.60s...", parts[1]["type"], url, want)
	}
	if u := parts[2]["image_url"].(map[string]any)["url"]; u != "https://example.com/cat.jpg" {
		t.Errorf("URL part = %v, want the URL as given", u)
	}
}

// TestImageFlagAnthropic: the same run against Anthropic's Messages API
// sends a base64 image block with the media type, and a url source.
func TestImageFlagAnthropic(t *testing.T) {
	dir := t.TempDir()
	pic := pngBytes(t, 10, 10)
	path := writeTestFile(t, dir, "p.png", pic)
	f := newFakeProvider(t, replay(t, "anthropic_text.sse"))
	res := runBinary(t, f, e2e{args: []string{"--image", path, "-i", "https://example.com/a.webp", "describe"},
		env: []string{"YAI_PROVIDER=anthropic", "YAI_MODEL=claude-sonnet-4-5"}})
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	parts := userParts(t, f.chats()[0], 0)
	if len(parts) != 3 || parts[0]["text"] != "describe" {
		t.Fatalf("blocks = %v", parts)
	}
	src := parts[1]["source"].(map[string]any)
	if parts[1]["type"] != "image" || src["type"] != "base64" || src["media_type"] != "image/png" || src["data"] != base64.StdEncoding.EncodeToString(pic) {
		t.Errorf("file block = %v", parts[1])
	}
	if src := parts[2]["source"].(map[string]any); src["type"] != "url" || src["url"] != "https://example.com/a.webp" {
		t.Errorf("URL block = %v", parts[2])
	}
}

// TestImageFlagRefused: a file that is not an image, one over the limit,
// or one that is missing is a usage error (exit 2) before any request.
func TestImageFlagRefused(t *testing.T) {
	dir := t.TempDir()
	notes := writeTestFile(t, dir, "notes.png", []byte("just some text, named like a picture\n"))
	big := writeTestFile(t, dir, "big.png", pngBytes(t, 2, 2))
	os.Truncate(big, maxImageBytes+1)
	tests := []struct{ arg, want string }{
		{notes, "--image: " + notes + " is not an image (its bytes read as text/plain"},
		{big, "over yaicli's limit of 20 MiB"},
		{filepath.Join(dir, "gone.jpg"), "no such file or directory"},
	}
	for _, tt := range tests {
		f := newFakeProvider(t, replay(t, "openai_text.sse"))
		res := runBinary(t, f, e2e{args: []string{"-i", tt.arg, "q"}})
		if res.code != exitUsage || !strings.Contains(res.stderr, tt.want) || len(f.chats()) != 0 {
			t.Errorf("--image %s: exit %d, %d requests, stderr %q; want exit 2 before any request saying %q", tt.arg, res.code, len(f.chats()), res.stderr, tt.want)
		}
	}
	res := runBinary(t, nil, e2e{args: []string{"--chat", "-i", notes}, noProvider: true})
	if res.code != exitUsage || !strings.Contains(res.stderr, "--image goes with a one-shot question") {
		t.Errorf("--chat --image: exit %d, %q", res.code, res.stderr)
	}
}

// TestReadImageToolOpenAI: the model calls fs_read_image; the tool result
// is text, and the next request carries the image in a user message right
// after the round's tool results, as OpenAI takes images only there. A
// file outside the workspace needs the same permission as fs_read_file.
func TestReadImageToolOpenAI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pic := pngBytes(t, 800, 600)
	path := writeTestFile(t, dir, "chart.png", pic)
	call := fakeCall{"call_img", "fs_read_image", `{"file_path":` + jsonString(path) + `}`}
	other := fakeCall{"call_ls", "fs_list_directory", `{"directory_path":"."}`}
	f := newFakeProvider(t, sse(toolStream(call, other)), replay(t, "openai_text.sse"))
	res := runBinary(t, f, e2e{args: []string{"look at the chart"}, env: []string{"YAI_TOOL_READ_ROOTS=" + dir}})
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	msgs := f.chats()[1].messages()
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,tool,tool,user" {
		t.Fatalf("roles = %s, want the tool results, then one user message with the image", got)
	}
	if !strings.Contains(msgs[3].Content, `"media_type":"image/png"`) || !strings.Contains(msgs[3].Content, `"width":800`) {
		t.Errorf("tool result = %s", msgs[3].Content)
	}
	parts := userParts(t, f.chats()[1], 5)
	if len(parts) != 2 || !strings.Contains(parts[0]["text"].(string), "call_img") {
		t.Fatalf("image message = %v", parts)
	}
	if url := parts[1]["image_url"].(map[string]any)["url"]; url != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(pic) {
		t.Errorf("image part %.80v, want the file's bytes", url)
	}

	refused := newFakeProvider(t, sse(toolStream(call)), replay(t, "openai_text.sse"))
	runBinary(t, refused, e2e{args: []string{"look"}})
	msgs = refused.chats()[1].messages()
	if last := msgs[len(msgs)-1]; last.Role != roleTool || !strings.Contains(last.Content, "outside the workspace") {
		t.Errorf("without permission the result is %q, want a refusal naming the workspace", last.Content)
	}
}

// jsonString quotes s as JSON.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestReadImageToolAnthropic: with Anthropic the image goes inside the
// tool_result block, beside the text.
func TestReadImageToolAnthropic(t *testing.T) {
	dir := t.TempDir()
	path := writeTestFile(t, dir, "x.png", pngBytes(t, 20, 20))
	toolUse := `{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"tool_use","id":"toolu_01A","name":"fs_read_image","input":{"file_path":` + jsonString(path) + `}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":400,"output_tokens":30}}`
	f := newFakeProvider(t, fail(200, toolUse), replay(t, "anthropic_text.sse"))
	res := runBinary(t, f, e2e{args: []string{"look"}, env: []string{"YAI_PROVIDER=anthropic", "YAI_TOOL_READ_ROOTS=" + dir}})
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	parts := userParts(t, f.chats()[1], 2)
	if len(parts) != 1 || parts[0]["type"] != "tool_result" {
		t.Fatalf("last user message = %v, want one tool_result", parts)
	}
	content, _ := parts[0]["content"].([]any)
	if len(content) != 2 || content[1].(map[string]any)["type"] != "image" {
		t.Fatalf("tool_result content = %v, want text then image", parts[0]["content"])
	}
	if src := content[1].(map[string]any)["source"].(map[string]any); src["media_type"] != "image/png" {
		t.Errorf("image source = %v", src)
	}
}

// TestImageRejectionPlain: a provider's refusal of an image fails the run
// with its words and a hint, after one request: it is never healed by
// trimming, and the conversation is not changed.
func TestImageRejectionPlain(t *testing.T) {
	path := writeTestFile(t, t.TempDir(), "p.png", pngBytes(t, 8, 8))
	for _, name := range []string{"not_image_anthropic.400.json", "not_image_anthropic_dims.400.json", "not_image_anthropic_media_type.400.json",
		"not_image_openai_unsupported.400.json", "not_image_openai_format.400.json", "not_image_deepseek_text_only.400.json"} {
		body, err := os.ReadFile("testdata/errors/" + name)
		if err != nil {
			t.Fatal(err)
		}
		env := []string{}
		if strings.Contains(name, "anthropic") {
			env = []string{"YAI_PROVIDER=anthropic"}
		}
		f := newFakeProvider(t, fail(400, string(body)), replay(t, "openai_text.sse"))
		res := runBinary(t, f, e2e{args: []string{"-i", path, "q"}, env: env})
		want := "the provider refused an image"
		if strings.Contains(name, "text_only") {
			want = "this model does not take images"
		}
		if res.code != exitFailure || len(f.chats()) != 1 || !strings.Contains(res.stderr, want) {
			t.Errorf("%s: exit %d after %d requests, stderr %q; want exit 1 after one, with %q", name, res.code, len(f.chats()), res.stderr, want)
		}
		if strings.Contains(res.stderr, "trim") || strings.Contains(res.stderr, "too long") {
			t.Errorf("%s: an image refusal was treated as a context overflow: %s", name, res.stderr)
		}
	}
}

// TestSavedChatImages: a saved chat keeps the image's path and cost, not
// its bytes; loading reads the file again, and a file gone since is said
// in the message.
func TestSavedChatImages(t *testing.T) {
	t.Parallel()
	dir, chats := t.TempDir(), filepath.Join(t.TempDir(), "chats")
	pic := pngBytes(t, 1200, 900)
	path := writeTestFile(t, dir, "big.png", pic)
	img, err := imageArg(path, "openai")
	if err != nil {
		t.Fatal(err)
	}
	h := []message{{Role: roleUser, Content: "what is it?", images: []imagePart{img}}, {Role: roleAssistant, Content: "a square"}}
	file, err := saveChat(chats, "pics", h, 10, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(file)
	if bytes.Contains(raw, []byte(img.data[:40])) || !bytes.Contains(raw, []byte(`"path": `+jsonString(path))) {
		t.Errorf("saved chat holds the image's bytes or lacks its path:\n%.400s", raw)
	}
	_, back, err := loadChat(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(back[0].images) != 1 || back[0].images[0].data != img.data || back[0].images[0].tokens != img.tokens {
		t.Fatalf("reloaded images = %+v", back[0].images)
	}
	os.Remove(path)
	_, back, _ = loadChat(file)
	if len(back[0].images) != 0 || !strings.Contains(back[0].Content, "an image was attached here and cannot be read again") {
		t.Errorf("after the file was removed: %q, %d images", back[0].Content, len(back[0].images))
	}
}

// TestMaskDropsImage: masking an old fs_read_image result drops its image
// with its text (the stub names the file to read again), and gives back
// the image's tokens.
func TestMaskDropsImage(t *testing.T) {
	img := imagePart{width: 2048, height: 2048}.priced("openai")
	m := message{Role: roleTool, Name: "fs_read_image", ToolCallID: "c1", Content: `{"success": true, "path": "/tmp/x.png"}`, images: []imagePart{img}}
	s, saved, why := stubFor(m, messageTokens(m), messageTokens, func(m *message) { m.clip.path = "/tmp/spill.txt" })
	if why != stubbed || len(s.images) != 0 || messageTokens(s) >= img.tokens || saved != messageTokens(m)-messageTokens(s) {
		t.Errorf("stubFor = %d images, stub ~%d tokens, saved %d, why %d; want the image gone with its %d tokens", len(s.images), messageTokens(s), saved, why, img.tokens)
	}
}

// TestImageRefusalLeavesImagesOut: after a refusal the history keeps a
// note of each image instead of the image, so the next turn of a REPL is
// not refused again; the refused request is not retried.
func TestImageRefusalLeavesImagesOut(t *testing.T) {
	body, _ := os.ReadFile("testdata/errors/not_image_deepseek_text_only.400.json")
	f := newFakeProvider(t, fail(400, string(body)), replay(t, "openai_text.sse"))
	cfg := &config{Provider: "deepseek", Model: "deepseek-chat", BaseURL: f.url(), APIKey: "k", Timeout: 5 * time.Second, MaxToolCallDepth: 2}
	var out, errb bytes.Buffer
	a := newParts(cfg, "").agentFor(resolveWindow(t.Context(), cfg.window(), openWindowCache("", time.Now)), agentIO{answer: &out, diag: &errb}, nil)
	img := imagePart{url: "https://example.com/a.png"}.priced("deepseek")
	h, err := a.turn(t.Context(), []message{{Role: roleUser, Content: "what is it?", images: []imagePart{img}}})
	if err == nil || len(f.chats()) != 1 {
		t.Fatalf("turn = %v after %d requests; want the refusal, not retried", err, len(f.chats()))
	}
	if hasImages(h) || !strings.Contains(h[0].Content, "[image https://example.com/a.png left out: the provider refused the images]") {
		t.Errorf("history after the refusal: %+v", h)
	}
}
