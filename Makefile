# The one list of commands. `make demo` sets up and builds a site; `make test` runs the suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two levels, one stamp each: the runtime (`make demo`, `make run`) and, on top of it, the
# test and lint tools (`make test`, `make setup`). `make test` after `make demo` upgrades
# the same .venv; neither reinstalls until pyproject.toml changes.
RUNTIME := $(VENV)/.runtime
DEV     := $(VENV)/.dev
# pip's own lines are left out; each step says what it does instead.
PIP     := $(BIN)/pip install --quiet --disable-pip-version-check

.PHONY: setup run demo test lint format typecheck check golden templates bench bench-targets eval clean

$(RUNTIME): pyproject.toml
	@if [ ! -x $(BIN)/python ]; then \
	  echo "make: creating $(VENV) with $$($(PYTHON) --version)"; $(PYTHON) -m venv $(VENV); fi
	@echo "make: installing the Wire and its runtime dependencies into $(VENV) (about 110 MB)"
	@$(PIP) -e .
	@touch $@

$(DEV): $(RUNTIME)
	@echo "make: installing the test and lint tools into $(VENV) (pytest, ruff, mypy, Playwright; about 300 MB more)"
	@$(PIP) -e '.[dev]'
	@touch $@

setup: $(DEV) ## create .venv and install the package with its test tools

run: $(RUNTIME) ## the daily job: collect, summarize and render yesterday with digest.yaml
	$(BIN)/digest run --config digest.yaml

demo: $(RUNTIME) ## build a site from a made-up project's week of merges, offline (no .git needed)
	@echo "make: writing the demo repository data/demo-repo (a made-up project, 11 merges)"
	@scripts/demo data/demo-repo
	@echo "make: collecting, summarizing and rendering 2026-03-02 to 2026-03-06 with data/demo.yaml"
	@$(BIN)/digest run --config data/demo.yaml --since 2026-03-02 --until 2026-03-06
	@echo "make: done; open site/demo/index.html (or: $(BIN)/python -m http.server -d site/demo)"

test: $(DEV) ## run the test suite
	$(BIN)/pytest

lint: $(DEV) ## ruff; actionlint on every workflow; shellcheck on the scripts
	$(BIN)/ruff check digest tests bench
	$(BIN)/ruff format --check digest tests bench
	$(BIN)/actionlint -shellcheck $(BIN)/shellcheck .github/workflows/*.yml
	$(BIN)/shellcheck scripts/daily scripts/demo .ci/run

format: $(DEV)
	$(BIN)/ruff check --fix digest tests bench
	$(BIN)/ruff format digest tests bench

typecheck: $(DEV)
	$(BIN)/mypy

check: lint typecheck test ## everything CI checks

golden: $(DEV) ## refresh the expected rendered output in tests/golden/
	WIRE_UPDATE_GOLDEN=1 $(BIN)/pytest -q tests -k golden

templates: $(RUNTIME) ## compile the shipped templates into digest/render/compiled/ (code of the package)
	$(BIN)/python -c 'from digest.render.templating import write_compiled; write_compiled()'

bench: $(DEV) ## print performance figures
	$(BIN)/python bench/render_archive.py
	$(BIN)/python bench/render_real.py
	$(BIN)/python bench/summarize_real.py
	$(BIN)/python bench/daily_cost.py

bench-targets: $(DEV) ## every issue-28 figure in one run (CLONE=a git clone, REPO=its owner/name)
	@test -n "$(CLONE)" || { echo "make: pass CLONE=path/to/a/busy/clone REPO=owner/name"; exit 2; }
	$(BIN)/python bench/collect_range.py $(CLONE) $(REPO) --days 30
	$(BIN)/python bench/run_range.py
	$(BIN)/python bench/render_real.py
	$(BIN)/python bench/render_archive.py

eval: $(DEV) ## grade the editions of every real day in ../shared/data, and the facts against bench/labels
	$(BIN)/python bench/evaluate.py
	$(BIN)/python bench/evaluate_facts.py

clean:
	rm -rf site data/demo data/demo-repo .pytest_cache .mypy_cache .ruff_cache
