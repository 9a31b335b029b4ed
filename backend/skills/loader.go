package skills

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Options configure a Loader.
type Options struct {
	// Workspace holds skills/<name>/SKILL.md and .hearth/skills.json.
	Workspace string
	// LookPath finds a required program; nil means exec.LookPath.
	LookPath func(string) (string, error)
	// Getenv reads a required variable; nil means os.Getenv.
	Getenv func(string) string
	// OnWarning is told about each new problem (a malformed SKILL.md) once.
	OnWarning func(string)
}

// StateFile keeps the names of disabled skills, relative to the workspace.
const StateFile = ".hearth/skills.json"

// Loader lists the skills of a workspace. It caches the parsed files and
// reloads when a SKILL.md or the state file changed; it is safe for
// concurrent use.
type Loader struct {
	opts Options

	mu     sync.Mutex
	key    uint64
	cached []Skill
	warns  []string
	told   map[string]bool
}

// New returns a Loader for opts.Workspace.
func New(opts Options) *Loader {
	if opts.LookPath == nil {
		opts.LookPath = exec.LookPath
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	return &Loader{opts: opts, told: map[string]bool{}}
}

func (l *Loader) skillsDir() string { return filepath.Join(l.opts.Workspace, "skills") }

// fingerprint hashes what the list depends on: every SKILL.md's size and
// time, and the state file's.
func (l *Loader) fingerprint() uint64 {
	h := fnv.New64a()
	add := func(p string) {
		fi, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(h, "%s|-\n", p)
			return
		}
		fmt.Fprintf(h, "%s|%d|%d\n", p, fi.Size(), fi.ModTime().UnixNano())
	}
	entries, _ := os.ReadDir(l.skillsDir())
	for _, e := range entries {
		add(filepath.Join(l.skillsDir(), e.Name(), "SKILL.md"))
	}
	add(filepath.Join(l.opts.Workspace, StateFile))
	// The built-ins' copies, so one deleted by hand is written again.
	builtinNames, _ := fs.ReadDir(builtinFS, "builtin")
	for _, e := range builtinNames {
		add(filepath.Join(l.opts.Workspace, ".hearth", "skills", e.Name(), "SKILL.md"))
	}
	return h.Sum64()
}

// List returns every skill, by name: workspace skills, and built-ins that no
// workspace skill of the same name overrides. A malformed SKILL.md is listed
// with Problem set and never reaches the prompt. Availability is checked on
// each call (PATH and the environment may change).
func (l *Loader) List() ([]Skill, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if key := l.fingerprint(); key != l.key || l.cached == nil {
		l.cached, l.warns = l.load()
		l.key = key
		for _, w := range l.warns {
			if !l.told[w] && l.opts.OnWarning != nil {
				l.opts.OnWarning(w)
			}
			l.told[w] = true
		}
	}
	out := make([]Skill, len(l.cached))
	for i, s := range l.cached {
		s.MissingBins, s.MissingEnv = nil, nil
		for _, b := range s.Bins {
			if _, err := l.opts.LookPath(b); err != nil {
				s.MissingBins = append(s.MissingBins, b)
			}
		}
		for _, e := range s.Env {
			if l.opts.Getenv(e) == "" {
				s.MissingEnv = append(s.MissingEnv, e)
			}
		}
		s.Available = s.Problem == "" && len(s.MissingBins) == 0 && len(s.MissingEnv) == 0
		out[i] = s
	}
	return out, append([]string(nil), l.warns...)
}

func (l *Loader) load() ([]Skill, []string) {
	all, warns := builtins()
	disabled := l.disabled()
	entries, err := os.ReadDir(l.skillsDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		warns = append(warns, fmt.Sprintf("skills: cannot read %s: %v", l.skillsDir(), err))
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(l.skillsDir(), e.Name(), "SKILL.md")
		data, err := readWorkspace(l.opts.Workspace, "skills/"+e.Name()+"/SKILL.md")
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				warns = append(warns, fmt.Sprintf("skill %s: %v", e.Name(), err))
			}
			continue
		}
		rel := filepath.ToSlash(filepath.Join("skills", e.Name(), "SKILL.md"))
		s, err := parse(data, e.Name())
		if err != nil {
			msg := fmt.Sprintf("skill %s (%s) was not loaded: %v", e.Name(), rel, err)
			warns = append(warns, msg)
			s = Skill{Name: e.Name(), Problem: err.Error()}
			if _, shadows := all[e.Name()]; shadows {
				continue // the built-in stays usable rather than a broken override
			}
		}
		s.Source, s.Path, s.Location = SourceWorkspace, path, rel
		all[s.Name] = s
	}
	list := make([]Skill, 0, len(all))
	for name, s := range all {
		if s.Source == SourceBuiltin {
			path, err := writeBuiltin(l.opts.Workspace, name)
			if err != nil {
				warns = append(warns, err.Error())
				continue
			}
			s.Path = path
			s.Location = filepath.ToSlash(filepath.Join(".hearth", "skills", name, "SKILL.md"))
		}
		s.Enabled = !disabled[name]
		list = append(list, s)
	}
	sortSkills(list)
	return list, warns
}

type state struct {
	Disabled []string `json:"disabled"`
}

func (l *Loader) disabled() map[string]bool {
	out := map[string]bool{}
	data, err := readWorkspace(l.opts.Workspace, StateFile)
	if err != nil {
		return out
	}
	var st state
	if json.Unmarshal(data, &st) != nil {
		return out
	}
	for _, n := range st.Disabled {
		out[n] = true
	}
	return out
}

// SetEnabled enables or disables the named skill; a disabled skill is left
// out of the prompt. The choice is kept in <workspace>/.hearth/skills.json.
func (l *Loader) SetEnabled(name string, enabled bool) error {
	list, _ := l.List()
	found := false
	for _, s := range list {
		found = found || s.Name == name
	}
	if !found {
		names := make([]string, len(list))
		for i, s := range list {
			names[i] = s.Name
		}
		return fmt.Errorf("no skill named %q (skills: %s)", name, strings.Join(names, ", "))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	dis := l.disabled()
	if enabled {
		delete(dis, name)
	} else {
		dis[name] = true
	}
	st := state{Disabled: slices.AppendSeq([]string{}, maps.Keys(dis))}
	slices.Sort(st.Disabled)
	data, _ := json.MarshalIndent(st, "", "  ")
	if err := writeWorkspace(l.opts.Workspace, StateFile, append(data, '\n')); err != nil {
		return fmt.Errorf("save skill state: %w", err)
	}
	l.key = 0 // reload on the next List
	return nil
}

// Summary is one skill as the system prompt lists it (docs/design/extensions.md#skills): enough
// for the model to decide to read the skill's SKILL.md, and to know what is
// missing before an unavailable one can be used.
type Summary struct {
	Name        string
	Description string
	// Location is the SKILL.md path the model reads with read_file.
	Location  string
	Available bool
	// Missing names the requirements that are not met ("bin: ffmpeg, env:
	// OPENAI_API_KEY"); empty when available.
	Missing string
}

// Prompt gives the system prompt its skills (docs/design/prompt-size.md#the-system-prompt): the bodies of the
// enabled, available always-on skills, and the summary of every other
// enabled skill (unavailable ones say what they miss).
func (l *Loader) Prompt() (always []string, summary []Summary) {
	list, _ := l.List()
	for _, s := range list {
		if !s.Enabled || s.Problem != "" {
			continue
		}
		if s.Always && s.Available {
			always = append(always, s.Body)
			continue
		}
		summary = append(summary, Summary{Name: s.Name, Description: s.Description,
			Location: s.Location, Available: s.Available, Missing: s.Missing()})
	}
	return always, summary
}
