package recall

import (
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"hearth/backend/session"
)

// A chat is indexed from where it grew. Each turn appends a few lines to the live
// chat's file, and reading, parsing and chunking the whole chat again at every turn
// made a long chat's turn cost more than its own work. For each chat the index keeps
// a bookmark (the marks table): the offset of the line where the chat's last chunk
// starts, that message's index, and the chunks' title and date; the files table holds
// the CRC-32C of the bytes indexed (sessionHash: a SHA-256 of a long chat at every sync
// cost a turn more than the chunking it saves; CRC-32C runs in hardware, and the
// session store trusts it for the same check). When the file still starts with exactly those
// bytes and what follows only adds messages (session.ScanMessages), just the lines
// from the bookmark on are read, chunked and diffed against the last chunk's. Anything
// else — a rewind, a new title, a trim, an edit, a damaged line — reads it whole.

// marksTable holds the chats' bookmarks; an index made before it existed gets it
// when opened.
const marksTable = `CREATE TABLE IF NOT EXISTS marks(source TEXT PRIMARY KEY, off INTEGER NOT NULL,
	pos INTEGER NOT NULL, title TEXT NOT NULL, date TEXT NOT NULL)`

// sessionMark is a chat's bookmark.
type sessionMark struct {
	off         int64 // where the line of message pos starts
	pos         int   // the message the last chunk starts at
	title, date string
}

// sessionStore reads the chats (a store of its own: the index keeps no parsed state).
func (x *Index) sessionStore() *session.Store {
	return session.NewStore(x.opts.SessionsDir, session.Options{})
}

// readSession reads a whole chat: its chunks, the hash of its bytes and, when its
// messages are its message lines in order, its bookmark.
func (x *Index) readSession(src, id string) ([]Chunk, string, *sessionMark, error) {
	data, mod, err := x.sessionStore().ReadFile(id)
	if errors.Is(err, session.ErrTooLarge) {
		return x.loadSession(src, id)
	}
	if err != nil {
		return nil, "", nil, err
	}
	s := session.Parse(id, data, mod)
	title, date := sessionLabel(s.Meta)
	chunks, open := sessionChunksFrom(src, title, date, s.Messages(), 0, map[string]int{})
	var mark *sessionMark
	if offs := session.MessageLines(data); len(offs) == len(s.Entries) && len(s.Warnings) == 0 &&
		len(s.Branches) == 0 && len(data) > 0 && data[len(data)-1] == '\n' {
		mark = &sessionMark{off: int64(len(data)), pos: open, title: title, date: date}
		if open < len(offs) {
			mark.off = int64(offs[open])
		}
	}
	return chunks, sessionHash(crc32.Checksum(data, castagnoli)), mark, nil
}

// loadSession reads a chat too large to hold whole (session.ErrTooLarge) the way
// the chat view does, a piece at a time, its over-long lines skipped: it gets no
// bookmark, and its hash is its chunks' IDs.
func (x *Index) loadSession(src, id string) ([]Chunk, string, *sessionMark, error) {
	s, err := x.sessionStore().Load(id)
	if err != nil {
		return nil, "", nil, err
	}
	title, date := sessionLabel(s.Meta)
	chunks, _ := sessionChunksFrom(src, title, date, s.Messages(), 0, map[string]int{})
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString(c.ID)
	}
	return chunks, contentHash([]byte(b.String())), nil, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sessionHash is the files table's hash of a chat's bytes, from their CRC-32C.
func sessionHash(sum uint32) string { return fmt.Sprintf("crc32c:%08x", sum) }

// sessionTail is what the indexed part of a grown chat leaves to do.
type sessionTail struct {
	chunks []Chunk
	hash   string
	have   map[string]bool // the IDs of the last chunk(s), which the new lines may change
	mark   *sessionMark
}

// appendedSession reads only what was added to chat src since it was indexed as old
// (ok false: read it whole).
func (x *Index) appendedSession(src string, old fileState) (t sessionTail, ok bool, err error) {
	id, _ := strings.CutPrefix(src, "sessions/")
	if old.Size <= 0 || old.Hash == "" {
		return t, false, nil
	}
	var m sessionMark
	err = x.db.QueryRow(`SELECT off, pos, title, date FROM marks WHERE source = ?`, src).Scan(&m.off, &m.pos, &m.title, &m.date)
	if errors.Is(err, sql.ErrNoRows) {
		return t, false, nil
	}
	if err != nil {
		return t, false, err
	}
	data, _, err := x.sessionStore().ReadFile(id)
	if err != nil || int64(len(data)) <= old.Size || m.off < 0 || m.off > old.Size || m.pos < 0 {
		return t, false, nil
	}
	sum := crc32.Checksum(data[:old.Size], castagnoli) // one pass: the indexed part's sum on the way
	if sessionHash(sum) != old.Hash || data[old.Size-1] != '\n' {
		return t, false, nil
	}
	sum = crc32.Update(sum, castagnoli, data[old.Size:])
	msgs, offs, ok := session.ScanMessages(data[m.off:], int(old.Size-m.off))
	if !ok {
		return t, false, nil
	}
	if t.have, err = chunkIDsFrom(x.db, src, m.pos); err != nil {
		return t, false, err
	}
	// A chunk saying what an earlier one of the chat said gets the next "~N" ID: the
	// earlier ones are counted in the index, the last chunk's left out (it is redone).
	bases, _ := sessionChunksFrom(src, m.title, m.date, msgs, m.pos, map[string]int{})
	seen := map[string]int{}
	for _, c := range bases {
		base := c.ID
		if i := strings.LastIndexByte(base, '~'); i > strings.LastIndexByte(base, '#') {
			continue // a twin within the tail: its base is counted
		}
		if seen[base], err = twinsBefore(x.db, base, m.pos); err != nil {
			return t, false, err
		}
	}
	chunks, open := sessionChunksFrom(src, m.title, m.date, msgs, m.pos, seen)
	next := &sessionMark{off: int64(len(data)), pos: open, title: m.title, date: m.date}
	if k := open - m.pos; k < len(offs) {
		next.off = m.off + int64(offs[k])
	}
	t.chunks, t.hash, t.mark = chunks, sessionHash(sum), next
	x.chatTails++
	return t, true, nil
}

// chunkIDsFrom returns the IDs of chat src's chunks from message pos on.
func chunkIDsFrom(q querier, src string, pos int) (map[string]bool, error) {
	rows, err := q.Query(`SELECT id FROM chunks WHERE source = ? AND pos >= ?`, src, pos)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// twinsBefore counts the chunks with ID base or base~N that start before message pos.
func twinsBefore(q querier, base string, pos int) (int, error) {
	var n int
	err := q.QueryRow(`SELECT count(*) FROM chunks WHERE (id = ?1 OR (id > ?1 || '~' AND id < ?1 || '~~')) AND pos < ?2`, base, pos).Scan(&n)
	return n, err
}

// saveMark writes a chat's bookmark with its change (nil removes it).
func saveMark(tx *txn, src string, m *sessionMark) error {
	if m == nil {
		_, err := tx.Exec(`DELETE FROM marks WHERE source = ?`, src)
		return err
	}
	_, err := tx.Exec(`INSERT INTO marks(source, off, pos, title, date) VALUES(?, ?, ?, ?, ?)
		ON CONFLICT(source) DO UPDATE SET off = excluded.off, pos = excluded.pos, title = excluded.title, date = excluded.date`,
		src, m.off, m.pos, m.title, m.date)
	return err
}
