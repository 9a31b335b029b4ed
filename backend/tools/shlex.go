package tools

import (
	"regexp"
	"strings"
)

// lexShell splits a command line into simple commands the way sh would for the
// purpose of the exec guard: quotes and backslashes are honoured, ; & && | ||
// newlines, ( ) { } and the insides of $( ) and backticks start new commands,
// and redirection targets (> >> &> >| with an optional fd) are collected as
// files written. Expansions are left as written.
func lexShell(s string) []segment {
	var (
		segs    []segment
		cur     segment
		word    strings.Builder
		inWord  bool
		pending bool // the next word is a redirect target
		dropNxt bool // the next word is an input redirect source (ignored)
	)
	endWord := func() {
		if !inWord {
			return
		}
		w := word.String()
		word.Reset()
		inWord = false
		switch {
		case pending:
			cur.writes = append(cur.writes, w)
			pending = false
		case dropNxt:
			dropNxt = false
		default:
			cur.words = append(cur.words, w)
		}
	}
	endSeg := func() {
		endWord()
		pending, dropNxt = false, false
		if len(cur.words) > 0 || len(cur.writes) > 0 {
			segs = append(segs, cur)
		}
		cur = segment{}
	}
	r := []rune(s)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '\\' && i+1 < len(r):
			i++
			if r[i] != '\n' {
				word.WriteRune(r[i])
				inWord = true
			}
		case c == '\'':
			inWord = true
			for i++; i < len(r) && r[i] != '\''; i++ {
				word.WriteRune(r[i])
			}
		case c == '"':
			inWord = true
			for i++; i < len(r) && r[i] != '"'; i++ {
				if r[i] == '\\' && i+1 < len(r) && strings.ContainsRune("\"\\$`", r[i+1]) {
					i++
				}
				word.WriteRune(r[i])
			}
		case c == '$' && i+1 < len(r) && r[i+1] == '(':
			endSeg() // $( … ) runs a command of its own
			i++
		case c == '`' || c == ';' || c == '\n' || c == '(' || c == ')' || c == '|' || c == '{' && !inWord || c == '}' && !inWord:
			endSeg()
		case c == '&':
			if i+1 < len(r) && r[i+1] == '>' { // &> file
				endWord()
				i++
				if i+1 < len(r) && r[i+1] == '>' {
					i++
				}
				pending = true
				continue
			}
			endSeg()
		case c == '>':
			// A word made only of digits just before > is a file descriptor (2>).
			if inWord && strings.Trim(word.String(), "0123456789") == "" {
				word.Reset()
				inWord = false
			}
			endWord()
			if i+1 < len(r) && (r[i+1] == '>' || r[i+1] == '|') {
				i++
			}
			if i+1 < len(r) && r[i+1] == '&' { // >&2 duplicates a descriptor
				i++
				for i+1 < len(r) && (r[i+1] >= '0' && r[i+1] <= '9' || r[i+1] == '-') {
					i++
				}
				continue
			}
			pending = true
		case c == '<':
			endWord()
			if i+1 < len(r) && r[i+1] == '<' { // here-doc: the delimiter is not a file
				i++
			}
			dropNxt = true
		case c == ' ' || c == '\t':
			endWord()
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	endSeg()
	return segs
}

var heredocRE = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// stripHeredocs removes here-document bodies: they are data fed to a command,
// and a script written with cat <<EOF must not be judged as commands.
func stripHeredocs(s string) string {
	locs := heredocRE.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range locs {
		if m[0] < last {
			continue // inside a body already removed
		}
		delim := s[m[2]:m[3]]
		nl := strings.IndexByte(s[m[1]:], '\n')
		if nl < 0 {
			break
		}
		bodyStart := m[1] + nl + 1
		b.WriteString(s[last:bodyStart])
		end := len(s)
		for pos := bodyStart; pos < len(s); {
			next := strings.IndexByte(s[pos:], '\n')
			lineEnd := len(s)
			if next >= 0 {
				lineEnd = pos + next
			}
			if strings.TrimSpace(s[pos:lineEnd]) == delim {
				end = lineEnd
				break
			}
			pos = lineEnd + 1
		}
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
