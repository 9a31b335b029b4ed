package prompt

import (
	"sync"
	"unicode/utf8"

	"hearth/backend/llm"
)

// Per-item overheads of the chat template, in tokens. Chat templates wrap each
// message in role markers (<|im_start|>user\n…<|im_end|>\n), each tool call
// and each tool definition in JSON and tags; these numbers round those up so
// the raw estimate errs on the side of sending less.
const (
	messageOverhead  = 4
	toolCallOverhead = 8
	toolDefOverhead  = 10
	// toolsPreamble is the fixed text templates add when tools are offered
	// ("# Tools\n\nYou may call one or more functions…" in Qwen's).
	toolsPreamble = 60
	// imageTokens is a round figure for one image; the true count depends on
	// the model's vision encoder (576 for LLaVA, more for tiled encoders).
	imageTokens = 768
	// requestOverhead covers the system message's markers and the assistant
	// prefix the template appends for the reply.
	requestOverhead = 8
)

// Calibration limits. Reported/estimated ratios outside [minRatio, maxRatio]
// say more about the report than about the tokenizer. The estimate counts
// four ASCII characters a token, so a tokenizer that spends a token per byte
// (a tiny or byte-level vocabulary) has a ratio near 4: the cap must allow it.
const (
	minRatio = 0.5
	maxRatio = 5.0
	// alphaUp and alphaDown weigh a new observation in the moving average.
	// Going up fast and down slowly keeps the budget safe: an underestimate
	// overflows the window (Ollama then silently cuts the prompt's start),
	// an overestimate only sends a little less history.
	alphaUp   = 0.5
	alphaDown = 0.15
	// minCalibrationTokens ignores tiny requests, where template overhead
	// dominates and the ratio is noise.
	minCalibrationTokens = 256
)

// EstimateText is the raw token estimate of a text: about 4 characters per
// token for ASCII (English and code under common BPE vocabularies), one token
// per CJK character (Qwen, Llama 3 and GPT tokenizers spend roughly one per
// Han/kana/hangul character, where chars/4 would undercount four-fold), half a
// token per other non-ASCII letter, and two per emoji or other astral symbol.
func EstimateText(s string) int {
	q := 0 // quarter tokens
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			q++
		case isCJK(r):
			q += 4
		case r >= 0x10000:
			q += 8
		default:
			q += 2
		}
	}
	return (q + 3) / 4
}

// isCJK reports whether r is in a block that tokenizers spend about a token
// per character on: CJK ideographs, kana, hangul, CJK punctuation and
// full-width forms.
func isCJK(r rune) bool {
	switch {
	case r >= 0x2E80 && r <= 0x9FFF: // radicals, CJK punctuation, kana, ideographs
		return true
	case r >= 0xAC00 && r <= 0xD7AF: // hangul syllables
		return true
	case r >= 0xF900 && r <= 0xFAFF: // compatibility ideographs
		return true
	case r >= 0xFF00 && r <= 0xFFEF: // half/full-width forms
		return true
	case r >= 0x20000 && r <= 0x3FFFF: // ideograph extensions
		return true
	}
	return false
}

// EstimateMessage is the raw token estimate of one message as a chat template
// renders it. Reasoning is counted although some providers do not get it back:
// the budget would rather drop a little history than overflow.
func EstimateMessage(m llm.Message) int {
	n := messageOverhead + EstimateText(m.Content) + EstimateText(m.Reasoning)
	for _, tc := range m.ToolCalls {
		n += toolCallOverhead + EstimateText(tc.Name) + EstimateText(string(tc.Arguments))
	}
	if m.ToolName != "" || m.ToolCallID != "" {
		n += EstimateText(m.ToolName) + EstimateText(m.ToolCallID)
	}
	return n + imageTokens*len(m.Images)
}

// EstimateTools is the raw token estimate of the tool definitions in the
// OpenAI wire shape ({"type":"function","function":{…}}), which is close to
// what chat templates paste into the prompt.
func EstimateTools(tools []llm.ToolDef) int {
	if len(tools) == 0 {
		return 0
	}
	n := toolsPreamble
	for _, t := range tools {
		n += toolDefOverhead + EstimateText(t.Name) + EstimateText(t.Description)
		if len(t.Parameters) > 0 {
			n += EstimateText(string(t.Parameters))
		}
	}
	return n
}

// Counter estimates tokens for one model: the raw estimate scaled by the
// model's calibrated ratio. The zero value is uncalibrated (ratio 1).
type Counter struct {
	// Ratio is reported/estimated tokens for the model; 0 means 1.
	Ratio float64
}

func (c Counter) scale(raw int) int {
	r := c.Ratio
	if r <= 0 {
		return raw
	}
	// Ceiling, so the sum of scaled parts never undercounts the scaled sum.
	s := float64(raw) * r
	n := int(s)
	if float64(n) < s {
		n++
	}
	return n
}

// Text estimates the tokens of a text.
func (c Counter) Text(s string) int { return c.scale(EstimateText(s)) }

// Message estimates the tokens of one message.
func (c Counter) Message(m llm.Message) int { return c.scale(EstimateMessage(m)) }

// Tools estimates the tokens of the tool definitions.
func (c Counter) Tools(tools []llm.ToolDef) int { return c.scale(EstimateTools(tools)) }

// Request estimates a whole request: system prompt, tools and messages.
func (c Counter) Request(system string, tools []llm.ToolDef, msgs []llm.Message) int {
	n := c.scale(requestOverhead) + c.Text(system) + c.Tools(tools)
	for _, m := range msgs {
		n += c.Message(m)
	}
	return n
}

// Estimator keeps the calibration of each model: an exponential moving
// average of the ratio between the prompt tokens a provider reported and the
// raw estimate of the same request. It is safe for concurrent use; the zero
// value is ready.
type Estimator struct {
	mu     sync.Mutex
	ratios map[string]float64
}

// NewEstimator returns an Estimator with no calibration yet.
func NewEstimator() *Estimator { return &Estimator{} }

// Counter returns the counter of a model with its current calibration.
func (e *Estimator) Counter(model string) Counter {
	return Counter{Ratio: e.Ratio(model)}
}

// Ratio is the model's calibrated reported/estimated ratio, 1 until observed.
func (e *Estimator) Ratio(model string) float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ratio(model)
}

// ratio is Ratio with mu held.
func (e *Estimator) ratio(model string) float64 {
	if r, ok := e.ratios[model]; ok {
		return r
	}
	return 1
}

// setRatio records the model's ratio. Called with mu held.
func (e *Estimator) setRatio(model string, r float64) {
	if e.ratios == nil {
		e.ratios = map[string]float64{}
	}
	e.ratios[model] = r
}

// Overflowed records that the provider refused a request the estimate said
// would fit: the model's tokenizer spends more than estimated (a dense or
// tiny vocabulary). The ratio grows by half, up to the cap; it reports
// whether it grew, i.e. whether a rebuilt request can be smaller.
func (e *Estimator) Overflowed(model string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	r := e.ratio(model)
	if r >= maxRatio {
		return false
	}
	e.setRatio(model, min(r*1.5, maxRatio))
	return true
}

// Observe feeds one provider report into the calibration: estimated is the raw
// (unscaled) estimate of the request, e.g. Fit.RawTokens; reported is the
// provider's prompt token count. It reports whether the observation was used.
//
// Reports far below the estimate are ignored rather than clamped: Ollama's
// prompt_eval_count counts only the tokens it evaluated, so a prompt that was
// mostly served from its KV cache reports a fraction of its size, and a prompt
// that overflowed num_ctx reports the truncated size. Neither says anything
// about the tokenizer.
func (e *Estimator) Observe(model string, estimated, reported int) bool {
	if estimated < minCalibrationTokens || reported <= 0 {
		return false
	}
	obs := float64(reported) / float64(estimated)
	if obs < minRatio {
		return false
	}
	obs = min(obs, maxRatio)
	e.mu.Lock()
	defer e.mu.Unlock()
	r := e.ratio(model)
	alpha := alphaDown
	if obs > r {
		alpha = alphaUp
	}
	r += alpha * (obs - r)
	e.setRatio(model, min(max(r, minRatio), maxRatio))
	return true
}
