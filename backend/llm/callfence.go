package llm

import "strings"

// Fence languages under which a block may hold a call: JSON ones, and the
// tool_code blocks Gemma's function-calling guide prompts for, which may
// hold Python calls too. A python block is code to show, never a call.
var (
	fenceCallLangs     = map[string]bool{"": true, "json": true, "tool_call": true, "tool_calls": true, "tool": true, "tool_code": true, "function_call": true}
	fencePythonicLangs = map[string]bool{"tool_call": true, "tool_calls": true, "tool": true, "tool_code": true, "function_call": true}
)

// stepFence handles a fenced block: a call when its language allows one and
// its whole body is one; otherwise its first line goes out at once and the
// block streams as code.
func (f *textFilter) stepFence(c *candidate, final bool) outcome {
	p := f.pending
	b := len(fence)
	nl := c.closer(p, "\n", b)
	if nl < 0 {
		return waitOrText(final, len(p))
	}
	body := nl + 1
	code := outcome{n: body, code: true}
	lang := strings.ToLower(strings.TrimSpace(p[b:nl]))
	if !fenceCallLangs[lang] {
		return code
	}
	i := skipSpaceNL(p, body)
	if i == len(p) {
		return waitOrText(final, len(p))
	}
	if c.valAt < 0 {
		switch f.fenceLead(p, i, lang) {
		case leadReject:
			return code
		case leadUndecided:
			return waitOrText(final, len(p))
		}
		if isNameByte(p[i]) {
			// A single call: scan from its parenthesis.
			c.startValue(nameEnd(p, i))
		} else {
			c.startValue(i)
		}
	}
	end := c.value(p)
	if end < 0 {
		return waitOrText(final, len(p))
	}
	j := skipSpaceNL(p, end)
	n := j + len(fence)
	switch {
	case strings.HasPrefix(p[j:], fence):
	case j == len(p) && final:
		n = len(p)
	case j == len(p) || strings.HasPrefix(fence, p[j:]):
		return waitOrText(final, len(p))
	default:
		return code
	}
	read := jsonCalls
	// fenceLead saw what follows a '[' before it could say yes.
	if p[i] != '{' && (p[i] != '[' || p[skipSpaceNL(p, i+1)] != '{') {
		read = plain(parsePythonic)
	}
	calls, ok := f.calls(read, p[i:end], false)
	if !ok {
		return code
	}
	return outcome{n: n, calls: calls}
}

// fenceLead judges the start of a fence body at p[i:]: a call object, a
// list of them, or Python calls where the language allows them.
func (f *textFilter) fenceLead(p string, i int, lang string) lead {
	if p[i] == '[' {
		i = skipSpaceNL(p, i+1)
	}
	return f.itemLead(p, i, fencePythonicLangs[lang])
}

// itemLead judges a call at p[i:] (the first item of a list): a JSON call
// object, or with pythonic a Python call.
func (f *textFilter) itemLead(p string, i int, pythonic bool) lead {
	switch {
	case i == len(p):
		return leadUndecided
	case p[i] == '{':
		return objectLead(p[i:], f.offered)
	case pythonic:
		return f.pythonicLead(p, i)
	}
	return leadReject
}

// pythonicLead judges `name(` at p[i:]: the name must be an offered tool.
func (f *textFilter) pythonicLead(p string, i int) lead {
	e := nameEnd(p, i)
	switch {
	case e == i:
		return leadReject
	case e == len(p):
		if f.toolPrefix(p[i:]) {
			return leadUndecided
		}
		return leadReject
	case p[e] == '(' && f.offered[p[i:e]]:
		return leadPlausible
	}
	return leadReject
}
