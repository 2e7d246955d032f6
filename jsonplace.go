package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"
)

// A JSON file a person edits (mcp.json) that does not decode is said as an
// editor names a place: file:line:column, and what is wrong there in words.

// jsonFileError is err, an error of decoding b (the file at path), with the
// line and column it points at; an error that names no place is said as is.
func jsonFileError(path string, b []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := lineColumn(b, se.Offset)
		return fmt.Errorf("%s:%d:%d: not valid JSON: %v", path, line, col, se)
	case errors.As(err, &te):
		at := valueStart(b, te.Offset)
		line, col := lineColumn(b, at)
		what := te.Field
		if inArray(b, at) { // the decoder names the array, not its element
			what = "each element of " + what
		}
		return fmt.Errorf("%s:%d:%d: %s must be %s, not %s", path, line, col, what, jsonKindWords(te.Type), valueWords(te.Value))
	}
	return fmt.Errorf("%s is not valid JSON: %w", path, err)
}

// lineColumn is the 1-based line and column (in characters) of the byte
// before offset: where a decoder that read up to offset stopped.
func lineColumn(b []byte, offset int64) (line, col int) {
	off := int(min(max(offset, 1), int64(len(b))))
	before := b[:off]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte("\n")) + 1, max(utf8.RuneCount(before[start:]), 1)
}

// valueStart is where the value that ends at offset begins, plus one (as
// a decoder's offset points past what it read): a type error's offset is
// past the value, or past the [ or { that opens it.
func valueStart(b []byte, offset int64) int64 {
	i := int(min(offset, int64(len(b)))) - 1
	if i < 0 {
		return offset
	}
	switch b[i] {
	case '[', '{':
		return int64(i + 1)
	case '"':
		for j := i - 1; j >= 0; j-- {
			if b[j] == '"' && !escaped(b, j) {
				return int64(j + 1)
			}
		}
	}
	j := i
	for j > 0 && bytes.IndexByte([]byte("0123456789+-.eEtruefalsn"), b[j-1]) >= 0 {
		j--
	}
	return int64(j + 1)
}

// inArray reports whether the value at at (plus one) is an array's
// element: a [ or a , comes before it (an object's values follow a :).
func inArray(b []byte, at int64) bool {
	before := bytes.TrimRight(b[:max(at-1, 0)], " \t\r\n")
	return len(before) > 0 && (before[len(before)-1] == '[' || before[len(before)-1] == ',')
}

// escaped reports whether the byte at i follows an odd run of backslashes.
func escaped(b []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// jsonKindWords is what a Go type takes, in JSON's words.
func jsonKindWords(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKindWords(t.Elem())
	case reflect.Slice, reflect.Array:
		return "an array of " + plainKind(t.Elem())
	case reflect.Map:
		return "an object of " + plainKind(t.Elem())
	case reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	}
	return plainKind(t)
}

// plainKind is a scalar type in JSON's words, plural as an element.
func plainKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "strings"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32:
		return "whole numbers"
	case reflect.Float64, reflect.Float32:
		return "numbers"
	case reflect.Struct, reflect.Map:
		return "objects"
	}
	return "values"
}

// valueWords is the decoder's name of the value found ("string",
// "number", "array", "object", "bool"), in words.
func valueWords(v string) string {
	switch v {
	case "array", "object":
		return "an " + v
	case "bool":
		return "true or false"
	}
	return "a " + v
}
