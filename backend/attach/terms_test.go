package attach

import "testing"

// The attachments' index splits words as the recall index does: a Chinese
// question finds a Chinese passage (no spaces between its words), a Traditional
// question a Simplified passage, and an inflected English question its stem.
func TestSearchFindsChineseAndInflectedWords(t *testing.T) {
	ix := buildIndex([]Passage{
		{File: "a.md", Line: 1, Text: "天气预报说明天下雨。"},
		{File: "a.md", Line: 3, Text: "港口的通行费用琥珀代币在灯塔门口支付。"},
		{File: "a.md", Line: 5, Text: "The mills were running all winter."},
	})
	for q, line := range map[string]int{"港口费用怎么付": 3, "港口費用": 3, "which mill runs": 5} {
		hits := ix.search(q, 1, nil)
		if len(hits) == 0 || hits[0].Line != line {
			t.Errorf("%q found %+v, want line %d", q, hits, line)
		}
	}
}
