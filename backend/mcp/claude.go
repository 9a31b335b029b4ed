package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"hearth/backend/config"
	"hearth/backend/i18n"
)

// ParseClaudeDesktop reads MCP servers pasted from a Claude Desktop (or
// Cursor, nanobot …) config: the whole file, its {"mcpServers": {…}} block,
// the map of servers alone, or one `"name": {…}` entry without braces.
func ParseClaudeDesktop(block string) (map[string]config.MCPServer, error) {
	text := strings.TrimSpace(block)
	if text == "" {
		return nil, problem(i18n.P("mcp.import.empty"))
	}
	src := text
	raw, err := decodeObject(src)
	if err != nil && !strings.HasPrefix(text, "{") {
		// A fragment such as `"fs": {…}` or `"mcpServers": {…},`.
		src = "{" + strings.TrimSuffix(text, ",") + "}"
		raw, err = decodeObject(src)
	}
	if err != nil {
		return nil, problem(i18n.P("mcp.import.notJSON", "error", err.Error()))
	}
	// Hearth's own shape nests the block under "tools".
	if inner, ok := raw["tools"]; ok {
		var m map[string]json.RawMessage
		if json.Unmarshal(inner, &m) == nil {
			if err := misspelled("tools", slices.Collect(maps.Keys(m)), wrapperKeys); err != nil {
				return nil, err
			}
			if m["mcpServers"] != nil {
				src, raw = string(inner), m
			}
		}
	}
	if err := misspelled("", slices.Collect(maps.Keys(raw)), wrapperKeys); err != nil {
		return nil, err
	}
	if inner, ok := raw["mcpServers"]; ok {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(inner, &m); err != nil {
			return nil, problem(i18n.M("mcp.import.notObject", "error", err.Error()).WithHint())
		}
		src, raw = string(inner), m
	}
	if len(raw) == 0 {
		return nil, problem(i18n.P("mcp.import.noServers"))
	}
	// Two servers of one name: the JSON decoder keeps the last without a word.
	if names, ok := objectKeys(json.RawMessage(src)); ok {
		if err := misspelled("", names, nil); err != nil {
			return nil, err
		}
	}
	out := map[string]config.MCPServer{}
	var problems []i18n.Problem
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		if keys, ok := objectKeys(raw[name]); ok {
			if err := misspelled(name, keys, serverKeys); err != nil {
				problems = append(problems, err.Problems...)
				continue
			}
		}
		var c config.MCPServer
		if err := json.Unmarshal(raw[name], &c); err != nil {
			problems = append(problems, i18n.M("mcp.server.unreadable", "name", name, "error", err.Error()).WithHint())
			continue
		}
		if err := check(name, c); err != nil {
			problems = append(problems, err.Problems...)
			continue
		}
		out[name] = c
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("cannot import: %w", &Error{Problems: problems})
	}
	return out, nil
}

// CheckServer validates one entry the way the config does; its error is an *Error.
func CheckServer(name string, c config.MCPServer) error {
	if err := check(name, c); err != nil {
		return err
	}
	return nil
}

func check(name string, c config.MCPServer) *Error {
	var p i18n.Message
	switch {
	case strings.TrimSpace(name) == "":
		p = i18n.M("mcp.server.noName")
	case c.Command == "" && c.URL == "":
		p = i18n.M("mcp.server.noTarget", "name", name)
	case c.URL != "" && !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://"):
		p = i18n.M("mcp.server.badURL", "name", name, "url", strconv.Quote(c.URL))
	case c.ToolTimeout < 0:
		p = i18n.M("mcp.server.negativeTimeout", "name", name)
	}
	switch strings.ToLower(c.Type) {
	case "", "stdio", "sse", "http", "streamablehttp":
	default:
		if p.Code == "" {
			p = i18n.M("mcp.server.badType", "name", name, "type", strconv.Quote(c.Type))
		}
	}
	if p.Code == "" {
		return nil
	}
	return problem(p.WithHint())
}

func decodeObject(s string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// serverKeys are the keys of a server entry as Hearth spells them (config.MCPServer's
// JSON names). The other apps' entries use the same spellings for what they share
// (command, args, env, url, type, headers); their own keys (cwd, envFile, disabled …)
// are no spelling of these and are left out of the import as before.
var serverKeys = jsonNames(reflect.TypeFor[config.MCPServer]())

// wrapperKeys hold the servers: Claude Desktop's block, also under "tools" in Hearth's
// own config.json.
var wrapperKeys = []string{"mcpServers"}

func jsonNames(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// misspelled refuses a key of the object named where that differs from a known key only
// in case ("Command"), and a key given twice. encoding/json would match "Command" to
// "command" and let the last of two such keys win without a word, while Claude Desktop,
// VS Code and Hearth's config.json loader read keys exactly: the server imported would
// not be the one the pasted block means anywhere else. The import stops at the first such
// key, before anything is saved.
func misspelled(where string, keys, known []string) *Error {
	seen := map[string]bool{}
	for _, k := range keys {
		key := strconv.Quote(k)
		if seen[k] {
			if where == "" {
				return problem(i18n.P("mcp.key.twice", "key", key))
			}
			return problem(i18n.P("mcp.key.twiceIn", "where", where, "key", key))
		}
		seen[k] = true
		for _, want := range known {
			if k != want && strings.EqualFold(k, want) {
				if where == "" {
					return problem(i18n.P("mcp.key.case", "key", key, "want", strconv.Quote(want)))
				}
				return problem(i18n.P("mcp.key.caseIn", "where", where, "key", key, "want", strconv.Quote(want)))
			}
		}
	}
	return nil
}

// objectKeys lists the keys of a JSON object in order, duplicates included; ok is false
// when raw is not an object (json.Unmarshal then says why).
func objectKeys(raw json.RawMessage) (keys []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, _ := tok.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, false
		}
	}
	return keys, true
}
