package main

import (
	"os/exec"
	"strings"
	"testing"
)

func TestDebianVersion(t *testing.T) {
	for _, tc := range []struct {
		describe string
		commits  int
		want     string
	}{
		{"v1.2.3", 0, "1.2.3"},
		{"1.2.3", 0, "1.2.3"},
		{"v1.2.3-4-gabc1234", 0, "1.2.3+git4.abc1234"},
		{"v1.2.3-4-gabc1234-dirty", 0, "1.2.3+git4.abc1234.dirty"},
		{"v1.2.3-dirty", 0, "1.2.3+dirty"},
		{"v1.0.0-rc1", 0, "1.0.0~rc1"},
		{"v1.0.0-rc1-2-g0123abc", 0, "1.0.0~rc1+git2.0123abc"},
		{"26caa7b", 329, "0.0.0~git329.26caa7b"},
		{"26caa7b-dirty", 329, "0.0.0~git329.26caa7b.dirty"},
		{"v2.0_beta", 0, "2.0.beta"},
	} {
		got, err := debianVersion(tc.describe, tc.commits)
		if err != nil || got != tc.want {
			t.Errorf("debianVersion(%q, %d) = %q, %v; want %q", tc.describe, tc.commits, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "dev", "v", "release-1"} {
		if v, err := debianVersion(bad, 1); err == nil {
			t.Errorf("debianVersion(%q) = %q, want an error", bad, v)
		} else if !strings.Contains(err.Error(), "VERSION=") {
			t.Errorf("error for %q gives no hint: %v", bad, err)
		}
	}
}

// The versions sort as releases do: untagged builds before the first release, a later
// commit after an earlier one, a pre-release before its release, commits after a tag
// before the next release. dpkg itself judges, where it is installed.
func TestDebianVersionOrder(t *testing.T) {
	dpkg, err := exec.LookPath("dpkg")
	if err != nil {
		t.Skip("dpkg not installed: the order check needs dpkg --compare-versions")
	}
	describes := []struct {
		d string
		n int
	}{{"abc1234", 9}, {"def5678", 10}, {"v0.1.0-rc1", 0}, {"v0.1.0", 0}, {"v0.1.0-3-g0a1b2c3", 0}, {"v0.1.1", 0}}
	var prev string
	for _, d := range describes {
		v, err := debianVersion(d.d, d.n)
		if err != nil {
			t.Fatal(err)
		}
		if prev != "" {
			if err := exec.Command(dpkg, "--compare-versions", prev, "lt", v).Run(); err != nil {
				t.Errorf("dpkg does not sort %s before %s", prev, v)
			}
		}
		prev = v
	}
}

// Whatever git prints, the result is a valid Debian version or an error.
func FuzzDebianVersion(f *testing.F) {
	for _, s := range []string{"v1.2.3-4-gabc1234-dirty", "26caa7b", "v1.0.0-rc1", "v..", "-dirty", "v1 2", "v1.0:1"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, describe string, commits int) {
		v, err := debianVersion(describe, commits)
		if err == nil && !debVersionRe.MatchString(v) {
			t.Fatalf("debianVersion(%q, %d) = %q: not a Debian version", describe, commits, v)
		}
	})
}
