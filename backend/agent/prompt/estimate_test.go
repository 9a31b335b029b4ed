package prompt

import (
	"encoding/json"
	"math"
	"strings"
	"sync"
	"testing"

	"hearth/backend/llm"
)

func TestEstimateText(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"ascii", strings.Repeat("abcd", 100), 100},
		{"ascii rounds up", "abcde", 2},
		{"cjk", "你好世界", 4},
		{"kana and hangul", "こんにちは안녕", 7},
		{"mixed", "hello 世界", 2 + 2}, // 6 ASCII → 1.5, 2 CJK → 2: 3.5 rounds up to 4
		{"accented", "éééé", 2},
		{"emoji", "🙂", 2},
	} {
		if got := EstimateText(tc.in); got != tc.want {
			t.Errorf("%s: EstimateText(%q) = %d, want %d", tc.name, tc.in, got, tc.want)
		}
	}
	// chars/4 would count Chinese four times too low.
	zh := strings.Repeat("记忆", 500)
	if got := EstimateText(zh); got != 1000 {
		t.Errorf("1000 CJK runes = %d tokens, want 1000", got)
	}
}

func TestEstimateMessageOverheads(t *testing.T) {
	plain := EstimateMessage(llm.Message{Role: llm.RoleUser, Content: strings.Repeat("a", 400)})
	if plain != 100+messageOverhead {
		t.Errorf("plain message = %d", plain)
	}
	call := EstimateMessage(llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}}})
	if call <= messageOverhead+toolCallOverhead {
		t.Errorf("tool call message = %d, want more than overheads", call)
	}
	img := EstimateMessage(llm.Message{Role: llm.RoleUser, Images: [][]byte{{1}, {2}}})
	if img != messageOverhead+2*imageTokens {
		t.Errorf("images = %d", img)
	}
	tools := []llm.ToolDef{{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object"}`)}}
	if got := EstimateTools(tools); got <= toolsPreamble+toolDefOverhead {
		t.Errorf("tools = %d", got)
	}
	if EstimateTools(nil) != 0 {
		t.Error("no tools should cost nothing")
	}
}

func TestCounterScales(t *testing.T) {
	s := strings.Repeat("abcd", 100)
	if got := (Counter{}).Text(s); got != 100 {
		t.Errorf("zero counter = %d", got)
	}
	if got := (Counter{Ratio: 1.5}).Text(s); got != 150 {
		t.Errorf("ratio 1.5 = %d", got)
	}
	if got := (Counter{Ratio: 1.01}).Text("abcd"); got != 2 {
		t.Errorf("scaled estimate must round up, got %d", got)
	}
}

func TestCalibrationConverges(t *testing.T) {
	e := NewEstimator()
	for range 20 {
		if !e.Observe("qwen3:4b", 1000, 1300) {
			t.Fatal("observation ignored")
		}
	}
	if r := e.Ratio("qwen3:4b"); math.Abs(r-1.3) > 0.01 {
		t.Errorf("ratio after 20 reports of 1.3 = %.3f", r)
	}
	if r := e.Ratio("llama3.2"); r != 1 {
		t.Errorf("other model calibrated too: %.3f", r)
	}
	// Downward it moves, but more slowly than upward.
	e.Observe("qwen3:4b", 1000, 800)
	down := 1.3 - e.Ratio("qwen3:4b")
	e2 := NewEstimator()
	e2.Observe("m", 1000, 1000)
	e2.Observe("m", 1000, 1500)
	up := e2.Ratio("m") - 1
	if down <= 0 || up <= down {
		t.Errorf("step down %.3f, step up %.3f: want 0 < down < up", down, up)
	}
	for range 60 {
		e.Observe("qwen3:4b", 1000, 800)
	}
	if r := e.Ratio("qwen3:4b"); math.Abs(r-0.8) > 0.01 {
		t.Errorf("ratio after many reports of 0.8 = %.3f", r)
	}
}

func TestCalibrationClampsAndIgnores(t *testing.T) {
	var e Estimator // the zero value works
	for _, tc := range []struct {
		name           string
		est, rep       int
		used           bool
		ratioAfterward float64
	}{
		{"tiny request", 100, 300, false, 1},
		{"no report", 1000, 0, false, 1},
		{"cache hit reports a fraction", 4000, 300, false, 1},
	} {
		if got := e.Observe("m", tc.est, tc.rep); got != tc.used {
			t.Errorf("%s: used = %v", tc.name, got)
		}
		if r := e.Ratio("m"); r != tc.ratioAfterward {
			t.Errorf("%s: ratio = %.3f", tc.name, r)
		}
	}
	for range 50 {
		e.Observe("m", 1000, 10000)
	}
	if r := e.Ratio("m"); math.Abs(r-maxRatio) > 1e-6 {
		t.Errorf("ratio after absurd reports = %.3f, want clamp %.1f", r, maxRatio)
	}
}

func TestEstimatorConcurrent(t *testing.T) {
	e := NewEstimator()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				e.Observe("m", 1000, 1200)
				_ = e.Counter("m").Text("hello")
			}
		})
	}
	wg.Wait()
	if r := e.Ratio("m"); math.Abs(r-1.2) > 0.01 {
		t.Errorf("ratio = %.3f", r)
	}
}
