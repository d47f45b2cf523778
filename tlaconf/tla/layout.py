"""The layout-aware token step between the lexer and the LALR parser.

It turns the raw token list into the one the grammar expects:

* **Bulleted junction lists by column** (Specifying Systems, section 15.2.2): a
  ``/\\`` or ``\\/`` in prefix position (where an expression starts) opens a list
  at its column and becomes ``BAND``/``BOR``; a later ``/\\`` (``\\/``) at exactly
  that column is the next bullet (``SAND``/``SOR``); the list ends (virtual
  ``LEND``) at the first token at or left of the bullet's column that is not
  such a bullet, at a closing bracket, a ``,``, ``THEN``/``ELSE``/``IN``, a case
  ``->``/``[]`` or a quantifier ``:`` belonging to an enclosing construct, and
  at the end of input.  An infix ``/\\`` (after an operand) stays ``AND``.
  Tokens inside a bracket opened within the list are not subject to the column
  rule, so flattened fragments (indentation lost) still parse.  A ``/\\`` or
  ``\\/`` directly followed by ``,`` or ``)`` is an operator argument (``F(/\\)``).
* ``[]`` after an operand is a CASE separator (``CASESEP``), otherwise the box
  operator (``BOX``).
* ``L ::`` and ``L(x, y) ::`` make ``L`` a ``LABEL`` token.
* TLAPS proofs and ``USE``/``HIDE`` statements are dropped: from a proof token
  (``PROOF BY OBVIOUS OMITTED <n>``) that follows a THEOREM, or a ``USE``/``HIDE``
  at the start of a line, up to the next token that starts a line at or left of
  the theorem's column and starts a module unit.
"""

from __future__ import annotations

from lark import Token

# tokens after which an expression is complete (so /\ is infix and [] separates CASE arms)
OPERAND_END = frozenset(
    [
        "NAME",
        "NUMBER",
        "STRING",
        "TRUE",
        "FALSE",
        "RPAR",
        "RBRACK",
        "RBRACE",
        "RANGLE",
        "PRIME",
        "AT",
        "POSTFIX",
        "LEND",
    ]
)
_OPEN = frozenset(["LPAR", "LBRACK", "LBRACE", "LANGLE"])
_CLOSE = frozenset(["RPAR", "RBRACK", "RBRACE", "RANGLE", "RBRACK_SUB", "RANGLE_SUB"])
_QUANT = frozenset(["FORALL", "EXISTS", "TFORALL", "TEXISTS", "CHOOSE", "LAMBDA"])
_UNIT_KEYWORDS = frozenset(
    [
        "CONSTANT",
        "VARIABLE",
        "ASSUME",
        "THEOREM",
        "LOCAL",
        "INSTANCE",
        "RECURSIVE",
        "DASHES",
        "ENDMOD",
        "USE",
    ]
)
_INFIX = frozenset(
    ["REL", "EQ", "OP6", "OP7", "OP8", "OP9", "OP10", "OP11", "MINUS", "OP13", "OP14", "IN_OP"]
)


def _virtual(type_: str, at: Token) -> Token:
    """A zero-width token located at ``at``."""
    return Token(type_, "", at.start_pos, at.line, at.column, at.line, at.column, at.start_pos)


def _starts_unit(toks: list[Token], i: int) -> bool:
    """Whether ``toks[i]`` begins a module unit (a keyword unit or ``lhs ==``)."""
    t = toks[i]
    if t.type in _UNIT_KEYWORDS:
        return True
    if t.type == "NAME":
        n = len(toks)
        j = i + 1
        if j < n and toks[j].type in ("LPAR", "LBRACK"):
            depth = 0
            while j < n:
                if toks[j].type in _OPEN:
                    depth += 1
                elif toks[j].type in _CLOSE:
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            j += 1
        elif j + 1 < n and (toks[j].type in _INFIX and toks[j + 1].type == "NAME"):
            j += 2
        elif j < n and toks[j].type == "POSTFIX":
            j += 1
        return j < n and toks[j].type == "DEFEQ"
    return t.type == "PREFIXMINUS"


def strip_proofs(toks: list[Token]) -> list[Token]:
    """Drop TLAPS proofs and USE/HIDE statements (see the module docstring).

    A proof token only starts a proof after a THEOREM (before the next unit); anywhere
    else it stays and the parser reports it.
    """
    if not any(t.type in ("PROOF", "USE") for t in toks):
        return toks
    out: list[Token] = []
    skipping = after_theorem = False
    unit_col = 1
    prev_line = 0
    for i, t in enumerate(toks):
        col = t.column or 0
        first_on_line = t.line != prev_line
        prev_line = t.end_line or t.line or 0
        starts_unit = (
            (skipping or after_theorem)
            and first_on_line
            and col <= unit_col
            and t.type != "USE"
            and _starts_unit(toks, i)
        )
        if skipping:
            if not starts_unit:
                continue
            skipping = False
        if starts_unit:
            after_theorem = False
        if (t.type == "PROOF" and after_theorem) or (t.type == "USE" and first_on_line):
            skipping = True
            if t.type == "USE":
                unit_col = col
            continue
        if t.type == "THEOREM":
            unit_col = col
            after_theorem = True
        out.append(t)
    return out


def mark_labels(toks: list[Token]) -> None:
    """Retype ``L`` in ``L ::`` and ``L(a, b) ::`` as ``LABEL`` (in place)."""
    n = len(toks)
    for i, t in enumerate(toks):
        if t.type != "DCOLON" or i == 0:
            continue
        j = i - 1
        if toks[j].type == "RPAR":
            while j > 0 and toks[j].type != "LPAR":
                if toks[j].type not in ("NAME", "COMMA", "RPAR"):
                    break
                j -= 1
            j -= 1
        if 0 <= j < n and toks[j].type == "NAME":
            toks[j] = Token.new_borrow_pos("LABEL", toks[j].value, toks[j])


class _Entry:
    """A layout stack entry: a bullet list, a bracket, or a keyword construct."""

    __slots__ = ("col", "kind", "op")

    def __init__(self, kind: str, col: int = 0, op: str = "") -> None:
        self.kind = kind  # "list", "paren", "if", "then", "let", "case", "q"
        self.col = col
        self.op = op


def layout(toks: list[Token]) -> list[Token]:
    """Apply the junction-list layout rule and the ``[]`` classification (module docstring)."""
    out: list[Token] = []
    stack: list[_Entry] = []
    lists: list[int] = []  # the stack indices of the "list" entries, and of the "paren" ones:
    parens: list[int] = []  # the column rule finds its list without scanning the stack
    append = out.append

    def push(e: _Entry) -> None:
        if e.kind == "list":
            lists.append(len(stack))
        elif e.kind == "paren":
            parens.append(len(stack))
        stack.append(e)

    def pop() -> _Entry:
        e = stack.pop()
        if e.kind == "list":
            lists.pop()
        elif e.kind == "paren":
            parens.pop()
        return e

    def innermost_list() -> int:
        """``find(("list",))``: the innermost list not hidden behind a bracket, else -1."""
        if not lists or (parens and parens[-1] > lists[-1]):
            return -1
        return lists[-1]

    def close_to(index: int, at: Token) -> None:
        """Pop entries above ``index`` (exclusive), emitting LEND for lists."""
        while len(stack) > index + 1:
            e = pop()
            if e.kind == "list":
                append(_virtual("LEND", at))

    def find(kinds: tuple[str, ...], barrier: tuple[str, ...] = ("paren",)) -> int:
        for k in range(len(stack) - 1, -1, -1):
            kind = stack[k].kind
            if kind in kinds:
                return k
            if kind in barrier:
                return -1
        return -1

    prev_type = ""
    n = len(toks)
    for i, t in enumerate(toks):
        type_ = t.type
        col = t.column or 0
        # the column rule, on the innermost list not hidden behind a bracket
        while True:
            k = innermost_list()
            if k < 0:
                break
            e = stack[k]
            if col > e.col:
                break
            if col == e.col and type_ == ("AND" if e.op == "/\\" else "OR"):
                close_to(k, t)
                type_ = "SAND" if e.op == "/\\" else "SOR"
                break
            close_to(k, t)
            pop()
            append(_virtual("LEND", t))
        if (
            type_ in ("AND", "OR")
            and prev_type not in OPERAND_END
            and not (i + 1 < n and toks[i + 1].type in ("COMMA", "RPAR"))
        ):
            push(_Entry("list", col, t.value))
            type_ = "BAND" if type_ == "AND" else "BOR"
        elif type_ in _OPEN:
            push(_Entry("paren"))
        elif type_ in _CLOSE:
            k = find(("paren",), ())
            if k >= 0:
                close_to(k, t)
                pop()
        elif type_ == "COMMA":
            k = find(("q",))
            close_to(k if k >= 0 else _paren_index(stack), t)
        elif type_ == "BOX":
            if prev_type in OPERAND_END:
                type_ = "CASESEP"
                k = find(("case",))
                if k >= 0:
                    close_to(k, t)
        elif type_ in ("ARROW", "OTHER"):
            k = find(("case",))
            if k >= 0:
                close_to(k, t)
        elif type_ == "IF":
            push(_Entry("if"))
        elif type_ == "THEN":
            k = find(("if",))
            if k >= 0:
                close_to(k, t)
                stack[k].kind = "then"
        elif type_ == "ELSE":
            k = find(("then",))
            if k >= 0:
                close_to(k, t)
                pop()
        elif type_ == "LET":
            push(_Entry("let"))
        elif type_ == "IN":
            k = find(("let",))
            if k >= 0:
                close_to(k, t)
                pop()
        elif type_ == "CASE":
            push(_Entry("case"))
        elif type_ in _QUANT:
            push(_Entry("q"))
        elif type_ == "COLON":
            k = find(("q",))
            if k >= 0:
                close_to(k, t)
                pop()
        if type_ != t.type:
            t = Token.new_borrow_pos(type_, t.value, t)
        append(t)
        prev_type = type_
    if stack and any(e.kind == "list" for e in stack):
        last = toks[-1]
        end = Token(
            "LEND",
            "",
            last.end_pos,
            last.end_line,
            last.end_column,
            last.end_line,
            last.end_column,
            last.end_pos,
        )
        for e in reversed(stack):
            if e.kind == "list":
                append(end)
    return out


def _paren_index(stack: list[_Entry]) -> int:
    """Index of the innermost bracket entry, -1 when there is none."""
    for k in range(len(stack) - 1, -1, -1):
        if stack[k].kind == "paren":
            return k
    return -1
