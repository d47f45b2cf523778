"""Replay traces on the workers of a Dask cluster (``--cluster tcp://HOST:PORT``).

The client (this process) reads every trace and the spec directory's modules and
ships their bytes: the workers need tlaconf (the same version) and Dask, not this
machine's files.  A worker writes what it receives into a folder of its own, keyed by
the content's digest, and keeps one :class:`~tlaconf.replay.engine.Replayer` per spec
and settings, so a module is loaded once per worker (and reused by later runs with the
same spec).  The per-trace work is :meth:`Replayer.replay`, as with ``-j N``; the paths
in a result (the worker's folder) are put back to the client's before the results are
merged in the order of the traces.

A trace whose worker died more often than the scheduler allows (Dask retries it on
another worker first) is an ``error``, undecided (exit 3), never a verdict.  A
cluster that cannot be reached or has no usable workers is :class:`Undecided`.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import threading
import warnings
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from distributed import CancelledError, Client, KilledWorker, Worker, as_completed, get_worker

import tlaconf
from tlaconf.errors import Undecided, UserError
from tlaconf.evaluate import budget
from tlaconf.files import unreadable_path
from tlaconf.replay.cluster_address import check_address
from tlaconf.replay.engine import Replayer
from tlaconf.replay.executor import OnResult, Settings, chunk_indices, merge
from tlaconf.replay.result import BlameNode, Failure, TraceResult, display_path

SEARCHED = ("conformance", "reference-profile", "tcs")
"""The spec directory's folders shipped whole (with its own ``.tla`` and ``.cfg``)."""
SUFFIXES = (".tla", ".cfg")
IN_FLIGHT_PER_WORKER = 2
"""Chunks sent ahead per worker: the client holds at most this many chunks' traces."""
CHUNK_BYTES = 32 * 2**20
"""A chunk takes no more traces once it holds this many bytes.  The traces travel in the
task itself (not scattered to one worker), so the scheduler can give them to another
worker when the first one dies."""
KEPT_SPECS = 4
"""Specs a worker keeps loaded (the least recently used one goes first)."""

_SPEC, _TRACE, _PACKAGE, _TRACEBACK = (f"\x00tlaconf-{w}\x00"
                                       for w in ("spec", "trace", "package", "traceback"))
_PACKAGE_DIR = str(Path(tlaconf.__file__).resolve().parent)


@dataclass(frozen=True, slots=True)
class SpecBundle:
    """The spec directory's folders and module files (``.tla``, ``.cfg``) by relative path."""

    folders: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...]
    digest: str


def spec_bundle(spec_dir: Path) -> SpecBundle:
    """What a worker needs of ``spec_dir``: its ``.tla``/``.cfg`` files and those under
    ``conformance/``, ``reference-profile/`` and ``tcs/``; UserError for one it cannot read."""
    found = [p for p in spec_dir.iterdir() if p.suffix in SUFFIXES and p.is_file()]
    folders: list[str] = []
    for name in SEARCHED:
        top = spec_dir / name
        if top.is_dir():
            below = [top, *top.rglob("*")]
            folders += [p.relative_to(spec_dir).as_posix() for p in below if p.is_dir()]
            found += [p for p in below if p.suffix in SUFFIXES and p.is_file()]
    files: list[tuple[str, bytes]] = []
    for path in sorted(found):
        try:
            files.append((path.relative_to(spec_dir).as_posix(), path.read_bytes()))
        except OSError as err:
            raise UserError(f"{path}: cannot read it ({err.strerror}), and --cluster sends "
                            "the spec's files to the workers") from None
    digest = hashlib.sha256()
    for rel in sorted(folders):
        digest.update(b"d\x00" + rel.encode() + b"\x00")
    for rel, data in files:
        digest.update(b"f\x00" + rel.encode() + b"\x00" + hashlib.sha256(data).digest())
    return SpecBundle(tuple(sorted(folders)), tuple(files), digest.hexdigest())


Shipped = tuple[TraceResult, str | None]
"""A result as a worker returns it (its paths as tokens) and its saved traceback's text."""


class DaskCluster:
    """The :class:`~tlaconf.replay.executor.Executor` of a Dask cluster whose scheduler is
    at ``address``: the workers replay with Replayers built from ``settings``; a trace
    this process cannot read is replayed here by ``local``."""

    def __init__(self, address: str, local: Replayer, settings: Settings) -> None:
        self.address = address
        self.local = local
        self.settings = settings

    def replay(self, paths: Sequence[Path], spec_dir: Path,
               on_result: OnResult | None = None) -> list[TraceResult]:
        return replay_on_cluster(paths, spec_dir, self.address, self.local, self.settings,
                                 on_result)


def replay_on_cluster(
    paths: Sequence[Path], spec_dir: Path, address: str, local: Replayer, settings: Settings,
    on_result: OnResult | None = None,
) -> list[TraceResult]:
    """Replay ``paths`` on the cluster whose scheduler is at ``address`` (results in the
    same order).  A trace this process cannot read is replayed here by ``local`` (which
    reports it as ``-j`` would); :class:`Undecided` when the cluster cannot be used."""
    address = check_address(address)
    bundle = spec_bundle(spec_dir)
    seconds = budget.current_seconds()  # this run's --eval-budget, held on the workers
    results: list[TraceResult | None] = [None] * len(paths)
    with _connect(address) as client:
        workers = _check_workers(client, address)
        spec = client.submit(held, bundle, key=f"tlaconf-spec-{bundle.digest}")
        pending = deque(chunk_indices(len(paths), workers))
        sent: dict[object, list[int]] = {}

        def send() -> object | None:
            """The next chunk on its way (its unreadable traces replayed here); None: done."""
            while pending:
                chunk = pending.popleft()
                payload: list[tuple[str, bytes]] = []
                ours: list[int] = []
                size = 0
                for k, i in enumerate(chunk):
                    if size >= CHUNK_BYTES:
                        pending.appendleft(chunk[k:])  # the rest goes in a chunk of its own
                        break
                    data = _read(paths[i])
                    if data is None:
                        merge(results, [i], [local.replay(paths[i], spec_dir, None,
                                                          settings.revision)], on_result)
                    else:
                        ours.append(i)
                        payload.append((paths[i].name, data))
                        size += len(data)
                if ours:
                    with warnings.catch_warnings():  # the graph holds the traces: meant so
                        warnings.filterwarnings("ignore", "Sending large graph")
                        future = client.submit(replay_chunk, spec, settings, payload, seconds,
                                               pure=False)
                    sent[future] = ours
                    return future
            return None

        first = [f for f in (send() for _ in range(IN_FLIGHT_PER_WORKER * workers)) if f]
        running = as_completed(first, loop=client.loop)
        for future in running:
            chunk = sent.pop(future)
            done = _outcome(future, [paths[i] for i in chunk], address)
            merge(results, chunk, [localize(r, tb, spec_dir, paths[i])
                                   for i, (r, tb) in zip(chunk, done, strict=True)], on_result)
            following = send()
            if following is not None:
                running.add(following)
    return [r for r in results if r is not None]


def held(bundle: SpecBundle) -> SpecBundle:
    """The task that holds the spec for a run: sent once, fetched by each worker that needs
    it, and computed again by the scheduler if every worker holding it is gone."""
    return bundle


def _read(path: Path) -> bytes | None:
    """The trace's bytes, None when this process cannot read them."""
    if unreadable_path(path) is not None:
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


def _connect(address: str) -> Client:
    """A client of the scheduler at ``address`` (the wait: Dask's
    ``distributed.comm.timeouts.connect``); Undecided when it cannot be reached."""
    try:
        return Client(address, set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise Undecided(f"cannot reach the Dask scheduler at {address} ({err}): is "
                        "`dask scheduler` running there, and can this machine reach its "
                        "port?") from None


def _check_workers(client: Client, address: str) -> int:
    """How many workers the cluster has; Undecided when it has none, or one of them cannot
    import this version of tlaconf."""
    try:
        client.wait_for_workers(1, timeout=_connect_timeout())
    except TimeoutError:
        raise Undecided(f"the Dask scheduler at {address} has no workers: start some with "
                        f"`dask worker {address}`") from None
    try:
        versions = client.run(worker_version)
    except Exception as err:  # a worker without tlaconf cannot even unpickle the function
        raise Undecided(f"a worker of the Dask cluster at {address} cannot run tlaconf "
                        f"({type(err).__name__}: {err}): install tlaconf[dask] "
                        f"{tlaconf.__version__} on every worker") from None
    other = {w: v for w, v in versions.items() if v != tlaconf.__version__}
    if other:
        listed = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
        raise Undecided(f"the Dask workers must run tlaconf {tlaconf.__version__}, as this "
                        f"machine does: {listed}")
    return len(versions)


def _connect_timeout() -> float:
    from dask.config import get
    from dask.utils import parse_timedelta

    return float(parse_timedelta(get("distributed.comm.timeouts.connect"), "s") or 30)


def worker_version() -> str:
    """The version of tlaconf where this runs (on each worker, before a run)."""
    return tlaconf.__version__


def _outcome(future: object, paths: Sequence[Path], address: str) -> list[Shipped]:
    """A chunk's shipped results; ``error`` results (undecided) when its workers died."""
    try:
        done: list[Shipped] = future.result()  # type: ignore[attr-defined]
        return done
    except KilledWorker as err:
        reason = (f"line 1: not replayed: the Dask workers replaying this trace died ({err}); "
                  "nothing was decided")
        return [(TraceResult(str(p), None, "error", 0, Failure(0, 1, reason), undecided=True),
                 None) for p in paths]
    except CancelledError:
        raise Undecided(f"the Dask scheduler at {address} dropped the replay (did it stop, "
                        "or did this machine lose its connection?)") from None
    except UserError as err:  # the worker's environment, not the input (checked here first)
        raise Undecided(f"a Dask worker cannot replay: {err}") from None


def localize(result: TraceResult, traceback: str | None, spec_dir: Path, path: Path
              ) -> TraceResult:
    """A shipped result with this machine's paths (and its traceback saved here)."""
    subs = [(_SPEC, str(spec_dir)), (_TRACE, str(path)), (_PACKAGE, _PACKAGE_DIR)]
    failure = result.failure
    if traceback is not None and failure is not None:
        with tempfile.NamedTemporaryFile("w", prefix="tlaconf-internal-", suffix=".txt",
                                         delete=False, encoding="utf-8") as f:
            f.write(traceback)
        subs.append((_TRACEBACK, f.name))
        result = replace(result, failure=replace(failure, traceback=f.name))

    def text(s: str) -> str:
        for token, real in subs:
            s = s.replace(token, real)
        return s

    return replace(_relocate(result, text, lambda f: display_path(text(f))), path=str(path))


def _relocate(result: TraceResult, text: Callable[[str], str], file: Callable[[str], str]
              ) -> TraceResult:
    """``result`` with ``text`` applied to its failure's reasons and ``file`` to the blame's
    files."""
    failure = result.failure
    if failure is None:
        return result

    def node(b: BlameNode) -> BlameNode:
        return replace(b, reason=text(b.reason), file=file(b.file) if b.file else b.file,
                       children=tuple(node(c) for c in b.children))

    blame = None if failure.blame is None else node(failure.blame)
    return replace(result, failure=replace(failure, reason=text(failure.reason), blame=blame))


# --- on a worker -------------------------------------------------------------------------

_LOCK = threading.Lock()
"""One replay at a time in a worker process (its threads share the evaluator's state; the
GIL would not run them in parallel anyway): start workers with ``--nthreads 1``."""


class WorkerCache:
    """A worker's materialised specs (folders keyed by digest) and their Replayers."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="tlaconf-worker-")).resolve()
        weakref.finalize(self, shutil.rmtree, self.root, True)
        self.specs: OrderedDict[str, Path] = OrderedDict()
        self.replayers: dict[tuple[str, Settings], Replayer] = {}

    def spec_dir(self, bundle: SpecBundle) -> Path:
        """The folder holding ``bundle`` (written on first use)."""
        if bundle.digest in self.specs:
            self.specs.move_to_end(bundle.digest)
            return self.specs[bundle.digest]
        folder = self.root / bundle.digest[:16] / "spec"
        for rel in bundle.folders:
            (folder / _inside(rel)).mkdir(parents=True, exist_ok=True)
        folder.mkdir(parents=True, exist_ok=True)
        for rel, data in bundle.files:
            target = folder / _inside(rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        self.specs[bundle.digest] = folder
        while len(self.specs) > KEPT_SPECS:
            old, gone = self.specs.popitem(last=False)
            shutil.rmtree(gone.parent, ignore_errors=True)
            for key in [k for k in self.replayers if k[0] == old]:
                del self.replayers[key]
        return folder

    def replayer(self, bundle: SpecBundle, settings: Settings) -> Replayer:
        key = (bundle.digest, settings)
        if key not in self.replayers:
            self.replayers[key] = settings.replayer()
        return self.replayers[key]

    @contextmanager
    def trace(self, name: str, data: bytes) -> Iterator[Path]:
        """A trace's bytes as a file of this worker (removed after use)."""
        folder = Path(tempfile.mkdtemp(dir=self.root, prefix="trace-"))
        try:
            path = folder / _inside(name)
            path.write_bytes(data)
            yield path
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def _inside(rel: str) -> Path:
    """A shipped relative path, refused when it would lead out of the folder."""
    path = Path(rel)
    if path.is_absolute() or ".." in path.parts:
        raise ValueError(f"not a relative path inside the spec: {rel!r}")
    return path


_CACHES: weakref.WeakKeyDictionary[Worker, WorkerCache] = weakref.WeakKeyDictionary()


def replay_chunk(bundle: SpecBundle, settings: Settings, traces: Sequence[tuple[str, bytes]],
                 seconds: float) -> list[Shipped]:
    """On a worker: replay ``traces`` ((file name, bytes)) against ``bundle``, each
    evaluation under a budget of ``seconds`` (on this worker thread, the budget's watchdog
    stops it)."""
    with _LOCK, budget.run(seconds):
        cache = _CACHES.setdefault(get_worker(), WorkerCache())
        spec_dir = cache.spec_dir(bundle)
        replayer = cache.replayer(bundle, settings)
        out: list[Shipped] = []
        for name, data in traces:
            with cache.trace(name, data) as path:
                result = replay_one(replayer, path, spec_dir, settings)
            out.append(_portable(result, spec_dir, path))
        return out


def replay_one(replayer: Replayer, path: Path, spec_dir: Path, settings: Settings
               ) -> TraceResult:
    """One trace, as ``-j N`` replays it."""
    return replayer.replay(path, spec_dir, None, settings.revision)


def _portable(result: TraceResult, spec_dir: Path, path: Path) -> Shipped:
    """``result`` with this worker's paths as tokens, and its traceback's text."""
    subs = [(str(path), _TRACE), (str(spec_dir), _SPEC), (_PACKAGE_DIR, _PACKAGE)]
    saved = None if result.failure is None else result.failure.traceback
    traceback = None
    if saved is not None:
        try:
            traceback = Path(saved).read_text(encoding="utf-8", errors="replace")
            Path(saved).unlink()  # the client saves it on its machine
        except OSError as err:
            traceback = f"(the worker's traceback file {saved} could not be read: {err})"
        subs.insert(0, (saved, _TRACEBACK))

    def text(s: str) -> str:
        for real, token in subs:
            s = s.replace(real, token)
        return s

    def file(f: str) -> str:
        return text(str(Path.cwd() / f))  # display_path made it relative to our cwd

    return replace(_relocate(result, text, file), path=""), traceback
