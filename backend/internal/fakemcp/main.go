// Command fakemcp is a small stdio MCP server for the window's end-to-end
// tests: it offers the tools echo, add and greeting, built with the
// same SDK Hearth connects with. With -fail it writes a message to stderr and
// exits before speaking MCP, as a misconfigured server does; with -hang it
// starts but never answers, as a stuck one does; with -helper it starts a helper
// process of its own that outlives a closed stdin, as servers run through npx or
// uvx do (only ending the whole process group ends it).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type textIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type noIn struct{}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func main() {
	fail := flag.String("fail", "", "print this to stderr and exit 2 instead of serving")
	hang := flag.Bool("hang", false, "read requests but never answer (until stdin closes)")
	helper := flag.Bool("helper", false, "start a helper process that runs until it is killed")
	idle := flag.Bool("idle", false, "do nothing until killed (the helper)")
	flag.Parse()
	if *idle {
		select {}
	}
	if *helper {
		self, err := os.Executable()
		if err == nil {
			err = exec.Command(self, "-idle").Start()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakemcp: helper:", err)
			os.Exit(1)
		}
	}
	if *fail != "" {
		fmt.Fprintln(os.Stderr, *fail)
		os.Exit(2)
	}
	if *hang {
		_, _ = io.Copy(io.Discard, os.Stdin)
		return
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "fakemcp", Version: "1.0.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, in textIn) (*sdk.CallToolResult, any, error) {
			return text("echo: " + in.Text), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Add two numbers."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, any, error) {
			return text(fmt.Sprint(in.A + in.B)), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "greeting", Description: "Say hello, with $GREETING if set."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ noIn) (*sdk.CallToolResult, any, error) {
			return text("hello " + os.Getenv("GREETING")), nil, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fakemcp:", err)
		os.Exit(1)
	}
}
