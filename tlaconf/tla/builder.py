"""The AST builder: the LALR parser's embedded transformer (``tla.lark`` rule -> ast node).

Each callback receives the rule's children (tokens and already built values) and
returns an :mod:`tlaconf.tla.ast` node whose span covers its first to its last
real token.  ``/\\`` and ``\\/`` chains (infix and bulleted) are flattened into
one :class:`~tlaconf.tla.ast.Junction`; a parenthesized junction is kept whole.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from lark import Token

from tlaconf.tla import ast
from tlaconf.tla.errors import ParseError
from tlaconf.tla.precedence import FIELD, OPERATORS, Element, OperatorStack, PrecedenceError
from tlaconf.values.bigint import parse_decimal

_PREFIX_NAMES = {
    "NOT": "~",
    "BOX": "[]",
    "DIAMOND": "<>",
    "SUBSET": "SUBSET",
    "UNION": "UNION",
    "DOMAIN": "DOMAIN",
}


class _Items(list[Any]):
    """A comma-separated list (``exprs``, ``names``) as opposed to a single child."""


@dataclass(frozen=True, slots=True)
class _OpTok:
    """An operator occurrence: its token, and for ``f[x]`` / ``r.a`` the closing token and
    the arguments."""

    tok: Token
    end: Any = None
    args: tuple[ast.Expr, ...] = ()


@dataclass(frozen=True, slots=True)
class _Raw:
    """An operator application not yet reduced: operands, operator elements and nested
    :class:`_Raw` parts in source order."""

    span: ast.Span
    parts: tuple[Any, ...]


@dataclass(frozen=True)
class _Lhs:
    name: str
    params: tuple[ast.Param, ...]
    span: ast.Span


@dataclass(frozen=True)
class _Prefix:
    name: str
    args: tuple[ast.Expr, ...]
    span: ast.Span


@dataclass(frozen=True)
class _AssumeProve:
    new: tuple[ast.Bound | ast.Param, ...]
    assume: tuple[ast.Expr | ast.Theorem, ...]
    prove: ast.Expr
    span: ast.Span


@dataclass(frozen=True)
class _Extends:
    names: tuple[str, ...]


class AstBuilder:
    """Builds AST nodes; :meth:`reset` sets the file name (and text for error carets)."""

    def __init__(self) -> None:
        self.file = "<input>"
        self.text = ""
        self._parens: set[int] = set()

    def reset(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self._parens = set()

    # ------------------------------------------------------------------ helpers

    def _pos(self, x: Any, end: bool) -> tuple[int, int] | None:
        if isinstance(x, Token):
            if x.type == "LEND" or x.line is None or x.column is None:
                return None
            if end:
                return (x.end_line or x.line, max((x.end_column or x.column) - 1, 1))
            return (x.line, x.column)
        sp = getattr(x, "span", None)
        if isinstance(sp, ast.Span):
            return (sp.end_line, sp.end_col) if end else (sp.line, sp.col)
        if isinstance(x, list | tuple) and x:
            seq = reversed(x) if end else x
            for y in seq:
                p = self._pos(y, end)
                if p is not None:
                    return p
        return None

    def span(self, children: list[Any]) -> ast.Span:
        first = children[0]
        last = children[-1]
        # fast path: a real token or a node at both ends
        if type(first) is Token:
            if first.type != "LEND":
                line, col = first.line or 0, first.column or 0
            else:
                return self._slow_span(children)
        elif isinstance(first, ast.Node):
            sp = first.span
            line, col = sp.line, sp.col
        else:
            return self._slow_span(children)
        if type(last) is Token:
            if last.type != "LEND" and last.end_column:
                return ast.Span(self.file, line, col, last.end_line or line, last.end_column - 1)
        elif isinstance(last, ast.Node):
            sp = last.span
            return ast.Span(self.file, line, col, sp.end_line, sp.end_col)
        return self._slow_span(children)

    def _slow_span(self, children: list[Any]) -> ast.Span:
        start = self._pos(children, False) or (0, 0)
        end = self._pos(children, True) or start
        return ast.Span(self.file, start[0], start[1], end[0], end[1])

    def error(self, message: str, at: Any) -> ParseError:
        line, col = self._pos(at, False) or (1, 1)
        return ParseError(message, self.file, line, col, self.text)

    @staticmethod
    def _items(c: list[Any]) -> list[Any]:
        """The non-token children."""
        return [x for x in c if not isinstance(x, Token)]

    def _to_bounds(self, items: list[ast.Expr], at: Any) -> tuple[ast.Bound, ...]:
        """``x, y \\in S, <<a, b>> \\in T`` parsed as expressions -> binder groups."""
        bounds: list[ast.Bound] = []
        pending: list[str] = []
        for e in items:
            if isinstance(e, ast.Name) and not e.module:
                if not pending:
                    at = e
                pending.append(e.name)
                continue
            if isinstance(e, ast.OpApp) and e.name == "\\in" and len(e.args) == 2:
                lhs, dom = e.args
                if isinstance(lhs, ast.Name) and not lhs.module:
                    bounds.append(ast.Bound((*pending, lhs.name), dom, span=e.span))
                    pending = []
                    continue
                if (
                    isinstance(lhs, ast.Tuple)
                    and not pending
                    and lhs.elems
                    and all(isinstance(x, ast.Name) and not x.module for x in lhs.elems)
                ):
                    names = tuple(x.name for x in lhs.elems if isinstance(x, ast.Name))
                    bounds.append(ast.Bound(names, dom, tuple_pattern=True, span=e.span))
                    continue
            raise self.error("expected a bound 'x \\in S'", e)
        if pending:
            raise self.error("expected '\\in S' after the bound names", at)
        return tuple(bounds)

    def _flatten(self, op: str, items: list[ast.Expr]) -> tuple[ast.Expr, ...]:
        out: list[ast.Expr] = []
        for x in items:
            if (
                isinstance(x, ast.Junction)
                and x.op == op
                and not x.bulleted
                and id(x) not in self._parens
            ):
                out.extend(x.items)
            else:
                out.append(x)
        return tuple(out)

    # ------------------------------------------------------------------ modules and units

    def module(self, c: list[Any]) -> ast.Module:
        name = str(c[2])
        extends: tuple[str, ...] = ()
        units: list[ast.Unit] = []
        for x in c[3:]:
            if isinstance(x, _Extends):
                extends = x.names
            elif not isinstance(x, Token):
                units.append(x)
        return ast.Module(name, extends, tuple(units), span=self.span(c))

    def extends(self, c: list[Any]) -> _Extends:
        return _Extends(tuple(str(t) for t in c if isinstance(t, Token) and t.type == "NAME"))

    def fragment(self, c: list[Any]) -> tuple[ast.Unit, ...]:
        return tuple(c)

    def local(self, c: list[Any]) -> ast.Unit:
        d = c[1]
        return replace(d, local=True, span=self.span(c))

    def constants(self, c: list[Any]) -> ast.Constant:
        return ast.Constant(tuple(self._items(c)), span=self.span(c))

    def variables(self, c: list[Any]) -> ast.Variable:
        names = tuple(str(t) for t in c[1:] if t.type == "NAME")
        return ast.Variable(names, span=self.span(c))

    def recursive(self, c: list[Any]) -> ast.Recursive:
        return ast.Recursive(tuple(self._items(c)), span=self.span(c))

    def assumption(self, c: list[Any]) -> ast.Assume:
        name = str(c[1]) if len(c) == 4 else None
        return ast.Assume(name, c[-1], span=self.span(c))

    def theorem(self, c: list[Any]) -> ast.Theorem:
        name = str(c[1]) if len(c) == 4 else None
        body = c[-1]
        if isinstance(body, _AssumeProve):
            return ast.Theorem(name, body.prove, body.assume, body.new, span=self.span(c))
        return ast.Theorem(name, body, span=self.span(c))

    def separator(self, c: list[Any]) -> ast.Separator:
        return ast.Separator(span=self.span(c))

    def opdef(self, c: list[Any]) -> ast.OpDef:
        lhs: _Lhs = c[0]
        return ast.OpDef(lhs.name, lhs.params, c[2], span=self.span([lhs, c[2]]))

    def instdef(self, c: list[Any]) -> ast.InstanceDef:
        lhs: _Lhs = c[0]
        return ast.InstanceDef(lhs.name, lhs.params, c[2], span=self.span([lhs, c[2]]))

    def fndef(self, c: list[Any]) -> ast.FnDef:
        bounds = self._to_bounds(list(c[2]), c[1])
        return ast.FnDef(str(c[0]), bounds, c[5], span=self.span(c))

    def instance(self, c: list[Any]) -> ast.Instance:
        subs = tuple(x for x in c[3:] if isinstance(x, tuple))
        return ast.Instance(str(c[1]), subs, span=self.span(c))

    def subst(self, c: list[Any]) -> tuple[str, ast.Expr]:
        return (str(c[0].value), c[2])

    def lhs_name(self, c: list[Any]) -> _Lhs:
        return _Lhs(str(c[0]), (), self.span(c))

    def lhs_app(self, c: list[Any]) -> _Lhs:
        return _Lhs(str(c[0]), tuple(self._items(c)), self.span(c))

    def lhs_infix(self, c: list[Any]) -> _Lhs:
        params = (
            ast.Param(str(c[0]), span=self.span(c[:1])),
            ast.Param(str(c[2]), span=self.span(c[2:])),
        )
        return _Lhs(c[1].value, params, self.span(c))

    def lhs_prefix(self, c: list[Any]) -> _Lhs:
        name = "-." if c[0].value in ("-", "-.") else c[0].value
        return _Lhs(name, (ast.Param(str(c[1]), span=self.span(c[1:])),), self.span(c))

    def lhs_postfix(self, c: list[Any]) -> _Lhs:
        return _Lhs(c[1].value, (ast.Param(str(c[0]), span=self.span(c[:1])),), self.span(c))

    def decl_name(self, c: list[Any]) -> ast.Param:
        return ast.Param(str(c[0]), 0, span=self.span(c))

    def decl_app(self, c: list[Any]) -> ast.Param:
        arity = sum(1 for t in c if t.type == "UNDERSCORE")
        return ast.Param(str(c[0]), arity, span=self.span(c))

    def decl_infix(self, c: list[Any]) -> ast.Param:
        return ast.Param(c[1].value, 2, span=self.span(c))

    def decl_prefix(self, c: list[Any]) -> ast.Param:
        name = "-." if c[0].value in ("-", "-.") else c[0].value
        return ast.Param(name, 1, span=self.span(c))

    def decl_postfix(self, c: list[Any]) -> ast.Param:
        return ast.Param(c[1].value, 1, span=self.span(c))

    def infix_sym(self, c: list[Any]) -> Token:
        return c[0]

    prefix_sym = infix_sym
    anyop = infix_sym
    level = infix_sym

    def assume_prove(self, c: list[Any]) -> _AssumeProve:
        new: list[ast.Bound | ast.Param] = []
        assume: list[ast.Expr | ast.Theorem] = []
        for x in self._items(c[:-1]):
            if isinstance(x, ast.Bound | ast.Param):
                new.append(x)
            elif isinstance(x, _AssumeProve):  # its NEW names are its own (SANY's scope)
                assume.append(ast.Theorem(None, x.prove, x.assume, x.new, span=x.span))
            else:
                assume.append(x)
        return _AssumeProve(tuple(new), tuple(assume), c[-1], self.span(c))

    def new_decl(self, c: list[Any]) -> ast.Bound | ast.Param:
        names = [t for t in c if isinstance(t, Token) and t.type == "NAME"]
        arity = sum(1 for t in c if isinstance(t, Token) and t.type == "UNDERSCORE")
        if arity:
            return ast.Param(str(names[0]), arity, span=self.span(c))
        exprs = self._items(c)
        return ast.Bound((str(names[0]),), exprs[0] if exprs else None, span=self.span(c))

    # ------------------------------------------------------------------ expressions

    def expression(self, c: list[Any]) -> ast.Expr:
        return c[0]

    def exprs(self, c: list[Any]) -> _Items:
        return _Items(self._items(c))

    args = exprs

    def names(self, c: list[Any]) -> _Items:
        return _Items(t for t in c if t.type == "NAME")

    # Operator applications are collected unreduced (:class:`_Raw`) and reduced by SANY's
    # algorithm (:class:`~tlaconf.tla.precedence.OperatorStack`) when a construct that is
    # not an operator application takes them as a child (:meth:`settle`).

    def _raw(self, c: list[Any], *parts: Any) -> _Raw:
        return _Raw(self.span(c), parts)

    def _op(self, tok: Token, end: Any = None, args: tuple[ast.Expr, ...] = ()) -> Element:
        op = FIELD if tok.type == "DOT" else OPERATORS["-" if tok.type == "MINUS" else tok.value]
        return Element(_OpTok(tok, end, args), op, tok.value)

    def binop(self, c: list[Any]) -> _Raw:
        return self._raw(c, c[0], self._op(c[1]), c[2])

    conj = binop
    disj = binop

    def fnapp(self, c: list[Any]) -> _Raw:
        return self._raw(c, c[0], self._op(c[1], c[3], tuple(c[2])))

    def dot(self, c: list[Any]) -> _Raw:
        return self._raw(c, c[0], self._op(c[1], c[2]))

    def prime(self, c: list[Any]) -> _Raw:
        return self._raw(c, c[0], self._op(c[1]))

    postfix = prime

    def prefix(self, c: list[Any]) -> _Raw:
        return self._raw(c, self._op(c[0]), c[1])

    negate = prefix

    def settle(self, x: Any) -> Any:
        """``x`` with its operator applications reduced as SANY does (other values as is)."""
        if type(x) is not _Raw:
            return x
        times: set[int] = set()

        def infix(el: Element, left: ast.Expr, right: ast.Expr) -> ast.Expr:
            sp = self.span([left, right])
            name = el.op.name if el.op is not None else ""
            if name in ("\\land", "\\lor"):
                op = "/\\" if name == "\\land" else "\\/"
                return ast.Junction(op, self._flatten(op, [left, right]), span=sp)
            if name == "\\times":
                items = left.args if id(left) in times and isinstance(left, ast.OpApp) else (left,)
                node = ast.OpApp("\\X", (*items, right), span=sp)
                times.add(id(node))
                return node
            return ast.OpApp(el.value.tok.value, (left, right), span=sp)

        def prefix(el: Element, x: ast.Expr, _: Any) -> ast.Expr:
            tok = el.value.tok
            sp = self.span([tok, x])
            if tok.type == "ENABLED":
                return ast.Enabled(x, span=sp)
            if tok.type == "UNCHANGED":
                return ast.Unchanged(x, span=sp)
            name = "-." if tok.type == "MINUS" else _PREFIX_NAMES[tok.type]
            return ast.OpApp(name, (x,), span=sp)

        def postfix(el: Element, x: ast.Expr, _: Any) -> ast.Expr:
            p: _OpTok = el.value
            sp = self.span([x, p.end if p.end is not None else p.tok])
            kind = p.tok.type
            if kind == "PRIME":
                return ast.Prime(x, span=sp)
            if kind == "LBRACK":
                return ast.FnApp(x, p.args, span=sp)
            if kind == "DOT":
                return ast.Dot(x, str(p.end), span=sp)
            return ast.OpApp(p.tok.value, (x,), span=sp)

        stack = OperatorStack(infix, prefix, postfix)
        todo: list[Any] = [x]
        try:
            while todo:
                item = todo.pop()
                if type(item) is _Raw:
                    todo.extend(reversed(item.parts))
                elif isinstance(item, Element):
                    stack.push(item)
                else:
                    stack.push(Element(item))
            return stack.finish()
        except PrecedenceError as e:
            raise self.error(e.message, e.at.value.tok) from None

    def bullets(self, c: list[Any]) -> ast.Junction:
        op = "/\\" if c[0].type == "BAND" else "\\/"
        items = self._flatten(op, self._items(c))
        return ast.Junction(op, items, bulleted=True, span=self.span(c))

    def settle_all(self, children: list[Any]) -> list[Any]:
        """The children of a construct that is not an operator application, settled."""
        return [self.settle(x) if type(x) is _Raw else x for x in children]

    def quant(self, c: list[Any]) -> ast.Quant:
        kind: ast.QuantKind = "A" if c[0].type == "FORALL" else "E"
        return ast.Quant(kind, c[1], c[3], span=self.span(c))

    def tquant(self, c: list[Any]) -> ast.TemporalQuant:
        kind: ast.TemporalKind = "AA" if c[0].type == "TFORALL" else "EE"
        return ast.TemporalQuant(kind, tuple(str(t) for t in c[1]), c[3], span=self.span(c))

    def choose(self, c: list[Any]) -> ast.Choose:
        return ast.Choose(c[1], c[3], span=self.span(c))

    def ifte(self, c: list[Any]) -> ast.If:
        return ast.If(c[1], c[3], c[5], span=self.span(c))

    def case_arm(self, c: list[Any]) -> tuple[ast.Expr, ast.Expr]:
        return (c[0], c[2])

    def case(self, c: list[Any]) -> ast.Case:
        arms = tuple(x for x in c if isinstance(x, tuple))
        other = c[-1] if any(isinstance(t, Token) and t.type == "OTHER" for t in c) else None
        return ast.Case(arms, other, span=self.span(c))

    def let(self, c: list[Any]) -> ast.Let:
        defs = tuple(self._items(c[1:-1]))
        return ast.Let(defs, c[-1], span=self.span(c))

    def lambda_(self, c: list[Any]) -> ast.Lambda:
        return ast.Lambda(tuple(str(t) for t in c[1]), c[3], span=self.span(c))

    def label(self, c: list[Any]) -> ast.Label:
        params = tuple(str(t) for t in c[2]) if len(c) == 6 else ()
        return ast.Label(str(c[0]), params, c[-1], span=self.span(c))

    def bounds(self, c: list[Any]) -> tuple[ast.Bound, ...]:
        return tuple(self._items(c))

    def unbounded(self, c: list[Any]) -> tuple[ast.Bound, ...]:
        return (ast.Bound(tuple(str(t) for t in c[0]), None, span=self.span(c)),)

    def bound(self, c: list[Any]) -> ast.Bound:
        names = c[0] if isinstance(c[0], _Items) else [c[0]]
        dom = c[2] if len(c) == 3 else None
        return ast.Bound(tuple(str(t) for t in names), dom, span=self.span(c))

    def tuple_bound(self, c: list[Any]) -> ast.Bound:
        dom = c[4] if len(c) == 5 else None
        return ast.Bound(tuple(str(t) for t in c[1]), dom, tuple_pattern=True, span=self.span(c))

    def name(self, c: list[Any]) -> ast.Name:
        return ast.Name(str(c[0]), span=self.span(c))

    def app(self, c: list[Any]) -> ast.OpApp:
        return ast.OpApp(str(c[0]), tuple(c[2]), span=self.span(c))

    def symapp(self, c: list[Any]) -> ast.OpApp:
        """An infix or postfix operator applied in prefix form: ``+(4, 6)``, ``^+(4)``."""
        return ast.OpApp(c[0].value, tuple(c[2]), span=self.span(c))

    def inst_prefix(self, c: list[Any]) -> _Prefix:
        args = tuple(c[2]) if len(c) == 5 else ()
        return _Prefix(str(c[0]), args, self.span(c))

    sub_prefix = inst_prefix

    def sel_prefix(self, c: list[Any]) -> _Prefix:
        return _Prefix(c[0].value, (), self.span(c))

    def sel(self, c: list[Any]) -> Token:
        return c[0]

    opsym = sel
    appsym = sel

    def opname(self, c: list[Any]) -> ast.Name:
        return ast.Name(c[0].value, span=self.span(c))

    def _qual(self, c: list[Any]) -> tuple[tuple[str, ...], tuple[tuple[ast.Expr, ...], ...], int]:
        prefixes = [x for x in c if isinstance(x, _Prefix)]
        module = tuple(p.name for p in prefixes)
        margs = tuple(p.args for p in prefixes)
        if not any(margs):
            margs = ()
        return module, margs, len(prefixes)

    def qname(self, c: list[Any]) -> ast.Name:
        module, margs, k = self._qual(c)
        return ast.Name(c[k].value, module, margs, span=self.span(c))

    def qapp(self, c: list[Any]) -> ast.OpApp:
        module, margs, k = self._qual(c)
        return ast.OpApp(c[k].value, tuple(c[k + 2]), module, margs, span=self.span(c))

    def number(self, c: list[Any]) -> ast.Expr:
        text = str(c[0])
        sp = self.span(c)
        if text[0] == "\\":
            base = {"b": 2, "o": 8, "h": 16}[text[1].lower()]
            return ast.Num(int(text[2:], base), span=sp)
        if "." in text:
            whole, frac = text.split(".")
            return ast.OpApp(
                "/",
                (ast.Num(parse_decimal(whole + frac), span=sp),
                 ast.Num(10 ** len(frac), span=sp)),
                span=sp,
            )
        return ast.Num(parse_decimal(text), span=sp)

    def string(self, c: list[Any]) -> ast.Str:
        return ast.Str(str(c[0]), span=self.span(c))

    def true(self, c: list[Any]) -> ast.Bool:
        return ast.Bool(True, span=self.span(c))

    def false(self, c: list[Any]) -> ast.Bool:
        return ast.Bool(False, span=self.span(c))

    def at(self, c: list[Any]) -> ast.At:
        return ast.At(span=self.span(c))

    def paren(self, c: list[Any]) -> ast.Expr:
        e = replace(c[1], span=self.span(c))  # the text is balanced: "(a + b)"
        self._parens.add(id(e))
        return e

    def set_enum(self, c: list[Any]) -> ast.SetEnum:
        elems = tuple(c[1]) if len(c) == 3 else ()
        return ast.SetEnum(elems, span=self.span(c))

    def set_colon(self, c: list[Any]) -> ast.Expr:
        left, right = c[1], list(c[3])
        sp = self.span(c)
        if (
            len(right) == 1
            and isinstance(left, ast.OpApp)
            and left.name == "\\in"
            and id(left) not in self._parens
            and _is_binder(left.args[0])
        ):
            (bound,) = self._to_bounds([left], left)
            return ast.SetFilter(bound, right[0], span=sp)
        return ast.SetMap(left, self._to_bounds(right, c[2]), span=sp)

    def fncons(self, c: list[Any]) -> ast.FnCons:
        return ast.FnCons(self._to_bounds(list(c[1]), c[0]), c[3], span=self.span(c))

    def _fields(self, c: list[Any]) -> tuple[tuple[str, Any], ...]:
        seen: set[str] = set()
        for i in range(1, len(c) - 1, 4):
            if str(c[i]) in seen:
                raise self.error(f"the field {c[i]} appears twice (SANY rejects this)", c[i])
            seen.add(str(c[i]))
        return tuple((str(c[i]), c[i + 2]) for i in range(1, len(c) - 1, 4))

    def record(self, c: list[Any]) -> ast.Record:
        return ast.Record(self._fields(c), span=self.span(c))

    def recset(self, c: list[Any]) -> ast.RecordSet:
        return ast.RecordSet(self._fields(c), span=self.span(c))

    def fnset(self, c: list[Any]) -> ast.FnSet:
        return ast.FnSet(c[1], c[3], span=self.span(c))

    def except_(self, c: list[Any]) -> ast.Except:
        updates = tuple(x for x in c[3:] if isinstance(x, tuple))
        return ast.Except(c[1], updates, span=self.span(c))

    def exc(self, c: list[Any]) -> tuple[tuple[ast.ExceptStep, ...], ast.Expr]:
        steps = tuple(x for x in c[1:-2] if isinstance(x, ast.ExceptField | ast.ExceptIndex))
        return (steps, c[-1])

    def exc_step(self, c: list[Any]) -> ast.ExceptField | ast.ExceptIndex:
        if c[0].type == "DOT":
            return ast.ExceptField(str(c[1]), span=self.span(c))
        return ast.ExceptIndex(tuple(c[1]), span=self.span(c))

    def actbox(self, c: list[Any]) -> ast.ActionBox:
        return ast.ActionBox(c[1], c[3], False, span=self.span(c))

    def actangle(self, c: list[Any]) -> ast.ActionBox:
        return ast.ActionBox(c[1], c[3], True, span=self.span(c))

    def tuple_(self, c: list[Any]) -> ast.Tuple:
        elems = tuple(c[1]) if len(c) == 3 else ()
        return ast.Tuple(elems, span=self.span(c))

    def fairness(self, c: list[Any]) -> ast.Fairness:
        kind: ast.FairnessKind = "WF" if c[0].type == "WF" else "SF"
        return ast.Fairness(kind, c[1], c[3], span=self.span(c))


def _is_binder(e: ast.Expr) -> bool:
    """``x`` or ``<<x, y>>`` (plain names): the left side of a set filter."""
    if isinstance(e, ast.Name):
        return not e.module
    return (
        isinstance(e, ast.Tuple)
        and bool(e.elems)
        and all(isinstance(x, ast.Name) and not x.module for x in e.elems)
    )
