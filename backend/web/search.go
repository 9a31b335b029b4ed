package web

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"hearth/backend/tools"
)

// Result counts of web_search.
const (
	DefaultCount = 5
	MaxCount     = 10
)

// SearchResult is one hit.
type SearchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

type searchTool struct{ opts Options }

type searchArgs struct {
	Query string `json:"query"`
	Count int    `json:"count,omitempty" jsonschema:"default 5" min:"1" max:"10"`
}

func (t *searchTool) tool() tools.Tool {
	return tools.New(tools.Def[searchArgs]{Name: "web_search", Short: "Search the web.", ReadOnly: true, Run: t.run,
		Description: "Search the web; returns titles, URLs and snippets."})
}

func (t *searchTool) run(ctx context.Context, a searchArgs) (tools.Result, error) {
	if t.opts.Offline {
		return tools.Errorf("%s", offlineText), nil
	}
	if t.opts.Egress.LocalOnly() {
		return tools.Errorf("%v", t.opts.Egress.Refuse("web_search", "search provider "+t.opts.Provider)), nil
	}
	q := strings.TrimSpace(a.Query)
	if q == "" {
		return tools.Errorf("query is empty; say what to search for"), nil
	}
	n := min(max(cmp.Or(a.Count, DefaultCount), 1), MaxCount)
	res, err := Search(ctx, t.opts, q, n)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Text(formatResults(q, res)), nil
}

func formatResults(q string, res []SearchResult) string {
	var b strings.Builder
	b.WriteString(Banner + "\n")
	if len(res) == 0 {
		fmt.Fprintf(&b, "No results for %q.", q)
		return b.String()
	}
	fmt.Fprintf(&b, "Results for %q:\n", q)
	for i, r := range res {
		fmt.Fprintf(&b, "\n%d. %s\n   %s\n", i+1, r.Title, r.URL)
		if r.Snippet != "" {
			b.WriteString("   " + r.Snippet + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Search asks the configured provider for up to n results.
func Search(ctx context.Context, opts Options, q string, n int) ([]SearchResult, error) {
	var (
		res []SearchResult
		err error
	)
	switch opts.Provider {
	case ProviderBrave:
		res, err = searchBrave(ctx, opts, q, n)
	case ProviderSearXNG:
		res, err = searchSearXNG(ctx, opts, q)
	default:
		res, err = searchDuckDuckGo(ctx, opts, q)
	}
	if err != nil {
		return nil, fmt.Errorf("web_search (%s): %w", opts.Provider, err)
	}
	if len(res) > n {
		res = res[:n]
	}
	return res, nil
}

func get(ctx context.Context, opts Options, u string, header http.Header) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	maps.Copy(req.Header, header)
	req.Header.Set("User-Agent", opts.UserAgent)
	resp, err := opts.SearchClient.Do(req)
	if err != nil {
		return nil, unwrapURLError(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 2<<20))
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode >= 400 {
		hint := ""
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			hint = " (hint: check tools.web.search.apiKey)"
		}
		return nil, fmt.Errorf("HTTP %s%s", resp.Status, hint)
	}
	return body, nil
}

func searchBrave(ctx context.Context, opts Options, q string, n int) ([]SearchResult, error) {
	if opts.APIKey == "" {
		return nil, fmt.Errorf("no API key (hint: set tools.web.search.apiKey, or use provider \"duckduckgo\")")
	}
	u := opts.BraveURL + "?" + url.Values{"q": {q}, "count": {strconv.Itoa(n)}}.Encode()
	body, err := get(ctx, opts, u, http.Header{"Accept": {"application/json"}, "X-Subscription-Token": {opts.APIKey}})
	if err != nil {
		return nil, err
	}
	var out struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("unexpected response: %w", err)
	}
	res := make([]SearchResult, 0, len(out.Web.Results))
	for _, r := range out.Web.Results {
		res = append(res, SearchResult{Title: clean(stripTags(r.Title)), URL: r.URL, Snippet: clean(stripTags(r.Description))})
	}
	return res, nil
}

func searchSearXNG(ctx context.Context, opts Options, q string) ([]SearchResult, error) {
	if opts.SearXNGURL == "" {
		return nil, fmt.Errorf("no instance URL (hint: set tools.web.search.url, e.g. \"http://localhost:8888\")")
	}
	u := strings.TrimRight(opts.SearXNGURL, "/") + "/search?" + url.Values{"q": {q}, "format": {"json"}}.Encode()
	body, err := get(ctx, opts, u, http.Header{"Accept": {"application/json"}})
	if err != nil {
		return nil, fmt.Errorf("%w (hint: the instance must allow format=json in its settings.yml)", err)
	}
	var out struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("unexpected response: %w (hint: the instance must allow format=json)", err)
	}
	res := make([]SearchResult, 0, len(out.Results))
	for _, r := range out.Results {
		res = append(res, SearchResult{Title: clean(r.Title), URL: r.URL, Snippet: clean(r.Content)})
	}
	return res, nil
}

func searchDuckDuckGo(ctx context.Context, opts Options, q string) ([]SearchResult, error) {
	u := opts.DuckDuckGoURL + "?" + url.Values{"q": {q}}.Encode()
	body, err := get(ctx, opts, u, http.Header{"Accept": {"text/html"}})
	if err != nil {
		return nil, err
	}
	res, err := ParseDuckDuckGo(string(body))
	if err == nil && len(res) == 0 && looksBlocked(string(body)) {
		return nil, fmt.Errorf("DuckDuckGo refused the automated search (hint: try again later, or set tools.web.search.provider to \"brave\" or \"searxng\")")
	}
	return res, err
}

// looksBlocked recognises DuckDuckGo's bot check page, which has no results.
func looksBlocked(page string) bool {
	p := strings.ToLower(page)
	return strings.Contains(p, "anomaly") || strings.Contains(p, "captcha") || strings.Contains(p, "unusual traffic")
}

// ParseDuckDuckGo reads the results of DuckDuckGo's HTML page: links of
// class result__a, snippets of class result__snippet; ads are skipped.
func ParseDuckDuckGo(page string) ([]SearchResult, error) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return nil, fmt.Errorf("parse results: %w", err)
	}
	var res []SearchResult
	var walk func(n *html.Node, ad bool)
	walk = func(n *html.Node, ad bool) {
		if n.Type == html.ElementNode {
			cls := " " + attr(n, "class") + " "
			if strings.Contains(cls, " result--ad ") {
				ad = true
			}
			switch {
			case !ad && n.Data == "a" && strings.Contains(cls, " result__a "):
				res = append(res, SearchResult{Title: clean(text(n)), URL: unwrapDDG(attr(n, "href"))})
				return
			case !ad && strings.Contains(cls, " result__snippet ") && len(res) > 0 && res[len(res)-1].Snippet == "":
				res[len(res)-1].Snippet = clean(text(n))
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, ad)
		}
	}
	walk(doc, false)
	return res, nil
}

// unwrapDDG turns DuckDuckGo's redirect link (//duckduckgo.com/l/?uddg=…)
// into the target URL.
func unwrapDDG(href string) string {
	if strings.HasPrefix(href, "//") {
		href = "https:" + href
	}
	u, err := url.Parse(href)
	if err != nil {
		return href
	}
	if t := u.Query().Get("uddg"); t != "" {
		return t
	}
	return href
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// stripTags removes the <strong> marks Brave puts around matches.
func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		return s
	}
	return text(doc)
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
