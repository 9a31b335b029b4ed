package picture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"

	"hearth/backend/internal/testdocs"
)

func encodePNG(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSmallPictureGoesAsItCame(t *testing.T) {
	in := encodePNG(t, testdocs.Picture(640, 480))
	out, err := Prepare(in, 1)
	if err != nil || !bytes.Equal(in, out) {
		t.Fatalf("changed a small PNG: %v", err)
	}
}

func TestLargePictureIsScaled(t *testing.T) {
	out, err := Prepare(encodePNG(t, testdocs.Picture(1600, 800)), 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(out))
	if err != nil || format != "jpeg" || cfg.Width != MaxSide || cfg.Height != MaxSide/2 {
		t.Fatalf("got %s %dx%d, %v", format, cfg.Width, cfg.Height, err)
	}
	// A tall picture with transparency stays PNG (JPEG would lose its alpha).
	tall := image.NewNRGBA(image.Rect(0, 0, 100, 1600))
	tall.Set(1, 1, color.NRGBA{1, 2, 3, 100})
	out, err = Prepare(encodePNG(t, tall), 2)
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, _ = image.DecodeConfig(bytes.NewReader(out))
	if format != "png" || cfg.Height != MaxSide || cfg.Width != 98 {
		t.Fatalf("got %s %dx%d", format, cfg.Width, cfg.Height)
	}
	if w, h := Size(out); w != 98 || h != MaxSide {
		t.Fatalf("Size = %d, %d", w, h)
	}
}

func TestGIFBecomesWhatModelsRead(t *testing.T) {
	var b bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 40, 30), color.Palette{color.Black, color.White})
	if err := gif.Encode(&b, pal, nil); err != nil {
		t.Fatal(err)
	}
	out, err := Prepare(b.Bytes(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, format, err := image.DecodeConfig(bytes.NewReader(out)); err != nil || (format != "png" && format != "jpeg") {
		t.Fatalf("format %q, %v", format, err)
	}
}

// bomb is a PNG whose header claims w×h pixels (a few bytes that would decode to
// gigabytes).
func bomb(t testing.TB, w, h uint32) []byte {
	data := encodePNG(t, image.NewGray(image.Rect(0, 0, 1, 1)))
	binary.BigEndian.PutUint32(data[16:], w)
	binary.BigEndian.PutUint32(data[20:], h)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}

func TestRefusals(t *testing.T) {
	_, err := Prepare(bomb(t, 100000, 100000), 3)
	var e *Error
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &e) || e.Why.Text.Code != "picture.tooManyPixels" || e.Why.Text.Args["n"] != "3" {
		t.Fatalf("bomb: %v", err)
	}
	_, err = Prepare([]byte("not a picture"), 1)
	if !errors.Is(err, ErrNotImage) || !errors.As(err, &e) || e.Why.Text.Code != "picture.notImage" {
		t.Fatalf("text: %v", err)
	}
	// Within the pixel bound but cut short: refused as damaged, after a bounded decode.
	_, err = Prepare(bomb(t, 2000, 2000), 1)
	if !errors.Is(err, ErrNotImage) || !errors.As(err, &e) || e.Why.Text.Code != "picture.damaged" {
		t.Fatalf("cut: %v", err)
	}
}

func FuzzPrepare(f *testing.F) {
	f.Add(encodePNG(f, testdocs.Picture(20, 10)))
	f.Add(bomb(f, 3000, 10))
	var b bytes.Buffer
	gif.Encode(&b, image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black}), nil)
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		// A megapixel bound keeps each input's decode small.
		out, err := prepare(data, 1, 1_000_000)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%v is not a refusal", err)
			}
			return
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(out))
		if err != nil || (format != "png" && format != "jpeg") || max(cfg.Width, cfg.Height) > MaxSide {
			t.Fatalf("prepared %s %dx%d, %v", format, cfg.Width, cfg.Height, err)
		}
	})
}
