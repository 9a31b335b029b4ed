package recall

import "strings"

// What a question asks for besides its words. "What would I enjoy on
// Saturday?" shares a word or two with the evidence, and so do a dozen
// passages of small talk; the evidence is the one where the user says what
// they like. "When did I…" is answered by a passage that says when
// something happened ("this morning", "last week", "on 3 May"), its date
// shown beside it. A question with such an intent gives the passages of
// that kind a small prior (intentPrior) on top of their words' score: it
// orders passages that hold the question's words, and finds none by itself.

// intent is what a question asks for, a set of the flags below.
type intent uint8

const (
	askLiking intent = 1 << iota // what the user would like: recommend, suggest, enjoy
	askWhen                      // when, what day, how long ago
)

// intentPrior is what a passage of the kind a question asks for gains: less
// than one of the question's rarer words weighs (a passage holding one
// scores about 0.5), so that it reorders near ties and does not lift a
// passage the question's words do not find.
const intentPrior = 0.2

// lineWords calls fn with each sentence of text's lines as lowercase words
// (apostrophes kept, "’" as "'"), and with the index of the clause each
// word starts (at commas and semicolons the clause count goes on). Lines
// that are the assistant's in a chat's chunk are left out: what the user
// likes or did is in what the user said.
func lineWords(text string, fn func(words []string, clause []int, line string)) {
	var words []string
	var clause []int
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "Assistant: ") {
			continue
		}
		words, clause = words[:0], clause[:0]
		var w strings.Builder
		c := 0
		flush := func() {
			if w.Len() > 0 {
				words = append(words, w.String())
				clause = append(clause, c)
				w.Reset()
			}
		}
		end := func() {
			flush()
			if len(words) > 0 {
				fn(words, clause, line)
			}
			words, clause, c = words[:0], clause[:0], 0
		}
		for _, r := range line {
			switch {
			case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'':
				w.WriteRune(r)
			case r >= 'A' && r <= 'Z':
				w.WriteRune(r + 'a' - 'A')
			case r == '’':
				w.WriteByte('\'')
			case r == ',' || r == ';' || r == ':':
				flush()
				c++
			case r == '.' || r == '!' || r == '?' || r == '\n':
				end()
			default:
				flush()
			}
		}
		end()
	}
}

// wordSet is a set of words written one space apart.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var (
	firstPerson = wordSet("i i'm im i've i'd i'll me my mine myself we we're our us")
	// likingWords say the speaker likes or dislikes something; likingAfter
	// are the same when the word before is one of its own ("can't stand").
	likingWords = wordSet(`love loved loves adore adored enjoy enjoyed enjoys prefer preferred favourite favorite
		favourites favorites fave ideal perfect obsessed hooked hate hated loathe detest dislike fan fond keen
		passion addicted`)
	likingAfter = map[string]map[string]bool{"stand": wordSet("can't cant cannot"), "enough": wordSet("get"),
		"beats": wordSet("nothing"), "thing": wordSet("my"), "off": wordSet("gone"),
		"into": wordSet("i'm im really am we're"), "like": wordSet("i we i'd really just do")}
	// Asking for a liking: "recommend", "a gift"; or would/should … enjoy.
	askLikingWords = wordSet(`recommend recommends recommendation recommendations suggest suggestion suggestions
		favourite favorite favourites favorites prefer preference preferences gift gifts taste tastes`)
	askLikingVerbs = wordSet("like love enjoy want prefer fancy appreciate please suit adore")
	modals         = wordSet("would should might i'd we'd")
	// Time: words that date what is said; "this"/"last"/"next" before a
	// part of the day or a span.
	timeWords = wordSet(`today tonight yesterday tomorrow ago monday tuesday wednesday thursday friday saturday
		sunday january february april june july august september october november december`)
	timeSpans = wordSet("morning afternoon evening night week weekend month year summer winter spring autumn fall")
	askWhenOf = wordSet("day date year month week weekday time")
)

// Chinese cues, matched in the text as it is (Simplified and Traditional).
var (
	zhLiking    = []string{"我喜欢", "我喜歡", "我很喜欢", "我很喜歡", "我最喜欢", "我最喜歡", "我爱", "我愛", "最爱", "最愛", "我讨厌", "我討厭", "受不了", "我偏爱", "我偏愛", "我迷上"}
	zhAskLiking = []string{"推荐", "推薦", "建议", "建議", "喜欢", "喜歡", "适合我", "適合我", "偏好", "口味", "礼物", "禮物"}
	zhTime      = []string{"今天", "今晚", "昨天", "明天", "前天", "上周", "上週", "上个月", "上個月", "去年", "星期", "礼拜", "禮拜"}
	zhAskWhen   = []string{"什么时候", "什麼時候", "哪天", "哪一天", "几号", "幾號", "多久", "多长时间", "多長時間", "何时", "何時", "之前", "之后", "之後"}
)

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// intentOf is what question asks for.
func intentOf(question string) intent {
	var in intent
	if containsAny(question, zhAskLiking) {
		in |= askLiking
	}
	if containsAny(question, zhAskWhen) {
		in |= askWhen
	}
	lineWords(question, func(ws []string, _ []int, _ string) {
		modal, wh := -10, -10
		pair, past := false, false // before/after; did, was…: "did I … before …"
		for i, w := range ws {
			prev := ""
			if i > 0 {
				prev = ws[i-1]
			}
			switch {
			case askLikingWords[w], askLikingVerbs[w] && i-modal <= 3,
				w == "me" && (prev == "suit" || prev == "suits" || prev == "please" || prev == "cheer"),
				(w == "i" || w == "we") && prev == "should" && i >= 2 && (ws[0] == "what" || ws[0] == "which" || ws[0] == "where"):
				in |= askLiking
			case i == 0 && w == "when", w == "ago", askWhenOf[w] && i-wh <= 3,
				prev == "how" && w == "long", prev == "much" && w == "time",
				prev == "many" && timeSpans[strings.TrimSuffix(w, "s")]:
				in |= askWhen
			}
			switch {
			case modals[w]:
				modal = i
			case w == "what" || w == "which":
				wh = i
			case w == "before" || w == "after":
				pair = true
			case w == "did" || w == "was" || w == "were" || w == "had":
				past = true
			}
		}
		if pair && past {
			in |= askWhen
		}
	})
	return in
}

// prior is what a passage's text gains for a question of intent in.
func (in intent) prior(text string) float64 {
	if in == 0 {
		return 0
	}
	liking, when := in&askLiking == 0, in&askWhen == 0 // true: done
	if !liking && containsAny(text, zhLiking) {
		liking = true
	}
	if !when && containsAny(text, zhTime) {
		when = true
	}
	if !liking || !when {
		lineWords(text, func(ws []string, clause []int, _ string) {
			fp := false
			for _, w := range ws {
				if firstPerson[w] {
					fp = true
					break
				}
			}
			for i, w := range ws {
				prev := ""
				if i > 0 {
					prev = ws[i-1]
				}
				start := i // where the cue starts
				cue := likingWords[w]
				if likingAfter[w][prev] {
					cue, start = true, i-1
					if w == "enough" && i >= 2 && (ws[i-2] == "can't" || ws[i-2] == "cant" || ws[i-2] == "cannot") {
						start = i - 2
					}
				}
				// With no "I" in the sentence, only a cue that starts its
				// clause is the speaker's ("…, can't get enough"): "Sam
				// loves jazz" is not.
				if cue && (fp || start == 0 || clause[start] != clause[start-1]) {
					liking = true
				}
				if timeWords[w] || timeSpans[w] && (prev == "this" || prev == "last" || prev == "next") ||
					(w == "may" || w == "march") && prev != "" && prev[0] >= '0' && prev[0] <= '9' ||
					len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) && isDigits(w) {
					when = true
				}
			}
		})
	}
	p := 0.0
	if in&askLiking != 0 && liking {
		p += intentPrior
	}
	if in&askWhen != 0 && when {
		p += intentPrior
	}
	return p
}

func isDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
