package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blakesmith/ar"
)

// A package built from stand-in files holds each at its place under /usr with its mode,
// the menu entry starting /usr/bin/hearth, and a control file dpkg accepts.
func TestWriteDeb(t *testing.T) {
	src := t.TempDir()
	put := func(rel, text string) string {
		p := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	put("icons/16x16/apps/hearth.png", "png16")
	put("icons/512x512/apps/hearth.png", "png512")
	put("icons/README", "not an icon folder")
	put("man/hearth.1", ".TH HEARTH 1\n")
	put("man/hearth-status.1", ".TH HEARTH-STATUS 1\n")
	s := spec{
		Version:    "1.2.3+git4.abc1234",
		Date:       time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Maintainer: "Test <test@example.org>",
		Launcher:   put("hearth", "#!/bin/sh\n"),
		Entry:      put("hearth.desktop", "[Desktop Entry]\nName=Hearth\nExec=hearth\nTryExec=hearth\nIcon=hearth\n"),
		Unit:       put("hearth.service", "[Service]\nExecStart=hearth serve\nRestart=on-failure\n"),
		IconsDir:   filepath.Join(src, "icons"),
		SVG:        put("icon.svg", "<svg/>"),
		Copyright:  put("copyright", "Copyright 2026 Test\n"),
		Overrides:  put("overrides", "hearth: no-manual-page\n"),
		ManDir:     filepath.Join(src, "man"),
		Depends:    depends("2.34"),
	}
	out := t.TempDir()
	path, err := writeDeb(s, t.TempDir(), out)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "hearth_1.2.3+git4.abc1234_amd64.deb" {
		t.Errorf("file name %s", filepath.Base(path))
	}
	control, data := readDeb(t, path)

	for _, want := range []string{
		"Package: hearth\n", "Version: 1.2.3+git4.abc1234\n", "Architecture: amd64\n",
		"Maintainer: Test <test@example.org>\n",
		"Depends: libc6 (>= 2.34), libglib2.0-0t64 | libglib2.0-0, libgtk-3-0t64 | libgtk-3-0,",
		"libwebkit2gtk-4.1-0, poppler-utils\n", "Description: personal AI assistant",
	} {
		if !strings.Contains(control, want) {
			t.Errorf("control lacks %q:\n%s", want, control)
		}
	}
	wantFiles := map[string]int64{
		"/usr/bin/hearth":                                   0o755,
		"/usr/share/applications/hearth.desktop":            0o644,
		"/usr/lib/systemd/user/hearth.service":              0o644,
		"/usr/share/icons/hicolor/16x16/apps/hearth.png":    0o644,
		"/usr/share/icons/hicolor/512x512/apps/hearth.png":  0o644,
		"/usr/share/icons/hicolor/scalable/apps/hearth.svg": 0o644,
		"/usr/share/man/man1/hearth.1.gz":                   0o644,
		"/usr/share/man/man1/hearth-status.1.gz":            0o644,
		"/usr/share/doc/hearth/copyright":                   0o644,
		"/usr/share/doc/hearth/changelog.gz":                0o644,
		"/usr/share/lintian/overrides/hearth":               0o644,
	}
	for name, f := range data {
		mode, ok := wantFiles[name]
		if !ok {
			t.Errorf("unexpected file %s", name)
			continue
		}
		if f.mode != mode || f.uid != 0 || f.gid != 0 {
			t.Errorf("%s: mode %o uid %d gid %d", name, f.mode, f.uid, f.gid)
		}
		delete(wantFiles, name)
	}
	for name := range wantFiles {
		t.Errorf("missing %s", name)
	}
	if e := data["/usr/share/applications/hearth.desktop"].text; !strings.Contains(e, "\nExec=/usr/bin/hearth\nTryExec=/usr/bin/hearth\n") {
		t.Errorf("menu entry:\n%s", e)
	}
	// The user unit starts the installed program and is not enabled: no link in a
	// .wants folder (and writeDeb gives nFPM no maintainer scripts).
	if u := data["/usr/lib/systemd/user/hearth.service"].text; !strings.Contains(u, "\nExecStart=/usr/bin/hearth serve\nRestart=on-failure\n") {
		t.Errorf("unit:\n%s", u)
	}
	for name := range data {
		if strings.Contains(name, ".wants/") {
			t.Errorf("the package enables the service: %s", name)
		}
	}
	if c := gunzip(t, data["/usr/share/doc/hearth/changelog.gz"].text); !strings.HasPrefix(c, "hearth (1.2.3+git4.abc1234) unstable; urgency=medium\n") ||
		!strings.Contains(c, " -- Test <test@example.org>  Fri, 02 Jan 2026 03:04:05 +0000\n") {
		t.Errorf("changelog:\n%s", c)
	}
	if m := gunzip(t, data["/usr/share/man/man1/hearth.1.gz"].text); m != ".TH HEARTH 1\n" {
		t.Errorf("man page %q", m)
	}

	// Missing inputs name what to build.
	s.ManDir = filepath.Join(src, "nothing")
	if _, err := writeDeb(s, t.TempDir(), out); err == nil || !strings.Contains(err.Error(), "make man") {
		t.Errorf("no man pages: %v", err)
	}
}

type tarFile struct {
	mode     int64
	uid, gid int
	text     string
}

// readDeb returns the control file and the regular files of the data archive.
func readDeb(t *testing.T, path string) (string, map[string]tarFile) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := ar.NewReader(f)
	var control string
	data := map[string]tarFile{}
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r)
		switch strings.TrimSuffix(h.Name, "/") {
		case "control.tar.gz":
			for name, f := range untar(t, body) {
				if name == "/control" {
					control = f.text
				}
			}
		case "data.tar.gz":
			data = untar(t, body)
		}
	}
	if control == "" || len(data) == 0 {
		t.Fatalf("%s: no control file or no data", path)
	}
	return control, data
}

func untar(t *testing.T, gz []byte) map[string]tarFile {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string]tarFile{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		body, _ := io.ReadAll(tr)
		out["/"+strings.TrimPrefix(h.Name, "./")] = tarFile{mode: h.Mode, uid: h.Uid, gid: h.Gid, text: string(body)}
	}
}

func gunzip(t *testing.T, s string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
