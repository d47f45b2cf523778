"""``tlaconf validate --cross-check tlc``: TLC on the same spec and log, compared.

For a trace-validation spec, TLC runs it as it is (:mod:`tlaconf.replay.tlc.tracespec`)
and its verdict and depth (the log lines its search consumed, plus one) are compared
with tlaconf's.  For a partial trace, TLC decides the trace spec ``tlaconf export``
writes (:mod:`tlaconf.replay.tlc.partial_spec`) and its verdict and the failing step
(the steps its search matched, plus one; not known with silent actions) are compared.
A difference makes ``validate`` exit 3; TLC failing to decide is exit 3 too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tlaconf.errors import CheckerFailed
from tlaconf.replay.tlc.process import find_tlc
from tlaconf.validate.outcome import Outcome


@dataclass
class CrossCheck:
    """What TLC said, and every way it differs from tlaconf (none: they agree)."""

    verdict: str
    depth: int | None = None
    distinct: int | None = None
    failing_step: int | None = None
    message: str = ""
    differences: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"checker": "tlc", "verdict": self.verdict, "depth": self.depth,
                "distinct_states": self.distinct, "failing_step": self.failing_step,
                "message": self.message or None, "agrees": not self.differences,
                "differences": self.differences}

    def render(self) -> str:
        said = f"TLC {self.verdict}"
        if self.depth is not None:
            states = "" if self.distinct is None else f", {self.distinct} distinct states"
            said += f" (depth {self.depth}{states})"
        if self.message:
            said += f": {self.message}"
        if not self.differences:
            return f"  cross-check tlc: {said}; the same verdict and log lines consumed"
        return (f"  cross-check tlc: DIFFERS -- {said}\n"
                + "\n".join(f"    {d}" for d in self.differences))


def trace_spec(outcome: Outcome, tla: Path, cfg: Path | None, library: Sequence[Path],
               env: Mapping[str, str], options: Sequence[str]) -> CrossCheck:
    """TLC's run of the trace spec ``tla`` against ``outcome``, tlaconf's."""
    from tlaconf.replay.tlc.tracespec import run_trace_spec

    try:
        tlc = run_trace_spec(find_tlc(), tla, cfg, library, env, options)
    except CheckerFailed as err:
        return CrossCheck("undecided", message=str(err),
                          differences=[f"TLC did not decide: {err}"])
    check = CrossCheck(tlc.verdict, tlc.depth, tlc.distinct, message=tlc.message)
    if tlc.verdict != outcome.result:
        check.differences.append(f"verdict: TLC {tlc.verdict}, tlaconf {outcome.result}")
    elif tlc.depth is not None and tlc.depth != outcome.depth:
        check.differences.append(f"log lines consumed: TLC's search reached depth "
                                 f"{tlc.depth}, tlaconf's {outcome.depth}")
    return check


def partial_trace(outcome: Outcome, trace: Path, spec_dir: Path | None,
                  revision: str | None) -> CrossCheck:
    """TLC's search of ``trace`` exported as a trace spec, against ``outcome``."""
    from tlaconf.validate.partial_tlc import tlc_partial

    try:
        found = tlc_partial(trace, spec_dir, revision)
    except CheckerFailed as err:
        first = str(err).splitlines()[0]
        return CrossCheck("undecided", message=first, differences=[f"TLC did not decide: {first}"])
    mine = {"accepted": "conforms", "rejected": "violation"}.get(outcome.result,
                                                                 outcome.result)
    failing = None if found.matched is None or found.verdict == "conforms" \
        else found.matched + 1
    check = CrossCheck(found.verdict, found.depth, None, failing)
    if found.verdict != mine:
        check.differences.append(f"verdict: TLC {found.verdict}, tlaconf {mine}")
    elif failing is not None and failing != outcome.failing_entry:
        check.differences.append(f"log lines consumed: TLC's search matched {found.matched} "
                                 f"steps (fails at step {failing}), tlaconf fails at step "
                                 f"{outcome.failing_entry}")
    return check
