package config

import (
	"errors"
	"fmt"
	"os"

	"hearth/backend/internal/safefile"
)

// Raw is a config file as written, before ${VAR} expansion: what a value says
// in the file rather than what it stands for (an API key typed in by hand
// versus a "${OPENAI_API_KEY}" reference). Only JSON syntax is checked.
type Raw struct {
	tree any
}

// ReadRaw reads the config file at path. A missing file is an empty Raw and no
// error; a file that is not JSON is an error naming the file.
func ReadRaw(path string) (*Raw, error) {
	data, err := safefile.ReadFile(path, MaxFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		return &Raw{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	tree, _, err := parseTree(data)
	if err != nil {
		return nil, fmt.Errorf("read config %s: invalid JSON: %w", path, err)
	}
	return &Raw{tree: tree}, nil
}

// at walks the objects named by keys (each one key, so names holding dots are fine).
func (r *Raw) at(keys []string) (any, bool) {
	if r == nil {
		return nil, false
	}
	v := r.tree
	for _, k := range keys {
		o, ok := v.(*object)
		if !ok {
			return nil, false
		}
		if v, ok = o.get(k); !ok {
			return nil, false
		}
	}
	return v, true
}

// String is the string at keys as the file has it; ok is false when there is
// none (missing, null or not a string).
func (r *Raw) String(keys ...string) (s string, ok bool) {
	v, _ := r.at(keys)
	s, ok = v.(string)
	return s, ok
}

// Members are the names in the object at keys, in file order (nil when there
// is no object there).
func (r *Raw) Members(keys ...string) []string {
	v, _ := r.at(keys)
	o, ok := v.(*object)
	if !ok {
		return nil
	}
	return append([]string(nil), o.keys...)
}
