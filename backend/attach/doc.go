// Package attach keeps the files a person attaches to a chat message: each is
// copied into the chat's own attachments folder in Hearth's data (so the chat
// still shows and uses it after the original moved), its text is read with
// backend/extract and split into passages cached beside the copy, and the prompt
// gets either the whole text (a file that fits the room the fitter gives) or the
// passages relevant to each message (a bigger one), each with its place (file,
// page or line) so an answer can cite it. The model looks further with
// attachment_search and read_attachment.
//
// Layout, per chat (the folder's name is the session's file stem):
//
//	<data>/attachments/<stem>/report.pdf              the copy
//	<data>/attachments/<stem>/.report.pdf.passages.json  its passages
//
// Every write goes through folders opened without following a link, every copy
// is bounded and made under a temporary name then linked into place (never over
// an existing file), and deleting the chat removes its folder.
package attach
