package recall

import (
	"slices"
	"strings"
	"unicode/utf8"
)

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

// lineWords calls fn with each sentence of text as lowercase words
// (apostrophes kept, "’" as "'"), the index of the clause each word is in
// (commas, semicolons and colons part clauses), and the sentence, lowercase.
// Lines that are the assistant's in a chat's chunk are left out: what the
// user likes or did is in what the user said. The words are slices of one
// lowercase copy: the prior reads every candidate of a search.
func lineWords(text string, fn func(words []string, clause []int, sentence string)) {
	low := strings.ToLower(text)
	if strings.Contains(low, "’") {
		low = strings.ReplaceAll(low, "’", "'")
	}
	var words []string
	var clause []int
	for line := range strings.Lines(low) {
		if strings.HasPrefix(line, "assistant: ") {
			continue
		}
		c, from, start := 0, 0, -1 // clause; sentence start; word start
		flush := func(i int) {
			if start >= 0 {
				words = append(words, line[start:i])
				clause = append(clause, c)
				start = -1
			}
		}
		end := func(i, to int) {
			flush(i)
			if s := strings.TrimSpace(line[from:to]); s != "" {
				fn(words, clause, s)
			}
			words, clause, c, from = words[:0], clause[:0], 0, to
		}
		for i := 0; i < len(line); {
			ch, size := rune(line[i]), 1
			if ch >= utf8.RuneSelf {
				ch, size = utf8.DecodeRuneInString(line[i:])
			}
			switch {
			case ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '\'',
				// A hyphen between letters joins one word ("my go-to",
				// "must-have"), as the phrases below are written; before,
				// it parted them, and no hyphenated phrase ever matched.
				ch == '-' && start >= 0 && i+1 < len(line) && line[i+1] >= 'a' && line[i+1] <= 'z':
				if start < 0 {
					start = i
				}
			case ch == ',' || ch == ';' || ch == ':' || ch == '，' || ch == '；':
				flush(i)
				c++
			case ch == '.' || ch == '!' || ch == '?' || ch == '。' || ch == '！' || ch == '？':
				end(i, i+size)
			default:
				flush(i)
			}
			i += size
		}
		end(len(line), len(line))
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
		passion addicted dote doted dotes`)
	likingAfter = map[string]map[string]bool{"stand": wordSet("can't cant cannot"), "enough": wordSet("get"),
		"beats": wordSet("nothing"), "thing": wordSet("my"), "off": wordSet("gone"),
		"into": wordSet("i'm im really am we're"), "like": wordSet("i we i'd really just do")}
	// Asking for a liking: "recommend", "a gift"; or would/should … enjoy.
	askLikingWords = wordSet(`recommend recommends recommendation recommendations suggest suggestion suggestions
		favourite favorite favourites favorites prefer preference preferences gift gifts taste tastes present presents
		treat appeal appeals`)
	askLikingVerbs = wordSet("like love enjoy want prefer fancy appreciate please suit adore")
	modals         = wordSet("would should might could i'd we'd")
	// Time: words that date what is said; "this"/"last"/"next" before a
	// part of the day or a span.
	timeWords = wordSet(`today tonight yesterday tomorrow ago earlier recently lately noon midday midnight overnight monday tuesday wednesday thursday friday saturday
		sunday january february april june july august september october november december`)
	timeSpans = wordSet("morning afternoon evening night week weekend month year summer winter spring autumn fall")
	askWhenOf = wordSet("day date year month week weekday time")
	// whenAfter: "when" before one of these asks when, wherever it is
	// ("remind me when I had…", "and when was…").
	whenAfter = wordSet("did was were had i we is do have")
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
		me := false                // the user is in it: I, me, my
		for i, w := range ws {
			me = me || w == "i" || w == "me" || w == "my" || w == "i'd"
			prev := ""
			if i > 0 {
				prev = ws[i-1]
			}
			switch {
			case askLikingWords[w], askLikingVerbs[w] && i-modal <= 3,
				w == "me" && (prev == "suit" || prev == "suits" || prev == "please" || prev == "cheer"),
				(w == "i" || w == "we") && prev == "should" && i >= 2 && (ws[0] == "what" || ws[0] == "which" || ws[0] == "where"):
				in |= askLiking
			case askLikingVerbs[w] && (prev == "i" || prev == "we") && i >= 2 && (ws[i-2] == "do" || ws[i-2] == "would"):
				in |= askLiking // "what sort of tea do I like?"
			case i == 0 && w == "when", w == "ago", askWhenOf[w] && i-wh <= 3,
				prev == "when" && whenAfter[w], prev == "since" && w == "when",
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
		// "What should a host brew for me?", "Which show would I get the
		// most out of?": asking what would do for the user, in any words.
		if len(ws) > 0 && (ws[0] == "what" || ws[0] == "which" || ws[0] == "where") && modal >= 0 && me {
			in |= askLiking
		}
	})
	return in
}

// prior is what a passage's text gains for a question of intent in: a
// sentence of the user's that says what they like, or when, and holds a
// word of the question (has: the question's words and those they bring).
// Another sentence of the same chunk does not count: a day's history entry
// says when something happened and what someone likes in most of its
// sentences.
func (in intent) prior(text string, memo *stemMemo, has func(term string) bool) float64 {
	if in == 0 {
		return 0
	}
	liking, when := in&askLiking == 0, in&askWhen == 0 // true: nothing more to find
	lineWords(text, func(ws []string, clause []int, sentence string) {
		if liking && when {
			return
		}
		l := !liking && askLiking.kind(ws, clause, sentence)
		t := !when && askWhen.kind(ws, clause, sentence)
		if (l || t) && holdsTerm(sentence, memo, has) {
			liking, when = liking || l, when || t
		}
	})
	p := 0.0
	if in&askLiking != 0 && liking {
		p += intentPrior
	}
	if in&askWhen != 0 && when {
		p += intentPrior
	}
	return p
}

// holdsTerm reports whether sentence holds a term has knows.
func holdsTerm(sentence string, memo *stemMemo, has func(string) bool) bool {
	found := false
	memo.eachTerm(sentence, func(t string) { found = found || has(t) })
	return found
}

// likes reports whether a sentence (its words and their clauses) says what
// the speaker likes or dislikes.
func likes(ws []string, clause []int) bool {
	fp := false
	for _, w := range ws {
		if firstPerson[w] {
			fp = true
			break
		}
	}
	for i, w := range ws {
		start := i // where the cue starts
		cue := likingWords[w]
		if i > 0 && likingAfter[w][ws[i-1]] {
			cue, start = true, i-1
			if w == "enough" && i >= 2 && (ws[i-2] == "can't" || ws[i-2] == "cant" || ws[i-2] == "cannot") {
				start = i - 2
			}
		}
		if !cue {
			cue = phraseAt(ws, i)
		}
		// With no "I" in the sentence, only a cue that starts its clause
		// is the speaker's ("…, can't get enough"): "Sam loves jazz" is not.
		if cue && (fp || start == 0 || clause[start] != clause[start-1]) {
			return true
		}
	}
	return false
}

// likingPhrases are the ways of saying one likes something that no single
// word of likingWords says ("I'm a sucker for", "give me … any day"),
// as words; each counts where it starts. The word marked "*" is the one
// a chunk must hold to be read for them when indexed (liked.go): the
// likeliest to be rare.
var likingPhrases, likingPhraseCues = func() ([][]string, []string) {
	var out [][]string
	var cues []string
	for _, p := range strings.Split(`idea of *bliss|*sucker for|my *thing|my *jam|my *go-to|*go-to|nothing *beats|
		*nothing like|*relaxes me|can't *resist|cant *resist|can't *stop|cant *stop|*weakness for|guilty *pleasure|
		*mad about|*crazy about|happy *place|can't live *without|couldn't live *without|could *live on|could *eat|
		could *listen|could *watch|could *read|any *day|every *time|never *fails|never gets *old|*treat myself|
		i'd *rather|i'd always *choose|best *start|all day *long|my *comfort|soft *spot|
		up my *street|up my *alley|*cup of tea|*swear by|*partial to|never say *no to|i'm all *about|
		makes me *happy|brings me *joy|my *weakness|can't *beat|cant *beat|*heaven|can't get *enough|
		*must-have`, "|") {
		ws := strings.Fields(p)
		for i, w := range ws {
			if strings.HasPrefix(w, "*") {
				ws[i] = w[1:]
				cues = append(cues, ws[i])
			}
		}
		out = append(out, ws)
	}
	return out, cues
}()

// phraseAt reports whether one of likingPhrases starts at ws[i].
func phraseAt(ws []string, i int) bool {
	for _, p := range likingPhrases {
		if p[0] == ws[i] && i+len(p) <= len(ws) && slices.Equal(ws[i:i+len(p)], p) {
			return true
		}
	}
	return false
}

// saysWhen reports whether a sentence's words date what it says: "today",
// "last week", "3 May", "2024".
func saysWhen(ws []string) bool {
	for i, w := range ws {
		prev := ""
		if i > 0 {
			prev = ws[i-1]
		}
		if timeWords[w] || timeSpans[w] && (prev == "this" || prev == "last" || prev == "next") ||
			(w == "may" || w == "march") && prev != "" && prev[0] >= '0' && prev[0] <= '9' ||
			len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) && isDigits(w) {
			return true
		}
	}
	return false
}

// asked reports whether sentence is of the kind in asks for (any of its
// sentences, when it holds several).
func (in intent) asked(sentence string) bool {
	found := false
	if in != 0 {
		lineWords(sentence, func(ws []string, clause []int, s string) { found = found || in.kind(ws, clause, s) })
	}
	return found
}

// kind reports whether a sentence (its words, their clauses, its text) is
// of a kind in asks for.
func (in intent) kind(ws []string, clause []int, sentence string) bool {
	return in&askLiking != 0 && (containsAny(sentence, zhLiking) || likes(ws, clause)) ||
		in&askWhen != 0 && (containsAny(sentence, zhTime) || saysWhen(ws))
}

func isDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
