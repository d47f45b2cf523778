"""``tlaconf explore`` with PROPERTY lines: the lasso printed, written as a trace that
``tlaconf replay`` checks and as ITF with ``loop``; formulas outside what is supported
refused with their place; random walks refuse properties."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tlaconf.cli.main import main
from tlaconf.explore import Unsupported, bfs, load_model

MODELS = Path(__file__).parent / "models"


def test_lasso_is_printed_written_and_replayed(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(MODELS / "Toggle.tla", tmp_path)
    trace = tmp_path / "done.jsonl"
    code = main(["explore", str(tmp_path / "Toggle.tla"), "-c",
                 str(MODELS / "Toggle_Done_WeakSpec.cfg"), "--trace", str(trace)])
    out = capsys.readouterr().out
    assert code == 1
    assert "property Done is violated by a behaviour of 2 state(s) that loops forever" in out
    assert "back to state 0" in out and "<>done" in out
    itf = json.loads((tmp_path / "done.itf.json").read_text())
    assert itf["loop"] == 0 and len(itf["states"]) == 2
    assert json.loads(trace.read_text().splitlines()[0])["meta"]["explore"]["loop"] == 0
    assert main(["replay", str(trace), "--spec", str(tmp_path)]) == 0


def test_stuttering_lasso_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explore", str(MODELS / "Counter.tla"), "-c",
                 str(MODELS / "Counter_ReachesMax_Spec.cfg"), "--json",
                 "--trace", str(tmp_path / "t.jsonl")])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    v = out["violation"]
    assert v["kind"] == "property" and v["invariant"] == "ReachesMax"
    assert v["loop"] == v["length"] - 1  # ends stuttering, as TLC's "Stuttering"


def test_safety_property_blames_the_conjunct(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explore", str(MODELS / "Counter.tla"), "-c",
                 str(MODELS / "Counter_Climbs_Spec.cfg"), "--trace", str(tmp_path / "t.jsonl")])
    out = capsys.readouterr().out
    assert code == 1 and "property Climbs is violated after 4 step(s)" in out
    assert "[][x' > x]_x (Counter.tla:17:11) is FALSE" in out


@pytest.mark.parametrize(("formula", "message"), [
    ("\\EE t : []TRUE", "this temporal formula is not supported"),
    ("[]<>TRUE -+-> []TRUE", "the operator -+-> is not supported"),
    ("[](x' > x)", "an action outside [][A]_v or <><<A>>_v"),
    ("[]<><<Inc>>_vars /\\ [](x' = x)", "an action outside [][A]_v"),
    ("<>[Inc]_vars", "an action formula must be written <><<A>>_v"),
    ("x' = x", "an action outside"),
])
def test_unsupported_formulas_name_their_place(tmp_path: Path, formula: str,
                                               message: str) -> None:
    text = (MODELS / "Counter.tla").read_text().replace("====", f"Odd ==\n  {formula}\n====")
    (tmp_path / "Counter.tla").write_text(text)
    (tmp_path / "Counter.cfg").write_text("CONSTANT Max = 3\nSPECIFICATION Spec\nPROPERTY Odd\n")
    with pytest.raises(Unsupported) as err:
        load_model(tmp_path / "Counter.tla")
    assert message in err.value.message and "PROPERTY Odd" in err.value.message
    line = text.splitlines().index("Odd ==") + 2
    assert err.value.location is not None and f"Counter.tla:{line}:" in err.value.location


def test_walks_refuse_properties(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["explore", str(MODELS / "Counter.tla"), "-c", str(MODELS / "Counter_Bounded_Spec.cfg"),
            "--walks", "2", "--depth", "3"]
    assert main(args) == 2
    assert "random walks do not check PROPERTY" in capsys.readouterr().err
    assert main([*args, "--skip-properties", "--json"]) == 0


def test_a_bounded_search_leaves_liveness_unchecked(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explore", str(MODELS / "Counter.tla"), "-c",
                 str(MODELS / "Counter_ReachesMax_Spec.cfg"), "--depth", "2", "--json",
                 "--trace", str(tmp_path / "t.jsonl")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["complete"] is False
    assert out["unchecked"] == ["PROPERTY ReachesMax: <>(x = Max)"]
    code = main(["explore", str(MODELS / "Counter.tla"), "-c",
                 str(MODELS / "Counter_TooLow_Spec.cfg"), "--depth", "2", "--json",
                 "--trace", str(tmp_path / "t.jsonl")])
    assert code == 0 and json.loads(capsys.readouterr().out)["unchecked"] == []


def test_enabled_is_a_state_predicate(tmp_path: Path) -> None:
    """``ENABLED`` reads no next state: ``[]<>(ENABLED Inc \\/ x = Max)`` is a liveness
    property of states (it holds), ``[](ENABLED Inc)`` an invariant (violated at Max)."""
    text = (MODELS / "Counter.tla").read_text().replace("====", (
        "Live == []<>(ENABLED Inc \\/ x = Max)\nAlwaysInc == [](ENABLED Inc)\n===="))
    (tmp_path / "Counter.tla").write_text(text)
    for prop, result, loop in (("Live", "success", None), ("AlwaysInc", "violation", None)):
        (tmp_path / "Counter.cfg").write_text(
            f"CONSTANT Max = 3\nSPECIFICATION FairSpec\nPROPERTY {prop}\n")
        model = load_model(tmp_path / "Counter.tla")
        assert model.properties is not None
        res = bfs(model)
        assert res.result == result
        if res.violation is not None:
            assert res.violation.loop is loop and len(res.violation.path) == 4


def test_search_registers_in_properties(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``TLCGet("queue")`` in a property is TLC's breadth-first queue (the models
    ``Queue_*.cfg`` check its values against TLC's); a depth-first search refuses it, and
    an ``INVARIANT`` (checked by the search, not by the property checker) cannot read it."""
    args = ["explore", str(MODELS / "Queue.tla"), "-c", str(MODELS / "Queue_QueueBelow4_Spec.cfg")]
    assert main([*args, "--json", "--trace", str(tmp_path / "t.jsonl")]) == 1
    assert json.loads(capsys.readouterr().out)["violation"]["length"] == 2
    assert main([*args, "--dfs"]) == 2
    assert "in a breadth-first search only" in capsys.readouterr().err
    text = (MODELS / "Queue.tla").read_text().replace("====", 'Inv == TLCGet("queue") < 9\n====')
    (tmp_path / "Queue.tla").write_text(text)
    (tmp_path / "Queue.cfg").write_text("SPECIFICATION Spec\nINVARIANT Inv\nPROPERTY QueueBelow5\n")
    assert main(["explore", str(tmp_path / "Queue.tla")]) == 2
    assert 'TLCGet("queue")' in capsys.readouterr().err
