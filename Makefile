# Two commands on a fresh clone: `make check` and `make test`.
# Every target bootstraps .venv itself (re-installs when pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: check test lint bench gate clean test-tlc test-apalache

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

check: $(STAMP)
	$(BIN)/tlaconf check

lint: $(STAMP)
	$(BIN)/ruff check tlaconf harness tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench

# The golden corpus through a real checker, compared with the embedded evaluator (not in CI).
test-tlc: $(STAMP)
	@test -n "$$TLC_JAR" || { echo "make test-tlc: set TLC_JAR=/path/to/tla2tools.jar (README: Running with TLC)"; exit 2; }
	TLCONF_GOLDEN_CHECKER=tlc $(BIN)/pytest -rs tests/tlc tests/checkers

test-apalache: $(STAMP)
	TLCONF_GOLDEN_CHECKER=apalache $(BIN)/pytest -rs tests/apalache tests/checkers

gate: $(STAMP)
	$(BIN)/tlaconf gate

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
