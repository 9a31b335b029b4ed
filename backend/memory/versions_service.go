package memory

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"hearth/backend/i18n"
	"hearth/backend/memrepo"
	"hearth/backend/tools"
)

// Rev is one change in the history of the memory files (newest first in History).
type Rev = memrepo.Rev

// Revs is a list of changes; its String is one line per change (FormatLog).
type Revs []Rev

func (r Revs) String() string { return FormatLog(r) }

func (s *Service) currentVersions() *versions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.versions
}

// SyncHistory commits what changed in the memory files while Hearth was not
// watching (the first call of a workspace makes onboarding's commit).
func (s *Service) SyncHistory() error {
	_, err := s.currentVersions().sync()
	return err
}

// History lists the changes of the memory files, newest first; of one file when
// file is not "" (limit 0: all).
func (s *Service) History(file string, limit int) (Revs, error) {
	n, err := fileName(file)
	if err != nil {
		return nil, err
	}
	v := s.currentVersions()
	if _, err := v.sync(); err != nil {
		return nil, err
	}
	revs, err := v.repo.Log(n, limit)
	return Revs(revs), err
}

// Diff is the unified diff of the change rev, of one file when file is not "".
func (s *Service) Diff(rev, file string) (string, error) {
	n, err := fileName(file)
	if err != nil {
		return "", err
	}
	return s.currentVersions().repo.Diff(rev, n)
}

// Version is a file's text at rev (exists false: the file was not there).
func (s *Service) Version(rev, file string) (content string, exists bool, err error) {
	n, err := fileName(file)
	if err != nil || n == "" {
		return "", false, cmpErr(err, fmt.Errorf("name a file"))
	}
	b, ok, err := s.currentVersions().repo.Show(rev, n)
	return string(b), ok, err
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Restore puts the memory files back as they were right after the change rev —
// one file when file is not "", else every versioned file that existed then. The
// restore is itself a change in the history, so it can be undone the same way. A
// file that did not exist at rev is left as it is. What it did is said as a message
// (its String is the English).
func (s *Service) Restore(rev, file string) (i18n.Message, error) {
	var none i18n.Message
	n, err := fileName(file)
	if err != nil {
		return none, err
	}
	v := s.currentVersions()
	if _, err := v.sync(); err != nil { // an unrecorded edit gets its commit first: nothing is lost
		return none, err
	}
	full, err := v.repo.Resolve(rev)
	if errors.Is(err, memrepo.ErrUnknownRev) {
		return none, &Error{Msg: i18n.M("memory.rev.unknown", "rev", rev), Err: err}
	}
	if err != nil {
		return none, err
	}
	names := []string{n}
	if n == "" {
		if names, err = v.repo.Files(full); err != nil {
			return none, err
		}
	}
	short := full[:10]
	var restored []string
	for _, name := range names {
		b, ok, err := v.repo.Show(full, name)
		if err != nil {
			return none, err
		}
		if !ok {
			if n != "" {
				return none, &Error{Msg: i18n.M("memory.restore.absent", "file", name, "rev", short, "name", strings.TrimPrefix(name, "memory/"))}
			}
			continue
		}
		cur, err := v.store.Read(name)
		if err != nil {
			return none, err
		}
		if cur.Exists && cur.Content == string(b) {
			continue
		}
		o := Origin{Author: AuthorUser, Reason: fmt.Sprintf("restore %s to %s", name, short)}
		if _, err := v.store.put(name, string(b), o); err != nil {
			return none, err
		}
		restored = append(restored, name)
	}
	if len(restored) == 0 {
		return i18n.M("memory.restore.nothing", "rev", short), nil
	}
	return i18n.M("memory.restore.done", "files", strings.Join(restored, ", "), "rev", short), nil
}

// MemoryCommand is the chat's /memory command: log [FILE], diff REV [FILE],
// restore REV [FILE].
func (s *Service) MemoryCommand(_ context.Context, arg string) (i18n.Message, error) {
	var none i18n.Message
	f := strings.Fields(arg)
	usage := i18n.M("memory.command.usage")
	file := func(i int) string {
		if len(f) > i {
			return f[i]
		}
		return ""
	}
	switch {
	case len(f) > 0 && f[0] == "log":
		revs, err := s.History(file(1), 20)
		if err != nil || len(revs) == 0 {
			return i18n.M("memory.log.empty"), err
		}
		return verbatim(revs.String()), nil
	case len(f) > 1 && f[0] == "diff":
		d, err := s.Diff(f[1], file(2))
		if err != nil {
			return none, err
		}
		if d == "" {
			return i18n.M("memory.diff.none"), nil
		}
		return verbatim("```diff\n" + strings.TrimRight(d, "\n") + "\n```"), nil
	case len(f) > 1 && f[0] == "restore":
		return s.Restore(f[1], file(2))
	}
	return usage, nil
}

// verbatim is a reply the catalog cannot word (a list of changes, a diff):
// the same in every language.
func verbatim(text string) i18n.Message { return i18n.M("slash.text", "text", text) }

// FormatLog renders revisions one per line: short rev, time, author, message, files.
func FormatLog(revs []Rev) string {
	if len(revs) == 0 {
		return "No history yet."
	}
	var b strings.Builder
	for _, r := range revs {
		msg, _, _ := strings.Cut(r.Message, "\n")
		fmt.Fprintf(&b, "%s  %s  %-14s %s  (%s)\n", r.Rev[:10], r.Time.Local().Format("2006-01-02 15:04"), r.Author, msg, strings.Join(r.Files, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// Inbox is the current workspace's memory inbox: Dream's and consolidation's
// changes held for review when "Review memory changes" is on.
func (s *Service) Inbox() *Inbox {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inbox
}

// Writing implements tools.WriteObserver: the agent's own file tool (edit_file,
// write_file: they write around the memory service) is about to write file, a
// workspace-relative path, in the chat and run of ctx's tools.CallInfo. Until done is
// called, a change of the file is the agent's, not one "outside Hearth"; done(true)
// commits the file as the agent's change at once. A file without history is ignored.
func (s *Service) Writing(ctx context.Context, tool, file string) (done func(ok bool)) {
	n, err := CheckName(file)
	if err != nil || n != path.Clean(file) || !Versioned(n) { // "MEMORY.md" alone is not memory/MEMORY.md here
		return func(bool) {}
	}
	call, _ := tools.CallFrom(ctx)
	reason := tool + " in chat " + call.SessionID
	if call.RunID != "" {
		reason += " (run " + call.RunID + ")"
	}
	o := Origin{Author: AuthorAgent, Reason: reason}
	st := s.Store()
	st.agentWriting(n, o)
	return func(ok bool) { st.agentWrote(n, o, ok) }
}
