package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/i18n"
)

// DefaultToolTimeout bounds a tool that does not implement Timeouter.
const DefaultToolTimeout = 2 * time.Minute

// cancelGrace is how long Call waits for a cancelled tool to return on its own;
// a stop must be complete within 1 s (docs/design/agent-loop.md#stopping-a-run).
const cancelGrace = 500 * time.Millisecond

// RegistryOptions configures a Registry. The zero value is usable.
type RegistryOptions struct {
	// Timeout is the per-call limit for tools without their own (default 2 min).
	Timeout time.Duration
	// Masker redacts secrets from every result, error text included (docs/design/safety-defaults.md#secrets).
	Masker *Masker
}

// Registry holds the tools offered to the model and runs calls to them.
// It is safe for concurrent use; MCP tools may be added while calls run.
type Registry struct {
	opts  RegistryOptions
	mu    sync.RWMutex
	tools map[string]entry
}

type entry struct {
	tool     Tool
	resolved *jsonschema.Resolved // validates; for typed tools, their strict schema
	params   json.RawMessage      // sent to the model
	decode   func(canonical []byte) (any, error)
}

// NewRegistry returns an empty Registry.
func NewRegistry(opts RegistryOptions) *Registry {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultToolTimeout
	}
	return &Registry{opts: opts, tools: map[string]entry{}}
}

// Register adds tools, replacing any tool of the same name. It fails if a name is
// empty or a schema does not resolve; earlier tools of the same call stay added.
func (r *Registry) Register(tools ...Tool) error {
	for _, t := range tools {
		name := t.Name()
		if name == "" {
			return errors.New("register tool: empty name")
		}
		s := cmp.Or(t.Parameters(), &jsonschema.Schema{Type: "object"})
		e := entry{tool: t}
		valid := s
		if d, ok := t.(decoder); ok {
			strict, err := d.strictSchema()
			if err != nil {
				return fmt.Errorf("register tool %s: %w", name, err)
			}
			valid, e.decode = strict, d.decode
		}
		var err error
		if e.resolved, err = valid.Resolve(nil); err != nil {
			return fmt.Errorf("register tool %s: resolve schema: %w", name, err)
		}
		if e.params, err = json.Marshal(s); err != nil {
			return fmt.Errorf("register tool %s: marshal schema: %w", name, err)
		}
		r.mu.Lock()
		r.tools[name] = e
		r.mu.Unlock()
	}
	return nil
}

// Unregister removes a tool (e.g. when an MCP server goes away).
func (r *Registry) Unregister(name string) {
	r.mu.Lock()
	delete(r.tools, name)
	r.mu.Unlock()
}

// Get returns the named tool.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.tools[name]
	return e.tool, ok
}

// Names lists the tool names in definition order.
func (r *Registry) Names() []string {
	defs := r.Definitions()
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	return names
}

// Definitions returns every tool's definition in a stable order: built-ins by
// name, then MCP tools by name (docs/design/prompt-size.md#stable-order), so provider prompt caches stay warm.
func (r *Registry) Definitions() []Definition {
	r.mu.RLock()
	entries := make([]entry, 0, len(r.tools))
	for _, e := range r.tools {
		entries = append(entries, e)
	}
	r.mu.RUnlock()
	sort.Slice(entries, func(i, j int) bool {
		oi, oj := originOf(entries[i].tool), originOf(entries[j].tool)
		if oi != oj {
			return oi < oj
		}
		return entries[i].tool.Name() < entries[j].tool.Name()
	})
	defs := make([]Definition, len(entries))
	for i, e := range entries {
		defs[i] = Definition{Name: e.tool.Name(), Description: e.tool.Description(), Parameters: e.params}
		if sd, ok := e.tool.(ShortDescriber); ok {
			defs[i].Short = sd.ShortDescription()
		}
	}
	return defs
}

func originOf(t Tool) Origin {
	if o, ok := t.(Originer); ok {
		return o.Origin()
	}
	return OriginBuiltin
}

// IsReadOnly reports whether the named tool is read-only (false if unknown).
func (r *Registry) IsReadOnly(name string) bool {
	t, ok := r.Get(name)
	return ok && t.ReadOnly()
}

// IsExclusive reports whether the named tool must run alone. Unknown tools are
// reported exclusive so a caller errs on the side of running them one at a time.
func (r *Registry) IsExclusive(name string) bool {
	t, ok := r.Get(name)
	return !ok || t.Exclusive()
}

// Call runs one tool call as the model wrote it: Prepare, then Run. It never
// returns an error: every failure is a Result the model can read and correct
// itself from (docs/design/agent-loop.md#tool-arguments). Secrets are masked in the result.
func (r *Registry) Call(ctx context.Context, name string, raw json.RawMessage) Result {
	return r.Run(ctx, r.Prepare(name, raw))
}

// Run executes a prepared call under a time limit with panics recovered; a
// call whose arguments were refused returns that refusal. Secrets are masked
// in the result.
func (r *Registry) Run(ctx context.Context, p Prepared) Result {
	var res Result
	if p.Err != nil || p.tool == nil {
		err := p.Err
		if err == nil {
			err = fmt.Errorf("tool %q was not prepared", p.Name)
		}
		res = Errorf("%v", err)
	} else {
		res = r.execute(ctx, p.tool, p.Args)
	}
	r.mu.RLock()
	m := r.opts.Masker
	r.mu.RUnlock()
	return m.MaskResult(res)
}

// SetMasker replaces the Masker (a key was added or changed while running).
func (r *Registry) SetMasker(m *Masker) {
	r.mu.Lock()
	r.opts.Masker = m
	r.mu.Unlock()
}

func (r *Registry) execute(ctx context.Context, t Tool, args Args) Result {
	limit := r.opts.Timeout
	if to, ok := t.(Timeouter); ok {
		if d := to.Timeout(args); d > 0 {
			limit = d
		}
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()

	done := make(chan Result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				stack := string(debug.Stack())
				res := Errorf("tool %s crashed (%v at %s). This is a bug in the tool, not in your call; try another approach.",
					t.Name(), p, panicSite(stack))
				res.Meta = map[string]string{MetaStack: stack}
				done <- res
			}
		}()
		res, err := t.Execute(ctx, args)
		if err != nil {
			res.Content, res.IsError = appendNote(res.Content, "Error: "+err.Error()), true
			var said interface{ Message() i18n.Message }
			if errors.As(err, &said) {
				res.Why = said.Message()
			}
		}
		done <- res
	}()

	select {
	case res := <-done:
		return res
	case <-ctx.Done():
	}
	// Give the tool a moment to stop and report (exec kills its process group
	// and says so); one that ignores its context is then abandoned, not awaited,
	// so the run goes on (its goroutine ends when the tool finally returns).
	grace := time.NewTimer(cancelGrace)
	defer grace.Stop()
	stopped := Errorf("tool %s was cancelled", t.Name())
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		stopped = Errorf("tool %s timed out after %s; try a smaller task or a longer timeout", t.Name(), limit)
	}
	select {
	case res := <-done:
		if !res.IsError { // whatever it managed is kept, but the call did not succeed
			res.Content = appendNote(res.Content, stopped.Content)
			res.IsError = true
		}
		return res
	case <-grace.C:
		return stopped
	}
}

// nearName finds a tool whose name differs from name only in case,
// punctuation or a namespace prefix ("ReadFile", "functions.read_file").
func (r *Registry) nearName(name string) string {
	norm := func(s string) string {
		return strings.Map(func(c rune) rune {
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
				return c
			}
			if c >= 'A' && c <= 'Z' {
				return c + 'a' - 'A'
			}
			return -1
		}, s)
	}
	want := norm(name)
	if want == "" {
		return ""
	}
	for _, n := range r.Names() {
		if nn := norm(n); nn == want || strings.HasSuffix(want, nn) {
			return n
		}
	}
	return ""
}

// panicSite finds the function and line that panicked in a debug.Stack trace:
// the frame right after the runtime's panic call.
func panicSite(stack string) string {
	lines := strings.Split(stack, "\n")
	for i, l := range lines {
		// "panic(…)", its file line, then the panicking function and its file line.
		if strings.HasPrefix(l, "panic(") && i+3 < len(lines) {
			fn := lines[i+2]
			if j := strings.LastIndexByte(fn, '('); j > 0 {
				fn = fn[:j]
			}
			loc := strings.TrimSpace(lines[i+3])
			if j := strings.LastIndex(loc, " +0x"); j > 0 {
				loc = loc[:j]
			}
			return filepath.Base(fn) + " " + filepath.Base(loc)
		}
	}
	return "unknown location"
}

// Batches plans the run order of one model response's tool calls (docs/design/agent-loop.md#parallel-read-only-tools):
// consecutive read-only, non-exclusive calls form one batch that may run
// concurrently; every other call is a batch of its own, in the model's order.
// It returns indexes into names.
func (r *Registry) Batches(names []string) [][]int {
	var out [][]int
	var par []int
	flush := func() {
		if len(par) > 0 {
			out = append(out, par)
			par = nil
		}
	}
	for i, n := range names {
		if r.IsReadOnly(n) && !r.IsExclusive(n) {
			par = append(par, i)
			continue
		}
		flush()
		out = append(out, []int{i})
	}
	flush()
	return out
}
