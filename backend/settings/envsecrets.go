package settings

import (
	"hearth/backend/config"
	keystore "hearth/backend/secrets"
)

// secretEnvNames are the environment variables the config's secret fields refer to
// as ${VAR}: the providers' and web search's apiKey, every MCP header value, and an
// MCP env value whose variable name marks a secret (GITHUB_TOKEN, …). A ${HOME} in
// an MCP server's env or an allowed path is no secret and stays in the environment
// (the desktop's own helpers need it). Read from the file as written, before
// expansion; an unreadable file names nothing.
func secretEnvNames(path string) []string {
	raw, err := config.ReadRaw(path)
	if err != nil {
		return nil
	}
	var vals []string
	add := func(keys ...string) {
		if v, ok := raw.String(keys...); ok {
			vals = append(vals, v)
		}
	}
	for _, f := range keyFields(raw) {
		add(f.path...)
	}
	for _, n := range raw.Members("tools", "mcpServers") {
		for _, h := range raw.Members("tools", "mcpServers", n, "headers") {
			add("tools", "mcpServers", n, "headers", h)
		}
		for _, e := range raw.Members("tools", "mcpServers", n, "env") {
			if keystore.SecretName(e) {
				add("tools", "mcpServers", n, "env", e)
			}
		}
	}
	var names []string
	for _, v := range vals {
		names = append(names, config.EnvRefs(v)...)
	}
	return names
}

// dropSecretEnv takes the variables holding secrets out of Hearth's process
// environment (see secrets.Env); a no-op when Open was given no Env (tests, or
// callers that keep their environment).
func (s *Service) dropSecretEnv() {
	if s.env == nil {
		return
	}
	s.env.Drop(secretEnvNames(s.Paths().ConfigFile)...)
}
