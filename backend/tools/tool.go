// Package tools holds Hearth's tool system: the Tool interface, the Registry that
// repairs, casts and validates model-written arguments before running a tool, the
// built-in file, search and exec tools, and the safety policy (workspace sandbox,
// exec guard, secret masking) they share.
//
// Nothing here imports Wails or other Hearth packages: callers pass plain option
// structs (Policy, ExecOptions, RegistryOptions) built from their own config.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/i18n"
)

// Tool is one capability offered to the model.
type Tool interface {
	// Name is the identifier the model calls the tool by.
	Name() string
	// Description is sent to the model; keep it short and exact (docs/design/prompt-size.md#the-first-request-target).
	Description() string
	// Parameters is the JSON Schema (type "object") of the arguments.
	Parameters() *jsonschema.Schema
	// ReadOnly tools have no side effects and may run concurrently (docs/design/agent-loop.md#parallel-read-only-tools).
	ReadOnly() bool
	// Exclusive tools never run at the same time as any other tool.
	Exclusive() bool
	// Execute runs the tool with arguments already repaired, cast, validated
	// and decoded (Registry.Prepare).
	// A returned error becomes an error Result; it must not panic across the
	// boundary, but the Registry recovers if it does.
	Execute(ctx context.Context, args Args) (Result, error)
}

// ShortDescriber is implemented by tools with a one-line form of their
// description, sent instead of the long one when the model's context window
// is too small for every tool in full. Tools without one get the first
// sentence of their description.
type ShortDescriber interface {
	ShortDescription() string
}

// Origin says where a tool comes from. Definitions are sent grouped by origin,
// then by name, so the tool list is stable between requests (docs/design/prompt-size.md#stable-order).
type Origin int

const (
	// OriginBuiltin is the default for tools that do not implement Originer.
	OriginBuiltin Origin = iota
	// OriginMCP marks tools wrapped from MCP servers; they sort after built-ins.
	OriginMCP
)

// Originer is implemented by tools that are not built-in (e.g. MCP wrappers).
type Originer interface {
	Origin() Origin
}

// Timeouter is implemented by tools whose time limit depends on their arguments
// (exec's own timeout) or on their source (an MCP server's toolTimeout).
// The Registry uses it instead of RegistryOptions.Timeout.
type Timeouter interface {
	Timeout(args Args) time.Duration
}

// Result is what a tool call returns to the model.
type Result struct {
	// Content is the text the model sees.
	Content string `json:"content"`
	// IsError marks a failed call; the zero value is a success.
	IsError bool `json:"isError,omitempty"`
	// Meta carries facts for the agent and UI that the model need not see,
	// e.g. MetaSpilledPath, MetaExitCode.
	Meta map[string]string `json:"meta,omitempty"`
	// Why is what the user reads of a refusal, worded by the window in its language
	// (a safety rule's or the approval gate's); zero for other results. A tool sets it by
	// returning an error with a Message() i18n.Message method.
	Why i18n.Message `json:"-"`
}

// Well-known Result.Meta keys.
const (
	MetaSpilledPath = "spilledPath" // absolute path of the full result on disk
	MetaExitCode    = "exitCode"    // exec: the command's exit code
	MetaPath        = "path"        // file tools: the resolved path acted on
	MetaStack       = "stack"       // a crashed tool's stack trace, for logs only
)

// OK reports whether the call succeeded.
func (r Result) OK() bool { return !r.IsError }

// Text returns a successful Result holding s.
func Text(s string) Result { return Result{Content: s} }

// Errorf returns an error Result; the text starts with "Error: " so small models
// recognise it as a failure.
func Errorf(format string, a ...any) Result {
	return Result{Content: "Error: " + fmt.Sprintf(format, a...), IsError: true}
}

// Definition is the provider-neutral description of a tool sent to the model.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// Short is the ShortDescription of tools that have one.
	Short string `json:"short,omitempty"`
}

// Args is one call's arguments, decoded once by Registry.Prepare: the
// approval gate judges, the audit log records and the tool runs with this same
// value. Value is a pointer to the tool's parameter struct for tools built
// with New, or a map for tools that only have a schema (MCP); JSON is the
// value's canonical encoding.
type Args struct {
	value any
	json  json.RawMessage
}

// Value is the decoded arguments: *P for a tool built with New[P], else a
// map[string]any.
func (a Args) Value() any { return a.value }

// JSON is the canonical encoding of Value ("{}" for no arguments).
func (a Args) JSON() json.RawMessage {
	if len(a.json) == 0 {
		return json.RawMessage("{}")
	}
	return a.json
}

// Map returns the arguments as a JSON object. For a schema-only tool it is the
// decoded map itself; for a typed tool a map decoded from JSON.
func (a Args) Map() map[string]any {
	if m, ok := a.value.(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	_ = json.Unmarshal(a.JSON(), &m)
	return m
}

// String returns the string argument key, or "" if absent.
func (a Args) String(key string) string {
	switch v := a.Map()[key].(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}
