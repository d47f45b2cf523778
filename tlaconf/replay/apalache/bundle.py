"""The module bundle Apalache loads: the conformance module and what it uses, made typable.

:func:`read_bundle` collects the conformance module ``M`` and every module it
EXTENDS or INSTANCEs on the search path (Apalache has the standard ones), and
rewrites their texts before they are sent, keeping every line where it was (so
Apalache's line numbers are the files' line numbers):

* a definition no check of the trace reaches (from the trace's actions and the
  invariants) is left out: Apalache type-checks everything it is given;
* a reached definition without parameters that depends only on constants (such
  as ``ZoneInstances4``, built with ``\\o``, which Apalache's strings lack) is
  replaced by its value, computed by tlaconf, as a literal with its type
  (``ZoneInstances4 == {"Bank", ...}``, its ``\\* @type:`` on the line before it);
* a sequence built as a function (``[i \\in 1..n |-> e]``, ``[1..n -> S]``) is
  written with Apalache's ``MkSeq`` (:mod:`~tlaconf.replay.apalache.sequences`);
* an action of ``M`` without a ``@type`` annotation gets one from the type of its
  params across the trace (``\\* @type: ({id: Int, ...}) => Bool;``), on the
  comment or blank line above it;
* everything else is sent verbatim, ``\\* @type:`` annotations included.

:func:`read_types` reads the ``@type`` and ``@typeAlias`` annotations of all
those modules (a bad one is a spec error naming its file and line); a
folded definition takes the type of its annotation, and the definitions that
carry the aliases are always sent, as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.replay.apalache.annotations import aliases, check_types, read_annotations
from tlaconf.replay.apalache.sequences import as_sequences
from tlaconf.replay.apalache.types import (
    NoCommonType,
    Type,
    conform,
    infer,
    known,
    literal,
    type_text,
)
from tlaconf.spec.module_spec import ModuleSpec
from tlaconf.tla import ast
from tlaconf.tla.parser import parse_module
from tlaconf.tla.resolve import STANDARD_MODULES as TLA_STANDARD_MODULES
from tlaconf.tla.resolve import ResolvedModule, ResolveErrors, resolve
from tlaconf.tla.visit import iter_nodes

STANDARD_MODULES = frozenset(TLA_STANDARD_MODULES) | {
    "Apalache", "Variants", "Option", "SequencesExt", "FiniteSetsExt", "Functions",
    "__apalache_internal",
}
"""Modules Apalache provides itself: TLA+'s standard ones (the resolver's list) and its own."""

_APALACHE = ("Apalache", "__apalache_internal")
"""The modules of Apalache's that a rewritten module extends."""
_TYPE_LINE = re.compile(r"\s*\\\*\s*@type:")
_FREE = re.compile(r"\s*(\\\*.*)?")
"""A line that holds nothing but a line comment."""
_COMMENT = re.compile(r"\s*\\\*.*")
"""A line that is a line comment (not blank)."""
_REST = re.compile(r"[)\]}>\s]*(\\\*.*)?")
"""What may follow a definition's last token on its line (closing brackets, a comment)."""

Evaluate = Callable[[str], Any]
"""Computes the value of a constant-level definition of ``M`` by name (UserError if it cannot)."""


@dataclass
class _Module:
    name: str
    path: Path
    text: str
    tree: ast.Module


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None


def _imports(module: ast.Module) -> list[str]:
    names = list(module.extends)
    for u in module.units:
        if isinstance(u, ast.Instance):
            names.append(u.module)
        elif isinstance(u, ast.InstanceDef):
            names.append(u.instance.module)
    return names


def _modules(spec: ModuleSpec) -> list[_Module]:
    """``M`` and every non-standard module it depends on, transitively."""
    text = _read(spec.path)
    out = [_Module(spec.name, spec.path, text, parse_module(text, str(spec.path)))]
    seen = {spec.name}
    todo = [out[0].tree]
    while todo:
        for name in _imports(todo.pop()):
            if name in seen:
                continue
            seen.add(name)
            found = next((d / f"{name}.tla" for d in spec.search_path
                          if (d / f"{name}.tla").is_file()), None)  # fmt: skip
            if found is None:
                if name not in STANDARD_MODULES:
                    raise UserError(
                        f"module {name} (used by {spec.name}) is not on the search path"
                    )
                continue
            text = _read(found)
            module = _Module(name, found, text, parse_module(text, str(found)))
            out.append(module)
            todo.append(module.tree)
    return out


def _scopes(root: _Module, search_path: Sequence[Path]) -> dict[str, ResolvedModule]:
    """Each non-standard module of the bundle as the resolver bound its names (LOCAL,
    EXTENDS, INSTANCE), by name."""
    try:
        rm = resolve(root.tree, search_path, file=str(root.path), text=root.text)
    except ResolveErrors as err:
        raise UserError(str(err)) from None
    return {name: m for name, m in rm.graph.modules.items() if not m.standard}


@dataclass
class Typing:
    """The annotations of ``M`` and the modules it uses."""

    aliases: dict[str, str]
    modules: dict[str, dict[str, Type]]
    """Each module's annotated names (definitions, variables, constants) and their types."""
    holders: set[str]
    """The definitions whose comments define the aliases."""

    def of(self, module: str) -> dict[str, Type]:
        return self.modules.get(module, {})


def read_types(spec: ModuleSpec) -> Typing:
    """Every annotation of the bundle's modules, parsed (UserError naming a bad one)."""
    modules = _modules(spec)
    alias_texts = aliases((m.text, str(m.path)) for m in modules)
    holders = {a.target for m in modules for a in read_annotations(m.text, str(m.path))[1]}
    per = {m.name: check_types(m.tree, m.text, str(m.path), alias_texts) for m in modules}
    return Typing(alias_texts, per, holders)


def _names(node: ast.Node) -> Iterator[str]:
    """Every name a node refers to (unqualified, or the instance of a qualified one)."""
    for n in iter_nodes(node):
        if isinstance(n, ast.Name | ast.OpApp):
            yield n.module[0] if n.module else n.name


@dataclass
class Bundle:
    """The texts to send (``M`` first) and what was done to them."""

    texts: tuple[str, ...]
    folded: tuple[str, ...]
    left_out: tuple[str, ...]


def read_bundle(
    spec: ModuleSpec, roots: set[str], evaluate: Evaluate, params: Mapping[str, Type] | None = None,
    typing: Typing | None = None,
) -> Bundle:
    """The bundle for checks reaching ``roots`` (action labels and invariants of ``M``).

    ``params``: the type of each action's params across the trace; an action of ``M``
    without a ``@type`` annotation gets ``(<that type>) => Bool`` when it is fully known.
    """
    modules = _modules(spec)
    typing = typing or read_types(spec)
    scopes = _scopes(modules[0], spec.search_path)
    Key = tuple[str, str]  # (module, definition): LOCAL and same-named definitions apart
    defs: dict[Key, tuple[_Module, ast.Node]] = {}  # a unit: OpDef, FnDef or InstanceDef
    variables: set[str] = set()
    for m in modules:
        variables |= set(m.tree.variables())
        for name, unit in m.tree.definitions().items():
            defs[(m.name, name)] = (m, unit)

    def bound(module: str, name: str) -> Key | None:
        """The definition ``name`` means in ``module``, as the resolver bound it."""
        sym = scopes[module].symbols.get(name) if module in scopes else None
        return (sym.module, name) if sym is not None and (sym.module, name) in defs else None

    uses: dict[Key, set[Key]] = {}
    reads_state: set[Key] = set()
    for key, (owner, node) in defs.items():
        names = set(_names(node))
        uses[key] = {k for n in names if (k := bound(owner.name, n)) is not None}
        if names & variables:
            reads_state.add(key)
    instance_of = {key: unit.instance.module for key, (_, unit) in defs.items()
                   if isinstance(unit, ast.InstanceDef)}  # fmt: skip
    constant: dict[Key, bool] = {}

    def is_constant(key: Key, stack: frozenset[Key] = frozenset()) -> bool:
        if key in reads_state or key in instance_of or key in stack:
            return False
        if key not in constant:
            constant[key] = all(is_constant(u, stack | {key}) for u in uses.get(key, ()))
        return constant[key]

    values: dict[Key, Any] = {}
    reached: set[Key] = set()
    root = modules[0].name
    todo = [k for r in roots if (k := bound(root, r)) is not None]
    todo += [k for k in defs if k[1] in typing.holders]
    while todo:
        key = todo.pop()
        if key in reached:
            continue
        reached.add(key)
        _, node = defs[key]
        # folded by its value in M's namespace: only where M's name is this definition
        folds = (key[1] not in typing.holders and bound(root, key[1]) == key
                 and is_constant(key))
        if isinstance(node, ast.OpDef) and not node.params and folds:
            try:
                values[key] = evaluate(key[1])
                infer(values[key])
                continue
            except UserError:
                values.pop(key, None)  # sent as written
        if key in instance_of:  # everything of a named instance's module stays reachable
            todo += [k for k in defs if k[0] == instance_of[key]]
        todo += list(uses[key])
    texts = []
    unreached = {k for k, (_, unit) in defs.items()
                 if k not in reached and not isinstance(unit, ast.InstanceDef)}  # fmt: skip
    annotate = {a: t for a, t in (params or {}).items() if known(t)}
    for m in modules:
        edits: dict[str, tuple[ast.Span, str | None, str]] = {}
        for name, own in m.tree.definitions().items():
            key = (m.name, name)
            if m is modules[0] and name in annotate and isinstance(own, ast.OpDef):
                edits[name] = (own.span, None, f"\\* @type: ({type_text(annotate[name])}) => Bool;")
            elif key in values:
                t = _value_type(values[key], typing.of(m.name).get(name), name)
                note = f"\\* @type: {type_text(t)};" if known(t) else ""
                local = "LOCAL " if name not in scopes[m.name].exported else ""
                edits[name] = (own.span, f"{local}{name} == {literal(values[key], t)}", note)
            elif key in unreached:
                edits[name] = (own.span, "", "")
        sent = [u for k, (owner, u) in defs.items()
                if owner is m and k in reached and k not in values]  # fmt: skip
        text, sequences = as_sequences(m.text, sent)
        text = _rewrite(text, list(edits.values()))
        uses_apalache = sequences > 0 or any("SetAsFun(" in (e[1] or "") for e in edits.values())
        if uses_apalache:
            text = _extend_apalache(text, tuple(m.tree.extends))
        texts.append(text)
    return Bundle(tuple(texts), tuple(sorted({n for _, n in values})),
                  tuple(sorted({n for _, n in unreached})))


def _value_type(value: Any, annotated: Type, name: str) -> Type:
    """The type of a folded definition's value: its annotation's, else the value's own."""
    if annotated is None:
        return infer(value)
    try:
        return conform(value, annotated, name)
    except NoCommonType as err:
        raise UserError(f"{err.message} (its @type annotation)") from None


def _extend_apalache(text: str, extends: tuple[str, ...]) -> str:
    """``text`` with Apalache (its ``SetAsFun``, ``MkSeq``) and ``__apalache_internal`` (the
    capacity of a sequence) among the modules it EXTENDS, on the same lines."""
    missing = ", ".join(m for m in _APALACHE if m not in extends)
    if not missing:
        return text
    if extends:
        return re.sub(r"\bEXTENDS\s+", f"EXTENDS {missing}, ", text, count=1)
    head, newline, rest = text.partition("\n")
    return f"{head} EXTENDS {missing}{newline}{rest}"


def _rewrite(text: str, edits: list[tuple[ast.Span, str | None, str]]) -> str:
    """``text`` with each edited definition's lines replaced, line numbers kept.

    An empty replacement drops the definition and its ``@type`` annotation; None
    keeps the definition as written; a ``note`` (an annotation) goes on the line
    before a definition not annotated already, when that line holds only a
    comment or nothing.
    """
    lines = text.split("\n")
    for span, replacement, note in sorted(edits, key=lambda e: -e[0].line):
        first, last = span.line - 1, span.end_line - 1
        if replacement is None:
            above = lines[first - 1] if first > 0 else "x"
            if not _TYPE_LINE.match(above) and _FREE.fullmatch(above):
                lines[first - 1] = note
            continue
        if span.col != 1 or last >= len(lines) or not _REST.fullmatch(lines[last][span.end_col:]):
            continue  # not on lines of its own: leave it as written
        annotated = first > 0 and bool(_TYPE_LINE.match(lines[first - 1]))
        if not replacement:  # the definition's @type annotation goes with it
            k = first - 1
            while k >= 0 and _COMMENT.fullmatch(lines[k]):
                if _TYPE_LINE.match(lines[k]):  # also above other comment lines:
                    lines[k] = ""  # Snowcat gives a comment block's @type to what follows
                k -= 1
        lines[first : last + 1] = [replacement] + [""] * (last - first)
        free = first > 0 and _FREE.fullmatch(lines[first - 1])
        if replacement and note and not annotated and free:
            lines[first - 1] = note  # over a blank or comment line: line numbers stay
    return "\n".join(lines)
