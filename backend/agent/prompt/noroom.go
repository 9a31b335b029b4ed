package prompt

import (
	"fmt"
	"strconv"
	"strings"

	"hearth/backend/i18n"
)

// NoRoomError is Fit's failure: even the smallest request it can make (the
// system prompt, the core tools in their short form, the current turn cut
// down) does not fit the window beside the reply floor. It carries the
// figures, so the caller can say what would work with this model.
type NoRoomError struct {
	// Window is the context window; Reply the reply limit asked for and
	// Floor the reply reserve Fit would not go below.
	Window, Reply, Floor int
	// Need is the calibrated estimate of the smallest request; System and
	// Tools are its system prompt's and tools' shares, Turn the rest (the
	// current turn, cut as far as Fit cuts).
	Need, System, Tools, Turn int
	// ToolCount is how many tools the smallest request still had, MCPTools
	// how many of them came from MCP servers (kept because the model called
	// them in this turn).
	ToolCount, MCPTools int
}

func (e *NoRoomError) Error() string {
	return fmt.Sprintf("the smallest request needs ~%d tokens (system prompt ~%d, %d core tools ~%d, this turn ~%d), but a %d-token window leaves %d beside a reply of %d: %v",
		e.Need, e.System, e.ToolCount, e.Tools, e.Turn, e.Window, max(budgetFor(e.Window, e.Floor), 0), e.Floor, ErrNoRoom)
}

// Unwrap makes errors.Is(err, ErrNoRoom) hold.
func (e *NoRoomError) Unwrap() error { return ErrNoRoom }

// WindowNeeded is the smallest context window (a multiple of 1024) in which
// the smallest request fits with its reply floor.
func (e *NoRoomError) WindowNeeded() int {
	for w := (e.Window/1024 + 1) * 1024; w < 1<<22; w += 1024 {
		if e.Need <= budgetFor(w, ReplyFloor(w, e.Reply)) {
			return w
		}
	}
	return 1 << 22
}

// ReplyThatFits is the largest reply limit (a multiple of 64, at least 128)
// below the floor with which the smallest request fits this window, or 0
// when none does: below 128 tokens even a short answer is cut off.
func (e *NoRoomError) ReplyThatFits() int {
	for r := (e.Floor - 1) / 64 * 64; r >= 128; r -= 64 {
		if e.Need <= budgetFor(e.Window, r) {
			return r
		}
	}
	return 0
}

// Advice is AdviceText in English.
func (e *NoRoomError) Advice(modelMax int) []string {
	ms := e.AdviceText(modelMax)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// AdviceText says what would work with this model, most useful first, as
// phrases to join: modelMax is the model's own maximum window (0 when
// unknown), so raising the configured window is only suggested when the
// model allows it.
func (e *NoRoomError) AdviceText(modelMax int) []i18n.Message {
	var out []i18n.Message
	need := e.WindowNeeded()
	n := strconv.Itoa(need)
	if r := e.ReplyThatFits(); r > 0 {
		out = append(out, i18n.M("error.advice.maxTokens", "n", strconv.Itoa(r)))
	}
	switch {
	case modelMax > e.Window && need <= modelMax:
		out = append(out, i18n.M("error.advice.contextTokens", "n", n, "max", strconv.Itoa(modelMax)))
	case modelMax == 0:
		out = append(out, i18n.M("error.advice.contextTokensMaybe", "n", n))
	}
	out = append(out, i18n.M("error.advice.model", "n", n))
	if e.MCPTools > 0 {
		out = append(out, i18n.M("error.advice.mcp"))
	}
	if e.System > e.Need/2 {
		out = append(out, i18n.M("error.advice.files", "files", strings.Join(append(BootstrapFiles(), MemoryFile), ", "),
			"n", strconv.Itoa(e.System)))
	}
	if e.Turn > e.Need/3 {
		out = append(out, i18n.M("error.advice.message"))
	}
	return out
}

// noRoom builds the error for the smallest request Fit could make, need
// tokens with the tools it still has.
func (f *fitter) noRoom(floor, need int) error {
	sys := f.c.scale(f.sysRaw)
	tools := f.c.Tools(f.tools)
	mcp := 0
	for _, t := range f.tools {
		if strings.HasPrefix(t.Name, "mcp_") {
			mcp++
		}
	}
	return &NoRoomError{Window: f.req.Window, Reply: f.req.Reply, Floor: floor,
		Need: need, System: sys, Tools: tools, Turn: max(need-sys-tools-f.c.scale(requestOverhead), 0),
		ToolCount: len(f.tools), MCPTools: mcp}
}
