package sandbox

import (
	"errors"
	"strings"
	"testing"

	"hearth/backend/i18n"
)

// The summary reaches the window as a code worded in the UI language, while `hearth
// status` keeps printing the English it always did.
func TestSummaryIsACodedMessage(t *testing.T) {
	alone := i18n.Message{Code: "sandbox.landlock.aloneNoSockets", Args: map[string]string{"abi": "7"},
		Lists: map[string][]i18n.Message{"why": {nsWhy(errors.New("fork/exec /proc/self/exe: operation not permitted"))}}}
	var st Status
	st.SetSummary(alone)
	want := "Landlock ABI 7 without namespaces (user namespaces are not available): Hearth's folders are hidden by Landlock rules alone; " +
		"not stopped: chmod, chown and touch outside the workspace, stat of names in Hearth's folders; " +
		"no Unix socket works (with tools.exec.sshAgent: every pathname socket does); " +
		"a knowledge folder inside the workspace stays read-only, but nothing new can be made directly in the folders above it (up to the workspace)"
	if st.Summary != want {
		t.Errorf("English summary changed:\n got %q\nwant %q", st.Summary, want)
	}
	if st.SummaryMessage == nil || st.SummaryMessage.Code != "sandbox.landlock.aloneNoSockets" {
		t.Fatalf("summary message = %+v", st.SummaryMessage)
	}
	zh := st.SummaryMessage.In(i18n.Chinese)
	if !strings.Contains(zh, "未使用命名空间（用户命名空间不可用）") || !strings.Contains(zh, "知识库文件夹保持只读") || strings.Contains(zh, "without") {
		t.Errorf("zh-CN summary = %q", zh)
	}

	st.SetSummary(i18n.M("sandbox.landlock.namespaces", "abi", "7"))
	if st.Summary != "Landlock ABI 7 with user, PID, mount and network namespaces" {
		t.Errorf("summary = %q", st.Summary)
	}
	if got := st.SummaryMessage.In(i18n.Chinese); got != "Landlock ABI 7，并使用用户、PID、挂载和网络命名空间" {
		t.Errorf("zh-CN summary = %q", got)
	}
	st.SetWarning(i18n.M("sandbox.none.helper"))
	if !strings.Contains(st.Warning, "full rights") || st.WarningMessage.In(i18n.Chinese) == st.Warning {
		t.Errorf("warning = %q / %q", st.Warning, st.WarningMessage.In(i18n.Chinese))
	}
}

// Every reason the namespaces were not used is a catalog code; a helper's own error
// is kept as the argument.
func TestNsWhyCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		code string
	}{
		{nil, "sandbox.why.noUserns"},
		{errors.New("not tried: Landlock alone was asked for"), "sandbox.why.asked"},
		{errors.New("fork/exec x: permission denied"), "sandbox.why.noUserns"},
		{errors.New("probe: hearth sandbox: mount /proc: permission denied"), "sandbox.why.proc"},
		{errors.New("probe: exit 1: hearth sandbox: pivot_root: invalid argument"), "sandbox.why.failed"},
	} {
		m := nsWhy(c.err)
		if m.Code != c.code || !i18n.Has(m.Code) {
			t.Errorf("nsWhy(%v) = %+v, want code %s", c.err, m, c.code)
		}
	}
	if got := nsWhy(errors.New("probe: exit 1: hearth sandbox: pivot_root: invalid argument")).String(); got != "the namespaces could not be set up: pivot_root: invalid argument" {
		t.Errorf("failed why = %q", got)
	}
}

// What this machine's probe found is worded the same both ways.
func TestProbeSummaryMatchesItsMessage(t *testing.T) {
	st := New(Options{Exe: "/nonexistent/hearth"}).Status()
	if st.SummaryMessage == nil || st.SummaryMessage.String() != st.Summary {
		t.Fatalf("summary %q, message %+v", st.Summary, st.SummaryMessage)
	}
	if (st.Warning == "") != (st.WarningMessage == nil) {
		t.Errorf("warning %q, message %+v", st.Warning, st.WarningMessage)
	}
}
