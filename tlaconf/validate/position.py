"""The log position of a trace spec that keeps it in a variable (etcd raft's ``l``, the
2024 paper's): the log entry a candidate state is at, and that entry's record.

In that style the search level is not the log entry: a step may leave the position
where it is (a message received in several steps), and the spec's log may be a
selection of the file's lines.  The position variable is the one the trace spec's own
definitions use to index a constant sequence (``logline == TraceLog[l]``); when exactly
one variable is used so, a candidate's value of it is its log entry.
"""

from __future__ import annotations

from typing import Any

from tlaconf.explore import Model
from tlaconf.tla import ast as A
from tlaconf.tla.visit import iter_nodes


class Position:
    """The log position variable of a trace spec and the log it indexes, if found."""

    def __init__(self, model: Model) -> None:
        self.variable: str | None = None
        self.log: tuple[Any, ...] = ()
        ctx = model.ctx
        levels = ctx.compiler.levels
        found: dict[str, str] = {}
        for unit in ctx.module.units:
            if not isinstance(unit, A.OpDef):
                continue
            for node in iter_nodes(unit.body):
                if not (isinstance(node, A.FnApp) and len(node.args) == 1
                        and isinstance(node.fn, A.Name) and isinstance(node.args[0], A.Name)
                        and not node.fn.module and not node.args[0].module):
                    continue
                var = ctx.ns.lookup(node.args[0].name)
                seq = ctx.ns.lookup(node.fn.name)
                if var is not None and var.kind == "var" and seq is not None \
                        and seq.kind == "op" and seq.arity == 0 \
                        and levels.entry_is_const(seq, pure=True):
                    found[var.name] = seq.name
        if len(found) != 1:
            return
        [(variable, name)] = found.items()
        try:
            log = ctx.value(name)
        except Exception:  # the log cannot be read: the level stays the entry
            return
        if type(log) is tuple:
            self.variable, self.log = variable, log

    def entry(self, state: dict[str, Any]) -> int | None:
        """The log entry (1-based) ``state`` is at, when it is one of the log's."""
        if self.variable is None:
            return None
        k = state.get(self.variable)
        return k if type(k) is int and 1 <= k <= len(self.log) else None

    def record(self, k: int) -> Any:
        return self.log[k - 1]
