package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"

	"hearth/backend/i18n"
	"hearth/backend/internal/safefile"
)

// Problem is one thing wrong with a config: the dotted key, where it is in the file (when
// known), what is wrong and how to fix it.
type Problem struct {
	Key    string `json:"key,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Msg    string `json:"msg"`
	Hint   string `json:"hint,omitempty"`
	// Why is Msg and Hint as catalog codes, for the window to word in its language.
	Why *i18n.Problem `json:"why,omitempty"`
}

// NewProblem is the Problem at key worded by why: its English is Msg and Hint.
func NewProblem(key string, why i18n.Problem) Problem {
	return Problem{Key: key, Msg: why.Text.String(), Hint: why.HintString(), Why: &why}
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", p.Line, p.Column)
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Msg)
	if p.Hint != "" {
		b.WriteString(" (hint: " + p.Hint + ")")
	}
	return b.String()
}

// LoadError says why a config file could not be used: its first problem (embedded, so
// e.Line and e.Hint are the first problem's), and all of them in Problems (validation may
// find several).
type LoadError struct {
	Path string
	Problem
	Problems []Problem
	Err      error // the underlying error, if any (I/O, JSON)
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("config " + e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	first := e.Problem
	first.Line = 0 // placed above, in path:line:column form
	b.WriteString(": " + first.String())
	for i, p := range e.Problems[1:] {
		if i == 0 {
			fmt.Fprintf(&b, "; and %d more problem(s): ", len(e.Problems)-1)
		} else {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

func (e *LoadError) Unwrap() error { return e.Err }

// newLoadError is the error of the file at path with its problems (at least one).
func newLoadError(path string, err error, problems ...Problem) *LoadError {
	return &LoadError{Path: path, Problem: problems[0], Problems: problems, Err: err}
}

// MaxFileBytes bounds config.json: a larger file (or a pipe or device in its place)
// is refused with a clear error instead of hanging or exhausting start-up.
const MaxFileBytes = 4 << 20

// source remembers a loaded file: Save merges against it.
type source struct {
	path    string
	loaded  any      // tree of the config as loaded (expanded): the base of Save's merge
	unknown []string // dotted paths of unknown keys
	failed  error    // non-nil when the file failed to load: Save refuses to write it
	getenv  func(string) string
}

// Load reads the config file at path. A missing file gives Default() and no error (nothing
// is written until Save). Any problem — unreadable file, JSON syntax, a value of the wrong
// type, an invalid value — gives Default() and a *LoadError naming the line and column;
// Save then refuses to overwrite that file. Warnings list unknown keys (kept on save) and
// ${VAR} references to unset variables. getenv expands ${VAR}; nil means os.Getenv.
func Load(path string, getenv func(string) string) (*Config, []Problem, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	data, err := safefile.ReadFile(path, MaxFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		cfg := Default()
		base, terr := toTree(cfg)
		if terr != nil {
			return cfg, nil, terr
		}
		cfg.src = &source{path: path, loaded: base, getenv: getenv}
		return cfg, nil, nil
	}
	if err != nil {
		le := newLoadError(path, err, NewProblem("", i18n.P("config.unreadable", "detail", err.Error())))
		return failed(path, le), nil, le
	}
	cfg, warnings, le := decode(path, data, getenv)
	if le != nil {
		return failed(path, le), warnings, le
	}
	cfg.src.getenv = getenv
	migrateRecallBlock(&cfg.Agents.Defaults.RecallBlock)
	return cfg, warnings, nil
}

// migrateRecallBlock moves a recall block still at the defaults of the old
// scoring (0.35 of the best hit's scale, a fixed 1 500 characters) to the new
// ones: the score no longer depends on the best hit, and the block's size
// follows the context window (docs/memory.md).
func migrateRecallBlock(b *RecallBlock) {
	if b.MinScore == 0.35 && b.MaxChars == 1500 {
		d := Default().Agents.Defaults.RecallBlock
		b.MinScore, b.MaxChars = d.MinScore, d.MaxChars
	}
}

func failed(path string, err error) *Config {
	cfg := Default()
	cfg.src = &source{path: path, failed: err}
	return cfg
}

// UnknownKeys returns the dotted paths of keys in the loaded file that Hearth does not
// know. They are kept on save.
func (c *Config) UnknownKeys() []string {
	if c.src == nil {
		return nil
	}
	return append([]string(nil), c.src.unknown...)
}

// decode turns file bytes into a Config: parse with positions, keep only known keys
// (matched exactly: encoding/json would match "Model" to "model", which Save could not
// write back faithfully), expand ${VAR}, decode into Default(), validate.
func decode(path string, data []byte, getenv func(string) string) (*Config, []Problem, *LoadError) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, newLoadError(path, nil, at(NewProblem("", i18n.P("config.empty")), 1, 1))
	}
	tree, pos, err := parseTree(data)
	if err != nil {
		var se *syntaxErr
		if errors.As(err, &se) {
			line, col := lineCol(data, se.off)
			return nil, nil, newLoadError(path, err, at(NewProblem("", i18n.M("config.syntax", "detail", se.msg).WithHint(syntaxHint(data, se.off))), line, col))
		}
		return nil, nil, newLoadError(path, err, Problem{Msg: "invalid JSON: " + err.Error()})
	}
	if _, ok := tree.(*object); !ok {
		return nil, nil, newLoadError(path, nil, at(NewProblem("", i18n.P("config.notObject")), 1, 1))
	}
	d := &decoder{getenv: getenv, pos: pos, data: data}
	known := d.filter(reflect.TypeFor[Config](), tree, "")
	if len(d.typeProbs) > 0 {
		return nil, d.warnings, newLoadError(path, nil, d.typeProbs...)
	}
	cfg := Default()
	if err := json.Unmarshal(encodeTree(known), cfg); err != nil {
		return nil, d.warnings, newLoadError(path, err, d.typeProblem(err))
	}
	cfg.normalize()
	if probs := cfg.Validate(); len(probs) > 0 {
		for i := range probs {
			probs[i].Line, probs[i].Column = d.place(probs[i].Key)
		}
		return nil, d.warnings, newLoadError(path, nil, probs...)
	}
	base, err := toTree(cfg)
	if err != nil {
		return nil, d.warnings, newLoadError(path, err, Problem{Msg: err.Error()})
	}
	cfg.src = &source{path: path, loaded: base, unknown: d.unknown}
	return cfg, d.warnings, nil
}

type decoder struct {
	getenv    func(string) string
	pos       positions
	data      []byte
	unknown   []string
	warnings  []Problem // what loads but deserves a look: unknown keys, unset variables
	typeProbs []Problem
}

// mismatch reports whether tree value v cannot decode into Go type t, and describes v.
func mismatch(t reflect.Type, v any) (found string, bad bool) {
	switch x := v.(type) {
	case *object:
		found = "an object"
		bad = t.Kind() != reflect.Struct && t.Kind() != reflect.Map
	case []any:
		found = "a list"
		bad = t.Kind() != reflect.Slice
	case string:
		found = fmt.Sprintf("the string %q", x)
		bad = t.Kind() != reflect.String
	case bool:
		found = fmt.Sprintf("%t", x)
		bad = t.Kind() != reflect.Bool
	case json.Number:
		found = "the number " + x.String()
		switch t.Kind() {
		case reflect.Float64, reflect.Float32:
			_, err := x.Float64()
			bad = err != nil
		case reflect.Int, reflect.Int64, reflect.Int32:
			_, err := x.Int64()
			bad = err != nil
		default:
			bad = true
		}
	}
	return found, bad
}

// place gives the line and column of the value at a dotted key, or of its nearest
// enclosing key that the file has (a missing key is reported where its parent is).
func (d *decoder) place(key string) (line, col int) {
	for k := key; ; {
		if off, ok := d.pos[k]; ok {
			return lineCol(d.data, off)
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			if k == "" {
				return 0, 0
			}
			k = ""
			continue
		}
		k = k[:i]
	}
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// EnvRefs lists the environment variables s refers to as ${VAR}.
func EnvRefs(s string) []string {
	var names []string
	for _, m := range envRef.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names
}

// filter copies tree, dropping keys the schema (reflect type t) does not know and
// expanding ${VAR} in string values. Values of the wrong JSON kind are copied as they are,
// so that json.Unmarshal reports them as type errors.
func (d *decoder) filter(t reflect.Type, v any, path string) any {
	if v == nil {
		return nil // null leaves the default in place
	}
	if found, bad := mismatch(t, v); bad {
		line, col := d.place(path)
		d.typeProbs = append(d.typeProbs, at(NewProblem(path, wrongType(t, found)), line, col))
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(*object)
		if !ok {
			return v
		}
		out := newObject()
		for _, k := range obj.keys {
			f, ok := fieldByJSONName(t, k)
			if !ok {
				p := joinPath(path, k)
				d.unknown = append(d.unknown, p)
				line, col := lineCol(d.data, d.pos[p])
				why := i18n.P("config.warn.unknownKey")
				if known, ok := caseTwin(t, k); ok {
					why = i18n.P("config.warn.caseKey", "known", known)
				}
				d.warnings = append(d.warnings, at(NewProblem(p, why), line, col))
				continue
			}
			out.set(k, d.filter(f.Type, obj.vals[k], joinPath(path, k)))
		}
		return out
	case reflect.Map:
		obj, ok := v.(*object)
		if !ok {
			return v
		}
		out := newObject()
		for _, k := range obj.keys {
			out.set(k, d.filter(t.Elem(), obj.vals[k], joinPath(path, k)))
		}
		return out
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			out[i] = d.filter(t.Elem(), e, joinPath(path, fmt.Sprint(i)))
		}
		return out
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return v
		}
		return envRef.ReplaceAllStringFunc(s, func(ref string) string {
			name := ref[2 : len(ref)-1]
			val := d.getenv(name)
			if val == "" {
				line, col := d.place(path)
				d.warnings = append(d.warnings, at(NewProblem(path, i18n.P("config.warn.envUnset", "name", name)), line, col))
			}
			return val
		})
	}
	return v
}

// caseTwin finds the json name of t's field that name spells in other letter case
// ("UI" for "ui"): the likely meaning of a key that is otherwise unknown.
func caseTwin(t reflect.Type, name string) (string, bool) {
	f, ok := findField(t, func(tag string) bool { return strings.EqualFold(tag, name) })
	return jsonName(f), ok
}

// fieldByJSONName finds the struct field whose json tag name is exactly name.
func fieldByJSONName(t reflect.Type, name string) (reflect.StructField, bool) {
	return findField(t, func(tag string) bool { return tag == name })
}

// findField finds the first exported field of t whose json name matches.
func findField(t reflect.Type, match func(string) bool) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && jsonName(f) != "" && match(jsonName(f)) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// jsonName is f's key in JSON: its json tag's name ("" when the tag gives none or is "-").
func jsonName(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if tag == "-" {
		return ""
	}
	return tag
}

// typeProblem describes a json.Unmarshal error (a value of the wrong type) at its place.
func (d *decoder) typeProblem(err error) Problem {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return Problem{Msg: err.Error()}
	}
	line, col := d.place(te.Field)
	return at(NewProblem(te.Field, wrongType(te.Type, te.Value)), line, col)
}

// at places p in the file.
func at(p Problem, line, col int) Problem {
	p.Line, p.Column = line, col
	return p
}

// wrongType is the problem of a value of the wrong JSON kind where Go type t is
// wanted; found describes the value (in English, as the file has it).
func wrongType(t reflect.Type, found string) i18n.Problem {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return i18n.P("config.type.int", "found", found)
	case reflect.Float64, reflect.Float32:
		return i18n.P("config.type.number", "found", found)
	case reflect.Bool:
		return i18n.P("config.type.bool", "found", found)
	case reflect.String:
		return i18n.P("config.type.string", "found", found)
	case reflect.Slice:
		return i18n.P("config.type.list", "found", found)
	}
	return i18n.P("config.type.object", "found", found)
}

// syntaxHint guesses the usual mistakes from the character at the error.
func syntaxHint(data []byte, off int) i18n.Message {
	if off >= len(data) {
		return i18n.M("config.syntax.early")
	}
	c := data[off]
	if c == ',' {
		if next := skipSpace(data, off+1); next < len(data) && (data[next] == '}' || data[next] == ']') {
			c = data[next]
		}
	}
	switch c {
	case '}', ']':
		return i18n.M("config.syntax.trailingComma")
	case '\'':
		return i18n.M("config.syntax.singleQuote")
	case '/', '#':
		return i18n.M("config.syntax.comment")
	case '"':
		return i18n.M("config.syntax.missingComma")
	}
	return i18n.M("config.syntax.other")
}
