//go:build unix

package mcp

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"hearth/backend/config"
)

// alive reports whether pid runs (a zombie waiting for its reaper counts as ended).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses: "pid (comm) S ...".
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

func childOf(t *testing.T, cmd string) (config.MCPServer, string) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	return stdioServer(map[string]string{childPIDFileVar: pidFile, childCmdVar: cmd}), pidFile
}

func readPID(t *testing.T, file string) int {
	t.Helper()
	var pid int
	waitFor(t, "the server's child to start", func() bool {
		data, err := os.ReadFile(file)
		pid, _ = strconv.Atoi(string(data))
		return err == nil && pid > 0
	})
	if !alive(pid) {
		t.Fatalf("child %d is not running", pid)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) }) // when the test fails
	return pid
}

// A server started through a wrapper leaves no process behind when Hearth closes it.
func TestStdioServerChildrenEndWithIt(t *testing.T) {
	polite, politeFile := childOf(t, "exec sleep 300")
	// This one ignores SIGTERM: it gets SIGKILL after the grace period.
	stubborn, stubbornFile := childOf(t, "trap '' TERM; exec sleep 301")
	f := newManager(t, map[string]config.MCPServer{"polite": polite, "stubborn": stubborn})
	f.m.Start()
	f.connected(t, "polite")
	f.connected(t, "stubborn")
	pids := []int{readPID(t, politeFile), readPID(t, stubbornFile)}
	start := time.Now()
	f.m.Close()
	for _, pid := range pids {
		deadline := time.Now().Add(10 * time.Second)
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("server child %d still running %s after Close", pid, time.Since(start))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
