package main

import (
	"testing"
)

// TestAssembleToolCallVariants: tool calls without an index continue the
// last call unless they name a tool, and a whole call in one delta is one.
func TestAssembleToolCallVariants(t *testing.T) {
	// No index at all (some servers), and a whole call in one delta (xAI).
	body := sseBody(
		`{"choices":[{"delta":{"tool_calls":[{"id":"a","type":"function","function":{"name":"fs_read_file","arguments":"{\"file_"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"paths\":\"x\"}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"id":"b","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"q\"}"}}]},"finish_reason":"tool_calls"}]}`,
	)
	f := newFakeProvider(t, sse(body))
	r, err := testClient(t, f, nil).send(t.Context(), chatRequest{Messages: []message{{Role: roleUser, Content: "q"}}}, streamSink{})
	if err != nil {
		t.Fatal(err)
	}
	calls := r.Message.ToolCalls
	if len(calls) != 2 || calls[0].ID != "a" || calls[0].Function.Arguments != `{"file_paths":"x"}` || calls[1].Function.Name != "web_search" {
		t.Errorf("calls = %+v", calls)
	}
}
