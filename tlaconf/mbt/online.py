"""Every step checked as ``tlaconf replay`` checks it, while the test runs.

A step ``s -> s'`` is judged as the one-step trace with ``s`` its initial state would be
by :meth:`tlaconf.replay.Replayer.replay` (the same :class:`~tlaconf.replay.engine.TraceCheck`
over the same values: each state and the params go through the trace format's encoding and
decoding, as a file's would): accepted steps need ``A(p)``, rejected ones ``s' = s`` and
``ENABLED A(p)`` FALSE, every state the invariants.  The module is loaded once per run and
nothing is written while steps conform: only a failure becomes a file (:meth:`write`),
which replays to the same failure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tlaconf.evaluate import budget
from tlaconf.explore import fingerprint
from tlaconf.mbt.memo import Memo
from tlaconf.replay import LoadedModule, Replayer, TraceResult, get_backend
from tlaconf.replay.coverage import CoverageObserver
from tlaconf.replay.engine import TraceCheck
from tlaconf.spec.module_spec import ModuleSpec
from tlaconf.trace.models import TraceHeader, decode_params
from tlaconf.trace.reader import Step, TraceFormatError, describe_validation_error
from tlaconf.trace.writer import FORMAT, VERSION, Outcome, TraceWriter
from tlaconf.values import decode, encode, from_python
from tlaconf.values.itf import ITFDecodeError

State = dict[str, Any]


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
        """One Replayer for the run: the module loads once (a failure's file replays on it)."""
        self._loaded: TraceCheck | TraceResult | None = None
        """The check the module is loaded into (each check starts again from it), or the
        result of every check when it cannot be loaded."""
        self._checks = 0
        self._held: set[int] = set()
        """The state keys of the states whose invariants hold."""
        self._states: Memo[State] = Memo()
        """State key -> the state as a trace's reader gives it."""
        self._params: Memo[Any] = Memo()
        """Params' value key -> the params as a trace's reader gives them."""
        self._initial: Memo[TraceResult | None] = Memo()
        self._steps: Memo[TraceResult | None] = Memo()
        """Verdicts by the encoded states and request: the same one-step trace replays
        to the same result (the module does not change during a run)."""

    def write(self, path: Path, initial: Mapping[str, Any], steps: Sequence[Taken],
              meta: Mapping[str, Any] | None = None) -> Path:  # fmt: skip
        """Write ``initial`` and ``steps`` as a trace at ``path``."""
        with TraceWriter(path, self.module, self.revision, self.constants, meta) as out:
            out.init(initial)
            for t in steps:
                out.step(t.action, t.params, t.outcome, t.state)
        return path

    def load(self, spec: ModuleSpec) -> LoadedModule:
        """The module the steps are checked against (loaded once: the checks use it)."""
        return self._replayer.load(spec)

    def replay(self, path: Path) -> TraceResult:
        """``tlaconf replay`` of the trace at ``path``."""
        return self._replayer.replay(path, self.spec_dir)

    def initial(self, state: Mapping[str, Any], key: int) -> TraceResult | None:
        """The failure of ``state`` (whose state key is ``key``) as an initial state (an
        invariant), None when it holds."""
        return self._initial.get(key, lambda: self._initial_check(state, key))

    def _initial_check(self, state: Mapping[str, Any], key: int) -> TraceResult | None:
        result = self._judge(state, key, None, 0)
        return None if result.verdict == "vacuous" else result

    def step(self, before: Mapping[str, Any], taken: Taken, before_key: int,
             after_key: int, params: Any = None) -> TraceResult | None:  # fmt: skip
        """The failure of one step from ``before``, None when it conforms (the keys: the
        states' state keys; ``params``: the step's params as a TLA+ value, when known)."""
        value = from_python(dict(taken.params)) if params is None else params
        key = fingerprint(value)
        return self._steps.get(
            (before_key, taken.action, key, taken.outcome, after_key),
            lambda: self._step_check(before, taken, before_key, after_key, key, value))

    def _step_check(self, before: Mapping[str, Any], taken: Taken, before_key: int,
                    after_key: int, key: int, params: Any) -> TraceResult | None:  # fmt: skip
        result = self._judge(before, before_key, taken, after_key,
                             lambda: self._params.get(key, lambda: _decoded_params(params)))
        return None if result.verdict == "conforms" else result

    def _judge(self, before: Mapping[str, Any], before_key: int, taken: Taken | None,
               after_key: int, params: Callable[[], Any] = tuple) -> TraceResult:  # fmt: skip
        """The result of replaying the trace of ``before`` then ``taken`` (if any), as
        :meth:`replay` gives it for that trace's file."""
        with budget.run():  # one timer for every evaluation (the run's, inside one)
            loaded = self._load()
            if isinstance(loaded, TraceResult):
                return loaded
            return self._judge_loaded(loaded, before, before_key, taken, after_key, params)

    def _judge_loaded(self, loaded: TraceCheck, before: Mapping[str, Any], before_key: int,
                      taken: Taken | None, after_key: int, params: Callable[[], Any]
                      ) -> TraceResult:  # fmt: skip
        """``_judge`` once the module is loaded (``params()``: the params as a trace's
        reader gives them back)."""
        self._checks += 1
        path = Path(f"<{self.module} check {self._checks}>")
        held = before_key in self._held
        try:
            check = loaded.again(path, self._state(before, before_key, 2) if held else None)
        except Exception as exc:
            return loaded.stopped(exc)
        try:
            if not held:
                check.initial(self._state(before, before_key, 2))
                self._held.add(before_key)
            if taken is not None:
                check.step(Step(3, taken.action, params(), taken.outcome,
                                self._state(taken.state, after_key, 3)))
                if taken.outcome == "accepted":
                    self._held.add(after_key)
        except Exception as exc:  # a failure, bad input or a bug: as the file's replay says
            return check.stopped(exc)
        return check.finished()

    def _load(self) -> TraceCheck | TraceResult:
        if self._loaded is None:
            check = TraceCheck(self._replayer, Path(f"<{self.module}>"), self.spec_dir)
            try:
                check.load(_header(self.module, self.revision, self.constants))
                self._loaded = check
            except Exception as exc:
                self._loaded = check.stopped(exc)
        return self._loaded

    def _state(self, state: Mapping[str, Any], key: int, line: int) -> State:
        return self._states.get(key, lambda: _decoded(state, line))


def _decoded(state: Mapping[str, Any], line: int) -> State:
    """``state`` as a trace's reader gives it back (TraceFormatError at ``line`` when a
    value cannot be written)."""
    try:
        return {k: decode(encode(from_python(v))) for k, v in state.items()}
    except (ITFDecodeError, TypeError, ValueError) as err:
        raise TraceFormatError(f"the state cannot be written: {err}", "<mbt>", line) from None


def _decoded_params(params: Any) -> Any:
    """The params record (a TLA+ value) as a trace's reader gives it back."""
    try:
        return decode_params(encode(params) if params != () else {})
    except (TypeError, ValueError) as err:
        raise TraceFormatError(f"the params cannot be written: {err}", "<mbt>", 3) from None


def _header(module: str, revision: str, constants: Mapping[str, Any]) -> TraceHeader:
    """The header a trace of the run has, as its reader gives it back."""
    obj = {"format": FORMAT, "version": VERSION, "module": module, "revision": revision,
           "constants": {k: encode(from_python(constants[k])) for k in sorted(constants)}}
    try:
        return TraceHeader.model_validate(obj)
    except ValidationError as err:
        raise TraceFormatError(describe_validation_error(err), "<mbt>", 1) from None
