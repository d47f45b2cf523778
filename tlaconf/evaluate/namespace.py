"""Namespaces: what each name means in a module, after EXTENDS and INSTANCE."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypeAlias

from tlaconf.errors import UserError
from tlaconf.evaluate.builtins import BUILTIN_VALUES, CORE, STANDARD, is_operator
from tlaconf.evaluate.community import OVERRIDES, override
from tlaconf.tla import ast as A
from tlaconf.tla.resolve import STANDARD_MODULES, ResolvedModule


@dataclass(frozen=True)
class Override:
    """A constant bound to a definition of the module, as ``CONSTANT X <- Def`` in a TLC
    ``.cfg`` (the definition may be an operator, for a constant operator ``X(_)``)."""

    name: str


EntryKind: TypeAlias = Literal["op", "fn", "const", "var", "builtin", "value", "inst", "subst"]
"""What a visible name is (see :class:`Entry`)."""


@dataclass(eq=False)
class Entry:
    """One visible name.

    ``kind`` is ``op`` (OpDef), ``fn`` (FnDef), ``const`` (a bound CONSTANT, ``value``),
    ``var`` (a VARIABLE), ``builtin`` (``value`` is a (function, arity) pair), ``value``
    (a builtin value), ``inst`` (a named instance, ``child``), ``subst`` (an instantiated
    module's constant or variable: ``node`` is the expression, ``ns`` the outer namespace).
    """

    kind: EntryKind
    name: str
    node: Any = None
    ns: Namespace | None = None
    arity: int = 0
    value: Any = None
    child: Namespace | None = None


def redefine_definition(root: Namespace, old: Entry, new: Entry) -> None:
    """The ``.cfg``'s ``Def <- Other`` (or ``Def = value``) for the definition ``old`` of
    the root module's graph, as TLC does it: TLC rebinds the definition itself, so every
    use of it sees ``new``, inside an INSTANCE's definitions too (``etcd!Init`` of a trace
    spec uses the redefined ``InitServerVars``); only ``I!Def`` named directly keeps the
    instance's own copy.  Under an INSTANCE that substitutes other expressions for its
    constants or variables, ``new`` would have to be read under them: refused."""
    node = old.node
    shared: dict[int, Entry] = {}
    for built, identity in root.instances:
        for ns in built.values():
            for name, entry in ns.entries.items():
                if entry is old or entry.node is not node or entry.kind not in ("op", "fn"):
                    continue
                if not identity:
                    raise UserError(f"the .cfg redefines {old.name}, which an INSTANCE with "
                                    "substitutions (WITH, or parameters) uses: tlaconf does "
                                    "not evaluate a redefinition under an instance's "
                                    "substitutions")
                ns.direct[name] = replace(entry)
                shared[id(entry)] = entry
    redefine(old, new)
    for entry in shared.values():
        redefine(entry, new)


def redefine(old: Entry, new: Entry) -> None:
    """Make the entry ``old`` mean ``new`` wherever it is seen (in place), as TLC's ``.cfg``
    ``X <- Def`` and ``Def = value`` do: TLC rebinds the declaration or definition itself,
    so the modules that EXTEND it (and define operators with it) see the new meaning, not
    only the root module's name; an INSTANCE of a module keeps its own definitions."""
    for f in fields(Entry):
        setattr(old, f.name, getattr(new, f.name))


@dataclass(eq=False)
class Namespace:
    name: str
    entries: dict[str, Entry] = field(default_factory=dict)
    variables: tuple[str, ...] = ()
    inst_params: tuple[str, ...] = ()
    """For ``I(x) == INSTANCE M ...``: the instance's parameters (visible only in its
    substitutions); its definitions compile to functions taking them first."""
    inst_py: tuple[str, ...] = ()
    direct: dict[str, Entry] = field(default_factory=dict)
    """For an instance's namespace: what ``I!name`` names where the ``.cfg`` redefined
    ``name`` (:func:`redefine_definition`): the instance's own copy of the definition."""
    instances: list[tuple[dict[str, Namespace], bool]] = field(default_factory=list)
    """For the root module's namespace: the namespaces of every INSTANCE built in its
    module graph, with whether the instance substitutes each name by itself."""
    origin: Origin | None = None
    """For a namespace built by an INSTANCE: that instance (ENABLED re-instantiates it)."""

    def lookup(self, name: str) -> Entry | None:
        return self.entries.get(name)


@dataclass(frozen=True, eq=False)
class Origin:
    """The ``INSTANCE`` ``inst`` in the namespace ``outer`` (of an ``I(params) ==
    INSTANCE``) that built the namespace of ``module``, one module of the instantiated
    graph; ``loader`` builds it again with other substitutions (:meth:`rebuild`)."""

    inst: A.Instance
    outer: Namespace
    params: tuple[str, ...]
    module: str
    loader: EvaluatorModules

    def rebuild(self, substitutions: tuple[tuple[str, A.Expr], ...], outer: Namespace
                ) -> Namespace:
        """The namespace of :attr:`module` in a new instance of the same module graph,
        with ``substitutions`` read in ``outer``."""
        inst = A.Instance(self.inst.module, substitutions, span=self.inst.span)
        builder = NamespaceBuilder(self.loader)
        builder.instance(inst, outer, self.params)
        return builder.instance_namespaces[0][0][self.module]


STANDARD_NAMES = frozenset(STANDARD_MODULES)
"""The standard modules (the resolver's list): their operators are the evaluator's builtins
(Json's are TLC's Java overrides, :data:`tlaconf.evaluate.community.OVERRIDES`)."""


class EvaluatorModules:
    """The modules the evaluator may use: those of one module graph that the resolver
    (:mod:`tlaconf.tla.resolve`) found, parsed and checked.  There is no second search:
    a module name is looked up only among them."""

    def __init__(self, resolved: ResolvedModule) -> None:
        self.modules: dict[str, A.Module] = {}
        self.files: dict[str, Path] = {}
        self.texts: dict[str, str] = {}
        self._exported: dict[str, frozenset[str]] = {}
        for name, rm in resolved.graph.modules.items():
            self._exported[name] = frozenset(rm.exported)
            if rm.standard:
                continue
            self.modules[name] = rm.module
            if not rm.file.startswith("<"):
                self.files[name] = Path(rm.file)
            self.texts.setdefault(rm.file, rm.text)

    def add(self, module: A.Module, path: Path | None) -> None:
        self.modules[module.name] = module
        if path is not None:
            self.files[module.name] = path
        for unit in module.units:
            if isinstance(unit, A.Module):
                self.add(unit, path)

    def exported(self, name: str) -> frozenset[str]:
        """The names module ``name`` exports, from the resolver's symbol table (a module added
        after resolution exports its definitions that are not LOCAL)."""
        if name not in self._exported:
            units = self.modules[name].units
            names = {u.name for u in units
                     if isinstance(u, A.OpDef | A.FnDef | A.InstanceDef) and not u.local}
            for u in units:
                if isinstance(u, A.Constant):
                    names.update(p.name for p in u.params)
                elif isinstance(u, A.Variable):
                    names.update(u.names)
            self._exported[name] = frozenset(names)
        return self._exported[name]

    def get(self, name: str, where: A.Node) -> A.Module:
        if name in self.modules:
            return self.modules[name]
        raise UserError(  # the resolver found every module the graph uses
            f"module {name} is not available to the evaluator",
            str(where.span) if where.span != A.NO_SPAN else None,
        )


def core_entries() -> dict[str, Entry]:
    out = {n: Entry("builtin", n, value=b) for n, b in CORE.items()}
    out.update({n: Entry("value", n, value=v) for n, v in BUILTIN_VALUES.items()})
    return out


def add_standard(entries: dict[str, Entry], module: str) -> None:
    for n, b in {**STANDARD.get(module, {}), **OVERRIDES.get(module, {})}.items():
        if n not in entries or entries[n].kind in ("builtin", "value"):
            entries[n] = (
                Entry("builtin", n, value=b, arity=b[1]) if is_operator(b)
                else Entry("value", n, value=b)
            )


@dataclass
class _Context:
    """One instantiation of a module graph (the root, or one ``INSTANCE``): the modules'
    namespaces built in it, by module name."""

    constants: dict[str, Any] | None
    missing: list[tuple[str, A.Span]]
    subst: dict[str, A.Expr] | None
    outer: Namespace | None
    inst: Namespace | None
    prefix: str
    origin: tuple[A.Instance, tuple[str, ...]] | None = None
    """The INSTANCE (and its parameters) this context instantiates."""
    built: dict[str, Namespace] = field(default_factory=dict)


class NamespaceBuilder:
    """Builds one :class:`Namespace` per module, as TLC scopes names: a module sees its own
    definitions (LOCAL ones included), the constants and variables it declares, and what the
    modules it EXTENDS or INSTANCEs export; the exported names are the resolver's
    (:attr:`ResolvedModule.exported`), so a LOCAL definition is never seen by an importer."""

    def __init__(self, loader: EvaluatorModules) -> None:
        self.loader = loader
        self.assumes: list[tuple[Namespace, A.Assume]] = []
        self.modules: dict[str, Namespace] = {}
        """The root module's namespace and those of the modules it EXTENDS, by module name."""
        self._instances = 0
        self.instance_namespaces: list[tuple[dict[str, Namespace], bool]] = []
        """Every INSTANCE's namespaces (by module name), with whether it substitutes
        each name by itself."""

    def root(self, module: A.Module, constants: dict[str, Any]) -> Namespace:
        missing: list[tuple[str, A.Span]] = []
        ctx = _Context(constants, missing, None, None, None, module.name)
        ns = self._module(module, ctx)
        ns.instances = self.instance_namespaces
        self.modules = ctx.built
        for name, value in constants.items():
            if isinstance(value, Override):
                target = ns.lookup(value.name)
                if target is None or name not in ns.entries:
                    raise UserError(f"cannot bind {name} to {value.name}: no such definition")
                # in place: instances built meanwhile (INSTANCE M with N implicit) hold it
                redefine(ns.entries[name], target)
        if missing:
            names = ", ".join(dict.fromkeys(n for n, _ in missing))
            span = missing[0][1]
            raise UserError(
                f"no value for CONSTANT {names}",
                str(span) if span != A.NO_SPAN else None,
            )
        return ns

    def instance(
        self, inst: A.Instance, outer: Namespace, params: tuple[str, ...] = ()
    ) -> Namespace:
        prefix = f"{outer.name}!{inst.module}"
        if inst.module in STANDARD_NAMES:  # N == INSTANCE Naturals: the builtins
            ns = Namespace(prefix, core_entries())
            add_standard(ns.entries, inst.module)
            return ns
        module = self.loader.get(inst.module, inst)
        ctx = _Context(None, [], dict(inst.substitutions), outer, None, prefix, (inst, params))
        same = all(isinstance(e, A.Name) and e.name == n and not getattr(e, "module", ())
                   for n, e in inst.substitutions)
        self.instance_namespaces.append((ctx.built, same and not params))
        if params:
            self._instances += 1
            py = tuple(f"ip{self._instances}_{i}" for i in range(len(params)))
            ctx.inst = Namespace(prefix, inst_params=params, inst_py=py)
        return self._module(module, ctx)

    def _module(self, module: A.Module, ctx: _Context) -> Namespace:
        """The namespace of ``module`` in ``ctx`` (built once per context)."""
        done = ctx.built.get(module.name)
        if done is not None:
            return done
        name = ctx.prefix if not ctx.built else f"{ctx.prefix}/{module.name}"
        ns = Namespace(name, core_entries())
        if ctx.origin is not None and ctx.outer is not None:
            ns.origin = Origin(ctx.origin[0], ctx.outer, ctx.origin[1], module.name, self.loader)
        if ctx.inst is not None:
            ns.inst_params, ns.inst_py = ctx.inst.inst_params, ctx.inst.inst_py
        ctx.built[module.name] = ns
        for ext in module.extends:
            if ext in STANDARD_NAMES:
                add_standard(ns.entries, ext)
                continue
            child = self._module(self.loader.get(ext, module), ctx)
            self._import(ns, child, self.loader.exported(ext))
            ns.variables += tuple(v for v in child.variables if v not in ns.variables)
        inst = ns if ctx.inst is not None else None
        e = ns.entries
        subst = ctx.subst
        for unit in module.units:
            if isinstance(unit, A.Constant | A.Variable):
                names = (
                    [(p.name, p.arity) for p in unit.params] if isinstance(unit, A.Constant)
                    else [(n, 0) for n in unit.names]
                )
                for decl, arity in names:
                    if inst is not None and subst is not None and decl not in subst \
                            and decl in inst.inst_params:
                        subst[decl] = A.Name(decl, span=unit.span)  # I(decl) == INSTANCE M
                    e[decl] = self._declared(unit, decl, arity, ctx.constants, ctx.missing,
                                             subst, ctx.outer)
                    if inst is not None and e[decl].kind == "subst":
                        e[decl].child = inst
                if isinstance(unit, A.Variable) and subst is None:
                    ns.variables += unit.names
            elif isinstance(unit, A.OpDef) and (
                native := override(module.name, unit.name, len(unit.params))
            ):  # what TLC overrides in Java (tlaconf.evaluate.community)
                e[unit.name] = Entry("builtin", unit.name, value=native, arity=native[1])
            elif isinstance(unit, A.OpDef):
                e[unit.name] = Entry("op", unit.name, unit, ns, len(unit.params))
            elif isinstance(unit, A.FnDef):
                e[unit.name] = Entry("fn", unit.name, unit, ns)
            elif isinstance(unit, A.InstanceDef):
                params = tuple(p.name for p in unit.params)
                e[unit.name] = Entry("inst", unit.name, unit, ns, len(params),
                                     child=self.instance(unit.instance, ns, params))
            elif isinstance(unit, A.Instance) and unit.module in STANDARD_NAMES:
                add_standard(e, unit.module)
            elif isinstance(unit, A.Instance):
                child = self.instance(unit, ns)
                shown = {n for n, x in child.entries.items() if x.kind in ("op", "fn", "inst")}
                self._import(ns, child, shown & self.loader.exported(unit.module))
            elif isinstance(unit, A.Assume):
                if ctx.subst is None:  # an instantiated module's: TLC does not check them
                    self.assumes.append((ns, unit))
                if unit.name is not None:  # ASSUME Name == e: Name is e's value
                    named = A.OpDef(unit.name, (), unit.expr, span=unit.span)
                    e[unit.name] = Entry("op", unit.name, named, ns)
            elif isinstance(unit, A.Theorem) and unit.name is not None \
                    and not unit.assume and not unit.new:  # THEOREM Name == e, as TLC reads Name
                named = A.OpDef(unit.name, (), unit.expr, span=unit.span)
                e[unit.name] = Entry("op", unit.name, named, ns)
            elif isinstance(unit, A.Module):
                self.loader.add(unit, self.loader.files.get(module.name))
        return ns

    @staticmethod
    def _import(ns: Namespace, child: Namespace, names: Iterable[str]) -> None:
        for n in names:
            entry = child.entries.get(n)
            if entry is None:
                continue
            if n not in ns.entries:  # else SANY keeps the one EXTENDed first
                ns.entries[n] = entry

    @staticmethod
    def _declared(
        unit: A.Node,
        name: str,
        arity: int,
        constants: dict[str, Any] | None,
        missing: list[tuple[str, A.Span]],
        subst: dict[str, A.Expr] | None,
        outer: Namespace | None,
    ) -> Entry:
        if subst is None:
            if isinstance(unit, A.Variable):
                return Entry("var", name)
            assert constants is not None
            if name not in constants:
                missing.append((name, unit.span))
                return Entry("const", name)
            return Entry("const", name, value=constants[name], arity=arity)
        assert outer is not None
        if name in subst:
            return Entry("subst", name, subst[name], outer)
        found = outer.lookup(name)
        if found is None:
            raise UserError(
                f"INSTANCE: no substitution for {name}, and no {name} in the instantiating module",
                str(unit.span) if unit.span != A.NO_SPAN else None,
            )
        return found
