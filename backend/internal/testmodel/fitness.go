package testmodel

import (
	"context"
	"fmt"
	"strings"

	"github.com/ollama/ollama/api"
)

// Names of the models the fitness check's real-Ollama test adds to Install's.
const (
	// NoToolModelName offers tools in its template but never starts a call.
	NoToolModelName = "hearth-tiny-notool:latest"
	// RestrainedModelName calls its tool except for one plain question.
	RestrainedModelName = "hearth-tiny-restrained:latest"
)

// NoToolModel is ChatModel except that its tool path leads into the plain reply:
// Ollama reports the tools capability (its template has .Tools), yet the model
// answers ChatReply and never calls.
func NoToolModel() ([]byte, error) {
	return chatModel("hearth-tiny-notool", [][2]string{{tokToolStart, replyWords[0]}})
}

// RestrainedTemplate is Template except that the tool-start token is left out when
// the last user message is exactly plain: with ChatModel's weights that gives a model
// that calls its tool for any question but that one (the fitness check's restraint
// question), and answers ChatReply to it.
func RestrainedTemplate(plain string) string {
	t := strings.Replace(Template, `{{- $last := "" -}}`, `{{- $last := "" -}}{{- $user := "" -}}`, 1)
	t = strings.Replace(t, `{{- range .Messages }}{{ $last = .Role }}`,
		`{{- range .Messages }}{{ $last = .Role }}{{ if eq .Role "user" }}{{ $user = .Content }}{{ end }}`, 1)
	return strings.Replace(t, `{{ if and .Tools (ne $last "tool") }}`,
		fmt.Sprintf(`{{ if and .Tools (ne $last "tool") (ne $user %q) }}`, plain), 1)
}

// InstallFitness creates NoToolModelName and RestrainedModelName (restrained for
// the question plain) beside Install's models.
func InstallFitness(ctx context.Context, c *api.Client, plain string) error {
	notool, err := NoToolModel()
	if err != nil {
		return err
	}
	if err := Create(ctx, c, NoToolModelName, notool, Template); err != nil {
		return err
	}
	chat, err := ChatModel()
	if err != nil {
		return err
	}
	return Create(ctx, c, RestrainedModelName, chat, RestrainedTemplate(plain))
}
