package agent

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/internal/testdocs"
	"hearth/backend/picture"
)

func visionModel() fakeollama.Model {
	m := fakeollama.DefaultModel()
	m.Name, m.Capabilities = "qwen2.5vl:7b", []string{"completion", "tools", "vision"}
	return m
}

func pngOf(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, testdocs.Picture(w, h)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A message with a picture to a model that cannot see it is refused before anything
// is saved or sent, naming the installed models that can.
func TestPicturesToABlindModelAreRefused(t *testing.T) {
	h := newHarness(t, fakeollama.Script{}, func(o *Options) {
		o.VisionModels = func(context.Context) []string { return []string{"qwen2.5vl:7b"} }
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := h.runner.Start(ctx, Request{SessionID: "p", Text: "what is this?", Images: [][]byte{pngOf(t, 8, 8)}}, nil)
	var nv *NoVisionError
	if !errors.Is(err, ErrNoVision) || !errors.As(err, &nv) || nv.Why.Text.Code != "picture.noVision" || nv.Model != "ollama/qwen3:4b" ||
		nv.Why.Text.Args["models"] != "qwen2.5vl:7b" || len(nv.Vision) != 1 {
		t.Fatalf("err = %v", err)
	}
	if n := len(h.fake.ChatRequests()); n != 0 {
		t.Fatalf("%d chat requests sent", n)
	}
	if sess, err := h.store.LoadConversation("p"); err == nil && len(sess.Messages) > 0 {
		t.Fatalf("the refused message was saved: %+v", sess.Messages)
	}
	// A new chat's refused first message makes no chat.
	_, err = h.runner.Start(ctx, Request{Text: "and this?", Images: [][]byte{pngOf(t, 8, 8)}}, nil)
	if !errors.As(err, &nv) {
		t.Fatalf("new chat: %v", err)
	}
	if list, err := h.store.List(); err != nil || len(list) != 1 {
		t.Fatalf("chats after refusals: %+v, %v", list, err)
	}
}

// With no model that sees installed, the message goes on: the picture is left out of
// the request and the run says so.
func TestPicturesWithNoVisionModelToOfferAreLeftOut(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "Text only."}}}, func(o *Options) {
		o.VisionModels = func(context.Context) []string { return nil }
	})
	_, evs := h.do(Request{SessionID: "n", Text: "what is this?", Images: [][]byte{pngOf(t, 8, 8)}})
	noticed := false
	for _, e := range evs {
		if n, ok := e.Data.(event.NoticeData); ok && n.Code == "notice.noImages" {
			noticed = true
		}
	}
	reqs := h.fake.ChatRequests()
	if !noticed || len(reqs) != 1 || len(reqs[0].Messages[len(reqs[0].Messages)-1].Images) != 0 {
		t.Fatalf("noticed %v, requests %+v", noticed, reqs)
	}
}

// A vision model gets a large picture scaled to what it takes, and the chat keeps
// the scaled one.
func TestPicturesAreScaledForAVisionModel(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Models: []fakeollama.Model{visionModel()}, Replies: []fakeollama.Reply{{Content: "A gradient."}}},
		func(o *Options) { o.DefaultModel = "ollama/qwen2.5vl:7b" })
	h.do(Request{SessionID: "v", Text: "what is this?", Images: [][]byte{pngOf(t, 1600, 800)}})
	reqs := h.fake.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[0].Messages
	last := msgs[len(msgs)-1]
	if len(last.Images) != 1 {
		t.Fatalf("last message %+v", last)
	}
	raw, err := base64.StdEncoding.DecodeString(last.Images[0])
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width != picture.MaxSide || cfg.Height != picture.MaxSide/2 || format != "jpeg" {
		t.Fatalf("sent %s %dx%d, %v", format, cfg.Width, cfg.Height, err)
	}
	sess, err := h.store.LoadConversation("v")
	if err != nil || len(sess.Messages) == 0 || !bytes.Equal(sess.Messages[0].Images[0], raw) {
		t.Fatalf("the chat keeps another picture than was sent: %v", err)
	}
}

func TestWhatIsNotAPictureIsRefused(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Models: []fakeollama.Model{visionModel()}},
		func(o *Options) { o.DefaultModel = "ollama/qwen2.5vl:7b" })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := h.runner.Start(ctx, Request{SessionID: "b", Text: "x", Images: [][]byte{[]byte("not a picture")}}, nil)
	var pe *picture.Error
	if !errors.Is(err, picture.ErrNotImage) || !errors.As(err, &pe) || pe.Why.Text.Code != "picture.notImage" {
		t.Fatalf("err = %v", err)
	}
	if n := len(h.fake.ChatRequests()); n != 0 {
		t.Fatalf("%d chat requests sent", n)
	}
}
