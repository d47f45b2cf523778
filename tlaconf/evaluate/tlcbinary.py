"""``IOUtils!IODeserialize(file, compressed)``: a value in TLC's own binary format, as
TLC's ``IOSerialize`` writes it (and TLC's trace-exploration specs, PGo's trace
validation), read as TLC's ``ValueInputStream.readExternal`` reads it.

The format: one kind byte per value, then its contents, big-endian; strings are bytes
(one character each) after two ignored words; a value already written is referred to by
its handle (the order in which records, functions, sets, tuples and strings were met).
A model value is an index into the writing run's table of model values, which this run
does not have: it is an evaluation error, never a guess.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from typing import Any

from tlaconf.evaluate.fail import Fail, show
from tlaconf.evaluate.lazysets import checked
from tlaconf.evaluate.semantics import Interval
from tlaconf.values import make_fn

# tlc2.value.ValueConstants
_BOOL, _INT, _STRING, _RECORD, _SETENUM, _TUPLE, _FCNRCD = 0, 1, 3, 4, 5, 7, 9
_MODEL, _INTERVAL, _DUMMY = 22, 23, 26
_KINDS = {10: "an operator", 12: "a set of functions", 6: "a set given by a predicate"}


class _Truncated(Exception):
    pass


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0
        self.handles: list[Any] = []

    def take(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise _Truncated
        (v,) = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return v

    def nat(self) -> int:
        """``readNat``: a short, or two when the first is negative."""
        first = self.take(">h")
        if first >= 0:
            return int(first)
        return -((first << 16) | (self.take(">h") & 0xFFFF))

    def string(self) -> str:
        self.take(">i")
        self.take(">i")  # the writer's intern-table token and location
        n = self.take(">i")
        if n < 0 or self.at + n > len(self.data):
            raise _Truncated
        s = self.data[self.at:self.at + n].decode("latin-1")
        self.at += n
        return s

    def handle(self) -> int:
        self.handles.append(None)
        return len(self.handles) - 1

    def keep(self, value: Any, index: int) -> Any:
        self.handles[index] = value
        return value

    def value(self, sid: int) -> Any:
        kind = self.take(">b")
        if kind == _BOOL:
            return self.take(">?")
        if kind == _INT:
            return int(self.take(">i"))
        if kind == _STRING:
            s = self.string()
            return self.keep(s, self.handle())
        if kind == _INTERVAL:
            low, high = self.take(">i"), self.take(">i")
            return Interval(low, high)
        if kind == _DUMMY:
            index = self.nat()
            if not 0 <= index < len(self.handles) or self.handles[index] is None:
                raise Fail(f"IODeserialize: a reference to value {index}, which the file "
                           "has not given", (), sid)
            return self.handles[index]
        if kind == _RECORD:
            return self.record(sid)
        if kind == _FCNRCD:
            return self.function(sid)
        if kind == _SETENUM:
            index = self.handle()
            n = abs(self.take(">i"))
            return self.keep(frozenset(checked([self.value(sid) for _ in range(n)], sid)),
                             index)
        if kind == _TUPLE:
            index = self.handle()
            n = self.nat()
            return self.keep(tuple(self.value(sid) for _ in range(n)), index)
        if kind == _MODEL:
            raise Fail("IODeserialize: the file holds a model value, an index into the "
                       "model values of the TLC run that wrote it", (), sid)
        what = _KINDS.get(kind, f"a value of kind {kind}")
        raise Fail(f"IODeserialize: the file holds {what}, which TLC cannot read back either",
                   (), sid)

    def record(self, sid: int) -> Any:
        index = self.handle()
        fields: dict[str, Any] = {}
        for _ in range(abs(self.take(">i"))):
            if self.take(">b") == _DUMMY:
                name = self.handles[self.nat()]
            else:
                name = self.keep(self.string(), self.handle())
            fields[name] = self.value(sid)
        return self.keep(make_fn(fields), index)

    def function(self, sid: int) -> Any:
        index = self.handle()
        n = self.nat()
        if self.take(">b") == 0:  # the domain is an interval low..high
            low, _high = self.take(">i"), self.take(">i")
            mapping = {low + i: self.value(sid) for i in range(n)}
        else:
            mapping = {}
            for _ in range(n):
                key = self.value(sid)
                mapping[key] = self.value(sid)
            checked(list(mapping), sid)
        return self.keep(make_fn(mapping), index)


def read_tlc_value(data: bytes, compressed: bool, where: str, sid: int) -> Any:
    """The value TLC's ``IOSerialize`` wrote as ``data`` (gzipped when ``compressed``)."""
    if compressed:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            raise Fail(f"IODeserialize({show(where)}, TRUE): not a compressed file (TLC "
                       "reads it with FALSE?)", (), sid) from None
    reader = _Reader(data)
    try:
        return reader.value(sid)
    except _Truncated:
        raise Fail(f"IODeserialize({show(where)}, {str(compressed).upper()}): the file ends "
                   f"inside a value (at byte {reader.at})", (), sid) from None
