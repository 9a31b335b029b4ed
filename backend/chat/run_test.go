package chat

import (
	"encoding/base64"
	"strings"
	"testing"
)

// A message's pictures are bounded all together, so the chat's line that holds
// them stays under what the session reader reads back (session.MaxLineBytes).
func TestDecodeImagesBoundsTheMessage(t *testing.T) {
	img := base64.StdEncoding.EncodeToString(make([]byte, 8<<20))
	if out, err := DecodeImages([]string{img, "data:image/png;base64," + img}); err != nil || len(out) != 2 {
		t.Fatalf("16 MB in two pictures: %v", err)
	}
	_, err := DecodeImages([]string{img, img, img})
	if err == nil || !strings.Contains(err.Error(), "more than 20 MB together") || !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("24 MB in three pictures: %v", err)
	}
}
