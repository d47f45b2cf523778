"""A Dask cluster on loopback for the ``--cluster`` tests: two workers in this process
(``processes=False``), so a test can count what they do and stop one."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import LocalCluster  # the dev install has tlaconf[dask]

from tests.cli.clihelp import ROOT


def local_cluster(workers: int = 2) -> LocalCluster:
    """A cluster on 127.0.0.1 (no dashboard), its workers threads of this process."""
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                        protocol="tcp", host="127.0.0.1", dashboard_address=":0")


@pytest.fixture(scope="package")
def scheduler() -> Iterator[str]:
    """The address of a two-worker cluster shared by the tests of this folder (its caches
    persist: a test that counts loads uses a spec of its own). It is stopped when they end:
    its threads, left running, drew from the global ``random`` while later tests' Hypothesis
    strategies ran, which Hypothesis reports as a strategy using ``random``."""
    with local_cluster() as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the spec and of four golden traces (two modules; conforming ones and
    violations with blame) under ``tmp_path``: ``spec/`` and ``traces/``."""
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    (tmp_path / "traces").mkdir()
    for path in sorted((ROOT / "traces" / "abilities").glob("*.trace.jsonl")):
        if path.name.startswith(("activity-", "use-")):
            shutil.copy(path, tmp_path / "traces" / path.name)
    return tmp_path
