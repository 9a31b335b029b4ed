// Package clip shortens text for people and prompts, never inside a UTF-8 character:
// one set of rules for every title, preview, log line and prompt excerpt Hearth cuts.
// A cut is marked with "…"; n counts what the caller limits (runes for what a person
// reads, bytes for what a file or prompt holds).
package clip

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mark ends text that was cut.
const Mark = "…"

// Runes returns s if it has at most n runes, else its first n-1 runes and Mark (n runes
// in all). n < 1 returns s.
func Runes(s string, n int) string {
	if n < 1 || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + Mark
}

// Prefix returns the longest start of s that has at most n bytes and ends on a
// character boundary (no Mark: for callers that split or mark in their own way).
func Prefix(s string, n int) string {
	n = max(n, 0)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Bytes returns s if it has at most n bytes, else Prefix(s, n) and Mark. n < 1 returns s.
func Bytes(s string, n int) string {
	if n < 1 || len(s) <= n {
		return s
	}
	return Prefix(s, n) + Mark
}

// Line returns the first line of s (surrounding space trimmed) cut to n runes: the gist
// of an error or a reply for a list, a log line or a notification.
func Line(s string, n int) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return Runes(strings.TrimSpace(line), n)
}

// Squash folds every run of whitespace (newlines too) into one space, then cuts to n
// runes: one line for a list or a notification.
func Squash(s string, n int) string {
	return Runes(strings.Join(strings.Fields(s), " "), n)
}

// Words returns s if it has at most n runes, else Mark after a start of s cut before the
// word that crosses n-1 runes (mid-word when that would keep less than half), without
// trailing spaces and punctuation other than a closing ")" or quote: n runes at most, for
// a title or a notification. n < 1 returns s.
func Words(s string, n int) string {
	t := []rune(s)
	if n < 1 || len(t) <= n {
		return s
	}
	limit := n - 1
	cut := limit
	if !unicode.IsSpace(t[limit]) {
		for i := limit - 1; i > 0; i-- {
			if unicode.IsSpace(t[i]) {
				if i >= limit/2 {
					cut = i
				}
				break
			}
		}
	}
	out := strings.TrimRightFunc(string(t[:cut]), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != ')' && r != '"'
	})
	if out == "" {
		out = string(t[:cut])
	}
	return out + Mark
}
