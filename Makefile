# The two set-up commands: `make run` and `make test`. Both create .venv when it is missing and
# install from requirements/lock.txt, the exact versions CI passed with (`make lock` writes it
# anew from pyproject.toml's ranges).
# CI adds `make test-oldest` (the suite on the oldest supported dependencies, in .venv-oldest),
# `make test-newest` (on the newest releases the ranges admit, in .venv-newest) and
# `make pi-check` (an emulated 64-bit Raspberry Pi OS Bookworm; root only, see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCK := requirements/lock.txt
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
# The lock's own pip and setuptools build dicekeeper (no isolated build with the newest);
# setuptools' notice that an editable install is one is not shown.
INSTALL := PYTHONWARNINGS='ignore:Editable installation:UserWarning' \
    $(PIP) install --constraint $(LOCK) --no-build-isolation

.PHONY: run test lint typecheck unit demo clean lock test-oldest test-newest pi-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(PIP) install --constraint $(LOCK) pip setuptools
	$(INSTALL) -e .
	touch $@

$(DEV_STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(PIP) install --constraint $(LOCK) pip setuptools
	$(INSTALL) -e '.[dev]'
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

# The locks, resolved anew from pyproject.toml (and requirements/build.in) by uv: the lock every
# install here and on Trixie uses (any platform, Python 3.11 and later), and Raspberry Pi OS
# Bookworm's (arm64, Python 3.11, apt's numpy kept: systemd/constraints-bookworm.txt).
lock: $(DEV_STAMP)
	$(BIN)/uv pip compile --quiet pyproject.toml requirements/build.in --extra dev \
	    --universal --python-version 3.11 --output-file $(LOCK)
	$(BIN)/uv pip compile --quiet pyproject.toml requirements/build.in \
	    --python-version 3.11 --python-platform aarch64-manylinux_2_36 \
	    --constraint systemd/constraints-bookworm.txt --no-emit-package numpy \
	    --output-file requirements/bookworm.txt

test-oldest:
	PYTHON=$(PYTHON) ci/test-oldest.sh

test-newest:
	PYTHON=$(PYTHON) ci/test-newest.sh

pi-check:
	ci/pi-check.sh

clean:
	rm -rf $(VENV) .venv-oldest .venv-newest .mypy_cache .pytest_cache .ruff_cache
