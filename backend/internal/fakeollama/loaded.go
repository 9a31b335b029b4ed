package fakeollama

import (
	"net/http"
	"slices"
)

// load marks a model as in memory, as a chat or an embedding leaves it in Ollama.
func (s *Server) load(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.loaded, name) {
		s.loaded = append(s.loaded, name)
	}
}

// handlePS answers /api/ps: the loaded models that are still installed.
func (s *Server) handlePS(w http.ResponseWriter) {
	s.mu.Lock()
	loaded := append([]string(nil), s.loaded...)
	s.mu.Unlock()
	models := []map[string]any{}
	for _, name := range loaded {
		m, ok := s.find(name)
		if !ok {
			continue
		}
		ctx := m.ContextLength
		if ctx <= 0 {
			ctx = 4096
		}
		models = append(models, map[string]any{
			"name": m.Name, "model": m.Name, "size": m.Size, "digest": m.digest(), "details": details(m),
			"expires_at": "2026-01-02T03:09:05Z", "size_vram": 0, "context_length": ctx,
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": models})
}
