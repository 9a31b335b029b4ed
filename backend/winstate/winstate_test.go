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

// Hidden to the tray, then quit from the tray: the position kept is where the window
// was when it hid, not the 0,0 a hidden window reports.
func TestNextKeepsTheLastKnownPositionWhileHidden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "window.json")
	s := Default()
	s = s.Next(Seen{Shown: true, Width: 900, Height: 600, X: 300, Y: 200})
	if err := Save(path, s); err != nil { // closed to the tray
		t.Fatal(err)
	}
	s = s.Next(Seen{Shown: false}) // quit from the tray: the window system says 0,0
	if err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	want := State{Width: 900, Height: 600, X: 300, Y: 200, HasPos: true}
	if err != nil || got != want {
		t.Fatalf("got %+v (err %v), want %+v", got, err, want)
	}
	// Maximised: the normal size and position stay those from before.
	if m := got.Next(Seen{Shown: true, Maximised: true, Width: 1920, Height: 1080}); m != (State{Width: 900, Height: 600, X: 300, Y: 200, HasPos: true, Maximised: true}) {
		t.Fatalf("maximised: %+v", m)
	}
}

// The "still running in the tray" notice is said at the first close only, this launch
// and the next.
func TestFirstHideIsRememberedAcrossLaunches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "window.json")
	s := Default()
	if !s.FirstHide() || s.FirstHide() {
		t.Fatal("the first close says the notice, the second does not")
	}
	if err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	again, err := Load(path)
	if err != nil || again.FirstHide() {
		t.Fatalf("after a restart the notice must not be said again: %+v (err %v)", again, err)
	}
	if fresh := Default(); !fresh.FirstHide() {
		t.Fatal("a first launch says it")
	}
}
