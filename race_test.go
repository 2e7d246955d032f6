//go:build race

package main

// raceExitEnv keeps a race-built child (the test binary run as yaicli or
// as a fake MCP server, built under -race as the run is) from sleeping a
// second at its exit (GORACE's atexit_sleep_ms, 1000 by default, gives its
// other threads time to report): a second of waiting per run of the
// binary, forty over the suite, most of them in tests that run the binary
// one run after another.
const raceExitEnv = "GORACE=atexit_sleep_ms=0"
