package config

import (
	"path/filepath"
	"slices"
	"strconv"

	"hearth/backend/i18n"
)

// Knowledge lists the folders Hearth indexes for recall (docs/files.md,
// "Knowledge folders").
type Knowledge struct {
	Folders []KnowledgeFolder `json:"folders"`
}

// KnowledgeFolder is one folder of the person's files. Mode "always" has its
// passages searched for every message (the recall block); "ask" only when the
// model searches (memory_search).
type KnowledgeFolder struct {
	Path  string `json:"path"`
	Mode  string `json:"mode"`
	Added string `json:"added"` // RFC 3339, when it was added
	// Writable lets the file tools and commands change the folder's files, as if it
	// were in tools.allowedPaths (Settings › Knowledge). Off by default: read-only.
	Writable bool `json:"writable,omitempty"`
}

// Knowledge folder modes.
const (
	KnowledgeAlways = "always"
	KnowledgeAsk    = "ask"
)

// validateKnowledge checks what the file alone can tell: each path absolute,
// not the file system's root, listed once and not inside another listed
// folder (its files would be indexed twice). That it exists and is not
// Hearth's own data is checked when a folder is added (backend/knowledge).
func (c *Config) validateKnowledge(ps *[]Problem) {
	for i, f := range c.Knowledge.Folders {
		key := "knowledge.folders[" + strconv.Itoa(i) + "]"
		p := filepath.Clean(f.Path)
		switch {
		case !filepath.IsAbs(f.Path):
			*ps = append(*ps, NewProblem(key+".path", i18n.P("config.knowledge.relative", "path", f.Path)))
			continue
		case p == filepath.Dir(p):
			*ps = append(*ps, NewProblem(key+".path", i18n.P("config.knowledge.root", "path", f.Path)))
			continue
		}
		for _, o := range c.Knowledge.Folders[:i] {
			q := filepath.Clean(o.Path)
			if rel, err := filepath.Rel(q, p); err == nil && (rel == "." || filepath.IsLocal(rel)) {
				*ps = append(*ps, NewProblem(key+".path", i18n.P("config.knowledge.inside", "path", f.Path, "other", o.Path)))
			} else if rel, err := filepath.Rel(p, q); err == nil && filepath.IsLocal(rel) {
				*ps = append(*ps, NewProblem(key+".path", i18n.P("config.knowledge.inside", "path", o.Path, "other", f.Path)))
			}
		}
		oneOf(ps, key+".mode", f.Mode, KnowledgeAlways, KnowledgeAsk)
	}
}

// KnowledgeReadOnly are the listed folders the file tools and commands may read
// but not write: all of them but those the person let them change (Writable) and
// those inside a tools.allowedPaths entry (the person allowed more there).
func (c *Config) KnowledgeReadOnly() []string {
	var out []string
	for _, f := range c.Knowledge.Folders {
		p := filepath.Clean(f.Path)
		if !f.Writable && !slices.ContainsFunc(c.Tools.AllowedPaths, func(a string) bool {
			rel, err := filepath.Rel(filepath.Clean(a), p)
			return err == nil && (rel == "." || filepath.IsLocal(rel))
		}) {
			out = append(out, p)
		}
	}
	return out
}

// WritablePaths are the folders besides the workspace the file tools and commands
// may write: tools.allowedPaths and the knowledge folders made writable.
func (c *Config) WritablePaths() []string {
	out := slices.Clone(c.Tools.AllowedPaths)
	for _, f := range c.Knowledge.Folders {
		if f.Writable {
			out = append(out, filepath.Clean(f.Path))
		}
	}
	return out
}
