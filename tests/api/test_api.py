"""The public API (``import tlaconf``): the same verdicts as the command line, partial
traces routed by the library, settings as parameters."""

from __future__ import annotations

import inspect
import json
import os
import pydoc
import subprocess
import sys
from pathlib import Path

import pytest

import tlaconf
from tests.mbt.bank.bank import BankDriver
from tlaconf.errors import ExitCode, UserError
from tlaconf.replay import run_traces

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "traces"
PARTIAL = TRACES / "partial"
BANK = ROOT / "tests" / "mbt" / "bank"


def _key(r: dict[str, object]) -> tuple[object, ...]:
    failure = r["failure"]
    assert failure is None or isinstance(failure, dict)
    return (r["module"], r["verdict"], None if failure is None else failure["step"],
            None if failure is None else failure["line"])


def test_the_api_equals_the_cli_on_every_golden_trace() -> None:
    cli = subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "replay", "--json", "-j",
                          "2", "--spec", str(ROOT / "spec"), str(TRACES)], cwd=ROOT,
                         capture_output=True, text=True, timeout=900, check=False)
    by_cli = {str(Path(r["path"]).resolve()): _key(r) for r in json.loads(cli.stdout)["traces"]}
    results = tlaconf.replay(TRACES, spec=ROOT / "spec")
    by_api = {str(Path(r.path).resolve()): _key(r.to_json()) for r in results}
    assert len(by_api) == len(sorted(TRACES.rglob("*.trace.jsonl"))) > 200
    assert any(p.startswith(str(PARTIAL)) for p in by_api)
    assert by_api == by_cli
    assert int(tlaconf.exit_code(results)) == cli.returncode == ExitCode.NONCONFORMING
    verdicts = json.loads((TRACES / "verdicts.json").read_text())
    for path, (_, verdict, step, _) in by_api.items():  # and both are the gate's verdicts
        expected = verdicts[Path(path).relative_to(TRACES).as_posix()]
        assert (verdict, step) == (expected["verdict"], expected.get("step")), path


@pytest.mark.parametrize("trace", sorted(PARTIAL.glob("*.trace.jsonl")), ids=lambda p: p.name)
def test_a_partial_trace_is_searched_not_misread(trace: Path) -> None:
    [result] = tlaconf.replay(trace, spec=ROOT / "spec")
    expected = json.loads((PARTIAL / "expected.json").read_text())[trace.name]
    assert result.verdict == expected["verdict"]
    assert (result.failure.step if result.failure else None) == expected.get("step")
    [low] = run_traces([trace], ROOT / "spec")  # the full-trace replayer says where to go
    assert low.verdict == "error" and low.failure is not None
    assert "a partial trace" in low.failure.reason and "tlaconf.replay()" in low.failure.reason


def test_one_trace_many_and_folders_each_once(tmp_path: Path) -> None:
    one = TRACES / "zones" / "custody-7.trace.jsonl"
    assert [r.verdict for r in tlaconf.replay(str(one))] == ["conforms"]
    many = tlaconf.replay([one, PARTIAL, PARTIAL / "wrong-zone-filed.trace.jsonl"])
    assert [Path(r.path).name for r in many] == [
        "custody-7.trace.jsonl", *sorted(p.name for p in PARTIAL.glob("*.trace.jsonl"))]
    with pytest.raises(UserError, match="does not exist"):
        tlaconf.replay(tmp_path / "missing.trace.jsonl")
    with pytest.raises(UserError, match="unknown revision"):
        tlaconf.replay(one, revision="99")


def test_jobs_give_the_same_results() -> None:
    paths = [*sorted((TRACES / "zones").glob("*.trace.jsonl"))[:6], PARTIAL]
    one = [(r.path, r.verdict, r.steps) for r in tlaconf.replay(paths)]
    two = [(r.path, r.verdict, r.steps) for r in tlaconf.replay(paths, jobs=2)]
    assert one == two


def _library_module(tmp_path: Path) -> tuple[Path, Path]:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "Twice.tla").write_text("---- MODULE Twice ----\nEXTENDS Naturals\n"
                                   "Twice(n) == 2 * n\n====\n")
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "Up.tla").write_text("---- MODULE Up ----\nEXTENDS Naturals, Twice\nVARIABLE x\n"
                                 "Init == x = 1\nNext == x' = IF x < 8 THEN Twice(x) ELSE x\n"
                                 "Small == x <= 8\n====\n")
    (spec / "Up.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Small\n")
    return lib, spec / "Up.tla"


def test_the_library_path_is_a_parameter(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TLACONF_LIBRARY", raising=False)
    lib, module = _library_module(tmp_path)
    result = tlaconf.explore(module, library=[lib])
    assert (result.result, result.distinct_states, result.depth) == ("success", 4, 4)
    with pytest.raises(UserError, match="Twice"):
        tlaconf.explore(module)
    with pytest.raises(UserError, match="no such folder or jar"):
        tlaconf.explore(module, library=[tmp_path / "nowhere"])
    assert "TLACONF_LIBRARY" not in os.environ  # the setting did not outlive the call


def test_explore_writes_a_violation_trace_that_replay_blames(tmp_path: Path) -> None:
    lib, module = _library_module(tmp_path)
    module.with_suffix(".cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Tiny\n")
    module.write_text(module.read_text().replace("Small ==", "Tiny == x < 4\nSmall =="))
    trace = tmp_path / "v.trace.jsonl"
    result = tlaconf.explore(module, library=[lib], trace=trace)
    assert result.result == "violation" and result.violation is not None
    [replayed] = tlaconf.replay(trace, spec=module.parent, library=[lib])
    assert replayed.verdict == "violation" and replayed.failure is not None
    assert replayed.failure.step == len(result.violation.path) - 1


def test_validate_a_partial_trace_and_its_bound() -> None:
    trace = PARTIAL / "wrong-zone-filed.trace.jsonl"
    out = tlaconf.validate(trace, spec=ROOT / "spec")
    assert (out.result, out.failing_entry) == ("rejected", 5)
    accepted = tlaconf.validate(PARTIAL / "moves-logged-zones.trace.jsonl")
    assert accepted.result == "accepted" and accepted.exit_code(False) == ExitCode.OK
    with pytest.raises(UserError, match=r"config does not apply to .* trace-validation"):
        tlaconf.validate(trace, config="X.cfg")
    with pytest.raises(UserError, match=r"revision does not apply to .* partial traces"):
        tlaconf.validate("Trace.tla", revision="2")


def test_validate_a_trace_spec_over_its_bound_is_undecided(tmp_path: Path) -> None:
    module = tmp_path / "Up.tla"
    module.write_text("---- MODULE Up ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                      "Next == x' = x + 1\n====\n")
    (tmp_path / "Up.cfg").write_text("INIT Init\nNEXT Next\n")
    out = tlaconf.validate(module, max_states=20)
    assert out.result == "undecided" and out.exit_code(False) == ExitCode.UNDECIDED


def test_mbt_by_object_and_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    passed = tlaconf.mbt(BankDriver(), spec=BANK, steps=10, examples=5, out=tmp_path / "f",
                         database=None)
    assert passed.found is None and passed.steps > 0
    failed = tlaconf.mbt(BankDriver(cap=4), spec=BANK, steps=12, examples=50,
                         out=tmp_path / "f", database=None)
    assert failed.found is not None and failed.found.trace.exists()
    [replayed] = tlaconf.replay(failed.found.trace, spec=BANK)
    assert replayed.verdict == "violation"
    monkeypatch.syspath_prepend(str(BANK))
    by_name = tlaconf.mbt("bank:BankDriver", spec=BANK, steps=5, examples=2, out=tmp_path / "f",
                          database=None)
    assert by_name.found is None
    with pytest.raises(UserError):
        tlaconf.mbt("bank:NoSuchDriver", spec=BANK)


def test_the_names_and_the_subpackages_both_work() -> None:
    import tlaconf.replay.engine as engine
    from tlaconf.replay import Replayer

    assert engine.Replayer is Replayer is tlaconf.replay.Replayer
    assert callable(tlaconf.replay) and callable(tlaconf.validate)
    assert tlaconf.explore.load_model is not None and tlaconf.mbt.run is not None
    assert tlaconf.ExitCode.INTERRUPTED == 130 and tlaconf.TraceResult.__name__ == "TraceResult"
    for name in tlaconf.__all__:
        assert getattr(tlaconf, name) is not None, name
    with pytest.raises(AttributeError):
        _ = tlaconf.no_such_name  # type: ignore[attr-defined]
    assert "spec" in inspect.signature(tlaconf.replay).parameters
    shown = pydoc.render_doc(tlaconf.replay, renderer=pydoc.plaintext)  # help(tlaconf.replay)
    assert "Check ``traces``" in shown and "max_candidates" in shown


def test_importing_tlaconf_loads_nothing_heavy() -> None:
    code = ("import sys, tlaconf; tlaconf.__version__; "
            "print(sorted(m for m in sys.modules if m.startswith('tlaconf') or "
            "m.split('.')[0] in ('pydantic', 'rich', 'lark')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['tlaconf']"


def test_success_says_which_invariants_were_checked(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    from tlaconf.cli.main import main

    ok = PARTIAL / "moves-logged-zones.trace.jsonl"
    [r] = tlaconf.replay(ok)
    assert (r.verdict, r.invariants) == ("conforms", ("Partition",))
    assert main(["replay", str(ok), str(TRACES / "zones" / "custody-7.trace.jsonl")]) == 0
    out = capsys.readouterr().out
    assert ("invariants checked in every state: Custody 2 (Partition, TrackingValid); "
            "ZoneMembership 1 (Partition)") in out
    assert main(["validate", str(ok)]) == 0
    out = capsys.readouterr().out
    assert "6 distinct states" in out and "invariants checked in every state: Partition" in out


def test_an_evaluation_error_is_located_at_the_log_line(tmp_path: Path) -> None:
    text = (PARTIAL / "wrong-zone-filed.trace.jsonl").read_text()
    bad = tmp_path / "bad.trace.jsonl"
    bad.write_text(text.replace('"id": 21,', '"id": "x",', 1))
    [r] = tlaconf.replay(bad, spec=ROOT / "spec")
    assert r.verdict == "error" and r.failure is not None
    assert (r.failure.step, r.failure.line) == (2, 4)  # the first step logging id "x"
    assert r.failure.reason.startswith("line 4: cannot evaluate Move([destination |-> ")
    assert 'id |-> "x"' in r.failure.reason and "Zones4.tla:38:44" in r.failure.reason
    with pytest.raises(UserError) as raised:
        tlaconf.validate(bad, spec=ROOT / "spec")
    assert raised.value.location == f"{bad}:4"
    full = tmp_path / "full.trace.jsonl"
    full.write_text((TRACES / "zones" / "worked-example-move.trace.jsonl").read_text()
                    .replace('"id": 11,', '"id": "x",', 1))
    [f] = tlaconf.replay(full, spec=ROOT / "spec")
    assert f.failure is not None and f.failure.line == 3
    assert f.failure.reason.startswith("line 3: cannot evaluate Move(p): ")
