"""Every step checked as ``tlaconf replay`` checks it, while the test runs.

A step ``s -> s'`` is written as a one-step trace (``s`` its initial state) and
replayed by :meth:`tlaconf.replay.Replayer.replay`: accepted steps need ``A(p)``,
rejected ones ``s' = s`` and ``ENABLED A(p)`` FALSE, every state the invariants.  So
the online verdict and blame are replay's own, and the trace written for a failure
replays to the same failure.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.mbt.memo import Memo, value_key
from tlaconf.replay import Replayer, TraceResult, get_backend
from tlaconf.replay.coverage import CoverageObserver
from tlaconf.trace.writer import Outcome, TraceWriter


@dataclass(frozen=True, slots=True)
class Taken:
    """One step the implementation took: the request, its outcome, the state after."""

    action: str
    params: Mapping[str, Any]
    outcome: Outcome
    state: Mapping[str, Any]


class OnlineChecker:
    """Checks states and steps of module ``module`` against the spec in ``spec_dir``."""

    def __init__(self, spec_dir: Path, module: str, revision: str,
                 constants: Mapping[str, Any]) -> None:  # fmt: skip
        self.spec_dir = spec_dir
        self.module = module
        self.revision = revision
        self.constants = dict(constants)
        self.coverage = CoverageObserver(strict=False)
        """Guard coverage of the steps checked (each distinct step once)."""
        self._replayer = Replayer(get_backend("embedded"), observers=(self.coverage,))
        """One Replayer for the run: the module loads once (again only if its files change)."""
        self._tmp = tempfile.TemporaryDirectory(prefix="tlaconf-mbt-")
        self._checks = 0
        self._initial: Memo[TraceResult | None] = Memo()
        self._steps: Memo[TraceResult | None] = Memo()
        """Verdicts by the encoded states and request: the same one-step trace replays
        to the same result (the module does not change during a run)."""

    def close(self) -> None:
        self._tmp.cleanup()

    def write(self, path: Path, initial: Mapping[str, Any], steps: Sequence[Taken],
              meta: Mapping[str, Any] | None = None) -> Path:  # fmt: skip
        """Write ``initial`` and ``steps`` as a trace at ``path``."""
        with TraceWriter(path, self.module, self.revision, self.constants, meta) as out:
            out.init(initial)
            for t in steps:
                out.step(t.action, t.params, t.outcome, t.state)
        return path

    def replay(self, path: Path) -> TraceResult:
        """``tlaconf replay`` of the trace at ``path``."""
        return self._replayer.replay(path, self.spec_dir)

    def _replay_scratch(self, initial: Mapping[str, Any], steps: Sequence[Taken]) -> TraceResult:
        """Replay a scratch trace (a new name each time: renaming a file over an existing
        one is slow on some file systems)."""
        self._checks += 1
        path = self.write(Path(self._tmp.name) / f"{self._checks}.trace.jsonl", initial, steps)
        try:
            return self.replay(path)
        finally:
            path.unlink()

    def initial(self, state: Mapping[str, Any], key: int) -> TraceResult | None:
        """The failure of ``state`` (whose state key is ``key``) as an initial state (an
        invariant), None when it holds."""
        return self._initial.get(key, lambda: self._initial_check(state))

    def _initial_check(self, state: Mapping[str, Any]) -> TraceResult | None:
        result = self._replay_scratch(state, ())
        return None if result.verdict == "vacuous" else result

    def step(self, before: Mapping[str, Any], taken: Taken, before_key: int,
             after_key: int) -> TraceResult | None:  # fmt: skip
        """The failure of one step from ``before``, None when it conforms (the keys: the
        states' state keys)."""
        key = (before_key, taken.action, value_key(dict(taken.params)), taken.outcome, after_key)
        return self._steps.get(key, lambda: self._step_check(before, taken))

    def _step_check(self, before: Mapping[str, Any], taken: Taken) -> TraceResult | None:
        result = self._replay_scratch(before, (taken,))
        return None if result.verdict == "conforms" else result
