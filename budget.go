package main

import "fmt"

// calibration scales estimates by what the provider reported for this model
// in this session, within bounds so one odd answer cannot make it absurd.
type calibration struct {
	ratio    float64 // real / estimated; 0 = none yet
	reported int     // the last prompt token count the provider reported
	estimate int     // our estimate of that same request
}

const (
	minRatio = 0.7
	maxRatio = 1.6
)

// observe records a reported prompt size against our estimate of it.
func (c *calibration) observe(reported, estimated int) {
	if reported <= 0 || estimated <= 0 {
		return
	}
	c.reported, c.estimate = reported, estimated
	r := float64(reported) / float64(estimated)
	if c.ratio == 0 {
		c.ratio = r
	} else {
		c.ratio = (c.ratio + r) / 2 // smooth: one odd answer moves it halfway at most
	}
	c.ratio = min(max(c.ratio, minRatio), maxRatio)
}

// scale applies the ratio to an estimate; never below the raw estimate by
// more than minRatio allows.
func (c *calibration) scale(n int) int {
	if c.ratio == 0 {
		return n
	}
	return int(float64(n)*c.ratio + 0.5)
}

// budget is the token budget of one request and where it came from.
type budget struct {
	tokens int
	source string // for /context: "CONTEXT_BUDGET_TOKENS", "70% of gpt-4o's 128000-token window", ...
	window int    // the model's window, 0 when unknown
	// windowFrom says where the window came from, for /context's window
	// line: the setting, the model table, the server, the cache, a
	// rejection, or the fallback.
	windowFrom string
}

// shownWindow is the window the budget derives from, the fallback's when
// none is known, for /context.
func (b budget) shownWindow() int {
	if b.window <= 0 {
		return fallbackWindow
	}
	return b.window
}

// fallbackWindow is assumed for models nobody knows the window of.
const fallbackWindow = 128000

// budgetFor derives the request budget from the setting or the window.
func budgetFor(setting int, model string, window int, windowSource string) budget {
	from := windowSource
	if window <= 0 && from == "" {
		from = fmt.Sprintf("the fallback: %s is not a known model; set CONTEXT_WINDOW to its window (an 8k model: 8192)", model)
	}
	switch {
	case setting > 0:
		return budget{tokens: setting, source: "CONTEXT_BUDGET_TOKENS", window: window, windowFrom: from}
	case window <= 0:
		return budget{tokens: fallbackWindow * 7 / 10, windowFrom: from,
			source: fmt.Sprintf("70%% of the fallback %d-token window (%s is not a known model; set CONTEXT_WINDOW)", fallbackWindow, model)}
	}
	return budget{tokens: window * 7 / 10, source: fmt.Sprintf("70%% of %s's %d-token window, %s", model, window, windowSource), window: window, windowFrom: from}
}

// estimate prices a message with this session's calibration.
func (a *agent) estimate(m message) int { return a.cal.scale(a.fam.messageTokens(m)) }

// requestTokens is the raw estimate of a request, the figure the provider's
// reported usage calibrates.
func (a *agent) requestTokens(h []message, specs []toolSpec) int {
	n := a.fam.toolsTokens(specs)
	for _, m := range h {
		n += a.fam.messageTokens(m)
	}
	return n
}

// measure is the calibrated estimate of a request, summed the way
// the ladder sums it (ladder.price).
func (a *agent) measure(h []message, specs []toolSpec) int {
	n := a.cal.scale(a.fam.toolsTokens(specs))
	for _, m := range h {
		n += a.estimate(m)
	}
	return n
}

// The shares of the budget the ladder (trim.go) holds results and stubs to.

// callReserve is about what the assistant message asking for a page
// costs, in tokens: it enters the request with the page.
const callReserve = 80

// loopShare is the part of the budget one tool result may take from a
// turn's second tool round on, and loopShareFloor the fewest tokens that
// leaves it. In a tool loop every result is sent again each round: one of
// a quarter of a small budget forces a reduction a round or two later,
// and each reduction rewrites the provider's prompt cache from the first
// message it changes. Held to a sixteenth, a 40k-token session reduces
// two to five times instead of seven to eleven, and caches 87-89% of its
// prompt instead of 77-79% (cache_test.go). A turn's first round, what
// the person asked about, enters whole when masking makes room; so does
// a page of a file, whose length the model chose (as suggested, it fits).
const (
	loopShare      = 16
	loopShareFloor = 2500
)

// smallShare is the part of a small budget (under smallBudget) one result
// may take, from a turn's first round on: a tenth of an 8k window's budget leaves room for six
// rounds after a reduction, so a session reduces about once a question,
// not every other round (longsession_test.go).
const smallShare = 10

// roundsAfter is how many rounds of results at their share fit between
// the low-water mark and the limit.
const roundsAfter = 6

// smallBudget is the budget under which results are held to their share
// from a turn's first round on: 70% of a window under about 18k tokens
// (8k and 16k local models), where one result of the tools' own caps
// would take most of the room.
const smallBudget = 12500
