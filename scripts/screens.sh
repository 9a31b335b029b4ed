#!/usr/bin/env bash
# Screenshots of each main view (first run, chat, models, settings, …), light, dark and zh-CN, under
# Xvfb with the dev build, the real backend and a scripted fake Ollama: build/screens/*.png.
# Then the moments issue 30 mended (screens-ontime.mjs: ontime-*.png), en and zh-CN, light and
# dark. SCREENS=ontime takes only those. Then typing while Hearth works (screens-steer.mjs:
# steer-*.png); SCREENS=steer takes only those. Then Settings › Channels and a Telegram chat
# (screens-channels.mjs: channels-*.png); SCREENS=channels takes only those. Then attachments,
# Settings › Knowledge and a picture refused (screens-files.mjs: files-*.png); SCREENS=files.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
(cd frontend && npm run build --silent)
go build -tags dev,webkit2_41 -o build/bin/hearth-dev .
go build -o build/bin/fakeollama ./backend/internal/fakeollama/cmd/fakeollama
run() { dbus-run-session -- xvfb-run -a node "$1" 2>&1 | grep -v -E '^(dbus-daemon\[|SpiRegistry)'; }
if [[ -z "${SCREENS:-}" ]]; then run frontend/e2e/screens.mjs; fi
if [[ -z "${SCREENS:-}" || "${SCREENS:-}" == ontime ]]; then run frontend/e2e/screens-ontime.mjs; fi
if [[ -z "${SCREENS:-}" || "${SCREENS:-}" == steer ]]; then run frontend/e2e/screens-steer.mjs; fi
if [[ -z "${SCREENS:-}" || "${SCREENS:-}" == channels ]]; then run frontend/e2e/screens-channels.mjs; fi
if [[ -z "${SCREENS:-}" || "${SCREENS:-}" == files ]]; then run frontend/e2e/screens-files.mjs; fi
