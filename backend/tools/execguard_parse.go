package tools

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// shellScan walks a parsed command the way the shell would run it, so the guard judges
// real words (quotes removed, $HOME and ~ expanded, variables set earlier in the same
// command filled in), every redirection, the insides of $( ), ` ` and <( ), and the
// pipelines between commands. It tracks `cd` so `cd / && rm -rf etc` is judged in /.
type shellScan struct {
	g     *ExecGuard
	depth int
	vars  map[string]string // literal assignments seen earlier in the command
	links map[string]string // symlinks made earlier in the command: link -> target
}

func (g *ExecGuard) parse(command string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
}

func (s *shellScan) stmts(list []*syntax.Stmt, dir string) (string, error) {
	var err error
	for _, st := range list {
		if dir, err = s.stmt(st, dir); err != nil {
			return dir, err
		}
	}
	return dir, nil
}

// stmt checks one statement and returns the working folder after it.
func (s *shellScan) stmt(st *syntax.Stmt, dir string) (string, error) {
	for _, r := range st.Redirs {
		if err := s.substs(r.Word, dir); err != nil {
			return dir, err
		}
		if err := s.redirect(st, r, dir); err != nil {
			return dir, err
		}
	}
	if st.Cmd == nil {
		return dir, nil
	}
	next, err := s.command(st.Cmd, dir)
	if st.Background {
		next = dir // a background job's cd does not change the caller's folder
	}
	return next, err
}

func (s *shellScan) command(cmd syntax.Command, dir string) (string, error) {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return s.call(c, dir)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			return dir, s.pipeline(c, dir)
		}
		next, err := s.stmt(c.X, dir)
		if err != nil {
			return next, err
		}
		return s.stmt(c.Y, next)
	case *syntax.Block:
		return s.stmts(c.Stmts, dir)
	case *syntax.Subshell:
		_, err := s.stmts(c.Stmts, dir)
		return dir, err
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			if _, err := s.stmts(ic.Cond, dir); err != nil {
				return dir, err
			}
			if _, err := s.stmts(ic.Then, dir); err != nil {
				return dir, err
			}
		}
	case *syntax.WhileClause:
		if endless(c) && spawns(c.Do) {
			return dir, refuse("fork-bomb", "an endless loop that keeps starting background jobs")
		}
		if _, err := s.stmts(c.Cond, dir); err != nil {
			return dir, err
		}
		_, err := s.stmts(c.Do, dir)
		return dir, err
	case *syntax.ForClause:
		_, err := s.stmts(c.Do, dir)
		return dir, err
	case *syntax.CaseClause:
		for _, item := range c.Items {
			if _, err := s.stmts(item.Stmts, dir); err != nil {
				return dir, err
			}
		}
	case *syntax.FuncDecl:
		if forkBomb(c) {
			return dir, refuse("fork-bomb", "function %q starts copies of itself in the background", c.Name.Value)
		}
		if c.Body == nil {
			return dir, nil
		}
		_, err := s.stmt(c.Body, dir)
		return dir, err
	case *syntax.DeclClause:
		for _, a := range c.Args {
			s.assign(a, dir)
		}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return s.stmt(c.Stmt, dir)
		}
	case *syntax.CoprocClause:
		_, err := s.stmt(c.Stmt, dir)
		return dir, err
	}
	return dir, s.substs(cmd, dir)
}

// substs checks every command substitution (and process substitution) inside node.
func (s *shellScan) substs(node syntax.Node, dir string) error {
	if node == nil || isNilWord(node) {
		return nil
	}
	var err error
	syntax.Walk(node, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		switch x := n.(type) {
		case *syntax.CmdSubst:
			_, err = s.stmts(x.Stmts, dir)
			return false
		case *syntax.ProcSubst:
			_, err = s.stmts(x.Stmts, dir)
			return false
		}
		return true
	})
	return err
}

func isNilWord(n syntax.Node) bool {
	w, ok := n.(*syntax.Word)
	return ok && w == nil
}

func (s *shellScan) assign(a *syntax.Assign, dir string) {
	if a == nil || a.Name == nil || a.Value == nil || a.Array != nil {
		return
	}
	if v, err := expand.Literal(s.cfg(dir), a.Value); err == nil {
		s.vars[a.Name.Value] = v
	}
}

func (s *shellScan) call(c *syntax.CallExpr, dir string) (string, error) {
	for _, a := range c.Assigns {
		if err := s.substs(a.Value, dir); err != nil {
			return dir, err
		}
	}
	for _, w := range c.Args {
		if err := s.substs(w, dir); err != nil {
			return dir, err
		}
	}
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			s.assign(a, dir)
		}
		return dir, nil
	}
	fields := s.fields(c.Args, dir)
	if err := s.g.checkCall(s, callInfo{words: fields, expr: c}, dir); err != nil {
		return dir, err
	}
	return s.afterCall(fields, dir), nil
}

// afterCall follows cd and remembers symlinks the command makes.
func (s *shellScan) afterCall(fields []string, dir string) string {
	words := stripWrappers(fields)
	if len(words) == 0 {
		return dir
	}
	switch filepath.Base(words[0]) {
	case "cd", "pushd":
		_, ops := splitFlags(words[1:])
		if len(ops) == 0 {
			return s.g.policy.home()
		}
		if dynamic(ops[0]) || ops[0] == "-" {
			return dir
		}
		return filepath.Clean(s.g.policy.expand(ops[0], dir))
	case "ln":
		flags, ops := splitFlags(words[1:])
		if hasFlag(flags, 's', "--symbolic") && len(ops) == 2 {
			s.links[filepath.Clean(s.g.policy.expand(ops[1], dir))] = ops[0]
		}
	}
	return dir
}

// pipeline checks each command of a | b | c, then what flows between them: code piped
// into a shell, and names piped into xargs rm.
func (s *shellScan) pipeline(c *syntax.BinaryCmd, dir string) error {
	var parts []*syntax.Stmt
	var flatten func(st *syntax.Stmt)
	flatten = func(st *syntax.Stmt) {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(st.Redirs) == 0 {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		parts = append(parts, st)
	}
	flatten(c.X)
	flatten(c.Y)
	for _, p := range parts {
		if _, err := s.stmt(p, dir); err != nil {
			return err
		}
	}
	for i := 1; i < len(parts); i++ {
		if err := s.flow(parts[i-1], parts[i], dir); err != nil {
			return err
		}
	}
	return nil
}

// flow judges what producer feeds consumer through a pipe.
func (s *shellScan) flow(producer, consumer *syntax.Stmt, dir string) error {
	raw := s.firstCall(consumer, dir)
	cw := stripWrappers(raw)
	if len(cw) == 0 {
		return nil
	}
	name := filepath.Base(cw[0])
	for i, w := range raw {
		if filepath.Base(w) == "xargs" && len(stripWrappers(raw[:i])) == 0 {
			name = "xargs"
		}
	}
	switch {
	case readsCodeFromStdin(cw):
		if why := s.fetchesOrDecodes(producer, dir); why != "" {
			return refuse("pipe-to-shell", "%s piped into %s runs code nobody has read; save it to a file and show it to the user first", why, name)
		}
		if text, ok := s.literalOutput(producer, dir); ok {
			if isShell(name) {
				return s.g.check(text, dir, s.depth+1)
			}
			return s.g.checkScript(s, text, dir)
		}
	case name == "xargs":
		inner := stripWrappers(cw)
		if len(inner) == 0 || !isDelete(filepath.Base(inner[0])) {
			return nil
		}
		for _, t := range s.producedNames(producer, dir) {
			if why := s.g.broad(t.path, dir, t.filtered); why != "" {
				return refuse("rm-broad", "xargs %s on names from %q would delete %s", filepath.Base(inner[0]), t.path, why)
			}
		}
	}
	return nil
}

// firstCall returns the expanded words of the first simple command in st.
func (s *shellScan) firstCall(st *syntax.Stmt, dir string) []string {
	var out []string
	syntax.Walk(st, func(n syntax.Node) bool {
		if out != nil {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			out = s.fields(c.Args, dir)
			return false
		}
		return true
	})
	return out
}

// fetchesOrDecodes says whether node downloads or decodes what it prints.
func (s *shellScan) fetchesOrDecodes(node syntax.Node, dir string) string {
	why := ""
	syntax.Walk(node, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			why = fetchOrDecode(stripWrappers(s.fields(c.Args, dir)))
		}
		return true
	})
	return why
}

// literalOutput is the text an echo or printf of literal words prints.
func (s *shellScan) literalOutput(st *syntax.Stmt, dir string) (string, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return "", false
	}
	w := s.fields(c.Args, dir)
	switch w[0] {
	case "echo", "printf":
		_, ops := splitFlags(w[1:])
		return strings.Join(ops, " "), true
	}
	return "", false
}

type producedName struct {
	path     string
	filtered bool // find with a test such as -name: only some files under path
}

// producedNames lists the paths a producer of file names (echo, ls, find) works on.
func (s *shellScan) producedNames(st *syntax.Stmt, dir string) []producedName {
	w := stripWrappers(s.firstCall(st, dir))
	if len(w) == 0 {
		return nil
	}
	switch filepath.Base(w[0]) {
	case "echo", "printf", "ls":
		_, ops := splitFlags(w[1:])
		if len(ops) == 0 && filepath.Base(w[0]) == "ls" {
			ops = []string{"*"}
		}
		out := make([]producedName, 0, len(ops))
		for _, o := range ops {
			out = append(out, producedName{path: o})
		}
		return out
	case "find":
		roots, filtered := findRoots(w[1:])
		out := make([]producedName, 0, len(roots))
		for _, r := range roots {
			out = append(out, producedName{path: r, filtered: filtered})
		}
		return out
	}
	return nil
}

// redirect checks a file a statement writes into, and a here-document fed to a shell.
func (s *shellScan) redirect(st *syntax.Stmt, r *syntax.Redirect, dir string) error {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
		syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
		return s.g.checkWriteTarget(s, s.word(r.Word, dir), dir)
	case syntax.DplOut:
		if t := s.word(r.Word, dir); strings.Trim(t, "0123456789-") != "" {
			return s.g.checkWriteTarget(s, t, dir)
		}
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		body := r.Hdoc
		if r.Op == syntax.WordHdoc {
			body = r.Word
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || body == nil || len(c.Args) == 0 {
			return nil
		}
		w := stripWrappers(s.fields(c.Args, dir))
		if len(w) == 0 || !readsCodeFromStdin(w) {
			return nil // data for a command, such as cat <<EOF > script.sh
		}
		text := printWord(body)
		if isShell(filepath.Base(w[0])) {
			return s.g.check(text, dir, s.depth+1)
		}
		return s.g.checkScript(s, text, dir)
	}
	return nil
}

// fields expands words as the shell would, without running anything: unknown variables
// stay as $NAME and command substitutions as $(…), so the rules can tell a word they
// cannot know. Globs are not expanded.
func (s *shellScan) fields(words []*syntax.Word, dir string) []string {
	if f, err := expand.Fields(s.cfg(dir), words...); err == nil {
		return f
	}
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, s.word(w, dir))
	}
	return out
}

// word expands one word without field splitting (a redirect target, an assignment).
func (s *shellScan) word(w *syntax.Word, dir string) string {
	if w == nil {
		return ""
	}
	if v, err := expand.Literal(s.cfg(dir), w); err == nil {
		return v
	}
	return printWord(w)
}

func (s *shellScan) cfg(dir string) *expand.Config {
	return &expand.Config{
		Env: guardEnv{vars: s.vars, home: s.g.policy.home(), dir: dir},
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			_, err := io.WriteString(w, s.substOutput(cs, dir))
			return err
		},
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "$(…)", nil },
	}
}

// substOutput is what a substitution prints when that is known without running it
// ($(echo ~), $(pwd)), else the placeholder $(…).
func (s *shellScan) substOutput(cs *syntax.CmdSubst, dir string) string {
	if len(cs.Stmts) == 1 && len(cs.Stmts[0].Redirs) == 0 {
		if c, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			switch c.Args[0].Lit() {
			case "pwd":
				return dir
			case "echo":
				if text, ok := s.literalOutput(cs.Stmts[0], dir); ok && !dynamic(text) {
					return text
				}
			}
		}
	}
	return "$(…)"
}

// guardEnv is the environment words are expanded in: HOME and PWD are known, variables
// assigned earlier in the command hold their values, anything else reads as $NAME.
type guardEnv struct {
	vars      map[string]string
	home, dir string
}

func (e guardEnv) Get(name string) expand.Variable {
	str := func(v string) expand.Variable { return expand.Variable{Set: true, Kind: expand.String, Str: v} }
	if v, ok := e.vars[name]; ok {
		return str(v)
	}
	switch name {
	case "HOME":
		return str(e.home)
	case "PWD":
		return str(e.dir)
	case "IFS":
		return str(" \t\n")
	}
	if strings.HasPrefix(name, "HOME ") { // ~user
		return str("$HOME_OF_" + strings.TrimPrefix(name, "HOME "))
	}
	return str("$" + name)
}

func (e guardEnv) Each(f func(string, expand.Variable) bool) {
	for k, v := range e.vars {
		if !f(k, expand.Variable{Set: true, Kind: expand.String, Str: v}) {
			return
		}
	}
}

func printWord(w *syntax.Word) string {
	var b bytes.Buffer
	if err := syntax.NewPrinter().Print(&b, w); err != nil {
		return fmt.Sprint(w)
	}
	return b.String()
}

// dynamic reports a word the guard cannot know before the shell runs it.
func dynamic(w string) bool { return strings.ContainsAny(w, "$`") }

// forkBomb reports a function that runs itself in the background or in a pipeline.
func forkBomb(f *syntax.FuncDecl) bool {
	if f.Name == nil || f.Body == nil {
		return false
	}
	name := f.Name.Value
	found := false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || found {
			return !found
		}
		b, pipe := st.Cmd.(*syntax.BinaryCmd)
		if st.Background || pipe && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			syntax.Walk(st, func(m syntax.Node) bool {
				if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == name {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// endless reports `while true`, `while :` and `until false` loops.
func endless(w *syntax.WhileClause) bool {
	if len(w.Cond) != 1 {
		return false
	}
	c, ok := w.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 1 {
		return false
	}
	lit := c.Args[0].Lit()
	if w.Until {
		return lit == "false"
	}
	return lit == "true" || lit == ":"
}

// spawns reports a background job among stmts.
func spawns(stmts []*syntax.Stmt) bool {
	found := false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			if s, ok := n.(*syntax.Stmt); ok && s.Background {
				found = true
			}
			return !found
		})
	}
	return found
}
