package channels

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var day = time.Date(2026, 12, 7, 21, 0, 0, 0, time.UTC)

func TestInboxSavesUniqueNames(t *testing.T) {
	ws := t.TempDir()
	var got []string
	for range 3 {
		rel, err := saveInbox(ws, File{Name: "notes.txt", Data: []byte("x")}, day)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rel)
	}
	want := []string{"inbox/telegram/2026-12-07-notes.txt", "inbox/telegram/2026-12-07-notes-2.txt", "inbox/telegram/2026-12-07-notes-3.txt"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("names %q", got)
		}
	}
	fi, err := os.Stat(filepath.Join(ws, got[0]))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved file %v %v", fi, err)
	}
}

// Attack: a link planted as inbox/telegram (a command the agent ran could make
// one) must not carry the file out of the workspace.
func TestInboxRefusesAPlantedFolderLink(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "inbox"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "inbox", "telegram")); err != nil {
		t.Fatal(err)
	}
	if _, err := saveInbox(ws, File{Name: "a.txt", Data: []byte("x")}, day); err == nil {
		t.Fatal("saved through a link")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("written outside the workspace: %v", ents)
	}
}

// Attack: a link planted where the file will be saved is never written through.
func TestInboxNeverWritesThroughAFileLink(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	dir := filepath.Join(ws, InboxDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(outside, "victim")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "2026-12-07-a.txt")); err != nil {
		t.Fatal(err)
	}
	rel, err := saveInbox(ws, File{Name: "a.txt", Data: []byte("new")}, day)
	if err != nil {
		t.Fatal(err)
	}
	if rel != "inbox/telegram/2026-12-07-a-2.txt" {
		t.Errorf("saved as %s", rel)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("written through the link: %q", b)
	}
}

// Attack: names with traversal, separators, control characters, a leading dot or
// enormous length stay one bounded element inside inbox/telegram.
func TestInboxNames(t *testing.T) {
	ws := t.TempDir()
	for _, name := range []string{"../../../etc/passwd", `..\..\win.ini`, "/abs/path.txt", ".bashrc", "a\x00b\nc.txt",
		"..", "", strings.Repeat("长", 500) + ".pdf", strings.Repeat("a", 10000), "\xff\xfe.txt"} {
		rel, err := saveInbox(ws, File{Name: name, Data: []byte("x")}, day)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		base := strings.TrimPrefix(rel, InboxDir+"/")
		if strings.ContainsAny(base, `/\`) || strings.HasPrefix(base, ".") || len(base) > 100 || !utf8.ValidString(base) {
			t.Errorf("%q saved as %q", name, rel)
		}
		if _, err := os.Stat(filepath.Join(ws, rel)); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	if ents, _ := os.ReadDir(ws); len(ents) != 1 {
		t.Errorf("the workspace holds %v", ents)
	}
}

// A file past the bound is refused with a hint, nothing written.
func TestInboxBoundsTheSize(t *testing.T) {
	ws := t.TempDir()
	_, err := saveInbox(ws, File{Name: "big.bin", Data: make([]byte, maxFileBytes+1)}, day)
	if err == nil || !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("err %v", err)
	}
}

func FuzzSafeName(f *testing.F) {
	for _, s := range []string{"report.pdf", "../x", "", ".", "a/b\\c", "\xff", strings.Repeat("é", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n := safeName(File{Name: name})
		if n == "" || strings.ContainsAny(n, `/\`) || strings.HasPrefix(n, ".") || len(n) > maxNameBytes || !utf8.ValidString(n) || n == ".." {
			t.Fatalf("%q → %q", name, n)
		}
	})
}

func FuzzPairText(f *testing.F) {
	for _, s := range []string{"/start 123456", "/pair 12 34 56", "123456", "/start", "/start@bot x", "hello", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		code, attempt, _ := pairText(text)
		if !attempt && code != "" {
			t.Fatalf("%q: code without an attempt", text)
		}
		if len(code) > 64 {
			t.Fatalf("%q: code of %d bytes", text, len(code))
		}
	})
}

func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"requests":[{"id":"1","name":"a","chatId":"1"}],"sessions":{"1":"telegram:1#2","2":"telegram:1"}}`))
	f.Add([]byte(`{"names":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, _ := parseState(data)
		if st.Names == nil || st.Sessions == nil || st.Refused == nil || st.Since == nil || len(st.Requests) > maxRequests {
			t.Fatalf("state %+v", st)
		}
		for chat, sess := range st.Sessions {
			if c, ok := chatOf(sess); !ok || c != chat {
				t.Fatalf("chat %s goes on in %s", chat, sess)
			}
		}
	})
}
