package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hearth/backend/internal/confined"
	"hearth/backend/internal/safefile"
)

// Policy is the file-system sandbox shared by the file tools, glob/grep and exec
// (docs/design/safety-defaults.md#workspace-confinement). The zero value is confined to nothing at all and refuses every
// path: set Workspace.
type Policy struct {
	// Workspace is the agent's folder; relative paths resolve against it.
	Workspace string
	// Unrestricted turns the workspace confinement off (config
	// tools.restrictToWorkspace=false). The zero value keeps it on, which is the
	// shipped default; device files, /proc and protected paths stay guarded.
	Unrestricted bool
	// AllowedPaths are extra roots the tools may use besides the workspace.
	AllowedPaths []string
	// ProtectedPaths are readable but never writable: files, or folders whose
	// whole tree is protected. The config file is always among them.
	ProtectedPaths []string
	// Knowledge are the knowledge folders (Settings › Knowledge): readable like
	// AllowedPaths, never writable, by the file tools and by commands alike.
	Knowledge []string
	// Home is used for "~"; empty means os.UserHomeDir.
	Home string
}

// kernelRoots hold pseudo-files and devices: reading /proc/self/environ leaks
// secrets and /dev/zero never ends, so they are refused even when unrestricted.
func kernelRoots() []string { return []string{"/proc", "/sys", "/dev"} }

func (p *Policy) home() string {
	if p.Home != "" {
		return p.Home
	}
	h, _ := os.UserHomeDir()
	return h
}

// expand applies "~" and makes path absolute against base (the workspace).
func (p *Policy) expand(path, base string) string {
	path = strings.TrimSpace(path)
	if path == "~" || strings.HasPrefix(path, "~/") {
		path = filepath.Join(p.home(), path[1:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	return filepath.Clean(path)
}

// realPath resolves symlinks on the longest existing prefix of an absolute path,
// so a not-yet-existing file under a symlinked folder is judged by where it
// would really be written.
func realPath(abs string) string {
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	dir, rest := abs, ""
	for {
		parent := filepath.Dir(dir)
		rest = filepath.Join(filepath.Base(dir), rest)
		if parent == dir {
			return abs
		}
		dir = parent
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
	}
}

// roots returns the resolved workspace and allowed paths.
func (p *Policy) roots() []string {
	var out []string
	for _, r := range append(append([]string{p.Workspace}, p.AllowedPaths...), p.Knowledge...) {
		if strings.TrimSpace(r) == "" {
			continue
		}
		out = append(out, realPath(p.expand(r, "/")))
	}
	return out
}

// workspaceDir is the resolved workspace (or the current directory if unset).
func (p *Policy) workspaceDir() string {
	if strings.TrimSpace(p.Workspace) == "" {
		wd, _ := os.Getwd()
		return wd
	}
	return realPath(p.expand(p.Workspace, "/"))
}

// Resolve turns a path as the model wrote it into a real absolute path and
// checks it for reading: "~", workspace-relative paths, ".." and symlinks are
// resolved before the check.
func (p *Policy) Resolve(path string) (string, error) {
	return p.resolve(path, false)
}

// ResolveWrite is Resolve for a path about to be written, created or deleted:
// protected paths are refused as well.
func (p *Policy) ResolveWrite(path string) (string, error) {
	return p.resolve(path, true)
}

// ResolveDir resolves a working directory for exec and checks that it exists.
func (p *Policy) ResolveDir(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		path = "."
	}
	abs, err := p.resolve(path, false)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("working directory %q: %w", path, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("working directory %q is not a directory", path)
	}
	return abs, nil
}

// maxPathBytes is the longest path Linux accepts (PATH_MAX). A longer one cannot name a
// file, and judging it is not free: resolving a 600 kB path of 300 000 missing folders
// walked them once per folder and kept a tool busy for its whole timeout.
const maxPathBytes = 4096

func pathTooLong(n int) error {
	return fmt.Errorf("path is %d bytes long; the longest path the system accepts is %d bytes: give a shorter path", n, maxPathBytes)
}

// ErrOutsideWorkspace marks a path refused by the workspace confinement.
var ErrOutsideWorkspace = errors.New("outside the workspace")

// ErrProtected marks a write to a protected path.
var ErrProtected = errors.New("protected path")

// ErrDevice marks a device, kernel or other non-regular file.
var ErrDevice = errors.New("device or kernel file")

func (p *Policy) resolve(path string, write bool) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", errors.New("path is empty; give a file path relative to the workspace")
	}
	if strings.ContainsRune(path, 0) {
		return "", errors.New("path contains a NUL byte")
	}
	if len(path) > maxPathBytes {
		return "", pathTooLong(len(path))
	}
	ws := p.workspaceDir()
	abs := realPath(p.expand(path, ws))
	if len(abs) > maxPathBytes {
		return "", pathTooLong(len(abs))
	}
	for _, k := range kernelRoots() {
		if confined.Within(abs, k) {
			return "", fmt.Errorf("%q resolves to %s: %w, refused (reading it could hang or leak secrets)", path, abs, ErrDevice)
		}
	}
	if st, err := os.Stat(abs); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return "", fmt.Errorf("%q is %s: %w, refused; only regular files and folders can be used", path, safefile.Kind(st.Mode()), ErrDevice)
	}
	if !p.Unrestricted {
		ok := false
		for _, r := range p.roots() {
			if confined.Within(abs, r) {
				ok = true
				break
			}
		}
		if !ok {
			return "", fmt.Errorf("%q resolves to %s, %w (%s) and allowedPaths; use a path inside the workspace",
				path, abs, ErrOutsideWorkspace, ws)
		}
	}
	if write {
		if err := p.writeRefused(path, abs); err != nil {
			return "", err
		}
	}
	return abs, nil
}

// ErrKnowledgeFolder marks a write into a knowledge folder (a protected path).
var ErrKnowledgeFolder = fmt.Errorf("%w: knowledge folder", ErrProtected)

// writeRefused is the refusal of a write to abs (path as the model gave it), nil
// when it may be written.
func (p *Policy) writeRefused(path, abs string) error {
	prot := p.protectedBy(abs)
	switch {
	case prot == "":
		return nil
	case slices.Contains(p.Knowledge, prot):
		return fmt.Errorf("%q is in %s, a %w: tools may read it but not write there (hint: the user decides this in Settings › Knowledge; leave the folder as it is and write elsewhere)",
			path, prot, ErrKnowledgeFolder)
	}
	return fmt.Errorf("%q is a %w (%s): it may be read but never written by tools; ask the user to change it", path, ErrProtected, prot)
}

// protectedBy returns the protected entry (or knowledge folder) covering abs, or "".
func (p *Policy) protectedBy(abs string) string {
	for _, pp := range slices.Concat(p.ProtectedPaths, p.Knowledge) {
		if strings.TrimSpace(pp) == "" {
			continue
		}
		r := realPath(p.expand(pp, p.workspaceDir()))
		if confined.Within(abs, r) {
			return pp
		}
	}
	return ""
}

// IsProtected reports whether a path (as a tool or a command would name it,
// relative to dir) falls under ProtectedPaths.
func (p *Policy) IsProtected(path, dir string) bool {
	if dir == "" {
		dir = p.workspaceDir()
	}
	return p.protectedBy(realPath(p.expand(path, dir))) != ""
}

// display shows an absolute path relative to the workspace when it is inside.
func (p *Policy) display(abs string) string {
	ws := p.workspaceDir()
	if confined.Within(abs, ws) {
		if rel, err := filepath.Rel(ws, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return abs
}
