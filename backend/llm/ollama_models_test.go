package llm

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"hearth/backend/internal/fakeollama"
)

func TestResolveOllamaHost(t *testing.T) {
	tests := []struct{ configured, env, want string }{
		{"", "", "http://127.0.0.1:11434"},
		{"", "0.0.0.0", "http://127.0.0.1:11434"}, // a server's listen address: connect here
		{"", "10.0.0.5:9999", "http://10.0.0.5:9999"},
		{"", "https://ollama.example.com", "https://ollama.example.com"},
		{"http://box:1234/", "127.0.0.1:1", "http://box:1234"},
		{"  box  ", "", "http://box:11434"},
	}
	for _, tt := range tests {
		u, err := resolveOllamaHost(tt.configured, tt.env)
		if err != nil || u.String() != tt.want {
			t.Errorf("resolveOllamaHost(%q, %q) = %v, %v; want %s", tt.configured, tt.env, u, err, tt.want)
		}
	}
	for _, bad := range []string{"ftp://x", "http://"} {
		if _, err := resolveOllamaHost(bad, ""); err == nil {
			t.Errorf("resolveOllamaHost(%q) accepted", bad)
		}
	}
	t.Setenv("OLLAMA_HOST", "127.0.0.9:7")
	if u, _ := OllamaHost(""); u.String() != "http://127.0.0.9:7" {
		t.Errorf("OLLAMA_HOST ignored: %v", u)
	}
}

func TestOllamaShowAndList(t *testing.T) {
	o, _, _ := newFakeOllama(t)
	ctx := context.Background()
	d, err := o.Show(ctx, "qwen3:4b")
	if err != nil {
		t.Fatal(err)
	}
	if d.ContextLength != 40960 || d.Family != "qwen3" || !d.Has(CapTools) || !d.Has(CapThinking) || d.Has(CapVision) || d.ParameterSize != "4.0B" || d.Size != 2_497_293_918 || d.Digest == "" {
		t.Errorf("details = %+v", d)
	}
	if _, err := o.Show(ctx, "nope"); !IsKind(err, KindModelNotFound) {
		t.Errorf("show missing: %v", err)
	}
	models, err := o.Models(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range models {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "nomic-embed-text:latest,qwen3:4b,tiny:latest" || models[1].Size != 2_497_293_918 || models[1].Family != "qwen3" {
		t.Errorf("models = %+v", models)
	}
	if v, err := o.Version(ctx); err != nil || v != fakeollama.Version {
		t.Errorf("version %q %v", v, err)
	}
}

func TestOllamaPull(t *testing.T) {
	o, srv, _ := newFakeOllama(t)
	ctx := context.Background()
	var progress []PullProgress
	if err := o.Pull(ctx, "llama3.2", func(p PullProgress) { progress = append(progress, p) }); err != nil {
		t.Fatal(err)
	}
	if len(progress) < 3 || progress[0].Status != "pulling manifest" || progress[len(progress)-1].Status != "success" {
		t.Errorf("progress = %+v", progress)
	}
	var sawBytes bool
	for _, p := range progress {
		if p.Total == 1000 && p.Completed == 1000 && strings.HasPrefix(p.Digest, "sha256:") {
			sawBytes = true
		}
	}
	if !sawBytes {
		t.Errorf("no byte progress in %+v", progress)
	}
	if _, err := o.Show(ctx, "llama3.2"); err != nil {
		t.Errorf("pulled model not shown: %v", err)
	}

	srv.EnqueuePull(
		fakeollama.PullReply{Steps: []fakeollama.Progress{{Status: "pulling manifest"}}, Error: `pull model manifest: Get "https://registry.ollama.ai/v2/library/x/manifests/latest": dial tcp: lookup registry.ollama.ai: no such host`},
		fakeollama.PullReply{Steps: []fakeollama.Progress{{Status: "pulling manifest"}}, Error: "pull model manifest: file does not exist"},
	)
	err := o.Pull(ctx, "x", nil)
	if e, ok := AsError(err); !ok || e.Kind != KindUnreachable || !strings.Contains(e.Hint, "internet") {
		t.Errorf("offline pull: %v", err)
	}
	err = o.Pull(ctx, "nosuchmodel", nil)
	if e, ok := AsError(err); !ok || e.Kind != KindModelNotFound || !strings.Contains(e.Hint, "ollama.com/library") {
		t.Errorf("missing pull: %v", err)
	}
}

func TestOllamaDelete(t *testing.T) {
	o, srv, _ := newFakeOllama(t)
	ctx := context.Background()
	if _, err := o.Show(ctx, "tiny"); err != nil {
		t.Fatal(err)
	}
	if err := o.Delete(ctx, "tiny"); err != nil {
		t.Fatal(err)
	}
	for _, m := range srv.Models() {
		if m.Name == "tiny:latest" {
			t.Fatal("model still installed")
		}
	}
	if _, err := o.Show(ctx, "tiny"); !IsKind(err, KindModelNotFound) {
		t.Errorf("show after delete (cache must be dropped): %v", err)
	}
	if err := o.Delete(ctx, "tiny"); !IsKind(err, KindModelNotFound) {
		t.Errorf("second delete: %v", err)
	}
}

func TestOllamaEmbedBatches(t *testing.T) {
	o, srv, _ := newFakeOllama(t)
	inputs := []string{"the cat sat", "a dog ran", "the cat sat", "stars", "moon"}
	vecs, err := o.Embed(context.Background(), "nomic-embed-text", inputs)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(inputs) {
		t.Fatalf("%d vectors", len(vecs))
	}
	for i, v := range vecs {
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		if math.Abs(n-1) > 1e-4 || len(v) != fakeollama.VectorDims {
			t.Errorf("vector %d not normalised: %v", i, v)
		}
	}
	for k := range vecs[0] {
		if vecs[0][k] != vecs[2][k] {
			t.Fatal("same text, different vectors: order lost across batches")
		}
	}
	var batches []int
	for _, r := range srv.Requests() {
		if r.Path == "/api/embed" {
			var body struct{ Input []string }
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			batches = append(batches, len(body.Input))
		}
	}
	if len(batches) != 3 || batches[0] != 2 || batches[2] != 1 {
		t.Errorf("batches = %v, want [2 2 1]", batches)
	}
	if _, err := o.Embed(context.Background(), "absent", []string{"x"}); !IsKind(err, KindModelNotFound) {
		t.Errorf("embed with missing model: %v", err)
	}
}

func TestErrorFormatting(t *testing.T) {
	e := &Error{Kind: KindUnreachable, Message: "cannot reach Ollama at http://x", Hint: HintOllamaDown, Err: context.Canceled}
	if e.Error() != "cannot reach Ollama at http://x: context canceled" {
		t.Errorf("Error() = %q", e.Error())
	}
	if !IsKind(e, KindUnreachable) || IsKind(e, KindAuth) || IsKind(nil, KindAuth) {
		t.Error("IsKind wrong")
	}
	if h := modelMissing(nil, "").Hint; h != "model not found — pull it with `hearth models pull NAME`" {
		t.Error(h)
	}
	p := RetryPolicy{}
	if p.Delay(1) != 500e6 || p.Delay(2) != 1e9 || p.Delay(10) != 8e9 || p.attempts() != 4 {
		t.Errorf("default delays %v %v %v", p.Delay(1), p.Delay(2), p.Delay(10))
	}
}
