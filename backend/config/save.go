package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/flock"
)

// ErrBrokenFile is wrapped by Save when the file on disk (or the file this Config came
// from) failed to load: Hearth never overwrites a config the user has to fix by hand.
var ErrBrokenFile = errors.New("config file has errors")

// Save writes the config to path atomically (temp file in the same directory, fsync,
// rename), mode 0600 in a 0700 directory, holding an advisory lock on path+".lock".
//
// It is a three-way merge: the base is the config as loaded, "ours" is c, "theirs" is the
// file on disk now. Only values the program changed are written; everything else stays
// as the file has it — unknown keys, key order, ${VAR} references and any edit made by
// hand since loading. Save refuses (ErrBrokenFile) when the file on disk does not load,
// or when c came from a failed Load, and refuses a config that does not Validate.
func (c *Config) Save(path string) error {
	if c.src != nil && c.src.failed != nil && c.src.path == path {
		return fmt.Errorf("save config %s: %w: %v (hint: fix the file by hand, then restart Hearth; it will not overwrite it)", path, ErrBrokenFile, c.src.failed)
	}
	c.normalize()
	if probs := c.Validate(); len(probs) > 0 {
		return fmt.Errorf("save config %s: invalid value: %s", path, probs[0])
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save config %s: create directory: %w", path, err)
	}
	unlock, err := flock.File(path + ".lock")
	if err != nil {
		return fmt.Errorf("save config %s: %w", path, err)
	}
	defer unlock()

	getenv := os.Getenv
	if c.src != nil && c.src.getenv != nil {
		getenv = c.src.getenv
	}
	var disk any
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		// What is on disk now must load (with the same environment as c did: a ${VAR}
		// may hold a URL that validation checks).
		if _, _, le := decode(path, data, getenv); le != nil {
			return fmt.Errorf("save config %s: %w: %v (hint: fix the file by hand; Hearth will not overwrite it)", path, ErrBrokenFile, le)
		}
		disk, _, _ = parseTree(data)
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("save config %s: read current file: %w", path, err)
	}

	ours, err := toTree(c)
	if err != nil {
		return fmt.Errorf("save config %s: %w", path, err)
	}
	var base any
	if c.src != nil {
		base = c.src.loaded
	}
	merged, ok := merge(reflect.TypeFor[Config](), disk, disk != nil, base, base != nil, ours, true)
	if _, isObj := merged.(*object); !ok || !isObj {
		merged = newObject() // nothing changed and no file yet: all defaults
	}
	if err := writeAtomic(path, encodeTree(merged), 0o600); err != nil {
		return fmt.Errorf("save config %s: %w", path, err)
	}
	c.src = &source{path: path, loaded: ours, unknown: c.UnknownKeys(), getenv: getenv}
	return nil
}

// merge combines theirs (the file on disk), base (as loaded) and ours (the program's
// config) for a value of Go type t. The rule: where ours equals base the program changed
// nothing, so theirs wins (it holds the user's text: references, formatting, unknown
// keys); elsewhere ours wins, recursing into objects and equal-length lists so that
// unchanged parts inside them are still taken from theirs.
func merge(t reflect.Type, theirs any, hasTheirs bool, base any, hasBase bool, ours any, hasOurs bool) (any, bool) {
	if hasBase == hasOurs && (!hasOurs || treeEqual(base, ours)) {
		return theirs, hasTheirs
	}
	if !hasOurs {
		return nil, false // the program removed it (an omitempty field it cleared)
	}
	to, _ := theirs.(*object)
	bo, _ := base.(*object)
	oo, isObj := ours.(*object)
	switch {
	case t.Kind() == reflect.Struct && isObj:
		out := newObject()
		for _, k := range keysOf(to) {
			f, known := fieldByJSONName(t, k)
			if !known {
				out.set(k, to.vals[k]) // unknown key: kept exactly
				continue
			}
			bv, bok := bo.get(k)
			ov, ook := oo.get(k)
			if v, ok := merge(f.Type, to.vals[k], true, bv, bok, ov, ook); ok {
				out.set(k, v)
			}
		}
		for _, k := range oo.keys {
			if _, done := to.get(k); done {
				continue
			}
			f, _ := fieldByJSONName(t, k)
			bv, bok := bo.get(k)
			if v, ok := merge(f.Type, nil, false, bv, bok, oo.vals[k], true); ok {
				out.set(k, v)
			}
		}
		return out, true
	case t.Kind() == reflect.Map && isObj:
		out := newObject()
		for _, k := range keysOf(to) {
			bv, bok := bo.get(k)
			ov, ook := oo.get(k)
			if !ook && !bok {
				out.set(k, to.vals[k]) // added on disk after loading: not ours to drop
				continue
			}
			if v, ok := merge(t.Elem(), to.vals[k], true, bv, bok, ov, ook); ok {
				out.set(k, v)
			}
		}
		for _, k := range oo.keys {
			if _, done := to.get(k); done {
				continue
			}
			bv, bok := bo.get(k)
			if v, ok := merge(t.Elem(), nil, false, bv, bok, oo.vals[k], true); ok {
				out.set(k, v)
			}
		}
		return out, true
	case t.Kind() == reflect.Slice:
		ta, _ := theirs.([]any)
		ba, _ := base.([]any)
		oa, _ := ours.([]any)
		if !hasTheirs || len(ta) != len(ba) {
			return ours, true
		}
		out := make([]any, len(oa))
		if len(ba) == len(oa) {
			for i := range oa { // same length: element i was edited in place
				out[i], _ = merge(t.Elem(), ta[i], true, ba[i], true, oa[i], true)
			}
			return out, true
		}
		// Elements added or removed: an element the program kept unchanged is written as
		// the file had it (an "${TOKEN}" argument must not become the token).
		used := make([]bool, len(ba))
		for i, ov := range oa {
			out[i] = ov
			for j, bv := range ba {
				if !used[j] && treeEqual(bv, ov) {
					used[j], out[i] = true, ta[j]
					break
				}
			}
		}
		return out, true
	}
	return ours, true
}

func keysOf(o *object) []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// writeAtomic writes data to a temp file beside path, fsyncs it, renames it over path and
// fsyncs the directory, so a crash leaves either the old or the new file, never a torn one.
func writeAtomic(path string, data []byte, mode os.FileMode) error {
	if err := atomicfile.WriteExact(path, data, mode); err != nil {
		return fmt.Errorf("replace %s: %w", filepath.Base(path), err)
	}
	atomicfile.SyncDir(filepath.Dir(path))
	return nil
}
