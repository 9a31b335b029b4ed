package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/i18n"
	"hearth/backend/tools"
)

func authors(revs []Rev) string {
	var a []string
	for _, r := range revs {
		a = append(a, r.Author)
	}
	return strings.Join(a, ",")
}

// Every way a memory file changes becomes a commit saying who and why: onboarding,
// /remember, the agent's remember tool, the sidebar, consolidation and an editor
// outside Hearth; a restore brings the old text back as a change of its own.
func TestEveryChangeIsVersioned(t *testing.T) {
	f := newConsFixture(t, 3)
	// A user's own git repository in the workspace is left alone.
	writeFile(t, f.ws, ".git/HEAD", "ref: refs/heads/mine\n")
	s := serviceOver(t, f, nil)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Watch(); err != nil {
		t.Fatal(err)
	}
	revs, err := s.History("", 0)
	if err != nil || len(revs) != 1 || revs[0].Author != AuthorHearth || !strings.HasPrefix(revs[0].Message, "onboarding") {
		t.Fatalf("onboarding commit: %+v %v", revs, err)
	}
	if _, err := s.Remember("my sister's birthday is 3 May"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Remember("prefers tea"); err != nil {
		t.Fatal(err)
	}
	cur, _ := s.Store().Read("SOUL.md")
	if _, err := s.Store().Save("SOUL.md", "Be brief.\n", cur.Hash); err != nil {
		t.Fatal(err)
	}
	f.fake.Enqueue(saveCall("[2026-11-23 14:05] Talked about sourdough.", "- Lives in Porto.\n- Bakes sourdough.\n"))
	s.AfterRun(f.id, 6, 4)
	if err := s.Consolidations().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	revs, err = s.History("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := authors(revs); got != "consolidation,consolidation,you,agent,you,Hearth" {
		t.Fatalf("authors %s\n%+v", got, revs)
	}
	if !strings.HasPrefix(revs[2].Message, "edited in the memory sidebar") || revs[3].Message != "remember: prefers tea" ||
		!strings.Contains(revs[4].Message, "/remember my sister") || !strings.Contains(revs[0].Message, f.id) {
		t.Errorf("messages: %+v", revs)
	}

	// An editor outside Hearth: the watcher commits it.
	writeFile(t, f.ws, MemoryFile, "- Lives in Lisbon now.\n")
	deadline := time.Now().Add(5 * time.Second)
	for {
		revs, _ = s.History(MemoryFile, 1)
		if len(revs) == 1 && revs[0].Author == AuthorOutside {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outside edit was not committed: %+v", revs)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Restore the text before the outside edit.
	msg, err := s.Restore(revs[0].Rev+"^", "MEMORY.md")
	if err != nil || msg.Code != "memory.restore.done" || !strings.HasPrefix(msg.String(), "Restored memory/MEMORY.md") {
		t.Fatalf("restore: %q %v", msg, err)
	}
	if got := f.read(t, MemoryFile); got != "- Lives in Porto.\n- Bakes sourdough.\n" {
		t.Errorf("restored text %q", got)
	}
	memLog, _ := s.History("MEMORY.md", 0)
	if memLog[0].Author != AuthorUser || !strings.HasPrefix(memLog[0].Message, "restore memory/MEMORY.md to ") {
		t.Errorf("restore commit: %+v", memLog[0])
	}
	if b, _ := os.ReadFile(filepath.Join(f.ws, ".git/HEAD")); string(b) != "ref: refs/heads/mine\n" {
		t.Errorf("the user's repository changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(HistoryDir(s.Store().StateDir()), "HEAD")); err != nil {
		t.Errorf("no history repository in the state folder: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(f.ws, ".hearth")); !os.IsNotExist(err) {
		t.Errorf("Hearth wrote its state into the workspace: %v", err)
	}

	// The chat command.
	out, _ := s.MemoryCommand(t.Context(), "log MEMORY.md")
	if log := out.String(); !strings.Contains(log, "restore memory/MEMORY.md") || !strings.Contains(log, "outside Hearth") {
		t.Errorf("/memory log:\n%s", log)
	}
	out, _ = s.MemoryCommand(t.Context(), "diff "+memLog[0].Rev[:8]+" MEMORY.md")
	if d := out.String(); !strings.Contains(d, "-- Lives in Lisbon now.") || !strings.Contains(d, "+- Bakes sourdough.") {
		t.Errorf("/memory diff:\n%s", d)
	}
	if _, err := s.MemoryCommand(t.Context(), "restore nothex"); err == nil {
		t.Error("a bad revision restored")
	}
	// What the catalog can word reaches a Chinese window in Chinese.
	for arg, want := range map[string]string{"": "用法：/memory log", "diff": "用法", "log 2020-01-01": "还没有历史记录",
		"restore " + memLog[0].Rev[:8] + " MEMORY.md": "无需恢复"} {
		out, err := s.MemoryCommand(t.Context(), arg)
		if err != nil || !strings.HasPrefix(out.In(i18n.Chinese), want) {
			t.Errorf("/memory %s: %q %v, want %q…", arg, out.In(i18n.Chinese), err, want)
		}
	}
	if _, err := s.History("skills/git", 0); err == nil {
		t.Error("a skill has a history")
	}
}

// Edits made while Hearth was not running are committed when it next looks.
func TestEditsWhileClosedCommittedOnNextLook(t *testing.T) {
	f := newConsFixture(t, 1)
	s := serviceOver(t, f, nil)
	if err := s.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, f.ws, "USER.md", "Name: Ana\n")
	revs, err := s.History("", 0)
	if err != nil || len(revs) != 2 || revs[0].Author != AuthorOutside || strings.Join(revs[0].Files, ",") != "USER.md" {
		t.Fatalf("%+v %v", revs, err)
	}
	v, ok, err := s.Version(revs[0].Rev, "USER.md")
	if err != nil || !ok || v != "Name: Ana\n" {
		t.Errorf("version %q %v %v", v, ok, err)
	}
}

// A sync that found nothing new leaves a fingerprint of the files' stats, and the
// next one (every process start makes one) reads no file while the stats agree;
// a changed size or time is committed as before, and files changed within the
// last moments are not fingerprinted.
func TestSyncSkipsUnchangedFiles(t *testing.T) {
	f := newConsFixture(t, 3)
	s := serviceOver(t, f, nil)
	if err := s.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	fp := syncedFile(s.Store().StateDir())
	if _, err := os.Stat(fp); err == nil {
		t.Fatal("files written a moment ago were fingerprinted")
	}
	old := time.Now().Add(-time.Hour)
	p := filepath.Join(f.ws, MemoryFile)
	for _, n := range []string{MemoryFile, HistoryFile, "SOUL.md", "USER.md", "AGENTS.md", "TOOLS.md", "IDENTITY.md", "HEARTBEAT.md"} {
		os.Chtimes(filepath.Join(f.ws, n), old, old)
	}
	if err := s.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fp); err != nil {
		t.Fatalf("no fingerprint after a sync of settled files: %v", err)
	}
	// Same size and time, other text: only reading would see it, and the sync does not read.
	cur, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Repeat("x", len(cur))), 0o600)
	os.Chtimes(p, old, old)
	if err := s.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	if revs, _ := s.History(MemoryFile, 0); len(revs) != 1 {
		t.Fatalf("the fingerprinted sync read the file: %+v", revs)
	}
	// A real edit moves the time (or the size): committed.
	os.WriteFile(p, []byte("# Memory\n\n- Lives in Lisbon\n"), 0o600)
	os.Chtimes(p, old.Add(time.Minute), old.Add(time.Minute))
	if err := s.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	revs, _ := s.History(MemoryFile, 0)
	if len(revs) != 2 || revs[0].Author != AuthorOutside {
		t.Fatalf("outside edit not committed: %+v", revs)
	}
	if b, _, _ := s.Version(revs[0].Rev, MemoryFile); !strings.Contains(b, "Lisbon") {
		t.Errorf("committed %q", b)
	}
}

// While the agent's file tool writes a memory file, the change the watcher sees is
// the agent's even when the watcher commits it before the tool reports back; a
// root-level "MEMORY.md" is not memory/MEMORY.md and is left alone.
func TestAgentWritingAttributesTheWatchersCommit(t *testing.T) {
	f := newConsFixture(t, 3)
	s := serviceOver(t, f, nil)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Watch(); err != nil {
		t.Fatal(err)
	}
	// As the file tools tell it (tools.WriteObserver): the chat and run come with ctx.
	ctx := tools.WithCall(t.Context(), tools.CallInfo{SessionID: "chat1", RunID: "run1"})
	done := s.Writing(ctx, "write_file", MemoryFile)
	s.Writing(ctx, "write_file", "MEMORY.md")(true) // no history: ignored
	writeFile(t, f.ws, MemoryFile, "# Memory\n\n- Lives in Porto\n")
	var revs Revs
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if revs, _ = s.currentVersions().repo.Log(MemoryFile, 0); len(revs) == 2 {
			break
		}
	}
	if len(revs) != 2 || revs[0].Author != AuthorAgent || revs[0].Message != "write_file in chat chat1 (run run1)" {
		t.Fatalf("the watcher's commit: %+v", revs)
	}
	done(true)
	writeFile(t, f.ws, MemoryFile, "# Memory\n\n- Lives in Lisbon\n")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if revs, _ = s.currentVersions().repo.Log(MemoryFile, 0); len(revs) == 3 {
			break
		}
	}
	if len(revs) != 3 || revs[0].Author != AuthorOutside {
		t.Fatalf("after the tool finished, an edit is outside Hearth's: %+v", revs)
	}
}
