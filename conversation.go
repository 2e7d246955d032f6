package main

import (
	"encoding/json"
)

// The conversation is a []message in OpenAI's shape, whatever the
// provider: every wire format converts it at the edge (openaiwire.go,
// anthropic.go, ollamawire.go), and trimming, masking, saving and the
// validator all work on this one shape.

// The roles of a message, as OpenAI's wire names them.
const (
	roleSystem    = "system"
	roleUser      = "user"
	roleAssistant = "assistant"
	roleTool      = "tool"
)

// message is one entry of the conversation in OpenAI's shape.
type message struct {
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	ToolCalls  []toolCall      `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Name       string          `json:"name,omitempty"`
	clip       *clip           // a tool result's full-text record, for shrinking it later
	thinking   []thinkingBlock // Anthropic's signed reasoning, sent back in a tool loop
	reasoning  string          // the model's reasoning text, kept in saved chats
	images     []imagePart     // images sent with a user message or read by fs_read_image (images.go)
}

// toolCall is one function call the model asked for.
type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

// functionCall is the function name and its JSON arguments.
type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// toolSpec is a tool offered to the model.
type toolSpec struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

// toolFunction describes a tool to the model.
type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// thinkingBlock is a signed reasoning block that Anthropic requires back,
// unchanged, in the next request of a tool loop.
type thinkingBlock struct {
	Type      string `json:"type"` // thinking or redacted_thinking
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// imagePart is one image of a message: a file read whole and sent as
// base64, or a URL passed to the provider as given.
type imagePart struct {
	mediaType     string // image/png, image/jpeg, image/gif or image/webp; "" for a URL
	data          string // base64 of the file; "" for a URL
	url           string // an http(s) URL; "" for a file
	path          string // the file it was read from, absolute
	width, height int    // pixels; 0 when unknown (a URL)
	size          int    // bytes of the file
	tokens        int    // what it costs in a request, by the provider's rule (imageRule)
}
