package llm

import "strings"

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
		if j == len(p) || p[j] != ';' {
			if j == len(p) && !final {
				return end, false
			}
			c.spans = append(c.spans, [2]int{c.valAt, end})
			c.seqEnd = end
			return end, true
		}
		k := skipSpaceNL(p, j+1)
		if k == len(p) && !final {
			return end, false
		}
		c.spans = append(c.spans, [2]int{c.valAt, end})
		if k == len(p) || p[k] != '{' {
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

// Keys that a JSON call object starts with.
var (
	nameKeys = map[string]bool{"name": true, "tool_name": true, "tool": true, "function": true, "action": true}
	argKeys  = map[string]bool{"arguments": true, "parameters": true, "args": true, "input": true, "action_input": true}
	skipKeys = map[string]bool{"type": true, "id": true, "index": true, "call_id": true, "tool_call_id": true}
	wrapKeys = map[string]bool{"tool_calls": true, "tool_call": true}
)

func callKey(k string) bool { return nameKeys[k] || argKeys[k] || skipKeys[k] || wrapKeys[k] }

func callKeyPrefix(p string) bool {
	for _, m := range []map[string]bool{nameKeys, argKeys, skipKeys, wrapKeys} {
		for k := range m {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
	}
	return false
}

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
	i := 1
	for pair := 0; pair < 4; pair++ {
		if i = skipSpaceNL(s, i); i == len(s) {
			return undecided
		}
		if pair > 0 {
			if s[i] != ',' {
				return leadReject // the object ends (or breaks) before a tool name
			}
			if i = skipSpaceNL(s, i+1); i == len(s) {
				return undecided
			}
		}
		if s[i] != '"' {
			return leadReject
		}
		key, j, closed := jsonString(s, i)
		if !closed {
			if callKeyPrefix(key) {
				return undecided
			}
			return leadReject
		}
		if !callKey(key) {
			return leadReject
		}
		if j = skipSpaceNL(s, j); j == len(s) {
			return undecided
		}
		if s[j] != ':' {
			return leadReject
		}
		if j = skipSpaceNL(s, j+1); j == len(s) {
			return undecided
		}
		switch {
		case nameKeys[key] && s[j] == '"':
			v, _, closed := jsonString(s, j)
			if !closed {
				return undecided
			}
			if offered[strings.TrimSpace(v)] {
				return leadPlausible
			}
			return leadReject
		case key == "function" && s[j] == '{', wrapKeys[key]:
			return leadPlausible
		case nameKeys[key]:
			return leadReject
		}
		e := scalarOrValueEnd(s, j)
		if e < 0 {
			return undecided
		}
		i = e
	}
	return leadPlausible
}

// jsonString reads the string starting at s[i] (a quote): its raw content,
// the index after it, and whether it was closed.
func jsonString(s string, i int) (string, int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return s[i+1 : j], j + 1, true
		}
	}
	return s[i+1:], len(s), false
}

// scalarOrValueEnd returns the end of the JSON value at s[i], -1 if cut off.
func scalarOrValueEnd(s string, i int) int {
	switch s[i] {
	case '"':
		if _, e, ok := jsonString(s, i); ok {
			return e
		}
		return -1
	case '{', '[':
		var d depthScan
		if e := d.feed(s[i:]); e >= 0 {
			return i + e
		}
		return -1
	}
	for j := i; j < len(s); j++ {
		if strings.IndexByte(",}] \t\r\n", s[j]) >= 0 {
			return j
		}
	}
	return -1
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
