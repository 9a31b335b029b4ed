#!/usr/bin/env bash
# Every test layer of Hearth, in order, each ending with its runner's own summary; the last
# line counts tests over all layers: "N passed, N failed".
# Checks without a test runner (gofmt, vet, svelte-check, bindings diff) count as one each.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(mktemp -d /tmp/hearth-test.XXXXXX)
export DBUS_SESSION_BUS_ADDRESS=disabled: # Go unit tests must never autolaunch a bus
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
passed=0
failed=0
failures=()

section() { printf '\n==> %s\n' "$*"; }
ok() { passed=$((passed + ${2:-1})); }
bad() {
  failed=$((failed + ${2:-1}))
  failures+=("$1")
}
check() { # check NAME CMD... : a one-count layer
  local name=$1
  shift
  section "$name"
  if "$@"; then ok "$name"; else bad "$name"; fi
}

# --- Go -------------------------------------------------------------------------------
gofmt_clean() {
  local files
  files=$(gofmt -l $(git ls-files '*.go') 2>&1)
  [[ -z "$files" ]] || {
    echo "gofmt would change:"
    echo "$files"
    return 1
  }
  echo "gofmt: clean"
}
check "gofmt" gofmt_clean
check "fuzz targets, about 2 s each (make fuzz: 30 times as many executions)" scripts/fuzz.sh

# The frontend build comes first: package main embeds frontend/dist.
section "frontend build"
if (cd frontend && npm run build --silent >"$out/vite.log" 2>&1); then
  ok build
  tail -n 3 "$out/vite.log"
else
  cat "$out/vite.log"
  bad "frontend build"
fi

check "go vet" bash -c 'go vet ./... && go vet -tags headless . && go vet -tags desktop,production,webkit2_41 . &&
  go -C scripts/package vet ./... && echo "go vet: clean"'

# Real-Ollama tests need the pinned server; it is built once and cached.
if [[ -x scripts/ollama-build.sh ]]; then
  section "ollama server (cached build)"
  if ollama_bin=$(scripts/ollama-build.sh 2>"$out/ollama-build.log" | tail -n 1) && [[ -x "$ollama_bin" ]]; then
    export HEARTH_TEST_OLLAMA="$ollama_bin"
    echo "using $HEARTH_TEST_OLLAMA"
  else
    tail -n 30 "$out/ollama-build.log"
    bad "ollama build"
  fi
fi

section "go test -race ./..."
# The tests run with HOME at an empty folder and no XDG variables, Go's own caches kept
# where they are: a test that reaches the home (instead of its t.TempDir) shows up there.
home="$out/home"
mkdir -p "$home"
gocache=$(go env GOCACHE) gomodcache=$(go env GOMODCACHE) gopath=$(go env GOPATH)
env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_STATE_HOME -u XDG_CACHE_HOME HOME="$home" \
  GOCACHE="$gocache" GOMODCACHE="$gomodcache" GOPATH="$gopath" \
  go test -race -count=1 -json ./... >"$out/go.json" 2>"$out/go.err"
go_rc=$?
# The packaging tool is a module of its own (scripts/package); it runs nothing concurrent,
# so it skips the race detector's rebuild of nFPM and its dependencies.
go -C scripts/package test -count=1 -json ./... >>"$out/go.json" 2>>"$out/go.err" || go_rc=1
# Show go test's own lines: package results always, test output only for failures.
jq -r -s '
  (map(select(.Action == "fail" and .Test != null) | .Package + " " + .Test)) as $failed
  | .[] | select(.Action == "output" or .Action == "build-output")
  | select(.Test == null or ((.Package + " " + .Test) as $k | $failed | index($k)))
  | .Output' "$out/go.json" | grep -v -E '^(=== (RUN|PAUSE|CONT|NAME)|PASS$|\s*--- PASS|\s*$)' || true
cat "$out/go.err"
go_pass=$(jq -s '[.[] | select(.Test != null and .Action == "pass")] | length' "$out/go.json")
go_fail=$(jq -s '[.[] | select(.Test != null and .Action == "fail")] | length' "$out/go.json")
go_skip=$(jq -s '[.[] | select(.Test != null and .Action == "skip")] | length' "$out/go.json")
echo "go test: $go_pass passed, $go_fail failed, $go_skip skipped"
ok go "$go_pass"
((go_fail > 0)) && bad "go test" "$go_fail"
((go_rc != 0 && go_fail == 0)) && bad "go test (build or package failure)"
# The go command's own telemetry settings are the only thing allowed in that home.
touched=$(cd "$home" && find . -mindepth 1 -not -path './.config' -not -path './.config/go' -not -path './.config/go/*' | head -n 20)
if [[ -n "$touched" ]]; then
  echo "tests wrote into the home folder instead of their own t.TempDir():"
  echo "$touched"
  bad "go test (a test touched the home folder)"
fi

# --- Frontend ---------------------------------------------------------------------------
check "svelte-check" bash -c 'cd frontend && npx --no-install svelte-check --tsconfig ./tsconfig.json --fail-on-warnings --output human 2>&1 | tail -n 5; exit ${PIPESTATUS[0]}'

section "vitest"
(cd frontend && NO_COLOR=1 npx --no-install vitest run --reporter=default 2>&1) | tee "$out/vitest.log" | grep -v -E '^\s*$'
vt_rc=${PIPESTATUS[0]}
plain() { sed -E 's/\x1b\[[0-9;]*m//g' "$1"; }
vt_pass=$(plain "$out/vitest.log" | grep -E '^\s+Tests\s' | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)
vt_fail=$(plain "$out/vitest.log" | grep -E '^\s+Tests\s' | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || echo 0)
ok vitest "${vt_pass:-0}"
((${vt_fail:-0} > 0)) && bad vitest "$vt_fail"
((vt_rc != 0 && ${vt_fail:-0} == 0)) && bad "vitest (did not run)"

# --- Browser end-to-end against the real Go backend (dev build) --------------------------
section "browser e2e (dev build under Xvfb)"
if go build -tags dev,webkit2_41 -o build/bin/hearth-dev . 2>"$out/devbuild.log" &&
  go build -o build/bin/fakeollama ./backend/internal/fakeollama/cmd/fakeollama 2>>"$out/devbuild.log" &&
  go build -o build/bin/fakenotify ./backend/internal/fakenotify/cmd/fakenotify 2>>"$out/devbuild.log"; then
  HEARTH_DEV_BIN="$root/build/bin/hearth-dev" HEARTH_FAKEOLLAMA_BIN="$root/build/bin/fakeollama" \
    dbus-run-session -- xvfb-run -a node --test --test-concurrency=1 --test-reporter=spec frontend/e2e/ 2>&1 |
    grep --line-buffered -v -E '^(dbus-daemon\[|SpiRegistry daemon)' | tee "$out/e2e.log"
  e2e_rc=${PIPESTATUS[0]}
  e2e_pass=$(plain "$out/e2e.log" | awk '/^ℹ pass [0-9]+$/ { s += $3 } END { print s + 0 }')
  e2e_fail=$(plain "$out/e2e.log" | awk '/^ℹ (fail|cancelled) [0-9]+$/ { s += $3 } END { print s + 0 }')
  echo "browser: ${e2e_pass:-0} passed, ${e2e_fail:-0} failed"
  ok e2e "${e2e_pass:-0}"
  ((${e2e_fail:-0} > 0)) && bad e2e "$e2e_fail"
  ((e2e_rc != 0 && ${e2e_fail:-0} == 0)) && bad "e2e (did not run)"
else
  cat "$out/devbuild.log"
  bad "dev build"
fi
# Wails writes frontend/wailsjs from the bound Go methods in a `bindings` build.
check "committed bindings are current (git diff frontend/wailsjs)" bash -c 'scripts/bindings.sh >/dev/null &&
  git diff --exit-code --stat -- frontend/wailsjs && test -z "$(git status --porcelain -- frontend/wailsjs)" &&
  echo "frontend/wailsjs: up to date"'

# --- Native smoke: the production binary maps its window under Xvfb ----------------------
check "native smoke (production build under Xvfb)" scripts/smoke.sh

# --- Install: the Debian package and make install, each started from its menu entry ------
section "install (make package, dpkg -i, dpkg --purge; make install, make uninstall)"
scripts/install-test.sh 2>&1 | tee "$out/install.log"
in_rc=${PIPESTATUS[0]}
in_pass=$(sed -n 's/^install: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$out/install.log" | tail -n 1)
in_fail=$(sed -n 's/^install: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$out/install.log" | tail -n 1)
ok install "${in_pass:-0}"
((${in_fail:-0} > 0)) && bad install "$in_fail"
((in_rc != 0 && ${in_fail:-0} == 0)) && bad "install (did not finish)"

# The launcher embeds the desktop image the smoke test just built (make desktop).
check "go vet (launcher)" bash -c 'go vet -tags headless,launcher . && echo "go vet -tags headless,launcher: clean"'

section "summary"
((${#failures[@]})) && printf 'failed: %s\n' "${failures[@]}"
echo "logs: $out"
echo "$passed passed, $failed failed"
((failed == 0))
