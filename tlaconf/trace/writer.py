"""Streaming writer for ``tlaconf-trace`` v1 files (JSON Lines).

Line 1 is the header, line 2 the initial state, every further line one step
with the full state after it.  Output is deterministic: the same calls give
byte-identical files (sets and maps in canonical order, state variables sorted).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal

from tlaconf.values import encode, from_python

FORMAT = "tlaconf-trace"
VERSION = 1
Outcome = Literal["accepted", "rejected"]


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n"


_IDENTIFIER = re.compile(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*\Z")


class Some:
    """Some keys of a record or function, for a partial trace: written as
    ``{"#partial": {...}}`` (string keys) or ``{"#partial": {"#map": [[k, v], ...]}}``;
    the values may be :class:`Some` again."""

    def __init__(self, entries: Mapping[Any, Any]) -> None:
        self.entries = dict(entries)


def _encode(v: Any) -> Any:
    if not isinstance(v, Some):
        return encode(from_python(v))
    keys = sorted(v.entries, key=lambda k: json.dumps(encode(from_python(k)), sort_keys=True))
    if all(isinstance(k, str) for k in keys):
        return {"#partial": {k: _encode(v.entries[k]) for k in keys}}
    return {"#partial": {"#map": [[encode(from_python(k)), _encode(v.entries[k])]
                                  for k in keys]}}


def _values(mapping: Mapping[str, Any], what: str) -> dict[str, Any]:
    for name in mapping:
        if not (isinstance(name, str) and _IDENTIFIER.match(name)):
            raise ValueError(f"{what} name {name!r} is not a TLA+ identifier")
    return {k: _encode(mapping[k]) for k in sorted(mapping)}


def _params(params: Mapping[str, Any]) -> Any:
    """The params record, encoded (a ``#map`` when a field name starts with ``#``)."""
    if not all(isinstance(k, str) for k in params):
        raise ValueError("params field names must be strings")
    return encode(from_python(dict(params))) if params else {}


class TraceWriter:
    """Write one trace.  Values may be TLA+ values or plain Python data (see ``from_python``).

    Writing goes to ``path + ".part"`` and is renamed into place by :meth:`close`,
    so a crashed recorder never leaves a half-written trace under the real name.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        module: str,
        revision: str,
        constants: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        *,
        partial: bool = False,
        on_line: Callable[[str], None] | None = None,
    ) -> None:
        header: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "module": module,
            "revision": revision,
            "constants": _values(constants or {}, "constant"),
            "meta": dict(meta or {}),
        }
        if partial:  # states may give some variables only (tlaconf.trace.partial)
            header["partial"] = True
        self.partial = partial
        self.path = Path(path)
        self._part = self.path.with_name(self.path.name + ".part")
        self._part.parent.mkdir(parents=True, exist_ok=True)  # as every output's folders are
        self._out: IO[str] | None = self._part.open("w", encoding="utf-8", newline="\n")
        self._has_init = False
        self.steps = 0
        self.on_line = on_line
        """Called with each line once it is written (and flushed): an online check."""
        try:
            self._write(header)
        except BaseException:  # the check refused the header: the file as far as it got
            self.close()
            raise

    def _state(self, state: Mapping[str, Any]) -> dict[str, Any]:
        if not self.partial and any(isinstance(v, Some) for v in state.values()):
            raise ValueError("Some(...) values belong in a partial trace (partial=True)")
        return _values(state, "variable")

    def _write(self, obj: dict[str, Any]) -> None:
        if self._out is None:
            raise ValueError(f"trace {self.path} is already closed")
        text = _line(obj)
        self._out.write(text)
        if self.on_line is not None:
            self._out.flush()
            self.on_line(text)

    def init(self, state: Mapping[str, Any]) -> None:
        """Record the initial state (exactly once, before any step)."""
        if self._has_init:
            raise ValueError("the initial state is already recorded")
        self._write({"state": self._state(state)})
        self._has_init = True

    def step(
        self,
        action: str,
        params: Mapping[str, Any],
        outcome: Outcome,
        state: Mapping[str, Any],
    ) -> None:
        """Record one step: the action label, its params, the outcome and the full state after."""
        if not self._has_init:
            raise ValueError("record the initial state before any step")
        if outcome not in ("accepted", "rejected"):
            raise ValueError(f"outcome must be 'accepted' or 'rejected', not {outcome!r}")
        self._write(
            {
                "action": action,
                "params": _params(params),
                "outcome": outcome,
                "state": self._state(state),
            }
        )
        self.steps += 1

    def unlabeled_step(self, state: Mapping[str, Any], outcome: Outcome = "accepted") -> None:
        """Record a step without an action label (checked against the module's ``Next``)."""
        if not self._has_init:
            raise ValueError("record the initial state before any step")
        if outcome not in ("accepted", "rejected"):
            raise ValueError(f"outcome must be 'accepted' or 'rejected', not {outcome!r}")
        line: dict[str, Any] = {} if outcome == "accepted" else {"outcome": outcome}
        line["state"] = self._state(state)
        self._write(line)
        self.steps += 1

    @property
    def closed(self) -> bool:
        """Whether the trace is finished (or dropped): nothing more can be written."""
        return self._out is None

    def close(self) -> None:
        """Finish the file and move it into place."""
        if self._out is None:
            return
        self._out.close()
        self._out = None
        os.replace(self._part, self.path)

    def abort(self) -> None:
        """Drop the partial file."""
        if self._out is not None:
            self._out.close()
            self._out = None
        self._part.unlink(missing_ok=True)

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def write_expected(path: str | os.PathLike[str],
                   entries: Mapping[str, Mapping[str, Any]]) -> Path:
    """Write an ``expected.json`` (what each golden trace beside it must give): trace file
    name -> ``verdict``, ``step`` and ``conjunct`` (null when not given), names sorted, in
    the one shape every golden generator writes; returns the path."""
    doc = {name: {"verdict": e["verdict"], "step": e.get("step"), "conjunct": e.get("conjunct")}
           for name, e in sorted(entries.items())}
    out = Path(path)
    out.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out
