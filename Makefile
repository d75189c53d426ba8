# The one list of commands. `make demo` sets up and builds a site; `make test` runs the suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run demo test lint format typecheck check golden bench eval clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) ## create .venv and install the package with its test tools

run: $(STAMP) ## the daily job: collect, summarize and render yesterday with digest.yaml
	$(BIN)/digest run --config digest.yaml

demo: $(STAMP) ## build a site from a made-up project's week of merges, offline (no .git needed)
	scripts/demo data/demo-repo
	$(BIN)/digest run --config data/demo.yaml --since 2026-03-02 --until 2026-03-06
	@echo "open site/demo/index.html"

test: $(STAMP) ## run the test suite
	$(BIN)/pytest

lint: $(STAMP) ## ruff; actionlint on every workflow; shellcheck on the scripts
	$(BIN)/ruff check digest tests bench
	$(BIN)/ruff format --check digest tests bench
	$(BIN)/actionlint -shellcheck $(BIN)/shellcheck .github/workflows/*.yml
	$(BIN)/shellcheck scripts/daily scripts/demo .ci/run

format: $(STAMP)
	$(BIN)/ruff check --fix digest tests bench
	$(BIN)/ruff format digest tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

check: lint typecheck test ## everything CI checks

golden: $(STAMP) ## refresh the expected rendered output in tests/golden/
	WIRE_UPDATE_GOLDEN=1 $(BIN)/pytest -q tests -k golden

bench: $(STAMP) ## print performance figures
	$(BIN)/python bench/render_archive.py
	$(BIN)/python bench/render_real.py
	$(BIN)/python bench/summarize_real.py
	$(BIN)/python bench/daily_cost.py

eval: $(STAMP) ## grade the editions of every real day in ../shared/data, and the facts against bench/labels
	$(BIN)/python bench/evaluate.py
	$(BIN)/python bench/evaluate_facts.py

clean:
	rm -rf site data/demo data/demo-repo .pytest_cache .mypy_cache .ruff_cache
