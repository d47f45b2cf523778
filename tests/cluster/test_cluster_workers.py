"""What the workers do: a spec loads once per worker (and again only when it changes),
they need none of this machine's files, and a worker that dies mid-run costs a retry or
an ``error`` (undecided), never a verdict."""

from __future__ import annotations

import shutil
import time
from collections import Counter
from pathlib import Path

import dask
import pytest
from distributed import Client, get_worker
from distributed.core import Status

from tests.cli.clihelp import PY_BACKEND
from tests.cluster.conftest import local_cluster
from tests.replay.counter_backend import BACKEND
from tests.replay.counter_backend import SPEC as COUNTER_SPEC
from tests.replay.counter_scenarios import generate_all_buggy
from tlaconf.errors import ExitCode
from tlaconf.replay import cluster, exit_code, run_traces
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.replay.result import TraceResult
from tlaconf.replay.runner import Settings, collect_traces, setup


def test_a_spec_loads_once_per_worker(monkeypatch: pytest.MonkeyPatch, project: Path,
                                      scheduler: str) -> None:
    traces = project / "traces"
    for path in list(traces.iterdir()):  # three of each: several chunks per worker
        for copy in ("a", "b"):
            shutil.copy(path, traces / f"{copy}-{path.name}")
    (project / "spec" / "conformance" / "Unused.cfg").write_text(f"\\* {project}\n")
    loads: Counter[tuple[str, str]] = Counter()
    load = EmbeddedBackend.load

    def counted(self: EmbeddedBackend, spec):  # type: ignore[no-untyped-def]
        loads[(get_worker().address, spec.name)] += 1
        return load(self, spec)

    monkeypatch.setattr(EmbeddedBackend, "load", counted)
    paths = collect_traces([traces])
    first = run_traces(paths, project / "spec", "embedded", cluster=scheduler)
    assert len(first) == 12 and {r.verdict for r in first} == {"conforms", "violation"}
    assert set(loads.values()) == {1}  # once per worker and module
    assert {m for _, m in loads} == {"AbilityActivity", "AbilityUse"}
    again = run_traces(paths, project / "spec", "embedded", cluster=scheduler)
    assert set(loads.values()) == {1}  # a worker that loaded a module keeps it for the next run
    before = sum(loads.values())
    assert [r.to_json() for r in again] == [r.to_json() for r in first]
    tla = project / "spec" / "conformance" / "AbilityActivity.tla"
    tla.write_text(f"edited\n{tla.read_text()}")  # text before the module header: ignored
    run_traces(paths, project / "spec", "embedded", cluster=scheduler)
    assert sum(loads.values()) > before  # a changed spec loads again


def test_workers_need_none_of_the_files(monkeypatch: pytest.MonkeyPatch, project: Path,
                                        scheduler: str) -> None:
    corpus = _mkdir(project / "corpus")
    for name in ("spec", "traces"):
        (project / name).rename(corpus / name)
    monkeypatch.chdir(project)
    spec_dir = corpus / "spec"
    paths = collect_traces([corpus / "traces"])
    replayer = setup("embedded")
    expected = [replayer.replay(p, spec_dir).to_json() for p in paths]
    bundle = cluster.spec_bundle(spec_dir)
    payload = [(p.name, p.read_bytes()) for p in paths]
    shutil.rmtree(corpus)  # the workers get bytes, not paths
    monkeypatch.chdir("/")  # and their working directory is not this one
    with Client(scheduler, set_as_default=False) as client:
        shipped = client.submit(cluster.replay_chunk, bundle, Settings("embedded"),
                                payload, 60.0).result()
    monkeypatch.chdir(project)
    got = [cluster.localize(r, tb, spec_dir, p).to_json()
           for (r, tb), p in zip(shipped, paths, strict=True)]
    assert got == expected
    assert any("corpus/spec/conformance/" in str(r["failure"]) for r in got)


def test_chunks_hold_a_bounded_number_of_bytes(monkeypatch: pytest.MonkeyPatch,
                                                project: Path, scheduler: str) -> None:
    for path in list((project / "traces").iterdir()):  # 20 traces: 3 a chunk without a cap
        for copy in "abcd":
            shutil.copy(path, project / "traces" / f"{copy}-{path.name}")
    paths = collect_traces([project / "traces"])
    expected = [r.to_json() for r in run_traces(paths, project / "spec", "embedded",
                                                cluster=scheduler)]
    chunks: list[str] = []  # one spec_dir call per chunk a worker replays
    spec_dir = cluster.WorkerCache.spec_dir

    def counted(self, bundle):  # type: ignore[no-untyped-def]
        chunks.append(bundle.digest)
        return spec_dir(self, bundle)

    monkeypatch.setattr(cluster.WorkerCache, "spec_dir", counted)
    monkeypatch.setattr(cluster, "CHUNK_BYTES", 1)  # every trace is over it
    seen: list[TraceResult] = []
    got = run_traces(paths, project / "spec", "embedded", cluster=scheduler,
                     on_result=seen.append)
    assert len(chunks) == len(paths)  # one trace per chunk
    assert [r.to_json() for r in got] == expected
    assert sorted(r.path for r in seen) == sorted(map(str, paths))  # the progress display


def _dying_first(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The first trace replayed closes the worker replaying it; the closed workers."""
    closed: list[str] = []
    replay_one = cluster.replay_one

    def dying(*args):  # type: ignore[no-untyped-def]
        if not closed:
            worker = get_worker()
            closed.append(worker.address)
            worker.loop.add_callback(worker.close, executor_wait=False)
            deadline = time.monotonic() + 5
            while worker.status != Status.closed and time.monotonic() < deadline:
                time.sleep(0.02)
        return replay_one(*args)

    monkeypatch.setattr(cluster, "replay_one", dying)
    return closed


def _verdicts(results: list[TraceResult]) -> list[tuple[str, str, int, str | None]]:
    """What decides (the counter backend's blame shows files as given, which the cluster
    shows relative to the working directory, as the embedded backend does)."""
    return [(r.path, r.verdict, r.steps, r.failure and r.failure.reason) for r in results]


def _counter_traces(folder: Path) -> list[Path]:
    return [p for seed in (1, 2, 3) for p in generate_all_buggy(_mkdir(folder / str(seed)), seed)]


def _mkdir(path: Path) -> Path:
    path.mkdir()
    return path


def test_a_dead_workers_traces_are_replayed_by_another(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    paths = _counter_traces(tmp_path)
    expected = _verdicts(run_traces(paths, COUNTER_SPEC, PY_BACKEND))
    closed = _dying_first(monkeypatch)
    with local_cluster() as two:
        got = run_traces(paths, COUNTER_SPEC, PY_BACKEND, cluster=two.scheduler_address)
        assert len(two.scheduler_info["workers"]) == 1  # the other one is gone
    assert len(closed) == 1
    assert _verdicts(got) == expected
    assert "violation" in {r.verdict for r in got}


def test_traces_whose_workers_keep_dying_are_errors(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    paths = _counter_traces(tmp_path)
    closed = _dying_first(monkeypatch)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), local_cluster() as two:
        got = run_traces(paths, COUNTER_SPEC, PY_BACKEND, cluster=two.scheduler_address)
    assert len(closed) == 1
    lost = [r for r in got if r.verdict == "error"]
    assert lost and all(r.undecided and "died" in r.failure.reason for r in lost if r.failure)
    assert len(lost) < len(got)  # the other worker's traces have their verdicts
    assert exit_code(got) == ExitCode.UNDECIDED


def test_an_internal_error_on_a_worker_keeps_its_traceback_here(tmp_path: Path,
                                                                scheduler: str) -> None:
    paths = _counter_traces(tmp_path)
    got = run_traces(paths, COUNTER_SPEC, f"{BACKEND}:BuggyBackend", cluster=scheduler)
    assert exit_code(got) == ExitCode.INTERNAL_ERROR
    failure = got[0].failure
    assert got[0].verdict == "error" and failure is not None and failure.traceback
    assert f"traceback saved to {failure.traceback}" in failure.reason
    assert "ZeroDivisionError" in Path(failure.traceback).read_text()  # saved on this machine
    for r in got:
        if r.failure is not None and r.failure.traceback is not None:
            Path(r.failure.traceback).unlink()
