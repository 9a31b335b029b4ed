package core

import (
	"fmt"

	"hearth/backend/config"
	"hearth/backend/tools"
	"hearth/backend/web"
)

// webTools builds web_search and web_fetch from tools.web.
func webTools(cfg *config.Config) ([]tools.Tool, error) {
	w := cfg.Tools.Web
	ts, err := web.New(web.Options{
		Offline:    w.Offline,
		Provider:   w.Search.Provider,
		APIKey:     w.Search.APIKey,
		SearXNGURL: w.Search.URL,
		SSRFAllow:  w.SSRFAllow,
	})
	if err != nil {
		return nil, fmt.Errorf("web tools: %w", err)
	}
	return ts, nil
}

// registerReach adds the tools of issue 8 that exist before the runner:
// web_search and web_fetch.
func (s *Service) registerReach(p *agentParts, cfg *config.Config) error {
	ws, err := webTools(cfg)
	if err != nil {
		return err
	}
	return p.registry.Register(ws...)
}
