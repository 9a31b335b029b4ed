package session

import (
	"bytes"
	"encoding/json"
)

// head is the leading fields of a line: enough for List to count messages
// and find unfinished runs without decoding message bodies.
type head struct {
	Type  string `json:"type"`
	At    string `json:"at"`
	RunID string `json:"runId"`
	Role  string `json:"role"`
}

// peek reads the head of a line. Lines this package writes start with
// {"type":…,"at":…[,"runId":…][,"role":…] and are read from their first bytes
// only; any other line (hand-edited, escaped strings) is decoded in full.
// ok is false when the line is not a JSON object with a "type".
func peek(line []byte) (h head, ok bool) {
	if h, ok := peekFast(line); ok {
		return h, true
	}
	if err := json.Unmarshal(line, &h); err != nil || h.Type == "" {
		return head{}, false
	}
	return h, true
}

// lineKind is the "type" of a line, "" when it has none.
func lineKind(line []byte) string {
	if rest, ok := bytes.CutPrefix(line, []byte(`{"type":"`)); ok {
		if v, _, ok := plainString(rest); ok {
			return v
		}
	}
	var h struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &h) != nil {
		return ""
	}
	return h.Type
}

func peekFast(line []byte) (h head, ok bool) {
	// A cut-off line does not end in '}'; decoding it in full reports it.
	if len(line) == 0 || line[len(line)-1] != '}' {
		return head{}, false
	}
	rest, ok := bytes.CutPrefix(line, []byte(`{"type":"`))
	if !ok {
		return head{}, false
	}
	if h.Type, rest, ok = plainString(rest); !ok {
		return head{}, false
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"at", &h.At}, {"runId", &h.RunID}, {"role", &h.Role}} {
		v, r, found, ok := field(rest, f.name)
		if !ok {
			return head{}, false
		}
		if found {
			*f.dst, rest = v, r
		}
	}
	return h, true
}

// field reads ,"name":"value" at the start of b. found is false (and ok
// true) when b starts with another field.
func field(b []byte, name string) (v string, rest []byte, found, ok bool) {
	if len(b) < len(name)+5 || b[0] != ',' || b[1] != '"' ||
		string(b[2:2+len(name)]) != name || string(b[2+len(name):5+len(name)]) != `":"` {
		return "", b, false, true
	}
	v, rest, ok = plainString(b[5+len(name):])
	return v, rest, ok, ok
}

// plainString reads a JSON string body up to its closing quote; it gives up
// on escapes, which the full decoder handles.
func plainString(b []byte) (string, []byte, bool) {
	for i, c := range b {
		switch c {
		case '"':
			return string(b[:i]), b[i+1:], true
		case '\\':
			return "", b, false
		}
	}
	return "", b, false
}
