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

.PHONY: run test bench deps deps-test frontend desktop headless dev clean bindings

## run: install what is missing, build the desktop app, start it
run: deps desktop
	./$(BIN)/hearth

## test: install what is missing, run every test layer, print one summary line
test: deps-test
	scripts/test.sh

## bench: start-up benchmarks (hearth version; window mapped) and the streaming UI benchmark, not part of make test
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
	gzip -6 -n -c $(BIN)/hearth-desktop > $(BIN)/hearth-desktop.gz
	go build -tags headless,launcher -trimpath -ldflags "-w -s $(LDFLAGS)" -o $(BIN)/hearth .

## headless: CLI-only binary, no GTK/WebKit
headless:
	go build -tags headless -trimpath -ldflags "-w -s $(LDFLAGS)" -o $(BIN)/hearth-headless .

## dev: the app with Wails' dev server on :34115 (browser tests)
dev: frontend
	go build -tags dev,$(WEBKIT) -ldflags "$(LDFLAGS)" -o $(BIN)/hearth-dev .

clean:
	rm -rf $(BIN) frontend/dist/assets frontend/dist/index.html

## bindings: regenerate frontend/wailsjs after changing app.go
bindings:
	scripts/bindings.sh
