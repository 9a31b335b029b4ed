package recall

import "github.com/kljensen/snowball/english"

// stem is the Snowball English (Porter2) stemmer for lowercase ASCII words:
// "fillings", "filled" and "filling" share "fill", "recommendation" and
// "recommended" share "recommend", so a question worded differently from the
// note still meets it. Words with other letters or digits, words of up to two
// letters and words over 40 are kept as they are. Changing the stemmer changes
// every stored term: the index's schemaVersion moves with it (indexmigrate.go).
func stem(w string) string {
	if len(w) <= 2 || len(w) > 40 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	return english.Stem(w, true)
}
