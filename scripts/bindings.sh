#!/usr/bin/env bash
# Regenerates frontend/wailsjs (TypeScript bindings for app.go) the way `wails generate
# module` does: a `bindings` build run from the repo root. Run after changing app.go.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/hearth-bindings.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
go build -tags bindings -o "$tmp/hearth-bindings" .
# A throwaway home: the bindings run must not onboard or lock anything of the user's.
HOME=$tmp XDG_CONFIG_HOME=$tmp/c XDG_DATA_HOME=$tmp/d XDG_STATE_HOME=$tmp/s DBUS_SESSION_BUS_ADDRESS=disabled: \
  "$tmp/hearth-bindings"
echo "frontend/wailsjs regenerated"
