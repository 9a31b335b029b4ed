package attach

import (
	"context"
	"strconv"
	"strings"

	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// passagesPerMessage bounds the passages given for one message: the best few,
// as many as the room holds.
const passagesPerMessage = 6

// Block is what the prompt gets of the chat's attachments for a user message
// of text, in at most room tokens (what the fitter leaves): each file of current
// (the message's own attachments) that fits goes whole (its start, cut at a
// paragraph or line end when it nearly fits, saying so); for the rest, and for
// every later message of a chat with attachments, the passages most relevant
// to text, each headed by its place so the answer can cite it. Notes say what
// was done, per file ("report.pdf: 412 passages, searched").
func (s *Store) Block(ctx context.Context, sessionID, text string, current []llm.Attachment, room int) (string, []i18n.Message) {
	if room <= 0 || sessionID == "" {
		return "", nil
	}
	budget := room * 4 // bytes, about four a token
	var b strings.Builder
	var notes []i18n.Message
	var searched []string
	for _, a := range current {
		if a.Mode == "refused" || a.File == "" {
			continue
		}
		if a.Mode == "whole" {
			whole, cut := s.whole(sessionID, a.File, budget-b.Len())
			if whole != "" {
				b.WriteString(whole)
				if cut {
					notes = append(notes, i18n.M("notice.attachCut", "name", a.Name))
				} else {
					notes = append(notes, i18n.M("notice.attachWhole", "name", a.Name))
				}
				continue
			}
		}
		searched = append(searched, a.File)
		notes = append(notes, i18n.M("notice.attachSearched", "name", a.Name, "passages", strconv.Itoa(a.Passages)))
	}
	if len(current) == 0 || len(searched) > 0 {
		// A later message searches every file of the chat; the message that
		// brought files searches those not sent whole.
		ix := s.index(sessionID)
		hits := ix.search(text, passagesPerMessage, searched)
		if len(current) == 0 && len(hits) == 0 {
			return b.String(), notes
		}
		head := "Passages of the attached files that may answer this message (cite them as [file p. N] or [file line N]):\n"
		if len(hits) > 0 && b.Len()+len(head) < budget {
			b.WriteString(head)
			for _, h := range hits {
				p := "[" + h.Where() + "]\n" + h.Text + "\n\n"
				if b.Len()+len(p) > budget {
					break
				}
				b.WriteString(p)
			}
		}
	}
	return strings.TrimSpace(b.String()), notes
}

// wholeHead heads a file sent whole.
func wholeHead(file string) string {
	return "Attached file " + file + " (cite it as [" + file + " line N]):\n"
}

// whole is the file's text headed by its name, in at most budget bytes: cut at
// a paragraph or line end in its last quarter when it nearly fits (cut is then
// set), "" when not even three quarters fit.
func (s *Store) whole(sessionID, file string, budget int) (string, bool) {
	ps := s.filePassages(sessionID, file)
	if len(ps) == 0 {
		return "", false
	}
	var text strings.Builder
	for _, p := range ps {
		if p.Page > 0 {
			text.WriteString("[" + p.Where() + "]\n")
		}
		text.WriteString(p.Text + "\n\n")
	}
	head := wholeHead(file)
	body := text.String()
	room := budget - len(head) - 64
	if len(body) <= room {
		return head + body, false
	}
	if room < len(body)*3/4 {
		return "", false
	}
	n := cutAt(body, room)
	if n < room*3/4 {
		n = len(cutUTF8(body, room))
	}
	return head + body[:n] + "\n[… the rest of " + file + " is left out: search it with attachment_search]\n\n", true
}

// filePassages are the passages of one file of the chat, in order.
func (s *Store) filePassages(sessionID, file string) []Passage {
	var out []Passage
	for _, p := range s.index(sessionID).passages {
		if p.File == file {
			out = append(out, p)
		}
	}
	return out
}
