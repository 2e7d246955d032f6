package main

import "fmt"

// noPrefixWhy is why commandPrefix finds no prefix of cmd that [a]lways
// could allow, in the person's words, for the approval question: it takes
// commandPrefix's checks in the same order and names the first that
// failed, so the question states the real reason (rm -rf build: yaicli
// knows no harmless options of rm), not a list of every possible one. ""
// when cmd has a prefix.
func noPrefixWhy(cmd string) string {
	c := splitCommand(cmd)
	switch {
	case c.unsure:
		return "yaicli cannot tell exactly how the shell reads it (an expansion as the command, quoting, a substitution or a here-document)"
	case c.redirect:
		return "it redirects to or from a file"
	case len(c.parts) != 1:
		return fmt.Sprintf("it is %d commands", len(c.parts))
	}
	words := stripKeywords(c.parts[0])
	switch {
	case len(words) == 0:
		return "it names no program"
	case !rePlainWord.MatchString(words[0]):
		return fmt.Sprintf("%q is not a plain program name (a path, an assignment or an expansion)", words[0])
	case runsOthers(words[0]):
		return fmt.Sprintf("%s runs other programs, so a prefix would allow anything", words[0])
	case len(words) > 1 && reSubcommand.MatchString(words[1]) && runVerbs[words[1]]:
		return fmt.Sprintf("%s %s runs other programs, so a prefix would allow anything", words[0], words[1])
	case len(words) > 1 && reSubcommand.MatchString(words[1]):
		return ""
	case tableOf(words[:1]) == "" && words[0] != "sed":
		return fmt.Sprintf("yaicli knows no harmless options of %s, so %q would allow every use of it", words[0], words[0])
	}
	return ""
}
