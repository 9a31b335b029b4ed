package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"hearth/backend/tools"
)

func newSearch(t *testing.T, opts Options) tools.Tool {
	t.Helper()
	ts, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return ts[1]
}

func TestSearchDuckDuckGo(t *testing.T) {
	page, err := os.ReadFile("testdata/ddg.html")
	if err != nil {
		t.Fatal(err)
	}
	var gotQ string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotQ = r.URL.Query().Get("q")
		w.Header().Set("Content-Type", "text/html")
		w.Write(page)
	}))
	defer srv.Close()
	tl := newSearch(t, Options{DuckDuckGoURL: srv.URL + "/html/"})
	r := call(t, tl, map[string]any{"query": "coffee & tea", "count": 2})
	if r.IsError || gotQ != "coffee & tea" {
		t.Fatalf("q=%q: %s", gotQ, r.Content)
	}
	want := Banner + "\nResults for \"coffee & tea\":\n\n" +
		"1. Coffee - Wikipedia\n   https://en.wikipedia.org/wiki/Coffee\n   Coffee is a beverage brewed from roasted coffee beans.\n\n" +
		"2. How to brew\n   https://www.example.com/brew?a=1&b=2\n   Step by step guide."
	if r.Content != want {
		t.Errorf("got:\n%s\nwant:\n%s", r.Content, want)
	}
	blocked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>`))
	}))
	defer blocked.Close()
	if r := call(t, newSearch(t, Options{DuckDuckGoURL: blocked.URL}), map[string]any{"query": "x"}); !r.IsError || !strings.Contains(r.Content, "refused") {
		t.Errorf("bot check page: %s", r.Content)
	}
	res, _ := ParseDuckDuckGo(string(page))
	if len(res) != 3 || res[2].URL != "https://direct.example.net/page" || res[2].Snippet != "" {
		t.Errorf("all results: %+v", res)
	}
}

func TestSearchBraveAndSearXNG(t *testing.T) {
	var token, count string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/brave":
			token, count = r.Header.Get("X-Subscription-Token"), r.URL.Query().Get("count")
			if token != "bk-1" {
				http.Error(w, "bad token", http.StatusUnauthorized)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"web": map[string]any{"results": []map[string]string{
				{"title": "Brave <strong>one</strong>", "url": "https://one.example", "description": "first <strong>hit</strong>"},
			}}})
		case "/sx/search":
			if r.URL.Query().Get("format") != "json" {
				http.Error(w, "format", 403)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"results": []map[string]string{
				{"title": "SX one", "url": "https://sx1.example", "content": "alpha"},
				{"title": "SX two", "url": "https://sx2.example", "content": "beta"},
			}})
		}
	}))
	defer srv.Close()

	r := call(t, newSearch(t, Options{Provider: ProviderBrave, APIKey: "bk-1", BraveURL: srv.URL + "/brave"}), map[string]any{"query": "x", "count": 3})
	if r.IsError || count != "3" || !strings.Contains(r.Content, "1. Brave one\n   https://one.example\n   first hit") {
		t.Errorf("brave: count=%s %s", count, r.Content)
	}
	r = call(t, newSearch(t, Options{Provider: ProviderBrave, APIKey: "wrong", BraveURL: srv.URL + "/brave"}), map[string]any{"query": "x"})
	if !r.IsError || !strings.Contains(r.Content, "401") || !strings.Contains(r.Content, "apiKey") {
		t.Errorf("brave bad key: %s", r.Content)
	}
	r = call(t, newSearch(t, Options{Provider: ProviderBrave, BraveURL: srv.URL + "/brave"}), map[string]any{"query": "x"})
	if !r.IsError || !strings.Contains(r.Content, "tools.web.search.apiKey") {
		t.Errorf("brave no key: %s", r.Content)
	}
	r = call(t, newSearch(t, Options{Provider: ProviderSearXNG, SearXNGURL: srv.URL + "/sx/"}), map[string]any{"query": "x", "count": 1})
	if r.IsError || !strings.Contains(r.Content, "1. SX one") || strings.Contains(r.Content, "SX two") {
		t.Errorf("searxng: %s", r.Content)
	}
	r = call(t, newSearch(t, Options{Provider: ProviderSearXNG}), map[string]any{"query": "x"})
	if !r.IsError || !strings.Contains(r.Content, "tools.web.search.url") {
		t.Errorf("searxng no url: %s", r.Content)
	}
}
