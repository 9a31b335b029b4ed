package recall

// stem is the Porter stemmer (the original algorithm, steps 1a–5b) for
// lowercase ASCII words: "fillings", "filled" and "filling" share "fill",
// "recommendation" and "recommended" share "recommend", so a question worded
// differently from the note still meets it. Words with other letters, and
// words of up to two letters, are kept as they are. It allocates only the
// result.
func stem(w string) string {
	if len(w) <= 2 || len(w) > 40 {
		return w
	}
	var buf [40]byte
	b := buf[:0]
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < 'a' || c > 'z' {
			if c >= '0' && c <= '9' {
				return w
			}
			return w
		}
		b = append(b, c)
	}
	s := porter{b: b}
	s.step1ab()
	if len(s.b) > 2 {
		s.step1c()
		s.step2()
		s.step3()
		s.step4()
		s.step5()
	}
	if string(s.b) == w {
		return w
	}
	return string(s.b)
}

type porter struct {
	b []byte
	j int // end of the stem being tested (exclusive), set by ends
}

// cons reports whether b[i] is a consonant.
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !p.cons(i-1)
	}
	return true
}

// m counts the vowel-consonant sequences in b[:j].
func (p *porter) m() int {
	n, i := 0, 0
	j := p.j
	for i < j && p.cons(i) {
		i++
	}
	for i < j {
		for i < j && !p.cons(i) {
			i++
		}
		if i >= j {
			break
		}
		for i < j && p.cons(i) {
			i++
		}
		n++
	}
	return n
}

// vowelInStem reports whether b[:j] holds a vowel.
func (p *porter) vowelInStem() bool {
	for i := 0; i < p.j; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

// doubleC reports whether b[i-1:i+1] is a double consonant.
func (p *porter) doubleC(i int) bool {
	return i >= 1 && p.b[i] == p.b[i-1] && p.cons(i)
}

// cvc reports whether b[i-2:i+1] is consonant-vowel-consonant, the last not
// w, x or y ("hop", not "snow").
func (p *porter) cvc(i int) bool {
	if i < 2 || !p.cons(i) || p.cons(i-1) || !p.cons(i-2) {
		return false
	}
	c := p.b[i]
	return c != 'w' && c != 'x' && c != 'y'
}

// ends reports whether b ends with s, setting j to where s starts.
func (p *porter) ends(s string) bool {
	n := len(s)
	if n > len(p.b) || string(p.b[len(p.b)-n:]) != s {
		return false
	}
	p.j = len(p.b) - n
	return true
}

// setTo replaces b[j:] with s.
func (p *porter) setTo(s string) { p.b = append(p.b[:p.j], s...) }

// r replaces the suffix with s when the stem has m > 0.
func (p *porter) r(s string) {
	if p.m() > 0 {
		p.setTo(s)
	}
}

func (p *porter) step1ab() {
	if p.b[len(p.b)-1] == 's' {
		switch {
		case p.ends("sses"):
			p.b = p.b[:len(p.b)-2]
		case p.ends("ies"):
			p.setTo("i")
		case len(p.b) > 1 && p.b[len(p.b)-2] != 's':
			p.b = p.b[:len(p.b)-1]
		}
	}
	if p.ends("eed") {
		if p.m() > 0 {
			p.b = p.b[:len(p.b)-1]
		}
		return
	}
	if (p.ends("ed") || p.ends("ing")) && p.vowelInStem() {
		p.b = p.b[:p.j]
		p.j = len(p.b)
		switch {
		case p.ends("at"), p.ends("bl"), p.ends("iz"):
			p.b = append(p.b, 'e')
		case p.doubleC(len(p.b) - 1):
			if c := p.b[len(p.b)-1]; c != 'l' && c != 's' && c != 'z' {
				p.b = p.b[:len(p.b)-1]
			}
		default:
			p.j = len(p.b)
			if p.m() == 1 && p.cvc(len(p.b)-1) {
				p.b = append(p.b, 'e')
			}
		}
	}
}

func (p *porter) step1c() {
	if p.ends("y") && p.vowelInStem() {
		p.b[len(p.b)-1] = 'i'
	}
}

// step2 maps double suffixes to single ones ("-ization" to "-ize").
func (p *porter) step2() {
	if len(p.b) < 3 {
		return
	}
	for _, s := range step2Suffixes[p.b[len(p.b)-2]] {
		if p.ends(s[0]) {
			p.r(s[1])
			return
		}
	}
}

var step2Suffixes = map[byte][][2]string{
	'a': {{"ational", "ate"}, {"tional", "tion"}},
	'c': {{"enci", "ence"}, {"anci", "ance"}},
	'e': {{"izer", "ize"}},
	'l': {{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}},
	'o': {{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}},
	's': {{"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}},
	't': {{"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}},
	'g': {{"logi", "log"}},
}

func (p *porter) step3() {
	for _, s := range step3Suffixes[p.b[len(p.b)-1]] {
		if p.ends(s[0]) {
			p.r(s[1])
			return
		}
	}
}

var step3Suffixes = map[byte][][2]string{
	'e': {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}},
	'i': {{"iciti", "ic"}},
	'l': {{"ical", "ic"}, {"ful", ""}},
	's': {{"ness", ""}},
}

// step4 takes off -ant, -ence, … when the stem has m > 1.
func (p *porter) step4() {
	if len(p.b) < 2 {
		return
	}
	found := false
	for _, s := range step4Suffixes[p.b[len(p.b)-2]] {
		if p.ends(s) {
			found = true
			if s == "ion" && (p.j == 0 || p.b[p.j-1] != 's' && p.b[p.j-1] != 't') {
				found = false
			}
			break
		}
	}
	if found && p.m() > 1 {
		p.b = p.b[:p.j]
	}
}

var step4Suffixes = map[byte][]string{
	'a': {"al"}, 'c': {"ance", "ence"}, 'e': {"er"}, 'i': {"ic"}, 'l': {"able", "ible"},
	'n': {"ant", "ement", "ment", "ent"}, 'o': {"ion", "ou"}, 's': {"ism"}, 't': {"ate", "iti"},
	'u': {"ous"}, 'v': {"ive"}, 'z': {"ize"},
}

func (p *porter) step5() {
	p.j = len(p.b)
	if p.b[len(p.b)-1] == 'e' {
		p.j = len(p.b) - 1
		if a := p.m(); a > 1 || a == 1 && !p.cvc(len(p.b)-2) {
			p.b = p.b[:len(p.b)-1]
		}
	}
	p.j = len(p.b)
	if p.b[len(p.b)-1] == 'l' && p.doubleC(len(p.b)-1) && p.m() > 1 {
		p.b = p.b[:len(p.b)-1]
	}
}
