package main

import "golang.org/x/sys/unix"

// The ioctls that read and set terminal modes have other names on the BSDs
// and macOS (termios_bsd.go).
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
