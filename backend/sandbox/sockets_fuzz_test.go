package sandbox

import (
	"strings"
	"testing"
)

const procNetUnix = `Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 23011 /run/user/1000/bus
0000000000000000: 00000002 00000000 00010000 0001 01 23012 @/tmp/.X11-unix/X0
0000000000000000: 00000003 00000000 00000000 0001 03 23013
0000000000000000: 00000002 00000000 00010000 0001 01 23014 /tmp/tmux-1000/default
0000000000000000: 00000003 00000000 00000000 0001 03 23015 /run/user/1000/bus
0000000000000000: 00000002 00000000 00010000 0001 01 23016 /home/me/my socket
0000000000000000: 00000002 00000000 00010000 0001 01 23017 relative/sock
0000000000000000: 00000002 00000000 00010000 0001 01 23018 /a/../b
`

func TestParseUnixSockets(t *testing.T) {
	got := parseUnixSockets(strings.NewReader(procNetUnix), 100)
	want := []string{"/run/user/1000/bus", "/tmp/tmux-1000/default", "/home/me/my socket"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := parseUnixSockets(strings.NewReader(procNetUnix), 1); len(got) != 1 {
		t.Fatalf("max 1 gave %q", got)
	}
	// A huge line and a flood of sockets stay bounded.
	long := "h\nx: 1 0 0 1 1 1 /" + strings.Repeat("a", 10000) + "\n"
	if got := parseUnixSockets(strings.NewReader(long), 10); len(got) != 0 {
		t.Fatalf("an overlong line gave %d paths", len(got))
	}
	var b strings.Builder
	b.WriteString("h\n")
	for i := 0; i < 5000; i++ {
		b.WriteString("x: 1 0 0 1 1 1 /run/" + strings.Repeat("s", 100) + string(rune('a'+i%26)) + strings.Repeat("t", i%50) + "\n")
	}
	got = parseUnixSockets(strings.NewReader(b.String()), maxCoverSockets)
	size := 0
	for _, p := range got {
		size += len(p)
	}
	if len(got) > maxCoverSockets || size > maxCoverBytes {
		t.Fatalf("%d paths, %d bytes: past the bounds", len(got), size)
	}
}

// FuzzParseUnixSockets: any table gives absolute, clean, distinct paths within the
// bounds, never a panic.
func FuzzParseUnixSockets(f *testing.F) {
	f.Add(procNetUnix)
	f.Add("")
	f.Add("h\n: : : : : : : /x\x00y\n")
	f.Fuzz(func(t *testing.T, s string) {
		got := parseUnixSockets(strings.NewReader(s), 50)
		seen := map[string]bool{}
		for _, p := range got {
			if !strings.HasPrefix(p, "/") || seen[p] {
				t.Fatalf("bad path %q in %q", p, got)
			}
			seen[p] = true
		}
		if len(got) > 50 {
			t.Fatalf("%d paths", len(got))
		}
	})
}
