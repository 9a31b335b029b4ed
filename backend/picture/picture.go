// Package picture makes the pictures a person sends fit what a vision model takes:
// it reads a picture's size before its pixels (a file that would unpack to more than
// MaxPixels is refused, not decoded), and scales one larger than MaxSide down and
// re-encodes it as JPEG or PNG, the formats every vision model reads.
package picture

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/gif" // read: a pasted GIF becomes a PNG of its first frame
	"image/jpeg"
	"image/png"
	"strconv"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // read: browsers copy pictures as WebP

	"hearth/backend/i18n"
)

const (
	// MaxPixels bounds a picture before it is decoded: 50 megapixels take 200 MB as
	// pixels, more than any photo a person sends (a phone's is 12–50).
	MaxPixels = 50_000_000
	// MaxSide is the longest side sent: vision encoders see about a megapixel
	// (1568 px is the largest side the common ones take without tiling it down
	// themselves), so larger pictures only cost upload and memory.
	MaxSide = 1568
	// jpegQuality keeps text in a screenshot legible at a fraction of PNG's size.
	jpegQuality = 85
)

var (
	ErrTooLarge = errors.New("picture is too large to read")
	ErrNotImage = errors.New("not a picture Hearth reads")
)

// Error is a refused picture: Kind is ErrTooLarge or ErrNotImage, Why the coded
// problem the window and the CLI show.
type Error struct {
	Kind error
	Why  i18n.Problem
}

func (e *Error) Error() string                { return e.Why.String() }
func (e *Error) Unwrap() error                { return e.Kind }
func (e *Error) UserMessage() i18n.Message    { return e.Why.Text }
func (e *Error) UserProblems() []i18n.Problem { return []i18n.Problem{e.Why} }

// Prepare returns picture n of a message (n from 1, for the message) as a vision
// model takes it: a PNG or JPEG within MaxSide as it came, anything else scaled and
// re-encoded.
func Prepare(data []byte, n int) ([]byte, error) { return prepare(data, n, MaxPixels) }

func prepare(data []byte, n int, maxPixels int64) ([]byte, error) {
	num := strconv.Itoa(n)
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, &Error{ErrNotImage, i18n.P("picture.notImage", "n", num)}
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return nil, &Error{ErrTooLarge, i18n.P("picture.tooManyPixels", "n", num,
			"width", strconv.Itoa(cfg.Width), "height", strconv.Itoa(cfg.Height), "limit", strconv.FormatInt(maxPixels/1_000_000, 10))}
	}
	if (format == "png" || format == "jpeg") && max(cfg.Width, cfg.Height) <= MaxSide {
		return data, nil
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, &Error{ErrNotImage, i18n.P("picture.damaged", "n", num, "error", err.Error())}
	}
	img = scale(img)
	var out bytes.Buffer
	if format == "jpeg" || opaque(img) {
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: jpegQuality})
	} else {
		err = png.Encode(&out, img)
	}
	if err != nil {
		return nil, fmt.Errorf("picture %d: %w", n, err) // encoding our own pixels: a bug
	}
	return out.Bytes(), nil
}

// Size is a picture's width and height (0, 0 when it is not one).
func Size(data []byte) (int, int) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}

// scale fits img within MaxSide, keeping its shape.
func scale(img image.Image) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if max(w, h) <= MaxSide {
		return img
	}
	if w >= h {
		w, h = MaxSide, max(1, h*MaxSide/w)
	} else {
		w, h = max(1, w*MaxSide/h), MaxSide
	}
	// Halve first while the picture is twice the target or more: bilinear
	// sampling at exactly half the size averages each 2×2 block (a box filter, no
	// aliasing) and is fast; Catmull-Rom, which keeps small print readable, then
	// does the last step over few pixels. Catmull-Rom alone takes seconds on a
	// phone photo.
	for b.Dx()/2 >= w && b.Dy()/2 >= h {
		half := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
		xdraw.ApproxBiLinear.Scale(half, half.Bounds(), img, b, draw.Src, nil)
		img, b = half, half.Bounds()
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// opaque reports whether img has no transparent pixel (then JPEG loses nothing
// a model would see).
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}
