package testmodel

// ToolCallModel is ChatModel except that, when tools are offered, it calls
// tool with args (a JSON object) instead of get_weather: for tests whose tool
// has another name, such as an MCP tool's mcp_<server>_<name>. Create it with
// Template. The server only accepts the call when tool is offered.
func ToolCallModel(tool, args string) ([]byte, error) {
	call := "\n{\"name\": \"" + tool + "\", \"arguments\": " + args + "}\n"
	return chatModelWith("hearth-tiny-custom", []string{call}, [][2]string{
		{tokToolStart, tokCallOpen},
		{tokCallOpen, call},
		{call, tokCallClose},
	})
}
