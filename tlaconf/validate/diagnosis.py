"""Why a trace spec's search dead-ends at a log entry, in every trace-spec style.

At a dead end no step of a candidate state satisfies the spec at the log entry.  For each
of the nearest candidates this says:

* the **branches** (disjuncts) of the relation that checks the entry whose guards hold
  there -- the conjuncts before a branch's first action, in a trace spec the tests of the
  logged event (``LoglineIsEvent("Commit")``, ``l.event = ">"``) -- each with its blame
  tree for the bindings (``\\E i \\in Server``) that came nearest, every conjunct with
  its ``file:line:col`` and the values it compared.  The relation is the
  ``ACTION_CONSTRAINT`` blamed on each successor of ``Next`` (the style that ties a step
  to ``TLCGet("level")``), or ``Next`` itself blamed for allowing no step
  (:class:`~tlaconf.evaluate.blame.Disabled`: the style where the log position is a
  variable and the event picks the disjunct, as etcd raft's and the 2024 paper's).  When
  no branch's guards hold, the nearest branches are given instead;
* a successor that satisfied every constraint but was dropped as already visited (the
  search ends there only for that reason: a ``VIEW`` without the log position);
* for an evaluation error during the search (:func:`explain_error`): the log entry, the
  branch and the bindings under which it happened.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from tlaconf.evaluate import Blame, EvalError
from tlaconf.evaluate.blame import (
    NO_DISJUNCT,
    NO_WITNESS,
    WITNESS,
    Blamer,
    Disabled,
    is_guard_failure,
    progress,
)
from tlaconf.evaluate.walk import Env
from tlaconf.explore import Engine, Model
from tlaconf.validate.nearest import narrowed
from tlaconf.validate.outcome import Branch, Candidate

State = dict[str, Any]

TRIED = 50
"""Candidate states whose dead end is diagnosed (the nearest are shown)."""
SHOWN = 3
"""Candidates shown."""
BRANCHES = 4
"""Branches shown per candidate."""
SECONDS = 20.0
"""A diagnosis stops trying more candidates after this long (one is always tried)."""
_STEPS = 64
"""Successors whose ``ACTION_CONSTRAINT`` blame is computed per candidate."""


Locate = Callable[[Iterable[str]], "str | None"]
"""``file:line`` of the log line whose value (as TLA+ text) is among those given."""


def dead_ends(model: Model, engine: Engine | None, states: Sequence[State],
              set_level: Any, level: int, locate: Locate = lambda _: None) -> list[Candidate]:
    """The diagnosis of the candidate ``states`` at ``level`` (``set_level(n)`` sets
    ``TLCGet("level")``), nearest first; ``engine``, the search that ended, tells a
    revisited successor; ``locate`` finds the log line among the values compared."""
    found: list[Candidate] = []
    deadline = time.perf_counter() + SECONDS
    for s in states[:TRIED]:
        if found and time.perf_counter() > deadline:
            break
        set_level(level)
        try:
            with model.guard():
                found.append(_diagnose(model, engine, s, set_level, level, locate))
        except EvalError as err:  # the verdict stands; only its explanation is missing
            found.append(Candidate(s, f"(no diagnosis: {err.message} at {err.location})",
                                   None, 0))
    found.sort(key=lambda c: (c.revisited is None, not any(b.selected for b in c.branches),
                              -c.progress))
    return found[:SHOWN]


def _diagnose(model: Model, engine: Engine | None, s: State, set_level: Any,
              level: int, locate: Locate) -> Candidate:
    succs = model.successors(s)
    kept = []
    for t in succs:
        set_level(level + 1)
        if not model.in_constraints(t.state):
            continue
        set_level(level)
        kept.append(t)
        if model.action_allowed(s, t.state):
            revisited = _revisited(model, engine, t.state, str(t.label))
            if revisited is not None:
                return Candidate(s, str(t.label), None, 1_000_000, (), revisited)
            return Candidate(s, None, None, -1)  # not a dead end: the search stopped early
    set_level(level)
    if kept and model.action_constraints:
        branches = _constrained(model, s, [(str(t.label), t.state) for t in kept[:_STEPS]])
    else:
        branches = _disabled(model, s)
    chosen = [b for b in branches if b.selected] or \
        sorted(branches, key=lambda b: -b.progress)[:1]
    chosen.sort(key=lambda b: -b.progress)
    chosen = chosen[:BRANCHES]
    best = chosen[0] if chosen else None
    action = None if best is None else (best.step or best.text)
    line = locate(_values(b.blame for b in chosen + branches))
    return Candidate(s, action, None if best is None else best.blame,
                     -1 if best is None else best.progress, tuple(chosen), log_line=line)


def _values(trees: Iterable[Blame]) -> Iterator[str]:
    """Every value the trees show, nearest branches first."""
    for tree in trees:
        stack = [tree]
        while stack:
            node = stack.pop()
            yield from (v for _, v in node.bindings)
            stack += node.children


def _revisited(model: Model, engine: Engine | None, t: State, label: str) -> str | None:
    """The words for a successor ``t`` that satisfied every constraint but was not kept:
    it was visited already (None when the search never saw it: it stopped early)."""
    if engine is None:
        return None
    fp = model.fingerprint(t)
    if fp not in engine:
        return None
    same = f"VIEW {model.view}" if model.view else "every variable"
    return (f"the step {label} satisfies every constraint, but the state it reaches equals "
            f"(by {same}) one already visited at level {engine.level_of(fp)}, so the search "
            "dropped it as seen and dead-ended here: add a VIEW that includes the log "
            "position (e.g. <<vars, l>> or <<vars, TLCGet(\"level\")>>)")


def _disabled(model: Model, s: State) -> list[Branch]:
    """The branches of ``Next`` blamed for allowing no step from ``s``."""
    b = model.behaviour
    if b is None:
        return []
    ctx = model.ctx
    walker = Disabled(ctx.compiler, ctx.loader.texts)
    try:
        child = walker.explain_disabled(b.next, b.next_ns, Env(), s)
    except Exception as exc:
        raise ctx.evaluation_error(exc, b.next) from None
    reason = f"{b.next_name} allows no step"
    if child.text == b.next_name:  # NEXT TraceNext, or [TraceNext]_v: the call is the root
        root = Blame(child.text, child.span, reason, child.bindings, child.children)
    else:
        root = Blame(b.next_name, b.next_span, reason, (), (child,))
    return list(_branches(root))


def _constrained(model: Model, s: State, steps: list[tuple[str, State]]) -> list[Branch]:
    """The branches of the first ``ACTION_CONSTRAINT`` each step of ``steps`` fails, the
    step that came nearest for each."""
    ctx = model.ctx
    blamer = Blamer(ctx.compiler, ctx.loader.texts, guards=True)
    best: dict[str, Branch] = {}
    for label, t in steps:
        for ac in model.action_constraints:
            if ctx.holds(ac, (), s, t):
                continue
            body, env = ctx.call_node(ac, ())
            entry = ctx.ns.lookup(ac)
            assert entry is not None
            try:
                child = blamer.explain(body, entry.ns or ctx.ns, env, s, t, witnesses=True)
            except Exception as exc:
                raise ctx.evaluation_error(exc, entry.node) from None
            root = Blame(ac, entry.node.span, f"{ac} is FALSE", (), (child,))
            for br in _branches(root, label):
                old = best.get(br.location)
                if old is None or br.progress > old.progress:
                    best[br.location] = br
            break
    return list(best.values())


def _branches(root: Blame, step: str | None = None) -> Iterator[Branch]:
    """The branches of an unnarrowed blame tree: the disjuncts under its disjunctions
    (down nested ones), each with the path from ``root`` to it."""
    for chain, selected in _walk(root, (), False):
        at = max((i for i, n in enumerate(chain) if n.reason == NO_DISJUNCT), default=-1)
        disjunct = chain[at + 1] if at + 1 < len(chain) else chain[-1]
        blame = _rebuild(chain)
        text = " ".join(disjunct.text.split())
        yield Branch(text if len(text) <= 200 else text[:199] + "…", str(disjunct.span),
                     selected, blame, progress(blame), step)


def _walk(node: Blame, trail: tuple[Blame, ...], passed: bool
          ) -> Iterator[tuple[tuple[Blame, ...], bool]]:
    """Each branch as the chain of nodes down to where it failed, and whether its guards
    held (``passed``: a conjunct held on the way down from the branch, so its guards
    did: a guard that fails deeper, inside the action, is the action's)."""
    chain = (*trail, node)
    if node.reason == NO_DISJUNCT and node.children:
        for child in node.children:
            yield from _walk(child, chain, False)
    elif is_guard_failure(node) and not passed:
        yield chain, False
    elif len(node.children) == 1 and node.reason != NO_WITNESS:
        held = node.reason.startswith("conjunct ") and not node.reason.startswith("conjunct 1 ")
        yield from _walk(node.children[0], chain, passed or held)
    else:
        yield chain, True


def _rebuild(chain: tuple[Blame, ...]) -> Blame:
    """One path of a blame tree: each node of ``chain`` with the next as its only child
    (a disjunction saying which disjunct this is), the last narrowed to its nearest
    bindings."""
    out = narrowed(chain[-1])
    for node, below in zip(reversed(chain[:-1]), reversed(chain[1:]), strict=True):
        reason = node.reason
        if reason == NO_DISJUNCT:
            reason = f"{NO_DISJUNCT}; this branch: {' '.join(below.text.split())[:120]}"
        out = Blame(node.text, node.span, reason, node.bindings, (out,))
    return out


def explain_error(model: Model, err: EvalError, states: Sequence[State], set_level: Any,
                  level: int, locate: Locate = lambda _: None,
                  entry_of: Callable[[State], int | None] = lambda _: None) -> EvalError:
    """The error ``err`` raised while the candidates ``states`` at ``level`` were
    expanded, said with the log entry (``entry_of`` a candidate, in the style that keeps
    the log position in a variable, else ``level``) and line, the branch of ``Next`` and
    the bindings under which it happened, found by walking ``Next`` again from each
    candidate until the error shows (``err`` as it is when the walk does not meet it: it
    happened elsewhere, say in an invariant)."""
    for s in states[:TRIED]:
        set_level(level)
        try:
            with model.guard():
                branches = _disabled(model, s)
        except EvalError:
            continue
        for br in branches:
            if not br.blame.innermost().reason.startswith("cannot be evaluated"):
                continue
            line = locate(_values([br.blame]))
            bound = ", ".join(f"{n} = {v}" for n, v in _witnesses(br.blame))
            entry = entry_of(s)
            context = (f"while checking log entry {level if entry is None else entry}"
                       + (f" ({line})" if line else "")
                       + f" in the branch {br.text} ({br.location})"
                       + (f" with {bound}" if bound else ""))
            out = EvalError(f"{err.message} -- {context}", err.span, err.values)
            out.detail = "\n".join(x for x in (out.detail, br.blame.render(1)) if x)
            return out
    return err


def _witnesses(b: Blame) -> list[tuple[str, str]]:
    """The witnesses of ``\\E`` on the path down ``b``'s first children."""
    out: list[tuple[str, str]] = []
    node: Blame | None = b
    while node is not None:
        if node.reason == WITNESS:
            out += [(n, v if len(v) <= 80 else v[:79] + "…") for n, v in node.bindings]
        node = node.children[0] if node.children else None
    return out
