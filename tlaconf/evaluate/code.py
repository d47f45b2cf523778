"""What the compiler's parts share: the scope of a generated function's names, a piece
of generated code with what is known of its value, and the calling convention."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

from tlaconf.evaluate.namespace import Namespace
from tlaconf.values import Fn

NOCONST = object()
"""A :class:`Code`'s ``const`` when its value is not known at compile time."""

LocalKind: TypeAlias = Literal["val", "lazy", "op", "maybe"]
"""How generated code reads a local name (see :class:`Local`)."""


@dataclass(frozen=True)
class Local:
    """A name bound inside a definition: ``kind`` ``val``, ``lazy`` (call ``py()``), ``op``
    or ``maybe`` (a parameter whose argument may be a deferred error, see
    :mod:`.strictness`); ``strict`` lists an ``op``'s strict parameter positions (None:
    all)."""

    py: str
    kind: LocalKind = "val"
    arity: int = 0
    ty: Any = None
    strict: frozenset[int] | None = None
    loop: bool = False
    """Bound by a Python loop (a comprehension's ``for``): a closure over it sees the
    loop's last value unless it takes the current one (see ``bound_lambda``)."""


@dataclass
class Scope:
    ns: Namespace
    locals: dict[str, Local] = field(default_factory=dict)
    primed: bool = False
    at: str | None = None
    iterable: bool = False
    """Inside a comprehension's iterable, where Python forbids ``:=``."""
    hoist: dict[str, str] | None = None
    """Inside a quantifier's generated function: values computed once at its entry
    (name -> source), from the names in ``entry`` only."""
    entry: frozenset[str] = frozenset()
    loops: dict[str, dict[str, str]] | None = None
    """Inside a quantifier's generated function: for the variable of each loop but the
    innermost, values computed once per iteration of that loop (name -> source)."""

    def bind(self, names: dict[str, Local]) -> Scope:
        return Scope(self.ns, {**self.locals, **names}, self.primed, self.at, self.iterable,
                     self.hoist, self.entry, self.loops)

    def in_iterable(self) -> Scope:
        return Scope(self.ns, self.locals, self.primed, self.at, True, self.hoist, self.entry,
                     self.loops)

    def own(self) -> Scope:
        """This scope for code that goes into another generated function (no hoisting)."""
        return replace(self, hoist=None, entry=frozenset(), loops=None)


STATE_ARGS = ("_S", "_N")
"""The leading parameters of every generated function: the state and the next state."""
STATE = ", ".join(STATE_ARGS)


def as_value(fname: str, lead: list[str]) -> str:
    """A generated operator function as a value (a higher-order argument): a closure over
    the caller's state and the instance arguments ``lead``."""
    return f"(lambda *_a: {fname}({STATE}, {''.join(x + ', ' for x in lead)}*_a))"


@dataclass
class Code:
    src: str
    boolean: bool = False
    const: Any = NOCONST
    ty: Any = None
    """The Python type of the value when known at compile time."""

    def __post_init__(self) -> None:
        if self.boolean:
            self.ty = bool
        elif self.const is not NOCONST and self.ty is None:
            self.ty = type(self.const)


def elem_type(value: Any) -> Any:
    """The one plain type of a constant set's elements, else None."""
    if type(value) is not frozenset or not value:
        return None
    types = {type(x) for x in value}
    if len(types) == 1:
        t = types.pop()
        return t if t in (str, int, bool, tuple, frozenset) else None
    return None


BOOL_OPS = frozenset(
    {"=", "/=", "\\in", "\\notin", "\\subseteq", "\\subset", "\\supseteq", "\\supset",
     "<", ">", "<=", ">=", "~", "=>", "<=>", "/\\", "\\/", "IsFiniteSet", "\\sqsubseteq"}
)
PLAIN_TYPES = (str, int, frozenset, tuple, Fn)
TYPE_NAMES = {str: "str", int: "int", frozenset: "frozenset", tuple: "tuple", Fn: "_Fn",
               bool: "bool"}


def is_ident(src: str) -> bool:
    return src.isidentifier() or (src.lstrip("-").isdigit()) or src in ("True", "False")


def pyname(name: str) -> str:
    """``name`` as part of a Python identifier."""
    s = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
    return s if s.isascii() else "x"
