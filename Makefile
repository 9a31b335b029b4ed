# The two commands: `make run` and `make test`. Both install what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := run

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
BIN     := build/bin
# WebKitGTK 4.1 (libsoup 3): the only WebKitGTK API Debian 13 and Ubuntu 24.04 still ship
# headers for, and packaged on Debian 12 and Ubuntu 22.04 too. Without this tag Wails
# builds against 4.0.
WEBKIT  := webkit2_41

FRONTEND_SRC := $(shell find frontend/src frontend/public frontend/wailsjs -type f 2>/dev/null) \
	frontend/index.html frontend/vite.config.ts frontend/package-lock.json

.PHONY: run test fuzz bench deps deps-test frontend desktop headless dev clean bindings icons man install uninstall package FORCE

# Icon sizes for the hicolor theme (the menu, docks, the window switcher), rendered from
# build/icon.svg; the SVG itself is installed as the scalable icon.
ICON_SIZES := 16 22 24 32 48 64 128 256 512
ICONS      := $(foreach s,$(ICON_SIZES),$(BIN)/icons/hicolor/$(s)x$(s)/apps/hearth.png)
MAN_SRC    := $(shell find backend/cli -name '*.go' -not -name '*_test.go') scripts/manpage/main.go

## run: install what is missing, build the desktop app, start it
run: deps desktop
	./$(BIN)/hearth

## test: install what is missing, run every test layer, print one summary line
test: deps-test
	scripts/test.sh

## fuzz: every fuzz target of the parsers, 30 times the executions make test gives each (~1 min)
fuzz:
	FUZZSCALE=30 scripts/fuzz.sh

## bench: every speed and memory figure with its target (start-up, agent turns, the window at
## rest, streaming, opening chats); not part of make test. See docs/performance.md.
bench: deps-test desktop headless
	scripts/bench.sh

deps:
	@scripts/deps.sh run

deps-test:
	@scripts/deps.sh test

frontend: frontend/dist/index.html

frontend/dist/index.html: $(FRONTEND_SRC)
	cd frontend && npm run build --silent

## desktop: the app users run, $(BIN)/hearth: the CLI-only build carrying the desktop
## image (what `wails build -tags webkit2_41` makes, also left as $(BIN)/hearth-desktop),
## so commands start without loading GTK/WebKit; see backend/launch.
desktop: frontend
	go build -tags desktop,production,$(WEBKIT) -trimpath -ldflags "-w -s $(LDFLAGS)" -o $(BIN)/hearth-desktop .
	@# go build leaves an up-to-date binary alone: compress only a new one
	[ $(BIN)/hearth-desktop.gz -nt $(BIN)/hearth-desktop ] || gzip -6 -n -c $(BIN)/hearth-desktop > $(BIN)/hearth-desktop.gz
	go build -tags headless,launcher -trimpath -ldflags "-w -s $(LDFLAGS)" -o $(BIN)/hearth .

## headless: CLI-only binary, no GTK/WebKit
headless:
	go build -tags headless -trimpath -ldflags "-w -s $(LDFLAGS)" -o $(BIN)/hearth-headless .

## dev: the app with Wails' dev server on :34115 (browser tests)
dev: frontend
	go build -tags dev,$(WEBKIT) -ldflags "$(LDFLAGS)" -o $(BIN)/hearth-dev .

icons: $(ICONS)

$(BIN)/icons/hicolor/%/apps/hearth.png: build/icon.svg
	@mkdir -p $(@D)
	rsvg-convert -w $(word 1,$(subst x, ,$*)) -h $(word 2,$(subst x, ,$*)) -o $@ $<

## man: the man pages of the command line (hearth.1, hearth-status.1, ...)
man: $(BIN)/man/man1/hearth.1

$(BIN)/man/man1/hearth.1: $(MAN_SRC) $(BIN)/version.txt
	rm -rf $(BIN)/man/man1
	go run ./scripts/manpage -out $(BIN)/man/man1 -version "$(VERSION)" -date "$(shell git log -1 --format=%ct 2>/dev/null || echo 0)"

# Rewritten only when VERSION changes, so the files that name the version follow it.
$(BIN)/version.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

## install: put Hearth into the applications menu for you (~/.local/bin, ~/.local/share);
## PREFIX=/usr/local for everyone (asks for sudo). See docs/install.md.
install: deps desktop icons man
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh install

## uninstall: take it out again (the same PREFIX); settings, chats and memory stay
uninstall:
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh uninstall

## package: a Debian package of the same files under /usr, $(BIN)/hearth_<version>_amd64.deb
## (MAINTAINER="Name <mail>" sets its Maintainer field)
package: deps desktop icons man
	go -C scripts/package run . -root "$(CURDIR)" -describe "$(VERSION)" \
		-commits "$(shell git rev-list --count HEAD 2>/dev/null || echo 0)" -out "$(CURDIR)/$(BIN)" \
		$(if $(MAINTAINER),-maintainer "$(MAINTAINER)")

clean:
	rm -rf $(BIN) frontend/dist/assets frontend/dist/index.html

## bindings: regenerate frontend/wailsjs after changing app.go
bindings:
	scripts/bindings.sh
