package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

// The package's short and long description (the control file's Description).
const description = `personal AI assistant for the desktop, local-first with Ollama
Hearth chats offline with a local Ollama model (cloud providers optional),
acts through tools (files, shell, web, MCP servers), remembers in plain
Markdown files, and runs reminders and a heartbeat from the system tray.
It is one program with a window, a tray icon and a command line.`

// spec is what goes into the package, all paths on the build machine.
type spec struct {
	Version    string    // Debian version (debianVersion)
	Date       time.Time // the commit's time: the changelog date and every file's mtime
	Maintainer string
	Launcher   string   // build/bin/hearth, installed as /usr/bin/hearth
	Entry      string   // build/linux/hearth.desktop, the template
	Unit       string   // build/linux/hearth.service, the systemd user unit's template
	IconsDir   string   // build/bin/icons/hicolor with NxN/apps/hearth.png
	SVG        string   // build/icon.svg, the scalable icon
	Copyright  string   // build/linux/copyright
	Overrides  string   // build/linux/lintian-overrides
	ManDir     string   // build/bin/man/man1 with hearth.1 and hearth-*.1
	Depends    []string // depends(glibc)
}

// exe is where the package installs the command; the menu entry starts it by this path.
const exe = "/usr/bin/hearth"

// unitPath is where the user manager finds the package's unit. The package installs it
// and never enables it (no maintainer script): `systemctl --user enable --now hearth`.
const unitPath = "/usr/lib/systemd/user/hearth.service"

var iconDirRe = regexp.MustCompile(`^[0-9]+x[0-9]+$`)

// writeDeb builds the package into outDir and returns its path. Generated files (the
// menu entry with its Exec path, the changelog) are staged in stage.
func writeDeb(s spec, stage, outDir string) (string, error) {
	contents, err := s.contents(stage)
	if err != nil {
		return "", err
	}
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:          "hearth",
		Arch:          "amd64",
		Platform:      "linux",
		Version:       s.Version,
		VersionSchema: "none", // already a Debian version: nFPM must not reparse it as semver
		Section:       "utils",
		Priority:      "optional",
		Maintainer:    s.Maintainer,
		Description:   description,
		MTime:         s.Date,
		Overridables: nfpm.Overridables{
			Depends:  s.Depends,
			Contents: contents,
			Umask:    0o022,
		},
	})
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", fmt.Errorf("prepare the package: %w", err)
	}
	out := filepath.Join(outDir, deb.Default.ConventionalFileName(info))
	var buf bytes.Buffer
	if err := deb.Default.Package(info, &buf); err != nil {
		return "", fmt.Errorf("build the package: %w", err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("write the package: %w", err)
	}
	return out, nil
}

// contents lists the package's files: the same ones `make install` puts under
// PREFIX (scripts/install.sh), here under /usr, plus the Debian docs.
func (s spec) contents(stage string) (files.Contents, error) {
	entry, err := os.ReadFile(s.Entry)
	if err != nil {
		return nil, fmt.Errorf("read the menu entry: %w", err)
	}
	entryFile := filepath.Join(stage, "hearth.desktop")
	if err := os.WriteFile(entryFile, []byte(menuEntry(string(entry), exe)), 0o644); err != nil {
		return nil, err
	}
	unit, err := os.ReadFile(s.Unit)
	if err != nil {
		return nil, fmt.Errorf("read the systemd unit: %w", err)
	}
	unitFile := filepath.Join(stage, "hearth.service")
	if err := os.WriteFile(unitFile, []byte(serviceUnit(string(unit), exe)), 0o644); err != nil {
		return nil, err
	}
	changelog := filepath.Join(stage, "changelog.gz")
	if err := writeGzip(changelog, changelogText(s)); err != nil {
		return nil, fmt.Errorf("write the changelog: %w", err)
	}

	c := files.Contents{
		file(s.Launcher, exe, 0o755, s.Date),
		file(entryFile, "/usr/share/applications/hearth.desktop", 0o644, s.Date),
		file(unitFile, unitPath, 0o644, s.Date),
		file(s.SVG, "/usr/share/icons/hicolor/scalable/apps/hearth.svg", 0o644, s.Date),
		file(s.Copyright, "/usr/share/doc/hearth/copyright", 0o644, s.Date),
		file(changelog, "/usr/share/doc/hearth/changelog.gz", 0o644, s.Date),
		file(s.Overrides, "/usr/share/lintian/overrides/hearth", 0o644, s.Date),
	}
	pages, err := filepath.Glob(filepath.Join(s.ManDir, "*.1"))
	if err != nil || len(pages) == 0 {
		return nil, fmt.Errorf("no man pages in %s: run `make man`", s.ManDir)
	}
	for _, p := range pages {
		text, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		gz := filepath.Join(stage, filepath.Base(p)+".gz")
		if err := writeGzip(gz, string(text)); err != nil {
			return nil, fmt.Errorf("compress %s: %w", p, err)
		}
		c = append(c, file(gz, "/usr/share/man/man1/"+filepath.Base(gz), 0o644, s.Date))
	}
	dirs, err := os.ReadDir(s.IconsDir)
	if err != nil {
		return nil, fmt.Errorf("read the icons (make icons): %w", err)
	}
	var sizes []string
	for _, d := range dirs {
		if d.IsDir() && iconDirRe.MatchString(d.Name()) {
			sizes = append(sizes, d.Name())
		}
	}
	if len(sizes) == 0 {
		return nil, fmt.Errorf("no icons in %s: run `make icons`", s.IconsDir)
	}
	sort.Strings(sizes)
	for _, size := range sizes {
		c = append(c, file(filepath.Join(s.IconsDir, size, "apps", "hearth.png"),
			"/usr/share/icons/hicolor/"+size+"/apps/hearth.png", 0o644, s.Date))
	}
	for _, f := range c {
		if _, err := os.Stat(f.Source); err != nil {
			return nil, fmt.Errorf("package file: %w", err)
		}
	}
	return c, nil
}

func file(src, dst string, mode os.FileMode, mtime time.Time) *files.Content {
	return &files.Content{Source: src, Destination: dst, Type: files.TypeFile,
		FileInfo: &files.ContentFileInfo{Owner: "root", Group: "root", Mode: mode, MTime: mtime}}
}

// menuEntry sets the template's Exec and TryExec to the installed program. path must
// need no quoting (it is /usr/bin/hearth here; scripts/install.sh quotes any path).
func menuEntry(template, path string) string {
	lines := strings.Split(template, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "Exec="):
			lines[i] = "Exec=" + path
		case strings.HasPrefix(l, "TryExec="):
			lines[i] = "TryExec=" + path
		}
	}
	return strings.Join(lines, "\n")
}

// serviceUnit sets the unit template's ExecStart to `path serve`. path must need no
// quoting (scripts/install.sh quotes any path).
func serviceUnit(template, path string) string {
	lines := strings.Split(template, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "ExecStart=") {
			lines[i] = "ExecStart=" + path + " serve"
		}
	}
	return strings.Join(lines, "\n")
}

// changelogText is a one-entry Debian changelog, which a native package carries as
// /usr/share/doc/<package>/changelog.gz.
func changelogText(s spec) string {
	return fmt.Sprintf("hearth (%s) unstable; urgency=medium\n\n  * Built from the Hearth sources at this version.\n\n -- %s  %s\n",
		s.Version, s.Maintainer, s.Date.UTC().Format(time.RFC1123Z))
}

// writeGzip compresses at the highest level with no name or time in the header, as
// Debian's tools do, so the same input gives the same file.
func writeGzip(path, text string) error {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write([]byte(text)); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
