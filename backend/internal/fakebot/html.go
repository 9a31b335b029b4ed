package fakebot

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf16"
)

// allowed are the tags parse_mode HTML accepts, and the attributes each may carry.
var allowed = map[string]string{
	"b": "", "strong": "", "i": "", "em": "", "u": "", "ins": "", "s": "", "strike": "", "del": "",
	"tg-spoiler": "", "span": "class", "a": "href", "code": "class", "pre": "", "blockquote": "expandable",
	"tg-emoji": "emoji-id",
}

// ParseHTML checks text as Telegram's HTML parse mode does and returns the
// visible text. It is stricter than the reference in one way: the nestings the
// reference forbids (anything inside pre or code but code in pre, a quote in a
// quote, a link in a link) are errors here rather than dropped formatting, so a
// test sees them. Errors read like Telegram's ("can't parse entities: …").
func ParseHTML(s string) (string, error) {
	var out strings.Builder
	var stack []string
	i := 0
	for i < len(s) {
		switch s[i] {
		case '<':
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return "", fmt.Errorf("Unclosed start tag at byte offset %d", i)
			}
			tag := s[i+1 : i+end]
			if strings.HasPrefix(tag, "/") {
				name := strings.ToLower(strings.TrimSpace(tag[1:]))
				if len(stack) == 0 || stack[len(stack)-1] != name {
					want := ""
					if len(stack) > 0 {
						want = stack[len(stack)-1]
					}
					return "", fmt.Errorf("Unmatched end tag at byte offset %d, expected \"</%s>\", found \"</%s>\"", i, want, name)
				}
				stack = stack[:len(stack)-1]
			} else {
				name, attrs, err := splitTag(tag)
				if err != nil {
					return "", fmt.Errorf("%v at byte offset %d", err, i)
				}
				okAttr, known := allowed[name]
				if !known {
					return "", fmt.Errorf("Unsupported start tag \"%s\" at byte offset %d", name, i)
				}
				for k := range attrs {
					if k != okAttr {
						return "", fmt.Errorf("Unsupported attribute \"%s\" of tag \"%s\" at byte offset %d", k, name, i)
					}
				}
				if name == "a" && attrs["href"] == "" {
					return "", fmt.Errorf("Empty href of tag \"a\" at byte offset %d", i)
				}
				for _, open := range stack {
					if (open == "code" || open == "pre") && !(open == "pre" && name == "code" && stack[len(stack)-1] == "pre") ||
						open == name && (name == "a" || name == "blockquote") {
						return "", fmt.Errorf("Can't nest \"%s\" in \"%s\" at byte offset %d", name, open, i)
					}
				}
				stack = append(stack, name)
			}
			i += end + 1
		case '&':
			end := strings.IndexByte(s[i:], ';')
			if end < 0 || end > 10 {
				return "", fmt.Errorf("Can't find end of the entity starting at byte offset %d", i)
			}
			ent := s[i : i+end+1]
			dec := html.UnescapeString(ent)
			if dec == ent {
				return "", fmt.Errorf("Unsupported HTML entity at byte offset %d", i)
			}
			out.WriteString(dec)
			i += end + 1
		default:
			out.WriteByte(s[i])
			i++
		}
	}
	if len(stack) > 0 {
		return "", fmt.Errorf("Can't find end tag corresponding to start tag \"%s\"", stack[len(stack)-1])
	}
	return out.String(), nil
}

// splitTag reads `name attr="value" …`.
func splitTag(t string) (string, map[string]string, error) {
	t = strings.TrimSpace(t)
	n := strings.IndexAny(t, " \t\n")
	if n < 0 {
		return strings.ToLower(t), nil, nil
	}
	name, rest := strings.ToLower(t[:n]), strings.TrimSpace(t[n:])
	attrs := map[string]string{}
	for rest != "" {
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			attrs[strings.ToLower(strings.TrimSpace(rest))] = ""
			break
		}
		k := strings.ToLower(strings.TrimSpace(rest[:eq]))
		rest = strings.TrimSpace(rest[eq+1:])
		var v string
		if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			q := strings.IndexByte(rest[1:], rest[0])
			if q < 0 {
				return "", nil, fmt.Errorf("Unclosed attribute value")
			}
			v, rest = rest[1:1+q], strings.TrimSpace(rest[2+q:])
		} else {
			sp := strings.IndexAny(rest, " \t\n")
			if sp < 0 {
				sp = len(rest)
			}
			v, rest = rest[:sp], strings.TrimSpace(rest[sp:])
		}
		attrs[k] = html.UnescapeString(v)
	}
	return name, attrs, nil
}

// Len counts what Telegram's limits count: UTF-16 code units.
func Len(s string) int { return len(utf16.Encode([]rune(s))) }
