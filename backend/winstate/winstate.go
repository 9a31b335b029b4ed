// Package winstate remembers the desktop window's size and position between launches.
// It lives outside app.go so the file handling is testable without a display.
package winstate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/safefile"
)

// State is what window.json holds. Width and Height are the last normal (not maximised)
// size, so un-maximising after a restart returns to a sensible window.
type State struct {
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	X         int  `json:"x"`
	Y         int  `json:"y"`
	HasPos    bool `json:"hasPosition"`
	Maximised bool `json:"maximised"`
	// TrayNoticed: the person has been told, at the window's first close, that Hearth
	// still runs in the tray; the notice is said once, not at every close.
	TrayNoticed bool `json:"trayNoticed,omitempty"`
}

// Defaults used on first launch and whenever the saved state is unusable.
const (
	DefaultWidth  = 1100
	DefaultHeight = 720
	MinWidth      = 640
	MinHeight     = 440
	// Larger than any real screen: a saved size above it means a corrupt file.
	maxSide = 16384
)

// maxFileBytes bounds the file: a few numbers; a pipe or a huge file in its place is
// refused at once and the window opens at its default size.
const maxFileBytes = 64 << 10

// Default is the state of a first launch.
func Default() State { return State{Width: DefaultWidth, Height: DefaultHeight} }

// Load reads path. A missing file gives Default() and no error; a corrupt file gives
// Default() and an error the caller may log (the window must open either way).
func Load(path string) (State, error) {
	data, err := safefile.ReadFile(path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), fmt.Errorf("read window state %s: %w", path, err)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return Default(), fmt.Errorf("parse window state %s: %w (the window opens at its default size)", path, err)
	}
	return s.sane(), nil
}

// sane clamps sizes into a range a window can actually have.
func (s State) sane() State {
	if s.Width < MinWidth || s.Width > maxSide || s.Height < MinHeight || s.Height > maxSide {
		s.Width, s.Height = DefaultWidth, DefaultHeight
	}
	if s.X < -maxSide || s.X > maxSide || s.Y < -maxSide || s.Y > maxSide {
		s.X, s.Y, s.HasPos = 0, 0, false
	}
	return s
}

// Save writes the state atomically (temp file + rename) so a crash mid-write never
// leaves a half-written window.json behind.
func Save(path string, s State) error {
	if err := atomicfile.WriteJSON(path, s.sane()); err != nil {
		return fmt.Errorf("save window state %s: %w", path, err)
	}
	return nil
}

// Seen is the window as the window system reports it now. A window hidden to the tray
// reports nothing true (position 0,0 on X11), so Shown says whether to believe it.
type Seen struct {
	Shown         bool
	Maximised     bool
	Width, Height int
	X, Y          int
}

// Next is the state to keep after seeing the window so: a shown window's geometry (its
// normal size only when not maximised), or, while it is hidden, the last known state
// unchanged — quitting from the tray must not move the window to a corner.
func (s State) Next(seen Seen) State {
	if !seen.Shown {
		return s
	}
	s.Maximised = seen.Maximised
	if !seen.Maximised {
		s.Width, s.Height = seen.Width, seen.Height
		s.X, s.Y, s.HasPos = seen.X, seen.Y, true
	}
	return s
}

// FirstHide marks the tray notice as said and reports whether this close is the first
// (the caller saves the state, so the notice is not said again next launch).
func (s *State) FirstHide() bool {
	if s.TrayNoticed {
		return false
	}
	s.TrayNoticed = true
	return true
}
