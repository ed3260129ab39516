# Developer entry points: each target bootstraps .venv itself (idempotent, stamp-guarded).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
# HOST=0.0.0.0 lets the phones on the same Wi-Fi reach it (set SECRET_KEY first).
HOST ?= 127.0.0.1
# gunicorn processes and threads per process (empty: two processes per core, one thread each).
WORKERS ?=
THREADS ?=
STAMP := $(VENV)/.installed
FLASK := $(BIN)/flask --app scorekeeper

.PHONY: run dev test lint format venv chromium axe translations extract compile

# Message catalogues: the translators' .po files are in git, the compiled .mo files are not.
TRANSLATIONS := scorekeeper/translations
CATALOGUES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGUES:.po=.mo)

venv: $(STAMP)

# The venv holds exactly the lock (requirements-test.txt: the app, the test extra and what
# builds the editable install, every version pinned with its hashes). When the lock changes the
# venv is made anew, so nothing the lock no longer names stays behind; tests/test_lock.py fails
# if the installed set ever differs from it.
LOCK := requirements-test.txt
$(STAMP): $(LOCK) pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --require-hashes --no-deps -r $(LOCK)
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $@

# Refresh the lock on purpose (pyproject.toml keeps the ranges): the newest releases the ranges
# allow, for Python 3.11 on any platform. requirements.txt is the app alone (what a server
# installs); requirements-test.txt adds the test extra and the build backend, constrained to the
# same versions. uv resolves (seconds, hashes of every file of a release); it lives in its own
# venv, .lock-tools, so it is never part of the app's. `make lock UPGRADE=` keeps the pins that
# still fit and only resolves what changed.
UV_VERSION := 0.13.9
LOCK_TOOLS := .lock-tools
UPGRADE ?= --upgrade
UV_COMPILE := $(LOCK_TOOLS)/bin/uv pip compile -q --universal --python-version 3.11 \
	--generate-hashes $(UPGRADE)
.PHONY: lock
lock:
	test -x $(LOCK_TOOLS)/bin/uv || \
		($(PYTHON) -m venv $(LOCK_TOOLS) && $(LOCK_TOOLS)/bin/pip install -q 'uv==$(UV_VERSION)')
	$(UV_COMPILE) pyproject.toml -o requirements.txt
	$(UV_COMPILE) pyproject.toml --extra test --extra postgres --group build \
		-c requirements.txt -o $(LOCK)

# Compile each catalogue when its .po is newer than its .mo (fuzzy entries are not served).
compile: $(COMPILED)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/pybabel compile -l $* -i $< -o $@

# Re-extract every wrapped message into messages.pot (templates, Python, the core's N_)...
extract: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k N_ \
		--project scorekeeper --msgid-bugs-address "" \
		-o $(TRANSLATIONS)/messages.pot .

# ...and merge it into every language's catalogue (new messages empty, changed ones fuzzy).
translations: extract
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) --ignore-obsolete

# The production server (gunicorn, gthread workers; settings in gunicorn.conf.py).
run: $(STAMP) compile
	$(FLASK) db upgrade
	HOST=$(HOST) PORT=$(PORT) WORKERS=$(WORKERS) THREADS=$(THREADS) \
		$(BIN)/gunicorn --config gunicorn.conf.py

# Flask's development server: reloads on code changes, shows the debugger. Never on a network.
dev: $(STAMP) compile
	$(FLASK) db upgrade
	$(FLASK) run --debug --host $(HOST) --port $(PORT)

# Debian's Chromium drives the browser tests; Playwright's own download is blocked here.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y chromium; \
	fi

# axe-core (npm, package.json) checks every page's accessibility in the browser tests.
axe: node_modules/axe-core/axe.min.js

node_modules/axe-core/axe.min.js: package.json
	npm install --no-audit --no-fund
	touch $@

# ruff, then mypy (its settings and the strict modules: [tool.mypy] in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Two processes (TEST_WORKERS) share the tests a file at a time: the browser tests spend much
# of their time waiting on Chromium. The load tests (servers in subprocesses, every core busy)
# run afterwards, alone, so that no browser test waits behind them.
TEST_WORKERS ?= 2
test: $(STAMP) compile chromium axe lint
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile -m "not load"
	$(BIN)/pytest -q -m load

# Performance benchmark (bench/README.md): BENCH_ARGS=--quick for a short run.
.PHONY: bench
bench: $(STAMP)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# Lighthouse (mobile) on the game and share pages (issue 24): performance score and total
# blocking time. Lighthouse 12.2.3 is pinned in bench/lighthouse/ (13 needs Node 22); not part
# of `make test`. BENCH_ARGS=--runs 1 for a short run.
.PHONY: bench-lighthouse
bench-lighthouse: $(STAMP) bench/lighthouse/node_modules/.bin/lighthouse
	$(BIN)/python bench/lighthouse.py $(BENCH_ARGS)

bench/lighthouse/node_modules/.bin/lighthouse: bench/lighthouse/package.json
	cd bench/lighthouse && npm ci --no-audit --no-fund
	touch $@

# Issue 31's club night through gunicorn (bench/README.md, "A club night"): 16 phones' photos of
# ../shared/photos-dev beside a scorer's round saves, then 8 members reloading a 3,000-game
# club's ratings beside a polling table. About 3 minutes; writes bench/results-table-load.json.
.PHONY: bench-table
bench-table: $(STAMP) compile
	$(BIN)/python bench/table_load.py $(BENCH_ARGS)

# How well the photo reader counts hands (issue 20): a synthetic set drawn by
# training/synthetic.py and the real photos of ../shared/photos-dev/ when that folder
# exists (measured only: never trained or tuned on). Run it under `nice -n 19` on a shared machine.
.PHONY: bench-photos
bench-photos: $(STAMP)
	$(BIN)/python bench/photos.py --all $(BENCH_ARGS)

# The network that reads each half of a tile (scorekeeper/photos/pips.onnx, issues 20 and 32;
# docs/decisions.md): halves cut from photos that training/synthetic.py draws with every layout
# a set can have (`--every`: each photo's set its own layout family, pip size and colour per
# value; close-ups, hands held at an angle, things beside the tiles; training/pips_data.py, in
# the app's venv), then a small CNN trained on them from a fixed seed in .venv-train, a venv
# outside the lock holding a CPU build of PyTorch (pinned: an unpinned torch pulls a CUDA build
# of several GB), exported to ONNX. Then the network that judges the segmenter's candidate boxes
# (scorekeeper/photos/tiles.onnx, boxnet.py, version 1: retrained on photos of every kind with
# `tiles_data.py --every` it read the tuning sets no better, bench/README.md): boxes proposed on
# synthetic photos, half of them on busy tables (training/tiles_data.py), and a small CNN
# # trained on them (training/tiles_train.py). No real photo is used, and no photo of the
# held-out sets (bench/photos.py: its seeds and its tables, textures.HELD_OUT). About 1.5 hours
# of 2 quiet cores at the lowest priority (the halves ~25 min, the pip network's 16 epochs ~35
# min at ~2 min an epoch, the box network's data and training the rest). Each model's declaration (input, crop, labels, version) is
# scorekeeper/photos/models.py; the exported file carries the commit, seed and data hash it
# was made from (training/spec.py).
TRAIN_VENV := .venv-train
.PHONY: train-photos
train-photos: $(STAMP)
	test -x $(TRAIN_VENV)/bin/python || $(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q 'torch==2.13.0' 'numpy==2.4.6' 'onnx==1.23.2'
	nice -n 19 $(BIN)/python training/pips_data.py build/pip-halves-every.npz --photos 1800 \
		--first 800000 --every
	nice -n 19 $(BIN)/python training/pips_data.py build/pip-halves-every-2.npz --photos 1800 \
		--first 802000 --every
	nice -n 19 $(BIN)/python training/pips_data.py build/pip-halves.npz --photos 1000
	nice -n 19 $(BIN)/python training/pips_data.py build/pip-halves-varied.npz --photos 600 \
		--first 600000 --varied
	nice -n 19 $(TRAIN_VENV)/bin/python training/pips_train.py scorekeeper/photos/pips.onnx \
		build/pip-halves-every.npz build/pip-halves-every-2.npz build/pip-halves.npz \
		build/pip-halves-varied.npz
	nice -n 19 $(BIN)/python training/tiles_data.py build/tile-boxes.npz --photos 400
	nice -n 19 $(TRAIN_VENV)/bin/python training/tiles_train.py scorekeeper/photos/tiles.onnx \
		build/tile-boxes.npz

# Mutation testing of the rules core (issue 16): mutmut mutates scorekeeper/core and runs
# tests/core against each mutant (config: [tool.mutmut] in pyproject.toml). Not part of
# `make test`: it takes minutes. mutmut lives in its own venv, .mutation-venv (the lock, the
# editable install and mutmut on top), so .venv stays exactly the lock (tests/test_lock.py).
# Survivors: `$(MUTATION_VENV)/bin/mutmut show <name>`; the ones that cannot change behaviour
# are explained in tests/core/EQUIVALENT_MUTANTS.md. mutmut is pinned: the mutant names listed
# there (their numbers) depend on its version.
MUTMUT_VERSION := 3.8.1
MUTATION_VENV := .mutation-venv
MUTATION_STAMP := $(MUTATION_VENV)/.installed
$(MUTATION_STAMP): $(LOCK) pyproject.toml
	rm -rf $(MUTATION_VENV)
	$(PYTHON) -m venv $(MUTATION_VENV)
	$(MUTATION_VENV)/bin/pip install -q --require-hashes --no-deps -r $(LOCK)
	$(MUTATION_VENV)/bin/pip install -q --no-deps --no-build-isolation -e .
	$(MUTATION_VENV)/bin/pip install -q 'mutmut==$(MUTMUT_VERSION)'
	touch $@

.PHONY: mutation
mutation: $(MUTATION_STAMP)
	rm -rf mutants
	$(MUTATION_VENV)/bin/mutmut run --max-children 2
	$(MUTATION_VENV)/bin/mutmut export-cicd-stats
	$(MUTATION_VENV)/bin/mutmut results > mutants/survivors.txt
	$(MUTATION_VENV)/bin/python tests/core/mutation_score.py
