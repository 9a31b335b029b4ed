package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"hearth/backend/tools"
)

// The agent builds one Registry per workspace from config and calls tools by
// the names and raw argument JSON the model sent.
func Example() {
	ws, _ := os.MkdirTemp("", "hearth-example-")
	defer os.RemoveAll(ws)
	_ = os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("buy milk\ncall mum\n"), 0o644)

	reg := tools.NewRegistry(tools.RegistryOptions{Masker: tools.NewMasker("sk-example-key")})
	_ = reg.Register(tools.Builtins(tools.Options{
		Policy: tools.Policy{Workspace: ws, ProtectedPaths: []string{"/home/me/.config/hearth/config.json"}},
		Exec:   tools.ExecOptions{AllowedEnvKeys: []string{"GOPATH"}},
	})...)

	fmt.Println(reg.Names())
	// Malformed JSON with a number as a string is repaired and cast.
	res := reg.Call(context.Background(), "read_file", json.RawMessage(`{'path': 'notes.txt', 'offset': '2',}`))
	fmt.Println(res.OK(), res.Content)
	res = reg.Call(context.Background(), "read_file", json.RawMessage(`{"path": "../etc/passwd"}`))
	fmt.Println(res.OK())
	// Output:
	// [edit_file exec glob grep list_dir read_file write_file]
	// true 2	call mum
	// [Lines 2-2 of 2; end of file.]
	// false
}
