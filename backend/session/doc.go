// Package session stores Hearth's chat sessions: one append-only JSONL file
// per session in a sessions directory. Files are the truth; nothing else
// (List's cache included) needs to survive a restart.
//
// # File format
//
// The first line holds the full metadata; every later line is one record,
// told apart by "type" (every line starts with it):
//
//	{"type":"meta","v":1,"id":"20261122T040000-abcd0123","title":"","created":"2026-11-22T04:00:01Z","updated":"2026-11-22T04:00:01Z","model":"ollama/qwen3:4b","lastConsolidated":-1,"archived":false}
//	{"type":"message","at":"2026-11-22T04:00:02Z","runId":"r1","role":"user","content":"What files are here?","images":["AQID"]}
//	{"type":"message","at":"2026-11-22T04:00:03Z","runId":"r1","role":"assistant","content":"","reasoning":"I should list them.","toolCalls":[{"id":"c1","name":"list_dir","arguments":{"path":"."}}]}
//	{"type":"message","at":"2026-11-22T04:00:03Z","runId":"r1","role":"tool","content":"a.txt\nb.txt","toolCallId":"c1","toolName":"list_dir"}
//	{"type":"message","at":"2026-11-22T04:00:04Z","runId":"r1","role":"assistant","content":"Two files."}
//	{"type":"run","at":"2026-11-22T04:00:04Z","runId":"r1","status":"ok","final":"Two files.","usage":{"promptTokens":812,"completionTokens":9},"durationMs":5120}
//	{"type":"meta_update","at":"2026-11-22T04:00:07Z","title":"Listing files"}
//	{"type":"meta_update","at":"2026-11-22T04:00:08Z","archived":true}
//
// A message line is an llm.Message (tool results exactly as the model saw
// them) plus when it was written and the run that wrote it. A meta_update
// line carries only the fields that changed (title, model, archived,
// lastConsolidated); for each field the last line wins. An empty title means
// the automatic one, made from the first user message by AutoTitle.
//
// # Checkpoints
//
// A run appends its user message (then Sync) before calling the model, each
// tool batch (the assistant message with its calls and their results) when
// the batch completes, and finally its last assistant message together with
// its RunRecord (then Sync). A run with messages but no run line was
// interrupted: Load lists it in Session.Interrupted with its partial turn.
// Continuing it means appending more records with the same run id and, in
// the end, its run line; giving it up means CloseInterrupted.
//
// # Damage and concurrency
//
// Load never fails on damage: a torn last line (a write cut off by a crash)
// or a corrupt line anywhere is skipped with a Warning naming its line, and a
// missing or unreadable metadata line is rebuilt from the file name. An
// append after a torn line starts on a fresh line. Every append is one write
// under an exclusive flock on the file, and Load reads under a shared one, so
// the desktop app and a CLI command may use the same session at once.
//
// Ids are file-name safe when made by NewID; special ids such as "heartbeat"
// or "cron:<job-id>" are escaped reversibly by FileStem.
package session
