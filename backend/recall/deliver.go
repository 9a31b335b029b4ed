package recall

import (
	"slices"
	"strings"
)

// What a search hands over: whole chunks, best first, none twice; with a
// token budget, as many as fit, the last one cut to a passage around the
// query's words at sentence or line ends (a fixed-length snippet cut off the
// evidence as often as not).

// bytesPerToken is the budget's estimate: about 4 bytes a token for English
// text with the common tokenizers.
const bytesPerToken = 4

// minPassage is the least room worth a cut passage: less is a fragment.
const minPassage = 160

// hitOverhead is the bytes a hit's source line costs besides its text.
func hitOverhead(c Chunk) int { return len(c.Source) + len(c.Date) + 12 }

// deliver turns ranked chunks into hits for q, cut around terms (q's words
// and the words they bring), and counts those that qualified but did not
// fit (more). With a budget and no K, the budget alone bounds the hits.
func deliver(list []ranked, q Query, terms []string, in intent) (hits []Hit, more int) {
	k := q.K
	if k <= 0 {
		k = DefaultK
		if q.Tokens > 0 {
			k = len(list)
		}
	}
	room := q.Tokens * bytesPerToken
	var taken [][]string
	skipped, full, memo := 0, false, newStemMemo()
	for _, r := range list {
		if full && q.NoMore {
			break
		}
		if r.score < q.MinScore || q.Skip != nil && q.Skip(r.Source, r.Pos) {
			continue
		}
		var set []string
		if q.Distinct {
			if set = memo.termSet(unstamped(r.Text)); duplicate(set, taken) {
				continue
			}
		}
		if skipped < q.Offset {
			skipped++
			taken = append(taken, set)
			continue
		}
		if full || len(hits) == k {
			if full = true; q.NoMore {
				break
			}
			more++
			continue
		}
		text := strings.TrimSpace(r.Text)
		if q.PerHit > 0 && len(text) > q.PerHit {
			text = passage(text, terms, in, q.PerHit)
		}
		if q.Tokens > 0 {
			left := room - hitOverhead(r.Chunk)
			if left < minPassage {
				full = true
				more++
				continue
			}
			if len(text) > left {
				text = passage(text, terms, in, left)
			}
			room -= hitOverhead(r.Chunk) + len(text)
		}
		taken = append(taken, set)
		hits = append(hits, Hit{ID: r.ID, Source: r.Source, Title: r.Title, Date: r.Date, Snippet: text, Score: r.score, Mode: r.mode})
	}
	return hits, more
}

// unstamped is text without the "[YYYY-MM-DD HH:MM]" a HISTORY entry starts
// with: two entries of one day are not alike for their stamps.
func unstamped(text string) string {
	if _, ok := entryStamp(text); ok {
		return text[18:]
	}
	return text
}

// termSet is text's distinct terms, sorted: duplicate compares two by a
// merge (maps cost most of a block's search when it compared them).
func (m *stemMemo) termSet(text string) []string {
	ts := m.tokenize(text)
	slices.Sort(ts)
	return slices.Compact(ts)
}

// duplicate reports whether a chunk says what one taken already says: the
// same fact in HISTORY.md and a daily note, a chat and its summary. Nine
// tenths of the smaller one's words in common counts (four fifths dropped
// evidence: chat chunks share much small talk).
func duplicate(set []string, taken [][]string) bool {
	if len(set) == 0 {
		return false
	}
	for _, o := range taken {
		small := min(len(set), len(o))
		if small == 0 {
			continue
		}
		common := 0
		for i, j := 0, 0; i < len(set) && j < len(o); {
			switch {
			case set[i] == o[j]:
				common++
				i++
				j++
			case set[i] < o[j]:
				i++
			default:
				j++
			}
		}
		if common*10 >= small*9 {
			return true
		}
	}
	return false
}

// passage cuts text to at most maxBytes: the run of whole sentences or lines
// holding the most query terms (the first ones on a tie), marked with "…"
// where text was left out; a sentence of the kind the query asks for (in,
// intent.go) counts a term more. A single sentence longer than that is cut
// at words around its first term.
func passage(text string, terms []string, in intent, maxBytes int) string {
	if len(text) <= maxBytes {
		return text
	}
	units := sentences(text)
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	score := make([]int, len(units))
	for i, u := range units {
		for _, t := range uniq(tokenize(u)) {
			if want[t] {
				score[i]++
			}
		}
		if score[i] > 0 && in.asked(u) {
			score[i]++
		}
	}
	const ell = len("…") + 1
	bestLo, bestHi, best := 0, 0, -1
	for lo := range units {
		size, sum := 0, 0
		for hi := lo; hi < len(units); hi++ {
			size += len(units[hi]) + 1
			if size+2*ell > maxBytes {
				break
			}
			sum += score[hi]
			if sum > best || sum == best && hi-lo > bestHi-bestLo {
				bestLo, bestHi, best = lo, hi+1, sum
			}
		}
	}
	top := 0
	for i := range units {
		if score[i] > score[top] {
			top = i
		}
	}
	if best < 0 || best == 0 && score[top] > 0 {
		// No whole sentence with a query word fits: words around the first
		// term of the best sentence.
		return aroundTerm(units[top], want, maxBytes-2*ell, top > 0, top < len(units)-1)
	}
	out := strings.Join(units[bestLo:bestHi], " ")
	if bestLo > 0 {
		out = "… " + out
	}
	if bestHi < len(units) {
		out += " …"
	}
	return out
}

// sentences splits text at sentence ends and line breaks, keeping the marks.
func sentences(text string) []string {
	var out []string
	start := 0
	emit := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			emit(i + 1)
		case '.', '!', '?':
			if i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '\n') {
				emit(i + 1)
			}
		}
	}
	emit(len(text))
	return out
}

// aroundTerm cuts one long sentence to about maxBytes at word boundaries,
// starting a little before its first wanted term.
func aroundTerm(s string, want map[string]bool, maxBytes int, before, after bool) string {
	words := strings.Fields(s)
	first := 0
	for i, w := range words {
		if ts := tokenize(w); len(ts) > 0 && want[ts[0]] {
			first = i
			break
		}
	}
	lo := max(0, first-8)
	var b strings.Builder
	hi := lo
	for ; hi < len(words); hi++ {
		if b.Len()+len(words[hi])+1 > maxBytes {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[hi])
	}
	out := b.String()
	if lo > 0 || before {
		out = "… " + out
	}
	if hi < len(words) || after {
		out += " …"
	}
	return out
}
