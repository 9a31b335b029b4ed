package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// A resource template (resources/templates/list, an RFC 6570 URI template
// such as file:///logs/{date}.log) is offered as a tool whose arguments are
// the template's variables; calling it expands the template and reads the
// resulting URI like a resource.

// templateTool wraps one resource template; nil when the server's template
// does not parse (it is skipped with a warning).
func (s *server) templateTool(t *sdk.ResourceTemplate) (w *wrapped, remoteName string) {
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil {
		slog.Warn("mcp: skipping a resource template that does not parse", "server", s.name,
			"template", t.URITemplate, "err", err)
		return nil, ""
	}
	name := t.Name
	name = cmp.Or(name, t.URITemplate)
	about := t.Description
	if strings.TrimSpace(about) == "" {
		about = t.Title
	}
	return &wrapped{srv: s, kind: kindTemplate, name: ToolName(s.name, name), remote: t.URITemplate,
		desc:   describe("Read resource "+t.URITemplate+". "+about, ""),
		params: templateSchema(tmpl), tmpl: tmpl}, name
}

// templateSchema makes every variable a required string, in template order.
func templateSchema(tmpl *uritemplate.Template) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for _, v := range tmpl.Varnames() {
		s.Properties[v] = &jsonschema.Schema{Type: "string"}
		s.Required = append(s.Required, v)
	}
	return s
}

// expand fills the template from args; every variable must have a
// non-empty value. Values are percent-encoded as RFC 6570 says (a / or a
// space in a simple {var} becomes %2F / %20).
func expand(tmpl *uritemplate.Template, args map[string]any) (string, error) {
	vals := uritemplate.Values{}
	var missing []string
	for _, v := range tmpl.Varnames() {
		a, ok := args[v]
		if !ok || a == nil {
			missing = append(missing, v)
			continue
		}
		str, ok := a.(string)
		if !ok {
			str = fmt.Sprint(a)
		}
		if str == "" {
			missing = append(missing, v)
			continue
		}
		vals.Set(v, uritemplate.String(str))
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("missing argument %s for %s (hint: give every variable of the template a value)",
			strings.Join(quoteAll(missing), ", "), tmpl.Raw())
	}
	uri, err := tmpl.Expand(vals)
	if err != nil {
		return "", fmt.Errorf("expand %s: %w", tmpl.Raw(), err)
	}
	return uri, nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// templates lists the server's resource templates. A server that does not
// know the method (method not found) simply has none.
func templates(ctx context.Context, sess *sdk.ClientSession) iter.Seq2[*sdk.ResourceTemplate, error] {
	return func(yield func(*sdk.ResourceTemplate, error) bool) {
		for t, err := range sess.ResourceTemplates(ctx, nil) {
			if err != nil {
				var werr *jsonrpc.Error
				if errors.As(err, &werr) && werr.Code == jsonrpc.CodeMethodNotFound {
					return
				}
				yield(nil, fmt.Errorf("list resource templates: %w", err))
				return
			}
			if t == nil {
				continue
			}
			if !yield(t, nil) {
				return
			}
		}
	}
}
