// Package testdocs makes the documents tests hand to Hearth: multi-page, encrypted and
// scanned PDFs, Word .docx files (and one that inflates), HTML and CSV. They are made on
// the fly, so no test carries a binary fixture and every test can say what is on which
// page. Only tests import it.
package testdocs

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"html"
	"image"
	"image/png"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// epoch fixes the PDFs' dates so one call always gives the same bytes.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newPDF() *fpdf.Fpdf {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCreationDate(epoch)
	f.SetModificationDate(epoch)
	f.SetFont("Helvetica", "", 12)
	return f
}

func output(f *fpdf.Fpdf) []byte {
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		// The inputs are ours: a failure is a bug in the test, not a case to handle.
		panic(fmt.Sprintf("testdocs: %v", err))
	}
	return b.Bytes()
}

// PDF is a PDF with one page per string (Latin-1 text; lines wrap on the page). An
// empty string makes a blank page.
func PDF(pages []string) []byte {
	f := newPDF()
	for _, p := range pages {
		f.AddPage()
		if p != "" {
			f.MultiCell(0, 6, p, "", "", false)
		}
	}
	return output(f)
}

// NumberedPDF is a PDF of n pages, each saying "This is page N." and a filler
// sentence, and page at (1-based) saying fact as well: the long document a question is
// asked about.
func NumberedPDF(n, at int, fact string) []byte {
	pages := make([]string, n)
	for i := range pages {
		pages[i] = fmt.Sprintf("This is page %d. The report goes on about the harvest, the weather and the accounts of the season.", i+1)
		if i+1 == at {
			pages[i] += "\n" + fact
		}
	}
	return PDF(pages)
}

// EncryptedPDF is a PDF that opens only with password (its text is pages).
func EncryptedPDF(pages []string, password string) []byte {
	f := newPDF()
	f.SetProtection(fpdf.CnProtectPrint, password, "owner-"+password)
	for _, p := range pages {
		f.AddPage()
		f.MultiCell(0, 6, p, "", "", false)
	}
	return output(f)
}

// ScannedPDF is a PDF of n pages that each carry only a picture: what a scanner makes,
// no text layer.
func ScannedPDF(n int) []byte {
	f := newPDF()
	var b bytes.Buffer
	if err := png.Encode(&b, Picture(64, 48)); err != nil {
		panic(fmt.Sprintf("testdocs: %v", err))
	}
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	f.RegisterImageOptionsReader("scan", opt, &b)
	for range n {
		f.AddPage()
		f.ImageOptions("scan", 10, 10, 190, 140, false, opt, 0, "")
	}
	return output(f)
}

// Picture is a w×h opaque image with a gradient (not one colour, so encoders and
// scalers have work to do).
func Picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		row := img.Pix[y*img.Stride:]
		for x := range w {
			copy(row[4*x:], []byte{uint8(x * 255 / max(w, 1)), uint8(y * 255 / max(h, 1)), 128, 255})
		}
	}
	return img
}

const wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

// Docx is a Word document with one paragraph per string.
func Docx(paragraphs []string) []byte { return DocxTable(paragraphs, nil) }

// DocxTable is a Word document with the paragraphs, then a table of rows.
func DocxTable(paragraphs []string, rows [][]string) []byte {
	var body strings.Builder
	for _, p := range paragraphs {
		fmt.Fprintf(&body, `<w:p><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>`, html.EscapeString(p))
	}
	if len(rows) > 0 {
		body.WriteString("<w:tbl>")
		for _, r := range rows {
			body.WriteString("<w:tr>")
			for _, c := range r {
				fmt.Fprintf(&body, `<w:tc><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:tc>`, html.EscapeString(c))
			}
			body.WriteString("</w:tr>")
		}
		body.WriteString("</w:tbl>")
	}
	return DocxXML(body.String())
}

// DocxXML is a Word document whose body is the given WordprocessingML.
func DocxXML(body string) []byte {
	return zipOf(map[string]string{
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<w:document ` + wordNS + `><w:body>` + body + `</w:body></w:document>`,
	})
}

// DocxBomb is a .docx of a few kilobytes whose document inflates to about n bytes of
// markup: what a reader must refuse without reading it whole.
func DocxBomb(n int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	writeParts(zw)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		panic(fmt.Sprintf("testdocs: %v", err))
	}
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><w:document `+wordNS+`><w:body><w:p><w:r><w:t>`)
	chunk := bytes.Repeat([]byte("a"), 1<<16)
	for i := 0; i < n; i += len(chunk) {
		w.Write(chunk)
	}
	fmt.Fprint(w, `</w:t></w:r></w:p></w:body></w:document>`)
	if err := zw.Close(); err != nil {
		panic(fmt.Sprintf("testdocs: %v", err))
	}
	return b.Bytes()
}

func zipOf(files map[string]string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	writeParts(zw)
	for name, text := range files {
		w, err := zw.Create(name)
		if err != nil {
			panic(fmt.Sprintf("testdocs: %v", err))
		}
		w.Write([]byte(text))
	}
	if err := zw.Close(); err != nil {
		panic(fmt.Sprintf("testdocs: %v", err))
	}
	return b.Bytes()
}

// writeParts writes the package parts Word needs to open the file.
func writeParts(zw *zip.Writer) {
	parts := []struct{ name, text string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
			`</Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
			`</Relationships>`},
	}
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			panic(fmt.Sprintf("testdocs: %v", err))
		}
		w.Write([]byte(p.text))
	}
}

// HTML is a page titled title with one heading per section and its paragraph, plus a
// script and a style whose text must not be read.
func HTML(title string, sections map[string]string, order []string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>%s</title><style>body{color:red}</style>"+
		"<script>var secret = 'not text';</script></head><body>\n", html.EscapeString(title))
	for _, h := range order {
		fmt.Fprintf(&b, "<h2>%s</h2>\n<p>%s</p>\n", html.EscapeString(h), html.EscapeString(sections[h]))
	}
	b.WriteString("<ul><li>first item</li><li>second item</li></ul></body></html>\n")
	return []byte(b.String())
}

// CSV is the records written as CSV (quoted where needed).
func CSV(records [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(records); err != nil {
		panic(fmt.Sprintf("testdocs: %v", err))
	}
	return b.Bytes()
}

// Samples are one small document of each kind Hearth reads, each holding the
// sentence Fact(its extension), so a test sees each one's text reach the model.
func Samples() map[string][]byte {
	return map[string][]byte{
		"sample.txt":  []byte(Fact("txt") + "\n"),
		"sample.md":   []byte("# Sample\n\n" + Fact("md") + "\n"),
		"sample.go":   []byte("package sample\n\n// " + Fact("go") + "\n"),
		"sample.pdf":  PDF([]string{"Page one.", Fact("pdf")}),
		"sample.docx": Docx([]string{"Sample", Fact("docx")}),
		"sample.html": HTML("Sample", map[string]string{"One": Fact("html")}, []string{"One"}),
		"sample.csv":  CSV([][]string{{"what", "note"}, {"csv", Fact("csv")}}),
	}
}

// Fact is the sentence the sample of kind ext holds.
func Fact(ext string) string { return "The " + ext + " sample keeps the " + ext + " key." }
