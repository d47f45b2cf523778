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
from collections.abc import Callable, Iterator, Mapping
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
    defs: dict[str, tuple[_Module, ast.Node]] = {}
    variables: set[str] = set()
    for m in modules:
        variables |= set(m.tree.variables())
        for name, unit in m.tree.definitions().items():
            defs.setdefault(name, (m, unit))
    uses = {name: set(_names(unit)) & (set(defs) | variables) for name, (_, unit) in defs.items()}
    instance_of = {name: unit.instance.module for name, (_, unit) in defs.items()
                   if isinstance(unit, ast.InstanceDef)}  # fmt: skip
    constant: dict[str, bool] = {}

    def is_constant(name: str, stack: frozenset[str] = frozenset()) -> bool:
        if name in variables or name in instance_of or name in stack:
            return False
        if name not in constant:
            constant[name] = all(is_constant(u, stack | {name}) for u in uses.get(name, ()))
        return constant[name]

    values: dict[str, Any] = {}
    reached: set[str] = set()
    todo = [r for r in roots | typing.holders if r in defs]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        _, node = defs[name]
        folds = name not in typing.holders and is_constant(name)
        if isinstance(node, ast.OpDef) and not node.params and folds:
            try:
                values[name] = evaluate(name)
                infer(values[name])
                continue
            except UserError:
                values.pop(name, None)  # sent as written
        if name in instance_of:  # everything of a named instance's module stays reachable
            todo += [n for n, (m, _) in defs.items() if m.name == instance_of[name]]
        todo += [u for u in uses[name] if u in defs]
    texts = []
    left_out = sorted(n for n, (_, unit) in defs.items()
                      if n not in reached and not isinstance(unit, ast.InstanceDef))  # fmt: skip
    annotate = {a: t for a, t in (params or {}).items() if known(t)}
    for m in modules:
        edits: dict[str, tuple[ast.Span, str | None, str]] = {}
        for name, own in m.tree.definitions().items():
            if defs.get(name, (None,))[0] is not m:
                continue
            if m is modules[0] and name in annotate and isinstance(own, ast.OpDef):
                edits[name] = (own.span, None, f"\\* @type: ({type_text(annotate[name])}) => Bool;")
            elif name in values:
                t = _value_type(values[name], typing.of(m.name).get(name), name)
                note = f"\\* @type: {type_text(t)};" if known(t) else ""
                edits[name] = (own.span, f"{name} == {literal(values[name], t)}", note)
            elif name in left_out:
                edits[name] = (own.span, "", "")
        sent = [u for n, (owner, u) in defs.items()
                if owner is m and n in reached and n not in values]  # fmt: skip
        text, sequences = as_sequences(m.text, sent)
        text = _rewrite(text, list(edits.values()))
        uses_apalache = sequences > 0 or any("SetAsFun(" in (e[1] or "") for e in edits.values())
        if uses_apalache:
            text = _extend_apalache(text, tuple(m.tree.extends))
        texts.append(text)
    return Bundle(tuple(texts), tuple(sorted(values)), tuple(left_out))


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
