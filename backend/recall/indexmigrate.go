package recall

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
)

// migrateFrom4 moves an index of version 4, whose vectors were a column of the
// chunks table, to the narrow vectors table, keeping every vector: embedding
// a user's notes again would cost minutes on a CPU. The column goes (the
// chunks table is rewritten once) so that the file's schema is the one a new
// index gets.
var migrateFrom4 = []string{
	vectorsTable,
	`INSERT OR REPLACE INTO vectors(n, v) SELECT n, vec FROM chunks`,
	`DROP INDEX IF EXISTS chunks_novec`,
	`ALTER TABLE chunks DROP COLUMN vec`,
	vectorsPending,
	dirsTable,
	marksTable,
	`PRAGMA user_version = ` + strconv.Itoa(schemaVersion),
}

// migrate4 migrates an index of version 4 in one transaction: a kill at any
// point leaves the old index or the new one, never a mix. The transaction
// takes the write lock first (BEGIN IMMEDIATE) and reads the version again
// under it, so two processes opening the same old index migrate it once.
func migrate4(db *sql.DB) (err error) {
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_, _ = conn.ExecContext(ctx, `ROLLBACK`)
		}
	}()
	var v int
	if err := conn.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	switch v {
	case schemaVersion: // another process migrated it while this one waited
		_, err = conn.ExecContext(ctx, `COMMIT`)
		return err
	case 4:
	default:
		return fmt.Errorf("index of another version (%d)", v)
	}
	for _, s := range migrateFrom4 {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	_, err = conn.ExecContext(ctx, `COMMIT`)
	return err
}
