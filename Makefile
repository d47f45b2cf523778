# Two commands on a fresh clone: `make check` and `make test`.
# Every target bootstraps .venv itself (re-installs when pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: check test test-quint test-browser lint bench gate fuzz mutation clean test-tlc \
	test-apalache test-examples test-tracespecs example-raft

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The scenarios, then spec-driven testing of the harness through its drivers
# ([tool.tlaconf] drivers; MBT_ARGS to change the budget). Near misses are found by
# enumeration even where APALACHE_MC is set (Apalache's sessions would take this job from
# minutes to half an hour); MBT_ARGS="... --solver apalache" asks Apalache too.
MBT_ARGS ?= --examples 10 --steps 25 --solver enumeration

check: $(STAMP)
	$(BIN)/tlaconf check
	$(BIN)/tlaconf mbt $(MBT_ARGS) --coverage-with .tlaconf-out/check

lint: $(STAMP)
	$(BIN)/ruff check tlaconf harness tests bench mutation examples
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

# The differential tests and every command's fuzzing at thousands of examples (make test runs
# a few hundred, and a few dozen per command).
fuzz: $(STAMP)
	TLACONF_TLC_DIFF_EXAMPLES=5000 TLACONF_DIFF_EXAMPLES=3000 $(BIN)/pytest -p no:cacheprovider \
		tests/evaluate/test_tlc_differential.py tests/evaluate/test_differential.py
	TLACONF_FUZZ_EXAMPLES=2000 $(BIN)/pytest -p no:cacheprovider tests/bad_inputs/test_fuzz_commands.py

# Quint (pinned in .quint/package.json and package-lock.json) for the interop tests.
QUINT := .quint/node_modules/.bin/quint

$(QUINT): .quint/package.json .quint/package-lock.json
	npm ci --prefix .quint --no-audit --no-fund --loglevel=error
	touch $(QUINT)

test-quint: $(STAMP) $(QUINT)
	TLACONF_QUINT=$(abspath $(QUINT)) $(BIN)/pytest tests/quint

# The HTML report in a real headless browser (Debian's chromium, installed when missing).
test-browser: $(STAMP)
	command -v chromium >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	TLACONF_REQUIRE_BROWSER=1 $(BIN)/pytest tests/browser

bench: $(STAMP)
	$(BIN)/python -m bench

# The guide's worked example (docs/guide.md): pysyncobj's leader election checked online,
# three nodes on loopback; then with a planted bug, which must be caught (exit 1).
# The guide's worked example: an election conforms; the planted bug is caught at its event.
example-raft: $(STAMP)
	$(BIN)/python examples/raft/election.py
	@out=$$($(BIN)/python examples/raft/election.py --bug); code=$$?; echo "$$out"; \
	test $$code -eq 1 && echo "$$out" | grep -q "explains this ReceiveRequestVote step" || \
	{ echo "make example-raft: the planted bug was not caught at its ReceiveRequestVote"; exit 1; }

# The golden corpus through a real checker, compared with the embedded evaluator (not in CI).
test-tlc: $(STAMP)
	@test -n "$$TLC_JAR" || { echo "make test-tlc: set TLC_JAR=/path/to/tla2tools.jar (docs/checkers.md, "TLC")"; exit 2; }
	TLACONF_GOLDEN_CHECKER=tlc $(BIN)/pytest -rs tests/tlc tests/checkers

# The public tlaplus/Examples corpus (not in CI): the explorer against TLC's published figures,
# and the parser against real SANY (with TLC_JAR). TLACONF_EXAMPLES names a checkout.
test-examples: $(STAMP)
	@test -n "$$TLACONF_EXAMPLES" || { echo "make test-examples: set TLACONF_EXAMPLES to a checkout of tlaplus/Examples (docs/explore.md)"; exit 2; }
	$(BIN)/pytest -rs tests/examples

# Public TLC trace specs with their logs, unchanged and mutated, against TLC's recorded
# verdicts, states and depth (not in CI): TLACONF_EXAMPLES, TLACONF_ETCD_RAFT,
# TLACONF_TWOPHASE, TLACONF_KEYVALUESTORE and TLACONF_LOCKSERVER name checkouts (a case
# without one is skipped, saying how to get it),
# TLACONF_COMMUNITY_JAR the CommunityModules jar (docs/validate.md).
test-tracespecs: $(STAMP)
	$(BIN)/pytest -rsx tests/tracespecs

test-apalache: $(STAMP)
	TLACONF_GOLDEN_CHECKER=apalache $(BIN)/pytest -rs tests/apalache tests/checkers

gate: $(STAMP)
	$(BIN)/tlaconf gate

# Plant every mutant in harness/ and run tlaconf check on each (long: not part of `make test`).
# MUTATION_ARGS="--sample 200 -j 2" for a sample.
mutation: $(STAMP)
	$(BIN)/python -m mutation $(MUTATION_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .quint/node_modules
