// Command fakeollama serves the scripted fake Ollama for browser tests.
//
//	fakeollama -addr 127.0.0.1:11435 [-script replies.json]
//
// Without -script it lists qwen3:4b (tools, thinking) and nomic-embed-text and
// answers every chat with a friendly sentence quoting the user. It prints
// "fakeollama listening on http://ADDR" once it accepts connections (use
// -addr 127.0.0.1:0 for a free port) and stops on SIGINT/SIGTERM.
// GET /_fake/chats returns the /api/chat requests received so far, so browser
// tests can check what the model was sent; GET /_fake/probes returns the model
// fitness check's requests, which /_fake/chats leaves out. POST /_fake/replies with a JSON
// array of replies queues them for the next chats (benchmarks script each turn this way).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"hearth/backend/internal/fakeollama"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fakeollama:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fakeollama", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:11435", "listen address (port 0 picks a free one)")
	scriptPath := fs.String("script", "", "JSON script: {models, replies, pulls, default}")
	if err := fs.Parse(args); err != nil {
		return err
	}
	script := fakeollama.DefaultScript()
	if *scriptPath != "" {
		s, err := fakeollama.LoadScript(*scriptPath)
		if err != nil {
			return err
		}
		script = s
	}
	srv := fakeollama.New(script)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /_fake/chats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(srv.ChatRequests())
	})
	mux.HandleFunc("GET /_fake/probes", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(srv.ProbeRequests())
	})
	mux.HandleFunc("POST /_fake/replies", func(w http.ResponseWriter, r *http.Request) {
		var replies []fakeollama.Reply
		if err := json.NewDecoder(r.Body).Decode(&replies); err != nil {
			http.Error(w, "replies: want a JSON array of replies: "+err.Error(), http.StatusBadRequest)
			return
		}
		srv.Enqueue(replies...)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.Handle("/", srv)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(shutdown)
	}()
	fmt.Fprintf(stdout, "fakeollama listening on http://%s\n", ln.Addr())
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
