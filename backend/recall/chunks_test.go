package recall

import "testing"

func TestChunksSkipTemplatesAndHeadings(t *testing.T) {
	h := "# History\n\n<!-- Append-only log. Each entry starts with [YYYY-MM-DD HH:MM]. -->\n\n[2026-01-02 03:04] Real entry.\n"
	got := historyChunks(HistoryFile, h)
	if len(got) != 1 || got[0].Text != "[2026-01-02 03:04] Real entry." || got[0].Date != "2026-01-02 03:04" {
		t.Errorf("history chunks %+v", got)
	}
	if got := textChunks("n.md", "n.md", "", "# Title\n\n<!-- note -->\n\n## Sub\n"); len(got) != 0 {
		t.Errorf("headings-only chunks %+v", got)
	}
	a := historyChunks(HistoryFile, "[2026-01-02 03:04] Same.\n\n[2026-01-02 03:04] Same.\n\n[2026-01-03 03:04] Other.\n")
	b := historyChunks(HistoryFile, "[2026-01-01 00:00] New first.\n\n[2026-01-02 03:04] Same.\n\n[2026-01-02 03:04] Same.\n\n[2026-01-03 03:04] Other.\n")
	if len(a) != 3 || a[0].ID == a[1].ID || a[0].ID != b[1].ID || a[1].ID != b[2].ID || a[2].ID != b[3].ID {
		t.Errorf("chunk IDs not stable/unique: %v / %v", a, b)
	}
}

func TestEntryStamp(t *testing.T) {
	for line, want := range map[string]string{
		"[2026-01-02 03:04] x": "2026-01-02 03:04", "[2026-01-02 03:04]": "2026-01-02 03:04",
		"[YYYY-MM-DD HH:MM] x": "", "(2026-01-02 03:04) x": "", "[2026-01-02 3:04] x": "", "": "",
	} {
		got, ok := entryStamp(line)
		if got != want || ok != (want != "") {
			t.Errorf("entryStamp(%q) = %q %v", line, got, ok)
		}
	}
}
