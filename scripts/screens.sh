#!/usr/bin/env bash
# Screenshots of each main view (first run, chat, models, settings, …), light, dark and zh-CN, under
# Xvfb with the dev build, the real backend and a scripted fake Ollama: build/screens/*.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
(cd frontend && npm run build --silent)
go build -tags dev,webkit2_41 -o build/bin/hearth-dev .
go build -o build/bin/fakeollama ./backend/internal/fakeollama/cmd/fakeollama
dbus-run-session -- xvfb-run -a node frontend/e2e/screens.mjs 2>&1 | grep -v -E '^(dbus-daemon\[|SpiRegistry)'
