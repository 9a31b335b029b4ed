#!/usr/bin/env bash
# Native smoke test: the production binary under Xvfb opens its window, hands a second
# launch over to the first, remembers its size across a restart, and starts on defaults
# with a broken config.json that it leaves untouched; then, with a StatusNotifier host, the
# tray (menu, Open, Pause, Quit over D-Bus), close to tray, a reminder due in 3 s that
# notifies (seen on the bus), lands in its chat and opens it on click, Quick ask answering
# in a small box, a running reminder listed with Stop that Stop ends, and the zh-CN menu.
# Screenshots go to build/smoke/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" != --inside ]]; then
  make --no-print-directory desktop >/dev/null
  # Stand-ins for the tray test: a fake Ollama and a fake notification daemon.
  go build -o build/bin/fakeollama ./backend/internal/fakeollama/cmd/fakeollama
  # Its own name: the browser tests build the same daemon as build/bin/fakenotify, and
  # running the smoke must not replace it under them.
  go build -o build/bin/fakenotify-log ./backend/internal/fakenotify/cmd/fakenotify
  go build -o build/bin/fakemcp ./backend/internal/fakemcp
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
helpers=()
cleanup() {
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null
  for h in "${helpers[@]}"; do kill "$h" 2>/dev/null; done
  rm -rf "$home"
}
trap cleanup EXIT

fail() {
  echo "smoke: FAIL: $*" >&2
  [[ -f "$home/app.log" ]] && tail -n 60 "$home/app.log" >&2
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
  # One X connection that waits for the window (xdotool --sync looks every 500 ms).
  # Polling with a new xdotool client every few milliseconds made Xvfb refuse the app's
  # own connection about once in 150 launches ("failed to init GTK") on a loaded machine;
  # the startup benchmark, not this test, measures the time to the window precisely.
  # xdotool exits at once on an X error (a window of the previous run destroyed while it
  # reads it), so it is started again until the deadline.
  local deadline=$((SECONDS + 30))
  wid=""
  while [[ -z $wid ]] && ((SECONDS < deadline)); do
    wid=$(timeout $((deadline - SECONDS)) xdotool search --sync --onlyvisible --name '^Hearth$' 2>/dev/null | head -n 1) || sleep 0.2
  done
  [[ -n $wid ]] || fail "no window titled Hearth within 30 s"
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

# `hearth` is the CLI-only launcher (backend/launch): it must not link the toolkit, and
# the window comes from the desktop image it unpacks into the cache and runs in its place.
if ldd "$bin" | grep -q -E 'libgtk|libwebkit'; then fail "build/bin/hearth links GTK/WebKit"; fi
pass "hearth links no GTK or WebKit"

start
pass "window mapped in ${mapped_ms} ms"
image=$(readlink "/proc/$pid/exe")
[[ $image == "$HOME/.cache/hearth/desktop/"*/hearth ]] || fail "the window runs from $image, not the unpacked image"
tr '\0' '\n' <"/proc/$pid/environ" | grep -qx "HEARTH_LAUNCHER=$bin" ||
  fail "the desktop image was not told its launcher"
pass "the launcher ran the desktop image in its place (same process)"
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
# prefers-color-scheme. The window's mean brightness must be dark (a single pixel could
# land on the logo or a heading).
GTK_THEME=Adwaita:dark start
shot "$shots/dark.png"
read -r x y < <(xdotool getwindowgeometry "$wid" | sed -n 's/.*Position: \([0-9]*\),\([0-9]*\).*/\1 \2/p')
read -r w h < <(geometry | tr x ' ')
pixel=$(/usr/bin/convert "$shots/dark.png" -crop "${w}x${h}+${x}+${y}" -colorspace Gray -format '%[fx:int(255*mean)]' info:)
stop
((pixel < 90)) || fail "dark desktop theme: window mean luminance $pixel, want a dark window"
pass "dark desktop theme gives a dark window (mean luminance $pixel)"

mkdir -p "$XDG_CONFIG_HOME/hearth"
printf '{\n  "agents": {\n    "defaults": {"model": "ollama/qwen3:4b",}\n  }\n}\n' >"$XDG_CONFIG_HOME/hearth/config.json"
before=$(sha256sum "$XDG_CONFIG_HOME/hearth/config.json")
start
shot "$shots/broken-config.png"
stop
[[ $(sha256sum "$XDG_CONFIG_HOME/hearth/config.json") == "$before" ]] || fail "broken config.json was rewritten"
pass "broken config: started on defaults, file untouched"

# --- Tray, close to tray, reminders and notifications (docs/design/background.md) ---
# A StatusNotifier host (gtk-sni-tray-standalone), a fake notification daemon that prints
# what it is asked to show, dbus-monitor to see the Notify call on the bus, and a fake
# Ollama for the reminder's turn.
rm -f "$XDG_CONFIG_HOME/hearth/config.json"
waitfor() { # waitfor SECONDS DESCRIPTION COMMAND...: poll until COMMAND succeeds
  local secs=$1 what=$2
  shift 2
  for _ in $(seq $((secs * 10))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "$what (waited ${secs} s)"
}
bus() { gdbus call --session "$@"; }
has_name() { [[ $(bus -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.NameHasOwner "$1") == "(true,)" ]]; }

build/bin/fakeollama -addr 127.0.0.1:0 >"$home/fakeollama.log" 2>&1 &
helpers+=($!)
waitfor 10 "fake Ollama did not start" grep -q listening "$home/fakeollama.log"
ollama_url=$(sed -n 's/.*listening on //p' "$home/fakeollama.log")
build/bin/fakenotify-log >"$home/notify.log" 2>&1 &
helpers+=($!)
waitfor 10 "fake notification daemon did not start" grep -q '^http://' "$home/notify.log"
dbus-monitor --session "interface='org.freedesktop.Notifications',member='Notify'" >"$home/monitor.log" 2>&1 &
helpers+=($!)
gtk-sni-tray-standalone -w >"$home/sni.log" 2>&1 &
helpers+=($!)
waitfor 15 "no StatusNotifier host on the bus" has_name org.kde.StatusNotifierWatcher

start OLLAMA_HOST="$ollama_url"
item="org.kde.StatusNotifierItem-$pid-1"
waitfor 10 "tray item $item not on the bus" has_name "$item"
owner=$(bus -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.GetNameOwner "$item" | sed "s/^('\(.*\)',)$/\1/")
registered() {
  bus -d org.kde.StatusNotifierWatcher -o /StatusNotifierWatcher -m org.freedesktop.DBus.Properties.Get \
    org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems | grep -Eq "($owner|$item)"
}
waitfor 10 "tray item not registered with the StatusNotifier host: $(bus -d org.kde.StatusNotifierWatcher -o /StatusNotifierWatcher -m org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems 2>&1)" registered
pass "tray item registered with the StatusNotifier host"

layout() { bus -d "$item" -o /StatusNotifierItem/menu -m com.canonical.dbusmenu.GetLayout -- 0 -1 '@as []'; }
menu_id() { layout | grep -oP "\(\K[0-9]+(?=, \{[^}]*'label': <'$1)" | head -n 1; }
click() { bus -d "$item" -o /StatusNotifierItem/menu -m com.canonical.dbusmenu.Event "$1" clicked "<''>" 0 >/dev/null; }
menu=$(layout)
for label in "Open Hearth" "New chat" "Quick ask…" "Recent chats" "Next: no reminders" "Nothing running" \
  "Model: ollama/qwen3:4b" "Pause reminders" "Quit"; do
  grep -q "'label': <'$label'>" <<<"$menu" || fail "tray menu lacks \"$label\": $menu"
done
pass "tray menu: Open Hearth, New chat, Quick ask…, Recent chats, Next: no reminders, Nothing running, Model, Pause reminders, Quit"

visible() { xdotool search --onlyvisible --name '^Hearth$' >/dev/null; }
hidden() { ! visible; }
scripts/wmclose.py "$wid"
waitfor 10 "window still visible after its close button" hidden
kill -0 "$pid" 2>/dev/null || fail "app exited on close although ui.closeToTray is on"
pass "closing the window hid it to the tray (app still running)"

click "$(menu_id 'Open Hearth')"
waitfor 10 "tray Open Hearth did not show the window" visible
pass "tray Open Hearth (dbusmenu Event over D-Bus) showed the window"

menu_has() { layout | grep -q "'label': <'$1'>"; }
click "$(menu_id 'Pause reminders')"
waitfor 10 "tray Pause reminders did not switch to Resume" menu_has "Resume reminders"
menu_has "Next: reminders paused" || fail "paused tray does not say so: $(layout)"
click "$(menu_id 'Resume reminders')"
waitfor 10 "tray Resume reminders did not switch back" menu_has "Pause reminders"
pass "tray Pause/Resume reminders over D-Bus"

out=$("$bin" cron add --name smoke-tea --message "Tell me the tea is ready" --at "in 3 seconds") || fail "cron add: $out"
job=$(sed -n 's/^Added reminder \([0-9a-f]*\).*/\1/p' <<<"$out")
waitfor 10 "tray label did not show the new reminder" sh -c "gdbus call --session -d $item -o /StatusNotifierItem/menu -m com.canonical.dbusmenu.GetLayout -- 0 -1 '@as []' | grep -q 'Next: smoke-tea'"
pass "tray shows \"Next: smoke-tea\" after \`hearth cron add\` in another process"
scripts/wmclose.py "$wid"
waitfor 10 "window still visible after its close button" hidden
waitfor 20 "no Notify call for the reminder on the bus" grep -q 'string "smoke-tea"' "$home/monitor.log"
grep -q "smoke-tea: .*Tell me the tea is ready" "$home/notify.log" || fail "notification text: $(cat "$home/notify.log")"
pass "reminder due in 3 s: Notify seen on the bus ($(grep -c 'member=Notify' "$home/monitor.log") call)"
session="$XDG_DATA_HOME/hearth/sessions/cron%3A$job.jsonl"
waitfor 10 "reminder did not land in its chat $session" grep -q "Tell me the tea is ready" "$session"
# The reminder notifies when due, before its turn runs (the notification is the promise),
# so its words reach the chat before the model's answer: wait for the answer too.
waitfor 30 "no answer in the reminder's chat $session" grep -q '"role":"assistant"' "$session"
pass "the reminder's turn landed in its chat cron:$job"

nid=$(sed -n 's/^notify \([0-9]*\) smoke-tea:.*/\1/p' "$home/notify.log" | head -n 1)
gdbus emit --session -o /org/freedesktop/Notifications -s org.freedesktop.Notifications.ActionInvoked "uint32 $nid" "'default'" >/dev/null
waitfor 10 "clicking the notification did not show the window" visible
grep -q "opening its chat.*session=cron:$job" "$home/app.log" || fail "click did not open cron:$job: $(tail -n 5 "$home/app.log")"
pass "clicking the notification opened the window on cron:$job"

# Quick ask: the window becomes a small box on top titled "Hearth — Quick ask", the question
# is answered (fake Ollama) in a new chat, and Esc gives the window back its size.
before=$(geometry)
click "$(menu_id 'Quick ask…')"
quick() { xdotool search --onlyvisible --name '^Hearth — Quick ask$' >/dev/null; }
waitfor 10 "tray Quick ask… did not open the Quick ask box" quick
qwid=$(xdotool search --onlyvisible --name '^Hearth — Quick ask$' | head -n 1)
[[ $qwid == "$wid" ]] || fail "Quick ask opened another window ($qwid, the window is $wid)"
waitfor 10 "the Quick ask box is $(geometry), want 520x400" sh -c "xdotool getwindowgeometry $wid | grep -q 'Geometry: 520x400'"
pass "tray Quick ask… turned the window into a 520x400 box titled \"Hearth — Quick ask\""
sessions="$XDG_DATA_HOME/hearth/sessions"
xdotool windowfocus "$wid"
sleep 0.5
xdotool type --delay 30 "What is the smoke quick question?"
xdotool key Return
answered() { grep -l "What is the smoke quick question" "$sessions"/*.jsonl | xargs grep -l '"role":"assistant"'; }
waitfor 20 "the quick question was not answered in a chat of its own" answered
shot "$shots/quick-ask.png"
pass "Quick ask answered in a new chat $(basename "$(answered)") (screenshot $shots/quick-ask.png)"
waitfor 10 "the tray's Recent chats does not list the quick question" sh -c "gdbus call --session -d $item -o /StatusNotifierItem/menu -m com.canonical.dbusmenu.GetLayout -- 0 -1 '@as []' | grep -q \"'label': <'What is the smoke quick question\""
xdotool key Escape
waitfor 10 "Esc did not end Quick ask" sh -c "xdotool search --onlyvisible --name '^Hearth\$' | grep -q ."
waitfor 10 "after Quick ask the window is $(geometry), want $before" sh -c "xdotool getwindowgeometry $wid | grep -q 'Geometry: $before'"
pass "Esc put the window back as it was ($before, titled Hearth)"

click "$(menu_id 'Quit')"
for _ in $(seq 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "tray Quit did not end the app"
wait "$pid" || fail "app exited with status $? after tray Quit"
pid=""
pass "tray Quit ended the app"

start OLLAMA_HOST="$ollama_url"
item="org.kde.StatusNotifierItem-$pid-1"
waitfor 10 "tray item $item not on the bus" has_name "$item"
sleep 0.5
stop
pass "SIGTERM (logout) quits although ui.closeToTray is on"

# --- The tray shows what runs, and Stop ends it ---------------------------------------------
# A reminder's reply streams slowly: the tray lists it with Stop; clicking Stop ends the run
# (kept as cancelled in its chat), the reminder is done and marked stopped, nothing notifies.
chunks=$(printf '"slow%d ",' $(seq 60))
printf '{"models": [{"name": "qwen3:4b", "contextLength": 40960, "capabilities": ["completion", "tools"]}],
  "replies": [{"chunks": [%s"…"], "delayMs": 500}]}\n' "$chunks" >"$home/stop.json"
build/bin/fakeollama -addr 127.0.0.1:0 -script "$home/stop.json" >"$home/stopollama.log" 2>&1 &
helpers+=($!)
waitfor 10 "fake Ollama for Stop did not start" grep -q listening "$home/stopollama.log"
stop_url=$(sed -n 's/.*listening on //p' "$home/stopollama.log")
start OLLAMA_HOST="$stop_url"
item="org.kde.StatusNotifierItem-$pid-1"
waitfor 10 "tray item $item not on the bus" has_name "$item"
out=$("$bin" cron add --name smoke-slow --message "Tell me a slow story" --at "in 2 seconds") || fail "cron add: $out"
job=$(sed -n 's/^Added reminder \([0-9a-f]*\).*/\1/p' <<<"$out")
waitfor 20 "the tray does not show the running reminder with Stop: $(layout)" menu_has "Stop: reminder “smoke-slow”"
menu_has "Nothing running" && fail "the tray says nothing runs while the reminder does"
pass "the tray shows the running reminder: Stop: reminder “smoke-slow”"
click "$(menu_id 'Stop: reminder')"
waitfor 10 "Stop did not end the run (the tray still lists it): $(layout)" menu_has "Nothing running"
session="$XDG_DATA_HOME/hearth/sessions/cron%3A$job.jsonl"
waitfor 10 "the stopped run is not in its chat as cancelled: $(cat "$session" 2>/dev/null)" grep -q '"status":"cancelled"' "$session"
waitfor 10 "the reminder is not marked stopped" grep -qE '"lastStatus": ?"stopped"' "$XDG_DATA_HOME/hearth/cron/jobs.json"
# The reminder notified when it came due (the notification is the promise); a stopped
# run sends no second, answer notice. A second one would come at once: give it a moment.
sleep 1
n=$(grep -c 'string "smoke-slow"' "$home/monitor.log")
((n == 1)) || fail "a stopped reminder notified $n times, want once (when due): $(grep -A3 'member=Notify' "$home/monitor.log" | tail -n 20)"
pass "tray Stop ended the reminder's run: cancelled in cron:$job, the reminder done and marked stopped, notified once when due, no answer notice"
stop

# --- Quit mid-reply: the same orderly end as the command line's --------------------------
# A stdio MCP server is connected (fakemcp with a helper process of its own, as servers run
# through npx or uvx have) and a reminder's turn is streaming slowly when Quit is clicked in
# the tray: afterwards no process of Hearth's is left, the turn is kept as interrupted (not
# lost), and `hearth agent --continue` finishes it.
fakemcp=$(pwd)/build/bin/fakemcp
mcp_procs() { pgrep -f "^$fakemcp" | wc -l; }
(($(mcp_procs) == 0)) || fail "fakemcp processes left from before: $(pgrep -af "^$fakemcp")"
chunks=$(printf '"word%d ",' $(seq 60))
printf '{"models": [{"name": "qwen3:4b", "contextLength": 40960, "capabilities": ["completion", "tools"]}],
  "replies": [{"chunks": [%s"…"], "delayMs": 500}, {"content": "The end of the story."}]}\n' "$chunks" >"$home/slow.json"
build/bin/fakeollama -addr 127.0.0.1:0 -script "$home/slow.json" >"$home/slowollama.log" 2>&1 &
helpers+=($!)
waitfor 10 "slow fake Ollama did not start" grep -q listening "$home/slowollama.log"
slow_url=$(sed -n 's/.*listening on //p' "$home/slowollama.log")
printf '{"tools": {"mcpServers": {"fake": {"command": "%s", "args": ["-helper"]}}}}\n' "$fakemcp" >"$XDG_CONFIG_HOME/hearth/config.json"
start OLLAMA_HOST="$slow_url"
item="org.kde.StatusNotifierItem-$pid-1"
waitfor 10 "tray item $item not on the bus" has_name "$item"
waitfor 10 "the MCP server and its helper did not start ($(mcp_procs) running)" sh -c "[ \$(pgrep -f '^$fakemcp' | wc -l) -eq 2 ]"
out=$("$bin" cron add --name smoke-story --message "Tell me a long story" --at "in 2 seconds") || fail "cron add: $out"
job=$(sed -n 's/^Added reminder \([0-9a-f]*\).*/\1/p' <<<"$out")
session="$XDG_DATA_HOME/hearth/sessions/cron%3A$job.jsonl"
replying() { curl -s "$slow_url/_fake/chats" | grep -q 'Tell me a long story'; }
waitfor 20 "the reminder's reply did not start" replying
sleep 1 # a few words are out
pass "a reminder's turn is streaming with the MCP server connected"
click "$(menu_id 'Quit')"
for _ in $(seq 150); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "tray Quit mid-reply did not end the app within 15 s"
wait "$pid" || fail "app exited with status $? after tray Quit mid-reply"
pid=""
sleep 0.5
(($(mcp_procs) == 0)) || fail "processes left behind after Quit: $(pgrep -af "^$fakemcp")"
pass "tray Quit mid-reply ended the app and the MCP server's whole process group"
grep -q "Tell me a long story" "$session" || fail "the interrupted turn's question is gone: $(cat "$session")"
grep -q '"type":"run"' "$session" && fail "the turn was closed, not kept as interrupted: $(cat "$session")"
pass "the turn is kept as interrupted in cron:$job"
out=$(OLLAMA_HOST="$slow_url" "$bin" agent -s "cron:$job" --continue 2>"$home/continue.log") || fail "agent --continue: $(cat "$home/continue.log")"
[[ $out == "The end of the story." ]] || fail "agent --continue printed: $out"
grep -q '"status":"ok"' "$session" || fail "the continued run did not finish: $(cat "$session")"
(($(mcp_procs) == 0)) || fail "hearth agent left processes behind: $(pgrep -af "^$fakemcp")"
pass "hearth agent --continue finished the interrupted turn (and ended its MCP server)"

# --- zh-CN: the tray and the window follow the system language --------------------------
# ui.language is "auto": with LANG=zh_CN.UTF-8 the tray menu (worded by Go from
# backend/i18n) is Chinese; frontend/e2e/i18n.test.mjs shows the window in zh-CN.
start OLLAMA_HOST="$ollama_url" LANG=zh_CN.UTF-8 LANGUAGE=zh_CN
item="org.kde.StatusNotifierItem-$pid-1"
waitfor 10 "tray item $item not on the bus" has_name "$item"
for label in "打开 Hearth" "新对话" "快速提问…" "最近的对话" "下一个：没有提醒" "没有正在运行的任务" \
  "模型：ollama/qwen3:4b" "暂停提醒" "退出"; do
  waitfor 10 "zh-CN tray menu lacks \"$label\": $(layout)" menu_has "$label"
done
pass "tray menu in zh-CN: 打开 Hearth, 新对话, 快速提问…, 最近的对话, 下一个：没有提醒, 没有正在运行的任务, 模型, 暂停提醒, 退出"
stop

echo "smoke: $steps passed, 0 failed"
