//go:build !headless

package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"hearth/backend/i18n"
	"hearth/backend/memory"
)

// A binding's error that says what went wrong as a catalog message reaches the window
// as {message, code, args} (worded there in the UI language); any other as its text.
func TestUserErrorCarriesTheCode(t *testing.T) {
	err := fmt.Errorf("restore: %w", &memory.Error{Msg: i18n.M("memory.rev.unknown", "rev", "zz")})
	got, ok := userError(err).(map[string]any)
	if !ok || got["code"] != "memory.rev.unknown" || got["args"].(map[string]string)["rev"] != "zz" ||
		!strings.HasPrefix(got["message"].(string), "restore: zz: no such revision") {
		t.Errorf("coded error: %#v", userError(err))
	}
	if got := userError(errors.New("plain")); got != "plain" {
		t.Errorf("plain error: %#v", got)
	}
}
