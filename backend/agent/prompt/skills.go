package prompt

import "strings"

// SkillSummary is one skill as the system prompt lists it (docs/design/extensions.md#skills): enough
// for the model to decide to read the skill's SKILL.md, and to know what is
// missing before an unavailable one can be used.
type SkillSummary struct {
	Name        string
	Description string
	// Location is the SKILL.md path the model reads with read_file.
	Location  string
	Available bool
	// Missing names the requirements that are not met ("bin: ffmpeg, env:
	// OPENAI_API_KEY"); empty when available.
	Missing string
}

// writeEscaped writes s with the characters that would break the XML (in
// text or in a double-quoted attribute) escaped.
func writeEscaped(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteByte(c)
		}
	}
}

// skillsXML renders the skills summary, "" when there are none. One element
// per skill with attributes, and available="false" only on the unavailable
// ones, keeps it compact (every character is sent on every request) and easy
// for a small model to scan.
func skillsXML(list []SkillSummary) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(100 + 150*len(list))
	b.WriteString("# Skills\n\nRead a skill's file with read_file before using it.\n<skills>\n")
	for _, s := range list {
		b.WriteString(`<skill name="`)
		writeEscaped(&b, s.Name)
		b.WriteString(`" location="`)
		writeEscaped(&b, s.Location)
		b.WriteString(`"`)
		if !s.Available {
			b.WriteString(` available="false"`)
			if s.Missing != "" {
				b.WriteString(` missing="`)
				writeEscaped(&b, s.Missing)
				b.WriteString(`"`)
			}
		}
		b.WriteString(">")
		writeEscaped(&b, s.Description)
		b.WriteString("</skill>\n")
	}
	b.WriteString("</skills>")
	return b.String()
}
