package memory

import (
	"encoding/binary"
	"errors"
	"math"
)

// The log's record payload is a small hand-written binary format: gob
// compiles its type description again for every framed record, which made
// opening a 10k-chunk index take a second.

func putString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func encodeRecord(b []byte, r record) []byte {
	b = append(b, byte(r.Op))
	switch r.Op {
	case opHeader:
		b = binary.AppendUvarint(b, uint64(r.Header.Version))
		b = putString(b, r.Header.Model)
	case opPut:
		c := r.Chunk
		for _, s := range []string{c.ID, c.Source, c.Title, c.Date, c.Text} {
			b = putString(b, s)
		}
		b = binary.AppendUvarint(b, uint64(len(c.Vec)))
		for _, f := range c.Vec {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	case opDel:
		b = putString(b, r.ID)
	case opFile:
		b = putString(b, r.Source)
		b = binary.AppendVarint(b, r.State.Size)
		b = binary.AppendVarint(b, r.State.ModNano)
		b = putString(b, r.State.Hash)
		b = binary.AppendUvarint(b, uint64(r.State.N))
	case opDropFile:
		b = putString(b, r.Source)
	}
	return b
}

var errBadRecord = errors.New("bad index record")

type reader struct {
	b   []byte
	err error
}

func (d *reader) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errBadRecord
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *reader) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errBadRecord
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *reader) str() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errBadRecord
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func decodeRecord(b []byte) (record, error) {
	if len(b) == 0 {
		return record{}, errBadRecord
	}
	r := record{Op: recOp(b[0])}
	d := &reader{b: b[1:]}
	switch r.Op {
	case opHeader:
		r.Header = &header{Version: int(d.uvarint()), Model: d.str()}
	case opPut:
		c := &Chunk{ID: d.str(), Source: d.str(), Title: d.str(), Date: d.str(), Text: d.str()}
		n := d.uvarint()
		if d.err == nil && n*4 > uint64(len(d.b)) {
			d.err = errBadRecord
		}
		if d.err == nil && n > 0 {
			c.Vec = make([]float32, n)
			for i := range c.Vec {
				c.Vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.b[4*i:]))
			}
			d.b = d.b[4*n:]
		}
		r.Chunk = c
	case opDel:
		r.ID = d.str()
	case opFile:
		r.Source = d.str()
		r.State = &fileState{Size: d.varint(), ModNano: d.varint(), Hash: d.str(), N: int(d.uvarint())}
	case opDropFile:
		r.Source = d.str()
	default:
		return r, errBadRecord
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errBadRecord
	}
	return r, d.err
}
