package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// The complete default file in the configuration reference (docs/configuration.md) must
// load to exactly Default(), and every key of the schema must appear in the page's tables.
func TestDocsMatchSchema(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n## A complete file with the defaults\n.*?```json\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal(`docs/configuration.md has no json block under "## A complete file with the defaults"`)
	}
	p := writeFile(t, t.TempDir(), string(m[1]))
	c, warns, err := Load(p, nil)
	if err != nil || len(warns) != 0 {
		t.Fatalf("doc example: %v %v", err, warns)
	}
	c.src = nil
	if want := Default(); !reflect.DeepEqual(c, want) {
		t.Errorf("doc example differs from Default():\n%+v\n%+v", c, want)
	}
	var walk func(reflect.Type, string)
	walk = func(tp reflect.Type, prefix string) {
		for i := range tp.NumField() {
			f := tp.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+name+".")
				continue
			}
			if !strings.Contains(string(doc), "`"+name+"`") && !strings.Contains(string(doc), "."+name+"`") {
				t.Errorf("docs/configuration.md does not document %s%s", prefix, name)
			}
		}
	}
	walk(reflect.TypeFor[Config](), "")
	walk(reflect.TypeFor[MCPServer](), "tools.mcpServers.<name>.")
}

// Two processes (here: two Configs) saving different fields of the same file at once
// both keep their change: the lock serialises them and the merge keeps the other's edit.
func TestConcurrentSaves(t *testing.T) {
	p := writeFile(t, t.TempDir(), "{}\n")
	const n = 8
	cfgs := make([]*Config, n)
	for i := range cfgs {
		c, _, err := Load(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfgs[i] = c
	}
	cfgs[0].UI.Theme = "dark"
	cfgs[1].UI.Language = "zh-CN"
	cfgs[2].Heartbeat.IntervalMinutes = 7
	cfgs[3].Tools.Exec.Timeout = 90
	cfgs[4].Agents.Defaults.MaxTokens = 1000
	cfgs[5].Providers.Custom["a"] = OpenAIProvider{APIBase: "http://a/v1"}
	cfgs[6].Tools.Approval.Mode = "ask"
	cfgs[7].Schedule.MissedRuns = "skip"
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, c := range cfgs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = c.Save(p) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("save %d: %v", i, err)
		}
	}
	got, _, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.UI.Theme != "dark" || got.UI.Language != "zh-CN" || got.Heartbeat.IntervalMinutes != 7 || got.Tools.Exec.Timeout != 90 ||
		got.Agents.Defaults.MaxTokens != 1000 || got.Providers.Custom["a"].APIBase != "http://a/v1" ||
		got.Tools.Approval.Mode != "ask" || got.Schedule.MissedRuns != "skip" {
		data, _ := os.ReadFile(p)
		t.Errorf("a concurrent change was lost:\n%s", data)
	}
}
