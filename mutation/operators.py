"""The mutation operators: small, realistic bugs planted one at a time in a Python file.

Each :class:`Mutant` replaces one source region (an expression or a statement) by
new text, so its diff is one hunk.  The operators follow the bugs that matter in a
rules engine: a comparison off by one or inverted, a guard dropped from an ``and``
or turned into an ``or``, a negation lost, a constant flipped or off by one, ``+``
for ``-``, ``min`` for ``max``, the first element for the last, a ``reversed`` or
``sorted`` forgotten, a seed ignored (replaced by a constant), a statement
forgotten.  Docstrings, annotations, f-strings and error messages are not mutated.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

_COMPARE = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_SWAP_CALL = {"min": "max", "max": "min", "any": "all", "all": "any"}
_DROP_CALL = ("reversed", "sorted")


@dataclass(frozen=True)
class Mutant:
    """One planted bug: ``file`` lines ``line..end_line`` (columns ``col..end_col``, 0-based
    as in :mod:`ast`) replaced by ``new``."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    operator: str
    old: str
    new: str

    @property
    def ident(self) -> str:
        return f"{self.file}:{self.line}:{self.col}:{self.operator}:{self.new}"

    def apply(self, source: str) -> str:
        """``source`` with the region replaced."""
        lines = source.splitlines(keepends=True)
        start = sum(len(x) for x in lines[: self.line - 1]) + _byte_col(lines[self.line - 1],
                                                                         self.col)
        end = sum(len(x) for x in lines[: self.end_line - 1]) + _byte_col(
            lines[self.end_line - 1], self.end_col)
        return source[:start] + self.new + source[end:]


def _byte_col(line: str, col: int) -> int:
    """``ast`` columns count UTF-8 bytes; the character offset of byte ``col``."""
    return len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


def _skipped(tree: ast.AST) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, f-strings, raise/assert messages,
    decorators, and the class-level ``__slots__``."""
    out: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            out.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                mark(body[0])
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            mark(node.returns)
            for a in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs]:
                mark(a.annotation)
            for d in node.decorator_list:
                mark(d)
        if isinstance(node, ast.ClassDef):
            for d in node.decorator_list:
                mark(d)
        if isinstance(node, ast.AnnAssign):
            mark(node.annotation)
        if isinstance(node, ast.JoinedStr | ast.Raise | ast.Assert | ast.Import | ast.ImportFrom):
            mark(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            mark(node)  # attribute docstrings
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                node.value.id in ("dict", "list", "tuple", "set", "frozenset", "Literal"):
            mark(node)
    return out


def mutants(file: str, source: str) -> Iterator[Mutant]:
    """Every mutant of ``source`` (the module at ``file``), in source order."""
    tree = ast.parse(source)
    skip = _skipped(tree)
    found: list[Mutant] = []

    def add(node: ast.expr | ast.stmt, operator: str, new: ast.AST | str) -> None:
        old = ast.get_source_segment(source, node) or ""
        text = new if isinstance(new, str) else ast.unparse(new)
        if isinstance(node, ast.expr) and not isinstance(new, str):
            text = f"({text})"
        if text.strip("()") == old.strip("()"):
            return
        found.append(Mutant(file, node.lineno, node.col_offset, node.end_lineno or node.lineno,
                            node.end_col_offset or 0, operator, old, text))

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            swap = _COMPARE.get(type(node.ops[0]))
            if swap is not None:
                add(node, "compare", ast.Compare(node.left, [swap()], node.comparators))
        elif isinstance(node, ast.BoolOp):
            other: ast.boolop = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            add(node, "and/or", ast.BoolOp(other, node.values))
            for i in range(len(node.values)):
                rest = node.values[:i] + node.values[i + 1:]
                add(node, "drop-operand", rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            add(node, "drop-not", node.operand)
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            add(node, "flip-bool", ast.Constant(not node.value))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            add(node, "int+1", ast.Constant(node.value + 1))
            if node.value > 0:
                add(node, "int-1", ast.Constant(node.value - 1))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            op: ast.operator = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            add(node, "+/-", ast.BinOp(node.left, op, node.right))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in _SWAP_CALL:
                add(node.func, "swap-call", ast.Name(_SWAP_CALL[name]))
            if name in _DROP_CALL and len(node.args) == 1 and not node.keywords:
                add(node, "drop-call", node.args[0])
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
                node.slice.value in (0, -1) and type(node.slice.value) is int:
            add(node.slice, "first/last", ast.Constant(-1 if node.slice.value == 0 else 0))
        elif isinstance(node, ast.If):
            add(node.test, "negate-if", ast.UnaryOp(ast.Not(), node.test))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.For | ast.While |
                      ast.If | ast.With):
            body = [s for s in node.body if id(s) not in skip]
            for stmt in body:
                if len(body) > 1 and isinstance(stmt, ast.Assign | ast.AugAssign | ast.Expr):
                    add(stmt, "drop-statement", "pass")
        if isinstance(node, ast.Call):
            for a in node.args:
                if isinstance(a, ast.Name) and id(a) not in skip and "seed" in a.id:
                    add(a, "ignore-seed", ast.Constant(0))
    yield from sorted(found, key=lambda m: (m.line, m.col, m.operator, m.new))
