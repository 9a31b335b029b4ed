package prompt

import "strings"

// SkillSummary is one skill as the system prompt lists it (F-SKILLS): enough
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

// writeEscaped writes s with the three characters that would break the XML
// escaped (quotes need no escaping outside attributes).
func writeEscaped(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteByte(c)
		}
	}
}

// skillsXML renders the skills summary, "" when there are none. One skill per
// line keeps it compact (whitespace is tokens too) and easy for a small model
// to scan.
func skillsXML(list []SkillSummary) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(120 + 200*len(list))
	b.WriteString("# Skills\n\nTo use a skill, read its SKILL.md with read_file first. A skill that is not available needs what <missing> names.\n\n<skills>\n")
	for _, s := range list {
		b.WriteString("<skill><name>")
		writeEscaped(&b, s.Name)
		b.WriteString("</name><description>")
		writeEscaped(&b, s.Description)
		b.WriteString("</description><location>")
		writeEscaped(&b, s.Location)
		b.WriteString("</location><available>")
		if s.Available {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		b.WriteString("</available>")
		if s.Missing != "" {
			b.WriteString("<missing>")
			writeEscaped(&b, s.Missing)
			b.WriteString("</missing>")
		}
		b.WriteString("</skill>\n")
	}
	b.WriteString("</skills>")
	return b.String()
}
