//go:build unix

package fitness_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hearth/backend/fitness"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
)

// The check against the real Ollama server with tiny generated models: one that
// calls tools (structured, parsed by the server itself; it calls whenever tools are
// offered), one that prints its call as text, one whose template offers tools but
// that never calls, and one that leaves the tool alone for the plain question.
// Runs when HEARTH_TEST_OLLAMA names the binary (make test builds it).
func TestCheckRealOllama(t *testing.T) {
	host := realollama.StartWithModels(t)
	u, _ := url.Parse(host)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := testmodel.InstallFitness(ctx, api.NewClient(u, http.DefaultClient), fitness.PlainPrompt); err != nil {
		t.Fatal(err)
	}
	o, err := llm.NewOllama(llm.OllamaConfig{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		model     string
		calls     fitness.CallStyle
		restraint bool
		verdict   fitness.Verdict
	}{
		{testmodel.ChatModelName, fitness.CallsStructured, false, fitness.VerdictGood},
		{testmodel.TextToolModelName, fitness.CallsText, false, fitness.VerdictTextFallback},
		{testmodel.NoToolModelName, fitness.CallsNone, true, fitness.VerdictChatOnly},
		{testmodel.RestrainedModelName, fitness.CallsStructured, true, fitness.VerdictGood},
	} {
		start := time.Now()
		r, err := fitness.Check(ctx, o, tt.model, fitness.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.model, err)
		}
		t.Logf("%s in %v: %s, restraint %v, stops %v, %v tokens/s, context %d — %s\n  %q",
			tt.model, time.Since(start).Round(time.Millisecond), r.ToolCalls, r.Restraint, r.StopsAfterResult, r.TokensPerSecond, r.ContextMax, r.Advice, r.Notes)
		if r.ToolCalls != tt.calls || r.Restraint != tt.restraint || r.Verdict != tt.verdict || !r.StopsAfterResult {
			t.Errorf("%s: calls %s restraint %v stops %v verdict %s; want %s %v true %s",
				tt.model, r.ToolCalls, r.Restraint, r.StopsAfterResult, r.Verdict, tt.calls, tt.restraint, tt.verdict)
		}
		if r.ContextMax != testmodel.ContextLength || r.Digest == "" || r.TokensPerSecond <= 0 {
			t.Errorf("%s: contextMax %d digest %q tokens/s %v", tt.model, r.ContextMax, r.Digest, r.TokensPerSecond)
		}
	}
}
