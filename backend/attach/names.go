package attach

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNameBytes bounds a copy's name: far under the 255 bytes a file system
// allows, with room for the passages file's prefix and suffix and a "-99".
const maxNameBytes = 120

// SafeName is the name a copy of name gets: its last element only (a pasted
// "../../x" is "x"), without control characters, separators or a leading dot,
// cut to maxNameBytes with its extension kept; "file" when nothing is left.
func SafeName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = filepath.Base("/" + name)
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), r == '/', r == 0:
			continue
		case unicode.IsSpace(r):
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	name = strings.TrimLeft(strings.TrimSpace(b.String()), ".")
	if name == "" {
		return "file"
	}
	if len(name) <= maxNameBytes {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 {
		ext = ""
	}
	stem := name[:len(name)-len(ext)]
	stem = cutUTF8(stem, maxNameBytes-len(ext))
	return stem + ext
}

// cutUTF8 is s cut to at most n bytes at a rune boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// numbered is name with "-n" before its extension.
func numbered(name string, n int) string {
	ext := filepath.Ext(name)
	return strings.TrimSuffix(name, ext) + "-" + strconv.Itoa(n) + ext
}

// passagesName is the name of the file holding name's passages.
func passagesName(name string) string { return "." + name + ".passages.json" }
