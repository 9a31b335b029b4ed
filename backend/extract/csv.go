package extract

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
)

// maxRecord bounds one record's line: a 10 MB line (a file whose line ends were lost)
// is cut, with a mark, so one record cannot be a passage too big to give a model. The
// original stays in the file.
const maxRecord = 64 << 10

var fieldBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// A CSV (or TSV) is read with encoding/csv, forgiving stray quotes and ragged rows:
// each record becomes one line, its fields joined by " | ". A record stands on its
// file line: a quoted field spanning lines is folded onto one and empty lines follow
// it, so line N of the text is line N of the file wherever a record starts.
func readCSV(name string, data []byte, comma rune, lim Limits) ([]Page, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = comma
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	var b, rl strings.Builder
	out := 1 // the line the next record is written on
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
			err = nil
		}
		if err != nil {
			return nil, damaged(name, err)
		}
		line, _ := r.FieldPos(0)
		for ; out < line; out++ {
			b.WriteByte('\n')
		}
		rl.Reset()
		for i, f := range rec {
			if i > 0 {
				rl.WriteString(" | ")
			}
			rl.WriteString(fieldBreaks.Replace(f))
			if rl.Len() > maxRecord {
				break
			}
		}
		if s := rl.String(); len(s) > maxRecord {
			cut := maxRecord
			for cut > 0 && !utf8Start(s[cut]) {
				cut--
			}
			b.WriteString(s[:cut])
			b.WriteString(" … [cut]")
		} else {
			b.WriteString(s)
		}
		b.WriteByte('\n')
		out++
		if b.Len() > lim.MaxText {
			return nil, tooMuchText(name, lim)
		}
	}
	return []Page{{Line: 1, Text: b.String()}}, nil
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }
