//go:build !race

package main

// raceEnabled is false: the binary under test is built as shipped.
const raceEnabled = false
