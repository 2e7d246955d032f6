// Command tokenfit fits the prices of yaicli's token estimator on the
// samples in testdata/ and shows where they miss. It is a tool for the
// people who work on the estimator, not part of yaicli: its own main,
// outside the product package, run from anywhere in the repository.
//
//	go run ./tools/tokenfit fit -o /tmp/prices.go        # every family
//	go run ./tools/tokenfit fit -only gemma              # one, to stdout
//	go run ./tools/tokenfit ratios -o /tmp/ratios.tsv    # estimate/real per sample
//	go run ./tools/tokenfit explain testdata/tokens/check/set1.jsonl:7
//
// The estimator is package main's, which nothing can import: tokenfit
// adds one test to that package for one run (go test -overlay, the tree
// untouched) that counts each sample's pieces with the estimator itself
// and writes them with every family's prices; the fitting and the tables
// are done here on those counts, as an estimate is the sum over pieces of
// count times price. README.md says how the samples were made.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// usage is the help text.
const usage = `usage: tokenfit fit [-only FAMILY] [-o FILE]   fit the families' prices on the fit samples
       tokenfit ratios [-samples A,B] [-o FILE] estimate/real per sample and family, as TSV
       tokenfit explain FILE:N                  the pieces of one sample and their cost per family
Sample files are named relative to the repository's root.`

// run runs one subcommand and returns the exit code: 0, 1 on failure, 2
// on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("tokenfit "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write to this file instead of stdout")
	only := fs.String("only", "", "fit only this family (fit)")
	samples := fs.String("samples", "", "comma-separated sample files (ratios; default: the check files)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintf(stderr, "tokenfit: %v\n", err)
		return 1
	}
	var text string
	switch args[0] {
	case "fit":
		text, err = fitCommand(root, *only, stderr)
	case "ratios":
		files := checkFiles(root)
		if *samples != "" {
			files = strings.Split(*samples, ",")
		}
		text, err = ratiosCommand(root, files)
	case "explain":
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, usage)
			return 2
		}
		text, err = explainCommand(root, fs.Arg(0))
	default:
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if err == nil {
		err = write(*out, stdout, text)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tokenfit: %v\n", err)
		return 1
	}
	return 0
}

// write writes text to the file path, or to stdout when path is empty.
func write(path string, stdout io.Writer, text string) error {
	if path == "" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
