//go:build race

package main

// raceEnabled makes TestMain build the binary under test with -race too,
// so the end-to-end and terminal tests also look for data races.
const raceEnabled = true

// raceExitEnv keeps a race-built child from sleeping a second at its exit
// (GORACE's atexit_sleep_ms, 1000 by default, gives its other threads time
// to report): a second of waiting per run of the binary, forty over the
// suite, most of them in tests that run the binary one run after another.
const raceExitEnv = "GORACE=atexit_sleep_ms=0"
