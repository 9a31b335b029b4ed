package sessions

import (
	"encoding/base64"

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
}

// History loads session id for the window.
func (svc *Service) History(id string) (History, error) {
	s, err := svc.store.Load(id)
	if err != nil {
		return History{}, err
	}
	h := History{ID: s.Meta.ID, Title: s.Meta.Title, Model: s.Meta.Model,
		Messages: make([]HistoryMessage, 0, len(s.Entries)), Runs: s.Runs, Interrupted: []string{}}
	if h.Runs == nil {
		h.Runs = []session.Run{}
	}
	for _, e := range s.Entries {
		m := HistoryMessage{Role: string(e.Role), Content: e.Content, Reasoning: e.Reasoning,
			ToolCallID: e.ToolCallID, ToolName: e.ToolName, RunID: e.RunID}
		for _, img := range e.Images {
			m.Images = append(m.Images, base64.StdEncoding.EncodeToString(img))
		}
		for _, c := range e.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, HistoryCall{ID: c.ID, Name: c.Name, Arguments: string(c.Arguments)})
		}
		h.Messages = append(h.Messages, m)
	}
	for _, it := range s.Interrupted {
		h.Interrupted = append(h.Interrupted, it.RunID)
	}
	return h, nil
}
