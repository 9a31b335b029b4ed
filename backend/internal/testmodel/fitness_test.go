package testmodel

import (
	"strings"
	"testing"
	"text/template"
)

// The restrained template leaves out the tool-start token for the plain question
// only (text/template runs it as Ollama's renderer does for these constructs).
func TestRestrainedTemplate(t *testing.T) {
	const plain = "What is 2 + 2? Reply with the number only."
	tmpl, err := template.New("t").Parse(RestrainedTemplate(plain))
	if err != nil {
		t.Fatal(err)
	}
	render := func(user string) string {
		var b strings.Builder
		data := map[string]any{
			"System": "", "Tools": []map[string]any{{"Function": map[string]any{"Name": "get_weather"}}},
			"Messages": []map[string]any{{"Role": "user", "Content": user}},
		}
		if err := tmpl.Execute(&b, data); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if out := render("What is the weather in Paris right now?"); !strings.HasSuffix(out, tokToolStart) {
		t.Errorf("weather question without the tool start:\n%s", out)
	}
	if out := render(plain); strings.Contains(out, tokToolStart) {
		t.Errorf("plain question with the tool start:\n%s", out)
	}
}
