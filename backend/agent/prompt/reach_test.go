package prompt

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"hearth/backend/llm"
)

// Fit of the history from Reach on keeps what Fit of the whole history keeps,
// for chats of every shape (long tool results, CJK, images, reasoning, a
// current turn too big for the window) and calibrated or not.
func TestReachKeepsWhatFitKeeps(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	pool := newTextPool(r)
	cut := 0
	for trial := range 300 {
		var hist []llm.Message
		for turn := range 1 + r.IntN(120) {
			hist = append(hist, llm.Message{Role: llm.RoleUser, Content: pool.text(1 + r.IntN(400))})
			for range r.IntN(3) {
				id := fmt.Sprintf("c%d-%d", turn, r.IntN(1000))
				hist = append(hist,
					llm.Message{Role: llm.RoleAssistant, Reasoning: pool.text(r.IntN(300)),
						ToolCalls: []llm.ToolCall{{ID: id, Name: "read_file", Arguments: json.RawMessage(`{"path":"a.md"}`)}}},
					llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "read_file", Content: pool.text(r.IntN(3000))})
			}
			m := llm.Message{Role: llm.RoleAssistant, Content: pool.text(r.IntN(800))}
			if r.IntN(20) == 0 {
				m.Images = [][]byte{{1}}
			}
			hist = append(hist, m)
		}
		if r.IntN(3) == 0 { // a turn still running: ends with tool results
			hist = hist[:len(hist)-1]
		}
		c := Counter{Ratio: []float64{0, 0.5, 1.3, 4}[r.IntN(4)]}
		window := []int{2048, 4096, 8192, 32768}[r.IntN(4)]
		compacted := CompactToolResults(hist, KeepToolResults)
		req := Request{System: pool.text(2000), Tools: testTools, Window: window, Reply: 512}
		req.History = compacted
		whole, werr := c.Fit(req)
		at := c.Reach(hist, window)
		req.History = CompactToolResults(hist[at:], KeepToolResults)
		part, perr := c.Fit(req)
		if (werr == nil) != (perr == nil) {
			t.Fatalf("trial %d: whole history: %v; from Reach %d: %v", trial, werr, at, perr)
		}
		if at > 0 && hist[at].Role != llm.RoleUser {
			t.Fatalf("trial %d: Reach %d is not a turn boundary", trial, at)
		}
		if werr != nil {
			continue
		}
		part.FirstKept += at
		part.Dropped += at
		part.Shed.Turns = whole.Shed.Turns // counted over the part given; the caller adds the rest
		if !reflect.DeepEqual(whole, part) {
			t.Fatalf("trial %d (window %d, ratio %v, %d messages, Reach %d): Fit differs\nwhole %+v\npart  %+v",
				trial, window, c.Ratio, len(hist), at, whole, part)
		}
		if at > 0 {
			cut++
		}
	}
	if cut < 100 {
		t.Errorf("Reach left out old messages in only %d of 300 chats: the bound is too loose to help", cut)
	}
}
