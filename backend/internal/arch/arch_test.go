// Package arch checks the shape of backend/ and of package main at the repository root:
// how many other backend packages each one imports and how many exported methods a type
// has. Both limits keep the services small (docs/architecture.md); only the composition
// root, backend/app, may import more, and package main has a rule of its own
// (TestMainIsThin).
package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const (
	module          = "hearth/"
	maxImports      = 8  // other backend packages one package may import
	maxMethods      = 25 // exported methods of one exported type
	compositionRoot = "backend/app"
	mainPkg         = "." // package main: the window's facade and the entry points
)

// vocabulary is imported for its words, not its behaviour: the message catalogs
// (backend/i18n) and the one text-cutting helper (backend/internal/clip), both leaves,
// do not count toward the limit, or every service that speaks to the user would spend
// one of its eight on them.
var vocabulary = []string{"backend/i18n", "backend/internal/clip"}

// pkg is what the check needs of one package: its backend imports, the exported
// methods per exported type and each one's statements ("Type.Method" → top-level
// statements of its body).
type pkg struct {
	imports map[string]bool
	methods map[string]int
	stmts   map[string]int
}

// scan parses the non-test Go files under backend/ and those of package main at the
// repository root (three levels up from this test's directory), whatever their build tags.
func scan(t *testing.T) map[string]*pkg {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && path != root {
			if rel, _ := filepath.Rel(root, path); rel != "backend" && !strings.HasPrefix(rel, "backend"+string(filepath.Separator)) {
				return filepath.SkipDir
			}
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		p := pkgs[rel]
		if p == nil {
			p = &pkg{imports: map[string]bool{}, methods: map[string]int{}, stmts: map[string]int{}}
			pkgs[rel] = p
		}
		for _, im := range f.Imports {
			ip := strings.Trim(im.Path.Value, `"`)
			if strings.HasPrefix(ip, module+"backend/") && !slices.Contains(vocabulary, strings.TrimPrefix(ip, module)) {
				p.imports[strings.TrimPrefix(ip, module)] = true
			}
		}
		full, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range full.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			if typ := receiver(fn.Recv.List[0].Type); ast.IsExported(typ) {
				p.methods[typ]++
				if fn.Body != nil {
					p.stmts[typ+"."+fn.Name.Name] = len(fn.Body.List)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func receiver(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiver(x.X)
	case *ast.IndexExpr: // generic type
		return receiver(x.X)
	case *ast.IndexListExpr:
		return receiver(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}

func TestBackendImportLimit(t *testing.T) {
	pkgs := scan(t)
	names := make([]string, 0, len(pkgs))
	for name := range pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	most, at := 0, ""
	for _, name := range names {
		n := len(pkgs[name].imports)
		if name == compositionRoot || name == mainPkg {
			continue
		}
		if n > most {
			most, at = n, name
		}
		if n > maxImports {
			t.Errorf("%s imports %d backend packages (at most %d; only %s may import more): %v",
				name, n, maxImports, compositionRoot, keys(pkgs[name].imports))
		}
	}
	t.Logf("most backend imports outside %s: %d (%s)", compositionRoot, most, at)
}

func TestExportedMethodLimit(t *testing.T) {
	most, at := 0, ""
	for name, p := range scan(t) {
		for typ, n := range p.methods {
			if n > most {
				most, at = n, name+"."+typ
			}
			if n > maxMethods {
				t.Errorf("%s.%s has %d exported methods (at most %d): split it by concern", name, typ, n, maxMethods)
			}
		}
	}
	t.Logf("most exported methods of one type: %d (%s)", most, at)
}

// mainMay is the import rule of package main: it reaches the services only through
// backend/app, and besides imports what it needs to run and to tell the window — the
// entry points, the desktop around the window, how news and words travel, and the
// packages whose types the bound methods carry to the window (their values, not their
// behaviour). Never the engine (the agent loop, providers, tools, MCP, the memory's
// history…): a new import goes through backend/app, or joins this list with its role.
var mainMay = map[string]string{
	"backend/app": "the services", "backend/cli": "entry", "backend/launch": "entry",
	"backend/sandbox": "entry (HardenSelf)", "backend/cleanpages": "entry (pages given back)",
	"backend/applock": "desktop", "backend/autostart": "desktop", "backend/notify": "desktop",
	"backend/tray": "desktop", "backend/winstate": "desktop", "backend/activity": "desktop (the tray's Stop)",
	"backend/event": "news", "backend/i18n": "words",
	"backend/approval": "types", "backend/audit": "types", "backend/channels": "types", "backend/chat": "types", "backend/config": "types",
	"backend/dream": "types", "backend/egress": "types", "backend/fitness": "types", "backend/memory": "types",
	"backend/models": "types", "backend/reach": "types", "backend/recall": "types", "backend/reminders": "types",
	"backend/schedule": "types", "backend/session": "types", "backend/sessions": "types",
	"backend/settings": "types", "backend/skills": "types", "backend/knowledge": "types", "backend/extract": "types",
	"backend/attach": "types",
}

// mainMaxStmts bounds an exported method of package main: a bound method forwards to a
// service (or moves the window); anything longer is logic that belongs in backend/.
const mainMaxStmts = 5

// TestMainIsThin: the facade is thin by construction. Package main keeps the import
// rule above, its exported methods are short, and (TestExportedMethodLimit) no type of
// it has more than maxMethods: the window's API is one bound struct per area.
func TestMainIsThin(t *testing.T) {
	p := scan(t)[mainPkg]
	if p == nil || p.methods["App"] == 0 {
		t.Fatal("package main not found at the repository root")
	}
	for _, im := range keys(p.imports) {
		if _, ok := mainMay[im]; !ok && !slices.Contains(vocabulary, im) {
			t.Errorf("package main imports %s: reach it through backend/app, or (if only its types cross to the window) add it to mainMay", im)
		}
	}
	for _, m := range slices.Sorted(maps.Keys(p.stmts)) {
		if n := p.stmts[m]; n > mainMaxStmts {
			t.Errorf("main.%s has %d statements (at most %d): the facade forwards; move the work into backend/", m, n, mainMaxStmts)
		}
	}
	total := 0
	for _, typ := range slices.Sorted(maps.Keys(p.methods)) {
		total += p.methods[typ]
		t.Logf("main.%s: %d exported methods", typ, p.methods[typ])
	}
	t.Logf("package main: %d exported methods, %d backend imports", total, len(p.imports))
}

// TestVocabularyIsALeaf keeps the exemption honest: those packages import no backend package.
func TestVocabularyIsALeaf(t *testing.T) {
	pkgs := scan(t)
	for _, v := range vocabulary {
		p := pkgs[v]
		if p == nil {
			t.Fatalf("%s not found", v)
		}
		if len(p.imports) > 0 {
			t.Errorf("%s imports %v: it must stay a leaf to be exempt from the import limit", v, keys(p.imports))
		}
	}
}

func TestMemoryDoesNotImportAgent(t *testing.T) {
	if scan(t)["backend/memory"].imports["backend/agent"] {
		t.Error("backend/memory imports backend/agent: memory feeds the run through plain values (backend/chat), not the agent's types")
	}
}

// TestRecallStandsAlone: the recall index is a cache of files it reads by itself; the
// notebook (backend/memory) builds on it, never the other way round, and recall knows
// nothing of the run either.
func TestRecallStandsAlone(t *testing.T) {
	p := scan(t)["backend/recall"]
	for _, not := range []string{"backend/memory", "backend/agent", "backend/chat", "backend/memrepo"} {
		if p.imports[not] {
			t.Errorf("backend/recall imports %s: it must stand alone (backend/memory imports it)", not)
		}
	}
	if !scan(t)["backend/memory"].imports["backend/recall"] {
		t.Error("backend/memory no longer imports backend/recall: the notebook's index moved; update this test and docs/architecture.md")
	}
}

// leaves are packages the agent loop uses that must not know the loop: the approval
// gate, the audit log, skills, the event vocabulary, the config and the session store.
// What one shares with the loop lives in a package both import (tools.Gate: the question
// asked before a tool call and its answer) or in the leaf itself (skills.Summary, what
// the system prompt lists).
var leaves = []string{"backend/approval", "backend/audit", "backend/skills", "backend/event", "backend/config", "backend/session"}

// TestLeavesDoNotImportTheAgent: no leaf reaches backend/agent or a package under it,
// directly or through another package.
func TestLeavesDoNotImportTheAgent(t *testing.T) {
	pkgs := scan(t)
	for _, leaf := range leaves {
		if pkgs[leaf] == nil {
			t.Fatalf("%s not found", leaf)
		}
		for dep, via := range reach(pkgs, leaf) {
			if dep == "backend/agent" || strings.HasPrefix(dep, "backend/agent/") {
				t.Errorf("%s imports %s (through %s): a leaf must not know the loop; move the shared type into a small package both import",
					leaf, dep, via)
			}
		}
	}
}

// reach maps every backend package from reaches, directly or not, to the package that
// imports it on the way.
func reach(pkgs map[string]*pkg, from string) map[string]string {
	seen := map[string]string{}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		p := pkgs[cur]
		if p == nil {
			continue
		}
		for _, im := range keys(p.imports) {
			if _, ok := seen[im]; !ok && im != from {
				seen[im] = cur
				queue = append(queue, im)
			}
		}
	}
	return seen
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
