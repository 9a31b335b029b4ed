package cleanpages

import (
	"slices"
	"strings"
	"testing"
)

const sampleSmaps = `00400000-00402000 r--p 00000000 fd:00 1234                               /opt/my apps/hearth
Size:                  8 kB
Rss:                   8 kB
Anonymous:             0 kB
00402000-01000000 r-xp 00002000 fd:00 1234                               /opt/my apps/hearth
Size:              12276 kB
Anonymous:             0 kB
VmFlags: rd ex mr mw me
01000000-01c00000 r--p 00c00000 fd:00 1234                               /opt/my apps/hearth
Anonymous:             0 kB
01c00000-01c01000 r--p 01800000 fd:00 1234                               /opt/my apps/hearth
Anonymous:             4 kB
01c01000-02000000 rw-p 01801000 fd:00 1234                               /opt/my apps/hearth
Anonymous:            96 kB
7f0000000000-7f0000020000 r-xp 00000000 fd:00 99                         /usr/lib/x86_64-linux-gnu/libc.so.6
Anonymous:             0 kB
7f0000100000-7f0000120000 r--p 00000000 00:00 0 
Anonymous:            12 kB
7f0000200000-7f0000201000 r--p 00000000 00:05 7                          /dev/dri/renderD128
Anonymous:             0 kB
7f0000300000-7f0000301000 r--p 00000000 00:01 8                          /memfd:wayland-cursor (deleted)
Anonymous:             0 kB
7f0000400000-7f0000401000 r--p 00000000 fd:00 9                          /tmp/old.so (deleted)
Anonymous:             0 kB
7f0000500000-7f0000600000 r--s 00000000 fd:00 10                         /var/cache/fontconfig/x.cache-9
Anonymous:             0 kB
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
Anonymous:           132 kB
`

func TestCleanReadOnlyPicksUntouchedFileMappings(t *testing.T) {
	exe := "/opt/my apps/hearth"
	got := cleanReadOnly([]byte(sampleSmaps), func(p string) bool { return p == exe })
	want := []span{{0x400000, 0x402000}, {0x402000, 0x1000000}, {0x1000000, 0x1c00000}}
	if !slices.Equal(got, want) {
		t.Errorf("the binary's spans %x, want %x (not the patched RELRO page, the writable data, the library or anonymous memory)", got, want)
	}
	if got := cleanReadOnly([]byte(sampleSmaps), func(p string) bool { return p == "/opt/my" }); len(got) != 0 {
		t.Errorf("a path prefix matched: %x", got)
	}
	got = cleanReadOnly([]byte(sampleSmaps), regularFile)
	want = append(want, span{0x7f0000000000, 0x7f0000020000})
	if !slices.Equal(got, want) {
		t.Errorf("every file's spans %x, want %x (not a device, a memfd, a deleted file or the font map shared with others)", got, want)
	}
}

// FuzzCleanReadOnly: any text parses without a panic, and every span it gives is a
// non-empty range that a header line of the text named, with a path keep accepted.
func FuzzCleanReadOnly(f *testing.F) {
	f.Add([]byte(sampleSmaps))
	f.Add([]byte("0-1 r-xp 0 0:0 1 /a\nAnonymous:\n"))
	f.Fuzz(func(t *testing.T, smaps []byte) {
		named := map[span]bool{}
		for line := range strings.Lines(string(smaps)) {
			if s, _, ok := mappingOf(strings.TrimRight(line, "\n")); ok {
				named[s] = true
			}
		}
		for _, s := range cleanReadOnly(smaps, regularFile) {
			if s.start >= s.end || !named[s] {
				t.Fatalf("span %x: empty, or named by no header of the text", s)
			}
		}
	})
}
