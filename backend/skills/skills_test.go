package skills

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, ws, name, text string) string {
	t.Helper()
	p := filepath.Join(ws, "skills", name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// Make sure a rewrite within the same clock tick is still seen.
	later := time.Now().Add(time.Duration(len(text)) * time.Millisecond)
	_ = os.Chtimes(p, later, later)
	return p
}

func loader(t *testing.T, ws string, bins map[string]bool, env map[string]string) (*Loader, *[]string) {
	t.Helper()
	var warned []string
	l := New(Options{Workspace: ws,
		LookPath: func(b string) (string, error) {
			if bins[b] {
				return "/usr/bin/" + b, nil
			}
			return "", errors.New("not found")
		},
		Getenv:    func(k string) string { return env[k] },
		OnWarning: func(w string) { warned = append(warned, w) },
	})
	return l, &warned
}

func byName(list []Skill) map[string]Skill {
	m := map[string]Skill{}
	for _, s := range list {
		m[s.Name] = s
	}
	return m
}

func TestBuiltinsAndPrecedence(t *testing.T) {
	ws := t.TempDir()
	l, _ := loader(t, ws, nil, nil)
	list, warns := l.List()
	if len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	m := byName(list)
	for _, n := range []string{"memory", "reminders", "summarize", "skill-creator"} {
		s, ok := m[n]
		if !ok || s.Source != SourceBuiltin || !s.Available || !s.Enabled || s.Description == "" {
			t.Errorf("built-in %s: %+v", n, s)
			continue
		}
		// read_file can open it: it is a workspace file.
		data, err := os.ReadFile(filepath.Join(ws, s.Location))
		if err != nil || !strings.Contains(string(data), "name: "+n) || s.Path != filepath.Join(ws, s.Location) {
			t.Errorf("built-in %s not on disk at %s: %v", n, s.Location, err)
		}
	}

	// A copy deleted by hand comes back on the next list.
	copyPath := filepath.Join(ws, ".hearth", "skills", "reminders", "SKILL.md")
	if err := os.Remove(copyPath); err != nil {
		t.Fatal(err)
	}
	l.List()
	if _, err := os.Stat(copyPath); err != nil {
		t.Errorf("built-in copy not restored: %v", err)
	}

	write(t, ws, "memory", "---\nname: memory\ndescription: My own memory rules.\n---\nUse my notebook.\n")
	write(t, ws, "weather", "---\nname: weather\ndescription: \"Weather: today and tomorrow\"\n---\n# Weather\n")
	list, _ = l.List()
	m = byName(list)
	if s := m["memory"]; s.Source != SourceWorkspace || s.Description != "My own memory rules." ||
		s.Location != "skills/memory/SKILL.md" || s.Body != "Use my notebook." {
		t.Errorf("workspace memory did not override: %+v", s)
	}
	if s := m["weather"]; s.Source != SourceWorkspace || s.Description != "Weather: today and tomorrow" {
		t.Errorf("weather: %+v", s)
	}
	if len(list) != 5 || list[0].Name != "memory" || list[4].Name != "weather" {
		t.Errorf("order/count: %v", list)
	}
}

func TestAvailabilityGating(t *testing.T) {
	ws := t.TempDir()
	write(t, ws, "video", "---\nname: video\ndescription: Cut videos.\nbins: [ffmpeg, ffprobe]\nrequires:\n  env: [VIDEO_KEY]\n---\nbody\n")
	write(t, ws, "nano", "---\nname: nano\ndescription: nanobot style\nmetadata: {\"nanobot\":{\"requires\":{\"bins\":[\"gh\"]},\"always\":true}}\n---\nUse gh.\n")
	l, _ := loader(t, ws, map[string]bool{"ffprobe": true}, nil)
	m := byName(first(l.List()))
	v := m["video"]
	if v.Available || strings.Join(v.MissingBins, ",") != "ffmpeg" || strings.Join(v.MissingEnv, ",") != "VIDEO_KEY" ||
		v.Missing() != "bin: ffmpeg, env: VIDEO_KEY" {
		t.Errorf("video: %+v", v)
	}
	if n := m["nano"]; n.Available || !n.Always || n.Missing() != "bin: gh" {
		t.Errorf("nano: %+v", n)
	}
	always, summary := l.Prompt()
	if len(always) != 0 {
		t.Errorf("an unavailable always-on skill was inlined: %q", always)
	}
	sm := map[string]string{}
	for _, s := range summary {
		if !s.Available {
			sm[s.Name] = s.Missing
		}
	}
	if sm["video"] != "bin: ffmpeg, env: VIDEO_KEY" || sm["nano"] != "bin: gh" {
		t.Errorf("summary missing: %v", sm)
	}

	// Once the requirements are met, the same skills become available.
	l2, _ := loader(t, ws, map[string]bool{"ffmpeg": true, "ffprobe": true, "gh": true}, map[string]string{"VIDEO_KEY": "k"})
	m = byName(first(l2.List()))
	if !m["video"].Available || !m["nano"].Available {
		t.Errorf("not available with everything present: %+v %+v", m["video"], m["nano"])
	}
}

func TestAlwaysOnInlined(t *testing.T) {
	ws := t.TempDir()
	write(t, ws, "tone", "---\nname: tone\ndescription: House style\nalways: true\n---\n# Tone\n\nAlways answer briefly.\n")
	l, _ := loader(t, ws, nil, nil)
	always, summary := l.Prompt()
	if len(always) != 1 || always[0] != "# Tone\n\nAlways answer briefly." {
		t.Fatalf("always = %q", always)
	}
	for _, s := range summary {
		if s.Name == "tone" {
			t.Errorf("always-on skill also in the summary")
		}
	}
	if len(summary) != 4 {
		t.Errorf("summary has %d skills, want the 4 built-ins", len(summary))
	}
	// Disabled: neither inlined nor listed, and the choice is kept on disk.
	if err := l.SetEnabled("tone", false); err != nil {
		t.Fatal(err)
	}
	if err := l.SetEnabled("summarize", false); err != nil {
		t.Fatal(err)
	}
	l2, _ := loader(t, ws, nil, nil)
	always, summary = l2.Prompt()
	if len(always) != 0 || len(summary) != 3 {
		t.Errorf("after disabling: always %q, %d in summary", always, len(summary))
	}
	if s := byName(first(l2.List()))["summarize"]; s.Enabled {
		t.Errorf("summarize still enabled")
	}
	if err := l2.SetEnabled("summarize", true); err != nil {
		t.Fatal(err)
	}
	if _, summary = l2.Prompt(); len(summary) != 4 {
		t.Errorf("re-enabled: %d in summary", len(summary))
	}
	if err := l2.SetEnabled("nope", false); err == nil || !strings.Contains(err.Error(), "skill-creator") {
		t.Errorf("unknown skill: %v", err)
	}
}

func TestMalformedFrontMatter(t *testing.T) {
	ws := t.TempDir()
	write(t, ws, "broken", "---\nname: broken\ndescription: a: b: c\n  - x\n---\nbody\n")
	write(t, ws, "unclosed", "---\nname: unclosed\ndescription: never ends\n")
	write(t, ws, "summarize", "---\nname: [summarize\n---\nbroken override\n")
	write(t, ws, "good", "---\nname: good\ndescription: Works fine.\n---\nok\n")
	write(t, ws, "plain", "# Plain skill\n\nNo front matter at all.\n")
	l, warned := loader(t, ws, nil, nil)
	list, warns := l.List()
	m := byName(list)
	if len(warns) != 3 {
		t.Fatalf("want 3 warnings, got %q", warns)
	}
	joined := strings.Join(warns, "\n")
	for _, want := range []string{"skill broken (skills/broken/SKILL.md) was not loaded: front matter is not valid YAML",
		"skill unclosed (skills/unclosed/SKILL.md) was not loaded: front matter has no closing ---", "hint:"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	if b := m["broken"]; b.Problem == "" || b.Available {
		t.Errorf("broken listed wrongly: %+v", b)
	}
	if s := m["summarize"]; s.Source != SourceBuiltin || !s.Available {
		t.Errorf("a broken override must leave the built-in: %+v", s)
	}
	if g := m["good"]; !g.Available || g.Description != "Works fine." {
		t.Errorf("good: %+v", g)
	}
	if p := m["plain"]; p.Description != "Plain skill" || !p.Available {
		t.Errorf("plain: %+v", p)
	}
	_, summary := l.Prompt()
	for _, s := range summary {
		if s.Name == "broken" || s.Name == "unclosed" {
			t.Errorf("malformed skill offered: %+v", s)
		}
	}
	// Each problem is reported once, not on every prompt build.
	l.List()
	if len(*warned) != 3 {
		t.Errorf("OnWarning called %d times", len(*warned))
	}
	// Fixing the file is picked up without a restart.
	write(t, ws, "broken", "---\nname: broken\ndescription: \"a: b: c\"\n---\nbody fixed\n")
	if b := byName(first(l.List()))["broken"]; b.Problem != "" || b.Description != "a: b: c" {
		t.Errorf("fixed skill: %+v", b)
	}
}

func first[A, B any](a A, _ B) A { return a }
