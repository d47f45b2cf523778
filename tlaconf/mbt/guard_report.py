"""Guard coverage of a spec-driven run, per action: each guard covered both ways (FALSE on
a rejected step and TRUE on an accepted one, as ``tlaconf coverage`` counts it), one way,
or neither, and why one was not: what the directed survey learnt of it.

A **dead guard** is one no request made TRUE in any reachable state examined, every
params domain there enumerated whole: unsatisfiable as far as the model's requests go,
a spec smell (the action can never take that branch).

A guard TRUE on accepted steps that only a wrong report of the implementation makes
FALSE is covered FALSE **by perturbation** when a near-miss observation of it was
refused by the step check, blamed on it (:mod:`tlaconf.mbt.perturb`); each row says
which way its FALSE side was covered.  A near-miss observation the check accepted, or
blamed on something else, is a failure of the check.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tlaconf.evaluate.coverage import Key
from tlaconf.mbt.directed import Facts, Survey
from tlaconf.mbt.domains import PREFIX
from tlaconf.mbt.memo import value_key
from tlaconf.mbt.perturb import Perturbed
from tlaconf.replay.coverage import Coverage, PointCoverage
from tlaconf.report.coverage import location, point_text

BOTH, ACCEPTED, REJECTED, NEITHER = "both ways", "TRUE only", "FALSE only", "neither"
MISSES = ("near miss", "miss", "closest miss")
"""The directed requests that make a guard FALSE."""
DEAD = "dead guard"


@dataclass(frozen=True)
class GuardRow:
    """One guard of one action."""

    key: Key
    text: str
    status: str
    """:data:`BOTH`, :data:`ACCEPTED` (TRUE on an accepted step, never FALSE on a
    rejected one), :data:`REJECTED` or :data:`NEITHER`."""
    reason: str | None
    dead: bool
    false_by: str | None = None
    """How it was made FALSE: ``"implementation"`` (a rejected step), ``"perturbation"``
    (a near-miss observation the check refused), None (never)."""
    perturbed: Perturbed | None = None
    """The near-miss observation checked for it, if any."""

    @property
    def covered(self) -> bool:
        return self.status == BOTH

    @property
    def check_failed(self) -> bool:
        """A near-miss observation of it was not refused naming it."""
        return self.perturbed is not None and not self.perturbed.holds

    def to_json(self) -> dict[str, Any]:
        return {"location": location(self.key), "text": self.text, "status": self.status,
                "reason": self.reason, "dead": self.dead, "false_by": self.false_by,
                "perturbation": None if self.perturbed is None else self.perturbed.to_json()}


@dataclass(frozen=True)
class ActionGuards:
    module: str
    action: str
    requested: bool
    rows: tuple[GuardRow, ...]

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.rows)

    def by_perturbation(self) -> int:
        """Guards covered both ways whose FALSE side is a near-miss observation's."""
        return sum(r.covered and r.false_by == "perturbation" for r in self.rows)

    def to_json(self) -> dict[str, Any]:
        return {"module": self.module, "action": self.action, "requested": self.requested,
                "guards": len(self.rows), "both": self.count(BOTH),
                "both_by_perturbation": self.by_perturbation(),
                "one_way": self.count(ACCEPTED) + self.count(REJECTED),
                "neither": self.count(NEITHER), "rows": [r.to_json() for r in self.rows]}


def _status(pc: PointCoverage | None) -> str:
    true = pc is not None and pc.accepted_true > 0
    false = pc is not None and pc.rejected_false > 0
    return BOTH if true and false else ACCEPTED if true else REJECTED if false else NEITHER


def _why_not_true(f: Facts, plan: Survey) -> str:
    if "allowed" in f.targets:
        if f.targets["allowed"][0].key in plan.unreached:
            return ("an allowed request making it TRUE was aimed at, but on the way to its "
                    "state the implementation took another successor the spec allows")
        return "an allowed request making it TRUE was sent, but no accepted step made it TRUE"
    if not f.reached:
        return _unreached(f, plan)
    if not f.true:
        if f.too_large and f.settled:
            return (f"{DEAD}: FALSE for every request in the {f.settled} reachable state(s) "
                    f"whose domain was examined whole (enumerated, or settled by Apalache); "
                    f"not examined in {f.states - f.settled} other state(s): {_large(f)}")
        if f.too_large:
            return _large(f)
        return (f"{DEAD}: FALSE for every request in every reachable state examined "
                f"({_states(f, plan)})")
    return "TRUE only in forbidden requests (another guard FALSE in each)"


def _why_not_false(f: Facts, plan: Survey, action: str) -> str:
    sent = [f.targets[w][0].key for w in MISSES if w in f.targets]
    if sent:
        if all(key in plan.unreached for key in sent):
            return ("a request making it FALSE was aimed at, but on the way to its state the "
                    "implementation took another successor the spec allows")
        if any((action, value_key(f.targets[w][1])) in plan.rewritten
               for w in MISSES if w in f.targets):
            return ("a request making it FALSE was sent, but the implementation filled in "
                    "fields of it with other values (a field it reports replaces the one "
                    "requested)")
        if "near miss" not in f.targets:
            return ("no near miss found: each request found making it FALSE breaks another "
                    "guard too, which TLC's order may evaluate first"
                    + (f" ({_large(f)})" if f.too_large else ""))
        return "a request making it FALSE was sent, but no rejected step made it FALSE"
    if not f.reached:
        return _unreached(f, plan)
    if f.too_large and not f.settled:
        return _large(f)
    if f.too_large:
        return (f"no request of {PREFIX}{action} makes it FALSE in the {f.settled} reachable "
                f"state(s) whose domain was examined whole (enumerated, or settled by "
                f"Apalache): the domain lacks the values that would; in "
                f"{f.states - f.settled} other state(s) {_large(f)}")
    return (f"no request of {PREFIX}{action} makes it FALSE in the reachable states examined "
            f"({_states(f, plan)}): the domain lacks the values that would")


def _unreached(f: Facts, plan: Survey) -> str:
    why = (f"the ENABLED walk of no request reaches it in the reachable states examined "
           f"({_states(f, plan)})")
    if f.too_large:
        why += f"; {_large(f)}"
    return why


def _large(f: Facts) -> str:
    """A domain not enumerated, and why the symbolic solver (if any) did not settle it."""
    why = f"domain too large to enumerate ({f.too_large} requests)"
    return why + (f"; {f.undecided}" if f.undecided else "")


def _states(f: Facts, plan: Survey) -> str:
    return f"{f.states} reachable state(s) within {plan.depth} requests"


OUTPUT = ("reached only through the fields the implementation reports (an accepted step's "
          "params): no request's ENABLED walk reaches it, and only an implementation "
          "reporting a wrong value would make it FALSE")


def _reason(status: str, f: Facts | None, plan: Survey | None, action: str,
            requested: bool, depth: int | None,
            reports: bool) -> tuple[str | None, bool]:  # fmt: skip
    """Why a guard is not covered both ways (None when it is), and whether it is dead;
    ``reports``: the implementation reported fields of the action's params."""
    if status == BOTH:
        return None, False
    if not requested:
        return f"not requested: the module has no {PREFIX}{action}", False
    if status == ACCEPTED and reports and f is not None and not f.reached:
        return OUTPUT, False
    if depth is not None:
        return (f"no behaviour within {depth} requests made it "
                + {NEITHER: "TRUE or FALSE", ACCEPTED: "FALSE", REJECTED: "TRUE"}[status]
                + " (every request of every state sent)"), False
    if plan is None or f is None:
        return "not aimed at (random requests only)", False
    whys = []
    if status in (NEITHER, REJECTED):
        whys.append(_why_not_true(f, plan))
    if status in (NEITHER, ACCEPTED):
        whys.append(_why_not_false(f, plan, action))
    dead = any(w.startswith(DEAD) for w in whys)
    return "; ".join(dict.fromkeys(whys)), dead


def guard_report(module: str, actions: Sequence[str], requested: Sequence[str],
                 guards: Mapping[str, Sequence[Key]], coverage: Coverage,
                 plan: Survey | None, texts: Mapping[str, str],
                 exhaustive: int | None = None,
                 reported: Collection[str] = (),
                 perturbed: Mapping[tuple[str, Key], Perturbed] | None = None,
                 ) -> list[ActionGuards]:  # fmt: skip
    """Per action of ``module`` (``guards``: each one's guards), how its guards were
    covered by the run measured in ``coverage`` and why not (from ``plan``, or from an
    exhaustive run to depth ``exhaustive``); ``reported``: the actions whose params the
    implementation reported fields of; ``perturbed``: the near-miss observations checked."""
    out = []
    for action in actions:
        ac = coverage.actions.get((module, action))
        rows = []
        for g in guards[action]:
            pc = ac.points.get(g) if ac is not None else None
            status = _status(pc)
            seen = (perturbed or {}).get((action, g))
            false_by = "implementation" if pc is not None and pc.rejected_false else None
            if status == ACCEPTED and seen is not None and seen.holds:
                status, false_by = BOTH, "perturbation"
            facts = plan.facts.get((action, g)) if plan is not None else None
            reason, dead = _reason(status, facts, plan, action, action in requested,
                                   exhaustive, action in reported)
            if seen is not None and not seen.holds:
                reason = _failed(seen)
            elif reason == OUTPUT and perturbed is not None and action in reported:
                reason += ("; no near-miss observation of it was found (every change of a "
                           "reported field tried made another guard FALSE too, or none made "
                           "it FALSE)")
            rows.append(GuardRow(g, point_text(texts, g), status, reason, dead, false_by, seen))
        out.append(ActionGuards(module, action, action in requested, tuple(rows)))
    return out


def _failed(p: Perturbed) -> str:
    said = ("accepted it" if p.verdict == "accepted"
            else f"rejected it, blamed on {p.blamed or 'an unlocated formula'}")
    return (f"CHECK FAILED: a near-miss observation (the accepted step with the reported "
            f"field {p.field} changed so that only this guard is FALSE) must be rejected "
            f"naming it; the step check {said}")


def check_failures(report: Sequence[ActionGuards]) -> list[str]:
    """A line per near-miss observation the step check did not refuse naming its guard."""
    return [f"mbt: {a.module}.{a.action}: {location(r.key)} {_clip(r.text)}: {r.reason}"
            for a in report for r in a.rows if r.check_failed]


def by_perturbation(report: Sequence[ActionGuards]) -> int:
    """Guards covered both ways whose FALSE side is a near-miss observation's."""
    return sum(a.by_perturbation() for a in report)


def figures(report: Sequence[ActionGuards]) -> tuple[int, int]:
    """Guards covered both ways, and guards in all."""
    rows = [r for a in report for r in a.rows]
    return sum(r.covered for r in rows), len(rows)


def lines(report: Sequence[ActionGuards]) -> list[str]:
    """The text report: a line per action, then each guard not covered both ways."""
    out = []
    for a in report:
        if not a.rows:
            continue
        by = a.by_perturbation()
        out.append(f"  {a.action}: {len(a.rows)} guards, {a.count(BOTH)} both ways"
                   + (f" ({by} FALSE by perturbation)" if by else "") + ", "
                   f"{a.count(ACCEPTED)} TRUE only, {a.count(REJECTED)} FALSE only, "
                   f"{a.count(NEITHER)} neither")
        for r in a.rows:
            if not r.covered:
                out.append(f"    {location(r.key)} {_clip(r.text)} ({r.status}): {r.reason}")
            elif r.false_by == "perturbation" and r.perturbed is not None:
                p = r.perturbed
                out.append(f"    {location(r.key)} {_clip(r.text)} (both ways): FALSE by "
                           f"perturbation of the reported field {p.field}, which the step "
                           "check refused, "
                           + ("naming it" if p.named else f"blamed on {p.blamed or 'the action'}"
                              " (a formula it lies under)"))
    return out


def warnings(report: Sequence[ActionGuards]) -> list[str]:
    """A warning per dead guard."""
    return [f"warning: {a.module}.{a.action}: {location(r.key)} {_clip(r.text)} is a dead "
            f"guard: no request made it TRUE in any reachable state examined (a spec smell: "
            "the action can never pass it)" for a in report for r in a.rows if r.dead]


def _clip(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
