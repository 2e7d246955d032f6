package main

import (
	"fmt"
	"io"
)

// invocation is what every mode starts from: the edge, the flags, each
// part's options and the run's streams.
type invocation struct {
	e              *edge
	o              *options
	p              parts // what each part of the program gets of the config, built once (configparts.go)
	stdin          io.Reader
	stdout, stderr io.Writer
}

// fail prints err once, as run prints every error, and returns code.
func (in *invocation) fail(code int, err error) int {
	fmt.Fprintf(in.stderr, "yaicli: %v\n", err)
	return code
}
