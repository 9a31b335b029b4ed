package config

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"sort"
	"strings"
)

// Validate checks values that decode fine but cannot work. Problems name dotted keys;
// Load adds their line and column. Settings UIs call it before Save.
func (c *Config) Validate() []Problem {
	var ps []Problem
	add := func(key, hint, format string, args ...any) {
		ps = append(ps, Problem{Key: key, Msg: fmt.Sprintf(format, args...), Hint: hint})
	}
	a := c.Agents.Defaults
	const ad = "agents.defaults."

	if !strings.Contains(a.Model, "/") {
		add(ad+"model", fmt.Sprintf("write it as <provider>/<model>, e.g. %q", "ollama/"+strings.TrimSpace(a.Model)),
			"the default model %q names no provider", a.Model)
	} else if _, _, err := c.ResolveModel(a.Model); err != nil {
		ps = append(ps, hinted(ad+"model", err))
	}
	if a.EmbeddingModel != "" {
		if _, _, err := c.ResolveModel(a.EmbeddingModel); err != nil {
			ps = append(ps, hinted(ad+"embeddingModel", err))
		}
	}
	intMin := func(key string, v, min int) {
		if v < min {
			add(key, fmt.Sprintf("use a whole number of at least %d", min), "must be at least %d, got %d", min, v)
		}
	}
	intMin(ad+"contextTokens", a.ContextTokens, 512)
	intMin(ad+"maxTokens", a.MaxTokens, 1)
	if a.MaxTokens >= a.ContextTokens && a.ContextTokens >= 512 {
		add(ad+"maxTokens", "the reply budget must leave room for the prompt; e.g. 2048 with contextTokens 8192",
			"must be less than contextTokens (%d), got %d", a.ContextTokens, a.MaxTokens)
	}
	if a.Temperature < 0 || a.Temperature > 2 {
		add(ad+"temperature", "use a number from 0 to 2; 0.3 suits tool use", "must be between 0 and 2, got %g", a.Temperature)
	}
	intMin(ad+"maxToolIterations", a.MaxToolIterations, 1)
	intMin(ad+"subagentMaxToolIterations", a.SubagentMaxToolIterations, 1)
	intMin(ad+"memoryWindow", a.MemoryWindow, 2)
	intMin(ad+"maxToolResultChars", a.MaxToolResultChars, 500)
	if s := a.RecallBlock.MinScore; s < 0 || s > 1 {
		add(ad+"recallBlock.minScore", "use a number from 0 to 1, e.g. 0.35", "must be between 0 and 1, got %g", s)
	}
	intMin(ad+"recallBlock.maxChars", a.RecallBlock.MaxChars, 0)

	if h := c.Providers.Ollama.Host; strings.TrimSpace(h) != "" {
		if _, err := NormalizeOllamaHost(h); err != nil {
			add("providers.ollama.host", `e.g. "http://127.0.0.1:11434" or "" for the default`, "%v", err)
		}
	}
	if b := c.Providers.OpenAI.APIBase; b != "" && !isHTTPURL(b) {
		add("providers.openai.apiBase", `e.g. "`+DefaultOpenAIBase+`"`, "not an http(s) URL: %q", b)
	}
	for _, name := range sortedKeys(c.Providers.Custom) {
		key := "providers.custom." + name
		if name == "" || strings.ContainsAny(name, "/ ") {
			add(key, `use a short name like "groq"`, "a custom provider name must not be empty or contain \"/\" or spaces")
		}
		if b := c.Providers.Custom[name].APIBase; !isHTTPURL(b) {
			add(key+".apiBase", `an OpenAI-compatible base URL, e.g. "http://localhost:8080/v1"`, "not an http(s) URL: %q", b)
		}
	}

	t := c.Tools
	if t.Exec.Timeout < 1 || t.Exec.Timeout > 600 {
		add("tools.exec.timeout", "seconds, from 1 to 600", "must be between 1 and 600, got %d", t.Exec.Timeout)
	}
	oneOf(&ps, "tools.web.search.provider", t.Web.Search.Provider, "duckduckgo", "brave", "searxng")
	for i, cidr := range t.Web.SSRFAllow {
		if _, _, err := net.ParseCIDR(cidr); err != nil {
			add(fmt.Sprintf("tools.web.ssrfAllow.%d", i), `a CIDR range, e.g. "192.168.1.0/24"`, "not a CIDR range: %q", cidr)
		}
	}
	oneOf(&ps, "tools.approval.mode", t.Approval.Mode, "all", "risky", "ask")
	for _, name := range sortedKeys(t.MCPServers) {
		s := t.MCPServers[name]
		key := "tools.mcpServers." + name
		if s.Command == "" && s.URL == "" {
			add(key, `give "command" (stdio) or "url" (SSE / streamable HTTP)`, "an MCP server needs a command or a url")
		}
		if s.URL != "" && !isHTTPURL(s.URL) {
			add(key+".url", `e.g. "http://localhost:3000/mcp"`, "not an http(s) URL: %q", s.URL)
		}
		if s.Type != "" {
			oneOf(&ps, key+".type", s.Type, "stdio", "sse", "http", "streamableHttp")
		}
		if s.ToolTimeout < 0 {
			add(key+".toolTimeout", "seconds; 0 or leave it out for 30", "must not be negative, got %d", s.ToolTimeout)
		}
	}

	intMin("heartbeat.intervalMinutes", c.Heartbeat.IntervalMinutes, 1)
	oneOf(&ps, "schedule.missedRuns", c.Schedule.MissedRuns, "catchup", "skip")
	intRange := func(key string, v, lo, hi int) {
		if v < lo || v > hi {
			add(key, fmt.Sprintf("use a whole number from %d to %d", lo, hi), "must be between %d and %d, got %d", lo, hi, v)
		}
	}
	dr := c.Memory.Dream
	intRange("memory.dream.everyHours", dr.EveryHours, 1, 24*7)
	intRange("memory.dream.maxTokens", dr.MaxTokens, 1000, 10_000_000)
	intRange("memory.dream.maxMinutes", dr.MaxMinutes, 1, 120)
	intRange("memory.dream.maxToolCalls", dr.MaxToolCalls, 1, 1000)
	intRange("memory.review.expireHours", c.Memory.Review.ExpireHours, 0, 24*365)
	oneOf(&ps, "memory.review.onExpiry", c.Memory.Review.OnExpiry, "discard", "apply")
	oneOf(&ps, "ui.theme", c.UI.Theme, "system", "light", "dark")
	oneOf(&ps, "ui.language", c.UI.Language, "auto", "en", "zh-CN")
	return ps
}

// hinted makes a Problem from an error whose text ends in "(hint: …)".
func hinted(key string, err error) Problem {
	msg, hint, ok := strings.Cut(err.Error(), " (hint: ")
	if ok {
		hint = strings.TrimSuffix(hint, ")")
	}
	return Problem{Key: key, Msg: msg, Hint: hint}
}

func oneOf(ps *[]Problem, key, v string, allowed ...string) {
	if slices.Contains(allowed, v) {
		return
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	*ps = append(*ps, Problem{Key: key, Msg: fmt.Sprintf("unknown value %q", v),
		Hint: "use one of " + strings.Join(quoted, ", ")})
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
