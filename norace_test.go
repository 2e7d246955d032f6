//go:build !race

package main

// raceEnabled is false: the binary under test is built as shipped.
const raceEnabled = false

// raceExitEnv is empty: a binary built as shipped has no race runtime.
const raceExitEnv = "GORACE="
