package main

import "strings"

// outside is what a read outside the free area is, for the rows of the
// question and a refusal: "outside the workspace", or "no workspace" when
// there is none (a start in the home directory, /, or a directory others
// can write to), which noWorkspace explains: a file in the very directory
// yaicli started in is not "outside the workspace".
func (p *permissions) outside() string {
	if p.workspace != "" {
		return "outside the workspace"
	}
	return "no workspace"
}

// noWorkspace is, after a refusal's rows, why there is no workspace and
// how to have one ("; there is no workspace: started in ~, ...; cd into a
// project directory ..."); "" when there is one.
func (p *permissions) noWorkspace() string {
	if p.workspace != "" {
		return ""
	}
	return "; there is no workspace: " + strings.TrimPrefix(p.noFree, "none: ")
}
