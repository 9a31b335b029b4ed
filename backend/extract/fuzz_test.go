package extract

import (
	"errors"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/testdocs"
)

// fuzzLimits keep each input's read small and short.
var fuzzLimits = Limits{MaxBytes: 1 << 20, MaxText: 1 << 20, Timeout: 20 * time.Second}

// checkRead holds for any input: a Doc with sane pages, or a refusal / read error,
// never a panic.
func checkRead(t *testing.T, d *Doc, err error) {
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error %v is not a refusal", err)
		}
		if p := Problem(err); p.Text.Code == "" || len(p.Hint) == 0 {
			t.Fatalf("refusal without a coded problem: %v", err)
		}
		return
	}
	if len(d.Pages) == 0 {
		t.Fatal("a Doc with no pages")
	}
	total := 0
	for i, p := range d.Pages {
		if d.Kind == "pdf" && p.N != i+1 {
			t.Fatalf("page %d numbered %d", i+1, p.N)
		}
		total += len(p.Text)
	}
	if total > fuzzLimits.MaxText+maxRecord {
		t.Fatalf("%d bytes of text over the limit", total)
	}
}

func FuzzPDF(f *testing.F) {
	needPDF(f)
	f.Add(testdocs.PDF([]string{"one", "two"}))
	f.Add(testdocs.EncryptedPDF([]string{"x"}, "pw"))
	f.Add(testdocs.ScannedPDF(1))
	f.Add([]byte("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 1 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Bytes("f.pdf", data, fuzzLimits)
		if errors.Is(err, ErrBadFile) && strings.Contains(err.Error(), "took too long") {
			t.Fatalf("pdftotext stalled on %d bytes", len(data))
		}
		checkRead(t, d, err)
	})
}

func FuzzDocx(f *testing.F) {
	f.Add(testdocs.DocxTable([]string{"a", "b"}, [][]string{{"c", "d"}}), `<w:p><w:r><w:t>x</w:t></w:r></w:p>`)
	f.Add([]byte("PK\x03\x04"), `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t><w:tab/></w:r></w:p></w:tc></w:tr></w:tbl>`)
	f.Add([]byte{}, `<w:del><w:r><w:delText>gone</w:delText></w:r></w:del><mc:Fallback><w:t>twice</w:t></mc:Fallback>`)
	f.Fuzz(func(t *testing.T, data []byte, body string) {
		d, err := Bytes("f.docx", data, fuzzLimits)
		checkRead(t, d, err)
		d, err = Bytes("g.docx", testdocs.DocxXML(body), fuzzLimits)
		checkRead(t, d, err)
	})
}

func FuzzHTML(f *testing.F) {
	f.Add(testdocs.HTML("T", map[string]string{"h": "p"}, []string{"h"}))
	f.Add([]byte("<table><tr><td>a<td>b</table><script>x</script><template><p>y</template><title>z"))
	f.Add([]byte("<style><!-- </style> --><li>a<li>b<br><pre>  c  </pre>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Bytes("f.html", data, fuzzLimits)
		checkRead(t, d, err)
	})
}

func FuzzCSV(f *testing.F) {
	f.Add(testdocs.CSV([][]string{{"a", "b\nc"}, {"d"}}))
	f.Add([]byte("a,\"b\"c,\"d\n\ne\"\r\nf\tg"))
	f.Add([]byte("\"unterminated,x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"f.csv", "f.tsv"} {
			d, err := Bytes(name, data, fuzzLimits)
			checkRead(t, d, err)
			if err == nil {
				for _, l := range strings.Split(d.Pages[0].Text, "\n") {
					if len(l) > maxRecord+len(" … [cut]") {
						t.Fatalf("%s: a line of %d bytes", name, len(l))
					}
				}
			}
		}
	})
}
