"""ITF JSON files, as Apalache, Quint, itf-rs and tlaconf write them, read into traces.

What an ITF file (Apalache ADR-015) holds becomes this in the trace:

``#meta``
    with ``tlaconf::header``, that header (a file tlaconf wrote); otherwise the
    caller names the module and revision, and the header's ``meta`` keeps the
    file's ``#meta`` under ``"itf"``, every state's ``#meta`` (a list, one per
    state) under ``"itf_states"`` and the ``loop`` index under ``"itf_loop"``.
``params``
    the names of the trace's constants: their values, set in state 0, become
    the header's constants (a value that differs from the header's, or that
    changes in a later state, is refused).
``vars``
    the state variables (names with the prefixes ``mbt::``, ``tlaconf::`` and
    ``#`` are not variables): every state must set each of them and no other.
    Without ``vars``, a state's variables are its other fields.
``loop``
    ``null`` or absent: a finite trace.  An index ``k``: a lasso, whose last
    state is followed by state ``k`` again; that closing transition becomes
    one more step without an action label (checked against ``Next``) unless
    the last state already equals state ``k``.
``mbt::actionTaken``
    the step's action label (state 0: the initial state, whatever it says).
    A state without it is a step without an action label.
``mbt::nondetPicks``
    the params record: each field a Quint ``Option`` variant (``Some`` is the
    value, ``None`` an absent param) or a plain value; in a file tlaconf wrote,
    always the value itself.
``tlaconf::outcome``
    ``accepted`` (the default) or ``rejected``.

A last state that sets no variable at all (``quint test --out-itf`` writes one
when the run's last action fails, ``.fail()``) says only that some action was
not enabled; it is dropped (no step could check it) and its index noted in the
header's ``meta`` under ``"itf_failed_last_state"``.

Names: a namespaced name ``a::b::c`` (Quint writes one for a variable of an
instance) stands for its last segment ``c``; ``renames`` maps any name to
another first.  Two names that become the same one are refused.  A value
``{"#unserializable": s}`` is a model value in a file tlaconf wrote; in any
other file it is a value the writing tool could not represent, and refused.
Everything refused is a :class:`~tlaconf.errors.UserError` naming the file,
the state index and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tlaconf.errors import UserError
from tlaconf.files import read_text
from tlaconf.trace.mbt import ACTION_TAKEN, HEADER, NONDET_PICKS, OUTCOME, RESERVED_PREFIXES
from tlaconf.trace.models import StateLine, StepLine, TraceHeader, UnlabeledStepLine, json_kind
from tlaconf.trace.reader import describe_validation_error
from tlaconf.trace.writer import TraceWriter
from tlaconf.values import Fn, ITFDecodeError, decode, strict_json

_OUTCOMES = ("accepted", "rejected")


class ITFError(UserError):
    """An ITF file tlaconf cannot read; ``where`` is the field (``states[3].x``)."""

    def __init__(self, message: str, path: Path, where: str) -> None:
        super().__init__(f"{where}: {message}" if where else message, str(path))


def _load(src: Path) -> dict[str, Any]:
    text = read_text(src, "ITF file")
    try:
        doc = strict_json.loads(text)
    except strict_json.TooDeep as err:
        raise UserError(str(err), f"{src}:{err.line}:{err.col}") from None
    except strict_json.DuplicateKeyError as err:
        raise UserError(f"duplicate key {err.key!r} in a JSON object",
                        f"{src}:{err.line}") from None
    except RecursionError:
        raise ITFError("JSON nested too deeply", src, "") from None
    except ValueError as err:
        raise ITFError(f"neither a tlaconf trace nor ITF JSON: {err}", src, "") from None
    if not isinstance(doc, dict):
        raise ITFError(f"an ITF trace is a JSON object, not {json_kind(doc)}", src, "")
    states = doc.get("states")
    if not isinstance(states, list) or not states:
        raise ITFError("an ITF trace needs a non-empty array of states", src, "states")
    if not isinstance(doc.get("#meta", {}), dict):
        raise ITFError("must be an object", src, "#meta")
    for i, state in enumerate(states):
        if not isinstance(state, dict):
            where = f"states[{i}]"
            raise ITFError(f"a state must be an object, not {json_kind(state)}", src, where)
        if not isinstance(state.get("#meta", {}), dict):
            raise ITFError("must be an object", src, f"states[{i}].#meta")
    return doc


def _names(doc: dict[str, Any], field: str, src: Path) -> list[str] | None:
    names = doc.get(field)
    if names is None:
        return None
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise ITFError("must be an array of names (strings)", src, field)
    return [n for n in names if not n.startswith(RESERVED_PREFIXES)]


def _integer(obj: Any) -> int | None:
    if type(obj) is int:
        return obj
    if isinstance(obj, dict) and set(obj) == {"#bigint"}:
        try:
            return int(obj["#bigint"], 10)
        except (TypeError, ValueError):
            return None
    return None


def _loop(doc: dict[str, Any], src: Path) -> int | None:
    raw = doc.get("loop")
    if raw is None:
        return None
    k = _integer(raw)
    n = len(doc["states"])
    if k is None or not 0 <= k < n:
        raise ITFError(f"must be null or the index of a state (0..{n - 1}), not {json.dumps(raw)}",
                       src, "loop")  # fmt: skip
    return k


class _Renamer:
    """Maps the file's names to the trace's: ``renames`` first, else a name's last ``::`` part."""

    def __init__(self, renames: Mapping[str, str], src: Path) -> None:
        self._renames = dict(renames)
        self._src = src
        self._seen: dict[str, str] = {}
        self.used: set[str] = set()

    def __call__(self, name: str, where: str) -> str:
        if name in self._renames:
            self.used.add(name)
            new = self._renames[name]
        else:
            new = name.rsplit("::", 1)[-1]
        other = self._seen.setdefault(new, name)
        if other != name:
            raise ITFError(f"the names {other!r} and {name!r} both become {new!r}: tell them "
                           "apart with --rename NAME=NEW", self._src, where)  # fmt: skip
        return new


def _unserializable(obj: Any, path: str) -> tuple[str, Any] | None:
    """Where the first ``#unserializable`` value in ``obj`` is, and its body."""
    if isinstance(obj, list):
        for i, x in enumerate(obj):
            found = _unserializable(x, f"{path}[{i}]")
            if found:
                return found
    elif isinstance(obj, dict):
        if "#unserializable" in obj:
            return path, obj["#unserializable"]
        for k, x in obj.items():
            found = _unserializable(x, f"{path}.{k}" if not k.startswith("#") else f"{path}{k}")
            if found:
                return found
    return None


class _Reader:
    """One ITF document being turned into trace lines."""

    def __init__(self, doc: dict[str, Any], src: Path, renames: Mapping[str, str]) -> None:
        self.doc = doc
        self.src = src
        self.own = HEADER in doc.get("#meta", {})
        self.rename = _Renamer(renames, src)
        self.rename_action = _Renamer(renames, src)
        self.params = _names(doc, "params", src) or []
        self.vars = _names(doc, "vars", src)
        self.loop = _loop(doc, src)
        states = doc["states"]
        self.failed_last = self.loop is None and len(states) > 1 and set(states[-1]) <= {"#meta"}
        """The last state sets nothing: Quint's mark of a run whose last action failed."""
        self.count = len(states) - self.failed_last
        self._param_values: dict[str, Any] = {}

    def fail(self, message: str, where: str) -> ITFError:
        return ITFError(message, self.src, where)

    def _check_serializable(self, obj: Any, where: str) -> None:
        if self.own:
            return
        found = _unserializable(obj, where)
        if found:
            path, body = found
            raise self.fail(f"{{\"#unserializable\": {json.dumps(body)}}} is a value the tool "
                            "that wrote the file could not represent: tlaconf cannot check a state "
                            "it does not know", path)  # fmt: skip

    def constants(self) -> dict[str, Any]:
        """The JSON values of the ``params`` (set in state 0), by their trace names."""
        first = self.doc["states"][0]
        out: dict[str, Any] = {}
        for name in self.params:
            where = f"states[0].{name}"
            if name not in first:
                raise self.fail(f"the parameter {name!r} (listed in params) is not set", where)
            self._check_serializable(first[name], where)
            self._param_values[name] = first[name]
            out[self.rename(name, "params")] = first[name]
        return out

    def state(self, index: int) -> dict[str, Any]:
        """The state variables of state ``index`` (JSON values, trace names)."""
        raw: dict[str, Any] = self.doc["states"][index]
        where = f"states[{index}]"
        out: dict[str, Any] = {}
        for name, value in raw.items():
            if name.startswith(RESERVED_PREFIXES):
                continue
            if name in self._param_values:
                if index and not _same(value, self._param_values[name]):
                    raise self.fail(f"the parameter {name!r} changes value (a parameter is a "
                                    "constant, set in state 0)", f"{where}.{name}")  # fmt: skip
                continue
            if self.vars is not None and name not in self.vars:
                raise self.fail(f"{name!r} is not a variable listed in vars", f"{where}.{name}")
            self._check_serializable(value, f"{where}.{name}")
            out[self.rename(name, f"{where}.{name}")] = value
        for name in self.vars or ():
            if name not in raw:
                raise self.fail(f"the variable {name!r} (listed in vars) is not set", where)
        return out

    def action(self, index: int) -> tuple[str | None, dict[str, Any], str]:
        """The action label (None: none), the JSON params record and the outcome of a step."""
        raw: dict[str, Any] = self.doc["states"][index]
        where = f"states[{index}]"
        outcome = raw.get(OUTCOME, "accepted")
        if outcome not in _OUTCOMES:
            raise self.fail(f"{OUTCOME} must be 'accepted' or 'rejected', not "
                            f"{json.dumps(outcome)}", where)  # fmt: skip
        if ACTION_TAKEN not in raw:
            if NONDET_PICKS in raw:
                raise self.fail(f"{NONDET_PICKS} without {ACTION_TAKEN}: which action picked "
                                "them?", where)  # fmt: skip
            return None, {}, outcome
        action = raw[ACTION_TAKEN]
        if not isinstance(action, str):
            raise self.fail(f"{ACTION_TAKEN} must be a string, not {json_kind(action)}", where)
        picks = self._picks(raw.get(NONDET_PICKS, {}), f"{where}.{NONDET_PICKS}")
        return self.rename_action(action, f"{where}.{ACTION_TAKEN}"), picks, outcome

    def _picks(self, raw: Any, where: str) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise self.fail(f"must be a record, not {json_kind(raw)}", where)
        params: dict[str, Any] = {}
        for name, pick in raw.items():
            self._check_serializable(pick, f"{where}.{name}")
            if not self.own and _is_option(pick):
                if pick["tag"] == "Some":
                    params[name] = pick["value"]
            else:
                params[name] = pick
        if any(name.startswith("#") for name in params):
            return {"#map": [[name, value] for name, value in params.items()]}
        return params

    def meta(self) -> dict[str, Any]:
        """The header's ``meta`` for a file without a tlaconf header."""
        meta: dict[str, Any] = {"itf": self.doc.get("#meta", {})}
        states = self.doc["states"]
        if any("#meta" in s for s in states):
            meta["itf_states"] = [s.get("#meta", {}) for s in states]
        if self.loop is not None:
            meta["itf_loop"] = self.loop
        if self.failed_last:
            meta["itf_failed_last_state"] = len(states) - 1
        return meta


def _is_option(pick: Any) -> bool:
    """A Quint ``Option`` variant: ``{"tag": "Some" | "None", "value": ...}``."""
    return isinstance(pick, dict) and set(pick) == {"tag", "value"} and pick["tag"] in (
        "Some", "None")  # fmt: skip


def _same(a: Any, b: Any) -> bool:
    try:
        x, y = decode(a), decode(b)
    except ITFDecodeError:
        return a == b
    return type(x) is type(y) and x == y


def _header(reader: _Reader, module: str | None, revision: str | None) -> TraceHeader:
    src = reader.src
    constants = reader.constants()
    if reader.own:
        obj, where = reader.doc["#meta"][HEADER], f"#meta.{HEADER}"
        if module is not None or revision is not None:
            raise UserError(f"{src} carries its tlaconf header: drop --module/--revision")
        if not isinstance(obj, dict):
            raise ITFError(f"the header must be an object, not {json_kind(obj)}", src, where)
    elif module is None or revision is None:
        raise UserError(
            f"{src} has no tlaconf header in its #meta: name the trace's conformance module "
            "and revision with --module and --revision"
        )
    else:
        obj = {"format": "tlaconf-trace", "version": 1, "module": module, "revision": revision,
               "meta": reader.meta()}
        where = "--module/--revision"
    if constants:
        given = obj.get("constants", {})
        if not isinstance(given, dict):
            raise ITFError(f"constants must be an object, not {json_kind(given)}", src, where)
        for name, value in constants.items():
            if name in given and not _same(given[name], value):
                raise ITFError(f"the parameter {name!r} differs from the header's constant",
                               src, f"states[0].{name}")  # fmt: skip
        obj = {**obj, "constants": {**given, **constants}}
    try:
        return TraceHeader.model_validate(obj)
    except ValidationError as err:
        raise ITFError(describe_validation_error(err), src, where) from None


def _lines(reader: _Reader) -> Iterator[tuple[str, Any]]:
    """``("init", state)`` then ``("step", StepLine | UnlabeledStepLine)`` per step."""
    states = reader.doc["states"]
    decoded: dict[str, Any] = {}
    for index in range(reader.count):
        where = f"states[{index}]"
        state = reader.state(index)
        try:
            if index == 0:
                decoded = StateLine.model_validate({"state": state}).state
                initial_outcome = states[0].get(OUTCOME)
                if initial_outcome not in (None, "init"):
                    raise reader.fail(f"state 0 is the initial state: {OUTCOME} must be 'init'",
                                      where)  # fmt: skip
                yield "init", decoded
                continue
            action, params, outcome = reader.action(index)
            line: StepLine | UnlabeledStepLine
            if action is None:
                line = UnlabeledStepLine.model_validate({"outcome": outcome, "state": state})
            else:
                line = StepLine.model_validate(
                    {"action": action, "params": params, "outcome": outcome, "state": state}
                )
        except ValidationError as err:
            raise reader.fail(describe_validation_error(err), where) from None
        decoded = line.state
        yield "step", line
    if reader.loop is not None:
        back = UnlabeledStepLine.model_validate({"state": reader.state(reader.loop)})
        if back.state != decoded:
            yield "step", back


def itf_to_trace(
    src: Path,
    dst: Path,
    module: str | None = None,
    revision: str | None = None,
    renames: Mapping[str, str] | None = None,
) -> int:
    """Write the ITF file ``src`` as the trace ``dst``; the number of steps.

    ``module`` and ``revision`` name the header when ``src`` carries none;
    ``renames`` maps names of the file to trace names.
    """
    doc = _load(src)
    try:
        return _convert(doc, src, dst, module, revision, renames or {})
    except RecursionError:
        raise ITFError("a value is nested too deeply", src, "") from None


def _convert(
    doc: dict[str, Any], src: Path, dst: Path, module: str | None, revision: str | None,
    renames: Mapping[str, str],
) -> int:  # fmt: skip
    reader = _Reader(doc, src, renames)
    header = _header(reader, module, revision)
    with TraceWriter(dst, header.module, header.revision, header.constants, header.meta) as w:
        for kind, line in _lines(reader):
            if kind == "init":
                w.init(line)
            elif isinstance(line, UnlabeledStepLine):
                w.unlabeled_step(line.state, line.outcome)
            else:
                params = line.params if isinstance(line.params, Fn) else {}
                w.step(line.action, params, line.outcome, line.state)
        unused = sorted(set(renames) - reader.rename.used - reader.rename_action.used)
        if unused:
            raise UserError(f"{src}: --rename {unused[0]}=...: the file has no such name")
        return w.steps
