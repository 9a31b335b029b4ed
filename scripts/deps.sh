#!/usr/bin/env bash
# Installs what Hearth needs on Debian/Ubuntu, only what is missing, so a second run is
# instant. Usage: scripts/deps.sh run|test
set -euo pipefail
cd "$(dirname "$0")/.."

# poppler-utils: pdftotext reads PDFs' text (backend/extract), for `make run` and tests.
run_pkgs=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev librsvg2-bin poppler-utils)
# Browser e2e and native smoke (xvfb, chromium, dbus), the tray host, what the real
# Ollama server build needs, and the install test (lintian, desktop-file-validate, xprop,
# gio launch); bubblewrap is the outer jail of the exec sandbox tests.
test_pkgs=(bubblewrap xvfb xauth xdotool imagemagick chromium dbus-daemon dbus-x11 haskell-gtk-sni-tray-utils
  nlohmann-json3-dev libstb-dev jq python3
  lintian desktop-file-utils x11-utils libglib2.0-bin)
test_pkgs+=(fonts-noto-cjk) # a CJK font: zh-CN screenshots of the window and the tray are legible

want=("${run_pkgs[@]}")
[[ "${1:-run}" == test ]] && want+=("${test_pkgs[@]}")

missing=()
for p in "${want[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  if ! command -v apt-get >/dev/null; then
    echo "deps: missing ${missing[*]} and no apt-get here; install them with your package manager" >&2
    exit 1
  fi
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Toolchains come with the machine; say clearly when one is too old.
go_minor=$(go env GOVERSION 2>/dev/null | sed -E 's/^go1\.([0-9]+).*/\1/' || echo 0)
if [[ -z "$go_minor" || "$go_minor" -lt 26 ]]; then
  echo "deps: Go 1.26 or newer is needed (found: $(go version 2>/dev/null || echo none)); see https://go.dev/dl" >&2
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [[ "$node_major" -lt 20 ]]; then
  echo "deps: Node.js 20 or newer is needed (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# npm ci only when package-lock.json changed since the last install.
stamp=frontend/node_modules/.hearth-stamp
if [[ ! -f $stamp || frontend/package-lock.json -nt $stamp ]]; then
  echo "deps: npm ci"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
  touch "$stamp"
fi
