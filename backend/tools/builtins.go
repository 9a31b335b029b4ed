package tools

// DefaultMaxResultChars is agents.defaults.maxToolResultChars.
const DefaultMaxResultChars = 16000

// Options configures the built-in tools. Build it from config; the zero value
// (plus a Workspace in Policy) gives the shipped defaults.
type Options struct {
	// Policy is the sandbox every built-in uses (copied, so later changes to the
	// caller's value do not leak in).
	Policy Policy
	// MaxResultChars bounds one read_file page and other listings (default 16000).
	MaxResultChars int
	// Exec configures the exec tool.
	Exec ExecOptions
	// DisableExec leaves exec out (config tools.exec.enabled=false).
	DisableExec bool
	// Writes hears write_file's and edit_file's writes inside the workspace (the
	// memory service: the model's edits of memory files are the agent's in their
	// history); nil: nobody.
	Writes WriteObserver
}

func (o Options) maxChars() int {
	if o.MaxResultChars <= 0 {
		return DefaultMaxResultChars
	}
	return o.MaxResultChars
}

// Builtins returns the seven built-in tools: read_file, write_file, edit_file,
// list_dir, glob, grep and exec (unless disabled).
func Builtins(opts Options) []Tool {
	pol := &Policy{}
	*pol = opts.Policy
	fs := fsBase{policy: pol, maxChars: opts.maxChars(), writes: opts.Writes}
	tools := []Tool{
		readFileTool(fs), writeFileTool(fs), editFileTool(fs), listDirTool(fs),
		globTool(fs), grepTool(fs),
	}
	if !opts.DisableExec {
		tools = append(tools, NewExec(pol, opts.Exec))
	}
	return tools
}

// fsBase is shared by the file and search tools.
type fsBase struct {
	policy   *Policy
	maxChars int
	writes   WriteObserver
}
