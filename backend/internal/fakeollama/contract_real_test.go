//go:build unix

package fakeollama

import (
	"testing"

	"hearth/backend/internal/realollama"
)

// TestContractReal runs the table against the real Ollama with testmodel's
// generated models (skipped without HEARTH_TEST_OLLAMA) and holds its answers
// to the golden shapes the fake is held to.
func TestContractReal(t *testing.T) {
	base := realollama.StartWithModels(t)
	got := runContract(t, base, nil)
	if *updateContract {
		writeGolden(t, got)
		return
	}
	checkGolden(t, "real", got)
}
