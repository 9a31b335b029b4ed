package recall

import (
	"encoding/json"
	"time"

	"hearth/backend/llm"
)

// A missing embedding model is a lasting state, and each `hearth` command is a new
// process: remembered in memory only, every turn asked Ollama again and, before
// that, read every stored chunk looking for ones to embed. The absence is kept in
// the index's meta table instead, with the model's name and when it was found
// missing, so every process sharing the index skips both until absentRetry has
// passed, the model setting changes, or a pull through Hearth calls Recheck.

// absentKey is the meta key of the recorded absence.
const absentKey = "absent"

// absentRecord is what is kept of a missing embedding model.
type absentRecord struct {
	Model string `json:"model"`
	At    int64  `json:"at"` // Unix nanoseconds
	Err   string `json:"err"`
	Hint  string `json:"hint,omitempty"`
}

// saveAbsent records that the embedding model is missing (err says why); the caller
// holds x.mu with the database open. A failed write only costs the next process
// one more question.
func (x *Index) saveAbsent(err error) {
	if x.db == nil {
		return
	}
	rec := absentRecord{Model: x.opts.Model, At: x.embedDown.UnixNano(), Err: err.Error()}
	if le, ok := llm.AsError(err); ok {
		rec.Hint = le.Hint
	}
	b, _ := json.Marshal(rec)
	if setMeta(x.db, absentKey, string(b)) == nil {
		x.absentSaved = true
	}
}

// forgetAbsent removes the recorded absence, if any; the caller holds x.mu.
func (x *Index) forgetAbsent() {
	if !x.absentSaved && !x.forget {
		return
	}
	if x.db == nil {
		x.forget = true // removed when the database is opened
		return
	}
	if _, err := x.db.Exec(`DELETE FROM meta WHERE key = ?`, absentKey); err == nil {
		x.absentSaved, x.forget = false, false
	}
}

// loadAbsent takes a recorded absence of this model that is recent enough as this
// process's own; the caller holds x.mu with the database just opened. A record of
// another model, an old one, or one from the future (a clock set back) is ignored
// and asked about again.
func (x *Index) loadAbsent() {
	if x.forget {
		x.forgetAbsent()
		return
	}
	v := getMeta(x.db, absentKey)
	if v == "" || x.opts.Embed == nil {
		return
	}
	x.absentSaved = true
	var rec absentRecord
	if json.Unmarshal([]byte(v), &rec) != nil || rec.Model != x.opts.Model || rec.Err == "" {
		return
	}
	at, now := time.Unix(0, rec.At), x.opts.Now()
	if at.After(now) || now.Sub(at) >= absentRetry || (x.embedErr != nil && x.embedDown.After(at)) {
		return
	}
	err := &llm.Error{Kind: llm.KindModelNotFound, Message: rec.Err, Hint: rec.Hint}
	x.embedErr, x.absent, x.embedDown = err, err, at
}
