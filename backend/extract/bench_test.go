package extract

import (
	"fmt"
	"testing"
	"time"

	"hearth/backend/internal/testdocs"
)

// The cost of reading an attachment, per MB of file and per MB of the text taken out
// (a .docx is compressed: its file is a fraction of its text): what attaching costs
// before indexing. `make bench` prints both.
func BenchmarkExtractPDF(b *testing.B) {
	needPDF(b)
	benchRead(b, "long.pdf", testdocs.NumberedPDF(200, 150, "The fact."))
}

func BenchmarkExtractDocx(b *testing.B) {
	paras := make([]string, 20000)
	for i := range paras {
		paras[i] = fmt.Sprintf("Paragraph %d of the report goes on about the harvest and the accounts.", i)
	}
	benchRead(b, "long.docx", testdocs.Docx(paras))
}

func benchRead(b *testing.B, name string, data []byte) {
	b.SetBytes(int64(len(data)))
	start := time.Now()
	text := 0
	for b.Loop() {
		d, err := Bytes(name, data, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		text = 0
		for _, p := range d.Pages {
			text += len(p.Text)
		}
	}
	perRead := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(perRead.Microseconds())/1000/(float64(len(data))/(1<<20)), "ms/MB")
	b.ReportMetric(float64(perRead.Microseconds())/1000/(float64(text)/(1<<20)), "ms/MB-text")
}
