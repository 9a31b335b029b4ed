package llm

import (
	"encoding/json"
	"strings"
)

// The step functions decide a candidate call at pending[0], one per form
// kind. Each returns waitMore only while the text so far leaves the answer
// open, and never when final.

// stepTagged handles opener … closer forms. A JSON (or Python call list)
// body is read as one value, which may end without the closer; any other
// body runs to the closer, after an early look (lead) that lets a tag named
// in prose go at once.
func (f *textFilter) stepTagged(c *candidate, final bool) outcome {
	p, form := f.pending, c.form
	b := len(form.open)
	i := skipSpaceNL(p, b)
	if i == len(p) {
		return waitOrText(final, len(p))
	}
	if form.jsonBody && (p[i] == '{' || p[i] == '[') {
		end := c.valueFrom(p, i)
		if end < 0 {
			if !final {
				return waitMore
			}
			// Cut off (or broken) at the end of the reply: up to the closer.
			if k := strings.Index(p[b:], form.close); k >= 0 {
				return f.finishTagged(c, p[b:b+k], b+k+len(form.close))
			}
			return f.finishTagged(c, p[b:], len(p))
		}
		j := skipSpaceNL(p, end)
		switch {
		case strings.HasPrefix(p[j:], form.close):
			return f.finishTagged(c, p[b:end], j+len(form.close))
		case !final && strings.HasPrefix(form.close, p[j:]):
			return waitMore
		case j == len(p):
			return f.finishTagged(c, p[b:end], len(p))
		}
		return f.finishTagged(c, p[b:end], end) // no closer: text goes on
	}
	if form.lead == nil {
		return asText(b)
	}
	if c.lead != leadPlausible {
		switch c.lead = form.lead(p[i:min(len(p), i+leadWindow)], f.offered); c.lead {
		case leadReject:
			return asText(b)
		case leadUndecided:
			if !final {
				return waitMore
			}
		}
	}
	if k := c.closer(p, form.close, b); k >= 0 {
		return f.finishTagged(c, p[b:k], k+len(form.close))
	}
	if !final {
		return waitMore
	}
	return f.finishTagged(c, p[b:], len(p))
}

func (f *textFilter) finishTagged(c *candidate, body string, n int) outcome {
	parse := c.form.parse
	if parse == nil {
		parse = jsonCalls
	}
	if calls, ok := f.calls(parse, body, c.form.explicit); ok {
		return outcome{n: n, calls: calls}
	}
	return asText(n)
}

// stepMistral handles [TOOL_CALLS] followed by a JSON list of calls (Mistral
// 7B v0.3, Mistral-Nemo) or by name[ARGS]{…} (tokenizer v11 and later; some
// servers drop the [ARGS] token and some templates add [CALL_ID]id).
func (f *textFilter) stepMistral(c *candidate, final bool) outcome {
	p := f.pending
	b := len(c.form.open)
	i := skipSpaceNL(p, b)
	if i == len(p) {
		return waitOrText(final, b)
	}
	if p[i] == '[' || p[i] == '{' {
		end := c.valueFrom(p, i)
		if end < 0 {
			if !final {
				return waitMore
			}
			end = len(p)
		}
		if calls, ok := f.calls(jsonCalls, p[i:end], true); ok {
			return outcome{n: end, calls: calls}
		}
		return asText(b)
	}
	if c.valAt < 0 {
		e := nameEnd(p, i)
		if e == i || i != b || e-i > maxNameLen { // the name follows the token directly
			return asText(b)
		}
		j := e
		if rest, ok := strings.CutPrefix(p[j:], "[CALL_ID]"); ok {
			j = nameEnd(p, len(p)-len(rest))
		}
		if rest, ok := strings.CutPrefix(p[j:], "[ARGS]"); ok {
			j = len(p) - len(rest)
		}
		j = skipBlank(p, j)
		switch {
		case j == len(p) || !final && (strings.HasPrefix("[CALL_ID]", p[j:]) || strings.HasPrefix("[ARGS]", p[j:])):
			return waitOrText(final, b)
		case p[j] != '{':
			return asText(b)
		}
		c.startValue(j)
		c.search = e // the name's end
	}
	end := c.value(p)
	if end < 0 {
		return waitOrText(final, b)
	}
	raw := []rawCall{{name: p[i:c.search], args: p[c.valAt:end]}}
	if calls, ok := callsFrom(raw, f.offered, true); ok {
		return outcome{n: end, calls: calls}
	}
	return asText(b)
}

func waitOrText(final bool, n int) outcome {
	if final {
		return asText(n)
	}
	return waitMore
}

// stepPythonTag handles Llama 3.x's <|python_tag|>: JSON calls separated by
// ';', or a built-in tool's name.call(key=value).
func (f *textFilter) stepPythonTag(c *candidate, final bool) outcome {
	p := f.pending
	b := len(c.form.open)
	i := skipSpaceNL(p, b)
	if i == len(p) {
		return waitOrText(final, b)
	}
	if p[i] == '{' {
		c.valueFrom(p, i)
		end, done := c.sequence(p, final)
		if !done {
			return waitMore
		}
		if end < 0 {
			return asText(b)
		}
		if calls, ok := f.spanCalls(p, c.spans, true); ok {
			return outcome{n: end, calls: calls}
		}
		return asText(b)
	}
	const builtin = ".call("
	if c.valAt < 0 {
		e := nameEnd(p, i)
		switch {
		case e == i || e-i > maxNameLen:
			return asText(b)
		case len(p)-e < len(builtin) && strings.HasPrefix(builtin, p[e:]):
			return waitOrText(final, b)
		case !strings.HasPrefix(p[e:], builtin):
			return asText(b)
		}
		c.startValue(e + len(builtin) - 1)
		c.search = e
	}
	end := c.value(p)
	if end < 0 {
		return waitOrText(final, b)
	}
	if calls, ok := f.calls(plain(parsePythonic), p[i:c.search]+p[c.valAt:end], true); ok {
		return outcome{n: end, calls: calls}
	}
	return asText(b)
}

// spanCalls parses each JSON value of a ';'-separated list.
func (f *textFilter) spanCalls(p string, spans [][2]int, explicit bool) ([]ToolCall, bool) {
	var out []ToolCall
	for _, s := range spans {
		calls, ok := f.calls(jsonCalls, p[s[0]:s[1]], explicit)
		if !ok {
			return nil, false
		}
		out = append(out, calls...)
	}
	return out, len(out) > 0
}

// stepFunctools handles functools[{…}] (Phi-4-mini, Firefunction v2).
func (f *textFilter) stepFunctools(c *candidate, final bool) outcome {
	p := f.pending
	end := c.valueFrom(p, len(c.form.open)-1)
	if end < 0 {
		return waitOrText(final, len(p))
	}
	if calls, ok := f.calls(jsonCalls, p[c.valAt:end], false); ok {
		return outcome{n: end, calls: calls}
	}
	return asText(end)
}

// stepRecipient handles functionary v3.2's >>>name\n{…}.
func (f *textFilter) stepRecipient(c *candidate, final bool) outcome {
	b := len(c.form.open)
	return f.nameNewlineJSON(c, b, final, asText(b))
}

// stepNameLine handles a reply whose first line is a tool's name and whose
// next line holds its JSON arguments (GLM-4, functionary v3.2's first call).
func (f *textFilter) stepNameLine(c *candidate, final bool) outcome {
	return f.nameNewlineJSON(c, 0, final, asText(max(nameEnd(f.pending, 0), 1)))
}

// nameNewlineJSON reads `name\n{json}` at pending[at:]: an offered name
// alone on its line, then a JSON object alone on its line.
func (f *textFilter) nameNewlineJSON(c *candidate, at int, final bool, reject outcome) outcome {
	p := f.pending
	if c.valAt < 0 {
		e := nameEnd(p, at)
		if e == len(p) {
			if !final && f.toolPrefix(p[at:]) {
				return waitMore
			}
			return reject
		}
		if !f.offered[p[at:e]] {
			return reject
		}
		j := skipBlank(p, e)
		k := skipSpaceNL(p, j)
		switch {
		case k == len(p):
			return waitOrText(final, reject.n)
		case p[j] != '\n' || p[k] != '{':
			return reject
		}
		c.startValue(k)
		c.search = e
	}
	end := c.value(p)
	if end < 0 {
		return waitOrText(final, reject.n)
	}
	return f.finishBare(p, end, final, reject, func() ([]ToolCall, bool) {
		args := p[c.valAt:end]
		if !json.Valid([]byte(args)) {
			return nil, false
		}
		return callsFrom([]rawCall{{name: p[at:c.search], args: args}}, f.offered, false)
	})
}

// stepBareObject handles a JSON object at the start of a line: a call when
// it names offered tools and nothing but blanks follows it on its line.
func (f *textFilter) stepBareObject(c *candidate, final bool) outcome {
	p := f.pending
	if c.lead != leadPlausible {
		i := skipSpaceNL(p, 1)
		if i == len(p) {
			return waitOrText(final, 1)
		}
		if p[i] != '"' {
			return asText(1) // not JSON with quoted keys: prose or code
		}
		c.valueFrom(p, 0)
		if c.lead = objectLead(p, f.offered); c.lead == leadReject {
			return f.notACall(c, p)
		}
	}
	end, done := c.sequence(p, final)
	if !done {
		return waitMore
	}
	if end < 0 {
		return asText(len(p))
	}
	return f.finishBare(p, end, final, asText(end), func() ([]ToolCall, bool) { return f.spanCalls(p, c.spans, false) })
}

// notACall releases the value being scanned as text, through its end.
func (f *textFilter) notACall(c *candidate, p string) outcome {
	if end := c.value(p); end >= 0 {
		return asText(end)
	}
	return outcome{n: len(p), skip: true}
}

// finishBare applies the end-of-line rule and parses a call without marker;
// what is not one ends as reject.
func (f *textFilter) finishBare(p string, end int, final bool, reject outcome, parse func() ([]ToolCall, bool)) outcome {
	ok, wait := f.restOfLine(p, end, final)
	if wait {
		return waitMore
	}
	if ok {
		if calls, ok := parse(); ok {
			return outcome{n: end, calls: calls}
		}
	}
	return reject
}

// stepBareList handles a list at the start of a line: JSON call objects or
// a Python call list (Llama 3.2 and 4, Gemma 3).
func (f *textFilter) stepBareList(c *candidate, final bool) outcome {
	p := f.pending
	i := skipSpaceNL(p, 1)
	if c.lead != leadPlausible {
		c.valueFrom(p, 0)
		switch c.lead = f.itemLead(p, i, true); {
		case c.lead == leadUndecided:
			return waitOrText(final, len(p))
		case c.lead == leadReject && p[i] == '{' && p[skipSpaceNL(p, i+1)] == '"':
			return f.notACall(c, p)
		case c.lead == leadReject:
			return asText(1) // not JSON with quoted keys nor a call: prose or code
		}
	}
	end := c.valueFrom(p, 0)
	if end < 0 {
		return waitOrText(final, len(p))
	}
	read := jsonCalls
	if p[i] != '{' {
		read = plain(parsePythonic)
	}
	return f.finishBare(p, end, final, asText(end), func() ([]ToolCall, bool) { return f.calls(read, p[:end], false) })
}
