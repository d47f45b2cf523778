r"""The small modules of ``modules/`` under tlaconf explore, against TLC's recorded answers
(``tlc_answers.json``, ``python -m tests.tracespecs.generate_tlc_answers modules``).

* ``Redefined``: the smallest module of the etcd raft divergence.  A ``.cfg`` line
  ``InitX <- TraceInitX`` redefines a definition of a module the spec EXTENDS; TLC rebinds
  the definition itself, so the base's ``Init`` starts from the trace's state (tlaconf
  used to rebind only the root module's name: etcd raft's ``Init`` kept the base's empty
  logs and the search dead-ended at log entry 33).  An INSTANCE's definitions see the
  redefinition too (etcd raft's refinement property ``etcd!Init``); only ``I!InitX``,
  named through the instance, is the instance's own copy.
* ``RedefinedValueTop``: the same with ``Limit = 4`` (a value for a definition).
* ``ExitTrace``: ``TLCSet("exit", TRUE)`` in a ``CONSTRAINT`` ends the search of
  ``tlaconf validate`` where TLC's ends (a module with a ``POSTCONDITION`` runs under
  ``tlaconf validate``, the others under ``tlaconf explore``).
* ``Clash``: the smallest module of the KeyValueStore divergence: a name two EXTENDed
  modules define (``F``, ``G``; ``Remove`` of ``SequencesExt``, overridden in Java) is
  SANY's warning, and the first module's definition is the one TLC evaluates (tlaconf
  refused the spec).  ``ClashKinds``: a name one declares and the other defines is
  SANY's error (exit 2).
* ``PrintArg``: the smallest module of the LockServer divergence: TLC passes an operator
  its arguments unevaluated (computed where first used, once), so a ``Print`` in an
  argument the operator never uses never prints (tlaconf printed lbinria's
  ``Default(varName)`` at every step).
* ``LambdaAction``: the smallest module of the PGo divergence: an action passed down as
  a ``LAMBDA`` assigns where it is applied (tlaconf read its ``x'`` as a value); and
  ``TLCCache``.
* ``IOTrace``, ``IOTraceReject``: a log read by ``IODeserialize`` from a file TLC's
  ``IOSerialize`` wrote (compressed or not), and every kind of value it holds, printed.
* ``RegisterTrace``, ``RegisterTraceReject``: CCF's style: TLC register 0 written in the
  next-state relation and read by the ``POSTCONDITION``, ``TLCGet("queue") \in Nat \ {0}``,
  ``TLCSet("exit")`` in a ``CONSTRAINT``.
* ``DeadlockTrace``, ``DeadlockTraceReject``: deadlock as the end of a log read by
  ``JsonDeserialize``: TLC's verdict is the deadlock, at the log's end or earlier.
* ``Prints``: what TLC prints, in order: every constant definition without parameters
  once at startup (EXTENDed modules first, used or not), then the ASSUMEs, then every
  other ``Print``/``PrintT`` each time it is evaluated (never in a branch not taken:
  etcd raft's ``l' > Len(TraceLog) => PrintT(<<"Progress %:", 100>>)`` printed "100%" at
  the start, folded as a constant).
* ``PrintReject``: a trace spec printing in its step, whose log it rejects: the diagnosis
  of the rejection (which evaluates the last steps again) prints nothing TLC did not.
* ``Diag*``: a trace spec of each style with the log it rejects, or the error it meets
  (``test_diagnosis.py`` checks the diagnosis; here, that TLC rejects them too).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.evaluate import EvalError
from tlaconf.explore import bfs, load_model
from tlaconf.validate.tracespec import validate_trace_spec

HERE = Path(__file__).parent
ANSWERS = json.loads((HERE / "tlc_answers.json").read_text())["modules"]
LIB = [HERE.parent / "library" / "data" / "lib"]
"""The community modules the modules EXTEND (``SequencesExt``, ``IOUtils``)."""


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_same_states_and_prints_as_tlc(name: str, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    tlc = ANSWERS[name]
    tla = HERE / "modules" / f"{name}.tla"
    monkeypatch.chdir(tla.parent)  # where TLC ran, and the logs the modules read are
    cfg = tla.with_suffix(".cfg").read_text()
    if tlc["verdict"] == "failed":  # SANY refused the module: so does tlaconf, exit 2
        with pytest.raises(UserError):
            load_model(tla, search_path=LIB)
        return
    if "TLC threw an unexpected exception" in tlc.get("error", ""):  # an evaluation error
        with pytest.raises(EvalError):
            validate_trace_spec(tla, library=LIB)
        return
    if "POSTCONDITION" in cfg or "PROPERTY" in cfg or tlc["verdict"] != "accepted":
        out = validate_trace_spec(tla, library=LIB)
        found = (out.result, out.distinct_states, out.depth)
    else:
        result = bfs(load_model(tla, search_path=LIB))
        found = ("accepted", result.distinct_states, result.depth)
    printed = capsys.readouterr().err.splitlines()
    assert found == (tlc["verdict"], tlc["distinct"], tlc["depth"])
    assert printed == tlc["printed"]


def test_the_redefinition_reaches_the_extended_module() -> None:
    assert ANSWERS["Redefined"]["printed"][0] == "<<10, FALSE, TRUE>>"
    assert ANSWERS["RedefinedValueTop"]["distinct"] == 5


def test_a_redefinition_under_an_instances_substitutions_is_refused(tmp_path: Path) -> None:
    """TLC reads the redefinition under ``J(0)``'s substitution (``J(0)!Init`` is FALSE,
    ``J(10)!Init`` TRUE, from x = 10); tlaconf does not: an error, never another value."""
    for name in ("RedefinedBase.tla", "Redefined.cfg"):
        (tmp_path / name).write_text((HERE / "modules" / name).read_text())
    (tmp_path / "Redefined.tla").write_text(
        "---- MODULE Redefined ----\nEXTENDS RedefinedBase, TLC\nTraceInitX == x = 10\n"
        "J(y) == INSTANCE RedefinedBase WITH x <- y\nInv == PrintT(<<J(0)!Init>>)\n====\n")
    with pytest.raises(UserError, match="redefines InitX, which an INSTANCE with substitutions"):
        bfs(load_model(tmp_path / "Redefined.tla"))


def test_exit_is_an_error_where_the_search_does_not_stop(tmp_path: Path) -> None:
    """``tlaconf explore`` does not stop at ``TLCSet("exit", TRUE)``: an error, never a
    count of states TLC would not have explored."""
    (tmp_path / "Ex.tla").write_text(
        "---- MODULE Ex ----\nEXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n"
        'Next == x\' = x + 1\nStop == x >= 3 => TLCSet("exit", TRUE)\n====\n')
    (tmp_path / "Ex.cfg").write_text("INIT Init\nNEXT Next\nCONSTRAINT Stop\n")
    with pytest.raises(EvalError, match=r'TLCSet\("exit", \.\.\.\) stops a search'):
        bfs(load_model(tmp_path / "Ex.tla"))


def test_a_missing_module_is_placed_in_the_extends_clause_not_in_a_comment(
        tmp_path: Path) -> None:
    """A header comment that says ``EXTENDS`` (as ``Clash``'s does) is not the clause."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\n(* This module EXTENDS Foo (* and Bar *) *)\n\\* EXTENDS Foo\n"
        "EXTENDS Naturals,\n   Foo\nVARIABLE x\nInit == x = 0\nNext == UNCHANGED x\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    with pytest.raises(UserError, match=r"M\.tla:5:4: module Foo not found"):
        load_model(tmp_path / "M.tla")
