package extract

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"hearth/backend/i18n"
)

// A .docx is a zip of XML parts; the text is in word/document.xml. It is read with the
// standard library's zip and XML readers, streaming: the part's inflation is bounded
// (markup up to markupFactor times the text limit), so a small file that inflates to
// gigabytes is refused after reading the bound, never held whole.
const markupFactor = 4

func readDocx(name string, data []byte, lim Limits) ([]Page, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, damaged(name, err)
	}
	var doc *zip.File
	for _, f := range zr.File {
		switch f.Name {
		case "word/document.xml":
			doc = f
		case "EncryptedPackage":
			return nil, refuse(name, ErrEncrypted, i18n.P("extract.encrypted", "name", name))
		}
	}
	if doc == nil {
		return nil, refuse(name, ErrBadFile, i18n.P("extract.notWhatItSays", "name", name, "kind", "Word (.docx)"))
	}
	rc, err := doc.Open()
	if err != nil {
		return nil, damaged(name, err)
	}
	defer rc.Close()
	markup := int64(lim.MaxText) * markupFactor
	lr := &io.LimitedReader{R: rc, N: markup + 1}
	text, err := docxText(lr, lim.MaxText)
	switch {
	case errors.Is(err, errTooMuch) || lr.N <= 0:
		return nil, tooMuchText(name, lim)
	case err != nil:
		return nil, damaged(name, err)
	}
	return []Page{{Line: 1, Text: text}}, nil
}

var errTooMuch = errors.New("too much text")

// docxText walks WordprocessingML: a paragraph is a line, a table row is a line of its
// cells joined by " | ", tabs and breaks kept; deleted text, field codes and the
// fallback copy of drawn text boxes are skipped.
func docxText(r io.Reader, maxText int) (string, error) {
	dec := xml.NewDecoder(r)
	var b strings.Builder
	inText, skip, cellDepth := false, 0, 0
	cellStart, space := true, false // space: a cell's paragraph ended, a space before more text
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		if b.Len() > maxText {
			return "", errTooMuch
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 {
				skip++
				continue
			}
			switch t.Name.Local {
			case "delText", "instrText", "Fallback":
				skip = 1
			case "t":
				inText = true
			case "tab":
				b.WriteByte('\t')
			case "br", "cr":
				b.WriteByte('\n')
			case "tc":
				if !cellStart {
					b.WriteString(" | ")
				}
				space = false
				cellStart = false
				cellDepth++
			case "tr":
				cellStart = true
			}
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				if cellDepth > 0 {
					space = true // a cell's paragraphs stay on the row's line
				} else {
					b.WriteByte('\n')
				}
			case "tc":
				cellDepth--
			case "tr":
				b.WriteByte('\n')
				space = false
			}
		case xml.CharData:
			if inText && skip == 0 {
				if space {
					b.WriteByte(' ')
					space = false
				}
				b.Write(t)
			}
		}
	}
	return tidyLines(b.String()), nil
}

// tidyLines trims the ends of lines (the spaces a cell's paragraphs leave).
func tidyLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}
