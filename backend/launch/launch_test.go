package launch

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gz compresses into memory, which cannot fail.
func gz(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = w.Write(data)
	_ = w.Close()
	return b.Bytes()
}

const script = "#!/bin/sh\necho \"ran $0 args:$* launcher:$HEARTH_LAUNCHER\"\n"

func TestUnpackWritesOnceAndReplacesDamage(t *testing.T) {
	cache := t.TempDir()
	img := gz([]byte(script))
	path, err := Unpack(img, cache)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, ID(img), "hearth"); path != want {
		t.Fatalf("path %s, want %s", path, want)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != script {
		t.Fatalf("unpacked %q, %v", data, err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", fi.Mode().Perm())
	}

	// A second launch reuses the file: it is not written again.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := Unpack(img, cache); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); !fi.ModTime().Equal(old) {
		t.Errorf("unchanged image was rewritten")
	}

	// A truncated copy (a full disk, a crash of some other tool) is replaced.
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Unpack(img, cache); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != script {
		t.Errorf("damaged copy kept: %q", data)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestUnpackRemovesOtherVersions(t *testing.T) {
	cache := t.TempDir()
	older := gz([]byte("#!/bin/sh\necho old\n"))
	oldPath, err := Unpack(older, cache)
	if err != nil {
		t.Fatal(err)
	}
	// Not an image directory: left alone.
	keep := filepath.Join(cache, "notes")
	if err := os.Mkdir(keep, 0o700); err != nil {
		t.Fatal(err)
	}
	newPath, err := Unpack(gz([]byte(script)), cache)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(oldPath); !os.IsNotExist(err) {
		t.Errorf("old image still there: %v", err)
	}
	if _, err := os.Stat(newPath); err != nil {
		t.Errorf("new image: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("unrelated directory removed: %v", err)
	}
}

func TestUnpackDamagedImage(t *testing.T) {
	cache := t.TempDir()
	img := gz([]byte(script))
	img[len(img)/2] ^= 0xff // corrupt the deflate stream
	_, err := Unpack(img, cache)
	if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "make desktop") {
		t.Fatalf("want a damaged-image error with a hint, got %v", err)
	}
	if _, err := Unpack([]byte("not gzip at all"), cache); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("not gzip: %v", err)
	}
	dirs, _ := os.ReadDir(cache)
	for _, d := range dirs {
		files, _ := os.ReadDir(filepath.Join(cache, d.Name()))
		if len(files) != 0 {
			t.Errorf("left behind in %s: %v", d.Name(), files)
		}
	}
}

func TestExecutable(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	launcher := filepath.Join(t.TempDir(), "hearth")
	if err := os.WriteFile(launcher, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ env, want string }{
		{launcher, launcher},
		{"", self},
		{"relative/hearth", self},
		{filepath.Join(t.TempDir(), "gone"), self},
	} {
		got, err := Executable(func(k string) string {
			if k == EnvLauncher {
				return c.env
			}
			return ""
		})
		if err != nil || got != c.want {
			t.Errorf("HEARTH_LAUNCHER=%q: got %q %v, want %q", c.env, got, err, c.want)
		}
	}
}

// The exec tests run Exec in a child copy of this test binary, since Exec replaces the
// process that calls it.
func TestMain(m *testing.M) {
	// The test binary run from memory by the "elf" mode below: it says so and ends.
	if msg := os.Getenv("LAUNCH_TEST_ECHO"); msg != "" {
		os.Stdout.WriteString(msg + "\n")
		os.Exit(0)
	}
	if mode := os.Getenv("LAUNCH_TEST_EXEC"); mode != "" {
		var img []byte
		var argv []string
		switch mode {
		case "script":
			img, argv = gz([]byte(script)), []string{"hearth", "--hidden", "x"}
		case "elf":
			// A real ELF program: this test binary itself.
			self, err := os.Executable()
			if err != nil {
				os.Exit(3)
			}
			elf, err := os.ReadFile(self)
			if err != nil {
				os.Exit(3)
			}
			os.Setenv("LAUNCH_TEST_ECHO", "ran from memory")
			img, argv = gz(elf), []string{"hearth"}
		}
		err := Exec(img, os.Getenv("LAUNCH_TEST_CACHE"), "/opt/hearth/hearth", argv)
		os.Stderr.WriteString("Exec returned: " + err.Error() + "\n")
		os.Exit(4)
	}
	os.Exit(m.Run())
}

func runChild(t *testing.T, mode, cache string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LAUNCH_TEST_EXEC="+mode, "LAUNCH_TEST_CACHE="+cache, EnvLauncher+"=/stale")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return string(out)
}

func TestExecReplacesProcess(t *testing.T) {
	cache := t.TempDir()
	out := runChild(t, "script", cache)
	want := "ran " + filepath.Join(cache) + "/"
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "/hearth args:--hidden x launcher:/opt/hearth/hearth\n") {
		t.Errorf("child printed %q", out)
	}
}

func TestExecFromMemoryWhenCacheUnusable(t *testing.T) {
	// The cache path is a regular file, so nothing can be unpacked under it.
	blocked := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if out := runChild(t, "elf", blocked); out != "ran from memory\n" {
		t.Errorf("child printed %q", out)
	}
}
