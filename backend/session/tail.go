package session

import (
	"bytes"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"hearth/backend/internal/flock"
	"hearth/backend/internal/safefile"
)

// A session file is read whole once; after that the store keeps its parsed
// state (a tail) and brings it up to date instead of parsing the file again:
// a turn loads its session several times (the run, memory consolidation, the
// window), and a long chat took longer to parse each time than the turn's own
// work. The state is checked against the file on every Load, under the file's
// lock:
//
//   - same file (device and inode), same size and modification time: nothing
//     changed, nothing is read;
//   - our own Append: the store saw the file before and after its write under
//     the exclusive lock, so it keeps the new bytes and parses them on the next
//     Load;
//   - the same file grown by another writer (the CLI while the window is open):
//     the file is read, and when its first bytes still hash to what was parsed,
//     only what was added is parsed;
//   - anything else (a rewrite by an editor, a trim, a file replaced): parsed
//     whole, as before.
//
// A file that does not end in a newline (a torn write) is never kept: it is
// parsed whole until an append mends it.

// maxTails is how many sessions' states the store keeps: the chat in the
// window, a CLI chat, the heartbeat and a reminder's session at most at once.
const maxTails = 4

// maxTailBytes is the largest file whose state is kept (about 8 000 turns);
// a larger one is read whole each time, as it was before.
const maxTailBytes = 32 << 20

// crcTable is made at the first use, not when the program starts: most
// commands never load a session.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// fileKey identifies a file's content as far as stat can tell.
type fileKey struct {
	dev, ino uint64
	size     int64
	mtime    int64
}

func keyOf(fi os.FileInfo) fileKey {
	k := fileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.dev, k.ino = uint64(st.Dev), st.Ino
	}
	return k
}

func (k fileKey) sameFile(o fileKey) bool { return k.dev == o.dev && k.ino == o.ino && k.ino != 0 }

// tail is the kept state of one session file.
type tail struct {
	key     fileKey // the file as of the bytes parsed and pending
	sum     uint32  // CRC-32C of those bytes
	p       *parser
	pending []byte // appended by this store, not parsed yet
	used    uint64 // for least-recently-used eviction
}

// load reads session id from path through the kept state.
func (s *Store) load(id, path string) (*Session, error) {
	var out *Session
	err := s.withState(id, path, func(p *parser, modTime time.Time) { out = p.snapshot(modTime) })
	return out, err
}

// withState brings the kept state of path up to date and calls fn with it,
// holding the store's lock of the kept states.
func (s *Store) withState(id, path string, fn func(p *parser, modTime time.Time)) error {
	f, _, err := safefile.Open(path, MaxFileBytes)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := flock.Lock(f, false); err != nil {
		return err
	}
	defer func() { _ = flock.Unlock(f) }()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	key := keyOf(fi)

	s.tmu.Lock()
	defer s.tmu.Unlock()
	t := s.tails[path]
	if t != nil && t.key == key {
		fn(s.use(t), fi.ModTime())
		return nil
	}
	// The file may have grown since the stat: it is read on to its end, but
	// never past MaxFileBytes.
	r := &crcReader{r: io.LimitReader(f, MaxFileBytes)}
	if t != nil && t.key.sameFile(key) && t.key.size < key.size {
		if _, err := io.CopyN(io.Discard, r, t.key.size); err == nil && r.sum == t.sum {
			// Grown by another writer: parse what was added.
			s.feedPending(t)
			n, last, err := s.read(t.p, r, key.size-t.key.size)
			if err != nil {
				delete(s.tails, path)
				return err
			}
			key.size = t.key.size + n
			t.key, t.sum = key, r.sum
			fn(s.keep(path, t, last), fi.ModTime())
			return nil
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r = &crcReader{r: io.LimitReader(f, MaxFileBytes)}
	}
	t = &tail{p: newParser(id)}
	n, last, err := s.read(t.p, r, key.size)
	if err != nil {
		return err
	}
	key.size = n
	t.key, t.sum = key, r.sum
	fn(s.keep(path, t, last), fi.ModTime())
	return nil
}

// read parses the lines of r into p, piece by piece (lines.go).
// size is what stat says r holds.
func (s *Store) read(p *parser, r io.Reader, size int64) (n int64, last byte, err error) {
	return readLines(r, size, p.maxLine, func(b []byte) { s.feed(p, b) }, func(size int64, _ bool) {
		s.parsed += size
		p.tooLong(size)
	})
}

// use marks t used now and parses its pending bytes.
func (s *Store) use(t *tail) *parser {
	s.tick++
	t.used = s.tick
	s.feedPending(t)
	return t.p
}

func (s *Store) feedPending(t *tail) {
	if len(t.pending) > 0 {
		s.feed(t.p, t.pending)
		t.pending = nil
	}
}

// feed parses data into p and counts it (tests check what was parsed).
func (s *Store) feed(p *parser, data []byte) {
	s.parsed += int64(len(data))
	p.feed(data)
}

// keep stores t for path when the file it parsed can be kept (see the top of
// this file) and returns its parser either way; last is the file's last byte.
func (s *Store) keep(path string, t *tail, last byte) *parser {
	if t.key.size > 0 && last != '\n' || t.key.size > maxTailBytes {
		delete(s.tails, path)
		return t.p
	}
	if _, ok := s.tails[path]; !ok && len(s.tails) >= maxTails {
		var oldest string
		for p, x := range s.tails {
			if oldest == "" || x.used < s.tails[oldest].used {
				oldest = p
			}
		}
		delete(s.tails, oldest)
	}
	s.tails[path] = t
	return s.use(t)
}

// appended tells the kept state of path that this store wrote data at the end
// of the file, which was before as stat said and is after as stat says. The
// caller holds the file's exclusive lock, so nobody else wrote in between.
func (s *Store) appended(path string, before, after os.FileInfo, data []byte) {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	t := s.tails[path]
	if t == nil {
		return
	}
	if t.key != keyOf(before) || keyOf(after).size != t.key.size+int64(len(data)) ||
		!bytes.HasSuffix(data, []byte{'\n'}) || t.key.size+int64(len(data)) > maxTailBytes {
		delete(s.tails, path)
		return
	}
	t.pending = append(t.pending, data...)
	t.key, t.sum = keyOf(after), crc32.Update(t.sum, crcTable(), data)
}

// forget drops the kept state of path (the file was replaced or removed).
func (s *Store) forget(path string) {
	s.tmu.Lock()
	delete(s.tails, path)
	s.tmu.Unlock()
}
