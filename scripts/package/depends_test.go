package main

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestDependsDeclaresEveryLinkedLibrary(t *testing.T) {
	owners := map[string][]string{
		"libc.so.6":              {"libc6"},
		"libgtk-3.so.0":          {"libgtk-3-0t64"}, // an Ubuntu 24.04 build machine
		"libglib-2.0.so.0":       {"libglib2.0-0"},
		"libwebkit2gtk-4.1.so.0": {"libwebkit2gtk-4.1-0"},
		"libnew.so.1":            {"libnew1"},
	}
	calls := 0
	lookup := func(sonames []string) (map[string][]string, error) {
		calls++
		found := map[string][]string{}
		for _, so := range sonames {
			if p, ok := owners[so]; ok {
				found[so] = p
			}
		}
		return found, nil
	}
	deps := depends("2.34")
	if deps[0] != "libc6 (>= 2.34)" {
		t.Errorf("libc entry %q", deps[0])
	}
	if err := checkDeclared([]string{"libc.so.6", "libgtk-3.so.0", "libglib-2.0.so.0", "libwebkit2gtk-4.1.so.0", "libc.so.6"}, deps, lookup); err != nil {
		t.Errorf("declared libraries reported: %v", err)
	}
	if calls != 1 {
		t.Errorf("%d owner queries for one check, want 1 (each reads dpkg's whole file list)", calls)
	}
	err := checkDeclared([]string{"libc.so.6", "libnew.so.1"}, deps, lookup)
	if err == nil || !strings.Contains(err.Error(), "libnew.so.1 (from libnew1)") || !strings.Contains(err.Error(), "depends.go") {
		t.Errorf("an undeclared library: %v", err)
	}
	if err := checkDeclared([]string{"libgone.so.2"}, deps, lookup); err == nil || !strings.Contains(err.Error(), "no installed package ships libgone.so.2") {
		t.Errorf("a library no package ships: %v", err)
	}
	if err := checkDeclared([]string{"libc.so.6"}, deps, func([]string) (map[string][]string, error) {
		return nil, errors.New("dpkg broke")
	}); err == nil || !strings.Contains(err.Error(), "dpkg broke") {
		t.Errorf("a failed query: %v", err)
	}
	if depends("")[0] != "libc6" {
		t.Errorf("no glibc version: %q", depends("")[0])
	}
}

func TestDeclaredReadsAlternatives(t *testing.T) {
	deps := []string{"libc6 (>= 2.34)", "libgtk-3-0t64 | libgtk-3-0", "libfoo (>= 1) | libbar"}
	for pkg, want := range map[string]bool{"libc6": true, "libgtk-3-0": true, "libgtk-3-0t64": true, "libbar": true, "libfoo": true, "libgtk": false} {
		if declared(deps, pkg) != want {
			t.Errorf("declared(%q) = %v", pkg, !want)
		}
	}
}

func TestVersionLess(t *testing.T) {
	for _, c := range [][2]string{{"", "2.2.5"}, {"2.3.2", "2.34"}, {"2.9", "2.10"}, {"2.34", "2.34.1"}} {
		if !versionLess(c[0], c[1]) || versionLess(c[1], c[0]) {
			t.Errorf("%q < %q wrong", c[0], c[1])
		}
	}
}

// A real dynamically linked program: its libraries and glibc version are read, and on a
// Debian machine dpkg knows the package of each.
func TestLinkedReadsARealProgram(t *testing.T) {
	const sh = "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	libs, glibc, err := linked(sh)
	if err != nil {
		t.Fatal(err)
	}
	if len(libs) == 0 || glibc == "" || !strings.HasPrefix(glibc, "2.") {
		t.Fatalf("linked(%s) = %v, glibc %q", sh, libs, glibc)
	}
	if _, err := os.Stat("/var/lib/dpkg/status"); err != nil {
		return
	}
	found, err := dpkgOwners(append(libs, "libnothing-at-all.so.9"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range libs {
		if len(found[l]) == 0 {
			t.Errorf("dpkg knows no package of %s: %v", l, found)
		}
	}
	if _, ok := found["libnothing-at-all.so.9"]; ok {
		t.Errorf("an owner for a library that does not exist: %v", found)
	}
}
