"""Name resolution: bind every name of a module and report what does not resolve.

Usage::

    rm = resolve(module, search_path, file=path, text=source)   # or load(path, search_path)
    rm.module            # the ast.Module
    rm.symbols           # names visible at its top level -> Symbol (own, EXTENDS'd, INSTANCE'd)
    rm.exported          # the names a module that EXTENDS it sees (no LOCAL ones)
    rm.extends           # the ResolvedModules it EXTENDS, in order
    rm.instances         # InstanceDef name -> the instantiated ResolvedModule
    rm.graph.modules    # every module loaded for it, by name (the module graph)

Modules are looked up by name among the modules of the same file (nested and
sibling modules), then in the importing file's folder, then on ``search_path``,
then in the standard modules of :mod:`tlaconf.tla.stdlib` (:data:`STANDARD_MODULES`:
those SANY ships; Reals, RealTime, Randomization and Json are resolved only).  The library
path (:mod:`tlaconf.tla.library`) is searched for a standard module's name only after
them, as TLC searches its class path (the tlapm library's own ``Bags.tla`` is not read).  As in TLC,
a module file holds the module of its name (``M.tla`` starts with ``MODULE M``).  Their primitive
operators (``Nat``, ``+``, ``Int``, ...) are declared there as ``CONSTANT``
operators with :attr:`Symbol.kind` ``"builtin"``.

Checked: undefined names and operators (including infix symbols not brought in
by EXTENDS), wrong number of arguments (operators, higher-order parameters,
parameterized instances), a bare operator name used where a value is needed,
duplicate definitions (also against EXTENDS'd names), INSTANCE substitutions
for names the module does not declare, missing implicit substitutions, unknown
modules, EXTENDS/INSTANCE cycles (a module extending itself too), a file whose
MODULE name is not its file name, and an operator used in its own definition
without a RECURSIVE declaration.  All errors of a module are collected and raised
together as one :class:`ResolveErrors` (each a :class:`ResolveError` with
``file:line:col`` and a caret line).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import read_text, unreadable_path
from tlaconf.tla import ast
from tlaconf.tla.errors import ResolveError
from tlaconf.tla.library import JarMember, is_jar, jar_member, library_path
from tlaconf.tla.parser import parse_modules
from tlaconf.tla.visit import children

STDLIB_DIR = Path(__file__).with_name("stdlib")
STANDARD_MODULES = (
    "Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "Bags", "TLC", "TLCExt",
    "RealTime", "Randomization", "Json",
)
"""The one list of TLA+'s standard modules: those SANY ships (``tla2sany/StandardModules``,
without the Toolbox's and TLC's internal ones)."""

BUILTIN_OPERATORS: dict[str, int] = {
    "=": 2, "/=": 2, "\\in": 2, "\\notin": 2, "\\cup": 2, "\\cap": 2, "\\": 2,
    "\\subseteq": 2, "SUBSET": 1, "UNION": 1, "DOMAIN": 1, "~": 1, "/\\": 2, "\\/": 2,
    "=>": 2, "<=>": 2, "\\X": -1, "[]": 1, "<>": 1, "~>": 2, "-+->": 2, "\\cdot": 2,
}  # fmt: skip
"""Operators built into TLA+ itself (``-1``: any number of arguments)."""

BUILTIN_VALUES = ("BOOLEAN", "STRING")
_RECURSION_LIMIT = 20_000
_SHOWN_ERRORS = 50
"""The most resolution errors printed (the rest are counted)."""
_TOO_DEEP = (
    "{what} is an expression nested too deeply to resolve (a chain such as a + a + ... "
    "of some thousands of terms; TLC's stack overflows sooner): split it into definitions"
)
_SELECTORS = frozenset({":", "<<", ">>", "@"})


@dataclass(frozen=True)
class Symbol:
    """A name visible in a module.  ``kind``: ``constant variable operator function
    instance builtin theorem``; ``arity`` -1 means any."""

    name: str
    arity: int
    kind: str
    module: str
    node: ast.Node | None = None
    target: ResolvedModule | None = None  # for kind "instance"


_KIND_CLASS = {"constant": "declaration", "variable": "declaration", "theorem": "theorem"}
"""What SANY's node class of a symbol is (all other kinds are definitions): two modules
EXTENDed together that give a name symbols of the same class are a warning, the first
kept; of different classes, an error."""


def _uncommented(lines: list[str]) -> list[str]:
    """``lines`` with their comments (``\\*`` to the end of a line, ``(* *)``, nested)
    blanked, columns kept."""
    out: list[str] = []
    depth = 0
    for line in lines:
        chars = list(line)
        i = 0
        while i < len(chars):
            two = line[i:i + 2]
            if depth == 0 and two == "\\*":
                chars[i:] = " " * (len(chars) - i)
                break
            if two == "(*" or (depth and two == "*)"):
                depth += 1 if two == "(*" else -1
                chars[i:i + 2] = "  "
                i += 2
                continue
            if depth:
                chars[i] = " "
            i += 1
        out.append("".join(chars))
    return out


@dataclass(eq=False)
class ResolvedModule:
    module: ast.Module
    file: str
    text: str
    graph: ModuleGraph
    symbols: dict[str, Symbol] = field(default_factory=dict)
    exported: dict[str, Symbol] = field(default_factory=dict)
    extends: tuple[ResolvedModule, ...] = ()
    instances: dict[str, ResolvedModule] = field(default_factory=dict)
    standard: bool = False

    @property
    def name(self) -> str:
        return self.module.name

    def operators(self) -> list[tuple[str, int]]:
        """The module's own definitions (name, arity), in source order."""
        out: list[tuple[str, int]] = []
        for u in self.module.units:
            if isinstance(u, ast.OpDef | ast.InstanceDef):
                out.append((u.name, len(u.params)))
            elif isinstance(u, ast.FnDef):
                out.append((u.name, 0))
        return out


class ResolveErrors(UserError):
    """Every resolution error found, in source order."""

    def __init__(self, errors: Sequence[ResolveError]) -> None:
        first = errors[0]
        super().__init__(first.message, first.location, first.detail)
        self.errors = list(errors)

    def __str__(self) -> str:
        shown = [UserError.__str__(e) for e in self.errors[:_SHOWN_ERRORS]]
        rest = len(self.errors) - len(shown)
        if rest:
            shown.append(f"(and {rest:,} more error{'s' if rest > 1 else ''})")
        return "\n".join(shown)


class ModuleGraph:
    """Finds, parses and resolves modules by name; caches them (the module graph)."""

    def __init__(self, search_path: Iterable[str | Path] = ()) -> None:
        self.search_path = [Path(p) for p in search_path]
        self.modules: dict[str, ResolvedModule] = {}
        self._available: dict[str, tuple[ast.Module, str, str]] = {}
        self._loading: list[str] = []
        self.errors: list[ResolveError] = []

    def register_file(self, modules: Sequence[ast.Module], file: str, text: str) -> None:
        """Make the (top-level and nested) modules of one file available by name."""

        todo = list(modules)
        while todo:
            m = todo.pop(0)
            self._available.setdefault(m.name, (m, file, text))
            todo[:0] = [u for u in m.units if isinstance(u, ast.Module)]

    def _dirs(self, near: str) -> list[Path]:
        """Where a module imported by the file ``near`` is looked for, in order."""
        return ([Path(near).parent] if near and not near.startswith("<") else []) + self.search_path

    def _find_file(self, name: str, near: str) -> Path | JarMember | str | None:
        """The file of module ``name``, None, or why the first file of that name on the
        way cannot be read (a named pipe, a folder, a symbolic-link loop: it is not
        skipped for a module of the same name further on)."""
        dirs = self._dirs(near)
        if name in STANDARD_MODULES:  # as TLC's class path, the library comes after them
            library = set(library_path())
            dirs = [d for d in dirs if d not in library]
        for d in dirs:
            if is_jar(d):  # a library jar (tlaconf.tla.library)
                member = jar_member(d, name)
                if member is not None:
                    return member
                continue
            p = d / f"{name}.tla"
            if p.is_file():
                return p
            if p.exists() or p.is_symlink():
                return f"{p} {unreadable_path(p)}"
        if name in STANDARD_MODULES:
            return STDLIB_DIR / f"{name}.tla"
        return None

    def get(self, name: str, near: str, where: ast.Node, ctx: ResolvedModule) -> ResolvedModule:
        """The resolved module ``name``; ``None`` errors are recorded against ``where``."""
        if name in self.modules:
            return self.modules[name]
        if name in self._loading:
            chain = " -> ".join([*self._loading[self._loading.index(name):], name])
            one = chain.count(" -> ") == 1
            what = "extends or instantiates itself" if one else "depends on itself"
            raise _Fail(f"circular dependency: module {name} {what} ({chain})", where)
        if name not in self._available:
            path = self._find_file(name, near)
            if path is None:
                dirs = ", ".join(dict.fromkeys(str(d) for d in self._dirs(near))) or "nowhere"
                raise _Fail(f"module {name} not found (searched {dirs} and the standard "
                            "modules)", where)
            if isinstance(path, str):
                raise _Fail(f"module {name}: {path}", where)
            if isinstance(path, JarMember):
                label, text = path.label, path.read()
                modules = parse_modules(text, label)
            else:
                label = str(path)
                modules, text = parse_file(path)
            self.register_file(modules, label, text)
            if name not in self._available:
                raise _Fail(f"file {label} holds MODULE {modules[0].name}, not {name} (a module "
                            "file is named after its module)", where)
        module, file, text = self._available[name]
        return self.resolve(module, file, text)

    def resolve(
        self, module: ast.Module, file: str, text: str, outer: dict[str, Symbol] | None = None
    ) -> ResolvedModule:
        if module.name in self.modules:
            return self.modules[module.name]
        self._loading.append(module.name)
        try:
            rm = ResolvedModule(module, file, text, self, standard=Path(file).parent == STDLIB_DIR)
            _Resolver(rm, outer or {}).run()
            self.modules[module.name] = rm
            return rm
        finally:
            self._loading.remove(module.name)


def parse_file(path: Path) -> tuple[tuple[ast.Module, ...], str]:
    """Parse a module file (the parse of a text already seen is reused: see :func:`_parse`)."""
    text = read_text(path, "module")
    return _parse(text, str(path)), text


@lru_cache(maxsize=256)
def _parse(text: str, file: str) -> tuple[ast.Module, ...]:
    """The modules of ``text`` (a pure function of its arguments, so its results are
    shared: the standard modules are parsed once per process)."""
    return parse_modules(text, file)


class _Fail(Exception):
    def __init__(self, message: str, node: ast.Node | None) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


def _is_selector(name: str) -> bool:
    return name in _SELECTORS or name.isdigit()


class _Resolver:
    def __init__(self, rm: ResolvedModule, outer: dict[str, Symbol]) -> None:
        self.rm = rm
        self.graph = rm.graph
        self.scope: dict[str, Symbol] = dict(outer)
        self.own: set[str] = set()
        self.recursive: set[str] = set()
        self.defining: list[str] = []
        """Operators whose body is being resolved (innermost last): using one of them in
        its own body needs a RECURSIVE declaration."""

    # ------------------------------------------------------------------ errors

    def error(self, message: str, node: ast.Node | None) -> None:
        sp = node.span if node is not None else ast.NO_SPAN
        file = sp.file if sp != ast.NO_SPAN else self.rm.file
        text = self.rm.text if file == self.rm.file else ""
        self.graph.errors.append(ResolveError(message, file, sp.line, sp.col, text))

    def operator_at(self, e: ast.OpApp) -> ast.Node:
        """For an infix application, a node located at the operator symbol (else ``e``)."""
        if len(e.args) != 2 or e.module or e.name[:1].isalpha() or not self.rm.text:
            return e
        left, right = e.args[0].span, e.args[1].span
        if left.file != self.rm.file or left.end_line != right.line:
            return e
        line = self.rm.text.splitlines()[left.end_line - 1].expandtabs(8)
        col = left.end_col  # 0-based index of the character after the left operand
        while col < right.col - 1 and line[col] in " )":
            col += 1
        if col >= right.col - 1:
            return e
        at = ast.Span(self.rm.file, left.end_line, col + 1, left.end_line, col + 1)
        return ast.Node(span=at)

    def extends_at(self, name: str) -> ast.Node:
        """A node located at ``name`` in the module's EXTENDS clause (else the module)."""
        m = self.rm.module
        if m.span.file != self.rm.file or not self.rm.text:
            return m
        lines = _uncommented([line.expandtabs(8) for line in self.rm.text.splitlines()])
        pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
        seen_extends = False
        for i in range(m.span.line - 1, min(len(lines), m.span.end_line)):
            line = lines[i]
            start = 0
            if not seen_extends:
                at = line.find("EXTENDS")
                if at < 0:
                    continue
                seen_extends, start = True, at + len("EXTENDS")
            hit = pattern.search(line, start)
            if hit:
                return ast.Node(span=ast.Span(self.rm.file, i + 1, hit.start() + 1, i + 1,
                                              hit.end()))
        return m

    # ------------------------------------------------------------------ module level

    def run(self) -> None:
        m = self.rm.module
        extends: list[ResolvedModule] = []
        for name in m.extends:
            try:
                target = self.graph.get(name, self.rm.file, self.extends_at(name), self.rm)
            except _Fail as f:
                self.error(f.message, f.node)
                continue
            extends.append(target)
            self.import_all(target.exported, m, via=f"EXTENDS {name}", extends=True)
        self.rm.extends = tuple(extends)
        for u in m.units:
            try:
                self.unit(u)
            except RecursionError:
                self.error(_TOO_DEEP.format(what="this unit"), u)
        self.rm.symbols = self.scope

    def import_all(self, symbols: dict[str, Symbol], where: ast.Node, via: str,
                   extends: bool = False) -> None:
        for name, sym in symbols.items():
            old = self.scope.get(name)
            if old is not None and (old.module, old.node) != (sym.module, sym.node):
                if (old.kind == "builtin" and sym.kind == "builtin") or (
                    old.node is not None and old.node == sym.node
                ):
                    continue  # the same declaration or an identical definition
                if extends and _KIND_CLASS.get(old.kind, "definition") == _KIND_CLASS.get(
                        sym.kind, "definition"):
                    continue  # SANY warns and keeps the first (TLC runs with it)
                self.error(
                    f"{name} is defined both in {old.module} and in {sym.module} ({via})", where
                )
                continue
            self.scope[name] = sym
            self.rm.exported.setdefault(name, sym)

    def define(self, name: str, sym: Symbol, node: ast.Node, local: bool = False) -> None:
        old = self.scope.get(name)
        if old is not None and not (name in self.recursive and old.kind == "operator"):
            where = f" (first defined in {old.module}" + (
                f" at {old.node.span})"
                if old.node is not None and old.node.span != ast.NO_SPAN
                else ")"
            )
            self.error(f"duplicate definition of {name}{where}", node)
        self.recursive.discard(name)
        self.scope[name] = sym
        self.own.add(name)
        if not local:
            self.rm.exported[name] = sym

    def sym(self, name: str, arity: int, kind: str, node: ast.Node | None) -> Symbol:
        if self.rm.standard and kind == "constant":
            kind = "builtin"
        return Symbol(name, arity, kind, self.rm.module.name, node)

    def unit(self, u: ast.Unit) -> None:
        if isinstance(u, ast.Constant):
            for p in u.params:
                self.define(p.name, self.sym(p.name, p.arity, "constant", p), p)
        elif isinstance(u, ast.Variable):
            for n in u.names:
                self.define(n, self.sym(n, 0, "variable", u), u)
        elif isinstance(u, ast.Recursive):
            for p in u.params:
                self.define(p.name, self.sym(p.name, p.arity, "operator", p), p)
                self.recursive.add(p.name)
        elif isinstance(u, ast.OpDef):
            self.defining.append(u.name)
            try:
                self.expr(u.body, self.params(u.params))
            except RecursionError:
                self.error(_TOO_DEEP.format(what=f"the definition of {u.name}"), u)
            finally:
                self.defining.pop()
            self.define(u.name, self.sym(u.name, len(u.params), "operator", u), u, u.local)
        elif isinstance(u, ast.FnDef):
            self.define(u.name, self.sym(u.name, 0, "function", u), u, u.local)
            self.expr(u.body, self.bounds(u.bounds, {}))
        elif isinstance(u, ast.InstanceDef):
            target = self.instance(u.instance, self.params(u.params))
            s = Symbol(u.name, len(u.params), "instance", self.rm.module.name, u, target)
            if target is not None:
                self.rm.instances[u.name] = target
            self.define(u.name, s, u, u.local)
        elif isinstance(u, ast.Instance):
            target = self.instance(u, {})
            if target is not None:
                params = {
                    n for n, s in target.symbols.items() if s.kind in ("constant", "variable")
                }
                imported = {n: s for n, s in target.exported.items() if n not in params}
                before = dict(self.rm.exported)
                self.import_all(imported, u, via=f"INSTANCE {u.module}")
                if u.local:
                    self.rm.exported = before
        elif isinstance(u, ast.Assume):
            self.expr(u.expr, {})
            if u.name is not None:
                self.define(u.name, self.sym(u.name, 0, "theorem", u), u)
        elif isinstance(u, ast.Theorem):
            self.theorem(u, {})
            if u.name is not None:
                self.define(u.name, self.sym(u.name, 0, "theorem", u), u)
        elif isinstance(u, ast.Module):
            self.graph.register_file([u], self.rm.file, self.rm.text)
            self.graph.resolve(u, self.rm.file, self.rm.text, outer=dict(self.scope))

    def theorem(self, u: ast.Theorem, local: dict[str, int]) -> None:
        """``ASSUME NEW x \\in S, a PROVE e``: each NEW name is seen by the items after
        it (in the order written) and by ``e``; a nested ``ASSUME ... PROVE``'s by itself
        only."""
        items: list[ast.Bound | ast.Param | ast.Expr | ast.Theorem] = [*u.new, *u.assume]
        items.sort(key=lambda n: (n.span.line, n.span.col))
        for b in items:
            if isinstance(b, ast.Param):
                local = {**local, b.name: b.arity}
            elif isinstance(b, ast.Bound):
                if b.domain is not None:
                    self.expr(b.domain, local)
                local = {**local, **{n: 0 for n in b.names}}
            elif isinstance(b, ast.Theorem):
                self.theorem(b, local)
            else:
                self.expr(b, local)
        self.expr(u.expr, local)

    def params(
        self, params: tuple[ast.Param, ...], local: dict[str, int] | None = None
    ) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in params:
            if p.name in out:
                self.error(f"duplicate parameter {p.name}", p)
            else:
                self.fresh(p.name, local or {}, p)
            out[p.name] = p.arity
        return out

    def fresh(self, name: str, local: dict[str, int], node: ast.Node) -> None:
        """SANY's rule: a parameter, bound variable or LET definition may not reuse a name
        that is visible where it is declared (a definition, declaration or bound name)."""
        if name in local:
            self.error(f"multiply-defined symbol {name}: it is already bound here (TLA+ does "
                       "not allow a bound name to shadow a visible one)", node)
            return
        old = self.scope.get(name)
        if old is None:
            return
        where = (f" at {old.node.span}" if old.node is not None and old.node.span != ast.NO_SPAN
                 else f" in {old.module}")
        self.error(f"multiply-defined symbol {name}: it is already defined{where} (TLA+ does "
                   "not allow a bound name to shadow a visible one)", node)

    def instance(self, inst: ast.Instance, local: dict[str, int]) -> ResolvedModule | None:
        try:
            target = self.graph.get(inst.module, self.rm.file, inst, self.rm)
        except _Fail as f:
            self.error(f.message, f.node)
            return None
        declared = {n: s for n, s in target.symbols.items() if s.kind in ("constant", "variable")}
        done: set[str] = set()
        for name, e in inst.substitutions:
            if name not in declared:
                self.error(f"module {inst.module} has no CONSTANT or VARIABLE {name}", e)
            done.add(name)
            self.expr(e, local, allow_op=declared[name].arity if name in declared else -1)
        for name in declared:
            if name in done:
                continue
            if name not in local and name not in self.scope:
                self.error(
                    f"INSTANCE {inst.module}: no substitution for {name} "
                    f"and no {name} defined here",
                    inst,
                )
        return target

    # ------------------------------------------------------------------ expressions

    def lookup(self, name: str, local: dict[str, int]) -> int | None:
        """Arity of a visible name, or None."""
        if name in local:
            return local[name]
        s = self.scope.get(name)
        if s is not None:
            return -1 if s.kind == "instance" else s.arity
        if name in BUILTIN_OPERATORS:
            return BUILTIN_OPERATORS[name]
        if name in BUILTIN_VALUES:
            return 0
        return None

    def undefined(self, what: str, name: str) -> str:
        """The message for an undefined ``name`` (``what``: name or operator)."""
        if name in self.defining:
            return (f"{name} is used in its own definition, but it is not declared RECURSIVE "
                    f"(add 'RECURSIVE {name}' before it; a recursive function f[x \\in S] "
                    "needs none)")
        return f"undefined {what} {name}"

    def qualified(self, node: ast.Name | ast.OpApp, local: dict[str, int]) -> int | None:
        """Arity of ``M!N!x``; ``-1`` for sub-expression references (``Inv!2``)."""
        path = node.module
        first = self.scope.get(path[0])
        if first is None and path[0] in local:
            return -1
        if first is None:
            self.error(f"undefined name {path[0]}", node)
            return None
        if first.kind != "instance":
            return -1  # a sub-expression reference such as Def!1 or Def!:
        margs = node.module_args or tuple(() for _ in path)
        rm = first.target
        arity_of_step = first.arity
        for i, step in enumerate(path):
            if i > 0:
                if rm is None or _is_selector(step):
                    return -1
                s = rm.exported.get(step)
                if s is None:
                    self.error(f"module {rm.name} has no definition {step}", node)
                    return None
                if s.kind != "instance":
                    return -1
                rm, arity_of_step = s.target, s.arity
            if arity_of_step >= 0 and len(margs[i]) != arity_of_step:
                self.error(
                    f"instance {step} takes {arity_of_step} argument(s), given {len(margs[i])}",
                    node,
                )
            for a in margs[i]:
                self.expr(a, local)
        if rm is None or _is_selector(node.name):
            return -1
        s = rm.exported.get(node.name)
        if s is None:
            self.error(
                f"module {rm.name} (instance {'!'.join(path)}) has no definition {node.name}", node
            )
            return None
        return -1 if s.kind == "instance" else s.arity

    def bounds(self, bounds: tuple[ast.Bound, ...], local: dict[str, int]) -> dict[str, int]:
        inner = dict(local)
        for b in bounds:
            if b.domain is not None:
                self.expr(b.domain, local)
            for n in b.names:
                self.fresh(n, inner, b)
                inner[n] = 0
        return inner

    def binders(
        self, names: Iterable[str], local: dict[str, int], node: ast.Node
    ) -> dict[str, int]:
        """``local`` with ``names`` bound (LAMBDA parameters, ``\\EE`` variables)."""
        inner = dict(local)
        for n in names:
            self.fresh(n, inner, node)
            inner[n] = 0
        return inner

    def expr(self, e: ast.Expr, local: dict[str, int], allow_op: int = 0) -> None:
        """Resolve ``e``; ``allow_op`` > 0 (or -1) when an operator of that arity may appear."""
        if isinstance(e, ast.Name):
            arity = self.qualified(e, local) if e.module else self.lookup(e.name, local)
            if arity is None:
                if not e.module:
                    self.error(self.undefined("name", e.name), e)
            elif arity > 0 and allow_op == 0:
                self.error(
                    f"operator {e.name} takes {arity} argument(s) but is used without arguments", e
                )
            elif arity >= 0 and allow_op > 0 and arity != allow_op:
                self.error(
                    f"operator {e.name} takes {arity} argument(s); "
                    f"an operator with {allow_op} is expected here",
                    e,
                )
        elif isinstance(e, ast.OpApp):
            arity = self.qualified(e, local) if e.module else self.lookup(e.name, local)
            if arity is None:
                if not e.module:
                    self.error(self.undefined("operator", e.name), self.operator_at(e))
            elif arity >= 0 and arity != len(e.args):
                self.error(
                    f"operator {e.name} takes {arity} argument(s), given {len(e.args)}",
                    self.operator_at(e),
                )
            sig = self._signature(e, local)
            for i, a in enumerate(e.args):
                self.expr(a, local, allow_op=sig[i] if i < len(sig) else -1)
        elif isinstance(e, ast.Junction):
            for x in e.items:
                self.expr(x, local)
        elif isinstance(e, ast.Quant):
            self.expr(e.body, self.bounds(e.bounds, local))
        elif isinstance(e, ast.TemporalQuant):
            self.expr(e.body, self.binders(e.names, local, e))
        elif isinstance(e, ast.Choose | ast.SetFilter):
            inner = self.bounds((e.bound,), local)
            self.expr(e.body if isinstance(e, ast.Choose) else e.pred, inner)
        elif isinstance(e, ast.SetMap):
            self.expr(e.expr, self.bounds(e.bounds, local))
        elif isinstance(e, ast.FnCons):
            self.expr(e.body, self.bounds(e.bounds, local))
        elif isinstance(e, ast.Let):
            self.let(e, local)
        elif isinstance(e, ast.Lambda):
            self.expr(e.body, self.binders(e.params, local, e))
        elif isinstance(e, ast.Label):
            self.expr(e.expr, local)
        elif isinstance(e, ast.Except):
            self.expr(e.fn, local)
            for steps, value in e.updates:
                for st in steps:
                    if isinstance(st, ast.ExceptIndex):
                        for a in st.args:
                            self.expr(a, local)
                self.expr(value, local)
        elif isinstance(e, ast.Case):
            for g, v in e.arms:
                self.expr(g, local)
                self.expr(v, local)
            if e.other is not None:
                self.expr(e.other, local)
        else:
            for child in children(e):  # the nodes without binders or operator arguments
                self.expr(child, local)  # type: ignore[arg-type]

    def _signature(self, e: ast.OpApp, local: dict[str, int]) -> tuple[int, ...]:
        """Expected arity of each argument (> 0 for operator parameters); -1 if unknown."""
        if e.module or e.name in local:
            return tuple(-1 for _ in e.args)
        s = self.scope.get(e.name)
        node = s.node if s is not None else None
        if isinstance(node, ast.OpDef | ast.InstanceDef):
            return tuple(p.arity for p in node.params)
        if s is None or isinstance(node, ast.Param):
            return tuple(-1 for _ in e.args)
        return tuple(0 for _ in e.args)

    def let(self, e: ast.Let, local: dict[str, int]) -> None:
        inner = dict(local)
        rec: set[str] = set()
        for d in e.defs:
            if isinstance(d, ast.Recursive):
                for p in d.params:
                    self.fresh(p.name, inner, p)
                    inner[p.name] = p.arity
                    rec.add(p.name)
            elif isinstance(d, ast.OpDef):
                if d.name not in rec:
                    self.fresh(d.name, inner, d)
                self.defining.append(d.name)
                self.expr(d.body, {**inner, **self.params(d.params, inner)})
                self.defining.pop()
                inner[d.name] = len(d.params)
            elif isinstance(d, ast.FnDef):
                self.fresh(d.name, inner, d)
                inner[d.name] = 0
                self.expr(d.body, self.bounds(d.bounds, inner))
            elif isinstance(d, ast.InstanceDef):
                self.fresh(d.name, inner, d)
                self.instance(d.instance, inner)
                inner[d.name] = -1
        self.expr(e.body, inner)


def resolve(
    module: ast.Module,
    search_path: Iterable[str | Path] = (),
    *,
    file: str | None = None,
    text: str = "",
    siblings: Sequence[ast.Module] = (),
) -> ResolvedModule:
    """Resolve ``module`` (and what it EXTENDS/INSTANCEs); raise :class:`ResolveErrors`."""
    graph = ModuleGraph(search_path)
    file = file or module.span.file
    graph.register_file([module, *siblings], file, text)
    return _checked(graph, [(module, file, text)])[0]


def resolve_sources(
    sources: Sequence[tuple[str, str]], search_path: Iterable[str | Path] = ()
) -> list[ResolvedModule]:
    """Parse and resolve the first module of every ``(file, text)`` of ``sources`` in one
    module graph: the files' modules are found by name before ``search_path`` is searched
    (files not yet written, checked together).  Raises a
    :class:`~tlaconf.tla.errors.ParseError`, or one :class:`ResolveErrors` with every error."""
    graph = ModuleGraph(search_path)
    roots = []
    for file, text in sources:
        modules = _parse(text, file)
        graph.register_file(modules, file, text)
        roots.append((modules[0], file, text))
    return _checked(graph, roots)


def _checked(
    graph: ModuleGraph, roots: Sequence[tuple[ast.Module, str, str]]
) -> list[ResolvedModule]:
    """Resolve ``roots`` in ``graph``; :class:`ResolveErrors` with every error found."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
    try:
        out = [graph.resolve(m, file, text) for m, file, text in roots]
    except RecursionError:
        module, file, _ = roots[0]
        err = ResolveError(
            "expression nested too deeply to resolve", file, module.span.line, module.span.col
        )
        raise ResolveErrors([err]) from None
    finally:
        sys.setrecursionlimit(limit)
    if graph.errors:
        raise ResolveErrors(graph.errors)
    return out


def load(path: str | Path, search_path: Iterable[str | Path] = ()) -> ResolvedModule:
    """Parse the file at ``path`` and resolve its first module (which must be named after
    the file, as TLC requires)."""
    modules, text = parse_file(Path(path))
    check_file_name(Path(path), modules[0], text)
    return resolve(modules[0], search_path, file=str(path), text=text, siblings=modules[1:])


def check_file_name(path: Path, module: ast.Module, text: str) -> None:
    """A :class:`ResolveErrors` unless ``path`` is ``<module name>.tla``."""
    if path.suffix == ".tla" and module.name != path.stem:
        sp = module.span
        raise ResolveErrors([ResolveError(
            f"the file {path.name} holds MODULE {module.name}: a module file must be named "
            f"after its module ({module.name}.tla), as TLC requires", str(path), sp.line,
            sp.col, text)])
