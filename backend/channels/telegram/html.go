package telegram

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// ToHTML turns Markdown as the model writes it into the HTML subset Telegram
// renders (parse_mode HTML): b, i, s, code, pre, a href and blockquote, with
// <, > and & escaped everywhere else. goldmark parses (it is already in
// Hearth's module graph); the walk below writes each open tag and its close in
// one place, so the output is balanced by construction. What Telegram has no
// form for becomes text: headings bold, lists bullets, tables preformatted,
// raw HTML escaped, links to anything but web, tg and mail addresses plain.
// Telegram forbids some nestings (pre and code inside anything, a quote in a
// quote): those inner parts are written as plain text.
func ToHTML(md string) string {
	src := []byte(md)
	p := goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.Table, extension.TaskList)).Parser()
	r := &htmlWriter{src: src}
	r.blocks(p.Parse(text.NewReader(src)), 0)
	out := strings.TrimSpace(r.b.String())
	if out == "" {
		return escape(md)
	}
	return out
}

type htmlWriter struct {
	src    []byte
	b      strings.Builder
	inline int  // b, i, s or a open: code may not open
	quote  bool // a blockquote open: no pre, code or quote inside
	inLink bool // an a open: no link inside (an image in a link)
}

func (r *htmlWriter) blocks(parent ast.Node, depth int) {
	sep := "\n\n"
	if l, ok := parent.(*ast.ListItem); ok {
		if list, ok := l.Parent().(*ast.List); ok && list.IsTight {
			sep = "\n"
		}
	}
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		if c != parent.FirstChild() {
			r.b.WriteString(sep)
		}
		r.block(c, depth)
	}
}

func (r *htmlWriter) block(n ast.Node, depth int) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		r.inlines(n)
	case *ast.Heading:
		r.wrap("b", "", func() { r.inlines(n) })
	case *ast.ThematicBreak:
		r.b.WriteString("———")
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		r.code(n)
	case *ast.HTMLBlock:
		r.lines(n)
		if n.HasClosure() {
			r.b.WriteString(escape(string(n.ClosureLine.Value(r.src))))
		}
	case *ast.Blockquote:
		if r.quote {
			r.blocks(n, depth)
			return
		}
		r.quote = true
		r.b.WriteString("<blockquote>")
		r.blocks(n, depth)
		r.b.WriteString("</blockquote>")
		r.quote = false
	case *ast.List:
		i := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			if item != n.FirstChild() {
				r.b.WriteString("\n")
				if !n.IsTight {
					r.b.WriteString("\n")
				}
			}
			r.b.WriteString(strings.Repeat("  ", depth))
			if n.IsOrdered() {
				r.b.WriteString(strconv.Itoa(i) + ". ")
				i++
			} else {
				r.b.WriteString("• ")
			}
			r.blocks(item, depth+1)
		}
	case *east.Table:
		r.table(n)
	default:
		r.blocks(n, depth)
	}
}

// code writes a code block as <pre>, with its language when it has a plain name.
func (r *htmlWriter) code(n ast.Node) {
	var body strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		body.Write(seg.Value(r.src))
	}
	code := escape(strings.TrimRight(body.String(), "\n"))
	if r.quote || r.inline > 0 {
		r.b.WriteString(code)
		return
	}
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(r.src))
	}
	if lang != "" && plainName(lang) {
		r.b.WriteString(`<pre><code class="language-` + lang + `">` + code + "</code></pre>")
		return
	}
	r.b.WriteString("<pre>" + code + "</pre>")
}

func plainName(s string) bool {
	if len(s) > 32 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '+') {
			return false
		}
	}
	return true
}

func (r *htmlWriter) lines(n ast.Node) {
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		r.b.WriteString(escape(string(seg.Value(r.src))))
	}
}

// table writes a table as preformatted rows, cells parted by " | ".
func (r *htmlWriter) table(t *east.Table) {
	var rows []string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, strings.TrimSpace(plainText(cell, r.src)))
		}
		rows = append(rows, strings.Join(cells, " | "))
	}
	body := escape(strings.Join(rows, "\n"))
	if r.quote || r.inline > 0 {
		r.b.WriteString(body)
		return
	}
	r.b.WriteString("<pre>" + body + "</pre>")
}

// textOf is a text node as the reader sees it: backslash escapes and
// character references (&copy;, &#65;) resolved, as CommonMark renders them.
func textOf(n *ast.Text, src []byte) string {
	v := n.Value(src)
	if n.IsRaw() {
		return string(v)
	}
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v))))
}

// plainText is the text of n's inlines without formatting; code is taken as
// written (a code span's backslashes are its own).
func plainText(n ast.Node, src []byte) string {
	_, code := n.(*ast.CodeSpan)
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			if code {
				b.Write(c.Value(src))
			} else {
				b.WriteString(textOf(c, src))
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func (r *htmlWriter) wrap(tag, attr string, body func()) {
	r.inline++
	r.b.WriteString("<" + tag + attr + ">")
	body()
	r.b.WriteString("</" + tag + ">")
	r.inline--
}

func (r *htmlWriter) inlines(parent ast.Node) {
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline1(c)
	}
}

func (r *htmlWriter) inline1(n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		r.b.WriteString(escape(textOf(n, r.src)))
		if n.SoftLineBreak() || n.HardLineBreak() {
			r.b.WriteString("\n")
		}
	case *ast.String:
		r.b.WriteString(escape(string(n.Value)))
	case *ast.CodeSpan:
		t := escape(plainText(n, r.src))
		if r.inline > 0 || r.quote {
			r.b.WriteString(t)
			return
		}
		r.b.WriteString("<code>" + t + "</code>")
	case *ast.Emphasis:
		tag := "i"
		if n.Level >= 2 {
			tag = "b"
		}
		r.wrap(tag, "", func() { r.inlines(n) })
	case *east.Strikethrough:
		r.wrap("s", "", func() { r.inlines(n) })
	case *ast.Link:
		r.link(string(n.Destination), func() { r.inlines(n) })
	case *ast.AutoLink:
		label := string(n.Label(r.src))
		u := string(n.URL(r.src))
		r.link(u, func() { r.b.WriteString(escape(label)) })
	case *ast.Image:
		r.link(string(n.Destination), func() {
			if alt := plainText(n, r.src); strings.TrimSpace(alt) != "" {
				r.b.WriteString(escape(alt))
			} else {
				r.b.WriteString(escape(string(n.Destination)))
			}
		})
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			r.b.WriteString(escape(string(seg.Value(r.src))))
		}
	case *east.TaskCheckBox:
		if n.IsChecked {
			r.b.WriteString("☑ ")
		} else {
			r.b.WriteString("☐ ")
		}
	default:
		r.inlines(n)
	}
}

// link writes <a href> for addresses Telegram opens; others keep their text only.
func (r *htmlWriter) link(dest string, body func()) {
	u, err := url.Parse(dest)
	if r.inLink || err != nil || !(u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "tg" || u.Scheme == "mailto") || (u.Scheme != "mailto" && u.Scheme != "tg" && u.Host == "") {
		body()
		return
	}
	r.inLink = true
	r.wrap("a", ` href="`+escapeAttr(dest)+`"`, body)
	r.inLink = false
}

var (
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
)

func escape(s string) string     { return textEscaper.Replace(s) }
func escapeAttr(s string) string { return attrEscaper.Replace(s) }
