# Developer entry points: each target bootstraps .venv itself (idempotent, stamp-guarded).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
# HOST=0.0.0.0 lets the phones on the same Wi-Fi reach it (set SECRET_KEY first).
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed
FLASK := $(BIN)/flask --app scorekeeper

.PHONY: run test lint format venv chromium

venv: $(STAMP)

# Re-install only when pyproject.toml changes; the test extra is small enough to always include.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test]'
	touch $@

run: $(STAMP)
	$(FLASK) db upgrade
	$(FLASK) run --host $(HOST) --port $(PORT)

# Debian's Chromium drives the browser tests; Playwright's own download is blocked here.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y chromium; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: $(STAMP) chromium lint
	$(BIN)/pytest -q

# Performance benchmark (bench/README.md): BENCH_ARGS=--quick for a short run.
.PHONY: bench
bench: $(STAMP)
	$(BIN)/python bench/run.py $(BENCH_ARGS)
