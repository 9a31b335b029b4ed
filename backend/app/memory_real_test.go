//go:build unix

package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/config"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/recall"
)

// The Service's embedding wiring against the real Ollama with the tiny
// embedding model: config name → provider → batched /api/embed → hybrid
// search; then reindex and a reopened Service reusing the cached vectors.
func TestRealOllamaMemorySearch(t *testing.T) {
	setXDG(t)
	host := realollama.StartWithModels(t)
	p := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := `{"agents":{"defaults":{"model":"ollama/` + testmodel.ChatModelName + `","embeddingModel":"ollama/` + testmodel.EmbedModelName + `"}}}`
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	open := func() *App {
		svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": host})})
		if err := svc.Settings.ConfigError(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = svc.Close(context.Background()) })
		return svc
	}
	svc := open()
	entries := "[2026-03-01 10:00] Fixed the garden gate hinge.\n\n[2026-03-02 11:00] Ordered a birthday cake for Lena.\n\n[2026-03-03 12:00] Cleaned the aquarium filter.\n"
	if err := os.WriteFile(filepath.Join(svc.Settings.Paths().Workspace, "memory", "HISTORY.md"), []byte(entries), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := svc.Memory.Search(ctx, "Ordered a birthday cake for Lena.", 3)
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != recall.ModeHybrid || res.Note != "" || len(res.Hits) != 3 || res.Hits[0].Date != "2026-03-02 11:00" || res.Hits[0].Mode != recall.ModeHybrid {
		t.Fatalf("search %+v", res)
	}
	rep, err := svc.Memory.Reindex(ctx)
	if err != nil || rep.Chunks != 3 || rep.Vectors != 3 || rep.Embedded != 3 || rep.Mode != recall.ModeHybrid {
		t.Fatalf("reindex %+v %v", rep, err)
	}
	// A new Service (process) opens the cached index and searches it.
	svc2 := open()
	res, err = svc2.Memory.Search(ctx, "aquarium filter", 1)
	if err != nil || res.Mode != recall.ModeHybrid || len(res.Hits) != 1 || res.Hits[0].Date != "2026-03-03 12:00" {
		t.Fatalf("reopened search %+v %v", res, err)
	}
}
