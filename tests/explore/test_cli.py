"""``tlaconf explore`` on small models whose figures real TLC gave once
(``models/tlc_figures.json``), and its violation traces replayed by ``tlaconf replay``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tlaconf.cli.main import main
from tlaconf.explore import bfs, load_model, walks

MODELS = Path(__file__).parent / "models"
FIGURES = json.loads((MODELS / "tlc_figures.json").read_text())["models"]


def explore(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, Any]:
    code = main(["explore", *map(str, args), "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


@pytest.mark.parametrize("fig", FIGURES, ids=lambda f: f["cfg"])
def test_counts_are_tlcs(fig: dict[str, Any], tmp_path: Path,
                         capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "v.jsonl"
    code, out = explore(capsys, MODELS / fig["module"], "-c", MODELS / fig["cfg"],
                        "--trace", trace)
    assert out["result"] == fig["result"]
    assert code == (0 if fig["result"] == "success" else 1)
    if fig["result"] == "violation":  # TLC stops mid-level: only the shortest trace compares
        assert out["violation"]["invariant"] == fig["invariant"]
        assert out["violation"]["length"] == fig["trace_states"]
        return
    assert (out["distinct_states"], out["total_states"], out["depth"]) == (
        fig["distinct"], fig["total"], fig["depth"])
    if fig["result"] == "deadlock":
        assert out["violation"] == {"invariant": None, "trace": str(trace),
                                    "length": fig["trace_states"]}
    else:
        assert out["violation"] is None and not trace.exists()


def test_violation_replays_to_the_same_blame(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    for name in ("Ledger.tla", "Ledger.cfg"):
        shutil.copy(MODELS / name, spec / name)
    trace = tmp_path / "ledger.jsonl"
    assert main(["explore", str(spec / "Ledger.tla"), "--trace", str(trace)]) == 1
    text = capsys.readouterr().out
    assert "invariant NonNegative is violated after 2 step(s)" in text
    lines = [json.loads(x) for x in trace.read_text().splitlines()]
    assert lines[0]["module"] == "Ledger"
    assert [x.get("action") for x in lines[2:]] == ["Withdraw", "Withdraw"]  # labelled steps
    assert lines[2]["params"] == {"account": "alice", "amount": 1}
    assert main(["replay", str(trace), "--spec", str(spec), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)["traces"][0]
    assert report["verdict"] == "violation"
    failure = report["failure"]
    assert failure["step"] == 2 and "invariant NonNegative is FALSE" in failure["reason"]
    model = load_model(spec / "Ledger.tla")
    res = bfs(model)
    assert res.violation is not None
    blame = model.explain_invariant("NonNegative", res.violation.path[-1].state)
    assert blame.innermost().text in json.dumps(failure["blame"])
    assert "balance[a] >= 0" in blame.render()


def test_unlabelled_steps_replay_against_next(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    for name in ("Stack.tla", "StackDeadlock.cfg"):
        shutil.copy(MODELS / name, spec / name.replace("StackDeadlock", "Stack"))
    trace = tmp_path / "dead.jsonl"
    assert main(["explore", str(spec / "Stack.tla"), "--trace", str(trace)]) == 1
    assert "deadlock reached after 5 step(s)" in capsys.readouterr().out
    lines = [json.loads(x) for x in trace.read_text().splitlines()]
    assert all("action" not in x for x in lines[1:])
    assert [a["action"] for a in lines[0]["meta"]["explore"]["actions"]] == [
        "Push", "Push", "Pop", "Push", "Pop"]
    assert main(["replay", str(trace), "--spec", str(spec)]) == 0  # every step is a Next step
    capsys.readouterr()
    lines[3]["state"]["stack"] = ["b", "b", "b"]  # no Next step leads there
    trace.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(trace), "--spec", str(spec)]) == 1


def test_depth_limit_and_walks(capsys: pytest.CaptureFixture[str]) -> None:
    model = load_model(MODELS / "Tokens.tla", MODELS / "Tokens_nosym.cfg")
    shallow = bfs(model, max_depth=2)
    assert (shallow.depth, shallow.complete) == (2, False)
    assert shallow.distinct_states < 345
    a = walks(model, 5, 10, seed=7)
    b = walks(model, 5, 10, seed=7)
    assert (a.distinct_states, a.total_states) == (b.distinct_states, b.total_states)
    assert a.result == "success" and 1 <= a.depth <= 10
    code, out = explore(capsys, MODELS / "Tokens.tla", "-c", MODELS / "Tokens_nosym.cfg",
                        "--walks", "3", "--depth", "4", "--seed", "1")
    assert code == 0 and out["complete"] is False and out["depth"] <= 4
    walk = walks(load_model(MODELS / "Ledger.tla"), 50, 10, seed=3)
    assert walk.result == "violation" and walk.violation is not None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--walks", "3"], "--walks N needs --depth K"),
        (["--seed", "4"], "--seed applies to random walks"),
        (["-c", "nope.cfg"], "argument -c/--config: nope.cfg does not exist"),
        (["--depth", "0"], "argument --depth: 0 is not a positive number"),
        (["--walks", "x", "--depth", "2"], "argument --walks: 'x' is not a whole number"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", str(MODELS / "Stack.tla"), *args]) == 2
    assert message in capsys.readouterr().err


def test_unsupported_property_exits_2_unless_skipped(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    text = (MODELS / "Tokens.tla").read_text().rstrip().removesuffix("====")
    (tmp_path / "Tokens.tla").write_text(text + "Odd == \\EE t : []TRUE\n====\n")
    line = text.count("\n") + 1
    cfg = (MODELS / "Tokens.cfg").read_text() + "PROPERTY Spec\nPROPERTY Odd\n"
    (tmp_path / "Tokens.cfg").write_text(cfg)
    assert main(["explore", str(tmp_path / "Tokens.tla"), "--json"]) == 2
    err = capsys.readouterr().err
    assert f"Tokens.tla:{line}:8" in err and "PROPERTY Odd" in err and "not checked" in err
    code, out = explore(capsys, tmp_path / "Tokens.tla", "--skip-properties")
    assert code == 0 and out["unchecked"] == ["PROPERTY Spec", "PROPERTY Odd"]
    assert out["distinct_states"] == 62
    (tmp_path / "Tokens.cfg").write_text(cfg.replace("PROPERTY Odd\n", ""))
    code, out = explore(capsys, tmp_path / "Tokens.tla")
    assert code == 0 and out["unchecked"] == [] and out["distinct_states"] == 62


def test_replay_reads_cfg_substitutions(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    for name in ("Stack.tla", "Stack.cfg"):  # Stack.cfg: Depth <- MCDepth (3)
        shutil.copy(MODELS / name, spec / name)
    header = {"format": "tlaconf-trace", "version": 1, "module": "Stack", "revision": "1",
              "constants": {"Items": {"#set": [{"#unserializable": "a"}]}, "MaxPushes": 6}}
    a = {"#unserializable": "a"}

    def trace(depth: int) -> Path:
        lines = [header, {"state": {"stack": [], "pushes": 0}}]
        lines += [{"state": {"stack": [a] * k, "pushes": k}} for k in range(1, depth + 1)]
        path = tmp_path / f"push{depth}.jsonl"
        path.write_text("".join(json.dumps(x) + "\n" for x in lines))
        return path

    assert main(["replay", str(trace(3)), "--spec", str(spec)]) == 0
    assert main(["replay", str(trace(4)), "--spec", str(spec)]) == 1  # Len(stack) < 3 fails
    capsys.readouterr()
