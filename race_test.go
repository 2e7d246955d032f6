//go:build race

package main

// raceEnabled makes TestMain build the binary under test with -race too,
// so the end-to-end and terminal tests also look for data races.
const raceEnabled = true
