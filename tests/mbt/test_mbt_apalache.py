"""The Apalache solver: near misses and allowed requests in params domains too large to
enumerate, against Apalache's recorded answers (no Apalache needed), and against a real
server when ``APALACHE_MC`` is set."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tlaconf.evaluate.coverage import CoverageProbe
from tlaconf.hypothesis import Options, run
from tlaconf.mbt.guard_report import BOTH, warnings
from tlaconf.mbt.memo import state_key
from tlaconf.mbt.run import session_for
from tlaconf.mbt.solver import EnumerationSolver

from .apalache_exchanges import Exchange, Playback, recorded
from .vault_solver import CODE, SCENARIOS, VAULT, VaultDriver, vault_solver

NEEDS_APALACHE = pytest.mark.skipif(
    not os.environ.get("APALACHE_MC"),
    reason="needs a real Apalache: set APALACHE_MC=/path/to/apalache-mc (Apalache 0.62, "
    "https://apalache-mc.org/docs/apalache/installation/)")


def _guards(solver: Any, action: str) -> dict[str, Any]:
    """The action's guards by the source line they are on."""
    return {f"line {g[1]}": g for g in solver.guards(action)}


def _playback(name: str, edit: Any = None, again: bool = False) -> tuple[Any, list[Playback]]:
    """The vault's solver answered from the recording ``name`` (``edit``: changed first;
    ``again``: played from the start again once used up)."""
    exchanges = copy.deepcopy(recorded()[name])
    if edit is not None:
        edit(exchanges)
    queue: list[Exchange] = []
    clients: list[Playback] = []

    def connect(limit: float) -> Playback:
        if not queue and (again or not clients):
            queue.extend(copy.deepcopy(exchanges))
        clients.append(Playback(queue, limit))
        return clients[-1]

    return vault_solver(connect), clients


def _checks(exchanges: list[Exchange]) -> list[Exchange]:
    return [e for e in exchanges if e["method"] == "checkInvariant"]


def test_enumeration_alone_finds_no_allowed_request_in_the_vault() -> None:
    session = session_for(VaultDriver(), VAULT)
    solver = EnumerationSolver(session.domains, CoverageProbe(session.domains.ctx))
    state = {"balance": 300}
    sol = solver.solve("Withdraw", state, state_key(state))
    assert sol.domain == 10_000 * 1_000 and not sol.complete
    assert not sol.allowed and not sol.enabled and len(sol.near_miss) < 3


def test_recorded_answers_give_a_near_miss_for_every_guard() -> None:
    solver, clients = _playback("withdraw-initial")
    action, state = SCENARIOS["withdraw-initial"]
    sol = solver.solve(action, state, state_key(state))
    assert len(clients) == 1 and clients[0].done  # every recorded exchange asked, in order
    g = _guards(solver, action)
    code, checksum, amount = g["line 17"], g["line 18"], g["line 19"]
    assert set(sol.near_miss) == set(sol.allowed) == set(sol.decided) == {code, checksum, amount}
    ok = sol.allowed[code]
    assert ok["pin"] == CODE and (ok["pin"] + ok["amount"]) % 97 == 13
    assert 1 <= ok["amount"] <= 300 and ok in sol.enabled
    wrong_code = sol.near_miss[code]
    assert wrong_code["pin"] != CODE and (wrong_code["pin"] + wrong_code["amount"]) % 97 == 13
    wrong_sum = sol.near_miss[checksum]
    assert wrong_sum["pin"] == CODE and (wrong_sum["pin"] + wrong_sum["amount"]) % 97 != 13
    too_much = sol.near_miss[amount]
    assert too_much["pin"] == CODE and not 1 <= too_much["amount"] <= 300
    assert {(h, "near miss") for h in (code, checksum, amount)} <= sol.solved
    assert sol.solver_seconds > 0 and not sol.undecided


def test_the_request_sent_is_the_state_and_the_domain() -> None:
    import base64

    load = recorded()["withdraw-initial"][0]
    root = base64.b64decode(load["params"]["sources"][0]).decode()
    assert "/\\ balance = 300" in root
    assert "\\E tlaconf_f0 \\in (0)..(999) : \\E tlaconf_f1 \\in (0)..(9999)" in root
    assert "TlaconfQ0:: (~(" in root and "INSTANCE Vault WITH Code <- TlaconfConst_Code" in root
    assert load["params"]["invariants"] == [f"TlaconfQ{i}Q" for i in range(7)]


def test_a_guard_no_request_makes_true_is_proved_dead() -> None:
    solver, clients = _playback("sweep-initial")
    action, state = SCENARIOS["sweep-initial"]
    sol = solver.solve(action, state, state_key(state))
    assert len(clients) == 2 and clients[-1].done
    g = _guards(solver, action)
    code, dead = g["line 24"], g["line 25"]
    assert dead not in sol.true and {code, dead} <= sol.decided
    assert not sol.allowed and not sol.enabled
    assert sol.near_miss[dead]["pin"] == CODE  # the code right, the amount short
    assert code not in sol.near_miss  # proved: every request with the code breaks the other
    # the closest miss instead, from the second session: a wrong code, the other guard too
    assert sol.closest[code]["pin"] != CODE and (code, "closest miss") in sol.solved


def test_unknown_is_undecided_not_guessed() -> None:
    def unknown(exchanges: list[Exchange]) -> None:
        check = _checks(exchanges)[1]  # the first guard's near miss
        check["result"] = {**check["result"], "invariantStatus": "UNKNOWN", "trace": None}

    solver, _ = _playback("withdraw-initial", unknown)
    action, state = SCENARIOS["withdraw-initial"]
    sol = solver.solve(action, state, state_key(state))
    code = _guards(solver, action)["line 17"]
    assert code not in sol.decided and "UNKNOWN" in sol.undecided[code]
    assert code not in sol.near_miss or (code, "near miss") not in sol.solved
    assert len(sol.decided) == 2


def test_no_answer_in_time_leaves_the_rest_undecided() -> None:
    def timeout(exchanges: list[Exchange]) -> None:
        check = _checks(exchanges)[3]
        index = exchanges.index(check)
        del exchanges[index + 1:]
        exchanges[index] = {**check, "error": {"code": -1, "message": "Read timed out"}}
        exchanges[index].pop("result")

    solver, _ = _playback("withdraw-initial", timeout)
    action, state = SCENARIOS["withdraw-initial"]
    sol = solver.solve(action, state, state_key(state))
    g = _guards(solver, action)
    assert g["line 17"] in sol.decided
    for line in ("line 18", "line 19"):
        assert "no answer within the time limit" in sol.undecided[g[line]]
        assert g[line] not in sol.decided


def test_a_module_apalache_cannot_load_leaves_every_guard_undecided() -> None:
    def refuse(exchanges: list[Exchange]) -> None:
        exchanges[0].pop("result")
        exchanges[0]["error"] = {"code": 120, "message": "Failed to load specification: "
                                 "PassFailure(TypeCheckerSnowcat,[[\"Vault.tla:18:8-18:35\", "
                                 "\"Expected Int\"]],120)"}
        del exchanges[1:]

    solver, _ = _playback("withdraw-initial", refuse)
    action, state = SCENARIOS["withdraw-initial"]
    sol = solver.solve(action, state, state_key(state))
    assert not sol.decided and len(sol.undecided) == 3
    assert all("Apalache cannot load the module" in why and "Vault.tla:18:8" in why
               for why in sol.undecided.values())


def test_a_recorded_exchange_differs_when_the_request_does() -> None:
    solver, _ = _playback("withdraw-initial")
    with pytest.raises(AssertionError, match="recorded loadSpec"):
        solver.solve("Withdraw", {"balance": 299}, state_key({"balance": 299}))


def test_cli_solver_apalache_without_apalache_is_bad_input(  # type: ignore[no-untyped-def]
        mbt_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    vault = VAULT / "Vault.tla"
    not_apalache = tmp_path / "not-apalache"
    not_apalache.write_text("")
    monkeypatch.setenv("APALACHE_MC", str(not_apalache))
    out = mbt_cli(vault, "--driver", "vault:correct", "--solver", "apalache",
                  "--examples", "1", "--steps", "1", "--no-database")
    assert out.code == 2 and "is not an executable file" in out.err
    bad = mbt_cli(vault, "--driver", "vault:correct", "--solver-timeout", "0")
    assert bad.code == 2 and "positive number of seconds" in bad.err
    bad = mbt_cli(vault, "--driver", "vault:correct", "--solver", "z3")
    assert bad.code == 2 and "invalid choice" in bad.err


@NEEDS_APALACHE
@pytest.mark.apalache
def test_apalache_finds_the_skipped_checksum_that_enumeration_misses(tmp_path: Path) -> None:
    from vault import correct, skipping

    options = Options(steps=10, examples=5, database=None, out_dir=tmp_path, solver="apalache")
    outcome = run(skipping(), VAULT, options)
    assert outcome.found is not None and outcome.found.by == "directed"
    assert outcome.found.result is not None
    failure = outcome.found.result.failure
    assert failure is not None and failure.action == "Withdraw"
    plan = outcome.survey
    assert plan is not None and plan.solver == "apalache"
    assert any(size == 10_000_000 and kind == "near miss" for _, _, kind, size, _ in plan.solved())
    doc = plan.to_json()
    assert doc["solver"] == "apalache" and doc["solver_seconds"] > 0 and doc["solved"]
    enumerated = run(skipping(), VAULT, Options(steps=10, examples=20, database=None,
                                                out_dir=tmp_path, solver="enumeration"))
    assert enumerated.found is None
    fine = run(correct(), VAULT, options)
    assert fine.found is None
    rows = {(a.action, r.text): r for a in fine.guards for r in a.rows}
    assert all(r.status == BOTH for (a, _), r in rows.items() if a == "Withdraw")
    assert rows[("Sweep", "p.amount > balance + 999")].dead
    assert any("is a dead guard" in w for w in warnings(fine.guards))


def test_the_recorded_answers_are_apalaches() -> None:
    data = json.loads((Path(__file__).with_name("apalache_answers.json")).read_text())
    assert data["apalache"].startswith("v0.62")
    assert set(data["scenarios"]) == set(SCENARIOS)


def test_apalache_is_not_asked_again_once_it_settles_nothing_new() -> None:
    from tlaconf.mbt.apalache_solver import PATIENCE

    solver, _ = _playback("sweep-initial", again=True)
    action, state = SCENARIOS["sweep-initial"]
    for _ in range(1 + PATIENCE):  # the first state settles both guards, the others nothing
        assert not solver.solve(action, state, state_key(state)).undecided
    assert solver.calls == 2 * (1 + PATIENCE)  # two sessions a state: the closest miss asked
    last = solver.solve(action, state, state_key(state))
    assert solver.calls == 2 * (1 + PATIENCE)
    assert all("not asked in this state" in why for why in last.undecided.values())
    assert len(last.undecided) == 2


def test_an_actions_conjuncts_are_found_through_the_operators_it_calls(tmp_path: Path) -> None:
    from tlaconf.replay.apalache.guard_texts import action_conjuncts, by_where
    from tlaconf.spec.lookup import module_spec

    (tmp_path / "Nest.tla").write_text(
        "---- MODULE Nest ----\nEXTENDS Naturals\nVARIABLES x\n"
        "Ok(n, m) == /\\ n \\in 1..m\n            /\\ n # 3\n"
        "Step(p) == /\\ Ok(p.n, x)\n           /\\ x' = x + p.n\n"
        "           /\\ p.k \\notin 2..x\n           /\\ Ok(p.n, x + 1)\n====\n")
    found = action_conjuncts(module_spec(tmp_path, "Nest", "1", {}), "Step", ("x",))
    by_line: dict[tuple[int, int], Any] = {}
    for c in found.conjuncts:
        by_line.setdefault((c.where[1], c.where[2]), c)  # the first of those met twice
    outer, low, three = by_line[(6, 15)], by_line[(4, 16)], by_line[(5, 16)]
    assert outer.text == "Ok(((tlaconf_p).n), (x))" and not outer.inside
    assert low.text == "(((1) <= (((tlaconf_p).n))) /\\ ((((tlaconf_p).n)) <= ((x))))"
    assert low.inside == three.inside == (outer.where,)
    assert by_line[(7, 15)].text is None  # reads the next state
    assert by_line[(8, 15)].text == "(~(((2) <= ((tlaconf_p).k)) /\\ (((tlaconf_p).k) <= (x))))"
    again = by_line[(9, 15)]
    second = [c for c in found.conjuncts if c.where == low.where][1]
    assert second.text.endswith("<= ((((x) + (1))))))") and second.inside == (again.where,)
    merged = by_where(found.conjuncts)[low.where]  # met through both calls of Ok
    assert merged.text == f"({low.text}) /\\ ({second.text})"
    assert merged.inside == (outer.where, again.where)
    assert by_where(found.conjuncts)[three.where].text == three.text  # the same both times


def test_a_guard_settled_in_some_states_says_so_beside_the_states_left() -> None:
    from tlaconf.mbt.directed import Facts, Survey
    from tlaconf.mbt.guard_report import _why_not_false, _why_not_true

    spent = "Apalache was not asked in this state: 2 sessions in a row had settled nothing new"
    partly = Facts(states=5, reached=True, true=False, too_large=10_000_000, settled=2,
                   undecided=spent)
    plan = Survey(depth=3)
    no_false = _why_not_false(partly, plan, "Sweep")
    assert no_false.startswith("no request of Params_Sweep makes it FALSE in the 2 reachable")
    assert "in 3 other state(s) domain too large to enumerate (10000000 requests); " + spent \
        in no_false
    no_true = _why_not_true(partly, plan)  # dead where examined, and says where it was not
    assert no_true.startswith("dead guard: FALSE for every request in the 2 reachable state(s)")
    assert "not examined in 3 other state(s): domain too large" in no_true
    whole = Facts(states=5, reached=True, true=False, settled=5)
    assert _why_not_true(whole, plan).startswith("dead guard")
    never = Facts(states=5, reached=True, true=False, too_large=10_000_000)
    assert _why_not_true(never, plan) == "domain too large to enumerate (10000000 requests)"
