//go:build !unix

package mcp

import (
	"os/exec"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// newStdioTransport: without Unix process groups only the started process is stopped.
func newStdioTransport(cmd *exec.Cmd, terminate time.Duration) sdk.Transport {
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: terminate}
}
