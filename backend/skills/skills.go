// Package skills loads SKILL.md skills (docs/design/extensions.md#skills): Markdown instructions with
// YAML front matter (name, description, always, requirements bins/env) that
// the model reads when a task calls for them. Built-in skills ship embedded;
// a workspace skill (skills/<name>/SKILL.md) overrides a built-in of the same
// name. Unavailable skills are listed with what they miss; always-on skills
// are inlined into the system prompt; a skill can be disabled.
package skills

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"hearth/backend/internal/confined"
)

//go:embed builtin
var builtinFS embed.FS

// Sources of a skill.
const (
	SourceBuiltin   = "builtin"
	SourceWorkspace = "workspace"
)

// Skill is one loaded skill.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is "builtin" or "workspace".
	Source string `json:"source"`
	// Always-on skills are inlined into the system prompt.
	Always bool     `json:"always"`
	Bins   []string `json:"bins,omitempty"`
	Env    []string `json:"env,omitempty"`
	// Available is true when every required program is on PATH and every
	// required environment variable is set.
	Available   bool     `json:"available"`
	MissingBins []string `json:"missingBins,omitempty"`
	MissingEnv  []string `json:"missingEnv,omitempty"`
	Enabled     bool     `json:"enabled"`
	// Path is the SKILL.md file on disk (built-ins are written under
	// <workspace>/.hearth/skills so read_file can open them); Location is the
	// same path relative to the workspace, as the prompt shows it.
	Path     string `json:"path"`
	Location string `json:"location"`
	// Problem is why the SKILL.md could not be read (malformed front
	// matter); such a skill is listed but never offered to the model.
	Problem string `json:"problem,omitempty"`
	// Body is the Markdown after the front matter.
	Body string `json:"-"`
}

// Missing says what an unavailable skill lacks ("bin: ffmpeg, env: KEY").
func (s Skill) Missing() string {
	var parts []string
	for _, b := range s.MissingBins {
		parts = append(parts, "bin: "+b)
	}
	for _, e := range s.MissingEnv {
		parts = append(parts, "env: "+e)
	}
	return strings.Join(parts, ", ")
}

// frontMatter is the YAML header. Requirements may be given flat (bins, env),
// under requires, or in nanobot's metadata.nanobot.requires, so nanobot
// workspaces load as they are.
type frontMatter struct {
	Name        string       `yaml:"name"`
	Description string       `yaml:"description"`
	Always      bool         `yaml:"always"`
	Bins        stringList   `yaml:"bins"`
	Env         stringList   `yaml:"env"`
	Requires    requirements `yaml:"requires"`
	Metadata    struct {
		Nanobot struct {
			Always   bool         `yaml:"always"`
			Requires requirements `yaml:"requires"`
		} `yaml:"nanobot"`
	} `yaml:"metadata"`
}

type requirements struct {
	Bins stringList `yaml:"bins"`
	Env  stringList `yaml:"env"`
}

// stringList accepts a YAML list or a single string.
type stringList []string

func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.Value != "" {
			*l = []string{n.Value}
		}
		return nil
	}
	var s []string
	if err := n.Decode(&s); err != nil {
		return err
	}
	*l = s
	return nil
}

// parse reads a SKILL.md. dirName names the skill when the front matter
// does not. A file without front matter is a skill whose description is its
// first line of text.
func parse(data []byte, dirName string) (Skill, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	var fm frontMatter
	body := text
	if strings.HasPrefix(text, "---\n") {
		end := strings.Index(text[4:], "\n---")
		if end < 0 {
			return Skill{}, fmt.Errorf("front matter has no closing --- line (hint: end the YAML header with a line of three dashes)")
		}
		head := text[4 : 4+end]
		body = text[4+end+4:]
		_, body, _ = strings.Cut(body, "\n")
		if err := yaml.Unmarshal([]byte(head), &fm); err != nil {
			return Skill{}, fmt.Errorf("front matter is not valid YAML: %v (hint: quote values that contain a colon)", strings.TrimPrefix(err.Error(), "yaml: "))
		}
	}
	s := Skill{
		Name:        strings.TrimSpace(fm.Name),
		Description: strings.Join(strings.Fields(fm.Description), " "),
		Always:      fm.Always || fm.Metadata.Nanobot.Always,
		Body:        strings.TrimSpace(body),
	}
	s.Name = cmp.Or(s.Name, dirName)
	for _, l := range []stringList{fm.Bins, fm.Requires.Bins, fm.Metadata.Nanobot.Requires.Bins} {
		s.Bins = appendNew(s.Bins, l...)
	}
	for _, l := range []stringList{fm.Env, fm.Requires.Env, fm.Metadata.Nanobot.Requires.Env} {
		s.Env = appendNew(s.Env, l...)
	}
	if s.Description == "" {
		for line := range strings.SplitSeq(s.Body, "\n") {
			if t := strings.TrimSpace(strings.TrimLeft(line, "# ")); t != "" {
				s.Description = t
				break
			}
		}
	}
	return s, nil
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		a = strings.TrimSpace(a)
		if a != "" && !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}

// builtins reads the embedded skills.
func builtins() (map[string]Skill, []string) {
	out := map[string]Skill{}
	var warns []string
	entries, _ := fs.ReadDir(builtinFS, "builtin")
	for _, e := range entries {
		data, err := builtinFS.ReadFile("builtin/" + e.Name() + "/SKILL.md")
		if err != nil {
			continue
		}
		s, err := parse(data, e.Name())
		if err != nil {
			warns = append(warns, fmt.Sprintf("built-in skill %s: %v", e.Name(), err))
			continue
		}
		s.Source = SourceBuiltin
		out[s.Name] = s
	}
	return out, warns
}

// writeBuiltin puts a built-in's file under <workspace>/.hearth/skills so
// the model can read it with read_file like any workspace file; the copy is
// rewritten when Hearth's version of it changed.
func writeBuiltin(workspace, name string) (string, error) {
	data, err := builtinFS.ReadFile("builtin/" + name + "/SKILL.md")
	if err != nil {
		return "", err
	}
	rel := ".hearth/skills/" + name + "/SKILL.md"
	path := filepath.Join(workspace, filepath.FromSlash(rel))
	if old, err := readWorkspace(workspace, rel); err == nil && bytes.Equal(old, data) {
		return path, nil
	}
	if err := writeWorkspace(workspace, rel, data); err != nil {
		return "", fmt.Errorf("write built-in skill %s: %w", name, err)
	}
	return path, nil
}

// readWorkspace reads a file confined to the workspace (internal/confined):
// a SKILL.md that is a symlink out of it, or a hard link, is an error, not
// another file's content in the prompt.
func readWorkspace(ws, rel string) ([]byte, error) {
	r, err := confined.Open(ws, confined.Options{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadFile(rel, MaxSkillBytes)
}

// MaxSkillBytes bounds a SKILL.md (and the skills' state file): a larger one is
// skipped with a notice rather than put in every prompt.
const MaxSkillBytes = 256 << 10

// writeWorkspace replaces a file confined to the workspace: a .hearth or
// skills folder swapped for a symlink out is refused, not written through.
func writeWorkspace(ws, rel string, data []byte) error {
	if err := os.MkdirAll(ws, 0o700); err != nil {
		return err
	}
	r, err := confined.Open(ws, confined.Options{})
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = r.WriteFile(rel, data, 0o644, confined.WriteOptions{DirMode: 0o755})
	return err
}

func sortSkills(list []Skill) {
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
}
