package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// Exit codes are part of the interface; --help and docs/USING.md list them.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitDepthLimit  = 3
	exitContextFull = 4
	exitInterrupted = 130
)

// errDepthLimit ends a turn whose model kept asking for tools past
// MAX_TOOL_CALL_DEPTH rounds; errors.Is finds it, and its advice says what
// raises the limit where the person is.
var errDepthLimit error = depthLimit{}

// depthLimit is errDepthLimit's type: a comparable value, so errors.Is
// matches it, that knows its advice.
type depthLimit struct{}

// Error says what stopped the turn.
func (depthLimit) Error() string { return "tool-round limit reached" }

// advice names what can raise the limit: in the REPL, /max-turns for the
// rest of the session (a flag cannot be passed mid-session); in a
// one-shot run, --max-turns or the setting.
func (depthLimit) advice(repl bool) string {
	if repl {
		return `say "continue" for as many rounds again, or raise the limit for this session with /max-turns N (MAX_TOOL_CALL_DEPTH in config.ini for every session)`
	}
	return "raise the limit with --max-turns N for one run, or MAX_TOOL_CALL_DEPTH (YAI_MAX_TOOL_CALL_DEPTH) for every run; or ask for a smaller step"
}

// failures is how a run tells a failure and what it exits with: the
// secrets to hide, what hints name, and whether the tool-round limit is a
// failure (EXIT_ON_DEPTH_LIMIT). Built once in run (config.failures).
type failures struct {
	red        *redactor
	hints      hintFacts
	depthFails bool
}

// exitCode reports err once on stderr and maps it to the exit code.
func exitCode(ctx context.Context, err error, f failures, stderr io.Writer) int {
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "yaicli: interrupted")
		return interruptCode(ctx)
	case errors.Is(err, errDepthLimit):
		fmt.Fprintf(stderr, "  hint: %s\n", errorHint(err, f.hints, false))
		if f.depthFails {
			return exitDepthLimit
		}
		return exitOK
	}
	fmt.Fprintf(stderr, "yaicli: %s\n", f.red.errorText(err))
	if h := errorHint(err, f.hints, false); h != "" {
		fmt.Fprintf(stderr, "  hint: %s\n", h)
	}
	if errors.Is(err, errContextLength) {
		return exitContextFull
	}
	return exitFailure
}

// interruptCode is the exit code of a run ended by ctx: 128 plus the
// signal's number for SIGTERM (143) and SIGHUP (129), as shells report a
// process killed by it, else 130 (SIGINT, Ctrl+C).
func interruptCode(ctx context.Context) int {
	var s signalled
	if errors.As(context.Cause(ctx), &s) {
		if n, ok := s.sig.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return exitInterrupted
}

// hintFacts is what hints name of the configuration: the timeout, the
// provider and the variable its key may come from (config.failures).
type hintFacts struct {
	timeout  time.Duration
	provider string
	keyEnv   string
	model    string
	baseURL  string // where requests go, user:password@ hidden
	// baseFrom says where a BASE_URL the person set came from ("" for the
	// provider's own), for a failure that may be the wrong server's.
	baseFrom string
}

// advised is an error that knows what a person should do about it; errorHint
// asks it before the provider's kind of rejection.
type advised interface {
	advice(repl bool) string
}

// errorHint says what a person should do about err, or "" when nothing helps.
// repl says whether REPL commands (/compact) can be suggested. An error
// that knows its own advice (advised) gives it first.
func errorHint(err error, c hintFacts, repl bool) string {
	if isTimeout(err) {
		return fmt.Sprintf("the provider did not answer within TIMEOUT (%s): raise TIMEOUT (YAI_TIMEOUT) for a slow or busy model, or try again later", c.timeout)
	}
	var ad advised
	if errors.As(err, &ad) {
		if h := ad.advice(repl); h != "" {
			return h
		}
	}
	var ae *apiError
	if !errors.As(err, &ae) {
		return ""
	}
	if h := foreignBaseHint(ae.Kind, c); h != "" {
		return h
	}
	switch ae.Kind {
	case kindAuth:
		if v := c.keyEnv; v != "" {
			return "check the key in API_KEY / YAI_API_KEY or " + v
		}
		return "check the key in API_KEY / YAI_API_KEY"
	case kindRateLimit, kindOverloaded, kindServer:
		return "the provider is busy; wait a moment and try again"
	case kindQuota:
		return "the account's quota or credits are used up: check the plan and billing at " + c.provider + " (retrying will not help), or use another PROVIDER"
	case kindOutputCap:
		return "lower MAX_TOKENS (--max-tokens) to what the model allows"
	case kindTooLarge:
		return "the request is over the provider's size limit: send less (fewer or smaller files), or lower TOOL_OUTPUT_MAX_CHARS"
	case kindContextLength:
		return contextHint(ae, repl)
	case kindNoModel:
		return modelHint(c)
	case kindNotAPI:
		return fmt.Sprintf("nothing at BASE_URL %s answers chat requests: check BASE_URL (YAI_BASE_URL); an OpenAI-compatible server's URL usually ends in /v1 (Ollama: http://localhost:11434/v1)", c.baseURL)
	case kindOther:
		return imageHint(ae.Message)
	}
	return ""
}

// foreignBaseHint is the advice when PROVIDER=anthropic sends to a
// BASE_URL the person set elsewhere (config.ini's local server, say) and
// what answers is not Anthropic: where BASE_URL came from and that the
// server there may not speak the Messages API, rather than "try again".
func foreignBaseHint(k errKind, c hintFacts) string {
	if c.provider != providerAnthropic || c.baseFrom == "" || c.baseURL == presets[c.provider].baseURL {
		return ""
	}
	switch k {
	case kindNotAPI, kindServer: // what answered is no Anthropic: a page, a 404, a server error
		return fmt.Sprintf("BASE_URL %s comes from %s and is not Anthropic's, and the server there may not speak Anthropic's Messages API (/v1/messages): "+
			"remove it there to reach api.anthropic.com, or use that server's own PROVIDER (ollama, openai)", c.baseURL, c.baseFrom)
	}
	return ""
}

// modelHint says that MODEL names a model the server does not have, and
// how to list the ones it has.
func modelHint(c hintFacts) string {
	fix := fmt.Sprintf("check MODEL (-M, YAI_MODEL): the server has no model %q, or the key may not use it", c.model)
	switch {
	case c.provider == providerOllama:
		return fix + "; `ollama list` lists the models it has, `ollama pull " + c.model + "` fetches one"
	case c.provider == providerAnthropic:
		return fix + "; list the models: curl -s " + endpoint(c.baseURL, "/models") + ` -H "x-api-key: $ANTHROPIC_API_KEY" -H "anthropic-version: 2023-06-01"`
	case c.keyEnv != "" && c.baseURL == presets[c.provider].baseURL:
		return fix + "; list the models: curl -s " + endpoint(c.baseURL, "/models") + ` -H "Authorization: Bearer $` + c.keyEnv + `"`
	}
	return fix + "; list the models it serves: curl -s " + endpoint(c.baseURL, "/models") + " (with the key's Authorization header if it needs one)"
}

// contextHint is the advice for a context-length failure, fit to the mode:
// /compact is a REPL command and is never offered to a one-shot run.
func contextHint(ae *apiError, repl bool) string {
	switch {
	case ae.MaxTokens && repl:
		return "lower MAX_TOKENS (--max-tokens), run /compact, or lower CONTEXT_BUDGET_TOKENS"
	case ae.MaxTokens:
		return "lower MAX_TOKENS (--max-tokens) or CONTEXT_BUDGET_TOKENS, or send less"
	case repl:
		return "run /compact in the REPL, or lower CONTEXT_BUDGET_TOKENS or TOOL_OUTPUT_MAX_CHARS"
	}
	return "send less (pipe through head or tail), or lower CONTEXT_BUDGET_TOKENS or TOOL_OUTPUT_MAX_CHARS"
}

// signalled is the cause of a context cancelled by a signal.
type signalled struct{ sig os.Signal }

// Error names the signal.
func (s signalled) Error() string { return "received " + s.sig.String() }
