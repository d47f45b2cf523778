"""A model to explore: a module, its ``.cfg``, and what the ``.cfg`` makes of it.

:func:`load_model` reads ``MODULE.tla`` and its ``.cfg`` (``CONSTANTS`` with model
values and ``<-`` substitutions, ``INIT``/``NEXT`` or ``SPECIFICATION``,
``INVARIANT``, ``CONSTRAINT``, ``ACTION_CONSTRAINT``, ``SYMMETRY``, ``VIEW``,
``CHECK_DEADLOCK``).  A :class:`Model` gives the initial states, the labelled
successors of a state, a state's deduplication key (``VIEW`` and ``SYMMETRY``
applied) and its fingerprint (its identity), and checks invariants and constraints.

``PROPERTY`` lines are read here (:mod:`tlaconf.explore.temporal`) and checked by the
hooks :meth:`Model.hooks` gives every search.  Anything the explorer does not check (a
property formula outside what it supports, a temporal conjunct of the specification
other than ``[][A]_v`` and fairness, ``POSTCONDITION``) is an
:class:`Unsupported` error naming its ``file:line``: the explorer never reports a
count or verdict for a model it did not check as TLC would.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate import Blame, Context, EvalError, Override, load_module
from tlaconf.explore.adapter import Label, Successors, settle
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.hooks import Hooks
from tlaconf.explore.identity import fingerprint, state_fingerprint
from tlaconf.explore.spec_parts import Behaviour, behaviour
from tlaconf.explore.temporal import PropertyChecker, read_properties
from tlaconf.explore.temporal.classify import Properties
from tlaconf.files import unreadable_path
from tlaconf.spec.cfg import Cfg, Substitution, read_cfg
from tlaconf.tla import ast as A
from tlaconf.values import Fn, ModelValue, sort_key, sort_key_mapped

State = dict[str, Any]


@dataclass(slots=True)
class Transition:
    """One successor of a state: the action that took it there and the full state (not to
    be changed; not frozen, as a frozen dataclass is three times slower to make)."""

    label: Label
    state: State


class Model:
    """A loaded module under its ``.cfg``, ready to be explored."""

    def __init__(self, succ: Successors, cfg: Cfg, tla: Path,
                 check_properties: bool = True, postconditions: bool = False) -> None:
        ctx = succ.ctx
        self.ctx: Context = ctx
        self.cfg = cfg
        self.tla = tla
        self.variables: tuple[str, ...] = tuple(ctx.variables)
        self._succ = succ
        where = str(cfg.path) if cfg.path else str(tla)
        self.unchecked: tuple[str, ...] = () if check_properties else tuple(
            f"PROPERTY {p}" for p in cfg.properties)
        """What the ``.cfg`` asks for that is not checked (``check_properties=False``)."""
        if cfg.postconditions and not postconditions:
            raise Unsupported("POSTCONDITION is not checked by tlaconf explore",
                              f"{where}:{cfg.sections['POSTCONDITION']}")
        self.postconditions: tuple[str, ...] = cfg.postconditions
        """The ``POSTCONDITION`` operators, which the caller checks after its search
        (``postconditions=True``; else a model with one is refused)."""
        ctx.check_assumptions()
        self.behaviour: Behaviour | None = behaviour(self._succ, cfg, where)
        if self.behaviour is None and self.variables:
            raise UserError("the .cfg names no behaviour to explore: give INIT and NEXT, or "
                            "SPECIFICATION", where)
        self.invariants: tuple[str, ...] = cfg.invariants
        self.constraints: tuple[str, ...] = cfg.constraints
        self.action_constraints: tuple[str, ...] = cfg.action_constraints
        named = [("", op) for op in (*self.invariants, *self.constraints,
                                     *self.action_constraints,
                                     *(x for x in (cfg.view, cfg.symmetry) if x))]
        for what, op in [*named, *(("POSTCONDITION ", p) for p in self.postconditions)]:
            entry = ctx.ns.lookup(op)
            if entry is None or entry.kind not in ("op", "fn") or entry.arity != 0:
                raise UserError(f"{what}{op} is not a definition without parameters of "
                                f"module {ctx.name}", f"{where}:{cfg.lines.get(op, 1)}")
        self._invariants = [(op, ctx.predicate(op)) for op in self.invariants]
        self._constraints = [ctx.predicate(op) for op in self.constraints]
        self._action_constraints = [ctx.predicate(op) for op in self.action_constraints]
        self.constrained: bool = bool(self._constraints or self._action_constraints)
        """Whether a ``CONSTRAINT`` or ``ACTION_CONSTRAINT`` may exclude a state (else the
        search asks neither)."""
        self.check_deadlock: bool = cfg.check_deadlock is not False
        self.view: str | None = cfg.view
        self.symmetry: tuple[Fn, ...] = self._permutations(cfg.symmetry, where)
        self._symmetric = Representative(self.symmetry)
        self.properties: Properties | None = None
        """The ``PROPERTY`` lines, read (None without any, or ``check_properties=False``);
        a formula tlaconf does not check is refused here."""
        if check_properties and cfg.properties:
            lines = {p: f"{where}:{cfg.lines.get(p, _section_line(cfg, 'PROPERTY'))}"
                     for p in cfg.properties}
            self.properties = read_properties(ctx, cfg.properties, lines, cfg.specification)

    # ------------------------------------------------------------------ API

    def initial_states(self) -> list[State]:
        """The initial states in generation order (duplicates included, as TLC counts
        generated states)."""
        if self.behaviour is None:
            return []
        b = self.behaviour
        return self._succ.initial(b.init, b.init_ns, b.init_span)

    def successors(self, state: Mapping[str, Any]) -> list[Transition]:
        """Every successor of ``state`` under the next-state action, labelled
        (duplicates included)."""
        if self.behaviour is None:
            return []
        b = self.behaviour
        return [Transition(label, nxt) for label, nxt in
                self._succ.next(b.next, b.next_ns, b.next_span, b.next_name, state)]

    def hooks(self) -> list[Hooks]:
        """What every search of this model must carry: the checker of its properties
        (a fresh one per search)."""
        if self.properties is None:
            return []
        return [PropertyChecker(self.ctx, self.properties)]

    def guard(self) -> Any:
        """Evaluate one exploration step (a state's successors and their checks) under
        one evaluation budget: ``with model.guard(): ...``."""
        return self._succ.guard()

    def key(self, state: Mapping[str, Any]) -> Hashable:
        """What deduplicates ``state``: its values, or its ``VIEW``; under ``SYMMETRY``,
        of the permutations of them the least in TLC's order (variable by variable), as
        TLC picks its representative."""
        if not self.symmetry:
            return self._view(state)
        view: Any = self._view(state)
        values: tuple[Any, ...] = view if self.view is None else (view,)
        least = self._symmetric.least(values)
        return least if self.view is None else least[0]

    def fingerprint(self, state: Mapping[str, Any]) -> int:
        """``state``'s identity: the 64-bit fingerprint of its values (or ``VIEW``); under
        ``SYMMETRY``, of the permuted values least in TLC's order, as TLC picks them;
        values of different kinds differ (``TRUE`` is not ``1``), and it is the same in
        every run and process."""
        if self.symmetry:
            return self.fingerprint_key(self.key(state))
        if self.view is None:
            return state_fingerprint([state[v] for v in self.variables])
        return fingerprint(self._view(state))

    def fingerprint_key(self, key: Hashable) -> int:
        """The fingerprint of a :meth:`key`."""
        return state_fingerprint(key) if self.view is None else fingerprint(key)  # type: ignore[arg-type]

    def violated_invariant(self, state: Mapping[str, Any]) -> str | None:
        """The first invariant FALSE in ``state`` (in ``.cfg`` order), or None (inside
        :meth:`guard`)."""
        for inv, holds in self._invariants:
            if not holds(state, None):
                return inv
        return None

    def explain_invariant(self, inv: str, state: Mapping[str, Any]) -> Blame:
        """Why ``inv`` is FALSE in ``state``."""
        return self.ctx.explain(inv, (), state)

    def in_constraints(self, state: Mapping[str, Any]) -> bool:
        """Whether ``state`` satisfies every ``CONSTRAINT`` (else it is not explored;
        inside :meth:`guard`)."""
        return all(holds(state, None) for holds in self._constraints)

    def action_allowed(self, state: Mapping[str, Any], nxt: Mapping[str, Any]) -> bool:
        """Whether the step satisfies every ``ACTION_CONSTRAINT`` (inside :meth:`guard`)."""
        return all(holds(state, nxt) for holds in self._action_constraints)

    # ------------------------------------------------------------------ internals

    def _view(self, state: Mapping[str, Any]) -> Hashable:
        if self.view is None:
            return tuple(state[v] for v in self.variables)
        return settle(self.ctx.value(self.view, (), state))

    def _permutations(self, name: str | None, where: str) -> tuple[Fn, ...]:
        if name is None:
            return ()
        value = self.ctx.value(name)
        line = f"{where}:{self.cfg.lines.get(name, 1)}"
        if type(value) is not frozenset:
            raise UserError(f"SYMMETRY {name} is not a set of permutations", line)
        perms = []
        for p in value:
            if type(p) is not Fn or not all(type(k) is ModelValue for k in p):
                raise UserError(f"SYMMETRY {name}: every element must be a permutation of "
                                "model values (use Permutations(S) of TLC)", line)
            perms.append(p)
        return tuple(perms)


def _section_line(cfg: Cfg, keyword: str) -> int:
    return cfg.sections.get(keyword, cfg.sections.get(keyword.removesuffix("Y") + "IES", 1))


def permute(v: Any, perm: Fn) -> Any:
    """``v`` with every model value ``m`` in the permutation's domain replaced by
    ``perm[m]`` (``v`` itself when that changes nothing: no part of it is replaced, which
    Python's ``==`` cannot tell, as it has ``0 == FALSE``)."""
    t = type(v)
    if t is ModelValue:
        return perm.get(v, v)
    if t is frozenset or t is tuple:
        items = list(v)
        images = [permute(x, perm) for x in items]
        if all(x is y for x, y in zip(images, items, strict=True)):
            return v
        return frozenset(images) if t is frozenset else tuple(images)
    if t is Fn:
        pairs = list(v.items())
        moved = [(permute(k, perm), permute(x, perm)) for k, x in pairs]
        if all(k is j and x is y for (k, x), (j, y) in zip(moved, pairs, strict=True)):
            return v
        return Fn(dict(moved))
    return v


class Representative:
    """TLC's representative of a state under ``SYMMETRY``: of the permutations of its
    values, the least in TLC's order, variable by variable.  The permutations are
    compared by the keys of their images (:func:`~tlaconf.values.sort_key` of the
    permuted value, computed without building it: the images of one value have one
    structure, so their keys compare as TLC's ``compareTo`` does), a variable's only when
    the ones before tie; only the least permutation's images are built.  Keys of values
    and of their images are remembered by identity: successors share the values they
    leave unchanged."""

    _REMEMBERED = 100_000
    """Keys remembered per permutation before they are forgotten."""

    def __init__(self, perms: tuple[Fn, ...]) -> None:
        self.perms = perms
        self._images: list[dict[int, tuple[Any, Any]]] = [{} for _ in perms]
        self._pkeys: list[dict[int, tuple[Any, Any]]] = [{} for _ in perms]
        self._mv: list[dict[ModelValue, Any]] = [
            {m: sort_key(x) for m, x in p.items()} for p in perms]
        self._keys: dict[int, tuple[Any, Any]] = {}

    def least(self, values: tuple[Any, ...]) -> tuple[Any, ...]:
        best = -1  # the least permutation so far (-1: none moves the values lower)
        keys = [self._key(v) for v in values]
        n = len(values)
        for i in range(len(self.perms)):
            memo, mv = self._pkeys[i], self._mv[i]
            for j in range(n):
                kx = sort_key_mapped(values[j], mv, memo)
                kb = keys[j]
                if kx is kb or kx == kb:
                    continue
                if kx < kb:
                    best = i
                    keys[j] = kx
                    for r in range(j + 1, n):
                        keys[r] = sort_key_mapped(values[r], mv, memo)
                break
        if best < 0:
            return values
        perm, images = self.perms[best], self._images[best]
        return tuple(self._image(v, perm, images) for v in values)

    def _key(self, v: Any) -> Any:
        t = type(v)
        if t is int or t is str or t is bool or t is ModelValue:
            return sort_key(v)
        hit = self._keys.get(id(v))
        if hit is not None and hit[0] is v:
            return hit[1]
        if len(self._keys) >= self._REMEMBERED:
            self._keys.clear()
        out = sort_key(v)
        self._keys[id(v)] = (v, out)
        return out

    def _image(self, v: Any, perm: Fn, images: dict[int, tuple[Any, Any]]) -> Any:
        t = type(v)
        if t is int or t is str or t is bool:
            return v
        if t is ModelValue:
            return perm.get(v, v)
        hit = images.get(id(v))
        if hit is not None and hit[0] is v:
            return hit[1]
        if len(images) >= self._REMEMBERED:
            images.clear()
        out = permute(v, perm)
        images[id(v)] = (v, out)
        return out


def load_model(
    tla: str | Path, cfg: str | Path | None = None, search_path: Sequence[Path] = (),
    check_properties: bool = True, postconditions: bool = False,
    registers: Mapping[Any, Any] | None = None,
) -> Model:
    r"""The model of ``tla`` under ``cfg`` (default: the ``.cfg`` beside the module).
    ``check_properties=False`` explores a model whose ``.cfg`` has ``PROPERTY`` lines
    without checking them (the counts are still TLC's; the properties are not checked);
    ``postconditions=True`` accepts ``POSTCONDITION`` lines, which the caller checks
    (:attr:`Model.postconditions`).  ``registers``: TLCGet registers set before the
    ``ASSUME``\s are checked (a search's ``"level"``, ``"config"``; see
    :attr:`Context.registers <tlaconf.evaluate.Context.registers>`)."""
    tla = Path(tla)
    why = unreadable_path(tla)
    if why is not None:
        raise UserError(f"module file {tla} {why}")
    cfg_path = Path(cfg) if cfg is not None else tla.with_suffix(".cfg")
    why = unreadable_path(cfg_path)
    if why is not None:
        raise UserError(f"config file {cfg_path} {why}" + (
            "" if cfg is not None or cfg_path.exists() else " (pass -c CFG)"))
    parsed = read_cfg(cfg_path)
    declared = _declared_constants(tla, search_path)
    constants = {k: Override(v.definition) if isinstance(v, Substitution) else v
                 for k, v in parsed.constants.items() if k in declared}
    ctx = load_module(tla, search_path, constants)
    ctx.registers.update(registers or {})
    succ = Successors(ctx)
    for name, value in parsed.constants.items():
        if name in declared:
            continue
        by = value.definition if isinstance(value, Substitution) else None
        if not succ.override_definition(name, value, by):
            if value == ModelValue(name):  # ``p1 = p1`` names a model value, as in TLC
                continue
            what = f"the definition {by}" if by else "a value"
            raise UserError(f"{name} is neither a CONSTANT nor a definition of module "
                            f"{ctx.name} that can be given {what}",
                            f"{cfg_path}:{parsed.lines[name]}")
    return Model(succ, parsed, tla, check_properties, postconditions)


__all__ = ["EvalError", "Label", "Model", "State", "Transition", "Unsupported", "load_model",
           "permute"]


def _declared_constants(tla: Path, search_path: Sequence[Path]) -> set[str]:
    """The CONSTANTS ``tla`` declares, itself or through what it EXTENDS."""
    from tlaconf.tla import resolve

    out: set[str] = set()
    todo = [resolve.load(tla, search_path)]
    while todo:
        rm = todo.pop()
        todo.extend(rm.extends)
        for unit in rm.module.units:
            if isinstance(unit, A.Constant):
                out.update(p.name for p in unit.params)
    return out
