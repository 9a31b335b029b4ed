package extract

import (
	"bytes"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// An HTML page is read with x/net/html's tokenizer (a stream: no tree, so deep nesting
// costs nothing): the title first, then the visible text, a line per block (heading,
// paragraph, list item, table row), script, style and template skipped.
func readHTML(name string, data []byte, lim Limits) ([]Page, error) {
	z := html.NewTokenizer(bytes.NewReader(data))
	var b, title strings.Builder
	skip := 0 // depth inside script, style, template, noscript
	inTitle := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				break
			}
			return nil, damaged(name, z.Err())
		}
		if b.Len()+title.Len() > lim.MaxText {
			return nil, tooMuchText(name, lim)
		}
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			tn, _ := z.TagName()
			a := atom.Lookup(tn)
			switch {
			case a == atom.Script || a == atom.Style || a == atom.Template || a == atom.Noscript:
				if tt == html.StartTagToken {
					skip++
				}
			case a == atom.Title:
				inTitle = tt == html.StartTagToken
			case a == atom.Br:
				b.WriteByte('\n')
			case a == atom.Li:
				newline(&b)
				b.WriteString("- ")
			case a == atom.Td || a == atom.Th:
				if l := lastLine(&b); l != "" {
					b.WriteString(" | ")
				}
			case block[a]:
				newline(&b)
			}
		case html.EndTagToken:
			tn, _ := z.TagName()
			a := atom.Lookup(tn)
			switch {
			case a == atom.Script || a == atom.Style || a == atom.Template || a == atom.Noscript:
				if skip > 0 {
					skip--
				}
			case a == atom.Title:
				inTitle = false
			case block[a] || a == atom.Li:
				newline(&b)
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			t := collapse(string(z.Text()))
			if inTitle {
				title.WriteString(t)
				continue
			}
			if t == " " && endsBlank(&b) {
				continue
			}
			if endsBlank(&b) {
				t = strings.TrimLeft(t, " ")
			}
			b.WriteString(t)
		}
	}
	text := tidyLines(b.String())
	if s := strings.TrimSpace(title.String()); s != "" {
		text = s + "\n\n" + strings.TrimLeft(text, "\n")
	}
	return []Page{{Line: 1, Text: text}}, nil
}

// block elements end the line before and after them.
var block = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Ul: true, atom.Ol: true, atom.Tr: true, atom.Table: true,
	atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true, atom.Nav: true,
	atom.Main: true, atom.Aside: true, atom.Blockquote: true, atom.Pre: true, atom.Hr: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Figure: true, atom.Figcaption: true,
	atom.Caption: true, atom.Form: true, atom.Fieldset: true, atom.Address: true, atom.Body: true,
}

// collapse folds runs of white space into one space, as a browser shows them.
func collapse(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		if s == "" {
			return ""
		}
		return " "
	}
	out := strings.Join(f, " ")
	if strings.TrimLeft(s, " \t\r\n\f") != s {
		out = " " + out
	}
	if strings.TrimRight(s, " \t\r\n\f") != s {
		out += " "
	}
	return out
}

func newline(b *strings.Builder) {
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
}

func endsBlank(b *strings.Builder) bool {
	s := b.String()
	return s == "" || strings.HasSuffix(s, "\n") || strings.HasSuffix(s, " ")
}

func lastLine(b *strings.Builder) string {
	s := b.String()
	return strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
}
