package winstate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadMissingGivesDefault(t *testing.T) {
	s, err := Load(filepath.Join(t.TempDir(), "window.json"))
	if err != nil {
		t.Fatalf("missing file must not be an error: %v", err)
	}
	if s != Default() {
		t.Fatalf("got %+v, want default %+v", s, Default())
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "window.json")
	want := State{Width: 1280, Height: 800, X: 40, Y: 60, HasPos: true, Maximised: true}
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("round trip: got %+v, want %+v", got, want)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temp files left behind: %v", entries)
	}
}

func TestCorruptOrAbsurdStateFallsBack(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"torn":   `{"width": 12`,
		"tiny":   `{"width": 10, "height": 10}`,
		"huge":   `{"width": 900000, "height": 700}`,
		"offmap": `{"width": 900, "height": 700, "x": 99999999, "y": 5, "hasPosition": true}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".json")
			if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Load(path)
			if name == "torn" {
				if err == nil || !strings.Contains(err.Error(), path) {
					t.Fatalf("want an error naming the file, got %v", err)
				}
			}
			if s.Width < MinWidth || s.Height < MinHeight || s.Width > maxSide {
				t.Fatalf("unusable size survived: %+v", s)
			}
			if name == "offmap" && s.HasPos {
				t.Fatalf("off-screen position kept: %+v", s)
			}
		})
	}
}
