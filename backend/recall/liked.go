package recall

import (
	"context"
	"database/sql"
	"strings"
)

// A chunk that states a liking of the user's is marked when it is indexed:
// the liked table holds its liking statements and their terms, so that a
// question asking what the user would like reads those rows, newest first,
// instead of finding and parsing every chunk holding a cue word ("like" and
// "love" are in many chunks of a big workspace that say no liking).

// likedTable is version 9's: a row per chunk holding a liking statement.
// likedTermsTable indexes the statements' terms, so that a question finds
// the marks holding its words without reading the rest.
const (
	likedTable      = `CREATE TABLE IF NOT EXISTS liked(n INTEGER PRIMARY KEY, said TEXT NOT NULL, terms TEXT NOT NULL)`
	likedTermsTable = `CREATE VIRTUAL TABLE IF NOT EXISTS likedterms USING fts5(t, content='', contentless_delete=1)`
)

const (
	// maxLikedBytes bounds the statements stored for one chunk, whole
	// sentences (a chunk of the chunker is at most maxChunk bytes; a longer
	// one, a chat turn, holds no more likings worth handing over).
	maxLikedBytes = 1024
	// maxLikedTerms bounds their terms as read back.
	maxLikedTerms = 4 * maxLikedBytes
	// maxLikedScan bounds the text looked at for them: the cost of marking a
	// huge passage stays that of a big one.
	maxLikedScan = 16 << 10
)

// likingCueSet is likingCues as a set, to tell from a chunk's terms whether
// it can hold a liking at all before its sentences are parsed.
var likingCueSet = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range likingCues {
		m[c] = true
	}
	return m
}()

// hasLikingCue reports whether terms hold a word a liking statement holds.
func hasLikingCue(terms []string) bool {
	for _, t := range terms {
		if likingCueSet[t] {
			return true
		}
	}
	return false
}

// likingStatements is text's liking statements of the user's (not the
// assistant's lines, not another person's: likes()), joined, whole
// sentences up to maxLikedBytes (the first sentence cut if it alone is
// longer).
func likingStatements(text string) string {
	if len(text) > maxLikedScan {
		text = text[:maxLikedScan]
	}
	var b strings.Builder
	for _, s := range sentences(text) {
		if strings.HasPrefix(strings.ToLower(s), "assistant:") {
			continue
		}
		is := containsAny(s, zhLiking)
		if !is {
			lineWords(s, func(ws []string, clause []int, _ string) { is = is || likes(ws, clause) })
		}
		if !is {
			continue
		}
		if b.Len() > 0 && b.Len()+1+len(s) > maxLikedBytes {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(clip(s, maxLikedBytes))
	}
	return b.String()
}

// execer is a *sql.Tx or a *sql.Conn.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// markLiked stores chunk n's liking statements, if it holds any; terms are
// its terms (nil: made here).
func markLiked(ctx context.Context, q execer, memo *stemMemo, n int64, text string, terms []string) error {
	if terms == nil {
		terms = memo.tokenize(text)
	}
	if !hasLikingCue(terms) {
		return nil
	}
	said := likingStatements(text)
	if said == "" {
		return nil
	}
	saidTerms := strings.Join(memo.tokenize(said), " ")
	// A row number is reused after its chunk is deleted, and unmarkLiked
	// has cleared it then; a damaged file may still hold one: replaced.
	if err := unmarkLiked(ctx, q, n); err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO liked(n, said, terms) VALUES(?, ?, ?)`, n, said, saidTerms); err != nil {
		return err
	}
	_, err := q.ExecContext(ctx, `INSERT INTO likedterms(rowid, t) VALUES(?, ?)`, n, saidTerms)
	return err
}

// unmarkLiked removes chunk n's mark, if any.
func unmarkLiked(ctx context.Context, q execer, n int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM liked WHERE n = ?`, n); err != nil {
		return err
	}
	_, err := q.ExecContext(ctx, `DELETE FROM likedterms WHERE rowid = ?`, n)
	return err
}

// fillLiked marks every chunk of an index whose marks are missing or were
// made by older cues (its migration), a batch at a time.
func fillLiked(ctx context.Context, conn *sql.Conn) error {
	for _, t := range []string{likedTable, likedTermsTable, `DELETE FROM liked`,
		`INSERT INTO likedterms(likedterms) VALUES('delete-all')`} {
		if _, err := conn.ExecContext(ctx, t); err != nil {
			return err
		}
	}
	memo := newStemMemo()
	return eachChunk(ctx, conn, func(n int64, text string) error { return markLiked(ctx, conn, memo, n, text, nil) })
}
