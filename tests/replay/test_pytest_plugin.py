"""The pytest plugin: trace files as test items, verdicts.json/expected.json, the fixture."""

from __future__ import annotations

import json

import pytest

from tests.replay.counter_backend import BACKEND, SPEC, state, write_trace

pytest_plugins = ["pytester"]

INC = ("Inc", {"by": 2, "who": "a"}, "accepted", state(2, a=2, b=0))
BAD = ("Inc", {"by": 1, "who": "b"}, "accepted", state(9, a=2, b=1))
OPTIONS = (f"--tlaconf-spec={SPEC}", f"--tlaconf-backend={BACKEND}:PyBackend")


def test_trace_files_are_collected_and_replayed(pytester: pytest.Pytester) -> None:
    root = pytester.path
    write_trace(root / "ok.trace.jsonl", state(0), [INC])
    write_trace(root / "bad.trace.jsonl", state(0), [INC, BAD])
    result = pytester.runpytest(*OPTIONS)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*bad.trace.jsonl: expected conforms, got violation*", "*step 2*", "*count'*"]
    )


def test_verdicts_json_above_and_expected_json_beside(pytester: pytest.Pytester) -> None:
    root = pytester.path
    area = root / "traces" / "counter"
    area.mkdir(parents=True)
    write_trace(area / "bad.trace.jsonl", state(0), [INC, BAD])
    write_trace(area / "bad2.trace.jsonl", state(0), [INC, BAD])
    write_trace(area / "wrong.trace.jsonl", state(0), [INC, BAD])
    (root / "traces" / "verdicts.json").write_text(json.dumps({
        "counter/bad.trace.jsonl": {"verdict": "violation", "step": 2},
        "counter/wrong.trace.jsonl": {"verdict": "violation", "step": 1},
    }))  # fmt: skip
    leaf = "count' = Add(count, p.by)"
    (area / "expected.json").write_text(
        json.dumps({"bad2.trace.jsonl": {"verdict": "violation", "step": 2, "conjunct": leaf}})
    )
    result = pytester.runpytest(*OPTIONS)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*wrong.trace.jsonl: expected violation @ step 1*"])


def test_collection_can_be_turned_off(pytester: pytest.Pytester) -> None:
    write_trace(pytester.path / "bad.trace.jsonl", state(0), [INC, BAD])
    pytester.makeini("[pytest]\ntlaconf_collect = false\n")
    pytester.runpytest(*OPTIONS).assert_outcomes()


def test_ini_spec_option(pytester: pytest.Pytester) -> None:
    write_trace(pytester.path / "ok.trace.jsonl", state(0), [INC])
    pytester.makeini(f"[pytest]\ntlaconf_spec = {SPEC}\n")
    result = pytester.runpytest(f"--tlaconf-backend={BACKEND}:PyBackend")
    result.assert_outcomes(passed=1)


def test_fixture_replays_a_trace_written_by_a_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        from tests.replay.counter_backend import state, write_trace

        INC = {INC!r}
        BAD = {BAD!r}

        def test_ok(tmp_path, tlaconf_replay):
            path = write_trace(tmp_path / "t.trace.jsonl", state(0), [INC])
            assert tlaconf_replay(path).steps == 1

        def test_expected_violation(tmp_path, tlaconf_replay):
            path = write_trace(tmp_path / "t.trace.jsonl", state(0), [INC, BAD])
            result = tlaconf_replay(path, expect="violation", step=2)
            assert result.failure.action == "Inc"

        def test_unexpected_violation(tmp_path, tlaconf_replay):
            path = write_trace(tmp_path / "t.trace.jsonl", state(0), [INC, BAD])
            tlaconf_replay(path)
        """
    )
    result = pytester.runpytest(*OPTIONS)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*expected conforms, got violation*", "*state diff*"])


def test_fixture_conjunct_must_be_the_blamed_leaf(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        import pytest
        from tests.replay.counter_backend import state, write_trace

        INC = {INC!r}
        BAD = {BAD!r}

        def _bad(tmp_path):
            return write_trace(tmp_path / "t.trace.jsonl", state(0), [INC, BAD])

        def test_leaf(tmp_path, tlaconf_replay):
            tlaconf_replay(_bad(tmp_path), "violation", 2, conjunct="count' = Add(count, p.by)")

        @pytest.mark.parametrize("conjunct", [
            "tally' = [tally EXCEPT ![p.who] = @ + p.by]", "Inc(p)", "count'", "p", "nonsense"])
        def test_not_the_leaf(tmp_path, tlaconf_replay, conjunct):
            tlaconf_replay(_bad(tmp_path), "violation", 2, conjunct=conjunct)

        def test_conforming_with_conjunct(tmp_path, tlaconf_replay):
            path = write_trace(tmp_path / "t.trace.jsonl", state(0), [INC])
            tlaconf_replay(path, conjunct="p.by > 0")
        """
    )
    result = pytester.runpytest(*OPTIONS)
    result.assert_outcomes(passed=1, failed=6)
    result.stdout.fnmatch_lines(["*does not blame 'nonsense'*", "*blames no conjunct*"])


def test_fixture_failure_is_reported_once_at_pytests_width(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        from tests.replay.counter_backend import state, write_trace

        def test_unexpected_violation(tmp_path, tlaconf_replay):
            tlaconf_replay(write_trace(tmp_path / "t.trace.jsonl", state(0), [{INC!r}, {BAD!r}]))
        """
    )
    result = pytester.runpytest(*OPTIONS)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "During handling of the above exception" not in out
    report = out.split("short test summary info")[0]  # CI=true prints messages there too
    assert report.count("expected conforms, got violation") == 1
    panel = [line for line in result.stdout.lines if line.startswith(("╭", "│", "╰"))]
    assert panel and max(map(len, panel)) <= 80
