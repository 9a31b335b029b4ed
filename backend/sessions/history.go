package sessions

import (
	"encoding/base64"

	"hearth/backend/llm"
	"hearth/backend/session"
)

// HistoryCall is one tool call of a stored assistant message.
type HistoryCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// HistoryMessage is one stored message as the window shows it.
type HistoryMessage struct {
	Role       string        `json:"role"`
	Content    string        `json:"content"`
	Reasoning  string        `json:"reasoning,omitempty"`
	Images     []string      `json:"images,omitempty"` // base64
	ToolCalls  []HistoryCall `json:"toolCalls,omitempty"`
	ToolCallID string        `json:"toolCallId,omitempty"`
	ToolName   string        `json:"toolName,omitempty"`
	RunID      string        `json:"runId,omitempty"`
	// Attachments are the files the message came with (their records: the chips).
	Attachments []llm.Attachment `json:"attachments,omitempty"`
}

// History is a chat as the window loads it: messages, how each run ended and
// which runs were interrupted (the "continue" action).
type History struct {
	ID          string           `json:"id"`
	Title       string           `json:"title"`
	Model       string           `json:"model"`
	Messages    []HistoryMessage `json:"messages"`
	Runs        []session.Run    `json:"runs"`
	Interrupted []string         `json:"interrupted"`
	// Versions are the earlier versions of the chat (regenerated answers, edited
	// questions with what followed), oldest first; each departs at message At.
	Versions []HistoryVersion `json:"versions"`
}

// HistoryVersion is an earlier version of a chat from message At on.
type HistoryVersion struct {
	At       int              `json:"at"`
	Messages []HistoryMessage `json:"messages"`
	Runs     []session.Run    `json:"runs"`
}

// History loads session id for the window.
func (svc *Service) History(id string) (History, error) {
	s, err := svc.store.Load(id)
	if err != nil {
		return History{}, err
	}
	h := History{ID: s.Meta.ID, Title: s.Meta.Title, Model: s.Meta.Model,
		Runs: s.Runs, Interrupted: []string{}}
	if h.Runs == nil {
		h.Runs = []session.Run{}
	}
	h.Messages = historyMessages(s.Entries)
	for _, it := range s.Interrupted {
		h.Interrupted = append(h.Interrupted, it.RunID)
	}
	h.Versions = make([]HistoryVersion, 0, len(s.Branches))
	for _, b := range s.Branches {
		v := HistoryVersion{At: b.At, Messages: historyMessages(b.Entries), Runs: b.Runs}
		if v.Runs == nil {
			v.Runs = []session.Run{}
		}
		h.Versions = append(h.Versions, v)
	}
	return h, nil
}

func historyMessages(es []session.Entry) []HistoryMessage {
	out := make([]HistoryMessage, 0, len(es))
	for _, e := range es {
		m := HistoryMessage{Role: string(e.Role), Content: e.Content, Reasoning: e.Reasoning,
			ToolCallID: e.ToolCallID, ToolName: e.ToolName, RunID: e.RunID, Attachments: e.Attachments}
		for _, img := range e.Images {
			m.Images = append(m.Images, base64.StdEncoding.EncodeToString(img))
		}
		for _, c := range e.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, HistoryCall{ID: c.ID, Name: c.Name, Arguments: string(c.Arguments)})
		}
		out = append(out, m)
	}
	return out
}
