package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hearth/backend/config"
)

// ParseClaudeDesktop reads MCP servers pasted from a Claude Desktop (or
// Cursor, nanobot …) config: the whole file, its {"mcpServers": {…}} block,
// the map of servers alone, or one `"name": {…}` entry without braces.
func ParseClaudeDesktop(block string) (map[string]config.MCPServer, error) {
	text := strings.TrimSpace(block)
	if text == "" {
		return nil, errors.New("nothing to import (hint: paste the \"mcpServers\" block of a Claude Desktop config)")
	}
	raw, err := decodeObject(text)
	if err != nil && !strings.HasPrefix(text, "{") {
		// A fragment such as `"fs": {…}` or `"mcpServers": {…},`.
		raw, err = decodeObject("{" + strings.TrimSuffix(text, ",") + "}")
	}
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %v (hint: paste the whole \"mcpServers\": {…} block)", err)
	}
	// Hearth's own shape nests the block under "tools".
	if inner, ok := raw["tools"]; ok {
		var m map[string]json.RawMessage
		if json.Unmarshal(inner, &m) == nil && m["mcpServers"] != nil {
			raw = m
		}
	}
	if inner, ok := raw["mcpServers"]; ok {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(inner, &m); err != nil {
			return nil, fmt.Errorf("\"mcpServers\" is not an object: %v", err)
		}
		raw = m
	}
	if len(raw) == 0 {
		return nil, errors.New("no servers found (hint: paste the \"mcpServers\" block of a Claude Desktop config)")
	}
	out := map[string]config.MCPServer{}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		var c config.MCPServer
		if err := json.Unmarshal(raw[name], &c); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		if err := CheckServer(name, c); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out[name] = c
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("cannot import: %s", strings.Join(problems, "; "))
	}
	return out, nil
}

// CheckServer validates one entry the way the config does.
func CheckServer(name string, c config.MCPServer) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("a server needs a name")
	case c.Command == "" && c.URL == "":
		return fmt.Errorf("%s: give \"command\" (a local program) or \"url\" (a remote server)", name)
	case c.URL != "" && !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://"):
		return fmt.Errorf("%s: url %q is not http(s)", name, c.URL)
	case c.ToolTimeout < 0:
		return fmt.Errorf("%s: toolTimeout must not be negative", name)
	}
	switch strings.ToLower(c.Type) {
	case "", "stdio", "sse", "http", "streamablehttp":
	default:
		return fmt.Errorf("%s: type %q is not stdio, sse, http or streamableHttp", name, c.Type)
	}
	return nil
}

func decodeObject(s string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}
