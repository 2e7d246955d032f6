//go:build !race

package main

// raceExitEnv is empty: a test binary built without -race, which the
// end-to-end tests run as yaicli, has no race runtime.
const raceExitEnv = "GORACE="
