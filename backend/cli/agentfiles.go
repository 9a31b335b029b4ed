package cli

// --file without -m: the message comes from piped standard input, or, at a
// terminal, the files go with the first message typed in the REPL.

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"hearth/backend/agent"
	"hearth/backend/i18n"
)

// maxStdinMessage bounds a message read from standard input: the REPL's longest
// line, so a message piped in is never more than one typed.
const maxStdinMessage = 4 << 20

// fileMessage settles the message --file's files go with when -m is not given:
// read from piped standard input (ok set), or left to the REPL's first line at a
// terminal (ok unset). No message at all is a coded usage error.
func fileMessage(e *env) (msg string, ok bool, err error) {
	if e.live() {
		return "", false, nil
	}
	b, err := io.ReadAll(io.LimitReader(e.stdin, maxStdinMessage+1))
	if err != nil {
		return "", false, usageError{fmt.Errorf("reading the message from standard input: %w", err)}
	}
	if len(b) > maxStdinMessage {
		return "", false, usageError{errors.New(i18n.P("cli.stdinTooBig", "limit", strconv.Itoa(maxStdinMessage>>20)).String())}
	}
	msg = strings.TrimSpace(string(b))
	if msg == "" {
		return "", false, noFileMessage()
	}
	return msg, true, nil
}

// noFileMessage is the error of --file with no message to go with.
func noFileMessage() error {
	return usageError{errors.New(i18n.P("cli.fileNoMessage").String())}
}

// replFiles holds --file's files until the REPL's first message takes them.
type replFiles struct{ paths []string }

// take attaches the files for a line about to be sent and clears them; a slash
// command does not take them. It returns the chat's id (made when sessionID is
// empty) and the records, told on w.
func (r *replFiles) take(e *env, w io.Writer, sessionID, line string) (string, []agent.Attachment, error) {
	if len(r.paths) == 0 || strings.HasPrefix(strings.TrimSpace(line), "/") {
		return sessionID, nil, nil
	}
	sid, atts, err := e.app.Chat.AttachFiles(sessionID, r.paths)
	if err != nil {
		return sessionID, nil, err
	}
	r.paths = nil
	printAttachments(w, atts)
	return sid, atts, nil
}

// announce tells, at the REPL's start, which files wait for the first message.
func (r *replFiles) announce(w io.Writer) {
	if len(r.paths) > 0 {
		fmt.Fprintf(w, "%d file(s) will be attached to your first message.\n", len(r.paths))
	}
}

// left is the error of a REPL ended before its files went with a message.
func (r *replFiles) left() error {
	if len(r.paths) > 0 {
		return noFileMessage()
	}
	return nil
}
