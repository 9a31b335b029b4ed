package prompt

import (
	"strings"

	"hearth/backend/skills"
)

// xmlEscaper escapes the characters that would break the XML (in text or in a
// double-quoted attribute).
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// skillsXML renders the skills summary, "" when there are none. One element
// per skill with attributes, and available="false" only on the unavailable
// ones, keeps it compact (every character is sent on every request) and easy
// for a small model to scan.
func skillsXML(list []skills.Summary) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(100 + 150*len(list))
	b.WriteString("# Skills\n\nRead a skill's file with read_file before using it.\n<skills>\n")
	for _, s := range list {
		b.WriteString(`<skill name="`)
		_, _ = xmlEscaper.WriteString(&b, s.Name)
		b.WriteString(`" location="`)
		_, _ = xmlEscaper.WriteString(&b, s.Location)
		b.WriteString(`"`)
		if !s.Available {
			b.WriteString(` available="false"`)
			if s.Missing != "" {
				b.WriteString(` missing="`)
				_, _ = xmlEscaper.WriteString(&b, s.Missing)
				b.WriteString(`"`)
			}
		}
		b.WriteString(">")
		_, _ = xmlEscaper.WriteString(&b, s.Description)
		b.WriteString("</skill>\n")
	}
	b.WriteString("</skills>")
	return b.String()
}
