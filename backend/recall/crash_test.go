package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crashChildEnv makes the test binary a child that indexes until killed.
const crashChildEnv = "HEARTH_MEMORY_CRASH_CHILD"

// TestCrashChild is the child of TestKillAtAnyPoint: it rewrites notes and
// syncs the index in a loop until the parent kills it (-9). Alone it does nothing
// (a plain return, so a normal run does not list it as skipped).
func TestCrashChild(t *testing.T) {
	dirs := os.Getenv(crashChildEnv)
	if dirs == "" {
		return
	}
	ws, dir, _ := strings.Cut(dirs, string(os.PathListSeparator))
	fe := &fakeEmbed{}
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	fmt.Println("ready")
	for i := 0; ; i++ {
		writeFile(t, ws, fmt.Sprintf("notes/n%d.md", i%7), fmt.Sprintf("Note %d about the lighthouse keeper %d.\n\nSecond paragraph %d.", i, i, i))
		if i%5 == 0 {
			os.Remove(filepath.Join(ws, fmt.Sprintf("notes/n%d.md", (i+3)%7)))
		}
		if _, err := x.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKillAtAnyPoint kills a process that is writing the index at random
// moments; every time the index opens (or is rebuilt) without an error or
// a panic, and after a sync holds exactly what the files say.
func TestKillAtAnyPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, synthHistory(300, 3))
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 8 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+ws+string(os.PathListSeparator)+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 5)
		if _, err := out.Read(buf); err != nil { // "ready": it runs
			t.Fatalf("round %d: child: %v", round, err)
		}
		time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()

		x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: (&fakeEmbed{}).embed, Model: "m"})
		rep, err := x.Sync(context.Background())
		if err != nil {
			t.Fatalf("round %d: sync after kill: %v", round, err)
		}
		x.Close()
		fresh := NewIndex(IndexOptions{Workspace: ws, Embed: (&fakeEmbed{}).embed, Model: "m"})
		want, err := fresh.Sync(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rep.Chunks != want.Chunks || rep.Vectors != want.Chunks || rep.Files != want.Files {
			t.Errorf("round %d: after the kill %+v, the files give %+v", round, rep, want)
		}
	}
}
