"""The definitions a specification page publishes, one by one, with where they stand on the page.

A page (like the seeds) publishes TLA+ text after ``reference-profile · input
revision N · LICENCE`` markers (:mod:`tlaconf.tla.fragments`).  Each definition
of a fragment becomes a :class:`PageDefinition` with its verbatim text, the
page's **title** (its first line other than ``On this page``, without a
trailing ``¶``) and the **section** it is published in (the nearest heading
above its marker: a line ending in ``¶``, or a short line that starts with a
capital letter and ends without punctuation).

A definition whose lines lost their indentation (every line after the one
holding ``==`` starts in column 1) gets its body indented by four spaces, as the
profile's modules lay them out, when that parses to the same definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import read_text
from tlaconf.tla import ast
from tlaconf.tla.fragments import MARKER_RE, TRAILER, Fragment, extract
from tlaconf.tla.parser import parse_units

Definition = ast.OpDef | ast.FnDef

_HEADING_MAX = 90
_KINDS: dict[type, str] = {
    ast.Recursive: "a RECURSIVE declaration", ast.Constant: "a CONSTANT declaration",
    ast.Variable: "a VARIABLE declaration", ast.Assume: "an ASSUME", ast.Theorem: "a THEOREM",
    ast.Instance: "an INSTANCE", ast.InstanceDef: "an instance definition",
}  # fmt: skip


@dataclass(frozen=True)
class PageDefinition:
    """One definition published on a page."""

    name: str
    unit: Definition
    text: str
    """Its lines as published (body re-indented when the page lost the indentation)."""
    page: str
    """The page's path as given."""
    line: int
    revision: str
    licence: str
    title: str
    section: str
    fragment: int
    """The index of its fragment on the page (0 for the first marker)."""

    @property
    def page_name(self) -> str:
        return Path(self.page).name

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    def provenance(self) -> str:
        """The comment line recording where the definition was published."""
        return f"\\* verbatim: {self.page_name}, reference-profile · input revision " \
            f"{self.revision} · {self.licence}"  # fmt: skip


def normalize(text: str) -> str:
    """Text compared without case, typographic quotes or extra spaces."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u00b6", "")
    return re.sub(r"\s+", " ", text).strip().casefold()


def _title(lines: list[str]) -> str:
    for line in lines:
        text = line.strip().rstrip("\u00b6").strip()
        if text and text.casefold() != "on this page":
            return text
    return ""


def _is_heading(line: str) -> bool:
    text = line.strip()
    if not text or TRAILER in text or "·" in text or MARKER_RE.match(text):
        return False
    if text.endswith("\u00b6"):
        return True
    return len(text) <= _HEADING_MAX and text[0].isupper() and text[-1] not in ".:;,!?)]}>"


def _section(lines: list[str], marker: int, inside: set[int]) -> str:
    """The nearest heading above the marker at 0-based line ``marker`` (fragment lines skipped)."""
    for i in range(marker - 1, -1, -1):
        if i not in inside and _is_heading(lines[i]):
            return lines[i].strip().rstrip("\u00b6").strip()
    return ""


def _restore_layout(text: str, unit: Definition, page: str, line: int) -> str:
    """``text`` with its body indented by four spaces if every body line lost its indentation."""
    lines = text.split("\n")
    head = next((i for i, s in enumerate(lines) if "==" in s), len(lines))
    body = [s for s in lines[head + 1 :] if s.strip()]
    if not body or any(s[:1].isspace() for s in body):
        return text
    shifted = lines[: head + 1] + [f"    {s}" if s.strip() else s for s in lines[head + 1 :]]
    candidate = "\n".join(shifted)
    try:
        reparsed = parse_units("\n" * (line - 1) + candidate + "\n", page)
    except UserError:
        return text
    return candidate if reparsed == (unit,) else text


def _definitions(fragment: Fragment, index: int, title: str, section: str) -> list[PageDefinition]:
    lines = fragment.text.split("\n")
    out: list[PageDefinition] = []
    for unit in fragment.units:
        if not isinstance(unit, ast.OpDef | ast.FnDef):
            kind = _KINDS.get(type(unit), type(unit).__name__)
            raise UserError(
                f"revise takes operator and function definitions; this is {kind}",
                f"{fragment.page}:{unit.span.line}",
            )
        first, last = unit.span.line - fragment.line, unit.span.end_line - fragment.line
        text = "\n".join(s.rstrip() for s in lines[first : last + 1])
        text = _restore_layout(text, unit, fragment.page, unit.span.line)
        out.append(
            PageDefinition(
                unit.name, unit, text, fragment.page, unit.span.line, fragment.revision,
                fragment.licence, title, section, index,
            )
        )  # fmt: skip
    return out


def read_page(page: str | Path) -> list[PageDefinition]:
    """Every definition published on ``page``, in page order (UserError when unreadable)."""
    text = read_text(page, "page")
    fragments = extract(text, str(page))
    lines = text.splitlines()
    inside = {
        i for f in fragments for i in range(f.line - 1, f.line - 1 + f.text.count("\n") + 1)
    }
    title = _title(lines)
    out: list[PageDefinition] = []
    for index, f in enumerate(fragments):
        marker = next(i for i in range(f.line - 2, -1, -1) if MARKER_RE.match(lines[i]))
        out += _definitions(f, index, title, _section(lines, marker, inside))
    return out
