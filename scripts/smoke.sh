#!/usr/bin/env bash
# Native smoke test: the production binary under Xvfb opens its window, hands a second
# launch over to the first, remembers its size across a restart, and starts on defaults
# with a broken config.json that it leaves untouched. Screenshots go to build/smoke/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" != --inside ]]; then
  make --no-print-directory desktop >/dev/null
  # dbus-daemon and the accessibility bus chatter on stderr at every start; keep the log readable.
  dbus-run-session -- xvfb-run -a -s "-screen 0 1400x900x24" "$0" --inside 2>&1 |
    grep --line-buffered -v -E '^(dbus-daemon\[|SpiRegistry daemon)'
  exit "${PIPESTATUS[0]}"
fi

bin=$(pwd)/build/bin/hearth
shots=build/smoke
mkdir -p "$shots"
home=$(mktemp -d /tmp/hearth-smoke.XXXXXX)
export HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data XDG_STATE_HOME=$home/state
export OLLAMA_HOST=127.0.0.1:9 # nothing listens: the footer must say so, not hang
pid=""
steps=0
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$home"; }
trap cleanup EXIT

fail() {
  echo "smoke: FAIL: $*" >&2
  [[ -f "$home/app.log" ]] && tail -n 20 "$home/app.log" >&2
  exit 1
}
pass() {
  steps=$((steps + 1))
  echo "smoke: ok: $*"
}

start() { # start [VAR=value...]: launch the app and wait for its window
  env "$@" "$bin" >"$home/app.log" 2>&1 &
  pid=$!
  local t0 t1
  t0=$(date +%s%N)
  wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Hearth$' | head -n 1) || fail "no window titled Hearth within 30 s"
  t1=$(date +%s%N)
  mapped_ms=$(((t1 - t0) / 1000000))
}
stop() { # SIGTERM (what a logout sends) must end the app cleanly within 10 s
  kill -TERM "$pid"
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    fail "app still running 10 s after SIGTERM"
  fi
  wait "$pid" || fail "app exited with status $? after SIGTERM"
  pid=""
}
geometry() { xdotool getwindowgeometry "$wid" | sed -n 's/.*Geometry: //p'; }
shot() {
  # WebKit paints after the window maps; on a loaded machine that can take seconds, so
  # poll for a painted window (a blank one is one flat colour; the shell has text and an
  # icon) for up to 20 s instead of guessing a delay.
  local colours=0 tries=0
  while ((tries < 40)); do
    sleep 0.5
    import -window root "$1"
    colours=$(/usr/bin/identify -format '%k' "$1")
    ((colours > 64)) && return 0
    tries=$((tries + 1))
  done
  fail "screenshot $1 looks blank ($colours colours after 20 s)"
}

start
pass "window mapped in ${mapped_ms} ms"
[[ $(geometry) == 1100x720 ]] || fail "first launch size $(geometry), want 1100x720"
pass "default size 1100x720"
shot "$shots/window.png"
pass "screenshot $shots/window.png"

"$bin" >"$home/second.log" 2>&1 || fail "second launch exited $?: $(cat "$home/second.log")"
grep -q "already running" "$home/second.log" || fail "second launch did not hand over: $(cat "$home/second.log")"
(($(xdotool search --onlyvisible --name '^Hearth$' | wc -l) == 1)) || fail "a second window opened"
pass "second launch focused the first and exited"

xdotool windowsize "$wid" 900 600
sleep 0.5
stop
grep -q '"width": 900' "$XDG_STATE_HOME/hearth/window.json" || fail "window.json did not keep the size: $(cat "$XDG_STATE_HOME/hearth/window.json")"
start
[[ $(geometry) == 900x600 ]] || fail "restart size $(geometry), want 900x600"
stop
pass "window size remembered across a restart"

# Dark theme follows the desktop: GTK's dark preference reaches the page as
# prefers-color-scheme. Sample the middle of the window: it must be dark.
GTK_THEME=Adwaita:dark start
shot "$shots/dark.png"
read -r x y < <(xdotool getwindowgeometry "$wid" | sed -n 's/.*Position: \([0-9]*\),\([0-9]*\).*/\1 \2/p')
read -r w h < <(geometry | tr x ' ')
pixel=$(/usr/bin/convert "$shots/dark.png" -crop "1x1+$((x + w / 2))+$((y + h / 3))" -format '%[fx:int(255*luminance)]' info:)
stop
((pixel < 80)) || fail "dark desktop theme: window middle has luminance $pixel, want a dark background"
pass "dark desktop theme gives a dark window (luminance $pixel)"

mkdir -p "$XDG_CONFIG_HOME/hearth"
printf '{\n  "agents": {\n    "defaults": {"model": "ollama/qwen3:4b",}\n  }\n}\n' >"$XDG_CONFIG_HOME/hearth/config.json"
before=$(sha256sum "$XDG_CONFIG_HOME/hearth/config.json")
start
shot "$shots/broken-config.png"
stop
[[ $(sha256sum "$XDG_CONFIG_HOME/hearth/config.json") == "$before" ]] || fail "broken config.json was rewritten"
pass "broken config: started on defaults, file untouched"

echo "smoke: $steps passed, 0 failed"
