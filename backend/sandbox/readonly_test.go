package sandbox

import (
	"slices"
	"testing"
)

// Which read-only folders need guarding, and the folders on the way down to them.
func TestGuardedReadOnly(t *testing.T) {
	w := []string{"/h", "/h/ws", "/data/ws"}
	hidden := []string{"/h/.config/hearth", "/data"}
	for _, c := range []struct {
		ro   []string
		want []string
	}{
		{[]string{"/h/ws/docs/notes"}, []string{"/h/ws/docs/notes"}}, // inside the workspace
		{[]string{"/h/Notes"}, []string{"/h/Notes"}},                 // inside an allowed ~
		{[]string{"/srv/notes"}, nil},                                // outside: read-only already
		{[]string{"/h/ws"}, nil},                                     // itself writable: writable wins
		{[]string{"/h/.config/hearth/x"}, nil},                       // in a hidden folder: stays hidden
		{[]string{"/data/ws/k", "/data/ws/k"}, []string{"/data/ws/k"}},
		{[]string{"/data/other"}, nil}, // in a hidden folder, outside its writable one
		{[]string{"/"}, nil},           // holds everything: the writable folders stay so
	} {
		if got := guardedReadOnly(c.ro, w, hidden); !slices.Equal(got, c.want) {
			t.Errorf("guardedReadOnly(%v) = %v, want %v", c.ro, got, c.want)
		}
	}
	// A folder both hidden and writable is writable: what lies in it is guarded.
	if got := guardedReadOnly([]string{"/x/k"}, []string{"/x"}, []string{"/x"}); !slices.Equal(got, []string{"/x/k"}) {
		t.Errorf("in a folder both hidden and writable: %v", got)
	}
	got := waysDown([]string{"/h/ws/docs/notes/2026", "/h/ws/docs/old", "/h/Notes"}, w)
	if want := []string{"/h/ws/docs", "/h/ws/docs/notes"}; !slices.Equal(got, want) {
		t.Errorf("waysDown = %v, want %v", got, want)
	}
	if got := waysDown([]string{"/srv/notes"}, w); len(got) != 0 {
		t.Errorf("waysDown outside every writable folder = %v", got)
	}
}
