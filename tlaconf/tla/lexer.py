"""The TLA+ tokenizer: source text -> a list of Lark tokens (comments and blanks dropped).

Token types are the terminals declared in ``tla.lark``.  Operator symbols are
grouped by precedence class (``REL``, ``OP8``, ...) and their value is the
canonical spelling (:data:`tlaconf.tla.ast.CANONICAL`); the Unicode symbols of
TLA+ (``≜ ∧ ∨ ¬ ∀ ∃ ∈ ⟨ ⟩ □ ◇ ↦ →`` ...) lex as their ASCII spellings.  Proof
keywords and step labels (``BY OBVIOUS OMITTED PROOF <1>2.``) are ``PROOF``
tokens, ``USE``/``HIDE`` are ``USE`` tokens (see :mod:`tlaconf.tla.layout`).  The
column of a token is its visual column with tabs expanded to multiples of 8 (the
caller expands tabs before lexing); no token spans two lines.
"""

from __future__ import annotations

import re

from lark import Token

from tlaconf.tla.ast import CANONICAL
from tlaconf.tla.errors import ParseError

KEYWORDS: dict[str, str] = {
    "MODULE": "MODULE",
    "EXTENDS": "EXTENDS",
    "CONSTANT": "CONSTANT",
    "CONSTANTS": "CONSTANT",
    "VARIABLE": "VARIABLE",
    "VARIABLES": "VARIABLE",
    "ASSUME": "ASSUME",
    "ASSUMPTION": "ASSUME",
    "AXIOM": "ASSUME",
    "THEOREM": "THEOREM",
    "LEMMA": "THEOREM",
    "PROPOSITION": "THEOREM",
    "COROLLARY": "THEOREM",
    "PROVE": "PROVE",
    "NEW": "NEW",
    "STATE": "LEVEL",
    "ACTION": "LEVEL",
    "TEMPORAL": "LEVEL",
    "LOCAL": "LOCAL",
    "INSTANCE": "INSTANCE",
    "WITH": "WITH",
    "RECURSIVE": "RECURSIVE",
    "IF": "IF",
    "THEN": "THEN",
    "ELSE": "ELSE",
    "CASE": "CASE",
    "OTHER": "OTHER",
    "LET": "LET",
    "IN": "IN",
    "CHOOSE": "CHOOSE",
    "LAMBDA": "LAMBDA",
    "EXCEPT": "EXCEPT",
    "TRUE": "TRUE",
    "FALSE": "FALSE",
    "ENABLED": "ENABLED",
    "UNCHANGED": "UNCHANGED",
    "SUBSET": "SUBSET",
    "UNION": "UNION",
    "DOMAIN": "DOMAIN",
    # proof language: only used to skip proofs
    "PROOF": "PROOF",
    "BY": "PROOF",
    "OBVIOUS": "PROOF",
    "OMITTED": "PROOF",
    "USE": "USE",
    "HIDE": "USE",
}

# backslash words -> (token type, canonical spelling)
_BACKSLASH: dict[str, str] = {
    "\\in": "IN_OP",
    "\\A": "FORALL",
    "\\E": "EXISTS",
    "\\forall": "FORALL",
    "\\exists": "EXISTS",
    "\\AA": "TFORALL",
    "\\EE": "TEXISTS",
    "\\X": "TIMES",
    "\\times": "TIMES",
    "\\land": "AND",
    "\\lor": "OR",
    "\\lnot": "NOT",
    "\\neg": "NOT",
    "\\equiv": "EQUIV",
    "\\cdot": "REL",
    "\\o": "OP13",
    "\\circ": "OP13",
}
for _w in [
    "notin",
    "subseteq",
    "subset",
    "supseteq",
    "supset",
    "sqsubseteq",
    "sqsupseteq",
    "sqsubset",
    "sqsupset",
    "prec",
    "preceq",
    "succ",
    "succeq",
    "sim",
    "simeq",
    "approx",
    "cong",
    "asymp",
    "doteq",
    "propto",
    "leq",
    "geq",
    "ll",
    "gg",
]:
    _BACKSLASH["\\" + _w] = "REL"
for _w in ["cap", "cup", "intersect", "union"]:
    _BACKSLASH["\\" + _w] = "OP8"
for _w in ["sqcap", "sqcup", "uplus", "wr"]:
    _BACKSLASH["\\" + _w] = "OP9"
_BACKSLASH["\\oplus"] = "OP10"
_BACKSLASH["\\ominus"] = "OP11"
for _w in ["odot", "oslash", "otimes", "bigcirc", "bullet", "div", "star"]:
    _BACKSLASH["\\" + _w] = "OP13"

# symbols -> token type; longest match first
_SYMBOLS: dict[str, str] = {
    "-+->": "PLUSARROW",
    "<=>": "EQUIV",
    "|->": "MAPSTO",
    "::=": "REL",
    "...": "OP9",
    "(+)": "OP10",
    "(-)": "OP11",
    "(.)": "OP13",
    "(/)": "OP13",
    "(\\X)": "OP13",
    "==": "DEFEQ",
    "=>": "IMPLIES",
    "~>": "LEADSTO",
    "/\\": "AND",
    "\\/": "OR",
    "[]": "BOX",
    "<>": "DIAMOND",
    "<<": "LANGLE",
    ">>_": "RANGLE_SUB",
    ">>": "RANGLE",
    "]_": "RBRACK_SUB",
    "->": "ARROW",
    "<-": "LARROW",
    "::": "DCOLON",
    ":=": "REL",
    "/=": "REL",
    "<=": "REL",
    "=<": "REL",
    ">=": "REL",
    "|-": "REL",
    "-|": "REL",
    "|=": "REL",
    "=|": "REL",
    "@@": "OP6",
    ":>": "OP7",
    "<:": "OP7",
    "..": "OP9",
    "##": "OP9",
    "$$": "OP9",
    "??": "OP9",
    "!!": "OP9",
    "++": "OP10",
    "%%": "OP10",
    "||": "OP10",
    "--": "OP11",
    "-.": "PREFIXMINUS",
    "&&": "OP13",
    "**": "OP13",
    "//": "OP13",
    "^^": "OP14",
    "^+": "POSTFIX",
    "^*": "POSTFIX",
    "^#": "POSTFIX",
    "=": "EQ",
    "#": "REL",
    "<": "REL",
    ">": "REL",
    "\\": "OP8",
    "$": "OP9",
    "+": "OP10",
    "%": "OP10",
    "|": "OP10",
    "-": "MINUS",
    "*": "OP13",
    "/": "OP13",
    "&": "OP13",
    "^": "OP14",
    "~": "NOT",
    "(": "LPAR",
    ")": "RPAR",
    "[": "LBRACK",
    "]": "RBRACK",
    "{": "LBRACE",
    "}": "RBRACE",
    ",": "COMMA",
    ":": "COLON",
    "!": "BANG",
    "@": "AT",
    "'": "PRIME",
    ".": "DOT",
    "_": "UNDERSCORE",
}

# Unicode spellings (the TLA+ Unicode mapping that SANY accepts) -> ASCII spelling
UNICODE: dict[str, str] = {
    "≜": "==", "∧": "/\\", "∨": "\\/", "¬": "~", "⇒": "=>", "≡": "\\equiv", "⇔": "<=>",
    "≠": "/=", "∈": "\\in", "∉": "\\notin", "∀": "\\A", "∃": "\\E", "⟨": "<<", "⟩": ">>",
    "⟩_": ">>_", "□": "[]", "◇": "<>", "↝": "~>", "↦": "|->", "→": "->", "←": "<-",
    "×": "\\X", "∪": "\\cup", "∩": "\\cap", "⊆": "\\subseteq", "⊂": "\\subset",
    "⊇": "\\supseteq", "⊃": "\\supset", "≤": "<=", "≥": ">=", "∘": "\\o", "⊕": "(+)",
    "⊖": "(-)", "⊗": "(\\X)", "⊙": "(.)", "⊘": "(/)", "≺": "\\prec", "≻": "\\succ",
    "⪯": "\\preceq", "⪰": "\\succeq", "⊑": "\\sqsubseteq", "⊒": "\\sqsupseteq",
    "⊓": "\\sqcap", "⊔": "\\sqcup", "⊎": "\\uplus", "≀": "\\wr", "÷": "\\div",
    "⋅": "\\cdot", "∼": "\\sim", "≃": "\\simeq", "≈": "\\approx", "≅": "\\cong",
    "≍": "\\asymp", "≐": "\\doteq", "∝": "\\propto", "⊢": "|-", "⊣": "-|", "⊨": "|=",
    "⫤": "=|", "⇸": "-+->", "‥": "..", "…": "...", "⋆": "\\star", "∙": "\\bullet",
    "◯": "\\bigcirc",
}  # fmt: skip

_CANON_EXTRA = {"\\lnot": "~", "\\neg": "~", "\\land": "/\\", "\\lor": "\\/", "\\times": "\\X"}


def _ascii_type(ascii_: str) -> str:
    return _BACKSLASH[ascii_] if ascii_ in _BACKSLASH else _SYMBOLS[ascii_]


_UNICODE_TYPES = {u: (_ascii_type(a), a) for u, a in UNICODE.items()}

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>\\\*[^\n]*)
  | (?P<opencomment>\(\*)
  | (?P<step><(?:\d+|\*|\+)>[A-Za-z0-9_]*\.?)
  | (?P<ident>[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*)
  | (?P<number>\d+\.\d+|\d+|\\[bB][01]+|\\[oO][0-7]+|\\[hH][0-9a-fA-F]+)
  | (?P<string>")
  | (?P<dashes>-{4,})
  | (?P<equals>={4,})
  | (?P<backslash>\\[A-Za-z]+)
  | (?P<unicode>"""
    + "|".join(re.escape(s) for s in sorted(UNICODE, key=len, reverse=True))
    + r""")
  | (?P<symbol>"""
    + "|".join(re.escape(s) for s in sorted(_SYMBOLS, key=len, reverse=True))
    + r"""
    )
    """,
    re.VERBOSE,
)

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "f": "\f"}

_HEADER_RE = re.compile(r"-{4,}[ \t]*MODULE\b")


class Lexer:
    """Tokenizes one source text; ``module=True`` starts at the first module header."""

    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self.tokens: list[Token] = []
        self._line = 1
        self._line_start = 0
        self._scanned = 0

    def _locate(self, pos: int) -> tuple[int, int]:
        """Line and column of ``pos``; positions must be asked for in increasing order."""
        text = self.text
        nl = text.count("\n", self._scanned, pos)
        if nl:
            self._line += nl
            self._line_start = text.rfind("\n", self._scanned, pos) + 1
        self._scanned = pos
        return self._line, pos - self._line_start + 1

    def error(self, message: str, pos: int) -> ParseError:
        line = self.text.count("\n", 0, pos) + 1
        col = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return ParseError(message, self.file, line, col, self.text)

    def _tok(self, type_: str, value: str, start: int, end: int) -> Token:
        line, col = self._locate(start)  # no token spans lines (strings cannot)
        return Token(type_, value, start, line, col, line, col + end - start, end)

    def _skip_comment(self, pos: int) -> int:
        """Skip a (possibly nested) ``(* ... *)`` comment starting at ``pos``."""
        text = self.text
        depth = 0
        i = pos
        n = len(text)
        while i < n:
            if text.startswith("(*", i):
                depth += 1
                i += 2
            elif text.startswith("*)", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        raise self.error("unterminated comment", pos)

    def _string(self, pos: int) -> tuple[str, int]:
        text = self.text
        out: list[str] = []
        i = pos + 1
        n = len(text)
        while i < n:
            c = text[i]
            if c == '"':
                return "".join(out), i + 1
            if c == "\n":
                break
            if c == "\\":
                esc = _ESCAPES.get(text[i + 1 : i + 2])
                if esc is None:
                    raise self.error("invalid escape in string", i)
                out.append(esc)
                i += 2
                continue
            out.append(c)
            i += 1
        raise self.error("unterminated string", pos)

    def tokenize(self, start: int = 0, stop_at_module_end: bool = False) -> list[Token]:
        """Tokens from ``start``; with ``stop_at_module_end`` stop after the closing ``====``."""
        text = self.text
        n = len(text)
        pos = start
        toks = self.tokens
        match = _TOKEN_RE.match
        depth = 0
        while pos < n:
            m = match(text, pos)
            if m is None:
                raise self.error(f"unexpected character {text[pos]!r}", pos)
            kind = m.lastgroup
            end = m.end()
            if kind == "ws" or kind == "comment":
                pos = end
                continue
            if kind == "opencomment":
                pos = self._skip_comment(pos)
                continue
            value = m.group()
            if kind == "ident":
                if value.startswith(("WF_", "SF_")):
                    toks.append(self._tok(value[:2], value[:3], pos, pos + 3))
                    pos += 3
                    continue
                toks.append(self._tok(KEYWORDS.get(value, "NAME"), value, pos, end))
            elif kind == "number":
                toks.append(self._tok("NUMBER", value, pos, end))
            elif kind == "string":
                s, end = self._string(pos)
                toks.append(self._tok("STRING", s, pos, end))
            elif kind == "dashes":
                toks.append(self._tok("DASHES", value, pos, end))
                if text.startswith("MODULE", _skip_blank(text, end)):
                    depth += 1
            elif kind == "equals":
                toks.append(self._tok("ENDMOD", value, pos, end))
                depth -= 1
                if stop_at_module_end and depth <= 0:
                    return toks
            elif kind == "backslash":
                type_ = _BACKSLASH.get(value)
                if type_ is None:
                    raise self.error(f"unknown operator {value}", pos)
                canon = _CANON_EXTRA.get(value, CANONICAL.get(value, value))
                toks.append(self._tok(type_, canon, pos, end))
            elif kind == "unicode":
                type_, ascii_ = _UNICODE_TYPES[value]
                canon = _CANON_EXTRA.get(ascii_, CANONICAL.get(ascii_, ascii_))
                toks.append(self._tok(type_, canon, pos, end))
            elif kind == "step":
                toks.append(self._tok("PROOF", value, pos, end))
            else:
                toks.append(self._tok(_SYMBOLS[value], CANONICAL.get(value, value), pos, end))
            pos = end
        return toks


def _skip_blank(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def tokenize_module(text: str, file: str) -> list[Token]:
    """Tokens of the first module in ``text`` (header to its ``====``); text around is ignored."""
    lexer = Lexer(text, file)
    m = _HEADER_RE.search(text)
    if m is None:
        raise ParseError("no module header (---- MODULE Name ----) found", file, 1, 1, text)
    return lexer.tokenize(m.start(), stop_at_module_end=True)


def tokenize_modules(text: str, file: str) -> list[list[Token]]:
    """Tokens of every top-level module in ``text`` (text between modules is ignored)."""
    out: list[list[Token]] = []
    pos = 0
    while (m := _HEADER_RE.search(text, pos)) is not None:
        toks = Lexer(text, file).tokenize(m.start(), stop_at_module_end=True)
        out.append(toks)
        if not toks or toks[-1].type != "ENDMOD" or toks[-1].end_pos is None:
            break
        pos = toks[-1].end_pos
    if not out:
        raise ParseError("no module header (---- MODULE Name ----) found", file, 1, 1, text)
    return out


def tokenize(text: str, file: str) -> list[Token]:
    """Tokens of the whole text (a bare expression or a sequence of definitions)."""
    return Lexer(text, file).tokenize()
