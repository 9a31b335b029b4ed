package llm

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/ollama/ollama/api"

	"hearth/backend/i18n"
)

// Show describes a model from /api/show: capabilities, context length,
// family; size and digest come from /api/tags (which /api/show lacks).
func (o *Ollama) Show(ctx context.Context, model string) (ModelDetails, error) {
	o.forget(model) // asked again: the answer may have changed
	var d ModelDetails
	err := retryCall(ctx, o.cfg.Retry, func(ctx context.Context) (err error) {
		d, err = o.showCached(ctx, model)
		return err
	})
	if err != nil {
		return d, err
	}
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
	if v, ok := info[arch+".context_length"].(float64); ok && arch != "" {
		return int(v) // JSON numbers decode as float64
	}
	for k, v := range info {
		if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") {
			return int(n)
		}
	}
	return 0
}

// Models lists the installed models (/api/tags), sorted by name.
func (o *Ollama) Models(ctx context.Context) ([]ModelInfo, error) {
	var out []ModelInfo
	err := retryCall(ctx, o.cfg.Retry, func(ctx context.Context) error {
		r, err := o.client.List(ctx)
		if err != nil {
			return o.classify(err, "")
		}
		out = out[:0]
		for _, m := range r.Models {
			out = append(out, ModelInfo{
				Name: m.Name, Size: m.Size, Digest: m.Digest, Family: m.Details.Family,
				ParameterSize: m.Details.ParameterSize, QuantizationLevel: m.Details.QuantizationLevel,
			})
		}
		return nil
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
	return retryCall(ctx, o.cfg.Retry, func(ctx context.Context) error {
		return o.classify(o.client.Delete(ctx, &api.DeleteRequest{Model: model}), model)
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
		err := retryCall(ctx, o.cfg.Retry, func(ctx context.Context) error {
			r, err := o.client.Embed(ctx, &api.EmbedRequest{Model: model, Input: part})
			if err != nil {
				return o.classify(err, model)
			}
			vecs = r.Embeddings
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(part) {
			return nil, badReply(nil, i18n.M("error.embedCount", "model", model, "got", strconv.Itoa(len(vecs)), "inputs", strconv.Itoa(len(part))))
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
		host := o.host.String()
		hint := hintOllamaDown
		if !isConnRefused(err) {
			hint = i18n.M("error.hint.ollamaConnect", "host", host)
		}
		return transient(fail(KindUnreachable, err, i18n.M("error.ollama.unreachable", "host", host).WithHint(hint)))
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return fail(KindAuth, err, i18n.P("error.ollama.signin", "host", o.host.String(), "status", ae.Status))
	}
	var se api.StatusError
	if errors.As(err, &se) {
		return o.classifyStatus(se, model)
	}
	// An {"error":…} line inside a 200 stream.
	msg := err.Error()
	switch {
	case looksLikeToolParseFailure(msg):
		return modelFailure(badReply(err, i18n.M("error.toolCallUnparsed", "model", model)))
	case looksLikeContextOverflow(msg):
		return overflow(err)
	case looksLikeModelNotFound(msg):
		return modelMissing(err, model)
	}
	return badReply(err, i18n.M("error.ollama.failed"))
}

func (o *Ollama) classifyStatus(se api.StatusError, model string) error {
	msg := se.ErrorMessage
	switch {
	case se.StatusCode == http.StatusNotFound || looksLikeModelNotFound(msg) && se.StatusCode < 500:
		return modelMissing(se, model)
	case looksLikeContextOverflow(msg):
		return overflow(se)
	case se.StatusCode == http.StatusUnauthorized || se.StatusCode == http.StatusForbidden:
		return fail(KindAuth, se, i18n.P("error.ollama.refused", "host", o.host.String()))
	case se.StatusCode == http.StatusTooManyRequests || se.StatusCode == http.StatusServiceUnavailable:
		return transient(fail(KindRateLimited, se, i18n.P("error.ollama.busy")))
	case strings.Contains(strings.ToLower(msg), "memory"):
		return fail(KindBadResponse, se, i18n.P("error.ollama.noMemory", "model", model))
	case se.StatusCode >= 500:
		return transient(fail(KindBadResponse, se, i18n.P("error.ollama.internal")))
	}
	return badReply(se, i18n.M("error.ollama.rejected", "status", strconv.Itoa(se.StatusCode)))
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
		return fail(KindModelNotFound, err, i18n.P("error.pull.unknown", "model", model))
	case strings.Contains(msg, "connection refused") || strings.Contains(msg, "dial tcp") || strings.Contains(msg, "no such host") ||
		strings.Contains(msg, "timeout") || strings.Contains(msg, "network is unreachable"):
		return fail(KindUnreachable, err, i18n.P("error.pull.offline", "model", model))
	}
	return fail(KindBadResponse, err, i18n.P("error.pull.failed", "model", model))
}
