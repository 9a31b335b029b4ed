package arch

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The repository must explain itself: a comment that points a reader somewhere
// points inside the repository (docs/…), and the page and section it names exist.

// skipDirs are never searched: dependencies, build output, version control, and fuzz
// corpora (random bytes that may spell anything).
var skipDirs = map[string]bool{".git": true, "node_modules": true, "dist": true, "build": true, "testdata": true}

// sourceExt are the files whose comments and text are checked.
var sourceExt = map[string]bool{".go": true, ".ts": true, ".svelte": true, ".mjs": true, ".js": true, ".sh": true, ".py": true, ".md": true}

// outsideRef matches references to the product's original design card, which is not
// part of the repository: feature tags such as "F-" + "LOOP" and section marks such
// as "SP" + "EC §2". Built from pieces so this file does not match itself.
var outsideRef = regexp.MustCompile(`\bF-[A-Z]{3,}\b|\b` + "SP" + `EC\b`)

// docLink matches a pointer into the repository's documentation, with an optional
// section anchor.
var docLink = regexp.MustCompile(`docs/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md(#[A-Za-z0-9_-]+)?`)

// repoFiles calls fn for every checked file under the repository root, with its path
// relative to the root.
func repoFiles(t *testing.T, fn func(rel string, data []byte)) {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !sourceExt[filepath.Ext(path)] && d.Name() != "Makefile" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fn(filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNoReferencesOutsideRepository fails on a tag or section mark of a document a
// reader of the repository does not have. Say the reason inline or link to
// docs/design/ instead.
func TestNoReferencesOutsideRepository(t *testing.T) {
	files := 0
	repoFiles(t, func(rel string, data []byte) {
		files++
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if m := outsideRef.FindString(sc.Text()); m != "" {
				t.Errorf("%s:%d refers to %q, a document outside the repository: say the reason inline or link to docs/design/", rel, n, m)
			}
		}
	})
	if files < 100 {
		t.Fatalf("searched only %d files: is the repository root right?", files)
	}
}

// TestDocLinksResolve checks every docs/….md#anchor named in code, scripts or docs:
// the page exists and, when an anchor is given, one of its headings has that anchor.
func TestDocLinksResolve(t *testing.T) {
	root, _ := filepath.Abs("../../..")
	anchors := map[string]map[string]bool{} // page → its heading anchors
	links := 0
	repoFiles(t, func(rel string, data []byte) {
		for _, m := range docLink.FindAllSubmatchIndex(data, -1) {
			page, anchor := string(data[m[0]:m[1]]), ""
			if m[2] >= 0 {
				page, anchor = string(data[m[0]:m[2]]), string(data[m[2]+1:m[3]])
			}
			// A relative link inside docs/ ("../docs/x.md") or a longer path that merely
			// contains "docs/" (e.g. frontend/docs/) is not a pointer from the root.
			if m[0] > 0 && !strings.ContainsRune(" \t(`'\"[<", rune(data[m[0]-1])) {
				continue
			}
			// Tests build fixture trees whose paths may look like links; there only
			// comments point a reader anywhere.
			lineStart := bytes.LastIndexByte(data[:m[0]], '\n') + 1
			if strings.HasSuffix(rel, "_test.go") && !bytes.Contains(data[lineStart:m[0]], []byte("//")) {
				continue
			}
			links++
			line := 1 + bytes.Count(data[:m[0]], []byte("\n"))
			set, ok := anchors[page]
			if !ok {
				text, err := os.ReadFile(filepath.Join(root, page))
				if err != nil {
					t.Errorf("%s:%d links %s, which does not exist", rel, line, page)
					anchors[page] = nil
					continue
				}
				set = headingAnchors(text)
				anchors[page] = set
			}
			if set != nil && anchor != "" && !set[anchor] {
				t.Errorf("%s:%d links %s#%s, but %s has no such heading", rel, line, page, anchor, page)
			}
		}
	})
	if links < 50 {
		t.Errorf("found only %d links into docs/: is the pattern right?", links)
	}
}

// maxReadme keeps the README a newcomer's page: what Hearth is, the two commands, a first
// use, where files live and links. Reference material belongs in docs/.
const maxReadme = 10 * 1024

func TestReadmeIsShort(t *testing.T) {
	root, _ := filepath.Abs("../../..")
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > maxReadme {
		t.Errorf("README.md is %d bytes, over %d: move reference material to a page under docs/ and link it", len(data), maxReadme)
	}
	// The set-up a newcomer types comes first, before anything else to read.
	head := string(data[:min(len(data), 600)])
	if !strings.Contains(head, "make run") || !strings.Contains(head, "make test") {
		t.Error("README.md must start with the set-up: `make run` and `make test` within its first lines")
	}
}

// mdLink matches a Markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// TestMarkdownLinksResolve checks the relative links of the README and the pages under
// docs/: the file exists and, for a page, the anchor names one of its headings.
func TestMarkdownLinksResolve(t *testing.T) {
	root, _ := filepath.Abs("../../..")
	pages := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, m := range mdLink.FindAllSubmatch(data, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			checked++
			text, err := os.ReadFile(path)
			if err != nil {
				if fi, serr := os.Stat(path); serr == nil && fi.IsDir() && anchor == "" {
					continue
				}
				t.Errorf("%s links %s, which does not exist", rel, target)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !headingAnchors(text)[anchor] {
				t.Errorf("%s links %s, but that page has no heading with the anchor #%s", rel, target, anchor)
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked only %d links: is the pattern right?", checked)
	}
}

// headingAnchors returns the anchors a Markdown renderer gives a page's headings:
// lower case, punctuation dropped, spaces as hyphens, "-1", "-2" … for repeats.
func headingAnchors(md []byte) map[string]bool {
	set := map[string]bool{}
	fence := false
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		a := slug(strings.TrimLeft(line, "#"))
		base, n := a, 0
		for set[a] {
			n++
			a = base + "-" + strconv.Itoa(n)
		}
		set[a] = true
	}
	return set
}

func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors([]byte("# Local models\n## Fit instead of fail: what is left out, in order\n" +
		"```sh\n# not a heading\n```\n## `make install` (no root needed)\n## Notes\n## Notes\n### 中文 标题\n"))
	for _, want := range []string{"local-models", "fit-instead-of-fail-what-is-left-out-in-order",
		"make-install-no-root-needed", "notes", "notes-1", "中文-标题"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a comment inside a code fence became a heading")
	}
}
