// Command package builds Hearth's Debian package with nFPM (`make package`): the
// launcher as /usr/bin/hearth, the menu entry, the hicolor icons, the man pages and the
// Debian docs, with Depends taken from the libraries the desktop app links.
//
// It is its own Go module so nFPM and its dependencies stay out of the app's go.mod.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	root := flag.String("root", "", "the Hearth repository (required)")
	describe := flag.String("describe", "", "`git describe --tags --always --dirty` output (required)")
	commits := flag.Int("commits", 0, "commits on HEAD, for versions before the first tag")
	out := flag.String("out", "", "folder for the .deb (default ROOT/build/bin)")
	maintainer := flag.String("maintainer", "The Hearth developers <hearth@example.org>", "the package's Maintainer")
	flag.Parse()
	if *root == "" || *describe == "" {
		fmt.Fprintln(os.Stderr, "package: -root and -describe are required (run `make package`)")
		os.Exit(2)
	}
	if *out == "" {
		*out = filepath.Join(*root, "build", "bin")
	}
	path, err := run(*root, *describe, *commits, *maintainer, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "package:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}

func run(root, describe string, commits int, maintainer, out string) (string, error) {
	version, err := debianVersion(describe, commits)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(root, "build", "bin")
	launcher := filepath.Join(bin, "hearth")
	image := filepath.Join(bin, "hearth-desktop") // the desktop app the launcher carries

	// Depends come from what the binaries link: the launcher links only libc; the desktop
	// image it unpacks and runs links GTK and WebKit.
	var libs []string
	glibc := ""
	for _, f := range []string{launcher, image} {
		l, g, err := linked(f)
		if err != nil {
			return "", fmt.Errorf("%w (run `make desktop` first)", err)
		}
		libs = append(libs, l...)
		if versionLess(glibc, g) {
			glibc = g
		}
	}
	deps := depends(glibc)
	if _, err := exec.LookPath("dpkg-query"); err == nil {
		if err := checkDeclared(libs, deps, dpkgOwners); err != nil {
			return "", err
		}
	} else {
		fmt.Fprintln(os.Stderr, "package: no dpkg-query here: the Depends list is not checked against the linked libraries")
	}

	stage, err := os.MkdirTemp("", "hearth-package-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	return writeDeb(spec{
		Version:    version,
		Date:       commitTime(root),
		Maintainer: maintainer,
		Launcher:   launcher,
		Entry:      filepath.Join(root, "build", "linux", "hearth.desktop"),
		Unit:       filepath.Join(root, "build", "linux", "hearth.service"),
		IconsDir:   filepath.Join(bin, "icons", "hicolor"),
		SVG:        filepath.Join(root, "build", "icon.svg"),
		Copyright:  filepath.Join(root, "build", "linux", "copyright"),
		Overrides:  filepath.Join(root, "build", "linux", "lintian-overrides"),
		ManDir:     filepath.Join(bin, "man", "man1"),
		Depends:    deps,
	}, stage, out)
}

// commitTime is HEAD's commit time, so two builds of one commit give the same package;
// SOURCE_DATE_EPOCH wins when set, the current time when neither is known.
func commitTime(root string) time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%ct").Output()
	if n, perr := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil && perr == nil {
		return time.Unix(n, 0).UTC()
	}
	return time.Now().UTC().Truncate(time.Second)
}
