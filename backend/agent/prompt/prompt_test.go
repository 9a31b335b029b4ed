package prompt

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // zones for the date tests, whatever the machine has

	"hearth/backend/skills"
)

// past is an mtime far outside the racy window, so the cache trusts stat data
// and a second build must not read anything.
var past = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func writeFile(t testing.TB, dir, rel, content string, mtime time.Time) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if !mtime.IsZero() {
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

// countFS reads the real files and counts reads per file. With noSys it hides
// inode and ctime, as on filesystems that have none. fail makes a file's stat
// fail with the given error.
type countFS struct {
	mu    sync.Mutex
	reads map[string]int
	noSys bool
	fail  map[string]error
}

type plainInfo struct{ fs.FileInfo }

func (plainInfo) Sys() any { return nil }

func (c *countFS) Stat(name string) (fs.FileInfo, error) {
	if err := c.fail[filepath.Base(name)]; err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	fi, err := os.Stat(name)
	if err != nil || !c.noSys {
		return fi, err
	}
	return plainInfo{fi}, nil
}

func (c *countFS) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	if c.reads == nil {
		c.reads = map[string]int{}
	}
	c.reads[filepath.Base(name)]++
	c.mu.Unlock()
	return os.ReadFile(name)
}

func (c *countFS) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.reads {
		n += v
	}
	return n
}

func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

func newBuilder(t *testing.T, opts Options) *Builder {
	t.Helper()
	if opts.OS == "" {
		opts.OS = "Linux"
	}
	if opts.TimeZone == "" {
		opts.TimeZone = "UTC"
	}
	if opts.Now == nil {
		opts.Now = fixedClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	}
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustPrompt(t *testing.T, b *Builder) string {
	t.Helper()
	s, err := b.SystemPrompt()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSectionsInOrder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range BootstrapFiles() {
		writeFile(t, dir, f, "# "+f+"\n\ncontent of "+f, past)
	}
	writeFile(t, dir, MemoryFile, "# Memory\n\nThe user likes tea.", past)
	writeFile(t, dir, "memory/2026-03-01.md", "Bought milk.", past)
	b := newBuilder(t, Options{Workspace: dir, TimeZone: "Europe/Berlin", Skills: func() ([]string, []skills.Summary) {
		return []string{"# Memory skill\n\nRemember things."}, []skills.Summary{
			{Name: "weather", Description: "Get the weather <fast> & free", Location: "skills/weather/SKILL.md", Available: true},
			{Name: "video", Description: "Cut videos", Location: "skills/video/SKILL.md", Missing: "bin: ffmpeg"},
		}
	}})
	got := mustPrompt(t, b)
	sections := strings.Split(got, SectionSep)
	wantHeads := []string{"# Hearth", "## AGENTS.md", "# Memory", "# Active skills", "# Skills"}
	if len(sections) != len(wantHeads) {
		t.Fatalf("got %d sections, want %d:\n%s", len(sections), len(wantHeads), got)
	}
	for i, h := range wantHeads {
		if !strings.HasPrefix(sections[i], h+"\n") {
			t.Errorf("section %d starts %q, want %q", i, firstLine(sections[i]), h)
		}
	}
	for _, want := range []string{"OS: Linux", "Time zone: Europe/Berlin", "Workspace: " + dir, "never guess", "Read a file before you edit it", "Never invent a tool result", "Ask before deleting", "is data"} {
		if !strings.Contains(sections[0], want) {
			t.Errorf("identity lacks %q", want)
		}
	}
	last := -1
	for _, f := range BootstrapFiles() {
		i := strings.Index(sections[1], "## "+f+"\n\n# "+f+"\n\ncontent of "+f)
		if i <= last {
			t.Errorf("bootstrap file %s at %d, after %d", f, i, last)
		}
		last = i
	}
	mem := sections[2]
	if i, j := strings.Index(mem, "The user likes tea."), strings.Index(mem, "Bought milk."); i < 0 || j < i || !strings.Contains(mem, "(memory/2026-03-01.md)") {
		t.Errorf("memory section wrong:\n%s", mem)
	}
	if !strings.Contains(sections[3], "Remember things.") {
		t.Errorf("always-on skill missing:\n%s", sections[3])
	}
	xml := sections[4]
	for _, want := range []string{
		"<skills>\n<skill name=\"weather\" location=\"skills/weather/SKILL.md\">Get the weather &lt;fast&gt; &amp; free</skill>\n",
		"<skill name=\"video\" location=\"skills/video/SKILL.md\" available=\"false\" missing=\"bin: ffmpeg\">Cut videos</skill>\n</skills>",
	} {
		if !strings.Contains(xml, want) {
			t.Errorf("skills XML lacks %q:\n%s", want, xml)
		}
	}
	if strings.Contains(got, "12:00") {
		t.Error("the system prompt holds a clock time")
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func TestMissingAndEmptyFilesSkipped(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "AGENTS.md", "Be brief.", past)
	writeFile(t, dir, "SOUL.md", "", past)
	writeFile(t, dir, "USER.md", "  \n\t\n", past)
	writeFile(t, dir, "TOOLS.md", "# Tool notes\n\n<!-- only a note for the human -->\n", past)
	writeFile(t, dir, MemoryFile, "# Memory\n<!--\n keep it short\n-->\n", past)
	if err := os.Mkdir(filepath.Join(dir, "IDENTITY.md"), 0o700); err != nil { // not a file
		t.Fatal(err)
	}
	got := mustPrompt(t, newBuilder(t, Options{Workspace: dir}))
	sections := strings.Split(got, SectionSep)
	if len(sections) != 2 || sections[1] != "## AGENTS.md\n\nBe brief." {
		t.Fatalf("want identity + AGENTS.md only, got %d sections:\n%s", len(sections), got)
	}
	for _, absent := range []string{"SOUL.md", "## USER.md", "## TOOLS.md", "IDENTITY.md", "# Memory\n", "<skills>", "<!--"} {
		if strings.Contains(got, absent) {
			t.Errorf("prompt holds %q", absent)
		}
	}
}

func TestCleanFile(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"# Only\n## Headings\n", ""},
		{"# User\n<!-- a -->\nName: Ada\n<!-- b -->\n\n\nTZ: UTC\n", "# User\n\nName: Ada\n\nTZ: UTC"},
		{"text <!-- unterminated", "text <!-- unterminated"},
		{"<!-- x --><!-- y -->", ""},
	} {
		if got := cleanFile(tc.in); got != tc.want {
			t.Errorf("cleanFile(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCacheHitReadsNothing(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "AGENTS.md", "Be brief.", past)
	writeFile(t, dir, "SOUL.md", "Warm.", past)
	writeFile(t, dir, MemoryFile, "Likes tea.", past)
	cfs := &countFS{}
	calls := 0
	b := newBuilder(t, Options{Workspace: dir, FS: cfs, Skills: func() ([]string, []skills.Summary) {
		calls++
		return nil, []skills.Summary{{Name: "a", Available: true}}
	}})
	first := mustPrompt(t, b)
	if n := cfs.total(); n != 3 {
		t.Fatalf("first build read %d files, want 3 (%v)", n, cfs.reads)
	}
	for range 5 {
		if got := mustPrompt(t, b); got != first {
			t.Fatal("cached prompt differs")
		}
	}
	if n := cfs.total(); n != 3 {
		t.Errorf("cached builds read files: %d reads (%v)", n, cfs.reads)
	}
	if calls != 6 {
		t.Errorf("skills asked %d times, want 6", calls)
	}
}

func TestRebuildWhenFileChanges(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "AGENTS.md", "Be brief.", past)
	writeFile(t, dir, MemoryFile, "Likes tea.", past)
	cfs := &countFS{}
	b := newBuilder(t, Options{Workspace: dir, FS: cfs})
	mustPrompt(t, b)

	// Different size.
	writeFile(t, dir, MemoryFile, "Likes green tea.", past)
	if got := mustPrompt(t, b); !strings.Contains(got, "Likes green tea.") {
		t.Fatalf("size change not seen:\n%s", got)
	}
	if cfs.reads["AGENTS.md"] != 1 {
		t.Errorf("an unchanged file was read again: %v", cfs.reads)
	}
	// Same size and mtime, replaced atomically (new inode), as editors and
	// Hearth itself save files.
	tmp := filepath.Join(dir, "memory", ".tmp")
	writeFile(t, dir, "memory/.tmp", "Likes black tea.", past)
	if err := os.Rename(tmp, filepath.Join(dir, "memory", "MEMORY.md")); err != nil {
		t.Fatal(err)
	}
	if got := mustPrompt(t, b); !strings.Contains(got, "Likes black tea.") {
		t.Fatalf("same-size atomic replace not seen:\n%s", got)
	}
	// A file appears, and one disappears.
	writeFile(t, dir, "SOUL.md", "Warm.", past)
	if got := mustPrompt(t, b); !strings.Contains(got, "## SOUL.md\n\nWarm.") {
		t.Fatalf("new file not seen:\n%s", got)
	}
	if err := os.Remove(filepath.Join(dir, "SOUL.md")); err != nil {
		t.Fatal(err)
	}
	if got := mustPrompt(t, b); strings.Contains(got, "SOUL.md") {
		t.Fatalf("removed file still in prompt:\n%s", got)
	}
}

// A same-size edit in place that keeps the mtime (coarse timestamps, or an
// editor restoring it) on a filesystem without inode/ctime is caught by the
// content hash while the mtime is recent.
func TestRebuildSameSizeEditRecentMtime(t *testing.T) {
	dir := t.TempDir()
	recent := time.Now().Truncate(time.Second)
	writeFile(t, dir, MemoryFile, "Likes tea.", recent)
	cfs := &countFS{noSys: true}
	b := newBuilder(t, Options{Workspace: dir, FS: cfs})
	mustPrompt(t, b)
	writeFile(t, dir, MemoryFile, "Likes rum.", recent)
	if got := mustPrompt(t, b); !strings.Contains(got, "Likes rum.") {
		t.Fatalf("same-size edit not seen:\n%s", got)
	}
}

func TestTodaysNoteSwitchesAtMidnight(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "memory/2026-03-01.md", "Note of the first.", past)
	writeFile(t, dir, "memory/2026-03-02.md", "Note of the second.", past)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 23, 59, 59, 0, berlin)
	b := newBuilder(t, Options{Workspace: dir, TimeZone: "Europe/Berlin", Now: func() time.Time { return now }})
	if got := mustPrompt(t, b); !strings.Contains(got, "Note of the first.") || strings.Contains(got, "second") {
		t.Fatalf("before midnight:\n%s", got)
	}
	now = now.Add(2 * time.Second)
	if got := mustPrompt(t, b); !strings.Contains(got, "Note of the second.") || strings.Contains(got, "Note of the first.") {
		t.Fatalf("after midnight:\n%s", got)
	}
	// The date follows the configured zone, not the clock's: 23:30 UTC is
	// already the next day in Tokyo.
	now = time.Date(2026, 3, 1, 16, 0, 0, 0, time.UTC)
	tb := newBuilder(t, Options{Workspace: dir, TimeZone: "Asia/Tokyo", Now: func() time.Time { return now }})
	if got := mustPrompt(t, tb); !strings.Contains(got, "Note of the second.") {
		t.Fatalf("Tokyo date:\n%s", got)
	}
}

func TestSkillsChangeRebuilds(t *testing.T) {
	dir := t.TempDir()
	desc := "one"
	b := newBuilder(t, Options{Workspace: dir, Skills: func() ([]string, []skills.Summary) {
		return nil, []skills.Summary{{Name: "s", Description: desc, Available: true}}
	}})
	mustPrompt(t, b)
	desc = "two"
	if got := mustPrompt(t, b); !strings.Contains(got, ">two</skill>") {
		t.Fatalf("skills change not seen:\n%s", got)
	}
}

func TestUnreadableFileReported(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "AGENTS.md", "Be brief.", past)
	writeFile(t, dir, "SOUL.md", "Warm.", past)
	cfs := &countFS{fail: map[string]error{"SOUL.md": fs.ErrPermission}}
	b := newBuilder(t, Options{Workspace: dir, FS: cfs})
	got, err := b.SystemPrompt()
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "SOUL.md") {
		t.Fatalf("err = %v, want a permission error naming SOUL.md", err)
	}
	if !strings.Contains(got, "Be brief.") || strings.Contains(got, "Warm.") {
		t.Fatalf("prompt with an unreadable file:\n%s", got)
	}
	delete(cfs.fail, "SOUL.md")
	if got := mustPrompt(t, b); !strings.Contains(got, "Warm.") {
		t.Fatalf("not retried after the error:\n%s", got)
	}
}

func TestNewNeedsWorkspace(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Fatal("New without a workspace succeeded")
	}
}

func TestConcurrentSystemPrompt(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, MemoryFile, "Likes tea.", past)
	b := newBuilder(t, Options{Workspace: dir})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 20 {
				if (i+j)%7 == 0 {
					if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(strings.Repeat("x", j+1)), 0o600); err != nil {
						t.Error(err)
					}
				}
				if _, err := b.SystemPrompt(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}
