package extract

import (
	"bytes"
	"io"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"hearth/backend/i18n"
)

// toUTF8 gives a text file's content as UTF-8: UTF-8 as it is (its byte-order mark
// dropped), UTF-16 with a byte-order mark (what Windows' Notepad calls "Unicode")
// converted, and an HTML page in another charset converted as its <meta> says.
// Anything else that is not UTF-8 is refused with what to do.
func toUTF8(name, kind string, data []byte, lim Limits) ([]byte, error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data = data[3:]
	}
	var dec transform.Transformer
	switch {
	case bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")):
		dec = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	case kind == "html" && !utf8.Valid(data):
		// Its <meta> charset, else what browsers assume (windows-1252).
		enc, _, _ := charset.DetermineEncoding(data, "text/html")
		dec = enc.NewDecoder()
	}
	if dec != nil {
		// A decoder writes at most a few bytes per byte read; the bound keeps it so.
		out, err := io.ReadAll(io.LimitReader(transform.NewReader(bytes.NewReader(data), dec), int64(lim.MaxText)+1))
		if err != nil {
			return nil, refuse(name, ErrBadFile, i18n.P("extract.notUTF8", "name", name))
		}
		if len(out) > lim.MaxText {
			return nil, tooMuchText(name, lim)
		}
		data = out
	}
	if err := checkText(name, data); err != nil {
		return nil, err
	}
	return data, nil
}

// checkText refuses what is not UTF-8 text (a binary under a text name).
func checkText(name string, data []byte) error {
	if bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0 {
		return refuse(name, ErrBadFile, i18n.P("extract.binary", "name", name))
	}
	if !utf8.Valid(data) {
		return refuse(name, ErrBadFile, i18n.P("extract.notUTF8", "name", name))
	}
	return nil
}
