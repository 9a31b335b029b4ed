package autostart

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

func TestSetAndRemove(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	if err := Set(true, "/opt/My Apps/hearth"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(Path())
	if !strings.Contains(string(data), `Exec="/opt/My Apps/hearth" --hidden`) || !Enabled() {
		t.Errorf("entry:\n%s", data)
	}
	if filepath.Dir(Path()) != filepath.Join(xdg.ConfigHome, "autostart") {
		t.Errorf("path %s", Path())
	}
	if err := Set(false, ""); err != nil || Enabled() {
		t.Fatalf("remove: %v, enabled %v", err, Enabled())
	}
	// A user's own entry is left alone.
	os.WriteFile(Path(), []byte("[Desktop Entry]\nExec=hearth\n"), 0o644)
	if err := Set(false, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Path()); err != nil {
		t.Error("removed the user's own autostart entry")
	}
}

// The entry names the program so that a desktop session starts exactly that file: the
// Exec value decoded as the Desktop Entry spec says (string escapes, then quoting) gives
// the path back, and desktop-file-validate accepts the entry where it is installed.
func TestEntryQuotesAnyPath(t *testing.T) {
	for _, exe := range []string{
		"/usr/bin/hearth",
		"/home/Ann Lee/.local/bin/hearth",
		`/opt/a "quoted" $HOME \back` + "`tick`/100%/hearth",
		"/tmp/semi;colon&amp/it's/hearth",
	} {
		entry := Entry(exe)
		fields := map[string]string{}
		for _, line := range strings.Split(entry, "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				fields[k] = v
			}
		}
		args := decodeExec(t, unescapeString(t, fields["Exec"]))
		if len(args) != 2 || args[0] != exe || args[1] != HiddenFlag {
			t.Errorf("Exec=%s decodes to %q, want [%q %q]", fields["Exec"], args, exe, HiddenFlag)
		}
		if got := unescapeString(t, fields["TryExec"]); got != exe {
			t.Errorf("TryExec=%s decodes to %q, want %q", fields["TryExec"], got, exe)
		}
		validate(t, entry)
	}
}

// unescapeString undoes the string escapes of a desktop entry value (\s \n \t \r \\).
func unescapeString(t *testing.T, v string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' {
			b.WriteByte(v[i])
			continue
		}
		i++
		if i == len(v) {
			t.Fatalf("value %q ends in a lone backslash", v)
		}
		switch v[i] {
		case 's':
			b.WriteByte(' ')
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		default:
			t.Fatalf("value %q has the invalid string escape \\%c", v, v[i])
		}
	}
	return b.String()
}

// decodeExec splits an unescaped Exec value into arguments: double-quoted arguments
// with \" \` \$ \\ escapes, %% for a literal percent sign.
func decodeExec(t *testing.T, v string) []string {
	t.Helper()
	var args []string
	var cur strings.Builder
	inArg, quoted := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quoted && c == '\\' && i+1 < len(v) && strings.IndexByte("\"`$\\", v[i+1]) >= 0:
			i++
			cur.WriteByte(v[i])
		case quoted && c == '"':
			quoted = false
		case !quoted && c == '"':
			quoted, inArg = true, true
		case !quoted && c == ' ':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		case c == '%':
			if i+1 >= len(v) || v[i+1] != '%' {
				t.Fatalf("Exec %q has a field code or a lone %%", v)
			}
			i++
			cur.WriteByte('%')
			inArg = true
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if quoted {
		t.Fatalf("Exec %q has an unterminated quote", v)
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

func validate(t *testing.T, entry string) {
	t.Helper()
	tool, err := exec.LookPath("desktop-file-validate")
	if err != nil {
		t.Log("desktop-file-validate not installed (Debian: desktop-file-utils): syntax check skipped")
		return
	}
	p := filepath.Join(t.TempDir(), "hearth.desktop")
	if err := os.WriteFile(p, []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(tool, p).CombinedOutput(); err != nil {
		t.Errorf("desktop-file-validate: %v\n%s\n%s", err, out, entry)
	}
}

// Enabled reports whether Hearth's entry exists.
func Enabled() bool {
	data, err := os.ReadFile(Path())
	return err == nil && strings.Contains(string(data), marker)
}
