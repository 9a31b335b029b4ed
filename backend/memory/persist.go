package memory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
)

// The index is persisted as an append-only log of framed records (length,
// CRC-32, payload in codec.go's format): a changed file appends its chunk puts and deletes
// and then its new state, so one edit costs a few small writes, not a
// rewrite of every vector. Loading replays the log; a torn or corrupt tail
// is cut off at the last good record, and the file check that follows every
// load re-indexes whatever the lost records described. The log is
// compacted into a snapshot when it grows to several times the live data.

const (
	logName    = "chunks.log"
	logVersion = 1
)

type recOp uint8

const (
	opHeader recOp = iota + 1
	opPut
	opDel
	opFile
	opDropFile
)

type header struct {
	Version int
	Model   string
}

// fileState is what the index knows of one source: enough to tell, from a
// stat, whether it changed, and which chunks it produced.
type fileState struct {
	Size    int64
	ModNano int64
	Hash    string
	N       int      // chunk count, for the count check after load
	IDs     []string // in memory only: rebuilt from the chunks' sources
}

// persisted is the state as logged: the count instead of the IDs, so a
// 10k-entry HISTORY.md does not log 10k IDs on every change.
func (st fileState) persisted() *fileState {
	st.N, st.IDs = len(st.IDs), nil
	return &st
}

type record struct {
	Op     recOp
	Header *header
	Chunk  *Chunk
	ID     string
	Source string
	State  *fileState
}

func frame(buf *bytes.Buffer, r record) error {
	payload := encodeRecord(nil, r)
	var h [8]byte
	binary.LittleEndian.PutUint32(h[:4], uint32(len(payload)))
	binary.LittleEndian.PutUint32(h[4:], crc32.ChecksumIEEE(payload))
	buf.Write(h[:])
	buf.Write(payload)
	return nil
}

// readLog returns the records of the log up to the first bad one, and
// whether the log ended cleanly (torn is true when a tail was cut off).
func readLog(p string) (recs []record, goodLen int64, torn bool, err error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, 0, false, err
	}
	off := 0
	for off < len(b) {
		if len(b)-off < 8 {
			return recs, int64(off), true, nil
		}
		n := int(binary.LittleEndian.Uint32(b[off : off+4]))
		sum := binary.LittleEndian.Uint32(b[off+4 : off+8])
		if n <= 0 || n > len(b)-off-8 || crc32.ChecksumIEEE(b[off+8:off+8+n]) != sum {
			return recs, int64(off), true, nil
		}
		r, err := decodeRecord(b[off+8 : off+8+n])
		if err != nil {
			return recs, int64(off), true, nil
		}
		recs = append(recs, r)
		off += 8 + n
	}
	return recs, int64(off), false, nil
}

// logWriter appends records to the log.
type logWriter struct {
	path    string
	records int // records in the file, for compaction
}

func (w *logWriter) append(recs []record) error {
	if w == nil || len(recs) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, r := range recs {
		if err := frame(&buf, r); err != nil {
			return fmt.Errorf("encode index record: %w", err)
		}
	}
	f, err := os.OpenFile(w.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	// The desktop app and a CLI command may both append: the lock keeps
	// their records whole.
	if err := flock(f); err != nil {
		f.Close()
		return fmt.Errorf("write index: %w", err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("write index: %w", err)
	}
	w.records += len(recs)
	return f.Close()
}

// snapshot replaces the log with recs (header first), atomically.
func (w *logWriter) snapshot(recs []record) error {
	if w == nil {
		return nil
	}
	var buf bytes.Buffer
	for _, r := range recs {
		if err := frame(&buf, r); err != nil {
			return fmt.Errorf("encode index record: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(w.path), 0o700); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := writeAtomic(w.path, buf.Bytes()); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	w.records = len(recs)
	return nil
}

func truncateLog(p string, n int64) error {
	if err := os.Truncate(p, n); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
