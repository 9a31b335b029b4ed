package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The config file is handled as an ordered JSON tree besides the typed Config: the tree
// keeps the user's key order, unknown keys and ${VAR} references, and where each value
// starts in the file (for line:column in errors). Values are *object, []any, string,
// json.Number, bool or nil.

type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// positions maps a dotted key path ("agents.defaults.model") to the byte offset where
// its value starts; "" is the whole document.
type positions map[string]int

// syntaxErr is a JSON syntax problem at a byte offset.
type syntaxErr struct {
	off int
	msg string
}

func (e *syntaxErr) Error() string { return e.msg }

// parseTree parses data into an ordered tree and records value positions.
func parseTree(data []byte) (any, positions, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	pos := positions{}
	p := &treeParser{dec: dec, data: data, pos: pos}
	v, err := p.value("")
	if err != nil {
		return nil, nil, p.wrap(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := int(dec.InputOffset())
		return nil, nil, &syntaxErr{off: skipSpace(data, off), msg: "unexpected data after the end of the top-level object"}
	}
	return v, pos, nil
}

type treeParser struct {
	dec   *json.Decoder
	data  []byte
	pos   positions
	depth int
}

// maxDepth bounds nesting: no setting is more than a few levels deep, and each level
// costs a path string, so 100 000 nested arrays would take gigabytes.
const maxDepth = 64

func (p *treeParser) wrap(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := syntaxOffset(p.data, se)
		// Point at the offending character, not the blank before it.
		for off < len(p.data)-1 && strings.IndexByte(" \t\r\n", p.data[off]) >= 0 {
			off++
		}
		return &syntaxErr{off: off, msg: strings.TrimPrefix(se.Error(), "json: ")}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &syntaxErr{off: len(p.data), msg: "unexpected end of file"}
	}
	return err
}

// syntaxOffset finds the offending byte: json.Decoder.Token reports the offset of the
// bad character itself, the decoder proper the offset just after it. The message names
// the character, so whichever of the two positions holds it wins.
func syntaxOffset(data []byte, se *json.SyntaxError) int {
	off := int(se.Offset)
	if rest, ok := strings.CutPrefix(se.Error(), "invalid character '"); ok && rest != "" {
		c := rest[0]
		if c == '\\' && len(rest) > 1 {
			c = rest[1]
		}
		if off < len(data) && data[off] == c {
			return off
		}
	}
	if off > 0 {
		off--
	}
	return off
}

func (p *treeParser) value(path string) (any, error) {
	p.pos[path] = skipSpace(p.data, int(p.dec.InputOffset()))
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if p.depth++; p.depth > maxDepth {
			return nil, &syntaxErr{off: skipSpace(p.data, int(p.dec.InputOffset())) - 1,
				msg: fmt.Sprintf("nested more than %d levels deep", maxDepth)}
		}
		defer func() { p.depth-- }()
		if t == '[' {
			arr := []any{}
			for i := 0; p.dec.More(); i++ {
				v, err := p.value(joinPath(path, strconv.Itoa(i)))
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := p.dec.Token()
			return arr, err
		}
		obj := newObject()
		for p.dec.More() {
			kt, err := p.dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string)
			v, err := p.value(joinPath(path, key))
			if err != nil {
				return nil, err
			}
			obj.set(key, v)
		}
		_, err := p.dec.Token()
		return obj, err
	default:
		return t, nil
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// skipSpace moves off past whitespace and the separators the decoder consumes silently.
func skipSpace(data []byte, off int) int {
	for off < len(data) && strings.IndexByte(" \t\r\n:,", data[off]) >= 0 {
		off++
	}
	return off
}

// lineCol converts a byte offset into a 1-based line and column (in characters).
func lineCol(data []byte, off int) (line, col int) {
	off = min(off, len(data))
	if off < 0 {
		return 0, 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// toTree converts a Go value to a tree through encoding/json (so json tags and
// omitempty apply exactly as they would when writing the file).
func toTree(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	t, _, err := parseTree(b)
	if err != nil {
		return nil, fmt.Errorf("re-read encoded config: %w", err)
	}
	return t, nil
}

// encodeTree writes a tree as indented JSON with a trailing newline. HTML characters are
// not escaped: the file is read by people, and "<" in a URL should stay "<".
func encodeTree(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v, "")
	b.WriteByte('\n')
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, indent string) {
	switch t := v.(type) {
	case *object:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range t.keys {
			b.WriteString(indent + "  ")
			writeString(b, k)
			b.WriteString(": ")
			writeValue(b, t.vals[k], indent+"  ")
			if i < len(t.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		if inline, ok := inlineList(t); ok {
			b.WriteString(inline) // short lists of scalars stay on one line, as people write them
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			b.WriteString(indent + "  ")
			writeValue(b, e, indent+"  ")
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	default:
		// Only parseTree builds trees, and it makes none of other types.
		b.WriteString("null")
	}
}

// inlineList renders a list of scalars on one line if it is short.
func inlineList(list []any) (string, bool) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range list {
		switch e.(type) {
		case *object, []any:
			return "", false
		}
		if i > 0 {
			b.WriteString(", ")
		}
		writeValue(&b, e, "")
	}
	b.WriteByte(']')
	return b.String(), b.Len() <= 72
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode adds a newline
}

// treeEqual compares two trees by JSON value (numbers by their float value, so 0.30 and
// 0.3 are equal).
func treeEqual(a, b any) bool {
	switch x := a.(type) {
	case *object:
		y, ok := b.(*object)
		if !ok || len(x.keys) != len(y.keys) {
			return false
		}
		for _, k := range x.keys {
			yv, ok := y.vals[k]
			if !ok || !treeEqual(x.vals[k], yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !treeEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		xf, err1 := x.Float64()
		yf, err2 := y.Float64()
		return err1 == nil && err2 == nil && xf == yf
	default:
		return reflect.DeepEqual(a, b)
	}
}
