// Package i18n holds the words the backend says to a person (notices, gate reasons, error
// hints, tray labels, notifications, slash-command replies) as codes with arguments, and
// the catalogs that render them in English and Simplified Chinese.
//
// The catalogs are JSON files, one folder per locale and one file per area
// (catalog/<locale>/<area>.json), in the same {name} placeholder syntax as the window's own
// catalogs: Go embeds them to word the tray and desktop notifications in the UI language
// (and the CLI in English), and the frontend merges them into its catalogs, so a code the
// backend sends is translated by the window with t(code, args). A feature adds its own file
// rather than editing a shared one; a key defined twice is an error (see the tests).
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"strings"
	"sync"
)

//go:embed catalog
var files embed.FS

// Locale is a language Hearth ships.
type Locale string

// The shipped locales.
const (
	English Locale = "en"
	Chinese Locale = "zh-CN"
)

// Locales lists the shipped locales, English (the fallback) first.
func Locales() []Locale { return []Locale{English, Chinese} }

// Message is user-facing text as a catalog code and its arguments; its JSON shape
// ({"code": …, "args": {…}}) is what the window translates.
type Message struct {
	Code string            `json:"code"`
	Args map[string]string `json:"args,omitempty"`
	// Lists fill placeholders with messages worded in the same language, joined by the
	// catalog's i18n.listSeparator ("a, b"; "a、b"): a notice naming what it left out.
	// (ts_type keeps the window's generated Message a plain shape.)
	Lists map[string][]Message `json:"lists,omitempty" ts_type:"Record<string, Array<{code: string; args?: Record<string, string>}>>"`
}

// M makes a Message from a code and name/value pairs: M("tray.next.today", "title", t,
// "time", "16:40"). A trailing name without a value is ignored.
func M(code string, pairs ...string) Message {
	m := Message{Code: code}
	if len(pairs) >= 2 {
		m.Args = make(map[string]string, len(pairs)/2)
		for i := 0; i+1 < len(pairs); i += 2 {
			m.Args[pairs[i]] = pairs[i+1]
		}
	}
	return m
}

// Problem is an error worded for a person: what went wrong and what to do about it.
type Problem struct {
	Text Message   `json:"text"`
	Hint []Message `json:"hint,omitempty"`
}

// P makes the Problem of code: the text is code, the hint code+".hint", both with the
// same name/value pairs (the catalog test checks that both exist).
func P(code string, pairs ...string) Problem {
	m := M(code, pairs...)
	return Problem{Text: m, Hint: []Message{{Code: code + ".hint", Args: m.Args}}}
}

// WithHint makes the Problem of m with the given hints.
func (m Message) WithHint(hint ...Message) Problem { return Problem{Text: m, Hint: hint} }

// String renders the problem in English: its text, then its hint in brackets when it
// has one (what the command line and the logs print).
func (p Problem) String() string {
	if len(p.Hint) == 0 {
		return p.Text.String()
	}
	return p.Text.String() + " (hint: " + p.HintString() + ")"
}

// HintString renders the hint in English, its parts joined by "; ".
func (p Problem) HintString() string {
	parts := make([]string, len(p.Hint))
	for i, h := range p.Hint {
		parts[i] = h.String()
	}
	return strings.Join(parts, "; ")
}

// Lines renders ms in English, one per line: a reply of several messages as the CLI
// prints it.
func Lines(ms []Message) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.String()
	}
	return strings.Join(parts, "\n")
}

// In renders m in locale l: the locale's text, else English, else the code itself (so a
// missing entry shows something searchable rather than nothing).
func (m Message) In(l Locale) string { return render(l, m) }

// String renders m in English: what logs and the CLI print.
func (m Message) String() string { return m.In(English) }

// T renders code with name/value pairs in locale l (see M and Message.In).
func T(l Locale, code string, pairs ...string) string { return M(code, pairs...).In(l) }

// Has reports whether the English catalog defines code.
func Has(code string) bool {
	_, ok := catalog(English)[code]
	return ok
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// fill replaces {name} with args[name]; an unknown placeholder stays as written, like the
// window's t().
func fill(template string, args map[string]string) string {
	if len(args) == 0 || !strings.Contains(template, "{") {
		return template
	}
	return placeholder.ReplaceAllStringFunc(template, func(whole string) string {
		if v, ok := args[whole[1:len(whole)-1]]; ok {
			return v
		}
		return whole
	})
}

// render renders m in l from the embedded catalogs, parsing only the locales it reads.
func render(l Locale, m Message) string { return renderFrom(catalog, l, m) }

func renderFrom(codes func(Locale) map[string]string, l Locale, m Message) string {
	s, ok := codes(l)[m.Code]
	if !ok {
		if s, ok = codes(English)[m.Code]; !ok {
			return m.Code
		}
	}
	args := m.Args
	if len(m.Lists) > 0 {
		args = maps.Clone(m.Args)
		if args == nil {
			args = map[string]string{}
		}
		for k, ms := range m.Lists {
			parts := make([]string, len(ms))
			for i, x := range ms {
				parts[i] = renderFrom(codes, l, x)
			}
			args[k] = strings.Join(parts, renderFrom(codes, l, Message{Code: "i18n.listSeparator"}))
		}
	}
	return fill(s, args)
}

// parsed holds each shipped locale's catalog, parsed the first time a message is
// rendered in it: the command line words in English only and never pays for the
// other languages (wording one error used to parse them all, a millisecond and more
// of every turn).
var parsed = lazyCatalogs(files)

// lazyCatalogs gives, per shipped locale, a function that parses its catalog in fsys
// once, when first called.
func lazyCatalogs(fsys fs.FS) map[Locale]func() map[string]string {
	out := map[Locale]func() map[string]string{}
	for _, l := range Locales() {
		out[l] = sync.OnceValue(func() map[string]string {
			// The files are part of the binary and a test reads every one, so a broken
			// file cannot ship; should one still fail to parse, its codes fall back to
			// English or the code rather than stopping Hearth.
			m, _ := loadLocale(fsys, l, nil)
			return m
		})
	}
	return out
}

// catalog is locale l's codes (nil for a locale Hearth does not ship).
func catalog(l Locale) map[string]string {
	if f, ok := parsed[l]; ok {
		return f()
	}
	return nil
}

// loadLocale merges catalog/<l>/*.json, appending what is wrong to errs.
func loadLocale(fsys fs.FS, l Locale, errs []string) (map[string]string, []string) {
	out := map[string]string{}
	names, _ := fs.Glob(fsys, path.Join("catalog", string(l), "*.json"))
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err == nil {
			var m map[string]string
			if err = json.Unmarshal(data, &m); err == nil {
				for k, v := range m {
					if _, dup := out[k]; dup {
						errs = append(errs, fmt.Sprintf("%s: %q is defined twice", name, k))
					}
					out[k] = v
				}
				continue
			}
		}
		errs = append(errs, fmt.Sprintf("%s: %v", name, err))
	}
	return out, errs
}
