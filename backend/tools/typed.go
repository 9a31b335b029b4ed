package tools

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Def describes a tool whose arguments are the Go struct P. The schema the
// model sees comes from P (jsonschema.For): a field's `json` tag names it
// (omitempty or omitzero makes it optional), its `jsonschema` tag is its
// description, and `min`, `max` and `enum` tags (enum values comma-separated)
// add what jsonschema tags cannot say. Keep descriptions short: every word is
// sent with every request.
type Def[P any] struct {
	Name        string
	Description string
	// Short is a one-line form of Description, sent instead of it when the
	// model's context window is too small for every tool in full.
	Short string
	// ReadOnly tools have no side effects and may run concurrently.
	ReadOnly bool
	// Exclusive tools never run at the same time as any other tool.
	Exclusive bool
	// Run executes a call with its decoded arguments.
	Run func(ctx context.Context, p P) (Result, error)
	// Timeout, if set, gives a call's time limit from its arguments (exec's
	// own timeout); nil or zero means the Registry's default.
	Timeout func(p P) time.Duration
}

// New builds a tool from d. The Registry decodes each call's arguments
// strictly into one P (unknown, duplicate and case-variant keys are errors
// the model reads) and hands that same value to the approval gate, the audit
// log and Run. A P that has no schema makes Register fail.
func New[P any](d Def[P]) Tool {
	t := &typed[P]{def: d}
	t.wire, t.strict, t.err = schemaFor[P]()
	return t
}

type typed[P any] struct {
	def Def[P]
	// wire is sent to the model: the strict schema without
	// "additionalProperties": false, which would cost tokens on every request
	// and which Ollama drops anyway; the Registry enforces it instead.
	wire, strict *jsonschema.Schema
	err          error
}

// decoder is implemented by tools built with New: Register validates with
// their strict schema and Prepare decodes into their own type.
type decoder interface {
	strictSchema() (*jsonschema.Schema, error)
	decode(canonical []byte) (any, error)
}

var (
	_ decoder   = (*typed[struct{}])(nil)
	_ Timeouter = (*typed[struct{}])(nil)
)

func (t *typed[P]) Name() string                   { return t.def.Name }
func (t *typed[P]) Description() string            { return t.def.Description }
func (t *typed[P]) ShortDescription() string       { return t.def.Short }
func (t *typed[P]) Parameters() *jsonschema.Schema { return t.wire }
func (t *typed[P]) ReadOnly() bool                 { return t.def.ReadOnly }
func (t *typed[P]) Exclusive() bool                { return t.def.Exclusive }

func (t *typed[P]) strictSchema() (*jsonschema.Schema, error) { return t.strict, t.err }

// decode reads JSON that Prepare has already checked key by key against the
// strict schema, so encoding/json's case-insensitive field matching has
// nothing left to be lenient about.
func (t *typed[P]) decode(canonical []byte) (any, error) {
	p := new(P)
	dec := json.NewDecoder(bytes.NewReader(canonical))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, err
	}
	return p, nil
}

func (t *typed[P]) Execute(ctx context.Context, args Args) (Result, error) {
	p, ok := args.value.(*P)
	if !ok || p == nil {
		return Result{}, fmt.Errorf("%s: arguments were not decoded for this tool (got %T); this is a bug in Hearth", t.def.Name, args.value)
	}
	return t.def.Run(ctx, *p)
}

func (t *typed[P]) Timeout(args Args) time.Duration {
	p, ok := args.value.(*P)
	if t.def.Timeout == nil || !ok || p == nil {
		return 0
	}
	return t.def.Timeout(*p)
}

// schemaFor derives P's schema and applies the min, max and enum tags.
func schemaFor[P any]() (wire, strict *jsonschema.Schema, err error) {
	s, err := jsonschema.For[P](nil)
	if err != nil {
		return nil, nil, fmt.Errorf("tool parameters: %w", err)
	}
	rt := reflect.TypeFor[P]()
	if rt.Kind() != reflect.Struct || s.Type != "object" {
		return nil, nil, fmt.Errorf("tool parameters must be a struct, not %s", rt)
	}
	dropNull(s)
	for _, f := range reflect.VisibleFields(rt) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		name = cmp.Or(name, f.Name)
		prop := s.Properties[name]
		if prop == nil || !f.IsExported() {
			continue
		}
		if err := applyTags(prop, f.Tag); err != nil {
			return nil, nil, fmt.Errorf("tool parameters: field %s: %w", f.Name, err)
		}
	}
	w := *s
	w.AdditionalProperties = nil
	return &w, s, nil
}

func applyTags(s *jsonschema.Schema, tag reflect.StructTag) error {
	for _, k := range []string{"min", "max"} {
		v, ok := tag.Lookup(k)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("%s tag %q: %w", k, v, err)
		}
		if k == "min" {
			s.Minimum = &f
		} else {
			s.Maximum = &f
		}
	}
	if v, ok := tag.Lookup("enum"); ok {
		for _, e := range strings.Split(v, ",") {
			s.Enum = append(s.Enum, e)
		}
	}
	return nil
}

// dropNull turns For's ["null", T] (pointers, slices) into plain T: an absent
// field already means "not given", and a type list costs tokens and puzzles
// small models.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	dropNull(s.Items)
	for _, p := range s.Properties {
		dropNull(p)
	}
}
