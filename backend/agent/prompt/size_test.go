package prompt

import (
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"hearth/backend/llm"
	"hearth/backend/workspace"
)

// maxFirstRequestTokens is the standing first-request target
// (docs/design/prompt-size.md#the-first-request-target): the first request for "hello" with
// every built-in tool and the default workspace files, in chars/4.
const maxFirstRequestTokens = 2000

// builtinTools stands in for the tools package's definitions (not merged yet):
// the seven file/search/exec tools with short, exact descriptions,
// about 3 600 chars of JSON, the budget the tools engineer works to.
func builtinTools() []llm.ToolDef {
	def := func(name, desc, params string) llm.ToolDef {
		return llm.ToolDef{Name: name, Description: desc, Parameters: json.RawMessage(params)}
	}
	return []llm.ToolDef{
		def("edit_file", "Replace exact text in a file. old_text must match exactly once unless replace_all is true; on no match the error shows the closest text.",
			`{"type":"object","properties":{"path":{"type":"string","description":"File path, relative to the workspace"},"old_text":{"type":"string","description":"Exact text to replace"},"new_text":{"type":"string","description":"Replacement text"},"replace_all":{"type":"boolean","description":"Replace every match"}},"required":["path","old_text","new_text"]}`),
		def("exec", "Run a shell command in the workspace and return its exit code and output (at most 10000 chars). Default timeout 60 s, max 600. Destructive commands are refused.",
			`{"type":"object","properties":{"command":{"type":"string","description":"Shell command"},"working_dir":{"type":"string","description":"Directory to run in, relative to the workspace"},"timeout":{"type":"integer","description":"Timeout in seconds (1-600)"}},"required":["command"]}`),
		def("glob", "Find files whose path matches a glob pattern, newest first. Skips .git, node_modules and files ignored by .gitignore.",
			`{"type":"object","properties":{"pattern":{"type":"string","description":"Glob pattern, e.g. **/*.md"},"path":{"type":"string","description":"Folder to search, default the workspace"}},"required":["pattern"]}`),
		def("grep", "Search file contents with a regular expression (RE2 syntax). Skips .git, node_modules, binary files and files ignored by .gitignore.",
			`{"type":"object","properties":{"pattern":{"type":"string","description":"Regular expression"},"path":{"type":"string","description":"File or folder to search"},"glob":{"type":"string","description":"Only files matching this glob"},"output_mode":{"type":"string","enum":["files_with_matches","content","count"],"description":"What to return"},"context":{"type":"integer","description":"Lines of context around matches"},"case_insensitive":{"type":"boolean"}},"required":["pattern"]}`),
		def("list_dir", "List the entries of a folder, sorted by name; folders end in /.",
			`{"type":"object","properties":{"path":{"type":"string","description":"Folder path, relative to the workspace"},"recursive":{"type":"boolean","description":"Include sub-folders"},"max_entries":{"type":"integer","description":"Stop after this many entries"}},"required":["path"]}`),
		def("read_file", "Read a text file as numbered lines. Long files come in pages; the result says how to read on. Images are detected; device files are refused.",
			`{"type":"object","properties":{"path":{"type":"string","description":"File path, relative to the workspace"},"offset":{"type":"integer","description":"First line to read (1-based)"},"limit":{"type":"integer","description":"Number of lines to read"}},"required":["path"]}`),
		def("write_file", "Create or overwrite a file with the given content. Creates missing folders. Prefer edit_file for small changes to an existing file.",
			`{"type":"object","properties":{"path":{"type":"string","description":"File path, relative to the workspace"},"content":{"type":"string","description":"Full new content"}},"required":["path","content"]}`),
	}
}

// TestFirstRequestSize holds the first-request target: it builds the first request for
// "hello" as the agent will and fails above 2 000 tokens at chars/4.
func TestFirstRequestSize(t *testing.T) {
	dir := t.TempDir()
	if _, err := workspace.Onboard(dir); err != nil {
		t.Fatal(err)
	}
	b, err := New(Options{Workspace: dir, OS: "Linux", TimeZone: "Europe/Berlin", Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	system, err := b.SystemPrompt()
	if err != nil {
		t.Fatal(err)
	}
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	user := AppendRuntimeContext("hello", time.Now(), loc, ChannelDesktop)
	tools := builtinTools()
	toolsJSON, err := toolsJSON(tools)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(toolsJSON); n < 3300 || n > 3900 {
		t.Fatalf("the stand-in tool list is %d chars of JSON; keep it near the 3 600 budget", n)
	}
	sysChars, userChars, toolChars := utf8.RuneCountInString(system), utf8.RuneCountInString(user), utf8.RuneCount(toolsJSON)
	tokens := (sysChars + userChars + toolChars + 3) / 4
	est := Counter{}.Request(system, tools, []llm.Message{{Role: llm.RoleUser, Content: user}})
	t.Logf("first request: %d tokens (chars/4) = system %d + user %d + tools %d chars; estimator says %d",
		tokens, sysChars, userChars, toolChars, est)
	if tokens > maxFirstRequestTokens {
		t.Errorf("first request is %d tokens (chars/4), over the target of %d", tokens, maxFirstRequestTokens)
	}
	if est > maxFirstRequestTokens {
		t.Errorf("estimator puts the first request at %d tokens, over %d", est, maxFirstRequestTokens)
	}
}

// toolsJSON is the tool list in the OpenAI wire shape, as providers send it;
// the first-request target (docs/design/prompt-size.md#the-first-request-target)
// measures its length.
func toolsJSON(tools []llm.ToolDef) ([]byte, error) {
	type fn struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	}
	type wire struct {
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	out := make([]wire, len(tools))
	for i, t := range tools {
		out[i] = wire{Type: "function", Function: fn{t.Name, t.Description, t.Parameters}}
	}
	return json.Marshal(out)
}
