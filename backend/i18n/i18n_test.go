package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestCatalogsLoadWithoutDuplicates(t *testing.T) {
	if _, err := load(files); err != nil {
		t.Fatal(err)
	}
	for _, l := range Locales() {
		if len(catalogs()[l]) == 0 {
			t.Errorf("%s: empty catalog", l)
		}
	}
}

func TestLoadReportsDuplicateAndBrokenFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"catalog/en/a.json":    {Data: []byte(`{"x.one": "One"}`)},
		"catalog/en/b.json":    {Data: []byte(`{"x.one": "Again"}`)},
		"catalog/zh-CN/a.json": {Data: []byte(`{"x.one": `)},
	}
	_, err := load(fsys)
	if err == nil || !strings.Contains(err.Error(), `"x.one" is defined twice`) || !strings.Contains(err.Error(), "zh-CN/a.json") {
		t.Fatalf("err = %v, want the duplicate and the broken file named", err)
	}
}

// Every code has both locales, no empty text, and the same placeholders in each: a
// translation that drops {path} would show the user less than the English does.
func TestEveryCodeHasBothLocalesWithTheSamePlaceholders(t *testing.T) {
	en, zh := catalogs()[English], catalogs()[Chinese]
	for code, text := range en {
		other, ok := zh[code]
		switch {
		case !ok:
			t.Errorf("%s: no zh-CN text", code)
		case strings.TrimSpace(text) == "" || strings.TrimSpace(other) == "":
			t.Errorf("%s: empty text", code)
		case !slices.Equal(placeholders(text), placeholders(other)):
			t.Errorf("%s: placeholders en %v, zh-CN %v", code, placeholders(text), placeholders(other))
		}
	}
	for code := range zh {
		if _, ok := en[code]; !ok {
			t.Errorf("%s: zh-CN only (English is the fallback: add it there)", code)
		}
	}
}

func TestRender(t *testing.T) {
	b := book{
		English: {"t.next": "Next: {title} at {time}", "t.quit": "Quit"},
		Chinese: {"t.next": "下一个：{time} {title}"},
	}
	m := M("t.next", "title", "tea", "time", "16:40")
	for _, c := range []struct{ got, want string }{
		{b.render(English, m), "Next: tea at 16:40"},
		{b.render(Chinese, m), "下一个：16:40 tea"},
		{b.render(Chinese, M("t.quit")), "Quit"},                                              // falls back to English
		{b.render(Chinese, M("t.gone")), "t.gone"},                                            // then to the code
		{b.render(English, M("t.next", "title")), "Next: {title} at {time}"},                  // a lone name is ignored
		{b.render(English, M("t.next", "title", "{time}", "time", "x")), "Next: {time} at x"}, // no second pass
		{M("tray.quit").String(), T(English, "tray.quit")},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestResolve(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		setting string
		getenv  func(string) string
		want    Locale
	}{
		{"zh-CN", env("LANG", "en_US.UTF-8"), Chinese},
		{"en", env("LANG", "zh_CN.UTF-8"), English},
		{"auto", env("LANG", "zh_CN.UTF-8"), Chinese},
		{"auto", env("LANGUAGE", "zh_TW:en", "LANG", "en_US.UTF-8"), Chinese},
		{"auto", env("LC_ALL", "C", "LANG", "zh_CN.UTF-8"), Chinese}, // C names no language
		{"auto", env("LC_MESSAGES", "de_DE.UTF-8", "LANG", "zh_CN.UTF-8"), English},
		{"auto", env(), English},
		{"", nil, English},
	} {
		if got := Resolve(c.setting, c.getenv); got != c.want {
			t.Errorf("Resolve(%q) = %s, want %s", c.setting, got, c.want)
		}
	}
}

// TestEveryCodeTheBackendUsesIsInTheCatalog reads the repository's Go files for calls of
// i18n.M, i18n.T and i18n.P whose code is a literal: the code (and a problem's hint) must
// be in the catalog, and the literal argument names must be exactly the placeholders of
// its English text. With TestEveryCodeHasBothLocalesWithTheSamePlaceholders, every code
// the backend emits has an en and a zh-CN text taking the same arguments.
func TestEveryCodeTheBackendUsesIsInTheCatalog(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	en := catalogs()[English]
	used := 0
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == "frontend" || strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(src), `"hearth/backend/i18n"`) {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "i18n" {
				return true
			}
			rest := call.Args
			switch sel.Sel.Name {
			case "M", "P":
			case "T":
				if len(rest) == 0 {
					return true
				}
				rest = rest[1:]
			default:
				return true
			}
			if len(rest) == 0 {
				return true
			}
			code, ok := literal(rest[0])
			if !ok {
				return true // a computed code: its own test must cover it
			}
			used++
			where := fset.Position(call.Pos()).String()
			text, ok := en[code]
			if !ok {
				t.Errorf("%s: code %q is not in the catalog", where, code)
				return true
			}
			if sel.Sel.Name == "P" { // a problem: the text and its hint share the arguments
				hint, ok := en[code+".hint"]
				if !ok {
					t.Errorf("%s: problem %q has no %s.hint in the catalog", where, code, code)
					return true
				}
				text += hint
			}
			var names []string
			for i := 1; i < len(rest); i += 2 {
				name, ok := literal(rest[i])
				if !ok {
					return true // computed names: not checkable here
				}
				names = append(names, name)
			}
			if call.Ellipsis.IsValid() {
				return true
			}
			slices.Sort(names)
			if want := placeholders(text); !slices.Equal(names, want) {
				t.Errorf("%s: %s gets %v, its text has %v", where, code, names, want)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if used == 0 {
		t.Fatal("found no i18n.M, i18n.T or i18n.P calls: the scan is broken")
	}
}

func literal(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// placeholders lists the {name}s of a template, sorted and without repeats.
func placeholders(template string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(template, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// countingFS counts the files read from each locale's folder.
type countingFS struct {
	fs.FS
	reads map[string]int
}

func (c countingFS) Open(name string) (fs.File, error) {
	if parts := strings.Split(name, "/"); len(parts) == 3 {
		c.reads[parts[1]]++
	}
	return c.FS.Open(name)
}

// Wording a message in English (the command line, an error's text) parses the English
// catalog only, once; another language is parsed when first asked for.
func TestCatalogsParsedPerLocaleOnDemand(t *testing.T) {
	c := countingFS{FS: files, reads: map[string]int{}}
	lazy := lazyCatalogs(c)
	codes := func(l Locale) map[string]string { return lazy[l]() }
	for range 3 {
		if got := renderFrom(codes, English, M("tray.quit")); got != T(English, "tray.quit") {
			t.Fatalf("English: %q", got)
		}
	}
	enReads := c.reads[string(English)]
	if enReads == 0 || c.reads[string(Chinese)] != 0 {
		t.Fatalf("reads after English only: %v", c.reads)
	}
	if got := renderFrom(codes, Chinese, M("tray.quit")); got != T(Chinese, "tray.quit") {
		t.Fatalf("Chinese: %q", got)
	}
	renderFrom(codes, Chinese, M("tray.quit"))
	if c.reads[string(English)] != enReads || c.reads[string(Chinese)] == 0 {
		t.Errorf("reads after Chinese: %v (English parsed again, or Chinese never)", c.reads)
	}
}

// A list placeholder is filled with its messages worded in the same language and joined
// as that language joins a list; an empty list fills it with nothing.
func TestRenderLists(t *testing.T) {
	m := Message{Code: "notice.fit.leftOut", Args: map[string]string{"limit": "2048"}, Lists: map[string][]Message{
		"parts": {M("notice.fit.turns", "n", "3"), M("notice.fit.recall")}, "too": nil, "advice": {M("notice.fit.adviceWindow")}}}
	if got, want := m.String(), "Left out to fit the model's context window (2048 tokens): 3 older turns of this chat, the recalled memory."+
		" A model with a larger context window would keep them; /new starts a fresh chat."; got != want {
		t.Errorf("English:\n%s\nwant\n%s", got, want)
	}
	if got := m.In(Chinese); !strings.Contains(got, "这个对话中较早的 3 轮、回忆起的记忆") || strings.Contains(got, "{") {
		t.Errorf("Chinese: %s", got)
	}
}

// book is the merged catalogs: locale → code → template.
type book map[Locale]map[string]string

func (b book) render(l Locale, m Message) string {
	return renderFrom(func(l Locale) map[string]string { return b[l] }, l, m)
}

// catalogs is every shipped locale's catalog (the tests compare them).
func catalogs() book {
	b := book{}
	for _, l := range Locales() {
		b[l] = catalog(l)
	}
	return b
}

// load merges catalog/<locale>/*.json per locale; it reports a file that does not parse
// and a key defined in two files of one locale.
func load(fsys fs.FS) (book, error) {
	out := book{}
	var errs []string
	for _, l := range Locales() {
		out[l], errs = loadLocale(fsys, l, errs)
	}
	if errs != nil {
		return out, fmt.Errorf("i18n catalogs: %s", strings.Join(errs, "; "))
	}
	return out, nil
}
