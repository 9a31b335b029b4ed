// Package launch lets the `hearth` command open the desktop window without linking the
// window toolkit itself.
//
// Why: a binary linked against GTK and WebKit pays for the dynamic loader before main
// runs — 168 libraries mapped and their symbols bound, about 50 ms of the 55 ms that
// `hearth version` took. So `hearth` is built CLI-only (no GTK, about 5 ms to start) and
// carries the desktop app as a gzip-compressed image. When the window is wanted, the image
// is unpacked once per version into the cache directory and exec'd in place of the CLI:
// same process id, same arguments, same terminal. The user still gets one file.
package launch

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/google/renameio/v2"

	"golang.org/x/sys/unix"

	"hearth/backend/internal/atomicfile"
)

// EnvLauncher names the `hearth` file that started the desktop image. The desktop app
// reads it (Executable) so an autostart entry points at `hearth`, not at the cached image,
// which is replaced by every new version.
const EnvLauncher = "HEARTH_LAUNCHER"

// imageName is the unpacked file's name: the process shows up as "hearth" in ps and top.
const imageName = "hearth"

// ID names an image by its content, so a new build never runs an old unpacked copy.
func ID(gz []byte) string {
	sum := sha256.Sum256(gz)
	return hex.EncodeToString(sum[:8])
}

// Unpack writes the image to <cacheDir>/<ID>/hearth unless it is already there, removes
// images of other versions, and returns the path. Concurrent launches are safe: each
// writes its own temporary file and renames it into place (atomicfile).
func Unpack(gz []byte, cacheDir string) (string, error) {
	dir := filepath.Join(cacheDir, ID(gz))
	path := filepath.Join(dir, imageName)
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o100 != 0 && fi.Size() == unpackedSize(gz) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("unpack the desktop app: %w", err)
	}
	f, err := atomicfile.Pending(path, renameio.WithStaticPermissions(0o755))
	if err != nil {
		return "", fmt.Errorf("unpack the desktop app: %w", err)
	}
	defer f.Cleanup() // removes the partial file after a failure
	if err := decompress(f, gz); err != nil {
		return "", fmt.Errorf("unpack the desktop app into %s: %w", dir, err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return "", fmt.Errorf("unpack the desktop app: %w", err)
	}
	removeOthers(cacheDir, ID(gz))
	return path, nil
}

// unpackedSize reads the gzip trailer's length (modulo 4 GiB), so a damaged unpacked
// copy is replaced without reading it.
func unpackedSize(gz []byte) int64 {
	if len(gz) < 4 {
		return -1
	}
	return int64(binary.LittleEndian.Uint32(gz[len(gz)-4:]))
}

func decompress(w io.Writer, gz []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("the embedded image is damaged (%w); rebuild hearth with `make desktop`", err)
	}
	if _, err := io.Copy(w, zr); err != nil {
		return fmt.Errorf("the embedded image is damaged (%w); rebuild hearth with `make desktop`", err)
	}
	return zr.Close()
}

// removeOthers deletes images left by earlier versions. Best effort: a running older
// Hearth keeps its file open, and a failure here must not stop this launch.
func removeOthers(cacheDir, keep string) {
	entries, err := os.ReadDir(cacheDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != keep && len(e.Name()) == len(keep) {
			_ = os.RemoveAll(filepath.Join(cacheDir, e.Name()))
		}
	}
}

// Exec replaces the current process with the desktop image, passing argv (argv[0] first)
// and the environment plus EnvLauncher=self. It returns only on failure. When the cache
// directory cannot hold or run files (full, read-only, mounted noexec), the image runs
// from an anonymous in-memory file instead.
func Exec(gz []byte, cacheDir, self string, argv []string) error {
	env := append(withoutLauncher(os.Environ()), EnvLauncher+"="+self)
	path, uerr := Unpack(gz, cacheDir)
	if uerr == nil {
		err := syscall.Exec(path, argv, env)
		if !errors.Is(err, syscall.EACCES) && !errors.Is(err, syscall.EPERM) {
			return fmt.Errorf("start the desktop app %s: %w", path, err)
		}
		uerr = fmt.Errorf("%s cannot be run (%w)", path, err)
	}
	if err := execMemory(gz, argv, env); err != nil {
		return fmt.Errorf("start the desktop app: %v; from memory: %w", uerr, err)
	}
	return nil // not reached: execMemory returns only on failure
}

// execMemory runs the image from a memfd. The fd is close-on-exec: the kernel has the
// file open by then, so the new program does not inherit it.
func execMemory(gz []byte, argv, env []string) error {
	fd, err := unix.MemfdCreate(imageName, unix.MFD_CLOEXEC)
	if err != nil {
		return fmt.Errorf("memfd: %w", err)
	}
	f := os.NewFile(uintptr(fd), imageName)
	defer f.Close()
	if err := decompress(f, gz); err != nil {
		return err
	}
	return syscall.Exec(fmt.Sprintf("/proc/self/fd/%d", fd), argv, env)
}

func withoutLauncher(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, EnvLauncher+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// Executable is the file a user starts Hearth with: the `hearth` launcher when this
// process is an unpacked desktop image, else this process's own file.
func Executable(getenv func(string) string) (string, error) {
	if p := getenv(EnvLauncher); p != "" && filepath.IsAbs(p) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	return os.Executable()
}
