package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/ollama/ollama/api"
)

// Show describes a model from /api/show: capabilities, context length,
// family; size and digest come from /api/tags (which /api/show lacks).
func (o *Ollama) Show(ctx context.Context, model string) (ModelDetails, error) {
	var d ModelDetails
	err := withRetry(ctx, o.cfg.Retry, func(ctx context.Context) (bool, error) {
		var err error
		d, err = o.showOnce(ctx, model)
		return false, err
	})
	if err != nil {
		return d, err
	}
	o.mu.Lock()
	o.details[model] = d
	o.mu.Unlock()
	if l, err := o.client.List(ctx); err == nil {
		for _, m := range l.Models {
			if m.Name == model || m.Name == model+":latest" || m.Model == model {
				d.Size, d.Digest = m.Size, m.Digest
			}
		}
	}
	return d, nil
}

// showCached is Show without its own retries (Chat retries around it), cached
// because capabilities do not change while a model stays installed.
func (o *Ollama) showCached(ctx context.Context, model string) (ModelDetails, error) {
	o.mu.Lock()
	d, ok := o.details[model]
	o.mu.Unlock()
	if ok {
		return d, nil
	}
	d, err := o.showOnce(ctx, model)
	if err != nil {
		return d, err
	}
	o.mu.Lock()
	o.details[model] = d
	o.mu.Unlock()
	return d, nil
}

func (o *Ollama) forget(model string) {
	o.mu.Lock()
	delete(o.details, model)
	o.mu.Unlock()
}

func (o *Ollama) showOnce(ctx context.Context, model string) (ModelDetails, error) {
	r, err := o.client.Show(ctx, &api.ShowRequest{Model: model})
	if err != nil {
		return ModelDetails{}, o.classify(err, model)
	}
	d := ModelDetails{ModelInfo: ModelInfo{
		Name:              model,
		Family:            r.Details.Family,
		ParameterSize:     r.Details.ParameterSize,
		QuantizationLevel: r.Details.QuantizationLevel,
	}}
	for _, c := range r.Capabilities {
		d.Capabilities = append(d.Capabilities, Capability(c))
	}
	d.ContextLength = contextLength(r.ModelInfo)
	return d, nil
}

// contextLength reads "<arch>.context_length" from /api/show's model_info.
func contextLength(info map[string]any) int {
	arch, _ := info["general.architecture"].(string)
	if v, ok := info[arch+".context_length"]; ok && arch != "" {
		return toInt(v)
	}
	for k, v := range info {
		if strings.HasSuffix(k, ".context_length") {
			return toInt(v)
		}
	}
	return 0
}

func toInt(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case int64:
		return int(n)
	}
	return 0
}

// Models lists the installed models (/api/tags), sorted by name.
func (o *Ollama) Models(ctx context.Context) ([]ModelInfo, error) {
	var out []ModelInfo
	err := withRetry(ctx, o.cfg.Retry, func(ctx context.Context) (bool, error) {
		r, err := o.client.List(ctx)
		if err != nil {
			return false, o.classify(err, "")
		}
		out = out[:0]
		for _, m := range r.Models {
			out = append(out, ModelInfo{
				Name: m.Name, Size: m.Size, Digest: m.Digest, Family: m.Details.Family,
				ParameterSize: m.Details.ParameterSize, QuantizationLevel: m.Details.QuantizationLevel,
			})
		}
		return false, nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

// Pull downloads a model (/api/pull), reporting progress to fn.
func (o *Ollama) Pull(ctx context.Context, model string, fn func(PullProgress)) error {
	defer o.forget(model)
	return withRetry(ctx, o.cfg.Retry, func(ctx context.Context) (bool, error) {
		progressed := false
		err := o.client.Pull(ctx, &api.PullRequest{Model: model}, func(p api.ProgressResponse) error {
			progressed = true
			if fn != nil {
				fn(PullProgress{Status: p.Status, Digest: p.Digest, Total: p.Total, Completed: p.Completed})
			}
			return nil
		})
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			return progressed, o.classifyPull(err, model)
		}
		return progressed, nil
	})
}

// Delete removes a local model (/api/delete).
func (o *Ollama) Delete(ctx context.Context, model string) error {
	defer o.forget(model)
	return withRetry(ctx, o.cfg.Retry, func(ctx context.Context) (bool, error) {
		if err := o.client.Delete(ctx, &api.DeleteRequest{Model: model}); err != nil {
			return false, o.classify(err, model)
		}
		return false, nil
	})
}

// Embed embeds inputs with /api/embed, EmbedBatch inputs per call.
func (o *Ollama) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	batch := o.cfg.EmbedBatch
	if batch <= 0 {
		batch = 32
	}
	out := make([][]float32, 0, len(inputs))
	for start := 0; start < len(inputs); start += batch {
		part := inputs[start:min(start+batch, len(inputs))]
		var vecs [][]float32
		err := withRetry(ctx, o.cfg.Retry, func(ctx context.Context) (bool, error) {
			r, err := o.client.Embed(ctx, &api.EmbedRequest{Model: model, Input: part})
			if err != nil {
				return false, o.classify(err, model)
			}
			vecs = r.Embeddings
			return false, nil
		})
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(part) {
			return nil, &Error{Kind: KindBadResponse, Hint: HintBadResponse,
				Message: fmt.Sprintf("embed with %s: got %d vectors for %d inputs", model, len(vecs), len(part))}
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// classify maps an Ollama client error to a final *Error, marked retryable
// where a retry can help.
func (o *Ollama) classify(err error, model string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var le *Error
	if errors.As(err, &le) {
		return err
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		hint := HintOllamaDown
		if !isConnRefused(err) {
			hint = fmt.Sprintf("cannot connect to Ollama at %s — check providers.ollama.host / OLLAMA_HOST and the network", o.host)
		}
		return transient(&Error{Kind: KindUnreachable, Hint: hint,
			Message: fmt.Sprintf("cannot reach Ollama at %s", o.host), Err: err})
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return &Error{Kind: KindAuth, Message: fmt.Sprintf("Ollama at %s refused the request (%s)", o.host, ae.Status),
			Hint: "this Ollama server needs authorization — sign in with `ollama signin` or use a local server", Err: err}
	}
	var se api.StatusError
	if errors.As(err, &se) {
		return o.classifyStatus(se, model)
	}
	// An {"error":…} line inside a 200 stream.
	msg := err.Error()
	switch {
	case looksLikeToolParseFailure(msg):
		return modelFailure(&Error{Kind: KindBadResponse, Hint: HintBadResponse,
			Message: fmt.Sprintf("%s wrote a tool call Ollama could not parse", modelName(model)), Err: err})
	case looksLikeContextOverflow(msg):
		return &Error{Kind: KindContextOverflow, Hint: HintContextOverflow, Message: "the conversation no longer fits the model's context", Err: err}
	case looksLikeModelNotFound(msg):
		return &Error{Kind: KindModelNotFound, Hint: hintModelNotFound(model), Message: fmt.Sprintf("%s is not installed in Ollama", modelName(model)), Err: err}
	}
	return &Error{Kind: KindBadResponse, Hint: HintBadResponse, Message: "Ollama failed", Err: err}
}

func (o *Ollama) classifyStatus(se api.StatusError, model string) error {
	msg := se.ErrorMessage
	switch {
	case se.StatusCode == http.StatusNotFound || looksLikeModelNotFound(msg) && se.StatusCode < 500:
		return &Error{Kind: KindModelNotFound, Hint: hintModelNotFound(model),
			Message: fmt.Sprintf("%s is not installed in Ollama", modelName(model)), Err: se}
	case looksLikeContextOverflow(msg):
		return &Error{Kind: KindContextOverflow, Hint: HintContextOverflow, Message: "the conversation no longer fits the model's context", Err: se}
	case se.StatusCode == http.StatusUnauthorized || se.StatusCode == http.StatusForbidden:
		return &Error{Kind: KindAuth, Hint: "this Ollama server needs authorization — check providers.ollama.host",
			Message: fmt.Sprintf("Ollama at %s refused the request", o.host), Err: se}
	case se.StatusCode == http.StatusTooManyRequests || se.StatusCode == http.StatusServiceUnavailable:
		return transient(&Error{Kind: KindRateLimited, Hint: "Ollama is busy with other requests — wait a moment and try again",
			Message: "Ollama is overloaded", Err: se})
	case strings.Contains(strings.ToLower(msg), "memory"):
		return &Error{Kind: KindBadResponse, Message: fmt.Sprintf("Ollama cannot load %s", modelName(model)), Err: se,
			Hint: "the model needs more memory than is free — pick a smaller model or lower agents.defaults.contextTokens"}
	case se.StatusCode >= 500:
		return transient(&Error{Kind: KindBadResponse, Hint: "Ollama hit an internal error — see its server log (`journalctl -u ollama` or the terminal running `ollama serve`)",
			Message: "Ollama failed", Err: se})
	}
	return &Error{Kind: KindBadResponse, Hint: HintBadResponse, Message: fmt.Sprintf("Ollama rejected the request (HTTP %d)", se.StatusCode), Err: se}
}

// classifyPull is classify for /api/pull: an error line there comes from the
// server's own trip to the registry, not from reaching Ollama.
func (o *Ollama) classifyPull(err error, model string) error {
	var ue *url.Error
	var se api.StatusError
	if errors.As(err, &ue) || errors.As(err, &se) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return o.classify(err, model)
	}
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "file does not exist") || strings.Contains(msg, "not found") || strings.Contains(msg, "manifest unknown"):
		return &Error{Kind: KindModelNotFound, Message: fmt.Sprintf("pull %s: no such model in the registry", model),
			Hint: "check the model name (e.g. qwen3:4b) at https://ollama.com/library", Err: err}
	case strings.Contains(msg, "connection refused") || strings.Contains(msg, "dial tcp") || strings.Contains(msg, "no such host") ||
		strings.Contains(msg, "timeout") || strings.Contains(msg, "network is unreachable"):
		return &Error{Kind: KindUnreachable, Message: fmt.Sprintf("pull %s: Ollama cannot reach the model registry", model),
			Hint: "check your internet connection (and any proxy for Ollama), then pull again", Err: err}
	}
	return &Error{Kind: KindBadResponse, Message: fmt.Sprintf("pull %s failed", model), Hint: "see the Ollama server log for details", Err: err}
}

func modelName(m string) string {
	if m == "" {
		return "the model"
	}
	return "model " + m
}
