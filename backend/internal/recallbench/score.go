package recallbench

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// DateOf is the date a passage of session s is shown with: the day it
// started, in local time (as the index dates chats, history entries and
// daily notes written in local time).
func DateOf(s Session) string { return s.Start.Local().Format(time.DateOnly) }

// itemStart is where one passage of a recall block ("- (source, date) …")
// or of a memory_search result ("3. source [date] …") begins.
var itemStart = regexp.MustCompile(`(?m)^(- \(|\d+\. )`)

// Items cuts what the model received into its passages (the whole text
// when it has none).
func Items(text string) []string {
	locs := itemStart.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return []string{text}
	}
	var out []string
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out = append(out, text[l[0]:end])
	}
	return out
}

// Found is the share of q's evidence that text (a block or a tool result
// as the model received it) holds: a piece counts when its key is there,
// and, for a temporal question, the passage's date in the same passage.
func Found(u User, q Question, text string) float64 {
	if len(q.Evidence) == 0 {
		return 0
	}
	items := Items(text)
	n := 0
	for _, e := range q.Evidence {
		for _, it := range items {
			if strings.Contains(it, e.Key) && (!e.NeedDate || strings.Contains(it, DateOf(u.Sessions[e.Session]))) {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(q.Evidence))
}

// Tally collects one path's results.
type Tally struct {
	Path  string
	hit   map[Category]float64
	n     map[Category]int
	size  []int // characters received per question
	lat   []time.Duration
	given int // questions that got anything (a block at all)
}

// NewTally starts the tally of a path.
func NewTally(path string) *Tally {
	return &Tally{Path: path, hit: map[Category]float64{}, n: map[Category]int{}}
}

// Add records one question: the share of its evidence found, the size of
// what the model received, and how long the path took.
func (t *Tally) Add(c Category, found float64, received string, took time.Duration) {
	t.hit[c] += found
	t.n[c]++
	t.size = append(t.size, len(received))
	t.lat = append(t.lat, took)
	if received != "" {
		t.given++
	}
}

// Rate is the hit rate of category c ("" for all).
func (t *Tally) Rate(c Category) float64 {
	h, n := 0.0, 0
	for cc, v := range t.hit {
		if c == "" || c == cc {
			h, n = h+v, n+t.n[cc]
		}
	}
	if n == 0 {
		return 0
	}
	return h / float64(n)
}

// Count is the number of questions recorded.
func (t *Tally) Count() int { return len(t.size) }

// Given is the share of questions that received anything.
func (t *Tally) Given() float64 {
	if len(t.size) == 0 {
		return 0
	}
	return float64(t.given) / float64(len(t.size))
}

// Tokens is the mean size of what the model received, in tokens (4
// characters each), over the questions that received anything.
func (t *Tally) Tokens() float64 {
	sum, n := 0, 0
	for _, s := range t.size {
		if s > 0 {
			sum, n = sum+s, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return float64(sum) / 4 / float64(n)
}

// Latency is the p-th percentile (0–100) of the path's time.
func (t *Tally) Latency(p int) time.Duration {
	if len(t.lat) == 0 {
		return 0
	}
	l := slices.Clone(t.lat)
	slices.Sort(l)
	return l[min(len(l)-1, (len(l)*p)/100)]
}

// Table renders the tallies: hit rate per category and overall, share
// given, tokens and latency.
func Table(ts []*Tally) string {
	var b strings.Builder
	w := 22
	for _, t := range ts {
		w = max(w, len(t.Path))
	}
	fmt.Fprintf(&b, "%-*s %5s", w, "path", "n")
	for _, c := range Categories {
		fmt.Fprintf(&b, " %11s", c)
	}
	fmt.Fprintf(&b, " %8s %6s %7s %8s %8s\n", "overall", "given", "tokens", "p50", "p95")
	for _, t := range ts {
		fmt.Fprintf(&b, "%-*s %5d", w, t.Path, t.Count())
		for _, c := range Categories {
			fmt.Fprintf(&b, " %11.3f", t.Rate(c))
		}
		fmt.Fprintf(&b, " %8.3f %6.2f %7.0f %8s %8s\n", t.Rate(""), t.Given(), t.Tokens(),
			t.Latency(50).Round(10*time.Microsecond), t.Latency(95).Round(10*time.Microsecond))
	}
	return b.String()
}

// MeanOverlap is the mean share of a question's content words its evidence
// holds (Overlap), over qs.
func MeanOverlap(qs []Question) float64 {
	if len(qs) == 0 {
		return 0
	}
	sum := 0.0
	for _, q := range qs {
		var lines []string
		for _, e := range q.Evidence {
			lines = append(lines, e.Line)
		}
		sum += Overlap(q.Text, lines)
	}
	return sum / float64(len(qs))
}
