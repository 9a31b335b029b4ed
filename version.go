package main

import "hearth/backend/cli"

// version and commit are set at link time: -ldflags "-X main.version=… -X main.commit=…".
var (
	version = "0.1.0-dev"
	commit  = "unknown"
)

func buildInfo() cli.BuildInfo { return cli.BuildInfo{Version: version, Commit: commit} }
