package tools

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"hearth/backend/i18n"
)

// ExecGuard is exec's deny list: it refuses, with a reason a person and the model can
// read, the few commands that would wreck a machine or an account — deleting /, the home
// folder or the whole workspace, formatting or writing a disk, fork bombs, power-off,
// killing every process, rewriting start-up files, a download piped into a shell. It is a
// fast, friendly first answer given before any approval card; the boundary is the OS
// sandbox exec runs in (docs/safety.md). So it reads the shell only: what a program in
// another language does once started (python -c, perl -e, node -e) is the sandbox's
// business, and so is a form no list foresees.
type ExecGuard struct {
	policy *Policy
	off    bool // tests of the OS sandbox itself run commands the guard would refuse
}

// NewExecGuard returns a guard that judges paths with policy.
func NewExecGuard(policy *Policy) *ExecGuard {
	if policy == nil {
		policy = &Policy{Unrestricted: true}
	}
	return &ExecGuard{policy: policy}
}

// GuardError names the rule a refused command broke.
type GuardError struct {
	Rule   string // short rule id, e.g. "rm-broad"
	Detail string
}

func (e *GuardError) Error() string {
	return fmt.Sprintf("command refused by safety rule %q: %s. Do not retry it in another form; if it is really needed, ask the user to run it", e.Rule, e.Detail)
}

// Message is the refusal for the user: the rule's own sentence (guard.<rule>) with the
// detail, which names paths and commands, as it is.
func (e *GuardError) Message() i18n.Message {
	return i18n.M("guard."+e.Rule, "detail", e.Detail)
}

func refuse(rule, format string, a ...any) error {
	return &GuardError{Rule: rule, Detail: fmt.Sprintf(format, a...)}
}

// maxVarLen caps a remembered variable: x=$x$x repeated would otherwise double the
// guard's memory with every assignment.
const maxVarLen = 4 << 10

// maxExpand caps the expanded words of one simple command.
const maxExpand = 1 << 20

// Check returns a *GuardError if command (run in dir) breaks a rule.
//
// Each simple command is judged on the argv the shell would give it: the command is
// parsed with mvdan.cc/sh, and its words expanded with quotes removed, ~ and $HOME filled
// in, variables assigned earlier in the command filled in and cd followed. The syntax
// tree is walked rather than run through mvdan.cc/sh's interpreter with a recording exec
// handler: an interpreter follows one path (after a stand-in success it skips
// `make || rm -rf ~`, and a branch whose test asks a program never run is never seen),
// and it must be fenced off from loops, fork bombs and the file system. The walk sees
// every branch once, runs nothing and opens nothing.
func (g *ExecGuard) Check(command, dir string) error {
	_, err := g.judge(command, dir)
	return err
}

// judge walks command once for both answers: whether it deletes or overwrites data (the
// approval card's mark, see Destructive) and whether it breaks a rule.
func (g *ExecGuard) judge(command, dir string) (destructive bool, err error) {
	if g.off {
		return Destructive(command, dir), nil
	}
	s := &scan{g: g, dir: dir, vars: map[string]string{}}
	if err := s.run(command); err != nil {
		var ge *GuardError
		return s.destructive || !errors.As(err, &ge) || ge.Rule == "syntax", err
	}
	return s.destructive, nil
}

// run walks one command; a shell started inside it (sh -c, eval, a here-document) is
// walked by a nested run.
func (s *scan) run(command string) error {
	if s.depth > 3 {
		return refuse("nesting", "shell commands nested more than 3 levels deep")
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return refuse("syntax", "the shell cannot read this command (%v); fix its quoting or syntax", err)
	}
	s.depth++
	defer func(dir string) { s.depth--; s.dir = dir }(s.dir)
	type frame struct {
		node syntax.Node
		dir  string
	}
	var stack []frame
	syntax.Walk(f, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		if n == nil { // leaving a node: a cd inside a subshell, job or function stays there
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if scoped(top.node) {
				s.dir = top.dir
			}
			return true
		}
		stack = append(stack, frame{n, s.dir})
		err = s.visit(n)
		return true
	})
	return err
}

func scoped(n syntax.Node) bool {
	switch x := n.(type) {
	case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
		return true
	case *syntax.Stmt:
		return x.Background
	}
	return false
}

// scan is one walk over a parsed command.
type scan struct {
	g           *ExecGuard
	depth       int
	dir         string            // the working folder, after the cds seen so far
	vars        map[string]string // literal assignments seen so far
	destructive bool              // a command seen so far deletes or overwrites data
}

func (s *scan) visit(n syntax.Node) error {
	switch x := n.(type) {
	case *syntax.CallExpr:
		for _, a := range x.Assigns {
			s.assign(a)
		}
		if len(x.Args) == 0 {
			return nil
		}
		words := stripWrappers(s.fields(x.Args))
		if len(words) == 0 {
			return nil
		}
		s.destructive = s.destructive || destructiveCall(words)
		if err := s.g.checkCall(s, words, x); err != nil {
			return err
		}
		if filepath.Base(words[0]) == "cd" {
			s.cd(words[1:])
		}
	case *syntax.DeclClause:
		for _, a := range x.Args {
			s.assign(a)
		}
	case *syntax.Redirect:
		switch x.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
			syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut, syntax.DplOut:
			if t := s.word(x.Word); x.Op != syntax.DplOut || strings.Trim(t, "0123456789-") != "" {
				s.destructive = s.destructive || (x.Op == syntax.RdrOut || x.Op == syntax.RdrClob || x.Op == syntax.RdrAll || x.Op == syntax.RdrAllClob) && overwrites(t, s.dir)
				return s.g.checkWriteTarget(t, s.dir)
			}
		}
	case *syntax.Stmt:
		return s.hereDoc(x)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			if name, ok := s.shellOnStdin(x.Y); ok {
				if dl := download(x.X); dl != "" {
					return refuse("pipe-to-shell", "a download (%s) piped into %s runs code nobody has read; save it to a file and show it to the user first", dl, name)
				}
			}
		}
	case *syntax.FuncDecl:
		if forkBomb(x) {
			return refuse("fork-bomb", "function %q starts copies of itself in the background", x.Name.Value)
		}
	case *syntax.WhileClause:
		if endlessSpawner(x) {
			return refuse("fork-bomb", "an endless loop that keeps starting background jobs")
		}
	}
	return nil
}

func (s *scan) assign(a *syntax.Assign) {
	if a == nil || a.Name == nil || a.Value == nil || a.Array != nil {
		return
	}
	if v, err := expand.Literal(s.cfg(), a.Value); err == nil && len(v) <= maxVarLen {
		s.vars[a.Name.Value] = v
	} else {
		delete(s.vars, a.Name.Value)
	}
}

func (s *scan) cd(args []string) {
	_, ops := splitFlags(args)
	switch {
	case len(ops) == 0:
		s.dir = s.g.policy.home()
	case !dynamic(ops[0]) && ops[0] != "-":
		s.dir = filepath.Clean(s.g.policy.expand(ops[0], s.dir))
	}
}

// hereDoc judges the text of a here-document (or here-string) fed to a shell.
func (s *scan) hereDoc(st *syntax.Stmt) error {
	for _, r := range st.Redirs {
		body := r.Hdoc
		if r.Op == syntax.WordHdoc {
			body = r.Word
		}
		if body == nil || r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
			continue
		}
		if _, ok := s.shellOnStdin(st); ok {
			return s.run(s.word(body))
		}
	}
	return nil
}

// shellOnStdin reports a statement that is a shell reading its commands from its input:
// `sh`, `bash -s`, `sudo bash -`, not `sh -c …` or `sh script.sh`.
func (s *scan) shellOnStdin(st *syntax.Stmt) (string, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return "", false
	}
	w := stripWrappers(s.fields(c.Args))
	if len(w) == 0 || !isShell(filepath.Base(w[0])) {
		return "", false
	}
	if _, ok := shellCode(w[1:]); ok {
		return "", false
	}
	_, ops := splitFlags(w[1:])
	return filepath.Base(w[0]), len(ops) == 0 || ops[0] == "-" || ops[0] == "/dev/stdin"
}

// fields expands words as the shell would, without running anything: unknown variables
// stay as $NAME and command substitutions as $(…) (what they print is known only once
// they run), so the rules can tell a word they cannot know. Globs are not expanded.
// Expansion can grow a word without bound (${x//a/$x} nested, $x{1..9999}); past
// maxExpand bytes the guard judges the words as written instead.
func (s *scan) fields(words []*syntax.Word) []string {
	var out []string
	size := 0
	if growsNot(words) {
		for f, err := range expand.FieldsSeq(s.cfg(), words...) {
			if size += len(f); err != nil || size > maxExpand {
				out = nil
				break
			}
			out = append(out, f)
		}
	}
	if out == nil {
		for _, w := range words {
			out = append(out, s.word(w))
		}
	}
	return out
}

// word expands one word without field splitting (a redirect target, an assignment).
func (s *scan) word(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if growsNot([]*syntax.Word{w}) {
		if v, err := expand.Literal(s.cfg(), w); err == nil && len(v) <= maxExpand {
			return v
		}
	}
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// growsNot reports words with no replacing expansion (${x/a/b}), the one whose result
// can outgrow its input many times over when nested.
func growsNot(words []*syntax.Word) bool {
	return !slices.ContainsFunc(words, func(w *syntax.Word) bool {
		return has(w, func(n syntax.Node) bool { p, ok := n.(*syntax.ParamExp); return ok && p.Repl != nil })
	})
}

func (s *scan) cfg() *expand.Config {
	return &expand.Config{
		Env: guardEnv{vars: s.vars, home: s.g.policy.home(), dir: s.dir},
		CmdSubst: func(w io.Writer, _ *syntax.CmdSubst) error {
			_, err := io.WriteString(w, "$(…)")
			return err
		},
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "$(…)", nil },
	}
}

// guardEnv is the environment words are expanded in: HOME and PWD are known, variables
// assigned earlier in the command hold their values, anything else reads as $NAME.
type guardEnv struct {
	vars      map[string]string
	home, dir string
}

func (e guardEnv) Get(name string) expand.Variable {
	v, ok := e.vars[name]
	switch {
	case ok:
	case name == "HOME":
		v = e.home
	case name == "PWD":
		v = e.dir
	case name == "IFS":
		v = " \t\n"
	default:
		v = "$" + strings.ReplaceAll(name, " ", "_") // "HOME user" is ~user
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: v}
}

func (e guardEnv) Each(f func(string, expand.Variable) bool) {
	for k, v := range e.vars {
		if !f(k, expand.Variable{Set: true, Kind: expand.String, Str: v}) {
			return
		}
	}
}

// dynamic reports a word the guard cannot know before the shell runs it.
func dynamic(w string) bool { return strings.ContainsAny(w, "$`") }

// has reports whether pred holds for node or any node inside it.
func has(node syntax.Node, pred func(syntax.Node) bool) bool {
	found := false
	syntax.Walk(node, func(n syntax.Node) bool {
		found = found || pred(n)
		return !found
	})
	return found
}

// download names a download among the commands in node (curl, wget …).
func download(node syntax.Node) string {
	name := ""
	has(node, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			words := make([]string, 0, len(c.Args))
			for _, a := range c.Args {
				words = append(words, a.Lit())
			}
			if w := stripWrappers(words); len(w) > 0 && containsAny(w[:1], "curl", "wget", "fetch", "aria2c", "nc", "ncat", "socat") {
				name = w[0]
			}
		}
		return name != ""
	})
	return name
}

// forkBomb reports a function that runs itself in the background or in a pipeline.
func forkBomb(f *syntax.FuncDecl) bool {
	return f.Name != nil && f.Body != nil && has(f.Body, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return false
		}
		if b, pipe := st.Cmd.(*syntax.BinaryCmd); !st.Background && !(pipe && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll)) {
			return false
		}
		return has(st, func(m syntax.Node) bool {
			c, ok := m.(*syntax.CallExpr)
			return ok && len(c.Args) > 0 && c.Args[0].Lit() == f.Name.Value
		})
	})
}

// endlessSpawner reports `while true` (`while :`, `until false`) around a background job.
func endlessSpawner(w *syntax.WhileClause) bool {
	if len(w.Cond) != 1 {
		return false
	}
	c, ok := w.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 1 {
		return false
	}
	if lit := c.Args[0].Lit(); w.Until && lit != "false" || !w.Until && lit != "true" && lit != ":" {
		return false
	}
	return slices.ContainsFunc(w.Do, func(st *syntax.Stmt) bool {
		return has(st, func(n syntax.Node) bool { s, ok := n.(*syntax.Stmt); return ok && s.Background })
	})
}
