package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	textclip "hearth/backend/internal/clip"
	"hearth/backend/llm"
)

// SaveMemoryTool is the tool a consolidation asks the model to call.
const SaveMemoryTool = "save_memory"

func saveMemoryDef() llm.ToolDef {
	return llm.ToolDef{Name: SaveMemoryTool,
		Description: "Save the consolidated memory.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"history_entry":{"type":"string","description":"2-5 sentences: what happened, decisions, names, dates; grep-friendly"},` +
			`"memory_update":{"type":"string","description":"the full new MEMORY.md: lasting facts about the user and their work; the current text if nothing changed"}},` +
			`"required":["history_entry","memory_update"]}`)}
}

const consolidateSystem = `You are the memory keeper of a personal assistant. You read part of a conversation and save what matters by calling save_memory exactly once. Keep MEMORY.md short: lasting facts, preferences, people, projects. Never invent facts.`

const plainSystem = `You are the memory keeper of a personal assistant. Summarise the conversation for a dated history log in 2-5 plain sentences: what happened, decisions, names, dates. Reply with the summary only.`

// Per-message caps of the transcript: the gist, not every byte of a tool result.
const (
	maxMsgChars  = 2000
	maxToolChars = 300
)

// formatTranscript renders messages [start, end) as text, stopping at a turn
// boundary once budget characters are used (at least one turn is taken). It
// returns where it stopped.
func formatTranscript(msgs []llm.Message, start, end, budget int) (int, string) {
	var b strings.Builder
	i := start
	for i < end {
		m := msgs[i]
		if i > start && m.Role == llm.RoleUser && b.Len() >= budget {
			break
		}
		switch m.Role {
		case llm.RoleUser:
			fmt.Fprintf(&b, "USER: %s\n", clip(m.Content, maxMsgChars))
		case llm.RoleAssistant:
			if c := strings.TrimSpace(m.Content); c != "" {
				fmt.Fprintf(&b, "ASSISTANT: %s\n", clip(c, maxMsgChars))
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(&b, "ASSISTANT called %s %s\n", tc.Name, clip(string(tc.Arguments), maxToolChars))
			}
		case llm.RoleTool:
			fmt.Fprintf(&b, "TOOL %s: %s\n", m.ToolName, clip(m.Content, maxToolChars))
		}
		i++
	}
	return i, b.String()
}

func clip(s string, n int) string { return textclip.Bytes(strings.TrimSpace(s), n) }

// ask gets a history entry and the new MEMORY.md from the model through a
// save_memory call, asking once more when it answers without the call. A
// model without tool support (the provider dropped the tools) — or, when
// plainFallback is set, one that twice ignored the tool — is asked for a
// plain summary instead, which becomes the entry; MEMORY.md is then left as
// it is (update "").
func (c *Consolidator) ask(ctx context.Context, p llm.Provider, model, memory, transcript string, plainFallback bool) (entry, update string, err error) {
	cur := memory
	if strings.TrimSpace(cur) == "" {
		cur = "(empty)"
	}
	user := "## Current MEMORY.md\n" + cur + "\n\n## Conversation to save\n" + transcript +
		"\nCall save_memory now: history_entry (2-5 sentences) and memory_update (the whole new MEMORY.md)."
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: consolidateSystem}, {Role: llm.RoleUser, Content: user}}
	zero := 0.0
	noThink := false
	req := llm.Request{Model: model, Tools: []llm.ToolDef{saveMemoryDef()}, Temperature: &zero, Think: &noThink, ContextTokens: c.opts.ContextTokens}
	// A model known to lack tool support goes straight to the plain summary:
	// a tool request would be answered without the tool, a wasted call.
	dropped := false
	if sh, ok := p.(llm.ModelShower); ok {
		if d, err := sh.Show(ctx, model); err == nil && len(d.Capabilities) > 0 && !d.Has(llm.CapTools) {
			dropped = true
		}
	}
	for attempt := 0; attempt < 2 && !dropped; attempt++ {
		req.Messages = msgs
		resp, err := p.Chat(ctx, req, func(llm.Chunk) {})
		if le, ok := llm.AsError(err); ok && le.Kind == llm.KindBadResponse && strings.Contains(le.Message, "empty reply") {
			// An empty or unusable answer is one more answer without the call.
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "Call save_memory now with history_entry and memory_update."})
			continue
		}
		if err != nil {
			return "", "", err
		}
		if resp.ToolsDropped {
			dropped = true
			break
		}
		for _, tc := range resp.Message.ToolCalls {
			if tc.Name != SaveMemoryTool {
				continue
			}
			entry, update, ok := parseSaveMemory(tc.Arguments)
			if ok {
				return entry, update, nil
			}
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: resp.Message.Content},
			llm.Message{Role: llm.RoleUser, Content: "You did not call save_memory. Call it now with history_entry and memory_update; no other text."})
	}
	if !dropped && !plainFallback {
		return "", "", ErrNoToolCall
	}
	resp, err := p.Chat(ctx, llm.Request{Model: model, Temperature: &zero, Think: &noThink, ContextTokens: c.opts.ContextTokens, Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: plainSystem}, {Role: llm.RoleUser, Content: "## Conversation\n" + transcript}}}, func(llm.Chunk) {})
	if err != nil {
		return "", "", err
	}
	entry = strings.Join(strings.Fields(resp.Message.Content), " ")
	if entry == "" {
		return "", "", fmt.Errorf("%w, and its plain summary was empty", ErrNoToolCall)
	}
	return entry, "", nil
}

// parseSaveMemory reads the call's arguments; a memory_update that is not a
// string (small models send objects or lists) is kept as its JSON text
// rather than lost, and a missing one leaves MEMORY.md unchanged.
func parseSaveMemory(raw json.RawMessage) (entry, update string, ok bool) {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return "", "", false
	}
	entry = strings.Join(strings.Fields(jsonText(args["history_entry"])), " ")
	update = jsonText(args["memory_update"])
	if strings.TrimSpace(update) != "" && !strings.HasSuffix(update, "\n") {
		update += "\n"
	}
	return entry, update, entry != ""
}

func jsonText(v json.RawMessage) string {
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}
