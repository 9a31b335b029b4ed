package llm

import "strings"

// The shapes in which open-weight models print tool calls as text when the
// server's parser does not turn them into structured calls. Each entry says
// where the shape comes from (the family's chat template or the parsers of
// the common inference servers); docs/local-models.md lists them for users.
//
// explicit forms start with a model's own tool-call token: the model meant a
// call, so a name that was not offered is kept (marked Unknown, and the agent
// answers "unknown tool"). Every other form counts only when each name is an
// offered tool, because prose, examples and code can look like them.

type formKind int

const (
	formThink      formKind = iota // <think>…</think>: reasoning
	formTagged                     // open … close around a JSON or form-specific body
	formMistral                    // [TOOL_CALLS] then a JSON list, or name[ARGS]{…}
	formPythonTag                  // <|python_tag|> then JSON objects or name.call(…)
	formFunctools                  // functools[…]
	formRecipient                  // >>>name\n{…}
	formFence                      // ```lang … ```
	formStray                      // a closing token left behind a call
	formBareObject                 // { at the start of a line
	formBareList                   // [ at the start of a line
	formNameLine                   // name\n{…} as the first line of the reply
)

type callForm struct {
	kind     formKind
	open     string
	close    string
	explicit bool
	// wordStart: the opener counts only after a blank or at a line start;
	// lineStart: only at the start of a line (after blanks), as Markdown
	// fences.
	wordStart, lineStart bool
	// jsonBody: a tagged body may be a JSON value (or a Python call list);
	// such a body may also end without the closing tag.
	jsonBody bool
	// lead judges the start of a non-JSON tagged body, so that a tag named in
	// prose is released at once instead of holding the reply back.
	lead func(body string, offered map[string]bool) lead
	// parse reads a tagged body; nil means JSON.
	parse readCalls
}

// lead is an early verdict on the start of a possible call.
type lead int

const (
	leadUndecided lead = iota
	leadPlausible
	leadReject
)

var (
	formBareObj   = &callForm{kind: formBareObject, open: "{"}
	formBareLst   = &callForm{kind: formBareList, open: "["}
	formFirstLine = &callForm{kind: formNameLine}
)

// allForms are the forms with an opening marker, matched anywhere in text
// (wordStart ones after a blank); the line-start and reply-start forms are
// found by the scanner itself.
var allForms = []*callForm{
	{kind: formThink, open: "<think>"},
	// Hermes 2 Pro and its fine-tunes, Qwen2.5 and Qwen3 (JSON body),
	// Qwen3-Coder (<function=…><parameter=…> body), GLM-4.5+ (name then
	// <arg_key>/<arg_value> pairs) and Granite 3.1+ (JSON list body).
	{kind: formTagged, open: "<tool_call>", close: "</tool_call>", explicit: true,
		jsonBody: true, lead: hermesLead, parse: hermesCalls},
	// Granite 3.0 (no closing token) and Phi-4-mini's template: a JSON list.
	{kind: formTagged, open: "<|tool_call|>", close: "<|/tool_call|>", explicit: true, jsonBody: true},
	// LFM2: a Python call list (older releases: a JSON list).
	{kind: formTagged, open: "<|tool_call_start|>", close: "<|tool_call_end|>", explicit: true,
		jsonBody: true, parse: jsonOrPythonic},
	// Llama 4 sometimes wraps its Python call list in these tokens.
	{kind: formTagged, open: "<|python_start|>", close: "<|python_end|>", explicit: true,
		jsonBody: true, parse: jsonOrPythonic},
	// Command R7B: a JSON list of {"tool_name","parameters"}.
	{kind: formTagged, open: "<|START_ACTION|>", close: "<|END_ACTION|>", explicit: true, jsonBody: true},
	// Nemotron: a JSON list.
	{kind: formTagged, open: "<TOOLCALL>", close: "</TOOLCALL>", explicit: true, jsonBody: true},
	// Gemma 4: call:NAME{key:<|"|>text<|"|>,n:1}.
	{kind: formTagged, open: "<|tool_call>", close: "<tool_call|>", explicit: true,
		lead: prefixLead("call:"), parse: plain(gemmaCall(`<|"|>`))},
	// FunctionGemma: call:NAME{key:<escape>text<escape>}.
	{kind: formTagged, open: "<start_function_call>", close: "<end_function_call>", explicit: true,
		lead: prefixLead("call:"), parse: plain(gemmaCall("<escape>"))},
	// DeepSeek V3/R1/V3.1: a section of <｜tool▁call▁begin｜>… calls.
	{kind: formTagged, open: dsCallBegin, close: dsCallEnd, explicit: true,
		lead: nameLead(false, true, dsSep), parse: plain(parseDeepSeekCall)},
	// functionary v3.1 and Qwen3-Coder without its <tool_call> wrapper. The
	// <function…> forms are not special tokens: they must name an offered tool.
	{kind: formTagged, open: "<function=", close: "</function>",
		lead: nameLead(true, false, ">"), parse: plain(parseXMLFunction)},
	// Hermes 2 Pro also prints <function name="…">{…}</function>.
	{kind: formTagged, open: `<function name="`, close: "</function>",
		lead: nameLead(true, false, `">`), parse: plain(parseFunctionName)},
	// Hermes 2 Pro fine-tunes sometimes use these wrappers; not special tokens.
	{kind: formTagged, open: "<function_call>", close: "</function_call>", jsonBody: true},
	{kind: formTagged, open: "<tools>", close: "</tools>", jsonBody: true},
	// DeepSeek's section token and the misspellings its models print.
	deepSeekSection("<｜tool▁calls▁begin｜>"), deepSeekSection("<｜tool_calls_begin｜>"),
	deepSeekSection("<｜tool calls begin｜>"), deepSeekSection(`<｜tool\_calls\_begin｜>`),
	deepSeekSection("<｜tool▁calls｜>"),
	// Mistral 7B v0.3 and Mistral-Nemo: [TOOL_CALLS][{…}]; tokenizer v11+
	// (Mistral Small 3.2, Magistral, Ministral 3, Devstral): [TOOL_CALLS]name[ARGS]{…}.
	{kind: formMistral, open: "[TOOL_CALLS]", explicit: true},
	// Llama 3.1–3.3: JSON calls (";"-separated), or name.call(…) for built-ins.
	{kind: formPythonTag, open: "<|python_tag|>", explicit: true},
	// Phi-4-mini (as served by vLLM) and Firefunction v2: functools[{…}].
	{kind: formFunctools, open: "functools[", wordStart: true},
	// functionary v3.2: >>>name\n{…} (the first call may lack the >>>).
	{kind: formRecipient, open: ">>>"},
	{kind: formFence, open: "```", lineStart: true},
	// Closing tokens that follow a recovered call (or one whose opener the
	// model forgot) are dropped; anywhere else they stay text.
	stray("</tool_call>"), stray("<|/tool_call|>"), stray("<|tool_call_end|>"), stray("<|python_end|>"),
	stray("<|eom_id|>"), stray("<|eot_id|>"), stray(dsCallsEnd), stray("</function_call>"),
	stray("<|END_ACTION|>"), stray("</TOOLCALL>"),
}

// formsByByte indexes allForms by the first byte of their opener.
var formsByByte = func() (idx [256][]*callForm) {
	for _, f := range allForms {
		idx[f.open[0]] = append(idx[f.open[0]], f)
	}
	return idx
}()

func deepSeekSection(open string) *callForm {
	return &callForm{kind: formTagged, open: open, close: "<｜tool▁calls▁end｜>", explicit: true,
		lead: prefixLead(dsCallBegin), parse: plain(parseDeepSeekCalls)}
}

func stray(tok string) *callForm { return &callForm{kind: formStray, open: tok} }

// startsWith accepts s when it starts with one of the prefixes, and waits
// while it is the start of one.
func startsWith(s string, prefixes ...string) lead {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return leadPlausible
		}
		if strings.HasPrefix(p, s) {
			return leadUndecided
		}
	}
	return leadReject
}

// prefixLead accepts a body that starts (after blanks) with p.
func prefixLead(p string) func(string, map[string]bool) lead {
	return func(body string, _ map[string]bool) lead {
		return startsWith(strings.TrimLeft(body, " \t\r\n"), p)
	}
}

// nameLead accepts a body that starts (after blanks when blanks is set) with
// a tool name followed by one of the continuations (blanks between too).
// With offeredOnly the name must be an offered tool's.
func nameLead(offeredOnly, blanks bool, next ...string) func(string, map[string]bool) lead {
	return func(body string, offered map[string]bool) lead {
		if blanks {
			body = strings.TrimLeft(body, " \t\r\n")
		}
		e := nameEnd(body, 0)
		switch {
		case e == 0 && body == "":
			return leadUndecided
		case e == 0, offeredOnly && e < len(body) && !offered[body[:e]]:
			return leadReject
		}
		rest := body[e:]
		if blanks {
			rest = strings.TrimLeft(rest, " \t\r\n")
		}
		return startsWith(rest, next...)
	}
}

func hermesLead(body string, _ map[string]bool) lead {
	body = strings.TrimLeft(body, " \t\r\n")
	if l := startsWith(body, "<function=", `<function name="`); l != leadReject {
		return l
	}
	// GLM: the name, then <arg_key> pairs, JSON arguments or nothing.
	return nameLead(false, true, "<arg_key>", "{", "</tool_call>")(body, nil)
}

func hermesCalls(body string, explicit bool) ([]rawCall, bool) {
	body = strings.TrimSpace(body)
	switch {
	case strings.HasPrefix(body, "{") || strings.HasPrefix(body, "["):
		return jsonCalls(body, explicit)
	case strings.HasPrefix(body, "<function="):
		return parseXMLFunction(body[len("<function="):])
	case strings.HasPrefix(body, `<function name="`):
		return parseFunctionName(body[len(`<function name="`):])
	}
	raw, ok := parseGLMCall(body)
	if !ok {
		return nil, false
	}
	if args, _ := raw[0].args.(map[string]any); args != nil && len(args) == 0 {
		// `<tool_call>word</tool_call>` is how prose names the tags; GLM's
		// call without arguments counts only for an offered tool.
		raw[0].offeredOnly = true
	}
	return raw, true
}

func jsonOrPythonic(body string, explicit bool) ([]rawCall, bool) {
	if raw, ok := jsonCalls(body, explicit); ok {
		return raw, true
	}
	return parsePythonic(strings.TrimSpace(body))
}

// parseFunctionName reads `NAME">{json}` (after `<function name="`).
func parseFunctionName(body string) ([]rawCall, bool) {
	name, args, ok := strings.Cut(body, `">`)
	args = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(args), "</function>"))
	if !ok || nameEnd(name, 0) != len(name) || name == "" || !strings.HasPrefix(args, "{") {
		return nil, false
	}
	return []rawCall{{name: name, args: args}}, true
}
