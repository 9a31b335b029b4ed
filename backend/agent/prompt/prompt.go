package prompt

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hearth/backend/internal/safefile"
	"hearth/backend/skills"
)

// SectionSep joins the sections of the system prompt (docs/design/prompt-size.md#the-system-prompt).
const SectionSep = "\n\n---\n\n"

// bootstrapFiles are the persona files read into the system prompt, in order
// (nanobot's layout, so an existing nanobot workspace works as is). A function
// returning an array value keeps the list immutable.
func bootstrapFiles() [5]string {
	return [5]string{"AGENTS.md", "SOUL.md", "USER.md", "TOOLS.md", "IDENTITY.md"}
}

// BootstrapFiles lists the workspace files (relative, slash-separated) that
// the system prompt includes before memory, in the order it includes them.
func BootstrapFiles() []string { a := bootstrapFiles(); return a[:] }

// MemoryFile is the long-term memory file, always in the prompt (docs/design/memory.md#memory-files).
const MemoryFile = "memory/MEMORY.md"

// DailyNote is the workspace-relative path of the daily note of day t.
func DailyNote(t time.Time) string { return "memory/" + t.Format("2006-01-02") + ".md" }

// racyWindow is how close to its last verification a file's mtime may be
// before its stat data is not trusted alone. Filesystems with coarse
// timestamps (1–2 s on FAT, HFS+) let a quick same-size edit keep size and
// mtime; like git's "racily clean" entries, such files are content-hashed
// until their mtime is safely in the past.
const racyWindow = 2 * time.Second

// SkillsFunc gives the prompt its skills (skills.Loader.Prompt): the bodies of the
// always-on ones and the summaries of the rest.
type SkillsFunc func() (always []string, summary []skills.Summary)

// FS is the file access the Builder needs; tests inject one to count reads.
// Names are OS paths.
type FS interface {
	Stat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
}

type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }
func (osFS) ReadFile(name string) ([]byte, error) {
	// Non-blocking, a regular file, bounded: the workspace is the agent's to write,
	// and a pipe or a huge file put in AGENTS.md's place must not hang or sink a turn.
	return safefile.ReadFile(name, maxFileBytes)
}

// maxFileBytes bounds a file the prompt reads: far more than a prompt can hold.
const maxFileBytes = 4 << 20

// Options configure a Builder. Only Workspace is required.
type Options struct {
	// Workspace is the workspace folder (absolute).
	Workspace string
	// OS names the operating system for the model; empty means OSName().
	OS string
	// TimeZone is the IANA zone name shown in the prompt and used for the
	// date of today's note; empty means LocalZoneName().
	TimeZone string
	// Now is the clock (for today's note); nil means time.Now.
	Now func() time.Time
	// Skills returns the texts of always-on skills and the summaries of all
	// skills; nil means none. It is called on every SystemPrompt, maybe from
	// several goroutines, so it should be cheap (the skills loader caches) and
	// safe for concurrent use.
	Skills SkillsFunc
	// FS reads the files; nil means the OS.
	FS FS
}

// fileState is what the cache knows about one prompt file.
type fileState struct {
	rel     string
	exists  bool
	size    int64
	mtime   int64
	ino     uint64
	ctime   int64
	hash    uint64
	checked time.Time // wall time the content was last read or verified
	text    string    // cleaned content, "" when missing or empty
}

// Builder builds the system prompt and rebuilds it only when one of its files,
// the date or the skills changed. It is safe for concurrent use.
type Builder struct {
	opts Options
	loc  *time.Location
	fs   FS

	mu        sync.Mutex
	files     map[string]*fileState
	date      string
	skillsKey uint64
	prompt    string
	valid     bool
}

// New returns a Builder for a workspace.
func New(opts Options) (*Builder, error) {
	if opts.Workspace == "" {
		return nil, errors.New("prompt builder: empty workspace path")
	}
	if opts.OS == "" {
		opts.OS = OSName()
	}
	if opts.TimeZone == "" {
		opts.TimeZone = LocalZoneName()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	b := &Builder{opts: opts, fs: opts.FS, files: map[string]*fileState{}}
	b.fs = cmp.Or[FS](b.fs, osFS{})
	// The zone name is shown to the model as given; the date of today's note
	// follows it when Go knows the zone, else the clock's own location.
	if loc, err := time.LoadLocation(opts.TimeZone); err == nil {
		b.loc = loc
	}
	return b, nil
}

// SystemPrompt returns the system prompt, rebuilt only when something it is
// made of changed. A file that exists but cannot be read is left out and
// reported in the error; the returned prompt is still usable, so the caller
// can warn and carry on rather than stop the chat over one unreadable file.
func (b *Builder) SystemPrompt() (string, error) {
	now := b.opts.Now()
	if b.loc != nil {
		now = now.In(b.loc)
	}
	date := now.Format("2006-01-02")
	var always []string
	var summary []skills.Summary
	if b.opts.Skills != nil {
		always, summary = b.opts.Skills()
	}
	skillsKey := hashSkills(always, summary)

	b.mu.Lock()
	defer b.mu.Unlock()
	boot := bootstrapFiles()
	rels := make([]string, 0, len(boot)+2)
	rels = append(rels, boot[:]...)
	rels = append(rels, MemoryFile, DailyNote(now))

	changed := !b.valid || date != b.date || skillsKey != b.skillsKey
	var errs []error
	for _, rel := range rels {
		c, err := b.refresh(rel)
		if err != nil {
			errs = append(errs, err)
		}
		changed = changed || c
	}
	if !changed {
		return b.prompt, nil
	}
	// Forget notes of other days so the map does not grow day after day.
	for rel := range b.files {
		if strings.HasPrefix(rel, "memory/") && rel != MemoryFile && rel != rels[len(rels)-1] {
			delete(b.files, rel)
		}
	}
	b.prompt = b.assemble(rels, always, summary)
	b.date, b.skillsKey = date, skillsKey
	// A build with an unreadable file is not cached: the next call retries.
	b.valid = len(errs) == 0
	if len(errs) > 0 {
		return b.prompt, fmt.Errorf("system prompt: %w", errors.Join(errs...))
	}
	return b.prompt, nil
}

// refresh brings the cached state of one file up to date and reports whether
// its content changed. It reads the file only when stat data differ, or when
// the file was modified so recently that stat data cannot be trusted.
func (b *Builder) refresh(rel string) (changed bool, err error) {
	path := filepath.Join(b.opts.Workspace, filepath.FromSlash(rel))
	st := b.files[rel]
	if st == nil {
		st = &fileState{rel: rel}
		b.files[rel] = st
		changed = true
	}
	fi, serr := b.fs.Stat(path)
	if serr != nil || !fi.Mode().IsRegular() {
		if serr != nil && !errors.Is(serr, fs.ErrNotExist) {
			*st = fileState{rel: rel}
			return true, fmt.Errorf("stat %s: %w", rel, serr)
		}
		// Missing (or not a file, e.g. a folder named like one): skipped.
		if st.exists || changed {
			*st = fileState{rel: rel}
			return true, nil
		}
		return false, nil
	}
	ino, ctime := sysStat(fi)
	mtime := fi.ModTime().UnixNano()
	same := st.exists && st.size == fi.Size() && st.mtime == mtime && st.ino == ino && st.ctime == ctime
	wall := time.Now()
	if same && fi.ModTime().Before(st.checked.Add(-racyWindow)) {
		return changed, nil
	}
	data, rerr := b.fs.ReadFile(path)
	if rerr != nil {
		if errors.Is(rerr, fs.ErrNotExist) {
			*st = fileState{rel: rel}
			return true, nil
		}
		*st = fileState{rel: rel}
		return true, fmt.Errorf("read %s: %w", rel, rerr)
	}
	h := fnv.New64a()
	_, _ = h.Write(data)
	sum := h.Sum64()
	if same && sum == st.hash {
		st.checked = wall
		return changed, nil
	}
	*st = fileState{rel: rel, exists: true, size: fi.Size(), mtime: mtime, ino: ino, ctime: ctime,
		hash: sum, checked: wall, text: cleanFile(string(data))}
	return true, nil
}

// assemble joins the sections in the documented order, leaving out empty ones
// (docs/design/prompt-size.md#the-system-prompt).
func (b *Builder) assemble(rels []string, always []string, summary []skills.Summary) string {
	sections := make([]string, 0, 5)
	sections = append(sections, identity(b.opts.OS, b.opts.TimeZone, b.opts.Workspace))

	var boot []string
	for _, rel := range bootstrapFiles() {
		if t := b.files[rel].text; t != "" {
			boot = append(boot, "## "+rel+"\n\n"+t)
		}
	}
	if len(boot) > 0 {
		sections = append(sections, strings.Join(boot, "\n\n"))
	}

	mem, note := b.files[MemoryFile].text, b.files[rels[len(rels)-1]]
	if mem != "" || note.text != "" {
		var m strings.Builder
		m.WriteString("# Memory")
		if mem != "" {
			m.WriteString("\n\n## Long-term memory (" + MemoryFile + ")\n\n" + mem)
		}
		if note.text != "" {
			m.WriteString("\n\n## Today's notes (" + note.rel + ")\n\n" + note.text)
		}
		sections = append(sections, m.String())
	}

	var act []string
	for _, s := range always {
		if s = strings.TrimSpace(s); s != "" {
			act = append(act, s)
		}
	}
	if len(act) > 0 {
		sections = append(sections, "# Active skills\n\n"+strings.Join(act, "\n\n"))
	}
	if s := skillsXML(summary); s != "" {
		sections = append(sections, s)
	}
	return strings.Join(sections, SectionSep)
}

// cleanFile prepares a workspace file for the prompt. HTML comments are notes
// for the human who edits the file (the templates use them to explain each
// file), so they are cut; a file left with nothing but headings says nothing
// to the model and is skipped like an empty one. Both save tokens on every
// call with the default templates.
func cleanFile(s string) string {
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+4:], "-->")
		if j < 0 {
			break // an unterminated comment is left as the user wrote it
		}
		s = s[:i] + s[i+4+j+3:]
	}
	s = strings.TrimSpace(s)
	// Comments removed from between lines leave runs of blank lines behind.
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	for line := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			return s
		}
	}
	return ""
}

// hashSkills fingerprints the skills so a change rebuilds the prompt without
// keeping a copy of every text. FNV-1a is written out over the strings
// because hash.Hash would copy each one into a []byte on every call.
func hashSkills(always []string, summary []skills.Summary) uint64 {
	h := uint64(14695981039346656037)
	w := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff // a separator no UTF-8 text contains
		h *= 1099511628211
	}
	for _, s := range always {
		w(s)
	}
	w("\x01")
	for _, s := range summary {
		w(s.Name)
		w(s.Description)
		w(s.Location)
		w(s.Missing)
		if s.Available {
			w("1")
		} else {
			w("0")
		}
	}
	return h
}
