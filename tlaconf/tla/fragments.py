"""Extract the TLA+ definitions published on specification pages (like the seeds).

A fragment starts after a marker line ``reference-profile · input revision N ·
LICENCE`` and runs up to the page's ``Definition and resolved references``
trailer (which may be glued to the end of the fragment's last line), or up to
the next marker or the end of the page when there is no trailer.  Lines are
kept as published (indentation may have been lost; the layout rule copes with
flattened bullet lists), so a parse error points at the page's own line.

:func:`write_module` writes **one module per page** (``Fragments_<page stem>``)
that EXTENDS the standard modules its text uses (``Len`` -> Sequences) and holds
every fragment of the page verbatim, each preceded by a provenance comment (page
file, line, revision, licence).  The names a page uses but defines elsewhere in
the profile (``ZoneInstances4``) stay undefined there: :func:`is_fragments_module`
lets ``tlaconf parse`` list them apart from real errors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import check_output, read_text, writing
from tlaconf.tla import ast
from tlaconf.tla.errors import ResolveError
from tlaconf.tla.parser import parse_units
from tlaconf.tla.stdnames import is_standard_name, standard_modules_for

MARKER_RE = re.compile(
    r"^\s*reference-profile\s*·\s*input revision\s+(?P<rev>[^\s·]+)\s*·\s*(?P<licence>.*?)\s*$"
)
TRAILER = "Definition and resolved references"
EXTRACTED = "\\* Extracted by `tlaconf fragments` from the page"
"""The first comment line of every module :func:`render_module` writes."""


@dataclass(frozen=True)
class Fragment:
    """The definitions following one marker of a page."""

    page: str
    line: int  # page line of the first fragment line
    revision: str
    licence: str
    text: str  # verbatim lines (trailer removed), without leading/trailing blank lines
    units: tuple[ast.Unit, ...]

    def names(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.units if isinstance(u, ast.OpDef | ast.FnDef))


def extract(text: str, page: str) -> list[Fragment]:
    """Every fragment of a page, parsed; a fragment that does not parse raises ``ParseError``."""
    lines = text.splitlines()
    out: list[Fragment] = []
    i = 0
    while i < len(lines):
        m = MARKER_RE.match(lines[i])
        i += 1
        if m is None:
            continue
        body: list[str] = []
        start = i + 1  # 1-based page line of lines[i]
        while i < len(lines) and not MARKER_RE.match(lines[i]):
            line = lines[i]
            cut = line.find(TRAILER)
            i += 1
            if cut >= 0:
                body.append(line[:cut].rstrip())
                break
            body.append(line.rstrip())
        while body and not body[0].strip():
            body.pop(0)
            start += 1
        while body and not body[-1].strip():
            body.pop()
        if not body:
            raise UserError("empty fragment after the marker", f"{page}:{start - 1}")
        src = "\n" * (start - 1) + "\n".join(body) + "\n"
        units = parse_units(src, page)
        if not units:
            raise UserError("no definition after the marker", f"{page}:{start - 1}")
        out.append(Fragment(page, start, m["rev"], m["licence"], "\n".join(body), units))
    return out


def module_name(page: str | Path) -> str:
    """``Fragments_<stem>``, with characters that are not identifier characters replaced."""
    stem = re.sub(r"[^A-Za-z0-9_]", "_", Path(page).stem)
    return f"Fragments_{stem}"


def render_module(page: str | Path, fragments: list[Fragment]) -> str:
    """The module text for one page's fragments."""
    name = module_name(page)
    page_name = Path(page).name
    head = f"{'-' * 4} MODULE {name} {'-' * 4}"
    out = [
        head,
        f"{EXTRACTED} {page_name}.",
        "\\* Each definition below is copied verbatim from the page; the comment above it",
        "\\* records where it was published.",
    ]
    standard = page_module(page, fragments).extends
    if standard:
        out.append(f"EXTENDS {', '.join(standard)}")
    out.append("")
    for f in fragments:
        out.append(
            f"\\* source: {page_name} line {f.line}; reference-profile input revision "
            f"{f.revision}; licence {f.licence}"
        )
        out.append(f.text)
        out.append("")
    out.append("=" * len(head))
    return "\n".join(out) + "\n"


_PROVENANCE = re.compile(r"^\\\* source: .* reference-profile input revision (?P<rev>\S+);", re.M)


def fragment_revisions(text: str) -> set[str]:
    """The revisions named by the provenance comments of a module :func:`render_module` wrote."""
    return {m["rev"] for m in _PROVENANCE.finditer(text)}


def is_fragments_module(text: str) -> bool:
    """Whether ``text`` is a module written by :func:`render_module`."""
    lines = text.splitlines()
    return len(lines) > 1 and lines[1].startswith(EXTRACTED)


_UNDEFINED = re.compile(r"undefined (?:name|operator) (?P<name>\S+)\Z")


def split_elsewhere(
    errors: list[ResolveError],
) -> tuple[dict[str, ResolveError], list[ResolveError]]:
    """A fragments module's resolution errors: names it uses but does not define (defined
    elsewhere in the profile; the first use of each, by name) and the real errors.  A
    standard module's name (``Len``) left undefined is a real error."""
    elsewhere: dict[str, ResolveError] = {}
    real: list[ResolveError] = []
    for err in errors:
        m = _UNDEFINED.match(err.message)
        if m is None or is_standard_name(m["name"]):
            real.append(err)
        else:
            elsewhere.setdefault(m["name"], err)
    return elsewhere, real


def page_module(page: str | Path, fragments: list[Fragment]) -> ast.Module:
    """The module :func:`render_module` writes, built from the fragments' own nodes (so that
    locations are the page's lines)."""
    units = tuple(u for f in fragments for u in f.units)
    return ast.Module(module_name(page), standard_modules_for(units), units)


def write_module(page: str | Path, out_dir: str | Path) -> tuple[Path, list[Fragment]] | None:
    """Extract ``page``'s fragments and write their module into ``out_dir`` (None: no fragment)."""
    written = write_modules([page], out_dir)[0]
    return None if written[1] is None else (written[1], written[2])


def write_modules(
    pages: Sequence[str | Path], out_dir: str | Path
) -> list[tuple[Path, Path | None, list[Fragment]]]:
    """Extract every page's fragments, then write one module per page with fragments into
    ``out_dir``: all of them, or (on any error, in any page) none.  For each page: the page,
    the module written (None: no fragment) and its fragments."""
    found = [(Path(page), extract(read_text(Path(page), "page"), str(page))) for page in pages]
    d = Path(out_dir)
    check_output(d, "-o", folder=True)
    targets: dict[Path, Path] = {}
    for p, fragments in found:
        target = d / f"{module_name(p)}.tla"
        if fragments and target in targets:
            raise UserError(f"pages {targets[target]} and {p} would both be written as "
                            f"{target} (the module is named after the page's file name)")
        targets[target] = p
    out: list[tuple[Path, Path | None, list[Fragment]]] = []
    with ExitStack() as stack:  # every module renamed into place only once all are written
        for p, fragments in found:
            if not fragments:
                out.append((p, None, fragments))
                continue
            target = d / f"{module_name(p)}.tla"
            stack.enter_context(writing(target, "module")).write(render_module(p, fragments))
            out.append((p, target, fragments))
    return out
