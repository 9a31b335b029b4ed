#!/usr/bin/env bash
# Install test (a layer of make test): Hearth goes into the desktop and out again, twice.
#  1. `make package`: lintian finds no error or warning; the package installs (dpkg -i,
#     apt-get -f install when its Depends are missing); the installed menu entry is valid, and Hearth started
#     from it (gio launch, GLib's own reading of the Exec line) maps its window, with the
#     WM class the entry names and its launch-at-login entry naming /usr/bin/hearth;
#     `dpkg --purge` leaves none of its files. Needs root or passwordless sudo, else skips.
#  2. `make install` / `make uninstall` into a temporary HOME: the same checks, and
#     PREFIX= puts the same files under a prefix.
# Both install the systemd user unit for `hearth serve`, starting the installed program,
# and neither enables it (unit_ok).
# Ends with "install: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" != --inside ]]; then
  dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" "$0" --inside 2>&1 |
    grep --line-buffered -v -E '^(dbus-daemon\[|SpiRegistry daemon)'
  exit "${PIPESTATUS[0]}"
fi

root=$(pwd)
passed=0 failed=0 skipped=0
pass() {
  passed=$((passed + 1))
  echo "install: ok: $* [${SECONDS} s]"
}
fail() {
  failed=$((failed + 1))
  echo "install: FAIL: $* [${SECONDS} s]"
}
skip() {
  skipped=$((skipped + 1))
  echo "install: skipped: $*"
}
check() { # check DESCRIPTION CMD...: one counted step
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

tmp=$(mktemp -d /tmp/hearth-install.XXXXXX)
chmod 755 "$tmp" # apt reads the package as its own user
app_pid=""
installed_deb=""
lintian_pid=""
sudo=()
mandb_flag=/var/lib/man-db/auto-update
mandb_paused=""
cleanup() {
  [[ -n $app_pid ]] && kill -KILL "$app_pid" 2>/dev/null
  [[ -n $lintian_pid ]] && kill "$lintian_pid" 2>/dev/null
  # Never leave the package on the machine, whatever failed above.
  [[ -n $installed_deb ]] && "${sudo[@]}" dpkg --purge hearth >/dev/null 2>&1
  [[ -n $mandb_paused ]] && "${sudo[@]}" touch "$mandb_flag"
  [[ -d $tmp/home/.local/bin ]] && HOME=$tmp/home XDG_DATA_HOME=$tmp/home/.local/share scripts/install.sh uninstall >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

# The tests' homes must not take the Go build cache with them (a cold cache rebuilds
# everything): keep the machine's.
export GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOPATH="$(go env GOPATH)"
export OLLAMA_HOST=127.0.0.1:9 # nothing listens: the window must open all the same

use_home() { # use_home DIR: HOME and every XDG folder in DIR, launch at login on
  export HOME=$1 XDG_CONFIG_HOME=$1/.config XDG_DATA_HOME=$1/.local/share XDG_STATE_HOME=$1/.local/state \
    XDG_CACHE_HOME=$1/.cache
  mkdir -p "$XDG_CONFIG_HOME/hearth"
  printf '{"ui": {"launchAtLogin": true}}\n' >"$XDG_CONFIG_HOME/hearth/config.json"
}

field() { sed -n "s/^$1=//p" "$2" | head -n 1; } # field KEY FILE: a desktop entry value

# launch ENTRY EXE: start Hearth from the menu entry as a desktop does (GLib parses Exec),
# wait for its window, and check it is EXE's, grouped under the entry's StartupWMClass,
# and that launch at login names EXE. Stops it again (SIGTERM, as a logout does).
launch() {
  local entry=$1 exe=$2 wid="" t0 cls want autostart
  gio launch "$entry" >"$HOME/launch.log" 2>&1 || {
    fail "gio launch $entry: $(cat "$HOME/launch.log")"
    return
  }
  t0=$(date +%s)
  # One X connection that waits (see scripts/smoke.sh start: polling clients can make
  # Xvfb refuse the app's own connection on a loaded machine).
  # xdotool exits at once on an X error (a window of the last run destroyed while it reads
  # it), so it is started again until the deadline.
  local deadline=$((SECONDS + 30))
  while [[ -z $wid ]] && ((SECONDS < deadline)); do
    wid=$(timeout $((deadline - SECONDS)) xdotool search --sync --onlyvisible --name '^Hearth$' 2>/dev/null | head -n 1) || sleep 0.2
  done
  if [[ -z $wid ]]; then
    fail "no window titled Hearth within 30 s of launching $entry"
    return
  fi
  app_pid=$(xdotool getwindowpid "$wid")
  pass "started from the menu entry, the window mapped ($(($(date +%s) - t0)) s)"
  if tr '\0' '\n' <"/proc/$app_pid/environ" | grep -qxF "HEARTH_LAUNCHER=$exe"; then
    pass "the window is the installed $exe's"
  else
    fail "the window was not started by $exe: $(tr '\0' '\n' <"/proc/$app_pid/environ" | grep HEARTH_LAUNCHER)"
  fi
  cls=$(xprop -id "$wid" WM_CLASS | sed -n 's/.*= "[^"]*", "\([^"]*\)"$/\1/p')
  want=$(field StartupWMClass "$entry")
  if [[ -n $cls && $cls == "$want" ]]; then
    pass "WM_CLASS class \"$cls\" matches StartupWMClass (docks group the window with its entry)"
  else
    fail "WM_CLASS $(xprop -id "$wid" WM_CLASS), entry's StartupWMClass \"$want\""
  fi
  autostart=$XDG_CONFIG_HOME/autostart/hearth.desktop
  for _ in $(seq 100); do [[ -f $autostart ]] && break; sleep 0.1; done
  if [[ $(field Exec "$autostart") == "$exe --hidden" && $(field TryExec "$autostart") == "$exe" ]]; then
    pass "launch at login starts $exe"
  else
    fail "launch-at-login entry: $(cat "$autostart" 2>&1)"
  fi
  kill -TERM "$app_pid"
  for _ in $(seq 100); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$app_pid" 2>/dev/null; then
    fail "Hearth still running 10 s after SIGTERM"
    kill -KILL "$app_pid"
  fi
  app_pid=""
}

# unit_ok UNIT EXE WANTS: the user unit starts `EXE serve`, restarts on failure, and is
# not enabled (no link in WANTS, the default.target.wants folder it would be enabled in).
unit_ok() {
  local unit=$1 exe=$2 wants=$3
  [[ -f $unit ]] || { echo "missing $unit"; return 1; }
  [[ $(sed -n 's/^ExecStart=//p' "$unit") == "$exe serve" ]] || { echo "ExecStart: $(grep ExecStart "$unit")"; return 1; }
  grep -qx 'Restart=on-failure' "$unit" || { echo "no Restart=on-failure in $unit"; return 1; }
  [[ ! -e $wants/hearth.service && ! -L $wants/hearth.service ]] || { echo "enabled: $wants/hearth.service"; return 1; }
  # Not `| grep -q`: grep leaving at the first match can kill the writer with SIGPIPE,
  # which pipefail counts as a failure.
  [[ $("$exe" serve --help) == *'systemctl --user enable --now hearth'* ]] || { echo "hearth serve --help does not say how to enable it"; return 1; }
}

# gone FILE...: none of the files exists any more
gone() {
  local f left=()
  for f in "$@"; do [[ -e $f || -L $f ]] && left+=("$f"); done
  ((${#left[@]} == 0)) || {
    echo "left behind: ${left[*]}"
    return 1
  }
}

# --- 1. The Debian package ----------------------------------------------------------------
echo "install: make package"
if make --no-print-directory package >"$tmp/package.log" 2>&1; then
  deb=$(tail -n 1 "$tmp/package.log")
  pass "make package built $(basename "$deb") ($(du -h "$deb" | cut -f1))"
else
  tail -n 30 "$tmp/package.log"
  fail "make package"
  deb=""
fi

if [[ -n $deb ]] && command -v lintian >/dev/null; then
  # Lintian takes half a minute: it runs while the package is tried out.
  lintian --fail-on error,warning --tag-display-limit 0 "$deb" >"$tmp/lintian.log" 2>&1 &
  lintian_pid=$!
elif [[ -n $deb ]]; then
  skip "lintian is not installed (Debian: apt-get install lintian)"
fi

if [[ -n $deb ]]; then
  # The package's files and the ones `make install` writes for PREFIX=/usr must agree.
  check "the package holds what make install puts under PREFIX=/usr" bash -c '
    want=$(PREFIX=/usr scripts/install.sh files | sed "s|^\(/usr/share/man/.*\)$|\1.gz|" | sort)
    have=$(dpkg-deb -c "$1" | awk "{print \$NF}" | sed "s|^\./|/|" | grep -v "/$" | grep -v -E "^/usr/share/(doc|lintian)/" | sort)
    diff <(echo "$want") <(echo "$have")' _ "$deb"
fi

if [[ $(id -u) -ne 0 ]]; then
  if sudo -n true 2>/dev/null; then sudo=(sudo -n); fi
fi
if [[ -z $deb ]]; then
  skip "installing the package: it was not built"
elif [[ $(id -u) -ne 0 && ${#sudo[@]} -eq 0 ]]; then
  skip "installing the package needs root or passwordless sudo (CI runs as root); try: sudo apt-get install ./$(basename "$deb")"
elif dpkg-query -W -f '${Status}' hearth 2>/dev/null | grep -q ' installed'; then
  skip "installing the package: a hearth package is already installed here, and this test does not replace it"
else
  cp "$deb" "$tmp/" && chmod 644 "$tmp/$(basename "$deb")"
  # man-db's trigger re-indexes every man page on the machine at each install and removal
  # (15 s each on a busy machine): paused while this test installs and removes, restored
  # after (and by the exit trap).
  if [[ -e $mandb_flag ]] && "${sudo[@]}" rm -f "$mandb_flag"; then mandb_paused=yes; fi
  installed_deb=yes
  # dpkg -i checks the Depends against the installed packages; when some are missing, apt
  # installs them (apt-get -f install), as `apt-get install ./hearth_*.deb` would.
  pkg=$tmp/$(basename "$deb")
  if "${sudo[@]}" dpkg -i "$pkg" >"$tmp/apt.log" 2>&1; then
    pass "dpkg -i $(basename "$deb") (its Depends are met)"
  elif DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -f install -y -q --no-install-recommends >>"$tmp/apt.log" 2>&1; then
    pass "dpkg -i $(basename "$deb"), then apt-get -f install brought its Depends"
  else
    tail -n 20 "$tmp/apt.log"
    fail "installing $(basename "$deb")"
  fi
  mapfile -t pkg_files < <(dpkg-query -L hearth 2>/dev/null | while read -r f; do [[ -f $f ]] && echo "$f"; done)
  entry=/usr/share/applications/hearth.desktop
  check "the package installed /usr/bin/hearth, its menu entry, icons 16…512 and scalable, man pages (${#pkg_files[@]} files)" \
    bash -c 'for f in /usr/bin/hearth '"$entry"' /usr/share/man/man1/hearth.1.gz /usr/share/icons/hicolor/scalable/apps/hearth.svg; do
        [[ -f $f ]] || { echo "missing $f"; exit 1; }; done
      for s in 16 22 24 32 48 64 128 256 512; do
        f=/usr/share/icons/hicolor/${s}x$s/apps/hearth.png
        [[ $(/usr/bin/identify -format %wx%h "$f" 2>&1) == ${s}x$s ]] || { echo "$f: not a ${s}x$s PNG"; exit 1; }; done'
  check "desktop-file-validate $entry" desktop-file-validate "$entry"
  check "the package installed the user unit for hearth serve, not enabled" \
    unit_ok /usr/lib/systemd/user/hearth.service /usr/bin/hearth /etc/systemd/user/default.target.wants
  check "the menu entry starts /usr/bin/hearth (Exec, TryExec)" \
    test "$(field Exec "$entry")" == /usr/bin/hearth -a "$(field TryExec "$entry")" == /usr/bin/hearth
  use_home "$tmp/deb-home"
  launch "$entry" /usr/bin/hearth

  if "${sudo[@]}" dpkg --purge hearth >"$tmp/dpkg.log" 2>&1; then
    installed_deb=""
    pass "dpkg --purge hearth"
  else
    cat "$tmp/dpkg.log"
    fail "dpkg --purge hearth"
  fi
  [[ -n $mandb_paused ]] && "${sudo[@]}" touch "$mandb_flag" && mandb_paused=""
  check "nothing of the package is left (${#pkg_files[@]} files, the menu entry, the icons)" \
    gone "${pkg_files[@]}" "$entry" /usr/share/icons/hicolor/*/apps/hearth.* /usr/share/man/man1/hearth*.1.gz \
    /usr/lib/systemd/user/hearth.service
  check "dpkg no longer knows hearth" bash -c '! dpkg-query -W -f "\${Status}" hearth 2>/dev/null | grep -q " installed"'
  tryexec=$(field TryExec "$tmp/deb-home/.config/autostart/hearth.desktop")
  check "the launch-at-login entry left in the home is skipped now (its TryExec $tryexec is gone)" \
    test -n "$tryexec" -a ! -e "$tryexec"
fi

# --- 2. make install / make uninstall into a temporary HOME ---------------------------------
use_home "$tmp/home"
{
  exe=$HOME/.local/bin/hearth
  entry=$XDG_DATA_HOME/applications/hearth.desktop
  if make --no-print-directory install >"$tmp/install.log" 2>&1; then
    pass "make install (HOME=$HOME)"
  else
    tail -n 30 "$tmp/install.log"
    fail "make install"
  fi
  mapfile -t files < <(scripts/install.sh files)
  check "make install wrote ${#files[@]} files: $exe, its menu entry, icons, man pages" \
    bash -c 'for f; do [[ -f $f ]] || { echo "missing $f"; exit 1; }; done' _ "${files[@]}"
  check "desktop-file-validate $entry" desktop-file-validate "$entry"
  check "the menu entry starts $exe" test "$(field Exec "$entry")" == "$exe"
  check "make install installed the user unit for hearth serve, not enabled" \
    unit_ok "$XDG_DATA_HOME/systemd/user/hearth.service" "$exe" "$XDG_CONFIG_HOME/systemd/user/default.target.wants"
  launch "$entry" "$exe"
  if make --no-print-directory uninstall >"$tmp/uninstall.log" 2>&1; then
    pass "make uninstall"
  else
    cat "$tmp/uninstall.log"
    fail "make uninstall"
  fi
  check "nothing of it is left: its files, the launch-at-login entry, the unpacked app, WebKit's cache" \
    gone "${files[@]}" "$XDG_CONFIG_HOME/autostart/hearth.desktop" "$XDG_CACHE_HOME/hearth"
  check "only settings and data stay (nothing else in ~/.local, ~/.cache/hearth, ~/.config/autostart)" bash -c '
    left=$(find "$HOME/.local" "$XDG_CACHE_HOME/hearth" "$XDG_CONFIG_HOME/autostart" -type f 2>/dev/null |
      grep -v -E "^$HOME/\.local/(share|state)/hearth/")
    [[ -z $left ]] || { echo "left: $left"; exit 1; }'

  # PREFIX: the same files under PREFIX/bin and PREFIX/share (here a writable folder).
  prefix=$tmp/prefix
  if PREFIX=$prefix scripts/install.sh install >"$tmp/prefix.log" 2>&1 &&
    [[ $(field Exec "$prefix/share/applications/hearth.desktop") == "$prefix/bin/hearth" ]] &&
    [[ -f $prefix/share/man/man1/hearth.1 ]] && [[ -f $prefix/lib/systemd/user/hearth.service ]] && desktop-file-validate "$prefix/share/applications/hearth.desktop" &&
    PREFIX=$prefix scripts/install.sh uninstall >>"$tmp/prefix.log" 2>&1 &&
    [[ -z $(find "$prefix" -type f) ]]; then
    pass "PREFIX=$prefix: installed under PREFIX/bin and PREFIX/share, uninstalled without a trace"
  else
    cat "$tmp/prefix.log"
    find "$prefix" -type f
    fail "PREFIX install/uninstall"
  fi
}

if [[ -n $lintian_pid ]]; then
  if wait "$lintian_pid"; then
    pass "lintian: no errors or warnings"
  else
    grep -v '^running with root' "$tmp/lintian.log"
    fail "lintian $(basename "$deb")"
  fi
  lintian_pid=""
fi

echo "install: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
