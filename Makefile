# The two set-up commands: `make run` and `make test`. Both create .venv when it is missing.
# CI adds `make test-oldest` (the suite on the oldest supported dependencies, in .venv-oldest) and
# `make pi-check` (an emulated 64-bit Raspberry Pi OS Bookworm; root only, see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck unit demo clean test-oldest pi-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $@

run: $(STAMP)
	$(BIN)/dicekeeper run

demo: $(STAMP)
	$(BIN)/dicekeeper demo

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

unit: $(DEV_STAMP)
	$(BIN)/python -m pytest

test: lint typecheck unit

test-oldest:
	PYTHON=$(PYTHON) ci/test-oldest.sh

pi-check:
	ci/pi-check.sh

clean:
	rm -rf $(VENV) .venv-oldest .mypy_cache .pytest_cache .ruff_cache
