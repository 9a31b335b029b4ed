package config

import (
	"strings"
	"testing"
)

func TestValidateKnowledgeFolders(t *testing.T) {
	for _, tc := range []struct {
		name    string
		folders []KnowledgeFolder
		want    string // "" valid, else a key the problems name
	}{
		{"ok", []KnowledgeFolder{{Path: "/home/a/notes", Mode: "always"}, {Path: "/home/a/docs", Mode: "ask"}}, ""},
		{"relative", []KnowledgeFolder{{Path: "notes", Mode: "always"}}, "knowledge.folders[0].path"},
		{"root", []KnowledgeFolder{{Path: "/", Mode: "always"}}, "knowledge.folders[0].path"},
		{"inside", []KnowledgeFolder{{Path: "/home/a", Mode: "always"}, {Path: "/home/a/notes", Mode: "ask"}}, "knowledge.folders[1].path"},
		{"outside", []KnowledgeFolder{{Path: "/home/a/notes", Mode: "always"}, {Path: "/home/a", Mode: "ask"}}, "knowledge.folders[1].path"},
		{"twice", []KnowledgeFolder{{Path: "/home/a", Mode: "always"}, {Path: "/home/a/", Mode: "ask"}}, "knowledge.folders[1].path"},
		{"mode", []KnowledgeFolder{{Path: "/home/a", Mode: "sometimes"}}, "knowledge.folders[0].mode"},
	} {
		c := Default()
		c.Knowledge.Folders = tc.folders
		var got []string
		for _, p := range c.Validate() {
			got = append(got, p.Key)
		}
		if tc.want == "" && len(got) > 0 || tc.want != "" && !strings.Contains(strings.Join(got, " "), tc.want) {
			t.Errorf("%s: problems %v, want %q", tc.name, got, tc.want)
		}
	}
}
