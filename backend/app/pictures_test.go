package app

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image/png"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/chat"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/internal/testdocs"
)

// A picture sent to a chat whose model cannot see it is refused with the installed
// models that can (Ollama's capabilities through the models service), and nothing is
// sent; switched to one of them, the same message is answered with the picture.
func TestPictureToABlindModelOffersTheVisionOnes(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Content: "A gradient."})
	vision := fakeollama.DefaultModel()
	vision.Name, vision.Capabilities = "qwen2.5vl:7b", []string{"completion", "tools", "vision"}
	fake.SetModels(append(fake.Models(), vision)...)
	var b bytes.Buffer
	if err := png.Encode(&b, testdocs.Picture(32, 32)); err != nil {
		t.Fatal(err)
	}
	img := "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())

	_, err := svc.Chat.Send(chat.Input{Text: "what is this?", Images: []string{img}}, nil)
	var nv *agent.NoVisionError
	if !errors.As(err, &nv) || nv.Why.Text.Code != "picture.noVision" || len(nv.Vision) != 1 || nv.Vision[0] != "qwen2.5vl:7b" {
		t.Fatalf("err = %v", err)
	}
	if n := len(fake.ChatRequests()); n != 0 {
		t.Fatalf("%d chat requests sent", n)
	}
	if list, err := svc.Sessions.List(); err != nil || len(list) != 0 {
		t.Fatalf("the refused message left a chat: %+v, %v", list, err)
	}
	if _, err := svc.Chat.Send(chat.Input{Text: "what is this?", Images: []string{img}, Model: "ollama/qwen2.5vl:7b"}, nil); err != nil {
		t.Fatalf("to a vision model: %v", err)
	}
}

func onePixelPNG(t *testing.T) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, testdocs.Picture(1, 1)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
