"""Which fields of a log's records a specification read: the "value changed on a send is
accepted" hole of a trace spec, found by watching the records ``ndJsonDeserialize`` gives.

While a :class:`FieldReads` is active (the ``fields`` of ``community.io_session``), every
JSON object of a log line becomes a record whose field table notes each field taken from it
(``l.pkt.msg.q``, ``r[k]``) and each comparison of the whole record (``l.pkt = ...``: every
field below is compared). A leaf field (a number, string, boolean or array) that was neither
taken nor under a compared record was never looked at: the spec accepts any value there.
Taking a field counts as constraining it (a conservative approximation in the other
direction is not possible without re-running the search); a record copied wholesale into a
new value (``[l EXCEPT ...]``) is no longer watched, so its later reads are not seen and its
fields may be reported although read. The lines ``CausalOrder`` drops are not reported (the
cut log is a warning of its own). """

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from tlaconf.values import Fn

Path = tuple[str, ...]
Line = tuple[str, int]
"""(log file, line number)."""


class FieldReads:
    """The leaf fields of each log line and those the spec read."""

    def __init__(self) -> None:
        self.leaves: dict[Line, list[Path]] = {}
        self.read: set[tuple[Line, Path]] = set()
        self.compared: set[tuple[Line, Path]] = set()
        self.cut: set[Line] = set()
        """Lines dropped before the spec could read them (reported as a cut log)."""

    def watch(self, value: Any, file: str, line: int) -> Any:
        """``value`` (one log line's deserialized value) with its records watched."""
        at = (file, line)
        self.leaves[at] = list(_leaves(value, ()))
        return self._watched(value, at, ())

    def _watched(self, v: Any, at: Line, prefix: Path) -> Any:
        if type(v) is not Fn:
            return v
        return Fn(_Fields({k: self._watched(x, at, (*prefix, str(k))) for k, x in v.items()},
                          self, at, prefix))

    def dropped(self, values: Iterable[Any]) -> None:
        """The log lines of ``values`` (watched records) were dropped from the log the
        spec checks (``CausalOrder``): their fields are not reported."""
        for v in values:
            fields = v._d if type(v) is Fn else None
            if isinstance(fields, _Fields):
                self.cut.add(fields.at)

    def unread(self) -> dict[Path, list[Line]]:
        """Leaf field -> the lines, not dropped, on which the spec never read it (file
        order)."""
        out: dict[Path, list[Line]] = {}
        for at, leaves in self.leaves.items():
            if at in self.cut:
                continue
            for leaf in leaves:
                if not self._seen(at, leaf):
                    out.setdefault(leaf, []).append(at)
        return out

    def _seen(self, at: Line, leaf: Path) -> bool:
        if (at, leaf) in self.read:
            return True
        return any((at, leaf[:i]) in self.compared for i in range(len(leaf)))


class _Fields(dict[Any, Any]):
    """A watched record's field table (the ``_d`` of its :class:`Fn`)."""

    __slots__ = ("_at", "_prefix", "_reads")

    @property
    def at(self) -> Line:
        """The log line this record was read from."""
        return self._at

    def __init__(self, items: dict[Any, Any], reads: FieldReads, at: Line, prefix: Path
                 ) -> None:
        super().__init__(items)
        self._reads = reads
        self._at = at
        self._prefix = prefix

    def __getitem__(self, key: Any) -> Any:
        self._reads.read.add((self._at, (*self._prefix, str(key))))
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            return self[key]
        return default

    def __eq__(self, other: object) -> bool:
        self._reads.compared.add((self._at, self._prefix))
        if isinstance(other, _Fields):
            other._reads.compared.add((other._at, other._prefix))
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # a dict: unhashable, as before


def _leaves(v: Any, prefix: Path) -> Iterator[Path]:
    if type(v) is Fn:
        for k, x in v.items():
            yield from _leaves(x, (*prefix, str(k)))
    elif prefix:
        yield prefix
