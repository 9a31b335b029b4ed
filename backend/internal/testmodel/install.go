package testmodel

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/ollama/ollama/api"
)

// Names under which Install creates the models.
const (
	ChatModelName     = "hearth-tiny:latest"
	TextToolModelName = "hearth-tiny-text:latest"
	EmbedModelName    = "hearth-tiny-embed:latest"
)

// Install generates the three models and creates them on the Ollama server behind
// c (upload the GGUF blob, then /api/create).
func Install(ctx context.Context, c *api.Client) error {
	chat, err := ChatModel()
	if err != nil {
		return err
	}
	if err := Create(ctx, c, ChatModelName, chat, Template); err != nil {
		return err
	}
	text, err := TextToolModel()
	if err != nil {
		return err
	}
	if err := Create(ctx, c, TextToolModelName, text, Template); err != nil {
		return err
	}
	embed, err := EmbedModel()
	if err != nil {
		return err
	}
	return Create(ctx, c, EmbedModelName, embed, "")
}

// Create uploads gguf as a blob and creates model name from it.
func Create(ctx context.Context, c *api.Client, name string, gguf []byte, template string) error {
	sum := sha256.Sum256(gguf)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if err := c.CreateBlob(ctx, digest, bytes.NewReader(gguf)); err != nil {
		return fmt.Errorf("upload %s blob: %w", name, err)
	}
	req := &api.CreateRequest{Model: name, Files: map[string]string{"model.gguf": digest}, Template: template}
	if err := c.Create(ctx, req, func(api.ProgressResponse) error { return nil }); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return nil
}
