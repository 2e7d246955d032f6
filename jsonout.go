package main

// This file holds what the tools and the events share to write JSON: the
// text a tool returns and an event line are both compact JSON, with &, <
// and > kept as they are (a model reads them, not a browser).

import (
	"encoding/json"
	"io"
)

// writeJSON writes v as compact JSON text without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
