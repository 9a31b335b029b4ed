package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"hearth/backend/internal/testdocs"
)

func TestDocx(t *testing.T) {
	data := testdocs.DocxTable([]string{"First paragraph.", "Second <one> & more."},
		[][]string{{"name", "qty"}, {"apples", "3"}})
	d, err := Bytes("report.docx", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := "First paragraph.\nSecond <one> & more.\nname | qty\napples | 3\n"
	if d.Kind != "docx" || len(d.Pages) != 1 || d.Pages[0].Text != want || d.Pages[0].Line != 1 {
		t.Fatalf("got %+v\nwant %q", d, want)
	}
}

func TestDocxSkipsDeletedTextAndFieldCodes(t *testing.T) {
	body := `<w:p><w:r><w:t>kept</w:t></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del>` +
		`<w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:tab/><w:t>after</w:t><w:br/><w:t>next</w:t></w:r></w:p>`
	d, err := Bytes("x.docx", testdocs.DocxXML(body), Limits{})
	if err != nil || d.Pages[0].Text != "kept\tafter\nnext\n" {
		t.Fatalf("got %+v, %v", d, err)
	}
}

func TestDocxBombIsRefusedWithinItsBound(t *testing.T) {
	bomb := testdocs.DocxBomb(16 << 20) // 16 MB of markup in a file of some 16 KB
	if len(bomb) > 256<<10 {
		t.Fatalf("bomb is %d bytes", len(bomb))
	}
	_, err := Bytes("bomb.docx", bomb, Limits{MaxText: 256 << 10})
	refused(t, err, ErrTooBig, "extract.tooMuchText")
}

func TestDocxThatIsNot(t *testing.T) {
	_, err := Bytes("x.docx", []byte("just text"), Limits{})
	refused(t, err, ErrBadFile, "extract.notWhatItSays")
	_, err = Bytes("x.docx", testdocs.CSV([][]string{{"a"}}), Limits{})
	refused(t, err, ErrBadFile, "extract.notWhatItSays")
	ole := append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), make([]byte, 512)...)
	_, err = Bytes("old.docx", ole, Limits{})
	refused(t, err, ErrUnsupported, "extract.oldWord")
	enc := append(bytes.Clone(ole), utf16le("EncryptedPackage")...)
	_, err = Bytes("locked.docx", enc, Limits{})
	refused(t, err, ErrEncrypted, "extract.encrypted")
	full := testdocs.Docx([]string{"a paragraph"})
	_, err = Bytes("cut.docx", full[:len(full)/2], Limits{})
	refused(t, err, ErrBadFile, "extract.damaged")
	// A zip that is not a Word document.
	_, err = Bytes("x.docx", zipWithout(), Limits{})
	refused(t, err, ErrBadFile, "extract.notWhatItSays")
}

func zipWithout() []byte {
	d := testdocs.Docx(nil)
	return bytes.Replace(d, []byte("word/document.xml"), []byte("word/other___.xml"), -1)
}

func TestHTML(t *testing.T) {
	page := testdocs.HTML("The Title", map[string]string{"Intro": "Hello   there,\n world.", "Next": "More <text>."}, []string{"Intro", "Next"})
	d, err := Bytes("page.html", page, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	text := d.Pages[0].Text
	want := "The Title\n\nIntro\nHello there, world.\nNext\nMore <text>.\n- first item\n- second item\n"
	if text != want {
		t.Fatalf("got %q\nwant %q", text, want)
	}
	for _, bad := range []string{"secret", "color:red"} {
		if strings.Contains(text, bad) {
			t.Fatalf("script or style text %q read: %q", bad, text)
		}
	}
	d, err = Bytes("t.htm", []byte("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table><template>x</template>"), Limits{})
	if err != nil || d.Pages[0].Text != "a | b\nc | d\n" {
		t.Fatalf("table: %q, %v", d.Pages[0].Text, err)
	}
	deep := strings.Repeat("<div>", 200000) + "deep" + strings.Repeat("</div>", 200000)
	if d, err := Bytes("deep.html", []byte(deep), Limits{}); err != nil || strings.TrimSpace(d.Pages[0].Text) != "deep" {
		t.Fatalf("deep nesting: %v", err)
	}
	_, err = Bytes("big.html", []byte(strings.Repeat("<p>words</p>", 1000)), Limits{MaxText: 100})
	refused(t, err, ErrTooBig, "extract.tooMuchText")
}

func TestCSV(t *testing.T) {
	data := testdocs.CSV([][]string{{"name", "note"}, {"a", "one\ntwo"}, {"b", "three"}})
	d, err := Bytes("t.csv", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Record "b" starts on file line 4 (a's quoted note spans lines 2–3): it is on
	// text line 4 too.
	want := "name | note\na | one two\n\nb | three\n"
	if d.Kind != "csv" || d.Pages[0].Text != want || d.Pages[0].Line != 1 {
		t.Fatalf("got %q, want %q", d.Pages[0].Text, want)
	}
	d, err = Bytes("t.tsv", []byte("x\ty\nbad\"quote\tz\nragged\n"), Limits{})
	if err != nil || d.Pages[0].Text != "x | y\nbad\"quote | z\nragged\n" {
		t.Fatalf("tsv: %q, %v", d.Pages[0].Text, err)
	}
}

func TestCSVHugeLineIsBounded(t *testing.T) {
	line := bytes.Repeat([]byte("abcdefghi,"), 1<<20) // 10 MB, one line
	d, err := Bytes("huge.csv", line, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	text := d.Pages[0].Text
	if len(text) > maxRecord+64 || !strings.HasSuffix(text, "[cut]\n") {
		t.Fatalf("line of %d bytes, ends %q", len(text), text[max(0, len(text)-20):])
	}
	var many strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&many, "row %d,%s\n", i, strings.Repeat("x", 100))
	}
	_, err = Bytes("many.csv", []byte(many.String()), Limits{MaxText: 10000})
	refused(t, err, ErrTooBig, "extract.tooMuchText")
}
