"""Breadth-first search on worker processes (``tlaconf explore -w N``).

The states are partitioned by fingerprint: worker ``fp % N`` owns the state ``fp`` (stores
it, deduplicates it, checks its invariants and expands it at the next level).  Each level
is two rounds: every worker expands the states it admitted at the last level (successors,
constraints, fingerprints: :meth:`Engine.generate`), and the successors are handed to their
owners, which admit the new ones (:meth:`Engine.admit`).  The counts are those of one
process: every successor is generated once, every distinct state admitted once.  A
violation's path is gathered from the owners of its states.

Workers are forked from the process that loaded the model (Linux, macOS), so they share
its loaded module without loading it again.  :func:`search` runs the rounds over any
:class:`Pool` of :class:`Worker` s (pipes to forked processes here, Dask actors in
:mod:`tlaconf.explore.cluster`).  States cross to other processes pickled by :func:`dumps`
(a function without its cached hash: another process has its own string-hash seed).
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
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.hooks import State, StateId
from tlaconf.explore.model import Model
from tlaconf.explore.result import Result, Step, Violation

Item = tuple[StateId | None, Label | None, StateId, State]
"""A state handed to its owner: (parent, label, id, state)."""


class Channel(Protocol):
    """One end of a worker's connection (a multiprocessing ``Connection``)."""

    def send(self, obj: Any) -> None: ...

    def recv(self) -> Any: ...


class Pool(Protocol):
    """The coordinator's side: a request to every worker at once, or to one."""

    def ask_all(self, msgs: Sequence[Any]) -> list[tuple[Any, ...]]: ...

    def ask(self, i: int, msg: Any) -> tuple[Any, ...]: ...


def dumps(obj: Any) -> bytes:
    """``obj`` pickled so that any process can load it (:func:`pickle.loads`; a function
    is pickled without its cached hash, which another process would not share)."""
    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


class Worker:
    """Worker ``me`` of ``n``: owns the states whose fingerprint is ``me`` modulo ``n``.

    :meth:`handle` answers ``("admit", level, blobs)`` with ``("ok", new)`` or
    ``("found", kind, name, id, new)``; ``("expand", level)`` with ``("ok", generated,
    blobs)`` (one pickled list of items per owner, which the coordinator hands on
    unopened) or ``("found", kind, name, id, generated)``; ``("record", id)`` with
    ``("ok", blob)`` (parent, label, state).  An error is answered ``("error", exception)``."""

    def __init__(self, engine: Engine, me: int, n: int) -> None:
        self.engine, self.me, self.n = engine, me, n
        self.pending: list[tuple[StateId, State]] = []

    def handle(self, msg: tuple[Any, ...]) -> tuple[Any, ...]:
        res = self.engine.result
        counted = res.distinct_states if msg[0] == "admit" else res.total_states
        try:
            if msg[0] == "record":
                return ("ok", dumps(self.engine.record(msg[1])))
            if msg[0] == "admit":
                return self._admit(msg[1], msg[2])
            if msg[0] == "expand":
                return self._expand(msg[1])
            raise ValueError(f"unknown request {msg[0]!r}")
        except Found as found:  # with what was counted before it
            now = res.distinct_states if msg[0] == "admit" else res.total_states
            return ("found", found.kind, found.name, found.sid, now - counted, found.last)
        except Exception as exc:  # handed to the coordinator, which raises it
            return ("error", _portable(exc))

    def _admit(self, level: int, blobs: Sequence[bytes]) -> tuple[Any, ...]:
        engine = self.engine
        before = engine.result.distinct_states
        with engine.model.guard():
            for blob in blobs:
                for src, label, dst, state in pickle.loads(blob):
                    if engine.admit(src, label, dst, state, level):
                        self.pending.append((dst, state))
        return ("ok", engine.result.distinct_states - before)

    def _expand(self, level: int) -> tuple[Any, ...]:
        engine, n, me = self.engine, self.n, self.me
        generated = engine.result.total_states
        batches: list[list[Item]] = [[] for _ in range(n)]
        sent: set[StateId] = set()
        layer, self.pending = self.pending, []
        for sid, state in layer:
            with engine.model.guard():
                for label, dst, nxt in engine.generate(sid, state, level):
                    owner = dst % n
                    if dst in sent or (owner == me and dst in engine):
                        continue
                    sent.add(dst)
                    batches[owner].append((sid, label, dst, nxt))
        return ("ok", engine.result.total_states - generated,
                [dumps(b) for b in batches])


def serve(engine: Engine, conn: Channel, me: int, n: int) -> None:
    """A forked worker's loop: answer the coordinator until it says ``("stop",)``."""
    worker = Worker(engine, me, n)
    while True:
        msg = conn.recv()
        if msg[0] == "stop":
            return
        conn.send(worker.handle(msg))


def _portable(exc: Exception) -> Exception:
    """``exc`` if it can cross to the coordinator, else a UserError saying it."""
    try:
        pickle.loads(dumps(exc))
        return exc
    except Exception:
        return UserError(str(exc))


def answered(answer: tuple[Any, ...]) -> tuple[Any, ...]:
    """A worker's answer, its error raised."""
    if answer[0] == "error":
        raise answer[1]
    return answer


class _Pipes:
    """The pool of forked workers: one pipe each."""

    def __init__(self, conns: Sequence[Channel]) -> None:
        self.conns = conns

    def ask_all(self, msgs: Sequence[Any]) -> list[tuple[Any, ...]]:
        for conn, msg in zip(self.conns, msgs, strict=True):
            conn.send(msg)
        return [answered(conn.recv()) for conn in self.conns]

    def ask(self, i: int, msg: Any) -> tuple[Any, ...]:
        self.conns[i].send(msg)
        return answered(self.conns[i].recv())


def refuse_properties(model: Model, how: str) -> None:
    """Unsupported when ``model``'s PROPERTY lines are to be checked: their checker needs
    every state and step in one process."""
    if model.properties is not None:
        raise Unsupported(f"{how} does not check PROPERTY lines (a property's checker needs "
                          "the whole state graph in one process): explore with one worker, "
                          "or give --skip-properties", str(model.cfg.path or model.tla))


def parallel_bfs(model: Model, workers: int, max_depth: int | None = None,
                 progress: Progress | None = None) -> Result:
    """Explore ``model`` breadth first on ``workers`` forked processes; the same counts
    as :func:`~tlaconf.explore.bfs` (a violation's path is a shortest one too)."""
    if workers < 1:
        raise UserError(f"the number of workers must be at least 1, not {workers}")
    refuse_properties(model, f"-w {workers}")
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
        return search(engine, _Pipes(conns), workers, max_depth, progress)
    finally:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(("stop",))
        for proc in procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()


def search(engine: Engine, pool: Pool, n: int, max_depth: int | None,
           progress: Progress | None) -> Result:
    """The rounds of a partitioned breadth-first search, from the coordinator."""
    start = time.perf_counter()
    res = Result()
    first: list[list[Item]] = [[] for _ in range(n)]
    seen: set[StateId] = set()
    try:
        for sid, state in engine.initial_candidates():
            if sid not in seen:
                seen.add(sid)
                first[sid % n].append((None, None, sid, state))
    except Found as excluded:  # an initial state the constraints exclude
        res.total_states = engine.result.total_states
        res.result = "violation"
        res.violation = Violation(excluded.name or None, engine.found_path(excluded),
                                  excluded.kind)
        res.seconds = time.perf_counter() - start
        return res
    res.total_states = engine.result.total_states

    def found(answers: list[tuple[Any, ...]]) -> bool:
        """Whether a worker found a violation (then the result's)."""
        hit = next((a for a in answers if a[0] == "found"), None)
        if hit is None:
            return False
        _, kind, name, sid, _, last = hit
        res.result = "deadlock" if kind == "deadlock" else "violation"
        path = () if sid is None else _path(pool, n, sid)
        res.violation = Violation(name or None, path + (() if last is None else (last,)), kind)
        return True

    level = 1
    pack = dumps
    answers = pool.ask_all([("admit", level, [pack(b)]) for b in first])
    while True:
        new = sum(a[1] if a[0] == "ok" else a[4] for a in answers)
        res.distinct_states += new
        if new:
            res.depth = level
        if found(answers) or not new:
            break
        if progress is not None:
            res.seconds = time.perf_counter() - start
            progress(res, new)
        if max_depth is not None and level >= max_depth:
            res.complete = False
            break
        answers = pool.ask_all([("expand", level)] * n)
        res.total_states += sum(a[1] if a[0] == "ok" else a[4] for a in answers)
        if found(answers):
            break
        routed = [[a[2][owner] for a in answers] for owner in range(n)]
        level += 1
        answers = pool.ask_all([("admit", level, b) for b in routed])
    res.seconds = time.perf_counter() - start
    return res


def _path(pool: Pool, n: int, sid: StateId) -> tuple[Step, ...]:
    """The path to ``sid``, asked of the owners of its states."""
    out: list[Step] = []
    at: StateId | None = sid
    while at is not None:
        parent, label, state = pickle.loads(pool.ask(at % n, ("record", at))[1])
        out.append(Step(label, state))
        at = parent
    return tuple(reversed(out))


__all__ = ["Channel", "Pool", "Worker", "answered", "dumps", "parallel_bfs", "search", "serve"]
