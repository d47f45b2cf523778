"""Observers of one search of the engine (tlaconf/explore/hooks.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tlaconf.explore.adapter import Label

State = dict[str, Any]
StateId = int
"""A state's identity: its 64-bit fingerprint (VIEW and SYMMETRY applied, kinds apart:
TRUE is not 1). The same in every run and every process."""


@dataclass(frozen=True)
class Stop(Exception):
    """Raised by a hook to end the search with a verdict: ``kind`` is "property"
    (or "invariant", "deadlock", ...), ``name`` the property's name, ``path`` the ids of
    the behaviour's states from an initial state (the engine turns them into Steps with
    labels), ``loop`` the index in ``path`` where a lasso's cycle starts (None: a finite
    prefix), ``detail`` free text for the report."""
    kind: str
    name: str
    path: tuple[StateId, ...]
    loop: int | None = None
    detail: str = ""


class Hooks:
    """Every method is a no-op here; a subclass overrides what it observes. Any method may
    raise Stop. Several Hooks can ride one search (the engine calls them in order)."""

    def initial(self, sid: StateId, state: State) -> None:
        """A distinct initial state that satisfies every CONSTRAINT, before its invariants
        are checked."""

    def transition(self, src: StateId, src_state: State, label: Label,
                   dst: StateId, dst_state: State, new: bool) -> None:
        """Every generated successor that satisfies CONSTRAINT and ACTION_CONSTRAINT, new
        (``new=True``, first time seen) or already seen; for a new one this is called
        before its invariants are checked."""

    def dead_end(self, sid: StateId, state: State) -> None:
        """``state`` has no successor the search keeps: none at all (when deadlocks are
        not checked), or none that satisfies CONSTRAINT and ACTION_CONSTRAINT."""

    def level_done(self, level: int) -> None:
        """Every state of ``level`` has been expanded (breadth-first only)."""

    def finished(self, complete: bool) -> None:
        """The search ended without a Stop; ``complete`` is False when a bound
        (depth, states, seconds) cut it."""


    # ------------------------------------------------------------ beyond the contract

    def evaluating(self, level: int) -> None:
        """The engine is about to evaluate at ``level`` (0: the initial predicate; a new
        state's ``CONSTRAINT``, ``VIEW`` and invariants: its own level; a state's
        successors and ``ACTION_CONSTRAINT``: the level of the state expanded), for a
        caller that keeps TLC's ``TLCGet("level")`` register."""

    def level_begins(self, level: int, size: int) -> None:
        """The ``size`` states of ``level`` are about to be expanded (breadth-first only)."""

    def halts(self) -> bool:
        """Whether the search ends after the state just expanded, complete, as TLC's does
        once ``TLCSet("exit", TRUE)`` was evaluated (breadth-first only): the states that
        state's level found so far are kept as the last level."""
        return False

    def excluded(self, src: StateId | None, src_state: State | None, label: Label | None,
                 dst: StateId, dst_state: State) -> None:
        """A generated state that CONSTRAINT (an initial state: ``src`` None) or
        ACTION_CONSTRAINT excludes, after its invariants held: the search does not keep
        it, but TLC checks its invariants and action properties (``[]P``, ``[][A]_v``)
        all the same; a Stop's path may end with ``dst``."""

    def expanding(self, sid: StateId, state: State, queued: int) -> None:
        """``state``'s successors have been generated and are about to be shown
        (:meth:`transition`, or :meth:`dead_end`); ``queued`` is what TLC's single worker
        sees as its queue then (``TLCGet("queue")``): the states still to expand, this
        state's new successors included."""
