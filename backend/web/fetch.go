package web

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"hearth/backend/tools"
)

// Limits of web_fetch.
const (
	DefaultMaxChars = 10000
	maxBodyBytes    = 5 << 20
	// minArticleChars is the least text readability must find before its
	// article is trusted; shorter means it missed, and the whole page is used.
	minArticleChars = 200
)

type fetchTool struct {
	opts   Options
	guard  *Guard
	client *http.Client
}

type fetchArgs struct {
	URL      string `json:"url"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"default 10000" min:"100" max:"100000"`
}

func (t *fetchTool) tool() tools.Tool {
	return tools.New(tools.Def[fetchArgs]{Name: "web_fetch", Short: "Fetch a web page as text.", ReadOnly: true, Run: t.run,
		Description: "Fetch a web page (http/https) as readable Markdown."})
}

func (t *fetchTool) run(ctx context.Context, a fetchArgs) (tools.Result, error) {
	if t.opts.Offline {
		return tools.Errorf("%s", offlineText), nil
	}
	raw := strings.TrimSpace(a.URL)
	if t.opts.Egress.LocalOnly() {
		host := raw
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			host = u.Host
		}
		return tools.Errorf("%v", t.opts.Egress.Refuse("web_fetch", host)), nil
	}
	maxChars := cmp.Or(a.MaxChars, DefaultMaxChars)
	page, err := t.fetch(ctx, raw)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Text(page.render(maxChars)), nil
}

// Page is a fetched page reduced to its readable text.
type Page struct {
	URL      string // after redirects
	Title    string
	Markdown string
}

func (p Page) render(maxChars int) string {
	var b strings.Builder
	b.WriteString(Banner + "\nURL: " + p.URL + "\n")
	if p.Title != "" {
		b.WriteString("Title: " + p.Title + "\n")
	}
	b.WriteString("\n")
	body := p.Markdown
	total := utf8.RuneCountInString(body)
	if maxChars > 0 && total > maxChars {
		body = string([]rune(body)[:maxChars])
		b.WriteString(body)
		fmt.Fprintf(&b, "\n\n[cut at %d of %d chars; call web_fetch with a larger max_chars for more]", maxChars, total)
		return b.String()
	}
	b.WriteString(body)
	return b.String()
}

func (t *fetchTool) fetch(ctx context.Context, raw string) (Page, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Page{}, fmt.Errorf("web_fetch: %q is not a URL: %w", raw, err)
	}
	if err := checkScheme(u); err != nil {
		return Page{}, fmt.Errorf("web_fetch %s: %w", raw, err)
	}
	if err := t.guard.CheckHost(ctx, u.Hostname()); err != nil {
		return Page{}, fmt.Errorf("web_fetch %s: %w", raw, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, fmt.Errorf("web_fetch %s: %w", raw, err)
	}
	req.Header.Set("User-Agent", t.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5")
	resp, err := t.client.Do(req)
	if err != nil {
		return Page{}, fmt.Errorf("web_fetch %s: %w", raw, unwrapURLError(err))
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	if resp.StatusCode >= 400 {
		return Page{}, fmt.Errorf("web_fetch %s: HTTP %s", final.Redacted(), resp.Status)
	}
	ct := resp.Header.Get("Content-Type")
	body, err := readBody(resp.Body, ct)
	if err != nil {
		return Page{}, fmt.Errorf("web_fetch %s: %w", final.Redacted(), err)
	}
	return Extract(body, ct, final)
}

// unwrapURLError drops the *url.Error wrapper whose text repeats the method
// and URL we already name.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// readBody reads at most maxBodyBytes and decodes the text to UTF-8 using the
// charset in the Content-Type or the page's <meta>.
func readBody(r io.Reader, contentType string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBodyBytes))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if isBinary(contentType) {
		return data, nil
	}
	dr, err := charset.NewReader(bytes.NewReader(data), contentType)
	if err != nil {
		return data, nil // unknown charset: keep the bytes as they are
	}
	dec, err := io.ReadAll(dr)
	if err != nil {
		return data, nil
	}
	return dec, nil
}

func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(contentType))
	}
	return mt
}

func isBinary(contentType string) bool {
	mt := mediaType(contentType)
	switch {
	case mt == "":
		return false
	case strings.HasPrefix(mt, "text/"), strings.Contains(mt, "html"), strings.Contains(mt, "xml"),
		strings.Contains(mt, "json"), strings.Contains(mt, "javascript"), strings.Contains(mt, "markdown"):
		return false
	}
	return true
}

// Extract turns a response body into a Page: HTML through readability (the
// article, without menus and footers) and then to Markdown; text, JSON and
// Markdown as they are; anything else is refused.
func Extract(body []byte, contentType string, pageURL *url.URL) (Page, error) {
	p := Page{URL: pageURL.String()}
	mt := mediaType(contentType)
	looksHTML := mt == "" && bytes.Contains(bytes.ToLower(body[:min(len(body), 1024)]), []byte("<html"))
	switch {
	case strings.Contains(mt, "html") || looksHTML:
		return extractHTML(body, pageURL)
	case isBinary(contentType):
		return p, fmt.Errorf("the page is %s, not text (hint: web_fetch reads HTML, text and JSON)", mt)
	}
	if !utf8.Valid(body) {
		return p, errors.New("the page is not text (hint: web_fetch reads HTML, text and JSON)")
	}
	p.Markdown = strings.TrimSpace(string(body))
	return p, nil
}

func extractHTML(body []byte, pageURL *url.URL) (Page, error) {
	p := Page{URL: pageURL.String()}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return p, fmt.Errorf("parse HTML: %w", err)
	}
	domain := pageURL.Scheme + "://" + pageURL.Host
	parser := readability.NewParser()
	art, aerr := parser.ParseDocument(doc, pageURL)
	if aerr == nil {
		p.Title = strings.TrimSpace(art.Title())
		if art.Node != nil {
			var text strings.Builder
			_ = art.RenderText(&text)
			if len(strings.TrimSpace(text.String())) >= minArticleChars {
				md, err := htmltomarkdown.ConvertNode(art.Node, converter.WithDomain(domain))
				if err == nil {
					p.Markdown = tidy(string(md))
					return p, nil
				}
			}
		}
	}
	// Readability found no article (a short page, a list): the whole page.
	full, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return p, fmt.Errorf("parse HTML: %w", err)
	}
	if p.Title == "" {
		p.Title = findTitle(full)
	}
	dropNoise(full)
	md, err := htmltomarkdown.ConvertNode(full, converter.WithDomain(domain))
	if err != nil {
		return p, fmt.Errorf("convert HTML to Markdown: %w", err)
	}
	p.Markdown = tidy(string(md))
	return p, nil
}

// dropNoise removes elements that never hold the page's text.
func dropNoise(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			switch c.Data {
			case "script", "style", "noscript", "template", "svg", "nav", "head", "iframe", "form":
				n.RemoveChild(c)
				c = next
				continue
			}
		}
		dropNoise(c)
		c = next
	}
}

func findTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "title" && n.FirstChild != nil {
		return strings.TrimSpace(n.FirstChild.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := findTitle(c); t != "" {
			return t
		}
	}
	return ""
}

// tidy trims the Markdown and folds runs of blank lines.
func tidy(s string) string {
	s = strings.TrimSpace(s)
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}
