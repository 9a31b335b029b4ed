package picture

import (
	"bytes"
	"image/jpeg"
	"testing"

	"hearth/backend/internal/testdocs"
)

// A phone photo (12 MP JPEG) made ready for a vision model: what a pasted photo costs
// before the message is sent.
func BenchmarkPreparePhoto(b *testing.B) {
	var in bytes.Buffer
	if err := jpeg.Encode(&in, testdocs.Picture(4000, 3000), nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(in.Len()))
	for b.Loop() {
		if _, err := Prepare(in.Bytes(), 1); err != nil {
			b.Fatal(err)
		}
	}
}
