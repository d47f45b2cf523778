"""Breadth-first search on worker processes (``tlaconf explore -w N``).

The states are partitioned by fingerprint: worker ``fp % N`` owns the state ``fp`` (stores
it, deduplicates it, checks its invariants and expands it at the next level).  Each level
is two rounds: every worker expands the states it admitted at the last level (successors,
constraints, fingerprints: :meth:`Engine.generate`), and the successors are handed to their
owners, which admit the new ones (:meth:`Engine.admit`).  The counts are those of one
process: every successor is generated once, every distinct state admitted once.  A
violation's path is gathered from the owners of its states.

Workers are forked from the process that loaded the model (Linux, macOS), so they share
its loaded module without loading it again; :func:`parallel_bfs` runs the rounds over
pipes from any coordinator, :func:`serve` is a worker's loop.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import time
from collections.abc import Sequence
from typing import Any, Protocol

from tlaconf.errors import UserError
from tlaconf.explore.adapter import Label
from tlaconf.explore.engine import Engine, Found, Progress
from tlaconf.explore.hooks import State, StateId
from tlaconf.explore.model import Model
from tlaconf.explore.result import Result, Step, Violation

Item = tuple[StateId | None, Label | None, StateId, State]
"""A state handed to its owner: (parent, label, id, state)."""


class Channel(Protocol):
    """One end of a worker's connection (a multiprocessing ``Connection``)."""

    def send(self, obj: Any) -> None: ...

    def recv(self) -> Any: ...


def serve(engine: Engine, conn: Channel, me: int, n: int) -> None:
    """Worker ``me`` of ``n``: answer the coordinator's requests until it says stop.

    ``("admit", level, blobs)`` -> ``("ok", new, None)`` or ``("found", kind, name, id)``;
    ``("expand", level)`` -> ``("ok", generated, blobs)`` (one pickled list of items per
    owner, which the coordinator hands on unopened) or ``("found", ...)``;
    ``("record", id)`` -> ``("ok", parent, label, state)``; ``("stop",)``.  An error is
    answered ``("error", exception)``."""
    pending: list[tuple[StateId, State]] = []
    model = engine.model
    while True:
        msg = conn.recv()
        try:
            if msg[0] == "stop":
                return
            if msg[0] == "record":
                conn.send(("ok", *engine.record(msg[1])))
            elif msg[0] == "admit":
                before = engine.result.distinct_states
                level = msg[1]
                with model.guard():
                    for blob in msg[2]:
                        for src, label, dst, state in pickle.loads(blob):
                            if engine.admit(src, label, dst, state, level):
                                pending.append((dst, state))
                conn.send(("ok", engine.result.distinct_states - before, None))
            elif msg[0] == "expand":
                generated = engine.result.total_states
                batches: list[list[Item]] = [[] for _ in range(n)]
                sent: set[StateId] = set()
                layer, pending = pending, []
                for sid, state in layer:
                    with model.guard():
                        for label, dst, nxt in engine.generate(sid, state, msg[1]):
                            owner = dst % n
                            if dst in sent or (owner == me and dst in engine):
                                continue
                            sent.add(dst)
                            batches[owner].append((sid, label, dst, nxt))
                conn.send(("ok", engine.result.total_states - generated,
                           [pickle.dumps(b, pickle.HIGHEST_PROTOCOL) for b in batches]))
        except Found as found:
            conn.send(("found", found.kind, found.name, found.sid))
        except Exception as exc:  # handed to the coordinator, which raises it
            conn.send(("error", _portable(exc)))


def _portable(exc: Exception) -> Exception:
    """``exc`` if it can cross a pipe, else a UserError saying it."""
    try:
        pickle.dumps(exc)
        return exc
    except Exception:
        return UserError(str(exc))


class _Pool:
    """The coordinator's side: one channel per worker, requests sent to all at once."""

    def __init__(self, conns: Sequence[Channel]) -> None:
        self.conns = conns

    def ask_all(self, msgs: Sequence[Any]) -> list[tuple[Any, ...]]:
        for conn, msg in zip(self.conns, msgs, strict=True):
            conn.send(msg)
        answers = [conn.recv() for conn in self.conns]
        for a in answers:
            if a[0] == "error":
                raise a[1]
        return answers

    def ask(self, i: int, msg: Any) -> tuple[Any, ...]:
        self.conns[i].send(msg)
        answer: tuple[Any, ...] = self.conns[i].recv()
        if answer[0] == "error":
            raise answer[1]
        return answer


def parallel_bfs(model: Model, workers: int, max_depth: int | None = None,
                 progress: Progress | None = None) -> Result:
    """Explore ``model`` breadth first on ``workers`` forked processes; the same counts
    as :func:`~tlaconf.explore.bfs` (a violation's path is a shortest one too)."""
    if workers < 1:
        raise UserError(f"the number of workers must be at least 1, not {workers}")
    ctx = multiprocessing.get_context("fork")
    engine = Engine(model, max_depth=max_depth)
    conns, procs = [], []
    for i in range(workers):
        here, there = ctx.Pipe()
        proc = ctx.Process(target=serve, args=(engine, there, i, workers), daemon=True)
        proc.start()
        there.close()
        conns.append(here)
        procs.append(proc)
    try:
        return search(engine, _Pool(conns), workers, max_depth, progress)
    finally:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(("stop",))
        for proc in procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()


def search(engine: Engine, pool: _Pool, n: int, max_depth: int | None,
           progress: Progress | None) -> Result:
    """The rounds of a partitioned breadth-first search, from the coordinator."""
    start = time.perf_counter()
    res = Result()
    first: list[list[Item]] = [[] for _ in range(n)]
    seen: set[StateId] = set()
    for sid, state in engine.initial_candidates():
        if sid not in seen:
            seen.add(sid)
            first[sid % n].append((None, None, sid, state))
    res.total_states = engine.result.total_states

    def admit(blobs: list[list[bytes]], level: int) -> int:
        """Hand the states to their owners: how many were new (0 after a violation)."""
        answers = pool.ask_all([("admit", level, b) for b in blobs])
        return 0 if found(answers) else sum(a[1] for a in answers)

    def found(answers: list[tuple[Any, ...]]) -> bool:
        """Whether a worker found a violation (then the result's)."""
        hit = next((a for a in answers if a[0] == "found"), None)
        if hit is None:
            return False
        _, kind, name, sid = hit
        res.result = "deadlock" if kind == "deadlock" else "violation"
        res.violation = Violation(name or None, _path(pool, n, sid), kind)
        return True

    new = admit([[pickle.dumps(b, pickle.HIGHEST_PROTOCOL)] for b in first], 1)
    level = 1
    while new:
        res.distinct_states += new
        res.depth = level
        if progress is not None:
            res.seconds = time.perf_counter() - start
            progress(res, new)
        if max_depth is not None and level >= max_depth:
            res.complete = False
            break
        answers = pool.ask_all([("expand", level)] * n)
        if found(answers):
            break
        res.total_states += sum(a[1] for a in answers)
        routed = [[a[2][owner] for a in answers] for owner in range(n)]
        level += 1
        new = admit(routed, level)
    res.seconds = time.perf_counter() - start
    return res


def _path(pool: _Pool, n: int, sid: StateId) -> tuple[Step, ...]:
    """The path to ``sid``, asked of the owners of its states."""
    out: list[Step] = []
    at: StateId | None = sid
    while at is not None:
        _, parent, label, state = pool.ask(at % n, ("record", at))
        out.append(Step(label, state))
        at = parent
    return tuple(reversed(out))


__all__ = ["Channel", "parallel_bfs", "search", "serve"]
