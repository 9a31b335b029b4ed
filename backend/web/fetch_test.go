package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// site serves the saved pages under testdata with the given content types.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	types := map[string]string{
		"/article.html": "text/html; charset=utf-8",
		"/short.html":   "text/html",
		"/latin1.html":  "text/html", // charset only in the page's <meta>
		"/ddg.html":     "text/html; charset=utf-8",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/notes.txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprint(w, "line one\nline two\n")
			return
		case "/data.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"temp": 21.5, "unit": "C"}`)
			return
		case "/logo.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
			return
		case "/missing":
			http.Error(w, "gone", http.StatusNotFound)
			return
		case "/long.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.Repeat("é", 5000))
			return
		}
		ct, ok := types[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(filepath.Join("testdata", r.URL.Path))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", ct)
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFetchExtraction(t *testing.T) {
	srv := site(t)
	tl := newFetch(t, Options{SSRFAllow: []string{"127.0.0.0/8"}})
	cases := []struct {
		path      string
		want, not []string
	}{
		{"/article.html",
			[]string{
				"Title: How to Brew Better Coffee at Home",
				"Good coffee starts with fresh beans.",
				"## Water and temperature",
				"**60 grams of coffee per litre of water**",
				"- Grind coarse for a French press.",
				"[grinding guide](" + srv.URL + "/guides/grinding)", // made absolute
				"[water chemistry notes](https://example.org/water)",
			},
			[]string{"TRACKING-SECRET", "INJECTED-BY-SCRIPT", "Subscribe to our newsletter", "celebrity diets",
				"CHEAP WATCHES", "All rights reserved", "font-family"}},
		{"/short.html",
			[]string{"Title: Opening hours", "Closed on public holidays.", "Monday", "Saturday"},
			[]string{"SCRIPT-NOISE"}},
		{"/latin1.html", []string{"Café du Nord", "Crème brûlée", "naïve"}, []string{"\ufffd"}},
		{"/notes.txt", []string{"line one\nline two"}, nil},
		{"/data.json", []string{`{"temp": 21.5, "unit": "C"}`}, nil},
	}
	for _, c := range cases {
		r := call(t, tl, map[string]any{"url": srv.URL + c.path})
		if r.IsError {
			t.Errorf("%s: %s", c.path, r.Content)
			continue
		}
		if !strings.HasPrefix(r.Content, Banner+"\nURL: "+srv.URL+c.path+"\n") {
			t.Errorf("%s: no banner and URL first:\n%s", c.path, r.Content)
		}
		for _, w := range c.want {
			if !strings.Contains(r.Content, w) {
				t.Errorf("%s: missing %q in:\n%s", c.path, w, r.Content)
			}
		}
		for _, n := range c.not {
			if strings.Contains(r.Content, n) {
				t.Errorf("%s: should not contain %q:\n%s", c.path, n, r.Content)
			}
		}
	}
	for path, want := range map[string]string{"/logo.png": "image/png, not text", "/missing": "HTTP 404"} {
		if r := call(t, tl, map[string]any{"url": srv.URL + path}); !r.IsError || !strings.Contains(r.Content, want) {
			t.Errorf("%s: %s (want %q)", path, r.Content, want)
		}
	}
	r := call(t, tl, map[string]any{"url": srv.URL + "/long.txt", "max_chars": 1000})
	if !strings.Contains(r.Content, "[cut at 1000 of 5000 chars") || strings.Count(r.Content, "é") != 1000 {
		t.Errorf("max_chars: %d é, tail %q", strings.Count(r.Content, "é"), r.Content[len(r.Content)-80:])
	}
}

func TestExtractNoHost(t *testing.T) {
	u, _ := url.Parse("http://example.com/a")
	p, err := Extract([]byte("<html><body><p>Hi there</p></body></html>"), "", u)
	if err != nil || !strings.Contains(p.Markdown, "Hi there") {
		t.Fatalf("sniffed HTML: %+v %v", p, err)
	}
	if _, err := Extract([]byte{0xff, 0xfe, 0x00, 0x01}, "", u); err == nil {
		t.Fatal("binary without a type was accepted")
	}
}
