"""A reader for TLC model configuration files (``.cfg``), for replay and the explorer.

Understood: ``CONSTANT``/``CONSTANTS`` with ``name = value`` where the value is a
constant TLA+ expression built from integers (also ``a..b``), strings, ``TRUE``,
``FALSE``, sets ``{...}``, tuples ``<<...>>``, records ``[f |-> v, ...]`` and
model values (a bare identifier, as in TLC), and ``name <- Def`` (a
:class:`Substitution`: the constant is the module's definition ``Def``);
``INVARIANT``/``INVARIANTS`` with operator names.  For the explorer also ``INIT``,
``NEXT``, ``SPECIFICATION``, ``CONSTRAINT(S)``, ``ACTION_CONSTRAINT(S)``, ``SYMMETRY``,
``VIEW`` (operator names), ``CHECK_DEADLOCK`` (``TRUE``/``FALSE``),
``PROPERTY``/``PROPERTIES``, ``POSTCONDITION`` (for ``tlaconf validate``); ``ALIAS``
is recorded (``sections``) and skipped.  Comments ``\\*`` and ``(* *)``.
Every error names ``file:line``.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.files import read_text
from tlaconf.values import ModelValue, make_fn
from tlaconf.values.bigint import parse_decimal
from tlaconf.values.order import check_comparable

_CONSTANT_KW = {"CONSTANT", "CONSTANTS"}
_INVARIANT_KW = {"INVARIANT", "INVARIANTS"}
_SINGLE_KW = {"INIT", "NEXT", "SPECIFICATION", "SYMMETRY", "VIEW"}
"""Sections naming one operator."""
_LIST_KW = {
    "PROPERTY": "properties", "PROPERTIES": "properties",
    "CONSTRAINT": "constraints", "CONSTRAINTS": "constraints",
    "ACTION_CONSTRAINT": "action_constraints", "ACTION_CONSTRAINTS": "action_constraints",
    "POSTCONDITION": "postconditions",
}  # fmt: skip
"""Sections naming operators (any number), and the :class:`Cfg` field they fill."""
_SKIPPED_KW = {"CHECK_DEADLOCK", "ALIAS"}
_KEYWORDS = _CONSTANT_KW | _INVARIANT_KW | _SINGLE_KW | set(_LIST_KW) | _SKIPPED_KW

_TOKEN = re.compile(
    r"""(?P<ws>[ \t\r]+)|(?P<nl>\n)|(?P<comment>\\\*[^\n]*)|(?P<open>\(\*)
    |(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<number>\d+)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<punct><<|>>|\|->|<-|\.\.|[{}\[\],=\-])""",
    re.VERBOSE,
)
MAX_RANGE = 1_000_000
"""The most elements an ``a..b`` range of a ``.cfg`` may bind."""
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "f": "\f"}


@dataclass(frozen=True)
class Substitution:
    """``CONSTANT name <- definition``: the constant is the module's definition (TLC's
    model override)."""

    definition: str


@dataclass(frozen=True)
class Cfg:
    """The constants (name -> value, or a :class:`Substitution`) and invariant names of
    one ``.cfg`` file; ``lines``: the line on which each constant and invariant is given;
    the other fields are the explorer's sections (``sections``: the line of each section
    keyword met first)."""

    path: Path | None = None
    constants: dict[str, Any] = field(default_factory=dict)
    invariants: tuple[str, ...] = ()
    lines: dict[str, int] = field(default_factory=dict)
    init: str | None = None
    next: str | None = None
    specification: str | None = None
    symmetry: str | None = None
    view: str | None = None
    properties: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    action_constraints: tuple[str, ...] = ()
    postconditions: tuple[str, ...] = ()
    check_deadlock: bool | None = None
    sections: dict[str, int] = field(default_factory=dict)

    @property
    def values(self) -> dict[str, Any]:
        """The constants given a value (``name = value``), without the substitutions."""
        return {k: v for k, v in self.constants.items() if not isinstance(v, Substitution)}


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    line: int


def _tokens(text: str, where: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos, line = 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            what = ("a byte order mark (U+FEFF): save the file as UTF-8 without one"
                    if text[pos] == "\ufeff" else repr(text[pos]))
            raise UserError(f"unexpected character {what}", f"{where}:{line}")
        kind = m.lastgroup or ""
        if kind == "open":
            depth, i, opened = 1, m.end(), line
            while depth and i < len(text):
                if text.startswith("(*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*)", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
            if depth:
                raise UserError("unterminated comment: this (* is never closed",
                                f"{where}:{opened}")
            pos = i
            continue
        if kind == "nl":
            line += 1
        elif kind not in ("ws", "comment"):
            out.append(_Tok(kind, m.group(), line))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, toks: list[_Tok], where: str) -> None:
        self.toks = toks
        self.i = 0
        self.where = where

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def error(self, message: str, tok: _Tok | None = None) -> UserError:
        tok = tok or self.peek()
        line = tok.line if tok else (self.toks[-1].line if self.toks else 1)
        return UserError(message, f"{self.where}:{line}")

    def take(self, text: str | None = None, kind: str | None = None) -> _Tok:
        tok = self.peek()
        if tok is None or (text is not None and tok.text != text) or (kind and tok.kind != kind):
            want = repr(text) if text else (kind or "a token")
            got = "the end of the file" if tok is None else repr(tok.text)
            raise self.error(f"expected {want}, found {got}", tok)
        self.i += 1
        return tok

    def at_section_end(self) -> bool:
        tok = self.peek()
        return tok is None or (tok.kind == "ident" and tok.text in _KEYWORDS)

    def value(self) -> Any:
        tok = self.take()
        if tok.kind == "number" or (tok.text == "-" and self._next_is_number()):
            n = -parse_decimal(self.take(kind="number").text) if tok.text == "-" \
                else parse_decimal(tok.text)
            nxt = self.peek()
            if nxt is not None and nxt.text == "..":
                self.i += 1
                hi_tok = self.take()
                if hi_tok.text == "-":
                    hi = -parse_decimal(self.take(kind="number").text)
                elif hi_tok.kind == "number":
                    hi = parse_decimal(hi_tok.text)
                else:
                    raise self.error("expected an integer after '..'", hi_tok)
                if hi - n + 1 > MAX_RANGE:
                    raise self.error(f"the range {n}..{hi} has {hi - n + 1:,} elements; a "
                                     f".cfg value may hold at most {MAX_RANGE:,}", tok)
                return frozenset(range(n, hi + 1))
            return n
        if tok.kind == "string":
            body = tok.text[1:-1]
            return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)
        if tok.kind == "ident":
            if tok.text in ("TRUE", "FALSE"):
                return tok.text == "TRUE"
            if tok.text in _KEYWORDS:
                raise self.error(f"expected a value, found the keyword {tok.text}", tok)
            return ModelValue(tok.text)
        if tok.text == "{":
            items = self._items("}")
            mix = check_comparable(items)
            if mix:
                raise self.error(mix, tok)
            return frozenset(items)
        if tok.text == "<<":
            return tuple(self._items(">>"))
        if tok.text == "[":
            if self.i + 1 < len(self.toks) and self.toks[self.i + 1].text == "]":
                raise self.error("a value for one instantiated module ([Module]value) is "
                                 "not supported", tok)
            fields: dict[str, Any] = {}
            while True:
                name = self.take(kind="ident")
                self.take("|->")
                if name.text in fields:
                    raise self.error(f"duplicate record field {name.text}", name)
                fields[name.text] = self.value()
                if self.take().text == "]":
                    return make_fn(fields)
                self.i -= 1
                self.take(",")
        raise self.error(f"expected a value, found {tok.text!r}", tok)

    def _next_is_number(self) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == "number"

    def _items(self, close: str) -> list[Any]:
        items: list[Any] = []
        tok = self.peek()
        if tok is not None and tok.text == close:
            self.i += 1
            return items
        while True:
            items.append(self.value())
            sep = self.peek()
            if sep is None or sep.text not in (",", close):
                found = "the end of the file" if sep is None else repr(sep.text)
                raise self.error(f"expected ',' or {close!r}, found {found}", sep)
            self.i += 1
            if sep.text == close:
                return items


def parse_cfg(text: str, where: str = "<cfg>") -> Cfg:
    """Parse the text of a ``.cfg`` file; ``where`` names it in errors."""
    try:
        return _parse(text, where)
    except RecursionError:
        raise UserError("a value nested too deeply", where) from None


@functools.lru_cache(maxsize=1024)
def _near_keyword(word: str) -> str:
    """A hint naming the section keyword an upper-case ``word`` misspells (else "")."""
    if not word.isupper():
        return ""
    close = difflib.get_close_matches(word, sorted(_KEYWORDS), n=1, cutoff=0.8)
    return f" (did you mean {close[0]}?)" if close else ""


def _parse(text: str, where: str) -> Cfg:
    p = _Parser(_tokens(text, where), where)
    constants: dict[str, Any] = {}
    lines: dict[str, int] = {}
    invariants: list[str] = []
    single: dict[str, str] = {}
    lists: dict[str, list[str]] = {field: [] for field in _LIST_KW.values()}
    sections: dict[str, int] = {}
    seen: dict[int, set[str]] = {}  # the names of each list above, to skip repeats
    deadlock: bool | None = None
    while p.peek() is not None:
        kw = p.take()
        if kw.kind != "ident" or kw.text not in _KEYWORDS:
            raise p.error(f"expected a section keyword such as CONSTANTS, found {kw.text!r}"
                          f"{_near_keyword(kw.text)}", kw)
        sections.setdefault(kw.text, kw.line)
        while not p.at_section_end():
            if kw.text in _CONSTANT_KW:
                name = p.take(kind="ident")
                op = p.take()
                if op.text not in ("=", "<-"):
                    hint = _near_keyword(name.text)
                    if hint:  # a misspelt section keyword, read as a constant name
                        raise p.error(f"{name.text} is not a section keyword{hint}", name)
                    raise p.error(f"expected '=' or '<-' after constant {name.text}", op)
                nxt = p.peek()
                if nxt is not None and nxt.text == "[" and op.text == "<-":
                    raise p.error(f"{name.text} <-[Module] Def (a substitution in one "
                                  "instantiated module) is not supported", nxt)
                if name.text in constants:
                    raise p.error(f"constant {name.text} is given twice", name)
                lines[name.text] = name.line
                if op.text == "<-":
                    target = p.take(kind="ident")
                    if target.text in _KEYWORDS:
                        raise p.error(f"expected a definition after '<-', found the keyword "
                                      f"{target.text}", target)
                    constants[name.text] = Substitution(target.text)
                else:
                    constants[name.text] = p.value()
            elif kw.text in _INVARIANT_KW or kw.text in _LIST_KW:
                inv = p.take(kind="ident")
                hint = _near_keyword(inv.text)
                if hint and inv.text not in _KEYWORDS:
                    raise p.error(f"{inv.text} is not a section keyword{hint}", inv)
                lines.setdefault(inv.text, inv.line)
                names = invariants if kw.text in _INVARIANT_KW else lists[_LIST_KW[kw.text]]
                listed = seen.setdefault(id(names), set())
                if inv.text not in listed:
                    listed.add(inv.text)
                    names.append(inv.text)
            elif kw.text in _SINGLE_KW:
                op_name = p.take(kind="ident")
                if kw.text in single and single[kw.text] != op_name.text:
                    raise p.error(f"{kw.text} is given twice ({single[kw.text]} and "
                                  f"{op_name.text})", op_name)
                single[kw.text] = op_name.text
                lines.setdefault(op_name.text, op_name.line)
            elif kw.text == "CHECK_DEADLOCK":
                flag = p.take()
                if flag.text not in ("TRUE", "FALSE"):
                    raise p.error(f"CHECK_DEADLOCK takes TRUE or FALSE, found {flag.text!r}",
                                  flag)
                deadlock = flag.text == "TRUE"
            else:
                p.take()
    return Cfg(None, constants, tuple(invariants), lines,
               init=single.get("INIT"), next=single.get("NEXT"),
               specification=single.get("SPECIFICATION"), symmetry=single.get("SYMMETRY"),
               view=single.get("VIEW"), properties=tuple(lists["properties"]),
               constraints=tuple(lists["constraints"]),
               action_constraints=tuple(lists["action_constraints"]),
               postconditions=tuple(lists["postconditions"]), check_deadlock=deadlock,
               sections=sections)


def read_cfg(path: Path) -> Cfg:
    """Read and parse a ``.cfg`` file."""
    return dataclasses.replace(parse_cfg(read_text(path, "config"), str(path)), path=path)
