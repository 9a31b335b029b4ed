package tools

import "github.com/google/jsonschema-go/jsonschema"

// Hand-made schemas for tests of schema-only tools (MCP tools have such
// schemas); built-in tools derive theirs from their parameter structs.

func object(required []string, props map[string]*jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required}
}

func str(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc}
}

func boolean(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "boolean", Description: desc}
}

func integer(desc string, min, max float64) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "integer", Description: desc}
	if min > 0 || max > 0 {
		s.Minimum = &min
	}
	if max > 0 {
		s.Maximum = &max
	}
	return s
}

func enum(desc string, values ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}
