"""The constant parts of the tlaplus/Examples modules, as ``tlaconf eval`` and TLC see them.

* **closed definitions**: a module's own exported zero-arity definitions (operators and
  functions) whose value depends on no CONSTANT and no VARIABLE, through every definition
  they use (names taken from the resolver's symbol table, traversed with
  :mod:`tlaconf.tla.visit`), and that use no action or temporal operator;
* **constant ASSUMEs**: the ASSUMEs TLC checks for a manifest model (the root module's and
  those of what it EXTENDS), under the model's ``.cfg``.

Each answer is a pair (class, text): ``("value", ToString of the value)``, ``("error",
message)``, for an ASSUME ``("holds", "")``, ``("false", "Module:line")`` or ``("error",
"Module:line")`` (the first ASSUME that does not hold).  ``generate_constants.py`` records
TLC's answers in ``tlc_constants.json``; ``test_constants_tlc.py`` compares tlaconf's.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate import EvalError, load_module
from tlaconf.evaluate.context import default_context
from tlaconf.evaluate.namespace import Override
from tlaconf.spec.cfg import Substitution, read_cfg
from tlaconf.tla import ast as A
from tlaconf.tla.resolve import ResolvedModule, Symbol, load
from tlaconf.tla.visit import free_names, iter_nodes

Answer = tuple[str, str]

_NOT_CONSTANT = (A.Prime, A.Unchanged, A.Enabled, A.ActionBox, A.Fairness, A.TemporalQuant)
_TEMPORAL = frozenset({"[]", "<>", "~>", "-+->", "\\cdot"})


def digest(path: Path) -> str:
    """A module file's content hash (recorded answers are for this text only)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def declared(rm: ResolvedModule) -> dict[str, Symbol]:
    """The CONSTANTS and VARIABLES a module declares or EXTENDS (an INSTANCE substitutes them)."""
    return {n: s for n, s in rm.symbols.items() if s.kind in ("constant", "variable")}


def closed_definitions(rm: ResolvedModule) -> list[str]:
    """The module's own exported zero-arity definitions of constant level that depend on
    no CONSTANT and no VARIABLE (in source order)."""
    memo: dict[tuple[str, str], bool] = {}

    def closed(sym: Symbol) -> bool:
        key = (sym.module, sym.name)
        if key in memo:
            return memo[key]
        memo[key] = True  # a recursive use does not open it
        memo[key] = _closed_body(sym)
        return memo[key]

    def _closed_body(sym: Symbol) -> bool:
        node, home = sym.node, rm.graph.modules.get(sym.module)
        if sym.kind in ("constant", "variable", "instance") or home is None:
            return False
        if sym.kind not in ("operator", "function") or not isinstance(node, A.OpDef | A.FnDef):
            return sym.kind in ("builtin", "theorem")
        bound = [p.name for p in node.params] if isinstance(node, A.OpDef) else \
            [n for b in node.bounds for n in b.names]
        body: A.Node = node if isinstance(node, A.FnDef) else node.body
        if any(isinstance(n, _NOT_CONSTANT) or (isinstance(n, A.OpApp) and n.name in _TEMPORAL)
               for n in iter_nodes(body)):
            return False
        for name, path in free_names(body, bound):
            if path:
                return False
            used = home.symbols.get(name)
            if used is not None and not closed(used):
                return False
        return True

    out = []
    for u in rm.module.units:
        if isinstance(u, A.OpDef | A.FnDef) and not u.local and not getattr(u, "params", ()):
            sym = rm.symbols.get(u.name)
            if sym is not None and sym.node is u and closed(sym):
                out.append(u.name)
    return out


def dummy_constants(rm: ResolvedModule) -> dict[str, str]:
    """A value for every CONSTANT (closed definitions never read it): the string
    ``"tlaconf_<name>"``; TLC's probe substitutes the same."""
    return {n: f"tlaconf_{n}" for n, s in declared(rm).items() if s.kind == "constant"}


def tlaconf_definitions(path: Path) -> dict[str, Answer]:
    """``tlaconf eval -m PATH 'ToString(D)'`` for every closed definition D."""
    rm = load(path)
    names = closed_definitions(rm)
    if not names:
        return {}
    ctx = default_context(path, (), dummy_constants(rm))
    out: dict[str, Answer] = {}
    for name in names:
        try:
            out[name] = ("value", ctx.evaluate(f"ToString({name})"))
        except UserError as err:
            out[name] = ("error", str(err).splitlines()[0])
    return out


def model_constants(tla: Path, cfg: Path) -> dict[str, Any]:
    """The constants a ``.cfg`` binds, as ``tlaconf explore`` binds them (``<-`` to a
    definition; only those the module declares)."""
    parsed = read_cfg(cfg)
    rm = load(tla)
    names = {n for n, s in declared(rm).items() if s.kind == "constant"}
    return {k: Override(v.definition) if isinstance(v, Substitution) else v
            for k, v in parsed.constants.items() if k in names}


def tlaconf_assumptions(tla: Path, cfg: Path) -> Answer:
    """Whether the model's ASSUMEs hold under ``tlaconf`` (the first one that does not)."""
    ctx = load_module(tla, (), model_constants(tla, cfg))
    for unit, result in ctx.assumptions():
        if result is True:
            continue
        where = f"{Path(unit.span.file).stem}:{unit.span.line}"
        if isinstance(result, EvalError) and "evaluation budget" in str(result):
            return ("budget", where)  # tlaconf cannot decide it in time (exit 3 elsewhere)
        return ("error" if isinstance(result, EvalError) else "false", where)
    return ("holds", "")


def has_assumptions(tla: Path) -> bool:
    """Whether TLC checks an ASSUME for this root module (its own or an EXTENDS'd one)."""
    todo, seen = [load(tla)], set()
    while todo:
        rm = todo.pop()
        if rm.name in seen or rm.standard:
            continue
        seen.add(rm.name)
        if any(isinstance(u, A.Assume) for u in rm.module.units):
            return True
        todo.extend(rm.extends)
    return False


_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|<<|>>|\|->|:>|@@|\.\.|->|[-\w]+|\S)')


def normal(text: str) -> Any:
    """A printed TLC value with the order of set elements and record fields made canonical
    (TLC orders strings by when it first saw them, tlaconf by code point), or the text
    itself when it is not a value this reads."""
    tokens = _TOKEN.findall(text)
    try:
        value, end = _value(tokens, 0)
    except (IndexError, ValueError):
        return text
    return value if end == len(tokens) else text


def _value(t: list[str], i: int) -> tuple[Any, int]:
    tok = t[i]
    if tok in ("{", "<<", "[", "("):
        close = {"{": "}", "<<": ">>", "[": "]", "(": ")"}[tok]
        items: list[Any] = []
        i += 1
        while t[i] != close:
            item, i = _item(t, i, tok)
            items.append(item)
            if t[i] == ("@@" if tok == "(" else ","):
                i += 1
        i += 1
        fields = all(type(x) is tuple and len(x) == 3 and x[1] in ("|->", ":>", ":")
                     for x in items)
        if tok == "<<" or not (tok == "{" or fields):
            return (tok, tuple(items)), i
        return (tok, tuple(sorted(items, key=repr))), i
    if i + 2 < len(t) and t[i + 1] == "..":
        return ("interval", tok, t[i + 2]), i + 3
    return tok, i + 1


def _item(t: list[str], i: int, opening: str) -> tuple[Any, int]:
    if opening in ("[", "(") and t[i + 1] in ("|->", ":>", ":", "->"):
        key = t[i] if opening == "[" else None
        if key is None:
            key, i = _value(t, i)
            i -= 1
        value, j = _value(t, i + 2)
        return (key, t[i + 1], value), j
    return _value(t, i)


def compare(tlc: Answer, ours: Answer) -> str:
    """``agree``, ``order`` (the same value, strings in another order), ``declined``
    (TLC prints an infinite set by its definition; tlaconf never prints one) or ``differ``."""
    if tlc == ours:
        return "agree"
    if tlc[0] == ours[0] == "value" and normal(tlc[1]) == normal(ours[1]) != ours[1]:
        return "order"
    if tlc[0] == ours[0] == "error" and ours[0] != "value":
        return "agree"  # both refuse (the messages are each tool's own)
    if tlc[0] == "value" and ours[0] == "error" and "infinite set" in ours[1]:
        return "declined"
    return "differ"
