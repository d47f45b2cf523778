# Two commands on a fresh clone: `make check` and `make test`.
# Every target bootstraps .venv itself (re-installs when pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: check test lint bench gate clean test-browser

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

# The HTML report in a real headless browser (Debian's chromium, installed when missing).
test-browser: $(STAMP)
	command -v chromium >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	TLACONF_REQUIRE_BROWSER=1 $(BIN)/pytest tests/browser

bench: $(STAMP)
	$(BIN)/python -m bench

gate: $(STAMP)
	$(BIN)/tlaconf gate

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
