package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func BenchmarkZZMakeHome(b *testing.B) {
	dir := os.Getenv("ZZ_HOME")
	m := &model{url: os.Getenv("ZZ_URL")}
	bin := binary(b, "HEARTH_BIN")
	h := &home{template: dir, url: m.url}
	mustWrite(b, filepath.Join(h.template, "config", "hearth", "config.json"), turnConfig)
	h.run(b, bin, h.template, "agent", "-s", "onboarding", "-m", "hello")
	mustWrite(b, filepath.Join(dir, "data", "hearth", "sessions", "chat.jsonl"), string(chatFile(b, 400)))
	time.Sleep(3 * time.Second)
	h.run(b, bin, h.template, "agent", "-s", "chat", "-m", "x")
	h.run(b, bin, h.template, "agent", "-s", "chat", "-m", "y")
	for b.Loop() {
	}
}
