"""Breadth-first search on the workers of a Dask cluster (``explore --cluster
tcp://HOST:PORT``): the rounds of :func:`tlaconf.explore.workers.search`, with one
:class:`~tlaconf.explore.workers.Worker` per Dask worker (a Dask actor).

The workers may run on other machines: the module's folder (its ``.tla`` and ``.cfg``
files) and the library path (its folders' ``.tla`` files, its jars) are sent to each, which
loads the model from them.  Imported only when ``--cluster`` is given (Dask is optional).
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.explore.engine import Engine, Progress
from tlaconf.explore.model import Model, load_model
from tlaconf.explore.result import Result
from tlaconf.explore.workers import Worker, answered, refuse_properties, search

Bundle = dict[str, bytes]
"""Files sent to the workers: ``spec/NAME`` (the module's folder), ``model.cfg``,
``libI/NAME`` (the I-th library entry's folder, or ``libI`` for a jar)."""

_CONNECT = 20.0
"""Seconds to reach the scheduler."""


def bundle(tla: Path, cfg: Path, library: Sequence[Path]) -> Bundle:
    """The files a worker needs to load the model of ``tla`` under ``cfg``."""
    out: Bundle = {}
    for f in sorted(tla.parent.iterdir()):
        if f.is_file() and f.suffix in (".tla", ".cfg"):
            out[f"spec/{f.name}"] = f.read_bytes()
    out["model.cfg"] = cfg.read_bytes()
    for i, entry in enumerate(library):
        if entry.is_dir():
            for f in sorted(entry.iterdir()):
                if f.is_file() and f.suffix == ".tla":
                    out[f"lib{i}/{f.name}"] = f.read_bytes()
        elif entry.is_file():
            out[f"lib{i}"] = entry.read_bytes()
    return out


class ClusterWorker:
    """A Dask actor: the model loaded from a :func:`bundle`, and its :class:`Worker`."""

    def __init__(self, files: Bundle, module: str, library: int, me: int, n: int) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="tlaconf-explore-")
        root = Path(self._dir.name)
        for name, data in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        lib = [root / f"lib{i}" for i in range(library)]
        # the coordinator has checked the .cfg (PROPERTY lines were refused or allowed)
        model = load_model(root / "spec" / module, root / "model.cfg", lib,
                           check_properties=False)
        self.worker = Worker(Engine(model), me, n)

    def handle(self, msg: tuple[Any, ...]) -> tuple[Any, ...]:
        return self.worker.handle(msg)


class _Actors:
    """The pool of Dask actors."""

    def __init__(self, actors: Sequence[Any]) -> None:
        self.actors = actors

    def ask_all(self, msgs: Sequence[Any]) -> list[tuple[Any, ...]]:
        futures = [a.handle(m) for a, m in zip(self.actors, msgs, strict=True)]
        return [answered(f.result()) for f in futures]

    def ask(self, i: int, msg: Any) -> tuple[Any, ...]:
        return answered(self.actors[i].handle(msg).result())


def cluster_bfs(model: Model, library: Sequence[Path], address: str,
                max_depth: int | None = None, progress: Progress | None = None) -> Result:
    """Explore ``model`` (loaded with the library path ``library``) breadth first on the
    Dask cluster whose scheduler is at ``address``: the counts of one process."""
    refuse_properties(model, "--cluster")
    try:
        from distributed import Client
    except ImportError:
        raise UserError("--cluster needs Dask: pip install 'distributed'") from None
    cfg = model.cfg.path or model.tla.with_suffix(".cfg")
    files = bundle(model.tla, cfg, library)
    try:
        client = Client(address, timeout=_CONNECT)
    except (OSError, FutureTimeout, ValueError) as err:
        raise UserError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        workers = sorted(client.scheduler_info()["workers"])
        if not workers:
            raise UserError(f"the Dask cluster at {address} has no workers")
        n = len(workers)
        futures = [client.submit(ClusterWorker, files, model.tla.name, len(library), i, n,
                                 actor=True, workers=[w], pure=False)
                   for i, w in enumerate(workers)]
        try:
            actors = [f.result() for f in futures]
        except Exception as err:
            raise UserError(f"a worker of the Dask cluster at {address} cannot load the "
                            f"model: {err}") from None
        return search(Engine(model, max_depth=max_depth), _Actors(actors), n, max_depth,
                      progress)
    finally:
        client.close()


__all__ = ["Bundle", "ClusterWorker", "bundle", "cluster_bfs"]
