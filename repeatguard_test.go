package main

import (
	"strings"
	"testing"
)

// TestRepeatGuardOnWires: on each wire, a model that asks for the same
// call three times in a turn gets it run twice; the third is not run,
// and its result says it ran twice with the same result and asks for a
// different step. REPEAT_CALL_LIMIT=0 runs all three; a call with other
// arguments is another call.
func TestRepeatGuardOnWires(t *testing.T) {
	t.Parallel()
	same := wireScript{call: "fs_read_file", args: `{"file_paths":"go.mod"}`}
	respaced := wireScript{call: "fs_read_file", args: `{ "file_paths" : "go.mod" }`}
	other := wireScript{call: "fs_read_file", args: `{"file_paths":"go.mod","limit":20}`}
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			t.Parallel()
			script := []wireScript{same, other, respaced, same, {text: "done"}}
			r, reqs := wireRun(t, wire, script, []string{"read go.mod"})
			if r.code != 0 || len(reqs) != 5 {
				t.Fatalf("code %d, %d requests\n%s", r.code, len(reqs), r.stderr)
			}
			calls, ok := callsSent(t, wire, reqs[4])
			if !ok || len(calls) != 4 {
				t.Fatalf("calls sent: %+v (paired %v)", calls, ok)
			}
			for i, c := range calls[:3] {
				if !strings.Contains(c.result, "module yaicli") {
					t.Errorf("call %d did not run: %.200s", i+1, c.result)
				}
			}
			if res := calls[3].result; !strings.Contains(res, "not run") || !strings.Contains(res, "already ran twice") ||
				!strings.Contains(res, "same result") || !strings.Contains(res, "different step") {
				t.Errorf("the third same call's result = %s", res)
			}
			if n := strings.Count(r.stderr, "@Function call: fs_read_file"); n != 3 || !strings.Contains(r.stderr, "fs_read_file not run: the same call with the same arguments already ran twice") {
				t.Errorf("%d calls shown, stderr:\n%s", n, r.stderr)
			}

			r, reqs = wireRun(t, wire, script, []string{"read go.mod"}, "YAI_REPEAT_CALL_LIMIT=0")
			calls, _ = callsSent(t, wire, reqs[len(reqs)-1])
			if r.code != 0 || len(calls) != 4 || !strings.Contains(calls[3].result, "module yaicli") {
				t.Errorf("REPEAT_CALL_LIMIT=0: code %d, calls %+v", r.code, calls)
			}
		})
	}
}

// TestRepeatGuardPerTurn: the count starts again each turn: in --chat, a
// call made twice in the first turn runs again in the second.
func TestRepeatGuardPerTurn(t *testing.T) {
	t.Parallel()
	read := sse(toolStream(fakeCall{"c1", "fs_read_file", `{"file_paths":"go.mod"}`}))
	f := newFakeProvider(t, read, read, sse(textStream("one")), read, sse(textStream("two")))
	r := runBinary(t, f, e2e{args: []string{"--chat"}, stdin: "first\nsecond\n"})
	if n := strings.Count(r.stdout+r.stderr, "@Function call: fs_read_file"); r.code != 0 || n != 3 || strings.Contains(r.stdout+r.stderr, "not run") {
		t.Errorf("code %d, %d calls run\n%s\nstdout %s", r.code, n, r.stderr, r.stdout)
	}
}

// TestRepeatNote: calls are the same whatever the order of their
// arguments, and the note says how often the call ran and whether its
// results were the same.
func TestRepeatNote(t *testing.T) {
	g := repeatGuard{limit: 1, runs: map[string]*repeatRuns{callKey(toolCall{Function: functionCall{Name: "x", Arguments: `{"b":1,"a":2}`}}): {n: 1, result: "r", same: true}}}
	if k := callKey(toolCall{Function: functionCall{Name: "x", Arguments: `{"a":2, "b":1}`}}); g.runs[k] == nil {
		t.Errorf("the same arguments in another order are another call")
	}
	if note := repeatNote("x", g.runs[callKey(toolCall{Function: functionCall{Name: "x", Arguments: `{"a":2,"b":1}`}})]); !strings.Contains(note, "already ran once") {
		t.Errorf("note = %q", note)
	}
	if note := repeatNote("x", &repeatRuns{n: 3, same: false}); !strings.Contains(note, "3 times") || strings.Contains(note, "same result") {
		t.Errorf("note for differing results = %q", note)
	}
}
