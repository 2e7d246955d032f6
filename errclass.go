package main

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Providers word the same rejection in many ways, so a rejection is
// recognised by the concepts it names, not by a list of phrases: a
// context-length error names the input side (prompt, input, messages,
// request, context, tokens) together with an excess (exceeds, too long, over
// a limit or maximum) in a token or context sense, or relates two token
// counts. Look-alikes that name tokens but need another fix are told apart
// first: rate limits and quotas, output caps on max_tokens, byte caps, one
// string too long, an image too large.

// errText is a rejection prepared for reading: every string of the body,
// lower-cased, identifiers' underscores read as spaces, output-side phrases
// (max_tokens, completion tokens) replaced by outMark.
type errText struct {
	raw    string         // lower-cased, before masking
	text   string         // masked
	fields map[string]int // numeric fields: code, n_ctx, n_prompt_tokens, status_code
	page   bool           // the body is not JSON: a web server's page or plain text
}

// outMark stands for an output-side phrase in masked text; it contains no
// letters, so no concept below matches inside it.
const outMark = "«out»"

// outputPhrases name the output side of a request: what max_tokens caps.
var outputPhrases = regexp.MustCompile(`max[ _]?(?:completion|new|output)?[ _]?tokens(?:[ _]to[ _]sample)?|maxoutputtokens|num[ _]predict|maximum tokens you requested|(?:output|completion) tokens?|tokens? (?:for|in) the completion|(?:for|in) the (?:completion|output)|requested output|generation length|\bprediction\b`)

// readError gathers the strings of a body (or the body itself when it is
// not JSON) into an errText.
func readError(body []byte) errText {
	var v any
	var parts []string
	fields := map[string]int{}
	page := json.Unmarshal(body, &v) != nil
	if !page {
		collect(v, "", &parts, fields)
	} else {
		parts = append(parts, string(body))
	}
	raw := strings.ToLower(camelWords(strings.Join(parts, " | ")))
	raw = strings.NewReplacer("\\n", " ", "\n", " ").Replace(raw)
	raw = snakeWords(raw)
	return errText{raw: raw, text: outputPhrases.ReplaceAllString(raw, outMark), fields: fields, page: page}
}

// collect appends v's strings to parts (snake_case identifiers read as
// words) and its numeric fields to fields, skipping ids and links, which
// carry digits and words that mean nothing here.
func collect(v any, key string, parts *[]string, fields map[string]int) {
	switch t := v.(type) {
	case string:
		if n, err := strconv.Atoi(t); err == nil && key == "code" {
			fields[key] = n // a vendor's numeric code as a string ("1261"): a code, not a size
		}
		if isIdentifier(t) {
			t = strings.ReplaceAll(t, "_", " ")
		}
		*parts = append(*parts, t)
	case float64:
		fields[key] = int(t)
	case []any:
		for _, x := range t {
			collect(x, key, parts, fields)
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a stable order, so one body always reads the same
		for _, k := range keys {
			x := t[k]
			if k == "id" || strings.HasSuffix(k, "_id") || k == "url" || k == "links" || k == "request" {
				continue
			}
			collect(x, k, parts, fields)
		}
	}
}

// camelWords reads CamelCase identifiers (ContextWindowExceededError) as
// their words: a space goes between a lower-case letter and the capital
// after it.
func camelWords(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			b.WriteByte(' ')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// snakeWords reads identifiers quoted in prose (prompt_tokens,
// max_seq_len) as their words: an underscore between two letters is a space.
func snakeWords(s string) string {
	b := []byte(s)
	for i := 1; i+1 < len(b); i++ {
		if b[i] == '_' && isLetter(b[i-1]) && isLetter(b[i+1]) {
			b[i] = ' '
		}
	}
	return string(b)
}

// identifierRe matches an error code or type such as context_length_exceeded.
var identifierRe = regexp.MustCompile(`^[A-Za-z]+(?:_[A-Za-z0-9]+)+$`)

// isIdentifier reports whether s is a snake_case code rather than prose.
func isIdentifier(s string) bool { return identifierRe.MatchString(s) }

// The concepts, as word patterns over masked, lower-cased text.
var (
	// inputNoun is the side of the request that trimming makes smaller.
	inputNoun = regexp.MustCompile(`\b(?:prompts?|inputs?|context|messages?|requests?|tokens?|conversation|history|questions?)\b|输入|提示|消息|上下文|对话`)
	// inputSide is the narrower set that blames the prompt even when an
	// output phrase is also named (context and request are too general).
	inputSide = regexp.MustCompile(`\b(?:prompts?|inputs?|messages|conversation|history)\b`)
	// excess is a quantity over a bound.
	excess = regexp.MustCompile(`exceed|too long|too large|too big|too many|(?:longer|greater|more|larger) (?:\w+ )?than|\bover(?:flow)?s?\b|\blimit|maximum|\bmax\b|beyond|not enough|cannot fit|too long to fit|at most|no more than|less than|up to|\b(?:should|must) (?:be|have) (?:<=|less|at most|no more|\[|between)|<=|>=|\s>\s|\brange\b|超过|超出|超长|过长|太长`)
	// lengthExcess says "too long" of an input, which is a length in tokens
	// even when the text never says tokens (Bedrock, Ollama).
	lengthExcess = regexp.MustCompile(`\b(?:prompts?|inputs?|messages?|conversation|request)\b(?: \w+)?(?: is| are)? (?:too long|longer than)|\b(?:input|prompt) length\b|(?:输入|提示词?|消息|上下文|prompt)\s*(?:长度)?\s*(?:超长|过长|太长)`)
	// tokenSense says the bound is on tokens or the context window.
	tokenSense = regexp.MustCompile(`\btokens?\b|\bcontext\b|n_ctx|n ctx|max model len|model (?:max(?:imum)? )?length|\bseq(?:uence)? len(?:gth)?\b|\b(?:input|prompt) length\b|上下文`)
	// byteSense says the bound is on bytes of the request body.
	byteSense = regexp.MustCompile(`\bbytes?\b|\d\s?(?:[km]i?b|megabytes?|kilobytes?)\b|payload|entity too large|request too large|'body'|body (?:is )?too|request body|maximum size|size limit`)
	// imageCap is a limit on an image's size or dimensions.
	imageCap = regexp.MustCompile(`\bimages?\b.*(?:exceed|too large|too big|dimension|pixels|\bmb\b|maximum)`)
	// stringCap is one string or array (a message's content, a list of
	// stops) said to be over its maximum length.
	stringCap = regexp.MustCompile(`\b(?:string|array) (?:too long|above max)|\b(?:string|array) with maximum length|\bstring should have`)
	// fieldMark names one value of the request rather than the whole input:
	// an indexed or dotted path, or the words for a single value.
	fieldMark = regexp.MustCompile(`\w\[\d*\]|\.(?:content|name|description|text|arguments)\b|\b(?:string|array|field|property|value|parameter|param|content)\b`)
	// charSense says a bound is in characters.
	charSense = regexp.MustCompile(`\bchar(?:acter)?s?\b`)
	// lengthBound is a length named as a bound ("max length", "length
	// limit"): of the input, it is a context length in the provider's unit.
	lengthBound = regexp.MustCompile(`\b(?:max(?:imum)?|allowed|permitted) (?:\w+ )?length\b|\blength (?:limit|exceeded)\b|长度`)
	// windowNoun names the model's window itself: exceeding it is a
	// context-length rejection whatever the sentence's subject.
	windowNoun = regexp.MustCompile(`\bcontext (?:window|length|size)\b|\bmodel (?:max(?:imum)? )?length\b|\bmax(?:imum)? context\b`)
	// reduceInput asks for the input to be made shorter: the remedy a heal
	// applies, so the bound it names is the input's length.
	reduceInput = regexp.MustCompile(`\b(?:reduce|shorten|decrease|lower|cut) (?:the |your )?(?:(?:length|size) of (?:the |your )?)?(?:messages?|prompts?|inputs?|conversation|context|history)\b`)
	// rateText is a limit per unit of time: wait, then retry.
	rateText = regexp.MustCompile(`rate[ _-]?limit|too many requests|per (?:minute|min|second|hour|day)\b|\b[tr]p[md]\b|tokens per|requests per|throttl|slow down|retry in|try again in|resource (?:has been )?exhausted|wait before trying again`)
	// quotaStrong is money or plan exhausted; no wait helps.
	quotaStrong = regexp.MustCompile(`insufficient[ _]quota|insufficient (?:balance|funds|credits?)|\bcredits?\b|\bbalance\b|payment required|billing[ _]hard[ _]limit|\blimit: 0\b|out of credits`)
	// quotaWeak is quota or billing named without a time unit.
	quotaWeak = regexp.MustCompile(`\bquota\b|billing|\bplan\b`)
	// modelWord names the model: a 404 that does is about the model asked
	// for (Anthropic's not_found_error says only "model: NAME").
	modelWord = regexp.MustCompile(`\bmodels?\b`)
	// modelMissing says the server does not know the model asked for, in
	// the words of a 400 (DeepSeek's "Model Not Exist", OpenRouter's "not a
	// valid model ID") or an in-stream error.
	modelMissing = regexp.MustCompile(`\bmodels?\b[^|.]{0,60}\b(?:does ?n[o']t exist|not exist|not found|not a valid model)|\b(?:unknown|invalid|no such) model\b`)
	// bareNotFound is a web router's answer to a path it has no route for
	// ("Not Found", llama-server's "File Not Found", "404 page not found"),
	// not a server's words about something the request named.
	bareNotFound = regexp.MustCompile(`^\W*(?:\d{3}\W+)?(?:(?:file|page|route|path|url|resource|method)\W+)?not\W+(?:found|allowed)\b`)
	// overloaded is a busy server: wait, then retry.
	overloadedText = regexp.MustCompile(`overloaded|server is busy|temporarily unavailable|capacity`)
)

// clauses splits text at sentence ends and field separators, so a noun and
// an excess count together only when they are in one statement.
func clauses(t string) []string { return clauseBreak.Split(t, -1) }

// clauseBreak is a sentence end or a field separator.
var clauseBreak = regexp.MustCompile(`[.;!?|]\s|\n|\s\|\s`)

// kindOf is the classification proper: the kind of a rejection from its
// status and words, negatives first. e receives the numbers.
func kindOf(status int, t errText, e *apiError) errKind {
	if c := t.fields["code"]; status == 0 && c >= 100 && c < 600 {
		status = c // an in-stream error may carry its HTTP status; a vendor's own code (1261) is none
	}
	switch {
	case status == 401 || status == 403:
		return kindAuth
	case status == 402 || quotaStrong.MatchString(t.raw):
		return kindQuota
	case rateText.MatchString(t.raw):
		return kindRateLimit
	case quotaWeak.MatchString(t.raw) && (status == 429 || strings.Contains(t.raw, "exceeded")):
		return kindQuota
	case status == 429:
		return kindRateLimit
	case status == 529 || status == 503 || overloadedText.MatchString(t.raw):
		return kindOverloaded
	case status == 404 && modelWord.MatchString(t.raw), (status == 400 || status == 0) && modelMissing.MatchString(t.raw):
		return kindNoModel
	case status == 501 || (status == 404 || status == 405) && (t.page || bareNotFound.MatchString(t.raw)):
		return kindNotAPI // nothing at this URL takes chat requests: a page, or a router's bare "Not Found"
	case imageCap.MatchString(t.raw) && !tokenSense.MatchString(t.text):
		return kindOther
	case isOneValueCap(t):
		return kindOther
	case isOutputCap(t, e):
		return kindOutputCap
	case isTooLarge(status, t):
		return kindTooLarge
	case contextStatus(status) && isContext(t, e):
		return kindContextLength
	case status == 500 || status == 502 || status == 504:
		return kindServer
	}
	return kindOther
}

// contextStatus reports whether a status can carry a context-length
// rejection: client errors about the request, local servers' 500s, and
// in-stream errors (0).
func contextStatus(status int) bool {
	switch status {
	case 0, 400, 413, 422, 500:
		return true
	}
	return false
}

// isOutputCap reports an output cap: an output phrase over a bound, with
// no input side blamed. The stated cap goes to e.Cap.
func isOutputCap(t errText, e *apiError) bool {
	if !strings.Contains(t.text, outMark) || inputSide.MatchString(t.text) {
		return false
	}
	for _, c := range clauses(t.text) {
		if strings.Contains(c, outMark) && excess.MatchString(strings.ReplaceAll(c, outMark, " ")) {
			n := scanNumbers(t)
			e.Cap = n.limit
			return true
		}
	}
	return false
}

// isTooLarge reports a byte cap on the request body: byte words with an
// excess (not a server's own "out of memory, tried to allocate 20 MiB"),
// or a 413 that says nothing of tokens or context.
func isTooLarge(status int, t errText) bool {
	if tokenSense.MatchString(t.text) {
		return false
	}
	return status == 413 || byteSense.MatchString(t.raw) && excess.MatchString(t.raw)
}

// isOneValueCap reports one value of the request over its own bound: a
// string or an array too long, or a length or character cap said of a
// named field (messages[1].content, a tool's description) or of nothing
// that is the input. Shrinking the conversation does not fix it.
func isOneValueCap(t errText) bool {
	if stringCap.MatchString(t.raw) {
		return true
	}
	for _, c := range clauses(t.raw) {
		if !excess.MatchString(c) || !charSense.MatchString(c) && !lengthBound.MatchString(c) {
			continue
		}
		if fieldMark.MatchString(c) || charSense.MatchString(c) && !inputNoun.MatchString(c) && !tokenSense.MatchString(c) {
			return true
		}
	}
	return false
}

// inputExcess reports a clause that says the input is over a bound: too
// long; or named with an excess in tokens (sense), in characters, or of a
// length bound ("prompt exceeds max length"); or a request to shorten it.
// A clause that names one field is about that field, not the input.
func inputExcess(c string, sense bool) bool {
	if lengthExcess.MatchString(c) || reduceInput.MatchString(c) || windowNoun.MatchString(c) && excess.MatchString(c) {
		return true
	}
	if fieldMark.MatchString(c) || !inputNoun.MatchString(c) || !excess.MatchString(c) {
		return false
	}
	return sense || charSense.MatchString(c) || lengthBound.MatchString(c)
}

// isContext reports a context-length rejection by its concepts, and fills
// e's numbers from its words.
func isContext(t errText, e *apiError) bool {
	sense := tokenSense.MatchString(t.text) || reduceInput.MatchString(t.text)
	found := false
	for _, c := range clauses(t.text) {
		if found = inputExcess(strings.ReplaceAll(c, outMark, " "), sense); found {
			break
		}
	}
	n := scanNumbers(t)
	if !found && !(n.limit > 0 && n.actual > n.limit && sense) {
		return false
	}
	e.Limit, e.Actual = n.limit, n.actual
	e.CharLimit, e.CharActual = n.charLimit, n.charActual
	if n.by > 0 && e.Limit > 0 && e.Actual == 0 {
		e.Actual = e.Limit + n.by
	}
	if v := t.fields["n_ctx"]; v > 0 {
		e.Limit = v
	}
	if v := t.fields["n_prompt_tokens"]; v > 0 {
		e.Actual = v
	}
	e.MaxTokens = strings.Contains(t.text, outMark)
	return true
}

// counts are the figures a rejection states: limit, actual and an excess
// in tokens, and a limit and actual stated in characters (a pre-check that
// counts characters; never a token window).
type counts struct{ limit, actual, by, charLimit, charActual int }

// put records v in its role, in characters when chars; the first figure of
// each role is the one kept.
func (c *counts) put(role string, v int, chars bool) {
	slot := map[string]*int{"limit": &c.limit, "actual": &c.actual, "by": &c.by}[role]
	if chars {
		slot = map[string]*int{"limit": &c.charLimit, "actual": &c.charActual}[role]
	}
	if slot != nil && (*slot == 0 || role == "by") {
		*slot = v
	}
}

// numberRe finds integers, with thousands separators.
var numberRe = regexp.MustCompile(`\d{1,3}(?:,\d{3})+|\d+`)

// limitCue and actualCue are words that, shortly before a number, say
// whether it is the bound or the request's size.
var (
	limitCue  = regexp.MustCompile(`maximum|\bmax\b|limit|allowed|allows|supports?|up to|\bonly\b|exceeds?|must be|should be|at most|less than|no more than|context (?:length|window|size|of)|n_ctx|n ctx|model length|max model len|seq len|window|capacity|range|<=|\bjust\b|equal to|限制|上限|最大|最多`)
	actualCue = regexp.MustCompile(`request|requested|resulted in|contains?|received|given|\bhas\b|\bhave\b|count|length|\bgot\b|sent|total|prompt|input|keep|n_keep|current|当前|输入|请求`)
)

// charUnit is a number's unit word saying characters.
var charUnit = regexp.MustCompile(`^\W*char(?:acter)?s?\b`)

// scanNumbers reads the limit, the actual size and an excess ("by N
// tokens") from masked text, in whichever order the provider put them;
// figures followed by "characters" are kept apart.
func scanNumbers(t errText) counts {
	var c counts
	s := t.text
	prevEnd := 0
	for _, loc := range numberRe.FindAllStringIndex(s, -1) {
		v, ok := countAt(s, loc)
		if !ok {
			continue
		}
		left := clauseTail(s[prevEnd:loc[0]])
		right := s[loc[1]:min(len(s), loc[1]+40)]
		prevEnd = loc[1]
		if trailingCode(s, loc, left) || bracketed(s, loc) || v == t.fields["code"] || v == t.fields["status_code"] {
			continue // the error's own code, echoed in its words
		}
		role := numberRole(left, right)
		if role == "limit" && strings.HasPrefix(strings.TrimSpace(right), "(exclusive)") {
			v-- // "from 1 (inclusive) to 65537 (exclusive)"
		}
		c.put(role, v, charUnit.MatchString(right))
	}
	reversed := func(limit, actual int) bool {
		return limit > 0 && actual > 0 && actual < limit && !strings.Contains(s, outMark) && !strings.Contains(s, "+")
	}
	if reversed(c.limit, c.actual) {
		c.limit, c.actual = c.actual, c.limit // "A exceeds B" read the wrong way round
	}
	if reversed(c.charLimit, c.charActual) {
		c.charLimit, c.charActual = c.charActual, c.charLimit
	}
	return c
}

// bracketed reports a number alone in square brackets: a vendor's code
// ("[1261] Prompt exceeds max length"), not a size.
func bracketed(s string, loc []int) bool {
	return loc[0] > 0 && s[loc[0]-1] == '[' && strings.HasPrefix(s[loc[1]:], "]")
}

// countAt parses the number at loc when it stands alone (not part of a
// model name, an id or a version) and is big enough to be a token count.
func countAt(s string, loc []int) (int, bool) {
	if loc[0] > 0 {
		if b := s[loc[0]-1]; isWordByte(b) || strings.IndexByte("-._/<", b) >= 0 {
			return 0, false
		}
	}
	if loc[1] < len(s) {
		b := s[loc[1]]
		if isWordByte(b) || b == '-' || b == '_' || (b == '.' && loc[1]+1 < len(s) && s[loc[1]+1] >= '0' && s[loc[1]+1] <= '9') {
			return 0, false
		}
	}
	v, err := strconv.Atoi(strings.ReplaceAll(s[loc[0]:loc[1]], ",", ""))
	return v, err == nil && v >= 64
}

// isWordByte reports a letter or digit.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// clauseTail is the end of s after its last sentence break, at most six words.
func clauseTail(s string) string {
	if i := strings.LastIndexAny(s, ".;|"); i >= 0 && (i+1 >= len(s) || s[i+1] == ' ') {
		s = s[i+1:]
	}
	w := strings.Fields(s)
	return strings.Join(w[max(0, len(w)-6):], " ")
}

// tokenWord is the word tokens itself.
var tokenWord = regexp.MustCompile(`\btokens?\b`)

// quantityName is a word that names the number in parentheses after it.
var quantityName = regexp.MustCompile(`^(?:n_ctx|n_keep|ctx|keep|len|length|size|window|count|allowed|maximum|max)$`)

// trailingCode reports a number in parentheses that ends a message whose
// clause never says tokens: an error code ("exceeds limit (2013)"), not a size.
func trailingCode(s string, loc []int, left string) bool {
	if loc[0] == 0 || s[loc[0]-1] != '(' || !strings.HasPrefix(s[loc[1]:], ")") {
		return false
	}
	rest := strings.TrimLeft(s[loc[1]+1:], ". ")
	w := strings.Fields(strings.TrimSuffix(strings.TrimSpace(left), "("))
	named := len(w) > 0 && quantityName.MatchString(w[len(w)-1]) // "n_ctx (7424)" names what it counts
	return (rest == "" || strings.HasPrefix(rest, "|")) && !tokenWord.MatchString(left) && !named
}

// numberRole says what a number is by the words around it: "limit",
// "actual", "by" (an excess), or "" (a part, an output figure, unknown).
// Structure (A > B, A + B > C, by N) is read before cue words.
func numberRole(left, right string) string {
	r := strings.TrimLeft(right, " )`'\"")
	r = strings.TrimLeft(unitWord.ReplaceAllString(r, ""), " )`")
	l := strings.TrimRight(left, " (`[:=")
	plainLeft := strings.ReplaceAll(left, outMark, " ")
	switch {
	case minusDigit.MatchString(r) || strings.HasSuffix(l, ">") && minusDigit.MatchString(strings.TrimSpace(right)):
		return "" // "N > W - P": the room left, not the window
	case strings.HasSuffix(l, ">") || strings.HasSuffix(l, ">="):
		return "limit"
	case strings.HasPrefix(r, ">") || strings.HasPrefix(r, "+"):
		return "actual"
	case strings.HasSuffix(l, " by") || l == "by":
		return "by"
	case limitCue.MatchString(plainLeft):
		return "limit"
	case strings.HasPrefix(r, outMark), strings.HasPrefix(r, "in the"), strings.HasPrefix(r, "of text"),
		strings.HasPrefix(r, "for the"), strings.HasPrefix(r, "in your"):
		return "" // one part of a sum, or the output reserve
	case strings.HasPrefix(r, "maximum"), strings.HasPrefix(r, "max "), strings.HasPrefix(r, "limit"), strings.HasPrefix(r, "allowed"):
		return "limit"
	case strings.HasPrefix(r, "exceed"):
		return "actual" // "A exceeds B"
	case strings.Contains(left, outMark):
		return ""
	case actualCue.MatchString(left):
		return "actual"
	}
	return ""
}

// unitWord is the unit after a figure, tokens or characters.
var unitWord = regexp.MustCompile(`^(?:tokens|chars|characters)\b`)

// minusDigit is a subtraction that follows a number.
var minusDigit = regexp.MustCompile(`^-\s*\d`)
