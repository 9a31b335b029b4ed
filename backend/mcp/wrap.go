package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"hearth/backend/internal/clip"
	"hearth/backend/tools"
)

// maxName is the longest tool name providers accept.
const maxName = 64

// ToolName is the name a server's tool, resource or prompt is offered under:
// mcp_<server>_<name>, with characters providers refuse replaced by _.
func ToolName(server, name string) string {
	n := "mcp_" + sanitize(server) + "_" + sanitize(name)
	if len(n) > maxName {
		n = n[:maxName]
	}
	return n
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// kind of a wrapped capability.
type kind int

const (
	kindTool kind = iota
	kindResource
	kindPrompt
	kindTemplate
)

// wrapped is one MCP tool, resource or prompt offered as a Hearth tool.
type wrapped struct {
	srv    *server
	kind   kind
	name   string // the wrapped name, mcp_<server>_<x>
	remote string // the tool or prompt name, the resource URI or the URI template
	desc   string
	params *jsonschema.Schema
	tmpl   *uritemplate.Template // kindTemplate only
}

var _ tools.Originer = (*wrapped)(nil)

func (w *wrapped) Name() string                   { return w.name }
func (w *wrapped) Description() string            { return w.desc }
func (w *wrapped) Parameters() *jsonschema.Schema { return w.params }
func (w *wrapped) ReadOnly() bool                 { return false }
func (w *wrapped) Exclusive() bool                { return false }
func (w *wrapped) Origin() tools.Origin           { return tools.OriginMCP }

// Timeout is the server's toolTimeout (default 30 s); the Registry enforces it.
func (w *wrapped) Timeout(tools.Args) time.Duration {
	return time.Duration(w.srv.config().Timeout()) * time.Second
}

func (w *wrapped) Execute(ctx context.Context, args tools.Args) (tools.Result, error) {
	sess, err := w.srv.waitSession(ctx)
	if err != nil {
		return tools.Result{}, err
	}
	var res tools.Result
	switch w.kind {
	case kindTool:
		var r *sdk.CallToolResult
		r, err = sess.CallTool(ctx, &sdk.CallToolParams{Name: w.remote, Arguments: args.Map()})
		if err == nil {
			res = toolResult(r)
		}
	case kindResource:
		var r *sdk.ReadResourceResult
		r, err = sess.ReadResource(ctx, &sdk.ReadResourceParams{URI: w.remote})
		if err == nil {
			res = resourceResult(r)
		}
	case kindTemplate:
		uri, xerr := expand(w.tmpl, args.Map())
		if xerr != nil {
			return tools.Result{}, xerr
		}
		var r *sdk.ReadResourceResult
		r, err = sess.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err == nil {
			res = resourceResult(r)
		} else {
			err = fmt.Errorf("read %s: %w", uri, err)
		}
	case kindPrompt:
		strArgs := map[string]string{}
		for k, v := range args.Map() {
			strArgs[k] = fmt.Sprint(v)
		}
		var r *sdk.GetPromptResult
		r, err = sess.GetPrompt(ctx, &sdk.GetPromptParams{Name: w.remote, Arguments: strArgs})
		if err == nil {
			res = promptResult(r)
		}
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tools.Result{}, fmt.Errorf("MCP server %s: timed out after %s (hint: raise its toolTimeout if the tool needs longer)",
				w.srv.name, w.Timeout(tools.Args{}))
		}
		if ctx.Err() != nil {
			return tools.Result{}, fmt.Errorf("MCP server %s: the call was cancelled", w.srv.name)
		}
		if broken(err) {
			w.srv.drop(sess, err)
			return tools.Result{}, fmt.Errorf("MCP server %s disconnected during the call (%v); Hearth is reconnecting — try again shortly", w.srv.name, w.srv.why(err))
		}
		return tools.Result{}, fmt.Errorf("MCP server %s: %w", w.srv.name, err)
	}
	return res, nil
}

// broken reports whether err means the connection is gone.
func broken(err error) bool {
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "connection closed") || strings.Contains(s, "broken pipe") ||
		strings.Contains(s, "connection refused") || strings.Contains(s, "connection reset")
}

func toolResult(r *sdk.CallToolResult) tools.Result {
	var parts []string
	for _, c := range r.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && r.StructuredContent != nil {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	text := strings.Join(parts, "\n")
	if r.IsError {
		text = cmp.Or(text, "the tool reported an error")
		return tools.Result{Content: "Error: " + text, IsError: true}
	}
	text = cmp.Or(text, "(no output)")
	return tools.Text(text)
}

func contentText(c sdk.Content) string {
	switch v := c.(type) {
	case *sdk.TextContent:
		return v.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes]", v.MIMEType, len(v.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes]", v.MIMEType, len(v.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource %s: %s]", v.Name, v.URI)
	case *sdk.EmbeddedResource:
		if v.Resource != nil {
			return resourceText(v.Resource)
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func resourceText(rc *sdk.ResourceContents) string {
	if rc.Text != "" {
		return rc.Text
	}
	if len(rc.Blob) > 0 {
		return fmt.Sprintf("[%s: binary %s, %d bytes]", rc.URI, rc.MIMEType, len(rc.Blob))
	}
	return ""
}

func resourceResult(r *sdk.ReadResourceResult) tools.Result {
	var parts []string
	for _, c := range r.Contents {
		if c != nil {
			parts = append(parts, resourceText(c))
		}
	}
	if len(parts) == 0 {
		return tools.Text("(empty resource)")
	}
	return tools.Text(strings.Join(parts, "\n"))
}

func promptResult(r *sdk.GetPromptResult) tools.Result {
	var b strings.Builder
	if r.Description != "" {
		b.WriteString(r.Description + "\n\n")
	}
	for _, m := range r.Messages {
		if m == nil {
			continue
		}
		fmt.Fprintf(&b, "[%s]\n%s\n\n", m.Role, contentText(m.Content))
	}
	return tools.Text(strings.TrimSpace(b.String()))
}

// schemaOf converts a server's input schema (any JSON) to the Registry's
// type; one that does not parse or resolve becomes a plain object so the
// tool stays usable (the server validates anyway).
func schemaOf(v any) *jsonschema.Schema {
	loose := &jsonschema.Schema{Type: "object"}
	if v == nil {
		return loose
	}
	b, err := json.Marshal(v)
	if err != nil {
		return loose
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return loose
	}
	if s.Type == "" && len(s.Types) == 0 {
		s.Type = "object"
	}
	if _, err := s.Resolve(nil); err != nil {
		return loose
	}
	return &s
}

func promptSchema(p *sdk.Prompt) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for _, a := range p.Arguments {
		if a == nil {
			continue
		}
		s.Properties[a.Name] = &jsonschema.Schema{Type: "string", Description: a.Description}
		if a.Required {
			s.Required = append(s.Required, a.Name)
		}
	}
	return s
}

func describe(desc, fallback string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	if desc == "" {
		return fallback
	}
	// Long server descriptions cost tokens on every request.
	return clip.Runes(desc, 300)
}
