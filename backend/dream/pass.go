// Package dream is Hearth's memory upkeep: a periodic pass ("Dream") that reads
// what is new in HISTORY.md, the daily notes and recent chats and edits
// MEMORY.md, USER.md and SOUL.md surgically — moving facts where they belong,
// merging duplicates, dropping what is stale, tagging lasting facts with their
// date and source — through tools that can touch only those three files.
//
// Every pass runs under hard budgets (tokens, wall time, tool calls, where a
// no-op edit counts like any other), so a weak model that loops is stopped at
// the budget, not after hours; what it used is reported for the Activity view.
// Its edits are written as the author "Dream" and so land in the history of
// versions, where any pass can be listed and undone (docs/memory.md#dream).
package dream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/backend/i18n"
	"hearth/backend/internal/clip"
	"hearth/backend/llm"
	"hearth/backend/memory"
)

// Budget bounds one pass. A zero field takes DefaultBudget's.
type Budget struct {
	Tokens    int           `json:"tokens"`    // prompt + reply tokens over all model calls
	Time      time.Duration `json:"time"`      // wall time of the pass
	ToolCalls int           `json:"toolCalls"` // edits (no-op ones included) and other calls
}

// DefaultBudget fits a pass over a day's history with a small local model and
// stops a looping one within a few minutes.
var DefaultBudget = Budget{Tokens: 60_000, Time: 5 * time.Minute, ToolCalls: 24}

// maxNoOpRun is how many edits in a row may change nothing before the pass ends:
// a model repeating itself will not start making progress.
const maxNoOpRun = 3

func (b Budget) withDefaults() Budget {
	if b.Tokens <= 0 {
		b.Tokens = DefaultBudget.Tokens
	}
	if b.Time <= 0 {
		b.Time = DefaultBudget.Time
	}
	if b.ToolCalls <= 0 {
		b.ToolCalls = DefaultBudget.ToolCalls
	}
	return b
}

// Why a pass stopped before the model said it was done.
const (
	StopTokens    = "tokens"
	StopTime      = "time"
	StopToolCalls = "tool calls"
	StopNoOps     = "no-op edits"
)

// Report is what one pass did and used (the Activity view shows it).
type Report struct {
	Started   time.Time     `json:"started"`
	Duration  time.Duration `json:"duration"`
	Model     string        `json:"model"`
	Budget    Budget        `json:"budget"`
	Tokens    int           `json:"tokens"`
	ToolCalls int           `json:"toolCalls"`
	NoOps     int           `json:"noOps"`
	Edits     int           `json:"edits"`
	// Files are the files written (or proposed, with Proposed set).
	Files    []string `json:"files"`
	Proposed bool     `json:"proposed,omitempty"`
	// Stopped is set when a budget ended the pass (StopTokens, …).
	Stopped string `json:"stopped,omitempty"`
	Summary string `json:"summary,omitempty"`
	// Skipped says why no model was asked (nothing new).
	Skipped string `json:"skipped,omitempty"`
	Err     string `json:"error,omitempty"`
	// Failure is Err for the window, in the UI language.
	Failure *i18n.Message `json:"failure,omitempty"`
}

// Files Dream may edit, by the name the model uses.
var editable = map[string]string{"MEMORY.md": memory.MemoryFile, "USER.md": "USER.md", "SOUL.md": "SOUL.md"}

// Writer saves Dream's result: by default straight into the files (as the author
// Dream); with the memory inbox on, as proposals that wait for the user.
type Writer interface {
	Write(file, text, baseHash string, o memory.Origin) (proposed bool, err error)
}

// pass is one run of the loop.
type pass struct {
	p      llm.Provider
	model  string
	ctxTok int
	budget Budget
	store  *memory.Store

	work   map[string]*doc // by model name
	rep    *Report
	noOpRn int
}

type doc struct {
	path, base, hash, text string
}

const system = `You keep the long-term memory of a personal assistant tidy. You get the current MEMORY.md (lasting facts about the user's life and work), USER.md (who the user is, preferences) and SOUL.md (how the assistant should behave), and what happened since the last pass.
Edit them surgically with edit_memory: add lasting facts, each tagged with its date and source like "(2026-11-24, chat)"; move a fact to the file it belongs in; merge duplicates into one line; delete what is stale or contradicted by newer facts. Never invent facts. Do not copy the history itself. Keep the files short.
When nothing more needs changing, call done with a one-line summary.`

func editDef() llm.ToolDef {
	return llm.ToolDef{Name: "edit_memory", Short: "Replace text in MEMORY.md, USER.md or SOUL.md.",
		Description: "Replace old_text (exactly as it appears, once) with new_text in one file. Empty old_text appends new_text at the end; empty new_text deletes old_text.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"file":{"type":"string","enum":["MEMORY.md","USER.md","SOUL.md"]},` +
			`"old_text":{"type":"string","description":"text to replace, copied exactly; empty to append"},` +
			`"new_text":{"type":"string","description":"the replacement; empty to delete"}},` +
			`"required":["file","old_text","new_text"]}`)}
}

func doneDef() llm.ToolDef {
	return llm.ToolDef{Name: "done", Short: "End the pass.", Description: "End the pass with a one-line summary of what changed.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"]}`)}
}

// run asks the model until it is done or a budget is spent; the edits are kept
// in the working copies (written by the caller).
func (ps *pass) run(ctx context.Context, material string) error {
	ctx, cancel := context.WithTimeout(ctx, ps.budget.Time)
	defer cancel()
	var b strings.Builder
	for _, name := range []string{"MEMORY.md", "USER.md", "SOUL.md"} {
		t := ps.work[name].text
		if strings.TrimSpace(t) == "" {
			t = "(empty)"
		}
		fmt.Fprintf(&b, "## %s\n%s\n\n", name, strings.TrimRight(t, "\n"))
	}
	b.WriteString("## New since the last pass\n" + material + "\n\nEdit the files with edit_memory, then call done.")
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: b.String()}}
	zero, noThink := 0.0, false
	req := llm.Request{Model: ps.model, Tools: []llm.ToolDef{editDef(), doneDef()}, Temperature: &zero, Think: &noThink,
		ContextTokens: ps.ctxTok, MaxTokens: 1024}
	for {
		if ps.rep.Tokens >= ps.budget.Tokens {
			ps.rep.Stopped = StopTokens
			return nil
		}
		req.Messages = msgs
		resp, err := ps.p.Chat(ctx, req, func(llm.Chunk) {})
		if err != nil {
			if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				ps.rep.Stopped = StopTime
				return nil
			}
			return err
		}
		used := resp.Usage.PromptTokens + resp.Usage.CompletionTokens
		if used == 0 { // a provider that reports nothing: a rough count, never free
			used = (len(b.String()) + len(resp.Message.Content)) / 4
		}
		ps.rep.Tokens += used
		calls := resp.Message.ToolCalls
		if len(calls) == 0 {
			ps.rep.Summary = clip.Squash(resp.Message.Content, 200)
			return nil
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: resp.Message.Content, ToolCalls: calls})
		for _, tc := range calls {
			if ps.rep.ToolCalls >= ps.budget.ToolCalls {
				ps.rep.Stopped = StopToolCalls
				return nil
			}
			ps.rep.ToolCalls++
			result, finished := ps.call(tc)
			if finished {
				return nil
			}
			if ps.noOpRn >= maxNoOpRun {
				ps.rep.Stopped = StopNoOps
				return nil
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleTool, Content: result, ToolCallID: tc.ID, ToolName: tc.Name})
		}
	}
}

type editArgs struct {
	File    string `json:"file"`
	OldText string `json:"old_text"`
	NewText string `json:"new_text"`
}

// call runs one tool call; finished is true for done.
func (ps *pass) call(tc llm.ToolCall) (result string, finished bool) {
	switch tc.Name {
	case "done":
		var a struct {
			Summary string `json:"summary"`
		}
		_ = json.Unmarshal(tc.Arguments, &a)
		ps.rep.Summary = clip.Squash(a.Summary, 200)
		return "", true
	case "edit_memory":
	default:
		ps.noOpRn++
		ps.rep.NoOps++
		return fmt.Sprintf("error: unknown tool %q (use edit_memory or done)", tc.Name), false
	}
	var a editArgs
	if tc.ArgsError != "" || json.Unmarshal(tc.Arguments, &a) != nil {
		ps.noOpRn++
		ps.rep.NoOps++
		return "error: the arguments are not valid JSON: give file, old_text and new_text", false
	}
	d := ps.work[strings.TrimPrefix(strings.TrimSpace(a.File), "memory/")]
	if d == nil {
		ps.noOpRn++
		ps.rep.NoOps++
		return "error: only MEMORY.md, USER.md and SOUL.md can be edited", false
	}
	next, err := replace(d.text, a.OldText, a.NewText)
	if err != nil || next == d.text {
		ps.noOpRn++
		ps.rep.NoOps++
		if err != nil {
			return "error: " + err.Error() + " (nothing changed)", false
		}
		return "no change: the file already says that. Call done if nothing else needs changing.", false
	}
	d.text = next
	ps.noOpRn = 0
	ps.rep.Edits++
	return fmt.Sprintf("ok: %s edited (%d lines)", a.File, strings.Count(next, "\n")+1), false
}

// replace replaces the one occurrence of old in text by new; an empty old appends.
func replace(text, old, repl string) (string, error) {
	if old == "" {
		if strings.TrimSpace(repl) == "" {
			return text, nil
		}
		t := strings.TrimRight(text, "\n")
		if t == "" {
			return strings.TrimRight(repl, "\n") + "\n", nil
		}
		return t + "\n" + strings.TrimRight(repl, "\n") + "\n", nil
	}
	switch n := strings.Count(text, old); {
	case n == 0:
		return text, errors.New("old_text was not found; copy it exactly from the file")
	case n > 1:
		return text, fmt.Errorf("old_text occurs %d times; give more of the surrounding text", n)
	}
	out := strings.Replace(text, old, repl, 1)
	if repl == "" { // a deleted line leaves no blank line behind
		out = strings.Replace(out, "\n\n\n", "\n\n", 1)
	}
	return out, nil
}
