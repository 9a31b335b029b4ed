package skills

import "testing"

// FuzzParse: any SKILL.md (front matter and body) parses to a skill or an error,
// never a panic. Seeds: testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: x\ndescription: A skill.\n---\nBody.\n"))
	f.Add([]byte("---\nname: x\ndescription: d\nalways: true\nrequires:\n  bins: [git]\n  env: [TOKEN]\n---\n"))
	f.Add([]byte("---\nname: [unclosed\n---\n"))
	f.Add([]byte("no front matter at all"))
	f.Add([]byte("---\n&a [*a, *a, *a]\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parse(data, "x")
	})
}
