package config

import (
	"strings"
	"testing"
)

// The fallbacks are optional (a file without them loads the defaults: none, 120 s), and
// each must name a provider that exists; a negative wait is refused.
func TestFallbacksValidated(t *testing.T) {
	c, warns, err := Load(writeFile(t, t.TempDir(), `{"agents":{"defaults":{"model":"ollama/qwen3:4b"}}}`), nil)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if d := c.Agents.Defaults; len(d.Fallbacks) != 0 || d.FirstTokenSeconds != DefaultFirstTokenSeconds || d.FallbackOnCloudDown {
		t.Errorf("defaults %+v", d)
	}
	c.Agents.Defaults.Fallbacks = []string{"ollama/qwen3:1.7b", "custom.nowhere/x", "bogus/x"}
	c.Agents.Defaults.FirstTokenSeconds = -1
	var keys []string
	for _, p := range c.Validate() {
		keys = append(keys, p.Key)
	}
	if got := strings.Join(keys, " "); got != "agents.defaults.firstTokenSeconds agents.defaults.fallbacks.1 agents.defaults.fallbacks.2" {
		t.Errorf("problems %q", got)
	}
}
