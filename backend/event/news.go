package event

// MemoryChanged says a memory or persona file changed: written by the agent, a
// consolidation, the window's editor or another program. File is relative to the
// workspace ("memory/MEMORY.md").
type MemoryChanged struct {
	File string `json:"file"`
}

// MCPChanged says an MCP server's state or tools changed (it connected, failed,
// was added or removed): the MCP view reloads its list.
type MCPChanged struct {
	Server string `json:"server"`
}

// Background is something work in the background tells the user: a reminder's
// answer, the message tool's post, a heartbeat finding, a missed-run or jobs-file
// notice, a finished helper, or (Kind BackgroundJobs, no text) that the reminders
// changed. The desktop shows it as a notification that opens SessionID and refreshes
// its views. Code and Args name the message for translation; Text is its English.
type Background struct {
	Kind      string            `json:"kind"`
	Title     string            `json:"title"`
	Text      string            `json:"text"`
	SessionID string            `json:"sessionId,omitempty"`
	JobID     string            `json:"jobId,omitempty"`
	Code      string            `json:"code,omitempty"`
	Args      map[string]string `json:"args,omitempty"`
	// TitleCode names Title for translation (with Args) when Title is Hearth's own
	// words; empty when Title is the person's (a reminder's name).
	TitleCode string `json:"titleCode,omitempty"`
	// Ask names a question the notification asks with buttons (AskMissed: Run / Skip
	// for a missed reminder), answering the notice NoticeID.
	Ask      string `json:"ask,omitempty"`
	NoticeID string `json:"noticeId,omitempty"`
}

// AskMissed asks whether a reminder missed while Hearth was closed runs once now.
const AskMissed = "missed"

// Background kinds.
const (
	BackgroundMessage  = "message"  // the message tool posted content
	BackgroundReminder = "reminder" // a reminder is due: the person's words, when it starts
	// BackgroundReminderAnswer is a reminder's second, quieter notification: what the
	// model answered or posted, or why it could not.
	BackgroundReminderAnswer = "reminderAnswer"
	BackgroundHeartbeat      = "heartbeat" // a heartbeat reply that is not HEARTBEAT_OK
	BackgroundNotice         = "notice"    // missed runs caught up or skipped, a damaged jobs file
	BackgroundJobs           = "jobs"      // the jobs changed (no text): refresh lists and the tray
	BackgroundSubagent       = "subagent"  // a spawned helper finished; its report is in SessionID
	BackgroundActivity       = "activity"  // what runs now changed (no text): the tray's Stop lines
	BackgroundSettings       = "settings"  // a setting was saved (no text): the tray's model and language
)
