"""Large literals of a trace sent once, as named definitions.

A long trace repeats large values: a ``LeakCheck`` step's params hold every world
compared, each with the seat's whole view (mostly the same view), and the states
repeat zones that do not change.  Snowcat types every literal it is given, so a root
module of literal states and params (362 KB for ``views/seat-views-7``) was still
being typed when its time ran out.  :class:`Pool` gives each composite value whose
text is at least :data:`MIN_TEXT` characters (and whose type has no variable) one
definition ``TlaconfV<j> == <literal>``, with its ``@type``, and every occurrence of
that value (with that type) is sent as its name; its parts are named the same way, so
each is typed once.
"""

from __future__ import annotations

from typing import Any

from tlaconf.replay.apalache.types import Type, known, literal, type_text

MIN_TEXT = 120
"""The shortest literal sent as a definition (a shorter one costs Snowcat little)."""
PREFIX = "TlaconfV"


class Pool:
    """The shared literals of one root module, in the order they are defined."""

    def __init__(self) -> None:
        self._names: dict[tuple[str, str], str] = {}
        self._new: list[str] = []

    def literal(self, v: Any, t: Type) -> str:
        """``v`` as Apalache reads it with type ``t``, its large parts by name."""
        return literal(v, t, self._share)

    def _share(self, text: str, t: Type) -> str:
        if len(text) < MIN_TEXT or not known(t, closed=True):
            return text
        key = (type_text(t), text)
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = f"{PREFIX}{len(self._names)}"
            self._new.append(f"\\* @type: {key[0]};\n{name} == {text}")
        return name

    def definitions(self) -> list[str]:
        """The definitions made since the last call (each before its first use)."""
        out, self._new = self._new, []
        return out
