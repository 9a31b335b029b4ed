// Package prompt builds what Hearth sends to a model on every call: the system
// prompt (identity and rules, bootstrap files, memory, skills —
// docs/design/prompt-size.md#the-system-prompt), the
// runtime context appended to the user message (docs/design/prompt-size.md#runtime-context), the token
// estimate and calibration that fit a request into the model's context window
// (docs/design/prompt-size.md#token-budget), and the placeholders that replace old tool results in the copy
// sent to the model (docs/design/prompt-size.md#compaction).
//
// Small local models with 4–8k token windows are the main target, so every
// piece here is about saying enough in as few tokens as possible and never
// sending a request that overflows the window: Ollama silently cuts the start
// of an oversized prompt, which would lose the system prompt first.
//
// The agent uses it per model call as:
//
//	sys, _ := builder.SystemPrompt()
//	user := prompt.AppendRuntimeContext(text, now, tz, "desktop")
//	msgs := prompt.CompactToolResults(history, prompt.KeepToolResults)
//	fit, err := est.Counter(model).Fit(prompt.Request{System: sys, Tools: tools,
//		History: msgs, Recall: block, Window: ctxTokens, Reply: maxTokens})
//	// send fit.Messages and fit.Tools with fit.Reply as the reply limit;
//	// tell the user what fit.Shed left out; then
//	// est.Observe(model, fit.RawTokens, resp.Usage.PromptTokens)
//
// When the window is too small for everything, Fit leaves out optional parts
// in a fixed order (see Fit and docs/local-models.md) instead of failing.
package prompt
