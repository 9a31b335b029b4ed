package channels

import (
	"crypto/rand"
	"crypto/subtle"
	"math/big"
	"strings"
	"time"
)

// A pairing window: PairingCode opens it with a short code shown in Hearth; the
// first person to send that code is paired and the window closes (single use).
// Wrong codes are counted and close it early, so guessing is hopeless: five
// tries at a million codes.
type pairing struct {
	code    string
	expires time.Time
	wrong   int
}

const (
	pairWindow = 10 * time.Minute
	pairDigits = 6
	maxWrong   = 5
)

func (p *pairing) open(now time.Time) (string, error) {
	var b strings.Builder
	for range pairDigits {
		n, err := rand.Int(rand.Reader, big.NewInt(10))
		if err != nil {
			return "", userErr(err, "channels.err.random")
		}
		b.WriteByte(byte('0' + n.Int64()))
	}
	p.code, p.expires, p.wrong = b.String(), now.Add(pairWindow), 0
	return p.code, nil
}

func (p *pairing) current(now time.Time) (string, time.Time, bool) {
	if p.code == "" || !now.Before(p.expires) {
		return "", time.Time{}, false
	}
	return p.code, p.expires, true
}

func (p *pairing) close() { *p = pairing{} }

// try checks a code sent to the bot. ok: it matched (the window closes: a code
// works once). closed: this wrong code used the last try.
func (p *pairing) try(now time.Time, got string) (ok, closed bool) {
	code, _, open := p.current(now)
	if !open {
		return false, false
	}
	if len(got) == len(code) && subtle.ConstantTimeCompare([]byte(got), []byte(code)) == 1 {
		p.close()
		return true, false
	}
	p.wrong++
	if p.wrong >= maxWrong {
		p.close()
		return false, true
	}
	return false, false
}

// pairText reads what a stranger sent: a code ("/start 123456", "/pair 123456"
// or the six digits alone; spaces inside are forgiven), or a bare /start
// (asking to be paired).
func pairText(text string) (code string, attempt, start bool) {
	t := strings.TrimSpace(text)
	cmd, arg := "", t
	if strings.HasPrefix(t, "/") {
		var rest string
		cmd, rest, _ = strings.Cut(t[1:], " ")
		cmd, _, _ = strings.Cut(strings.ToLower(cmd), "@") // "/start@hearth_bot"
		arg = strings.TrimSpace(rest)
		if cmd != "start" && cmd != "pair" {
			return "", false, false
		}
		if arg == "" {
			return "", false, cmd == "start"
		}
	}
	digits := strings.Join(strings.Fields(arg), "")
	if cmd == "" && (len(digits) != pairDigits || !allDigits(digits)) {
		return "", false, false // a plain message, not a code
	}
	if len(digits) > 64 {
		digits = digits[:64]
	}
	return digits, true, cmd == "start"
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// dedup remembers the last update ids handled: an update delivered twice (a
// network drop and resume) is answered once.
type dedup struct {
	ids  map[int64]bool
	ring []int64
	next int
}

const dedupSize = 1024

// first reports whether id is new, and remembers it.
func (d *dedup) first(id int64) bool {
	if d.ids == nil {
		d.ids, d.ring = map[int64]bool{}, make([]int64, 0, dedupSize)
	}
	if d.ids[id] {
		return false
	}
	if len(d.ring) < dedupSize {
		d.ring = append(d.ring, id)
	} else {
		delete(d.ids, d.ring[d.next])
		d.ring[d.next] = id
		d.next = (d.next + 1) % dedupSize
	}
	d.ids[id] = true
	return true
}
