package prompt

import (
	"runtime"
	"testing"
)

func TestLocalZoneNameFromTZ(t *testing.T) {
	for _, tc := range []struct{ tz, want string }{
		{"Asia/Tokyo", "Asia/Tokyo"},
		{":Europe/Paris", "Europe/Paris"},
	} {
		t.Setenv("TZ", tc.tz)
		if got := LocalZoneName(); got != tc.want {
			t.Errorf("TZ=%q: got %q, want %q", tc.tz, got, tc.want)
		}
	}
	t.Setenv("TZ", "/etc/localtime") // a path says nothing: look further
	if got := LocalZoneName(); got == "" || got == "/etc/localtime" {
		t.Errorf("TZ as a path: got %q", got)
	}
}

func TestOSName(t *testing.T) {
	if runtime.GOOS == "linux" && OSName() != "Linux" {
		t.Errorf("OSName() = %q", OSName())
	}
	if OSName() == "" {
		t.Error("empty OS name")
	}
}

func TestIdentityIsStable(t *testing.T) {
	a, b := identity("Linux", "UTC", "/w"), identity("Linux", "UTC", "/w")
	if a != b {
		t.Fatal("identity text differs between calls")
	}
	if n := EstimateText(a); n > 330 {
		t.Errorf("identity is %d tokens; it is paid on every call, keep it under 330", n)
	}
}
