package sessions

import (
	"strings"
	"unicode/utf8"

	"hearth/backend/llm"
)

// ChatHit is one place a search found in the chats: a title, or a message of the
// current version of a chat (Index into the window's history messages, -1 for a title).
type ChatHit struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	Index     int    `json:"index"`
	Role      string `json:"role,omitempty"`
	// Snippet is the text around the match, on one line; Start and End are the match's
	// rune offsets in it (for the highlight).
	Snippet string `json:"snippet"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
}

// snippetRunes is about how much text a hit shows around its match.
const snippetRunes = 90

// Search finds query (case-insensitive, as typed) in the chats' titles and in what was
// asked and answered (tool results and earlier versions are left out), newest chats
// first, at most limit hits and at most three per chat. Every chat file is read: a
// few hundred chats take milliseconds, and nothing has to be kept up to date.
func (s *Service) Search(query string, limit int) ([]ChatHit, error) {
	q := strings.ToLower(strings.TrimSpace(query))
	out := []ChatHit{}
	if q == "" {
		return out, nil
	}
	if limit <= 0 {
		limit = 30
	}
	list, err := s.store.List()
	if err != nil {
		return nil, err
	}
	for _, sum := range list {
		if len(out) >= limit {
			break
		}
		per := 0
		if snip, a, b, ok := around(sum.Title, q); ok {
			out = append(out, ChatHit{SessionID: sum.ID, Title: sum.Title, Index: -1, Snippet: snip, Start: a, End: b})
			per++
		}
		sess, err := s.store.Load(sum.ID)
		if err != nil {
			continue // listed but unreadable now (deleted meanwhile): nothing to find
		}
		for i, e := range sess.Entries {
			if per >= 3 || len(out) >= limit {
				break
			}
			if e.Role != llm.RoleUser && e.Role != llm.RoleAssistant {
				continue
			}
			if snip, a, b, ok := around(e.Content, q); ok {
				out = append(out, ChatHit{SessionID: sum.ID, Title: sum.Title, Index: i, Role: string(e.Role), Snippet: snip, Start: a, End: b})
				per++
			}
		}
	}
	return out, nil
}

// around cuts text to about snippetRunes around the first match of q (lower case),
// on one line, and returns where the match is in it.
func around(text, q string) (snip string, start, end int, ok bool) {
	lower := strings.ToLower(text)
	at := strings.Index(lower, q)
	// ToLower may change byte lengths (rare letters): then match on the text itself.
	if at < 0 || len(lower) != len(text) {
		return "", 0, 0, false
	}
	from := max(0, at-snippetRunes/3)
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	to := min(len(text), at+len(q)+snippetRunes)
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to++
	}
	pre, match, post := text[from:at], text[at:at+len(q)], text[at+len(q):to]
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	p := flat(pre)
	if strings.HasSuffix(pre, " ") || strings.HasSuffix(pre, "\n") {
		p += " "
	}
	if from > 0 {
		p = "…" + p
	}
	m := flat(match)
	rest := post
	if len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\n') {
		rest = " " + flat(rest)
	} else {
		rest = flat(rest)
	}
	if to < len(text) {
		rest += "…"
	}
	start = utf8.RuneCountInString(p)
	return p + m + rest, start, start + utf8.RuneCountInString(m), true
}
