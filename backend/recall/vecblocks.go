package recall

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
)

// The vectors are stored packed, blockRows to a row of the vecblocks table: block
// b holds the vectors of chunk rows b*blockRows to b*blockRows+blockRows-1. Every
// new process with an embedding model loads all of them at its first search, and
// read one row per chunk that cost about 0.7 µs a row, whatever the vector's width:
// 12 ms of a turn at 17 000 chunks. A block is one row, so the load reads some 270
// rows instead, and a write rewrites the few blocks it touched, once per
// transaction (txn.flush).
//
// A block's blob, little-endian: the vectors' width (uint32), a mask of the rows
// present (uint64, bit i for row b*blockRows+i), then the vectors of the rows
// present, in row order, width float32s each. Chunks still to embed are the rows
// of the novec table.

const (
	blockRows   = 64
	blockHeader = 12
	// maxDims bounds a block's stated width: the widest embedding models give a
	// few thousand; anything past this is damage.
	maxDims = 1 << 14
)

const vecBlocksTable = `CREATE TABLE IF NOT EXISTS vecblocks(b INTEGER PRIMARY KEY, v BLOB NOT NULL)`

// novecTable lists the chunks still to embed (the model was away when they were
// indexed, or another model's vectors were dropped).
const novecTable = `CREATE TABLE IF NOT EXISTS novec(n INTEGER PRIMARY KEY)`

// errBlock is a block that does not hold what its header says.
var errBlock = errors.New("damaged vector block")

// vecBlock is one block, decoded for a write.
type vecBlock struct {
	dim  int
	vecs [blockRows][]float32
}

// blockHead checks a stored block and returns its width and mask.
func blockHead(b []byte) (dim int, mask uint64, err error) {
	if len(b) < blockHeader {
		return 0, 0, errBlock
	}
	d := binary.LittleEndian.Uint32(b)
	mask = binary.LittleEndian.Uint64(b[4:])
	if d == 0 || d > maxDims || mask == 0 {
		return 0, 0, errBlock
	}
	dim = int(d)
	if len(b) != blockHeader+bits.OnesCount64(mask)*dim*4 {
		return 0, 0, errBlock
	}
	return dim, mask, nil
}

// decodeBlock decodes a stored block.
func decodeBlock(b []byte) (*vecBlock, error) {
	dim, mask, err := blockHead(b)
	if err != nil {
		return nil, err
	}
	blk := &vecBlock{dim: dim}
	off := blockHeader
	for i := range blockRows {
		if mask&(1<<i) == 0 {
			continue
		}
		v := make([]float32, dim)
		for j := range v {
			v[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*j:]))
		}
		blk.vecs[i] = v
		off += 4 * dim
	}
	return blk, nil
}

// encode is the block as stored; nil when it holds no vector.
func (blk *vecBlock) encode() []byte {
	var mask uint64
	for i, v := range blk.vecs {
		if len(v) > 0 {
			mask |= 1 << i
		}
	}
	if mask == 0 {
		return nil
	}
	out := make([]byte, blockHeader, blockHeader+bits.OnesCount64(mask)*blk.dim*4)
	binary.LittleEndian.PutUint32(out, uint32(blk.dim))
	binary.LittleEndian.PutUint64(out[4:], mask)
	for _, v := range blk.vecs {
		for _, f := range v {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f))
		}
	}
	return out
}

// putBlock adds the vectors of stored block b to the set, decoded straight into
// it; blocks taken in order keep a set without pos in row order. It reports false, adding nothing, for a damaged block or one of another
// width than the set's.
func (v *vectorSet) putBlock(b int64, blob []byte) bool {
	dim, mask, err := blockHead(blob)
	if err != nil || (v.dim != 0 && dim != v.dim) {
		return false
	}
	v.dim = dim
	off := blockHeader
	for i := range blockRows {
		if mask&(1<<i) == 0 {
			continue
		}
		n := b*blockRows + int64(i)
		vec := blob[off : off+4*dim]
		off += 4 * dim
		if v.pos != nil || len(v.rows) > 0 && v.rows[len(v.rows)-1] >= n {
			// Not after the rows loaded (blocks come in order): through put.
			v.put(n, blobVec(vec))
			continue
		}
		v.rows = append(v.rows, n)
		for j := 0; j < len(vec); j += 4 {
			v.data = append(v.data, math.Float32frombits(binary.LittleEndian.Uint32(vec[j:])))
		}
	}
	return true
}

// blockOf loads block b into the transaction (once). A damaged block is
// dropped: its chunks are queued to embed again, nothing else is lost.
func (tx *txn) blockOf(b int64) (*vecBlock, error) {
	if blk, ok := tx.blocks[b]; ok {
		return blk, nil
	}
	if tx.blocks == nil {
		tx.blocks, tx.dirty = map[int64]*vecBlock{}, map[int64]bool{}
	}
	var raw []byte
	err := tx.QueryRow(`SELECT v FROM vecblocks WHERE b = ?`, b).Scan(&raw)
	blk := &vecBlock{}
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, err
	default:
		if blk, err = decodeBlock(raw); err != nil {
			if err := requeueBlock(tx, b); err != nil {
				return nil, err
			}
			blk, tx.dirty[b] = &vecBlock{}, true
		}
	}
	tx.blocks[b] = blk
	return blk, nil
}

// requeueBlock drops block b and queues its chunks to embed again.
func requeueBlock(q querier, b int64) error {
	if _, err := q.Exec(`DELETE FROM vecblocks WHERE b = ?`, b); err != nil {
		return err
	}
	_, err := q.Exec(`INSERT OR IGNORE INTO novec(n) SELECT n FROM chunks WHERE n >= ? AND n < ?`, b*blockRows, (b+1)*blockRows)
	return err
}

// setVec stores chunk row n's vector (nil: none); a vector of another width
// than its block's others empties the block first (a model change the index
// has not noticed: the old vectors are of no use beside the new).
func (tx *txn) setVec(n int64, vec []float32) error {
	blk, err := tx.blockOf(n / blockRows)
	if err != nil {
		return err
	}
	i := n % blockRows
	if len(vec) == 0 && len(blk.vecs[i]) == 0 {
		return nil
	}
	if len(vec) > 0 && blk.dim != len(vec) {
		if blk.dim != 0 {
			if err := requeueBlock(tx, n/blockRows); err != nil {
				return err
			}
			if _, err := tx.Exec(`DELETE FROM novec WHERE n = ?`, n); err != nil {
				return err
			}
		}
		*blk = vecBlock{dim: len(vec)}
	}
	blk.vecs[i] = vec
	tx.dirty[n/blockRows] = true
	return nil
}

// flush writes the blocks the transaction changed.
func (tx *txn) flush() error {
	for b := range tx.dirty {
		raw := tx.blocks[b].encode()
		var err error
		if raw == nil {
			_, err = tx.Exec(`DELETE FROM vecblocks WHERE b = ?`, b)
		} else {
			_, err = tx.Exec(`INSERT OR REPLACE INTO vecblocks(b, v) VALUES(?, ?)`, b, raw)
		}
		if err != nil {
			return err
		}
	}
	tx.blocks, tx.dirty = nil, nil
	return nil
}
