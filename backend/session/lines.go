package session

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// MaxLineBytes bounds one line of a session file. Hearth never writes a longer one
// (Append refuses the record, see checkLines); a longer line found in a file is
// skipped with a warning and never held in memory whole, so a 200 MB line planted
// in a chat costs its reader no more than about twice this much.
const MaxLineBytes = 32 << 20

// chunkBytes is how much of a file is read at once. A chat smaller than this is
// read in one piece, as it was before lines were bounded.
const chunkBytes = 4 << 20

// readLines reads r in pieces made of whole lines, in file order: piece gets each
// run of complete lines (each ending in '\n'; at the end of the file the last one
// may lack it), long gets the size of each line over limit, which is skipped
// without being held, and whether its newline was found (not: the file's torn end). Every piece is a buffer of its own that is never written
// again, so the parser's strings may share it (see share). n is the number of
// bytes read, last the last of them. size is how much r holds as far as stat
// knows: a file smaller than a chunk is read into one buffer of its size.
func readLines(r io.Reader, size int64, limit int, piece func([]byte), long func(size int64, ended bool)) (n int64, last byte, err error) {
	return readLinesBy(r, size, chunkBytes, limit, piece, long)
}

// readLinesBy is readLines reading chunk bytes at once (the fuzz target's are small).
func readLinesBy(r io.Reader, size int64, chunk, limit int, piece func([]byte), long func(size int64, ended bool)) (n int64, last byte, err error) {
	var carry []byte // the start of a line the last piece cut
	for {
		if len(carry) > limit {
			size, rest, ended, k, b, err := skipLine(r)
			n += k
			if k > 0 {
				last = b
			}
			long(int64(len(carry))+size, ended)
			if err != nil {
				return n, last, err
			}
			// rest is a buffer of its own: the lines it ends go out as they are.
			carry = rest
			if end := bytes.LastIndexByte(rest, '\n'); end >= 0 {
				piece(rest[:end+1])
				carry = rest[end+1:]
			}
			continue
		}
		// What stat said is left, and a little more to see the end (the file may
		// have grown: then on in small reads, or chunks once a line grows).
		room := int(min(int64(chunk), max(size-n, 0)+512))
		if len(carry) > 0 {
			// A long line: grow geometrically, but never read more of one line
			// than it takes to know it is too long.
			room = min(max(chunk, len(carry)), limit+1-len(carry))
		}
		buf := make([]byte, len(carry), len(carry)+room)
		copy(buf, carry)
		m, rerr := io.ReadFull(r, buf[len(carry):cap(buf)])
		buf = buf[:len(carry)+m]
		n += int64(m)
		if m > 0 {
			last = buf[len(buf)-1]
		}
		eof := errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF)
		if rerr != nil && !eof {
			return n, last, rerr
		}
		end := bytes.LastIndexByte(buf, '\n')
		switch {
		case eof && end < 0 && len(buf) > limit:
			long(int64(len(buf)), false)
			return n, last, nil
		case eof:
			if len(buf) > 0 {
				piece(buf)
			}
			return n, last, nil
		case end >= 0:
			piece(buf[:end+1])
			carry = buf[end+1:]
		default:
			carry = buf
		}
	}
}

// skipLine reads r up to and including the end of the current line, through a
// small buffer. size is the line's bytes read (its newline not counted), rest what
// followed the newline in the last read, ended whether the newline came, k all bytes
// read and last the last one.
func skipLine(r io.Reader) (size int64, rest []byte, ended bool, k int64, last byte, err error) {
	buf := make([]byte, 64<<10)
	for {
		m, err := r.Read(buf)
		k += int64(m)
		if m > 0 {
			last = buf[m-1]
		}
		if i := bytes.IndexByte(buf[:m], '\n'); i >= 0 {
			return size + int64(i), bytes.Clone(buf[i+1 : m]), true, k, last, nil
		}
		size += int64(m)
		if errors.Is(err, io.EOF) {
			return size, nil, false, k, last, nil
		}
		if err != nil {
			return size, nil, false, k, last, err
		}
	}
}

// crcReader hashes what is read through it (the kept state's checksum, tail.go).
type crcReader struct {
	r   io.Reader
	sum uint32
}

func (c *crcReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.sum = crc32.Update(c.sum, crcTable(), p[:n])
	return n, err
}

// tooLong counts a line over the parser's bound as read and says it was skipped.
func (p *parser) tooLong(size int64) {
	p.lines++
	if !p.started {
		p.started = true
		p.warn(p.lines, "metadata line unreadable: metadata rebuilt from the file name")
	}
	p.warn(p.lines, "line of %s skipped: a line may hold at most %s (the rest of the chat is read; the line stays in the file)",
		mb(size), mb(int64(p.maxLine)))
}

// checkLines refuses lines Load would skip, so Hearth never writes a line its own
// reader refuses: buf holds encoded records, one a line.
func checkLines(buf []byte, limit int) error {
	for i := 0; len(buf) > 0; i++ {
		line, rest, _ := bytes.Cut(buf, []byte{'\n'})
		if len(line) > limit {
			return fmt.Errorf("%w: record %d takes %s, a session line holds at most %s (hint: shorten the message or the tool's output)",
				ErrLineTooLong, i, mb(int64(len(line))), mb(int64(limit)))
		}
		buf = rest
	}
	return nil
}

// ErrLineTooLong is what an Append of a record over MaxLineBytes fails with.
var ErrLineTooLong = errors.New("record too large for a session line")

func mb(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
