package llm

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Scanning helpers shared by the call forms: where a value ends, how a JSON
// object starts, and the candidate's incremental bookkeeping. Everything
// here resumes where it stopped or reads a bounded window, so a long held
// call costs the same per delta as a short one.

// value scans the candidate's value (starting at c.valAt) as far as pending
// goes and returns its end, -1 while it is open.
func (c *candidate) value(p string) int {
	if c.valEnd >= 0 {
		return c.valEnd
	}
	c.fed = max(c.fed, c.valAt)
	if e := c.val.feed(p[c.fed:]); e >= 0 {
		c.valEnd = c.fed + e
	}
	c.fed = len(p)
	return c.valEnd
}

// valueFrom is value for a value starting at i, where the candidate's first
// call of it points it.
func (c *candidate) valueFrom(p string, i int) int {
	if c.valAt < 0 {
		c.startValue(i)
	}
	return c.value(p)
}

// startValue points the candidate at a new value starting at i. Outside a
// tool-call token a value ends at a blank line at the latest: JSON and
// Python literals cannot hold one, and a broken value must not hide the
// rest of the reply.
func (c *candidate) startValue(i int) {
	c.valAt, c.fed, c.valEnd, c.val = i, i, -1, depthScan{blankStop: !c.form.explicit}
}

// closer finds the first occurrence of tag at or after from in p, resuming
// where the last search stopped.
func (c *candidate) closer(p, tag string, from int) int {
	c.search = max(c.search, from)
	if k := strings.Index(p[c.search:], tag); k >= 0 {
		return c.search + k
	}
	c.search = max(from, len(p)-len(tag)+1)
	return -1
}

// sequence scans values separated by ';' (Llama prints several calls so).
// It returns the end of the last value and false while more may follow.
func (c *candidate) sequence(p string, final bool) (int, bool) {
	if c.seqEnd > 0 {
		return c.seqEnd, true
	}
	for {
		end := c.value(p)
		if end < 0 {
			return -1, final
		}
		j := skipSpaceNL(p, end)
		k := j // where the next value would start
		if j < len(p) && p[j] == ';' {
			k = skipSpaceNL(p, j+1)
		}
		if k == len(p) && !final {
			return end, false
		}
		c.spans = append(c.spans, [2]int{c.valAt, end})
		if k == j || k == len(p) || p[k] != '{' {
			c.seqEnd = end
			return end, true
		}
		c.startValue(k)
	}
}

// restOfLine checks that nothing but blanks, a closing token or the next
// call follows a call without a marker on its line: `{…} is how I would
// call it` is prose.
func (f *textFilter) restOfLine(p string, end int, final bool) (ok, wait bool) {
	j := skipBlank(p, end)
	if j == len(p) {
		return final, !final
	}
	if p[j] == '\n' {
		return true, false
	}
	for _, form := range formsByByte[p[j]] {
		if form.kind == formFence || form.kind == formThink {
			continue
		}
		if strings.HasPrefix(p[j:], form.open) {
			return true, false
		}
		if !final && strings.HasPrefix(form.open, p[j:]) {
			return false, true
		}
	}
	return false, false
}

// Keys that a JSON call object starts with, name and argument keys in the
// order callFields tries them.
var (
	nameKeys = []string{"name", "tool_name", "tool", "function", "action"}
	argKeys  = []string{"arguments", "parameters", "args", "input", "action_input"}
	callKeys = slices.Concat(nameKeys, argKeys, []string{"type", "id", "index", "call_id", "tool_call_id", "tool_calls", "tool_call"})
)

// leadWindow bounds how much of an object objectLead reads, so that judging
// a long object costs the same on every delta.
const leadWindow = 512

// objectLead judges the first keys of a JSON object without an explicit
// marker (s starts with '{'): a call names an offered tool and has only
// call keys before its name. It is monotone: once it rejects a prefix, it
// rejects every longer text, so the verdict never depends on chunking.
func objectLead(s string, offered map[string]bool) lead {
	undecided := leadUndecided
	if len(s) > leadWindow {
		s, undecided = s[:leadWindow], leadPlausible
	}
	d := jsontext.NewDecoder(strings.NewReader(s), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	// cut is the verdict on text that ends (or breaks) before a decision.
	cut := func(err error, inKey bool) lead {
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			return leadReject
		}
		// A cut-off key must still be able to become a call key.
		partial, quoted := strings.CutPrefix(strings.TrimLeft(s[d.InputOffset():], " \t\r\n,"), `"`)
		if inKey && quoted && !slices.ContainsFunc(callKeys, func(k string) bool { return strings.HasPrefix(k, partial) }) {
			return leadReject
		}
		return undecided
	}
	if _, err := d.ReadToken(); err != nil { // the '{'
		return cut(err, false)
	}
	for pair := 0; pair < 4; pair++ {
		tok, err := d.ReadToken()
		if err != nil {
			return cut(err, true)
		}
		key := tok.String()
		if tok.Kind() != '"' || !slices.Contains(callKeys, key) {
			return leadReject // the object ends before a tool name, or has other keys
		}
		isName := slices.Contains(nameKeys, key)
		switch k := d.PeekKind(); {
		case k == 0:
			_, err := d.ReadToken()
			return cut(err, false)
		case isName && k == '"':
			v, err := d.ReadToken()
			if err != nil {
				return cut(err, false)
			}
			if offered[strings.TrimSpace(v.String())] {
				return leadPlausible
			}
			return leadReject
		case key == "function" && k == '{', key == "tool_calls", key == "tool_call":
			return leadPlausible
		case isName:
			return leadReject
		}
		if err := d.SkipValue(); err != nil {
			return cut(err, false)
		}
	}
	return leadPlausible
}

func skipSpaceNL(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
		i++
	}
	return i
}

func skipBlank(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r", s[i]) >= 0 {
		i++
	}
	return i
}

// depthScan finds where a bracketed value ({…}, […] or (…)) ends when fed in
// pieces, honouring quoted strings (either quote, for Python literals).
type depthScan struct {
	depth int
	quote byte
	esc   bool
	// blankStop ends the scan at a blank line: used when passing a value
	// through as text, so a broken one cannot swallow the rest of the reply.
	blankStop bool
	nl        bool
}

// feed consumes s and returns the index in s just after the value's closing
// bracket, or -1 while it is open.
func (d *depthScan) feed(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if d.blankStop {
			switch c {
			case '\n':
				if d.nl {
					return i + 1
				}
				d.nl = true
			case ' ', '\t', '\r':
			default:
				d.nl = false
			}
		}
		if d.quote != 0 {
			switch {
			case d.esc:
				d.esc = false
			case c == '\\':
				d.esc = true
			case c == d.quote:
				d.quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			d.quote = c
		case '{', '[', '(':
			d.depth++
		case '}', ']', ')':
			if d.depth--; d.depth <= 0 {
				d.depth = 0
				return i + 1
			}
		}
	}
	return -1
}
