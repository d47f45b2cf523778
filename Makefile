# Two commands on a fresh clone: `make check` and `make test`.
# Every target bootstraps .venv itself (re-installs when pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: check test test-quint lint bench gate mutation clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

check: $(STAMP)
	$(BIN)/tlaconf check

lint: $(STAMP)
	$(BIN)/ruff check tlaconf harness tests bench mutation
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

# Quint (pinned in .quint/package.json and package-lock.json) for the interop tests.
QUINT := .quint/node_modules/.bin/quint

$(QUINT): .quint/package.json .quint/package-lock.json
	npm ci --prefix .quint --no-audit --no-fund --loglevel=error
	touch $(QUINT)

test-quint: $(STAMP) $(QUINT)
	TLACONF_QUINT=$(abspath $(QUINT)) $(BIN)/pytest tests/quint

bench: $(STAMP)
	$(BIN)/python -m bench

gate: $(STAMP)
	$(BIN)/tlaconf gate

# Plant every mutant in harness/ and run tlaconf check on each (long: not part of `make test`).
# MUTATION_ARGS="--sample 200 -j 2" for a sample.
mutation: $(STAMP)
	$(BIN)/python -m mutation $(MUTATION_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .quint/node_modules
