package config

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"hearth/backend/i18n"
)

// Validate checks values that decode fine but cannot work. Problems name dotted keys;
// Load adds their line and column. Settings UIs call it before Save.
func (c *Config) Validate() []Problem {
	var ps []Problem
	add := func(key string, why i18n.Problem) { ps = append(ps, NewProblem(key, why)) }
	a := c.Agents.Defaults
	const ad = "agents.defaults."

	if !strings.Contains(a.Model, "/") {
		add(ad+"model", i18n.P("config.model.noProvider", "model", a.Model, "name", "ollama/"+strings.TrimSpace(a.Model)))
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
			add(key, i18n.P("config.atLeast", "min", strconv.Itoa(min), "got", strconv.Itoa(v)))
		}
	}
	between := func(key string, v, lo, hi float64, hint i18n.Message) {
		if v < lo || v > hi {
			add(key, i18n.M("config.between", "low", num(lo), "high", num(hi), "got", num(v)).WithHint(hint))
		}
	}
	intMin(ad+"contextTokens", a.ContextTokens, 512)
	intMin(ad+"maxTokens", a.MaxTokens, 1)
	if a.MaxTokens >= a.ContextTokens && a.ContextTokens >= 512 {
		add(ad+"maxTokens", i18n.P("config.maxTokens", "context", strconv.Itoa(a.ContextTokens), "got", strconv.Itoa(a.MaxTokens)))
	}
	between(ad+"temperature", a.Temperature, 0, 2, i18n.M("config.hint.temperature"))
	intMin(ad+"maxToolIterations", a.MaxToolIterations, 1)
	intMin(ad+"subagentMaxToolIterations", a.SubagentMaxToolIterations, 1)
	if a.MaxTurnMinutes < 1 || a.MaxTurnMinutes > 1440 {
		add(ad+"maxTurnMinutes", i18n.M("config.between", "low", "1", "high", "1440", "got", strconv.Itoa(a.MaxTurnMinutes)).
			WithHint(i18n.M("config.hint.wholeBetween", "low", "1", "high", "1440")))
	}
	intMin(ad+"memoryWindow", a.MemoryWindow, 2)
	intMin(ad+"idleCompactMinutes", a.IdleCompactMinutes, 0)
	intMin(ad+"maxToolResultChars", a.MaxToolResultChars, 500)
	between(ad+"recallBlock.minScore", a.RecallBlock.MinScore, 0, 1, i18n.M("config.hint.minScore"))
	intMin(ad+"recallBlock.maxChars", a.RecallBlock.MaxChars, 0)
	intMin(ad+"firstTokenSeconds", a.FirstTokenSeconds, 0)
	for i, f := range a.Fallbacks {
		if _, _, err := c.ResolveModel(f); err != nil {
			ps = append(ps, hinted(ad+"fallbacks."+strconv.Itoa(i), err))
		}
	}

	notURL := func(key, value string, hint i18n.Message) {
		add(key, i18n.M("config.notURL", "value", value).WithHint(hint))
	}
	if h := c.Providers.Ollama.Host; strings.TrimSpace(h) != "" {
		if _, err := NormalizeOllamaHost(h); err != nil {
			add("providers.ollama.host", i18n.P("config.ollamaHost", "detail", err.Error()))
		}
	}
	switch v := c.Providers.Ollama.Start; v {
	case OllamaStartAuto, OllamaStartAlways, OllamaStartNever:
	default:
		add("providers.ollama.start", i18n.P("config.ollamaStart", "value", v))
	}
	if b := c.Providers.OpenAI.APIBase; b != "" && !isHTTPURL(b) {
		notURL("providers.openai.apiBase", b, i18n.M("config.hint.example", "example", `"`+DefaultOpenAIBase+`"`))
	}
	for _, name := range slices.Sorted(maps.Keys(c.Providers.Custom)) {
		key := "providers.custom." + name
		if name == "" || strings.ContainsAny(name, "/ ") {
			add(key, i18n.P("config.customName"))
		}
		if b := c.Providers.Custom[name].APIBase; !isHTTPURL(b) {
			notURL(key+".apiBase", b, i18n.M("config.hint.apiBase"))
		}
	}

	t := c.Tools
	if t.Exec.Timeout < 1 || t.Exec.Timeout > 600 {
		add("tools.exec.timeout", i18n.M("config.between", "low", "1", "high", "600", "got", strconv.Itoa(t.Exec.Timeout)).
			WithHint(i18n.M("config.hint.execTimeout")))
	}
	oneOf(&ps, "tools.web.search.provider", t.Web.Search.Provider, "duckduckgo", "brave", "searxng")
	for i, cidr := range t.Web.SSRFAllow {
		if _, _, err := net.ParseCIDR(cidr); err != nil {
			add(fmt.Sprintf("tools.web.ssrfAllow.%d", i), i18n.P("config.cidr", "value", cidr))
		}
	}
	oneOf(&ps, "tools.approval.mode", t.Approval.Mode, "all", "risky", "ask")
	for _, name := range slices.Sorted(maps.Keys(t.MCPServers)) {
		s := t.MCPServers[name]
		key := "tools.mcpServers." + name
		if s.Command == "" && s.URL == "" {
			add(key, i18n.P("config.mcp.noCommand"))
		}
		if s.URL != "" && !isHTTPURL(s.URL) {
			notURL(key+".url", s.URL, i18n.M("config.hint.example", "example", `"http://localhost:3000/mcp"`))
		}
		if s.Type != "" {
			oneOf(&ps, key+".type", s.Type, "stdio", "sse", "http", "streamableHttp")
		}
		if s.ToolTimeout < 0 {
			add(key+".toolTimeout", i18n.P("config.mcp.toolTimeout", "got", strconv.Itoa(s.ToolTimeout)))
		}
	}

	intMin("heartbeat.intervalMinutes", c.Heartbeat.IntervalMinutes, 1)
	oneOf(&ps, "schedule.missedRuns", c.Schedule.MissedRuns, "catchup", "skip", "ask")
	intRange := func(key string, v, lo, hi int) {
		if v < lo || v > hi {
			low, high := strconv.Itoa(lo), strconv.Itoa(hi)
			add(key, i18n.M("config.between", "low", low, "high", high, "got", strconv.Itoa(v)).WithHint(i18n.M("config.hint.wholeBetween", "low", low, "high", high)))
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
	oneOf(&ps, "ui.sendDuringRun", c.UI.SendDuringRun, "steer", "queue", "stop")
	oneOf(&ps, "channels.notifyIn", c.Channels.NotifyIn, "desktop", "telegram", "both")
	for i, id := range c.Channels.Telegram.AllowFrom {
		if !telegramUserID(id) {
			add(fmt.Sprintf("channels.telegram.allowFrom[%d]", i), i18n.P("config.channels.userID", "got", id))
		}
	}
	c.validateKnowledge(&ps)
	return ps
}

// telegramUserID says id is a Telegram user id: a positive whole number (a
// @username can be renamed and taken by someone else, so it never allows anyone).
func telegramUserID(id string) bool {
	n, err := strconv.ParseInt(id, 10, 64)
	return err == nil && n > 0 && strconv.FormatInt(n, 10) == id
}

// num writes a figure of a range check as the file would hold it.
func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// hinted makes a Problem from a *ProblemError, or from an error whose text ends in
// "(hint: …)".
func hinted(key string, err error) Problem {
	if pe, ok := errors.AsType[*ProblemError](err); ok {
		return NewProblem(key, pe.Why)
	}
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
		quoted[i] = strconv.Quote(a)
	}
	*ps = append(*ps, NewProblem(key, i18n.P("config.oneOf", "value", v, "allowed", strings.Join(quoted, ", "))))
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
