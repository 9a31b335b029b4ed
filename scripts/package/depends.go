package main

import (
	"debug/elf"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
)

// libraryPackages are the packages of the libraries the desktop app links (its ELF
// NEEDED entries), one Depends entry each. Where Debian 13 and Ubuntu 24.04 renamed a
// library package for the 64-bit time_t transition, the new name comes first with the
// old one as the alternative, so one package installs on Debian 12 and 13 and Ubuntu
// 22.04 and 24.04. WebKitGTK 4.1 (the webkit2_41 build) and libsoup 3 kept their names.
// libc6 is added with the version the binaries need (libcDepends).
var libraryPackages = []string{
	"libglib2.0-0t64 | libglib2.0-0",
	"libgtk-3-0t64 | libgtk-3-0",
	"libgdk-pixbuf-2.0-0",
	"libsoup-3.0-0",
	"libjavascriptcoregtk-4.1-0",
	"libwebkit2gtk-4.1-0",
}

// programPackages are the packages of the programs Hearth runs: pdftotext reads a PDF's
// text in a child process (backend/extract).
var programPackages = []string{"poppler-utils"}

// linked lists the shared libraries an ELF file needs and the newest glibc symbol
// version it uses (e.g. "2.34"; "" when it uses none).
func linked(file string) (libs []string, glibc string, err error) {
	f, err := elf.Open(file)
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", file, err)
	}
	defer f.Close()
	libs, err = f.ImportedLibraries()
	if err != nil {
		return nil, "", fmt.Errorf("read the libraries %s links: %w", file, err)
	}
	syms, err := f.DynamicSymbols()
	if err != nil && len(libs) > 0 {
		return nil, "", fmt.Errorf("read the symbols of %s: %w", file, err)
	}
	for _, s := range syms {
		if v, ok := strings.CutPrefix(s.Version, "GLIBC_"); ok && versionLess(glibc, v) {
			glibc = v
		}
	}
	return libs, glibc, nil
}

// versionLess compares dotted numeric versions ("2.9" < "2.34"); "" is the least.
func versionLess(a, b string) bool {
	if a == "" || b == "" {
		return a == "" && b != ""
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// depends is the Depends list for binaries that need glibc at least glibc.
func depends(glibc string) []string {
	libc := "libc6"
	if glibc != "" {
		libc += " (>= " + glibc + ")"
	}
	return append(append([]string{libc}, libraryPackages...), programPackages...)
}

// declared reports whether pkg is one of the alternatives of a Depends entry.
func declared(deps []string, pkg string) bool {
	for _, d := range deps {
		for _, alt := range strings.Split(d, "|") {
			name, _, _ := strings.Cut(strings.TrimSpace(alt), " ")
			if name == pkg {
				return true
			}
		}
	}
	return false
}

// ownersFunc finds the packages that ship a file named like each soname (dpkg -S on a
// Debian build machine), keyed by soname.
type ownersFunc func(sonames []string) (map[string][]string, error)

// dpkgOwners asks dpkg which installed packages ship the sonames, in one query: each
// query reads dpkg's whole file list, a second or more on a busy machine.
func dpkgOwners(sonames []string) (map[string][]string, error) {
	want := map[string]bool{}
	args := []string{"-S"}
	for _, so := range sonames {
		want[so] = true
		args = append(args, "*/"+so)
	}
	// dpkg-query exits 1 when a pattern matches nothing, after printing the other matches;
	// a soname with no owner is reported by checkDeclared.
	out, err := exec.Command("dpkg-query", args...).Output()
	if err != nil && len(out) == 0 {
		return nil, fmt.Errorf("dpkg-query -S: %w", err)
	}
	owners := map[string][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		pkgs, file, ok := strings.Cut(line, ": ")
		so := path.Base(file)
		if !ok || !want[so] {
			continue
		}
		for _, p := range strings.Split(pkgs, ", ") {
			p, _, _ = strings.Cut(p, ":") // drop the architecture
			if !slices.Contains(owners[so], p) {
				owners[so] = append(owners[so], p)
			}
		}
	}
	return owners, nil
}

// checkDeclared fails when a library the binaries link comes from a package the Depends
// list does not name, so a new link (a Wails or WebKit update) cannot ship undeclared.
func checkDeclared(libs, deps []string, owners ownersFunc) error {
	libs = slices.Compact(slices.Sorted(slices.Values(libs)))
	found, err := owners(libs)
	if err != nil {
		return fmt.Errorf("check the package's dependencies: %w", err)
	}
	var missing []string
	for _, lib := range libs {
		pkgs := found[lib]
		if len(pkgs) == 0 {
			return fmt.Errorf("check the package's dependencies: no installed package ships %s, which the desktop app links", lib)
		}
		if !slices.ContainsFunc(pkgs, func(p string) bool { return declared(deps, p) }) {
			missing = append(missing, fmt.Sprintf("%s (from %s)", lib, strings.Join(pkgs, " or ")))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the desktop app links %s, whose package is not in Depends; add it to libraryPackages in scripts/package/depends.go",
			strings.Join(missing, ", "))
	}
	return nil
}
