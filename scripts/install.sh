#!/usr/bin/env bash
# `make install` / `make uninstall`: puts Hearth into the desktop (or takes it out again).
#
#   scripts/install.sh install|uninstall|files
#
# By default for the current user: the binary in ~/.local/bin, the menu entry and icons
# under $XDG_DATA_HOME (~/.local/share), the man pages in ~/.local/share/man (where man
# looks for a program in ~/.local/bin). PREFIX=/usr/local (or any prefix) installs for
# everyone under PREFIX/bin and PREFIX/share, through sudo when the folder is not writable.
# DESTDIR stages the files elsewhere (for packagers). `files` prints the installed paths.
# The systemd user unit (`hearth serve`) goes where the user manager looks for it
# (~/.local/share/systemd/user, PREFIX/lib/systemd/user) and is never enabled here.
set -euo pipefail
cd "$(dirname "$0")/.."

action=${1:-}
bin=build/bin
icons=$bin/icons/hicolor # rendered by `make icons`, one folder a size
man=$bin/man/man1        # written by `make man`

if [[ -n "${PREFIX:-}" ]]; then
  bindir=$PREFIX/bin
  datadir=$PREFIX/share
else
  bindir=$HOME/.local/bin
  datadir=${XDG_DATA_HOME:-$HOME/.local/share}
fi
[[ $bindir == /* && $datadir == /* ]] || {
  echo "install: PREFIX must be an absolute path (got ${PREFIX:-$bindir})" >&2
  exit 2
}
mandir=$(dirname "$bindir")/share/man/man1
dest=${DESTDIR:-}
exe=$bindir/hearth
entry=$datadir/applications/hearth.desktop
if [[ -n "${PREFIX:-}" ]]; then
  unit=$(dirname "$bindir")/lib/systemd/user/hearth.service
else
  unit=$datadir/systemd/user/hearth.service
fi

sizes() { # the icon folders to install: NxN for each rendered size, and scalable
  local d
  for d in "$icons"/*x*/; do [[ -f $d/apps/hearth.png ]] && basename "$d"; done | sort -n
  echo scalable
}
icon_path() { # icon_path SIZE: the installed icon of that size
  if [[ $1 == scalable ]]; then echo "$datadir/icons/hicolor/scalable/apps/hearth.svg"; else echo "$datadir/icons/hicolor/$1/apps/hearth.png"; fi
}

files() { # every path `install` writes, one a line
  local s f
  echo "$exe"
  echo "$entry"
  echo "$unit"
  for s in $(sizes); do icon_path "$s"; done
  for f in "$man"/*.1; do echo "$mandir/$(basename "$f")"; done
}

# sudo only for the copying, and only when the target is not writable: the build and the
# caches stay the user's.
as_owner=()
need_sudo() {
  local d=$1
  while [[ ! -e $d ]]; do d=$(dirname "$d"); done
  [[ ! -w $d ]]
}
if { need_sudo "$dest$bindir" || need_sudo "$dest$datadir"; } && [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || {
    echo "install: $dest$bindir or $dest$datadir is not writable and sudo is missing; run as root" >&2
    exit 1
  }
  echo "install: $dest$datadir needs root: using sudo"
  as_owner=(sudo)
fi
run() { "${as_owner[@]}" "$@"; }

# Exec value per the Desktop Entry spec: an argument with reserved characters goes in
# double quotes with " ` $ \ escaped, % is doubled, and then the whole value is escaped
# as a string (\ doubled).
exec_value() {
  local s=$1
  if [[ $s =~ [[:space:]\"\'\\\<\>~\|\&\;\$\*\?#\(\)\`] ]]; then
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//\`/\\\`}
    s=${s//\$/\\\$}
    s="\"$s\""
  fi
  s=${s//%/%%}
  printf '%s' "${s//\\/\\\\}"
}

# unit_exec PATH: PATH as one word of a systemd ExecStart= line: quoted with \ and "
# escaped when it has a space or a quote, % and $ doubled (specifiers, variables).
unit_exec() {
  local s=$1
  s=${s//%/%%}
  s=${s//\$/\$\$}
  if [[ $s =~ [[:space:]\"\'\\] ]]; then
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s="\"$s\""
  fi
  printf '%s' "$s"
}

# Menus and docks read these caches when they exist; refresh the ones that are there and
# create none (the entry has no MIME types, and menus watch the folders themselves).
refresh_caches() {
  local apps=$dest$datadir/applications hicolor=$dest$datadir/icons/hicolor
  [[ -n $dest ]] && return 0
  if [[ -f $apps/mimeinfo.cache ]] && command -v update-desktop-database >/dev/null; then
    run update-desktop-database -q "$apps" || true
  fi
  if [[ -d $hicolor ]]; then
    run touch "$hicolor" # a newer folder tells GTK its icon cache is stale
    if [[ -f $hicolor/icon-theme.cache || -f $hicolor/index.theme ]] && command -v gtk-update-icon-cache >/dev/null; then
      run gtk-update-icon-cache -q -t -f "$hicolor" || true
    fi
  fi
}

do_install() {
  local missing=() f s
  for f in "$bin/hearth" build/linux/hearth.desktop build/linux/hearth.service build/icon.svg; do [[ -f $f ]] || missing+=("$f"); done
  [[ $(sizes) == scalable ]] && missing+=("$icons/NxN/apps/hearth.png")
  [[ -f $man/hearth.1 ]] || missing+=("$man/hearth.1")
  if ((${#missing[@]})); then
    echo "install: missing ${missing[*]}; run \`make install\` (it builds them first)" >&2
    exit 1
  fi
  [[ $exe != *$'\n'* ]] || {
    echo "install: the path $exe contains a line break" >&2
    exit 2
  }
  tmp=$(mktemp --suffix=.desktop)
  trap 'rm -f "$tmp"' EXIT
  local tryexec=${exe//\\/\\\\}
  sed -e "s|^Exec=.*|Exec=$(exec_value "$exe" | sed 's/[|&\\]/\\&/g')|" \
    -e "s|^TryExec=.*|TryExec=$(printf '%s' "$tryexec" | sed 's/[|&\\]/\\&/g')|" \
    build/linux/hearth.desktop >"$tmp"
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$tmp" || {
      echo "install: the menu entry for $exe is not valid (see above)" >&2
      exit 1
    }
  fi

  tmpunit=$(mktemp --suffix=.service)
  trap 'rm -f "$tmp" "$tmpunit"' EXIT
  sed -e "s|^ExecStart=.*|ExecStart=$(unit_exec "$exe" | sed 's/[|&\\]/\\&/g') serve|" build/linux/hearth.service >"$tmpunit"

  run install -D -m 0755 "$bin/hearth" "$dest$exe"
  run install -D -m 0644 "$tmp" "$dest$entry"
  run install -D -m 0644 "$tmpunit" "$dest$unit"
  for s in $(sizes); do
    if [[ $s == scalable ]]; then f=build/icon.svg; else f=$icons/$s/apps/hearth.png; fi
    run install -D -m 0644 "$f" "$dest$(icon_path "$s")"
  done
  for f in "$man"/*.1; do run install -D -m 0644 "$f" "$dest$mandir/$(basename "$f")"; done
  refresh_caches

  echo "Installed Hearth: $exe"
  echo "  menu entry $entry, icons in $datadir/icons/hicolor, man pages in $mandir"
  echo "  Start it from your applications menu (search \"Hearth\"), or run $exe."
  echo "  Headless (a home server): the user service $unit is installed, not enabled:"
  echo "  systemctl --user enable --now hearth"
  if [[ -z $dest && -z ${PREFIX:-} && ":$PATH:" != *":$bindir:"* ]]; then
    echo "  $bindir is not on your PATH: add it to run \`hearth\` from a terminal."
  fi
}

do_uninstall() {
  local f d
  # Every hearth icon in the theme, whichever sizes the installing build had.
  for f in "$dest$exe" "$dest$entry" "$dest$unit" "$dest$datadir"/icons/hicolor/*/apps/hearth.{png,svg} \
    "$dest$mandir"/hearth.1 "$dest$mandir"/hearth-*.1; do
    [[ -e $f || -L $f ]] || continue
    run rm -f "$f"
    # The folders install made, when nothing else is left in them.
    d=$(dirname "$f")
    case $f in
    */icons/hicolor/*) run rmdir "$d" "$(dirname "$d")" 2>/dev/null || true ;;
    */man/man1/*) run rmdir "$d" 2>/dev/null || true ;;
    */systemd/user/*) run rmdir "$d" "$(dirname "$d")" 2>/dev/null || true ;;
    esac
  done
  refresh_caches
  if [[ -z $dest ]]; then
    # The user's own leftovers of this install: the autostart entry Hearth wrote for this
    # binary (ui.launchAtLogin), the unpacked desktop app and WebKit's cache. Settings,
    # chats and memory stay.
    local autostart=${XDG_CONFIG_HOME:-$HOME/.config}/autostart/hearth.desktop
    if [[ -f $autostart ]] && grep -q '^X-Hearth-Autostart=true' "$autostart" &&
      grep -qxF "TryExec=$exe" "$autostart"; then
      rm -f "$autostart"
      echo "  removed the launch-at-login entry $autostart"
    fi
    # The service, when the user enabled it: stopped and disabled, so no link is left
    # pointing at the removed unit.
    local wants=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/default.target.wants/hearth.service
    if [[ -L $wants ]]; then
      timeout 10 systemctl --user disable --now hearth >/dev/null 2>&1 || true
      rm -f "$wants"
      echo "  stopped and disabled the user service hearth"
    fi
    local cache=${XDG_CACHE_HOME:-$HOME/.cache}/hearth
    # WebKit keeps its HTTP cache in WebKitCache and, once a page opens the Cache API
    # storage, a salt in CacheStorage.
    rm -rf "$cache/desktop" "$cache/WebKitCache" "$cache/CacheStorage"
    rmdir "$cache" 2>/dev/null || true
  fi
  echo "Uninstalled Hearth from $bindir, $datadir and $mandir (settings, chats and memory are kept)."
}

case $action in
install) do_install ;;
uninstall) do_uninstall ;;
files) files ;;
*)
  echo "usage: scripts/install.sh install|uninstall|files (PREFIX=..., DESTDIR=...)" >&2
  exit 2
  ;;
esac
