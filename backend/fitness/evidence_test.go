package fitness_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/backend/fitness"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/tools"
)

var (
	readCall = fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"note.txt"}`)}},
		EvalCount: 10, EvalDurationMS: 300}
	reported = fakeollama.Reply{Content: "The code word is " + fitness.CodeWord + ".", EvalCount: 8, EvalDurationMS: 200}
	noRead   = fakeollama.Reply{Content: "I cannot open files, sorry.", EvalCount: 6, EvalDurationMS: 200}
)

// The verdicts from evidence: a model that (a) calls tools right, (b) returns one
// empty reply, (c) ignores the made-up tool but uses read_file, (d) never calls tools
// → tools / tools / tools / chat only, each probe's result and reason kept.
func TestVerdictsFromEvidence(t *testing.T) {
	for _, tt := range []struct {
		name    string
		replies []fakeollama.Reply
		verdict fitness.Verdict
		probes  string // probe:outcome:tries, in order
	}{
		{"(a) calls tools right", []fakeollama.Reply{weatherCall, four, sunny}, fitness.VerdictGood,
			"weather:called:1 restraint:answered:1 result:answered:1"},
		// The provider retries an empty reply once itself: two empty lines are one
		// empty probe reply, which the check sends again.
		{"(b) one empty reply", []fakeollama.Reply{empty, empty, weatherCall, four, sunny}, fitness.VerdictGood,
			"weather:called:2 restraint:answered:1 result:answered:1"},
		{"(c) ignores the made-up tool, reads the file", []fakeollama.Reply{noWay, readCall, reported, four, sunny}, fitness.VerdictGood,
			"weather:answered:1 read:called:1 restraint:answered:1 result:answered:1"},
		{"(d) never calls tools", []fakeollama.Reply{noWay, noRead}, fitness.VerdictChatOnly,
			"weather:answered:1 read:answered:1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, srv := provider(t, fakeollama.DefaultModel(), tt.replies...)
			r := check(t, p, "qwen3:4b")
			if r.Verdict != tt.verdict || r.OffersTools() != (tt.verdict != fitness.VerdictChatOnly) {
				t.Errorf("verdict %s (offers tools %v), want %s", r.Verdict, r.OffersTools(), tt.verdict)
			}
			var got []string
			for _, pr := range r.Probes {
				got = append(got, pr.Probe+":"+pr.Outcome+":"+itoa(pr.Tries))
				if pr.Reply == "" {
					t.Errorf("probe %s without its reply", pr.Probe)
				}
			}
			if strings.Join(got, " ") != tt.probes {
				t.Errorf("probes %v, want %s", got, tt.probes)
			}
			if len(srv.ChatRequests()) != len(tt.replies) {
				t.Errorf("%d requests for %d replies", len(srv.ChatRequests()), len(tt.replies))
			}
		})
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// The read probe really reads the scratch file and hands its numbered lines back;
// the model's answer with the code word is noted.
func TestReadProbeReadsForReal(t *testing.T) {
	p, srv := provider(t, fakeollama.DefaultModel(), noWay, readCall, reported, four, sunny)
	r := check(t, p, "qwen3:4b")
	reqs := srv.ChatRequests()
	var tool struct {
		Function struct{ Name string } `json:"function"`
	}
	if len(reqs[1].Tools) != 1 || json.Unmarshal(reqs[1].Tools[0], &tool) != nil || tool.Function.Name != "read_file" {
		t.Fatalf("read probe tools %s", reqs[1].Tools)
	}
	msgs := reqs[2].Messages
	if last := msgs[len(msgs)-1]; last.Role != "tool" || last.Content != "1\tThe code word is "+fitness.CodeWord+".\n" {
		t.Errorf("the tool result handed back: %+v", last)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "reported the code word") {
		t.Errorf("notes %q", r.Notes)
	}
}

// The probe's read_file is Hearth's own: the same name and the same required path.
func TestReadProbeMirrorsReadFile(t *testing.T) {
	for _, tl := range tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: t.TempDir()}}) {
		if tl.Name() != fitness.ReadToolName {
			continue
		}
		want := fitness.ReadToolDefForTest()
		if tl.Description() != want.Description {
			t.Errorf("description %q, want %q", want.Description, tl.Description())
		}
		got, _ := json.Marshal(tl.Parameters())
		var a, b any
		_ = json.Unmarshal(got, &a)
		_ = json.Unmarshal(want.Parameters, &b)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("probe parameters %s, read_file's %s", jb, ja)
		}
		return
	}
	t.Fatal("no read_file among the built-in tools")
}

// A chat's structured call overrules a probe that saw none (same digest).
func TestEvidenceOverrulesProbe(t *testing.T) {
	p, _ := provider(t, fakeollama.DefaultModel(), noWay, noRead)
	r := check(t, p, "qwen3:4b")
	if r.Verdict != fitness.VerdictChatOnly {
		t.Fatalf("verdict %s", r.Verdict)
	}
	r.Overrule(fitness.Evidence{Tool: "list_dir", At: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if r.Verdict != fitness.VerdictGood || !r.OffersTools() || r.Probes[len(r.Probes)-1].Probe != fitness.ProbeChat ||
		!strings.Contains(strings.Join(r.Notes, "\n"), "2026-12-01 it made a structured call of list_dir") {
		t.Errorf("%+v", r)
	}
}

// The store keeps evidence and "Offer tools anyway" per model and digest.
func TestStoreEvidenceAndOverride(t *testing.T) {
	s := fitness.NewStore(filepath.Join(t.TempDir(), "checks.json"))
	at := time.Now()
	if err := s.RecordCall("ollama/a:latest", "d1", "read_file", at); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.EvidenceFor("ollama/a:latest", "d1"); !ok {
		t.Error("evidence lost")
	}
	if _, ok := s.EvidenceFor("ollama/a:latest", "d2"); ok {
		t.Error("evidence of another digest counts")
	}
	if err := s.SetToolsAnyway("ollama/a:latest", "d1", true, at); err != nil {
		t.Fatal(err)
	}
	if !s.ToolsAnyway("ollama/a:latest", "d1") || s.ToolsAnyway("ollama/a:latest", "d2") || s.ToolsAnyway("ollama/b:latest", "d1") {
		t.Error("override not per model and digest")
	}
	if err := s.SetToolsAnyway("ollama/a:latest", "d1", false, at); err != nil || s.ToolsAnyway("ollama/a:latest", "d1") {
		t.Errorf("override not withdrawn: %v", err)
	}
	if _, ok := s.EvidenceFor("ollama/a:latest", "d1"); !ok {
		t.Error("evidence lost by another write")
	}
}

// The probe's read_file reads only regular files inside the scratch folder: a way
// out (.., an absolute path elsewhere, a planted symlink), a FIFO and a directory are
// refused, and a large file is read only up to the note's bound.
func TestReadScratchAttacks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	mustWrite(t, outside, "secret")
	mustWrite(t, filepath.Join(dir, "note.txt"), "The code word is x.\n")
	mustWrite(t, filepath.Join(dir, "big.txt"), strings.Repeat("a", 1<<20))
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	args := func(p string) json.RawMessage { b, _ := json.Marshal(map[string]string{"path": p}); return b }
	for _, p := range []string{"../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt", outside, "link.txt", "fifo", "sub", "missing.txt", ""} {
		got, err := fitness.ReadScratchForTest(dir, args(p))
		if err == nil || strings.Contains(got, "secret") {
			t.Errorf("%q: read %q, %v", p, got, err)
		}
		if err != nil && strings.Contains(err.Error(), dir) {
			t.Errorf("%q: the error names the scratch folder: %v", p, err)
		}
	}
	if got, err := fitness.ReadScratchForTest(dir, args(filepath.Join(dir, "note.txt"))); err != nil || got != "1\tThe code word is x.\n" {
		t.Errorf("absolute path inside: %q, %v", got, err)
	}
	if got, err := fitness.ReadScratchForTest(dir, args("big.txt")); err != nil || len(got) > 5000 {
		t.Errorf("big file: %d bytes, %v", len(got), err)
	}
	if _, err := fitness.ReadScratchForTest(dir, json.RawMessage(`[1,2]`)); err == nil {
		t.Error("arguments that are not an object were read")
	}
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// FuzzReadScratch: whatever arguments the model sends, the probe's read_file neither
// panics nor reads anything but the scratch folder's note.
func FuzzReadScratch(f *testing.F) {
	for _, s := range []string{`{"path":"note.txt"}`, `{"path":"../x"}`, `{"path":"/etc/passwd"}`, `{"path":""}`, `null`, `{"path":"./note.txt/.."}`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("note\n"), 0o600); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := fitness.ReadScratchForTest(dir, data)
		if err == nil && got != "1\tnote\n" {
			t.Errorf("%q read %q", data, got)
		}
	})
}
