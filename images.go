package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // DecodeConfig reads GIF, JPEG and PNG headers; WebP is read by webpSize
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Images reach the model in two ways: --image/-i PATH|URL sends them with
// the question, and the fs_read_image tool lets the model look at a file.
// The conversation keeps them on their message (a user message, or the
// tool message of fs_read_image); each wire format places them where its
// provider accepts them (openaiMessages, anthropicMessages).

// imageTypes are the formats both OpenAI and Anthropic accept.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// isImageURL reports whether arg names an image on the web rather than a file.
func isImageURL(arg string) bool {
	return strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "http://")
}

// imageArg reads one --image argument: a URL is kept as given, anything
// else is a file, checked for what provider accepts.
func imageArg(arg, provider string) (imagePart, error) {
	if isImageURL(arg) {
		if provider == providerOllama {
			return imagePart{}, fmt.Errorf("%s: Ollama takes image files, not URLs; download it first (curl -o)", arg)
		}
		return imagePart{url: arg}.priced(provider), nil
	}
	img, err := loadImage(arg)
	if err != nil {
		return img, err
	}
	return img.priced(provider), img.fits(provider)
}

// imageArgs reads every --image argument, failing on the first that is
// not an image the provider can take: a usage error, before any request.
func imageArgs(args []string, provider string) ([]imagePart, error) {
	var out []imagePart
	for _, a := range args {
		img, err := imageArg(a, provider)
		if err != nil {
			return nil, fmt.Errorf("--image: %w", err)
		}
		out = append(out, img)
	}
	return out, nil
}

// loadImage reads an image file whole, up to maxImageBytes, and tells its
// format from its bytes (never from its name) and its size in pixels from
// its header.
func loadImage(path string) (imagePart, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return imagePart{}, fmt.Errorf("image %s: %w", path, err)
	}
	f, err := os.Open(abs)
	if err != nil {
		return imagePart{}, fmt.Errorf("image %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return imagePart{}, fmt.Errorf("image %s: %w", path, err)
	}
	return imageFrom(f, st, path, abs)
}

// imageFrom reads the image open in r (st its file's facts), named path
// and found at abs: the bytes read are those of the file opened, never a
// path opened again.
func imageFrom(r io.Reader, st os.FileInfo, path, abs string) (imagePart, error) {
	switch {
	case !st.Mode().IsRegular():
		return imagePart{}, fmt.Errorf("image %s is not a regular file", path)
	case st.Size() > maxImageBytes:
		return imagePart{}, fmt.Errorf("image %s is %s, over yaicli's limit of %s for one image; make it smaller (e.g. convert -resize 2048x2048 or a JPEG)", path, sizeText(st.Size()), sizeText(maxImageBytes))
	}
	b, err := io.ReadAll(io.LimitReader(r, maxImageBytes+1))
	if err != nil {
		return imagePart{}, fmt.Errorf("reading image %s: %w", path, err)
	}
	if len(b) > maxImageBytes {
		return imagePart{}, fmt.Errorf("image %s grew over yaicli's limit of %s while it was read", path, sizeText(maxImageBytes))
	}
	mt, err := sniffImage(b)
	if err != nil {
		return imagePart{}, fmt.Errorf("%s %w", path, err)
	}
	w, h := imageDims(b, mt)
	return imagePart{mediaType: mt, data: base64.StdEncoding.EncodeToString(b), path: abs, width: w, height: h, size: len(b)}, nil
}

// loadJudgedImage is fs_read_image's read: the file the approval judged
// for args (readsKey), opened by its real path as judged (readOpener), so
// `link/../x` reads the x the kernel lands on, the one judged; without a
// judgement (a tool called outside the toolbox), loadImage.
func loadJudgedImage(args map[string]any, path string) (imagePart, error) {
	j, ok := args[readsKey].(judged)
	if !ok {
		return loadImage(path)
	}
	rc, ok := j.files[path]
	if !ok {
		return imagePart{}, fmt.Errorf("%s was not checked before the call ran; call again", path)
	}
	rd, st, err := readOpener(args)(path)
	if err != nil {
		return imagePart{}, fmt.Errorf("image %s: %w", path, err)
	}
	defer rd.Close()
	return imageFrom(rd, st, path, rc.path)
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// sniffImage is the media type of b when it is an image the providers
// take; otherwise an error naming what it is.
func sniffImage(b []byte) (string, error) {
	if isWebP(b) {
		return "image/webp", nil
	}
	mt, _, _ := strings.Cut(http.DetectContentType(b), ";")
	if imageTypes[mt] {
		return mt, nil
	}
	if strings.HasPrefix(mt, "image/") {
		return "", fmt.Errorf("is %s, which the providers do not take; convert it to PNG, JPEG, GIF or WebP", mt)
	}
	return "", fmt.Errorf("is not an image (its bytes read as %s); images are PNG, JPEG, GIF or WebP", mt)
}

// isWebP reports a RIFF container of WebP data.
func isWebP(b []byte) bool {
	return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}

// imageDims reads the width and height from the image's header; 0, 0
// when the header does not say (a broken file the provider will judge).
func imageDims(b []byte, mediaType string) (int, int) {
	if mediaType == "image/webp" {
		return webpSize(b)
	}
	c, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return 0, 0
	}
	return c.Width, c.Height
}

// webpSize reads the canvas size of a WebP file (the standard library has
// no WebP decoder): from the VP8X header of an extended file, the key
// frame of a lossy (VP8) one, or the header of a lossless (VP8L) one.
func webpSize(b []byte) (int, int) {
	if !isWebP(b) || len(b) < 30 {
		return 0, 0
	}
	le16 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 }
	le24 := func(p []byte) int { return le16(p) | int(p[2])<<16 }
	switch string(b[12:16]) {
	case "VP8X": // 24-bit width-1 and height-1 at 24 and 27
		return le24(b[24:]) + 1, le24(b[27:]) + 1
	case "VP8 ": // a key frame: start code 9d 01 2a at 23, then 14-bit sizes
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0
		}
		return le16(b[26:]) & 0x3fff, le16(b[28:]) & 0x3fff
	case "VP8L": // signature 2f at 20, then 14-bit width-1 and height-1
		if b[20] != 0x2f {
			return 0, 0
		}
		v := le24(b[21:]) | int(b[24])<<24
		return v&0x3fff + 1, v>>14&0x3fff + 1
	}
	return 0, 0
}

// fits checks an image against the provider's documented limits that
// yaicli can see before sending: Anthropic takes at most 5 MB of base64
// and 8000 pixels a side.
func (img imagePart) fits(provider string) error {
	if provider != providerAnthropic || img.url != "" {
		return nil
	}
	if n := len(img.data); n > anthropicMaxImageBase64 {
		return fmt.Errorf("image %s is %s as base64, over Anthropic's limit of %s for one image; make it smaller (a JPEG, or fewer pixels)", img.path, sizeText(int64(n)), sizeText(anthropicMaxImageBase64))
	}
	if max(img.width, img.height) > anthropicMaxImageSide {
		return fmt.Errorf("image %s is %dx%d pixels; Anthropic takes at most %d a side: scale it down", img.path, img.width, img.height, anthropicMaxImageSide)
	}
	return nil
}

// dataURL is the image as OpenAI's image_url takes it: the URL as given,
// or a data: URL of the file.
func (img imagePart) dataURL() string {
	if img.url != "" {
		return img.url
	}
	return "data:" + img.mediaType + ";base64," + img.data
}

// label names the image for the model and in notes: its path or URL.
func (img imagePart) label() string {
	if img.url != "" {
		return img.url
	}
	return img.path
}

// hasImages reports whether any message of h carries an image.
func hasImages(h []message) bool {
	for _, m := range h {
		if len(m.images) > 0 {
			return true
		}
	}
	return false
}

// withoutImages is h after a provider refused its images: each message
// keeps a line saying which image it had, so the conversation can go on
// (in the REPL) without sending them again and failing every turn.
func withoutImages(h []message) []message {
	out := make([]message, len(h))
	for i, m := range h {
		for _, img := range m.images {
			m.Content = strings.TrimSpace(m.Content + "\n\n[image " + img.label() + " left out: the provider refused the images]")
		}
		m.images = nil
		out[i] = m
	}
	return out
}

// imageHint is the advice for a provider's refusal of an image, or "" when
// the message is about something else. An image refusal is never healed
// by trimming: the image is in the current turn, so the person must send
// another.
func imageHint(message string) string {
	m := strings.ToLower(message)
	switch {
	case !strings.Contains(m, "image"):
		return ""
	case strings.Contains(m, "support") && !strings.Contains(m, "unsupported image") || strings.Contains(m, "vision") ||
		strings.Contains(m, "multimodal") || strings.Contains(m, "unknown variant"): // DeepSeek: unknown variant `image_url`, expected `text`
		return "this model does not take images: use a vision model (MODEL), or ask without --image"
	}
	return "the provider refused an image: send a PNG, JPEG, GIF or WebP that is smaller (under 5 MB and 8000 pixels a side for Anthropic, under 20 MB for OpenAI), or ask without --image"
}

// How many tokens an image costs, by the provider's documented rule. The
// estimate is of the image as the provider scales it, and errs high where
// the rule leaves room (detail auto is counted as high).
type imageRule int

const (
	// imageTiles is OpenAI's rule for detail high (and auto): the image is
	// scaled to fit 2048x2048, then so that its shorter side is at most
	// 768; it costs 85 tokens plus 170 for each 512-pixel tile it covers.
	// Detail low is 85 flat. OpenAI-compatible servers are counted so too.
	imageTiles imageRule = iota
	// imagePixels is Anthropic's rule: the image is scaled so that its
	// long edge is at most 1568 pixels, and costs width*height/750 tokens,
	// at most about 1600.
	imagePixels
	// imageGemini is Gemini's rule: 258 tokens for an image of at most
	// 384 pixels a side, else 258 for each 768-pixel tile it is cut into.
	imageGemini
)

// Image token costs of the rules above.
const (
	tileBase, tileCost   = 85, 170 // OpenAI: per image, per 512-pixel tile
	tileUnknown          = 1445    // OpenAI: the most an image can cost (8 tiles), for a URL of unknown size
	pixelsPerToken       = 750     // Anthropic: pixels per token
	anthropicMaxEdge     = 1568    // Anthropic: long edge after scaling
	anthropicImageTokens = 1600    // Anthropic: the most an image costs after scaling, also for a URL
	geminiTile           = 258     // Gemini: a small image, or one 768-pixel tile
	geminiUnknown        = 258 * 6 // Gemini: a URL of unknown size, counted as a 1536x2304 image
)

// imageRuleFor is the rule of a provider.
func imageRuleFor(provider string) imageRule {
	switch provider {
	case providerAnthropic:
		return imagePixels
	case providerGemini:
		return imageGemini
	}
	return imageTiles
}

// tokens is what one image costs under the rule.
func (r imageRule) tokens(img imagePart) int {
	w, h := img.width, img.height
	if r == imageGemini {
		switch {
		case w <= 0 || h <= 0:
			return geminiUnknown
		case w <= 384 && h <= 384:
			return geminiTile
		}
		return geminiTile * ((w + 767) / 768) * ((h + 767) / 768)
	}
	if r == imagePixels {
		if w <= 0 || h <= 0 {
			return anthropicImageTokens
		}
		w, h = scaleToFit(w, h, anthropicMaxEdge, anthropicMaxEdge)
		return min((w*h+pixelsPerToken-1)/pixelsPerToken, anthropicImageTokens)
	}
	if w <= 0 || h <= 0 {
		return tileUnknown
	}
	return openaiImageTokens(w, h, "auto")
}

// openaiImageTokens is OpenAI's tile formula for an image of w x h pixels
// at a detail level (low, high or auto).
func openaiImageTokens(w, h int, detail string) int {
	if detail == "low" {
		return tileBase
	}
	w, h = scaleToFit(w, h, 2048, 2048)
	if short := min(w, h); short > 768 {
		w, h = w*768/short, h*768/short
	}
	tiles := ((w + 511) / 512) * ((h + 511) / 512)
	return tileBase + tileCost*tiles
}

// scaleToFit scales w x h down, keeping its aspect, to fit maxW x maxH.
func scaleToFit(w, h, maxW, maxH int) (int, int) {
	if w <= maxW && h <= maxH {
		return w, h
	}
	if w*maxH >= h*maxW { // width is the tighter bound
		return maxW, max(1, h*maxW/w)
	}
	return max(1, w*maxH/h), maxH
}

// priced is img with its cost under the provider's rule.
func (img imagePart) priced(provider string) imagePart {
	img.tokens = imageRuleFor(provider).tokens(img)
	return img
}

// imagesTokens is what the images of m cost, as priced when they entered
// the conversation.
func imagesTokens(m message) int {
	n := 0
	for _, img := range m.images {
		n += img.tokens
	}
	return n
}

// readImageTool is fs_read_image: the model looks at an image file. Its
// path is judged as a read, as every read path is (approval.go).
// The result's text describes the image; the image itself is kept for the
// toolbox to put on the tool message (takeImage), and each wire format
// sends it where its provider takes images.
func readImageTool() tool {
	return tool{
		name:   "fs_read_image",
		desc:   "Look at an image file (PNG, JPEG, GIF or WebP, at most 20 MB): the image is shown to you with the result. For screenshots, diagrams, photos and charts; fs_read_file reads text.",
		params: `{"type":"object","properties":{"file_path":{"type":"string","description":"the image file"}},"required":["file_path"]}`,
		paths:  []pathArg{{key: "file_path", use: pathReads}},
		bind:   func(e *toolEnv) runFunc { return e.tb.readImage },
	}
}

// readImage runs fs_read_image: the image judged at path, fitted to the
// provider, kept for the tool message.
func (tb *toolbox) readImage(_ context.Context, args map[string]any, out io.Writer) error {
	path := argString(args, "file_path", "")
	if path == "" {
		return errors.New("file_path is required: the image file to look at")
	}
	img, err := loadJudgedImage(args, path)
	if err == nil {
		err = img.fits(tb.o.provider)
	}
	if err != nil {
		return err
	}
	img = img.priced(tb.o.provider)
	tb.image = &img
	return writeJSON(out, map[string]any{"success": true, "path": img.path, "media_type": img.mediaType,
		"width": img.width, "height": img.height, "size": img.size, "estimated_tokens": img.tokens,
		"note": "the image is attached to this result"})
}

// takeImage returns the image the last fs_read_image call read, once.
func (tb *toolbox) takeImage() []imagePart {
	img := tb.image
	tb.image = nil
	if img == nil {
		return nil
	}
	return []imagePart{*img}
}

// Saved chats keep each image's path or URL and what it cost, not its
// bytes: a screenshot of a few megabytes would be a third more again as
// base64 in every save of the chat. Loading a chat reads the files again;
// one that is gone or no longer an image is said in the message's text.

// savedImage is an image in a saved chat.
type savedImage struct {
	Path      string `json:"path,omitempty"`
	URL       string `json:"url,omitempty"`
	MediaType string `json:"media_type,omitempty"`
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	Tokens    int    `json:"tokens,omitempty"`
}

// savedImages is how a message's images are saved.
func savedImages(imgs []imagePart) []savedImage {
	var out []savedImage
	for _, img := range imgs {
		out = append(out, savedImage{Path: img.path, URL: img.url, MediaType: img.mediaType, Width: img.width, Height: img.height, Tokens: img.tokens})
	}
	return out
}

// reloadImages puts a saved message's images back on m, reading each file
// again; one that cannot be read becomes a line of m's text saying so, so
// the model knows an image was there.
func reloadImages(m message, saved []savedImage) message {
	for _, s := range saved {
		img := imagePart{url: s.URL, width: s.Width, height: s.Height}
		if s.URL == "" {
			var err error
			if img, err = loadImage(s.Path); err != nil {
				m.Content = strings.TrimSpace(m.Content + "\n\n[an image was attached here and cannot be read again: " + err.Error() + "]")
				continue
			}
		}
		img.tokens = s.Tokens
		if img.tokens == 0 || img.width != s.Width || img.height != s.Height {
			// the file changed since: price it again, by the higher of the
			// two rules, as the provider of this session is not known here
			img.tokens = max(imageTiles.tokens(img), imagePixels.tokens(img))
		}
		m.images = append(m.images, img)
	}
	return m
}
