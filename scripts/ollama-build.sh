#!/usr/bin/env bash
# Build the pinned Ollama server once and cache it by version.
#
# Usage: scripts/ollama-build.sh     (prints the binary path on its last line)
#
# The real-Ollama integration tests need an `ollama` binary (HEARTH_TEST_OLLAMA).
# No release download is reachable here, so the server is built from its Go module.
# The module zip omits llama.cpp's vendor/ directory: nlohmann-json and stb come
# from Debian, miniaudio from a stub header committed next to this script.
set -euo pipefail

VERSION=0.17.4
CACHE="${HEARTH_CACHE:-$HOME/.cache/hearth}"
DEST_DIR="$CACHE/ollama-$VERSION"
BIN="$DEST_DIR/ollama"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi

need=()
for p in nlohmann-json3-dev libstb-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "installing ${need[*]} via apt" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get install -y --no-install-recommends "${need[@]}" >&2 ||
    { $SUDO apt-get update >&2 && $SUDO apt-get install -y --no-install-recommends "${need[@]}" >&2; }
fi

mkdir -p "$DEST_DIR"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/hearth-ollama-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/include/miniaudio" "$WORK/bin"
cp "$HERE/miniaudio/miniaudio.h" "$WORK/include/miniaudio/miniaudio.h"

start=$(date +%s)
echo "building ollama v$VERSION (about 4 min on 2 cores; measured 221-227 s)" >&2
# Run from an empty directory with GOWORK=off so no go.mod of the caller is touched.
(
  cd "$WORK"
  export GOWORK=off GOBIN="$WORK/bin" GOFLAGS=-mod=mod CGO_ENABLED=1
  export CGO_CPPFLAGS="-I$WORK/include ${CGO_CPPFLAGS:-}"
  go install -trimpath \
    -ldflags "-s -w -X github.com/ollama/ollama/version.Version=$VERSION" \
    "github.com/ollama/ollama@v$VERSION" >&2
)
# Move into place atomically so a concurrent caller never sees a half-written file.
cp "$WORK/bin/ollama" "$BIN.tmp.$$"
chmod 0755 "$BIN.tmp.$$"
mv -f "$BIN.tmp.$$" "$BIN"
echo "built in $(( $(date +%s) - start )) s" >&2
echo "$BIN"
