"""The TLA+ abstract syntax tree: small immutable nodes, each with its source span.

This module is the contract between the parser (which builds these nodes) and
the evaluator (which compiles them).  Operators, whether written infix, prefix,
postfix or by name, are all :class:`OpApp` nodes whose ``name`` is the
operator's canonical spelling (see :data:`CANONICAL`): ``a \\union b`` and
``a \\cup b`` both become ``OpApp("\\cup", (a, b))``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

QuantKind: TypeAlias = Literal["A", "E"]
"""``\\A`` or ``\\E``."""
TemporalKind: TypeAlias = Literal["AA", "EE"]
"""``\\AA`` or ``\\EE``."""
FairnessKind: TypeAlias = Literal["WF", "SF"]
"""Weak or strong fairness."""


@dataclass(frozen=True, slots=True)
class Span:
    """A source region: 1-based line and column of its first and last character."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every node.  ``span`` never takes part in equality."""

    span: Span = field(default=NO_SPAN, compare=False, repr=False, kw_only=True)


# --------------------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Num(Node):
    value: int


@dataclass(frozen=True, slots=True)
class Str(Node):
    value: str


@dataclass(frozen=True, slots=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class Name(Node):
    """A bare identifier or an operator used as an argument (``F(+)``, ``Op(G)``).

    ``module`` holds the instance path for module-qualified names ``M!N!x``
    (``("M", "N")``), empty otherwise.
    """

    name: str
    module: tuple[str, ...] = ()
    module_args: tuple[tuple[Expr, ...], ...] = ()
    """Arguments of each parameterized instance in ``module`` (``I(x)!N`` -> ``((x,),)``);
    empty when no instance in the path takes arguments (added by the parser)."""


@dataclass(frozen=True, slots=True)
class OpApp(Node):
    """Application of a named, infix, prefix or postfix operator: ``Op(a, b)``, ``a + b``."""

    name: str
    args: tuple[Expr, ...]
    module: tuple[str, ...] = ()
    module_args: tuple[tuple[Expr, ...], ...] = ()
    """As :attr:`Name.module_args`."""


@dataclass(frozen=True, slots=True)
class Junction(Node):
    """An n-ary conjunction (``op == "/\\\\"``) or disjunction (``op == "\\\\/"``).

    Built both from bulleted lists (``bulleted=True``) and from infix chains,
    flattened, so that blame can point at one item.
    """

    op: str
    items: tuple[Expr, ...]
    bulleted: bool = False


@dataclass(frozen=True, slots=True)
class Bound(Node):
    """One binder group ``x, y \\in S`` or ``<<x, y>> \\in S``; ``domain`` None if unbounded."""

    names: tuple[str, ...]
    domain: Expr | None
    tuple_pattern: bool = False


@dataclass(frozen=True, slots=True)
class Quant(Node):
    """``\\A``/``\\E`` (``kind`` is ``"A"`` or ``"E"``), bounded or not."""

    kind: QuantKind
    bounds: tuple[Bound, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class TemporalQuant(Node):
    """``\\AA x : F`` / ``\\EE x : F``: parsed, never evaluated."""

    kind: TemporalKind
    names: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Choose(Node):
    bound: Bound
    body: Expr


@dataclass(frozen=True, slots=True)
class SetEnum(Node):
    elems: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class SetFilter(Node):
    """``{x \\in S : P}`` (``bound`` has exactly one name or a tuple pattern)."""

    bound: Bound
    pred: Expr


@dataclass(frozen=True, slots=True)
class SetMap(Node):
    """``{e : x \\in S, y \\in T}``."""

    expr: Expr
    bounds: tuple[Bound, ...]


@dataclass(frozen=True, slots=True)
class FnCons(Node):
    """``[x \\in S, y \\in T |-> e]``."""

    bounds: tuple[Bound, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class FnApp(Node):
    """``f[a]`` or ``f[a, b]`` (the latter means ``f[<<a, b>>]``)."""

    fn: Expr
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class FnSet(Node):
    """``[S -> T]``."""

    domain: Expr
    range: Expr


@dataclass(frozen=True, slots=True)
class Record(Node):
    """``[a |-> e, b |-> f]``."""

    fields: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class RecordSet(Node):
    """``[a : S, b : T]``."""

    fields: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class Tuple(Node):
    """``<<a, b>>``."""

    elems: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Dot(Node):
    """``r.a``."""

    expr: Expr
    field_name: str


@dataclass(frozen=True, slots=True)
class ExceptField(Node):
    """``.a`` in an EXCEPT path."""

    name: str


@dataclass(frozen=True, slots=True)
class ExceptIndex(Node):
    """``[a]`` or ``[a, b]`` in an EXCEPT path."""

    args: tuple[Expr, ...]


ExceptStep: TypeAlias = "ExceptField | ExceptIndex"


@dataclass(frozen=True, slots=True)
class Except(Node):
    """``[f EXCEPT !.a[1] = e, ![2] = @ + 1]``."""

    fn: Expr
    updates: tuple[tuple[tuple[ExceptStep, ...], Expr], ...]


@dataclass(frozen=True, slots=True)
class At(Node):
    """``@`` inside an EXCEPT value."""


@dataclass(frozen=True, slots=True)
class If(Node):
    cond: Expr
    then: Expr
    else_: Expr


@dataclass(frozen=True, slots=True)
class Case(Node):
    arms: tuple[tuple[Expr, Expr], ...]
    other: Expr | None


@dataclass(frozen=True, slots=True)
class Let(Node):
    defs: tuple[Unit, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Lambda(Node):
    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Prime(Node):
    expr: Expr


@dataclass(frozen=True, slots=True)
class Unchanged(Node):
    expr: Expr


@dataclass(frozen=True, slots=True)
class Enabled(Node):
    expr: Expr


@dataclass(frozen=True, slots=True)
class ActionBox(Node):
    """``[A]_v`` (``angle=False``) or ``<<A>>_v`` (``angle=True``)."""

    action: Expr
    sub: Expr
    angle: bool = False


@dataclass(frozen=True, slots=True)
class Fairness(Node):
    """``WF_v(A)`` / ``SF_v(A)``: parsed, never evaluated."""

    kind: FairnessKind
    sub: Expr
    action: Expr


@dataclass(frozen=True, slots=True)
class Label(Node):
    """``L :: e`` or ``L(x, y) :: e``."""

    name: str
    params: tuple[str, ...]
    expr: Expr


Expr: TypeAlias = (
    "Num | Str | Bool | Name | OpApp | Junction | Quant | TemporalQuant | Choose | SetEnum"
    " | SetFilter | SetMap | FnCons | FnApp | FnSet | Record | RecordSet | Tuple | Dot | Except"
    " | At | If | Case | Let | Lambda | Prime | Unchanged | Enabled | ActionBox | Fairness | Label"
)


# --------------------------------------------------------------------------- module units


@dataclass(frozen=True, slots=True)
class Param(Node):
    """A formal parameter; ``arity`` > 0 for a higher-order one (``F(_, _)``)."""

    name: str
    arity: int = 0


@dataclass(frozen=True, slots=True)
class Constant(Node):
    params: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Variable(Node):
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OpDef(Node):
    """``Op(p, F(_)) == body``; infix definitions ``a (+) b == e`` have ``name == "(+)"``."""

    name: str
    params: tuple[Param, ...]
    body: Expr
    local: bool = False


@dataclass(frozen=True, slots=True)
class FnDef(Node):
    """``f[x \\in S] == body`` (may be recursive)."""

    name: str
    bounds: tuple[Bound, ...]
    body: Expr
    local: bool = False


@dataclass(frozen=True, slots=True)
class Recursive(Node):
    """``RECURSIVE F(_), G``."""

    params: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Instance(Node):
    """``INSTANCE M WITH a <- e`` (also as ``I(x) == INSTANCE M`` through :class:`InstanceDef`)."""

    module: str
    substitutions: tuple[tuple[str, Expr], ...]
    local: bool = False


@dataclass(frozen=True, slots=True)
class InstanceDef(Node):
    name: str
    params: tuple[Param, ...]
    instance: Instance
    local: bool = False


@dataclass(frozen=True, slots=True)
class Assume(Node):
    """ASSUME / ASSUMPTION / AXIOM, optionally named."""

    name: str | None
    expr: Expr


@dataclass(frozen=True, slots=True)
class Theorem(Node):
    """THEOREM / LEMMA / PROPOSITION / COROLLARY; the proof is skipped by the parser."""

    name: str | None
    expr: Expr
    assume: tuple[Expr | Theorem, ...] = ()
    """For ``THEOREM ASSUME a, b PROVE e``: the assumptions ``a, b`` (``expr`` is ``e``);
    a nested ``ASSUME ... PROVE`` is a nameless Theorem (its NEW names are its own)."""
    new: tuple[Bound | Param, ...] = ()
    """For ``ASSUME NEW x \\in S, NEW F(_) ... PROVE e``: the declared names (a
    :class:`Param` for an operator), added by the parser."""


@dataclass(frozen=True, slots=True)
class Separator(Node):
    """A ``----`` line inside a module."""


Unit: TypeAlias = (
    "Constant | Variable | OpDef | FnDef | Recursive | Instance | InstanceDef | Assume"
    " | Theorem | Separator | Module"
)


@dataclass(frozen=True, slots=True)
class Module(Node):
    name: str
    extends: tuple[str, ...]
    units: tuple[Unit, ...]

    def definitions(self) -> dict[str, OpDef | FnDef | InstanceDef]:
        """The module's own top-level definitions, by name."""
        return {u.name: u for u in self.units if isinstance(u, OpDef | FnDef | InstanceDef)}

    def variables(self) -> tuple[str, ...]:
        return tuple(n for u in self.units if isinstance(u, Variable) for n in u.names)

    def constants(self) -> tuple[Param, ...]:
        return tuple(p for u in self.units if isinstance(u, Constant) for p in u.params)


# --------------------------------------------------------------------------- operator names

CANONICAL: dict[str, str] = {
    "\\union": "\\cup",
    "\\intersect": "\\cap",
    "\\land": "/\\",
    "\\lor": "\\/",
    "\\lnot": "~",
    "\\neg": "~",
    "#": "/=",
    "\\equiv": "<=>",
    "=<": "<=",
    "\\leq": "<=",
    "\\geq": ">=",
    "\\times": "\\X",
    "\\circ": "\\o",
    "\\oplus": "(+)",
    "\\ominus": "(-)",
    "\\odot": "(.)",
    "\\oslash": "(/)",
    "\\otimes": "(\\X)",
}
"""Synonyms mapped to the one spelling the parser puts in :attr:`OpApp.name`.

Prefix minus is ``"-."`` (as in TLA+ ``-. a``); ``\\X`` is n-ary (``A \\X B \\X C``
is one ``OpApp("\\X", (A, B, C))``, as in TLA+).  ``\\circ`` and ``\\o`` are one
symbol in TLA+; the canonical spelling is Sequences' ``"\\o"``.
"""
