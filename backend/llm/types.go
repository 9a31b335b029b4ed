// Package llm holds Hearth's provider-neutral chat types, the Provider seam and
// its implementations: Ollama through its native API (the default) and any
// OpenAI-compatible endpoint. It also owns the tool-call text fallback that turns
// calls printed as text by small local models into real tool calls, and the
// retry/error policy that gives every final error an actionable hint.
package llm

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// Role is the author of a message.
type Role string

// Message roles, as every provider names them.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
	// Reasoning is the model's thinking. It is kept apart from Content and only
	// sent back to providers that accept it.
	Reasoning string `json:"reasoning,omitempty"`
	// Images are raw image bytes (PNG/JPEG) for vision models.
	Images [][]byte `json:"images,omitempty"`
	// ToolCalls are the calls an assistant message asked for.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID and ToolName identify the call a RoleTool message answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	// Attachments are the files a user message came with (backend/attach): the
	// record of each, not its text, which reaches the model as the prompt's
	// attachment block.
	Attachments []Attachment `json:"attachments,omitempty"`
}

// Attachment is the record of one file attached to a user message.
type Attachment struct {
	Name  string `json:"name"`
	Kind  string `json:"kind,omitempty"` // extract's kind: "text", "pdf", …
	Bytes int64  `json:"bytes"`
	Pages int    `json:"pages,omitempty"`
	// File is the copy's name in the chat's attachments folder ("" when refused).
	File string `json:"file,omitempty"`
	// Mode is "whole" (sent in full), "searched" (split into Passages, searched
	// per message) or "refused" (Error says why; the rest of the message went on).
	Mode     string `json:"mode"`
	Passages int    `json:"passages,omitempty"`
	// Error is the coded problem of a refused file ("attach.tooBig", …) and
	// Detail its wording.
	Error  string `json:"error,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// ToolCall is one call of a tool by the model.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is always a JSON object (repaired if the model sent broken JSON).
	Arguments json.RawMessage `json:"arguments"`
	// Unknown is set when the model called a tool that the request did not offer.
	// The call is kept so the caller can answer it like any unknown tool.
	Unknown bool `json:"unknown,omitempty"`
	// FromText is set when the call was parsed out of the reply text.
	FromText bool `json:"fromText,omitempty"`
	// Repaired is set when the argument JSON had to be repaired.
	Repaired bool `json:"repaired,omitempty"`
	// ArgsError says why the model's arguments could not be read even after
	// repair; Arguments is then {} and the caller should answer with the error.
	ArgsError string `json:"argsError,omitempty"`
}

// ToolDef describes a tool offered to the model.
type ToolDef struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is a JSON Schema object; empty means "no parameters".
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// Short is a one-line form of Description, sent instead when the
	// context window is too small for the long one; never sent by itself.
	Short string `json:"-"`
}

// Request is one chat call. Model is the provider's own name for the model
// (without the "<provider>/" prefix: config.ResolveModel splits model names).
type Request struct {
	Model    string
	Messages []Message
	Tools    []ToolDef
	// Think asks a reasoning model to think first. Nil leaves it to the model.
	Think *bool
	// ContextTokens is the context window to use (Ollama num_ctx); 0 takes the
	// provider's configured default. It is capped at the model's own maximum.
	ContextTokens int
	// MaxTokens caps the reply; 0 means the provider default.
	MaxTokens int
	// Temperature is used when non-nil.
	Temperature *float64
}

// ChunkKind says what a streamed Chunk carries.
type ChunkKind string

// Chunk kinds.
const (
	ChunkText      ChunkKind = "text"
	ChunkReasoning ChunkKind = "reasoning"
	ChunkToolCall  ChunkKind = "tool_call"
)

// Chunk is one streamed piece of a reply.
type Chunk struct {
	Kind ChunkKind
	// Text is the delta for ChunkText and ChunkReasoning.
	Text string
	// ToolCall is set for ChunkToolCall: a complete call.
	ToolCall *ToolCall
}

// Usage is the token accounting of one call, as the provider reported it.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
}

// FinishReason says why the model stopped.
type FinishReason string

// Finish reasons, normalised across providers.
const (
	FinishStop      FinishReason = "stop"
	FinishLength    FinishReason = "length"
	FinishToolCalls FinishReason = "tool_calls"
	FinishOther     FinishReason = "other"
)

// Response is the whole reply of one Chat call.
type Response struct {
	// Message is the assistant message (content without tool-call text or
	// <think> blocks, reasoning, tool calls) ready to append to the history.
	Message      Message
	Usage        Usage
	FinishReason FinishReason
	// ContextTokens is the context window the call used (num_ctx for Ollama),
	// 0 when unknown.
	ContextTokens int
	// ToolsDropped is set when tools were requested but the model lacks the
	// tools capability: the request was sent without them.
	ToolsDropped bool
	// ThinkDropped is set when thinking was requested but the model cannot think.
	ThinkDropped bool
	// ImagesDropped is set when the messages carried images but the model has
	// no vision capability: they were left out (tell the user:
	// docs/design/agent-loop.md#images).
	ImagesDropped bool
	// TextToolCalls is set when at least one tool call was recovered from the
	// reply text (the model printed it instead of the server returning it
	// structured): a sign the model's template or server parser does not
	// match how it calls tools.
	TextToolCalls bool
	// EvalDuration is how long the provider spent generating the reply tokens
	// (Ollama's eval_duration, without loading the model or reading the
	// prompt), 0 when the provider does not say.
	EvalDuration time.Duration
}

// Provider is the one seam between the agent and a model service.
type Provider interface {
	// Chat streams one reply; fn receives every chunk in order (it may be nil).
	// Text-printed tool calls and <think> blocks are already separated.
	// On error the Response holds what was streamed before the failure, and
	// the error is an *Error (or wraps ctx.Err() when ctx was cancelled).
	Chat(ctx context.Context, req Request, fn func(Chunk)) (Response, error)
}

// Capability is something a model can do.
type Capability string

// Capabilities reported by Ollama's /api/show.
const (
	CapCompletion Capability = "completion"
	CapTools      Capability = "tools"
	CapVision     Capability = "vision"
	CapThinking   Capability = "thinking"
	CapEmbedding  Capability = "embedding"
)

// ModelInfo is one entry of a model listing.
type ModelInfo struct {
	Name              string `json:"name"`
	Size              int64  `json:"size"`
	Family            string `json:"family,omitempty"`
	ParameterSize     string `json:"parameterSize,omitempty"`
	QuantizationLevel string `json:"quantizationLevel,omitempty"`
	Digest            string `json:"digest,omitempty"`
}

// ModelDetails is what a provider knows about one model.
type ModelDetails struct {
	ModelInfo
	Capabilities []Capability `json:"capabilities"`
	// ContextLength is the model's own maximum context, 0 when unknown.
	ContextLength int `json:"contextLength"`
}

// Has reports whether the model has capability c.
func (d ModelDetails) Has(c Capability) bool {
	return slices.Contains(d.Capabilities, c)
}

// PullProgress is one progress report of a model download.
type PullProgress struct {
	Status    string `json:"status"`
	Digest    string `json:"digest,omitempty"`
	Total     int64  `json:"total,omitempty"`
	Completed int64  `json:"completed,omitempty"`
}

// ModelShower describes one model.
type ModelShower interface {
	Show(ctx context.Context, model string) (ModelDetails, error)
}

// Embedder turns texts into vectors, one per input, in order.
type Embedder interface {
	Embed(ctx context.Context, model string, inputs []string) ([][]float32, error)
}
