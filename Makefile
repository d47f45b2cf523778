# Two commands on a fresh clone: `make check` and `make test`.
# Every target bootstraps .venv itself (re-installs when pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: check test lint bench gate mutation clean

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

bench: $(STAMP)
	$(BIN)/python -m bench

gate: $(STAMP)
	$(BIN)/tlaconf gate

# Plant every mutant in harness/ and run tlaconf check on each (long: not part of `make test`).
# MUTATION_ARGS="--sample 200 -j 2" for a sample.
mutation: $(STAMP)
	$(BIN)/python -m mutation $(MUTATION_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
