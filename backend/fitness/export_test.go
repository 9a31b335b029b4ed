package fitness

import "hearth/backend/llm"

// ReadToolDefForTest is the read probe's tool definition.
func ReadToolDefForTest() llm.ToolDef { return readToolDef }

// ReadScratchForTest is the read probe's read_file.
var ReadScratchForTest = readScratch
