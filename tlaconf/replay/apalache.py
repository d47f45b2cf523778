"""The ``apalache`` backend: Apalache's JSON-RPC explorer server checks each step.

Where Apalache runs
    ``APALACHE_SERVER=http://host:port`` uses a server already started with
    ``apalache-mc server --server-type=explorer``.  Otherwise the backend starts
    one on a free local port from ``APALACHE_MC`` (the path of ``apalache-mc``),
    else ``apalache-mc`` on ``PATH``, else ``$APALACHE_HOME/bin/apalache-mc``, and
    stops it at exit.  With none of these, loading fails with a
    :class:`~tlaconf.errors.UserError` saying how to install or point to Apalache.
    ``APALACHE_TIMEOUT`` is the solver timeout per query in seconds (default 600).

What it asks
    Every question replay asks is one Apalache session (``loadSpec`` ...
    ``disposeSpec``) on a generated root module ``TlaconfApalache`` that
    declares the conformance module's variables with Apalache types inferred from
    the values, instantiates the module with the constants bound
    (``INSTANCE M WITH C <- value``), and pins the state ``s`` in its ``Init``:

    * ``check_action(A, p, s, s')``: ``Next == A(p)``; after ``Init`` and
      ``nextStep``, each transition of ``Next`` is assumed (``assumeTransition``);
      the action invariant ``~(vars' = s')`` is VIOLATED for one of them exactly
      when ``A(p)`` holds from ``s`` to ``s'``;
    * ``enabled(A, p, s)``: ``Next == A(p)``; enabled when some transition is
      ENABLED after ``Init``;
    * ``check_invariant(I, s)``: ``Next == UNCHANGED vars`` with the module's
      invariants as state invariants, checked after ``Init`` (one session answers
      every invariant of a state).

    An UNKNOWN answer (solver timeout) or a JSON-RPC error (Apalache cannot parse
    or type the module, ...) is a UserError, so replay gives an ``error`` verdict.
    These are the same three booleans the embedded evaluator computes, hence the
    same verdicts.  The blame is coarser: the failing action call or invariant,
    located at its definition, without sub-formulas (Apalache gives none).

Types
    Apalache needs a type for each variable; it is inferred from the values:
    integers ``Int``, strings ``Str``, booleans ``Bool``, sets ``Set(T)``,
    sequences with one element type ``Seq(T)`` (else a tuple ``<<T1, ...>>``; a
    sequence in one state and a function on integers in another is ``Int -> T``),
    functions on strings whose values share one type ``Str -> T`` (else a record
    ``{f: T, ...}``; params are always records), other functions ``K -> V``.
    An element type no value shows (only empty sets) is ``Int``.  Model values
    have no Apalache form and are refused.  Functions are written with
    ``SetAsFun`` of the Apalache standard module.

Module metadata (variables, one-parameter operators, invariant definitions)
is read with tlaconf's parser; the bundle sent with ``loadSpec``
is the root module, the conformance module and every module it EXTENDS or
INSTANCEs found on the search path (Apalache provides the standard modules).

Not tested here: this project's test environment has no Apalache binary, so the
requests and the mapping of answers are tested against a local fake JSON-RPC
server replaying answers of the documented shapes, not against Apalache itself.
"""

from __future__ import annotations

import atexit
import base64
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from apalache_rpc.client import (
    InvariantSatisfied,
    InvariantStatus,
    InvariantViolated,
    JsonRpcClient,
    JsonRpcError,
    TransitionDisabled,
    TransitionEnabled,
)

from tlaconf.errors import UserError
from tlaconf.replay.backend import State
from tlaconf.replay.result import BlameNode
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.tla import ast
from tlaconf.tla.parser import parse_module
from tlaconf.values import Fn, ModelValue, to_tla

ROOT = "TlaconfApalache"
STANDARD_MODULES = frozenset(
    {"Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "TLC", "Bags", "Apalache",
     "Variants", "Option", "RealTime", "TLCExt", "SequencesExt", "FiniteSetsExt", "Functions"}
)  # fmt: skip
INSTALL_HINT = (
    "the apalache backend needs Apalache (https://apalache-mc.org/docs/apalache/installation/, "
    "Java 17+): put apalache-mc on PATH, or set APALACHE_MC=/path/to/apalache-mc, or set "
    "APALACHE_SERVER=http://localhost:8822 to use a server started with "
    "`apalache-mc server --server-type=explorer`"
)

# ---------------------------------------------------------------- types and literals

Type = tuple[Any, ...] | None
"""An Apalache type: ``("Int",)``, ``("Set", T)``, ``("Seq", T)``, ``("Tup", (T, ...))``,
``("Fun", K, V)``, ``("Rec", ((field, T), ...))``; None when no value shows it."""

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def infer(v: Any, record: bool = False) -> Type:
    """The Apalache type of the value ``v`` (``record``: a function on strings is a record)."""
    t = type(v)
    if t is bool:
        return ("Bool",)
    if t is int:
        return ("Int",)
    if t is str:
        return ("Str",)
    if t is frozenset:
        return ("Set", _unify_all([infer(x) for x in v]))
    if t is tuple:
        if not v:
            return None
        items = [infer(x) for x in v]
        try:
            return ("Seq", _unify_all(items))
        except UserError:
            return ("Tup", tuple(items))
    if t is Fn:
        keys = list(v)
        if all(type(k) is str for k in keys):
            values = [infer(v[k]) for k in keys]
            if not record:
                try:
                    return ("Fun", ("Str",), _unify_all(values))
                except UserError:
                    pass
            return ("Rec", tuple(sorted(zip(keys, values, strict=True))))
        key_type = _unify_all([infer(k) for k in keys])
        return ("Fun", key_type, _unify_all([infer(v[k]) for k in keys]))
    if t is ModelValue:
        raise UserError(f"model value {v.name} has no Apalache form (apalache backend)")
    raise UserError(f"{v!r} has no Apalache form (apalache backend)")


def unify(a: Type, b: Type) -> Type:
    """The one type of values typed ``a`` and ``b``; UserError when there is none."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if a[0] == b[0] == "Rec" and [f for f, _ in a[1]] == [f for f, _ in b[1]]:
        return ("Rec", tuple((f, unify(x, y)) for (f, x), (_, y) in zip(a[1], b[1], strict=True)))
    if a[0] == b[0] == "Tup" and len(a[1]) == len(b[1]):
        return ("Tup", tuple(unify(x, y) for x, y in zip(a[1], b[1], strict=True)))
    if a[0] == b[0] and a[0] in ("Set", "Seq"):
        return (a[0], unify(a[1], b[1]))
    if a[0] == b[0] == "Fun":
        return ("Fun", unify(a[1], b[1]), unify(a[2], b[2]))
    if {a[0], b[0]} in ({"Seq", "Fun"}, {"Tup", "Fun"}):
        # a function whose domain happened to be 1..n (a sequence value) in some state
        fun, other = (a, b) if a[0] == "Fun" else (b, a)
        items = [other[1]] if other[0] == "Seq" else list(other[1])
        return ("Fun", unify(fun[1], ("Int",)), _unify_all([fun[2], *items]))
    if {a[0], b[0]} == {"Seq", "Tup"}:
        seq, tup = (a, b) if a[0] == "Seq" else (b, a)
        return ("Seq", _unify_all([seq[1], *tup[1]]))
    raise UserError(
        f"values of types {type_text(a)} and {type_text(b)} have no common Apalache type"
    )


def _unify_all(types: list[Type]) -> Type:
    out: Type = None
    for t in types:
        out = unify(out, t)
    return out


def type_text(t: Type) -> str:
    """The type in Apalache's annotation syntax (unknown element types are ``Int``)."""
    if t is None:
        return "Int"
    head = t[0]
    if head in ("Int", "Str", "Bool"):
        return str(head)
    if head in ("Set", "Seq"):
        return f"{head}({type_text(t[1])})"
    if head == "Tup":
        return "<<" + ", ".join(type_text(x) for x in t[1]) + ">>"
    if head == "Fun":
        return f"({type_text(t[1])} -> {type_text(t[2])})"
    return "{" + ", ".join(f"{f}: {type_text(x)}" for f, x in t[1]) + "}"


def literal(v: Any, t: Type) -> str:
    """The value ``v`` as a TLA+ expression Apalache reads with the type ``t``."""
    if t is None:
        t = infer(v)
        if t is None:
            return to_tla(v)  # <<>>: the empty function
    if t[0] in ("Int", "Str", "Bool"):
        return to_tla(v)
    head = t[0]
    if head == "Set":
        return "{" + ", ".join(literal(x, t[1]) for x in sorted(v, key=to_tla)) + "}"
    if head == "Seq":
        return "<<" + ", ".join(literal(x, t[1]) for x in v) + ">>"
    if head == "Tup":
        return "<<" + ", ".join(literal(x, xt) for x, xt in zip(v, t[1], strict=True)) + ">>"
    items = list(v.items()) if type(v) is Fn else list(enumerate(v, start=1))
    if head == "Fun":
        pairs = ", ".join(f"<<{literal(k, t[1])}, {literal(x, t[2])}>>" for k, x in items)
        return f"SetAsFun({{{pairs}}})"
    fields = dict(t[1])
    for k, _ in items:
        if not (type(k) is str and _IDENT.match(k)):
            raise UserError(f"record field {k!r} is not a TLA+ identifier (apalache backend)")
    return "[" + ", ".join(f"{k} |-> {literal(x, fields[k])}" for k, x in items) + "]"


# ---------------------------------------------------------------- module text


@dataclass(frozen=True)
class ModuleText:
    """What the backend needs of a conformance module (read with tlaconf's parser)."""

    variables: tuple[str, ...]
    unary: tuple[str, ...]
    nullary: frozenset[str]
    lines: Mapping[str, int]
    bundle: tuple[str, ...]


def read_module(spec: ModuleSpec) -> ModuleText:
    """Variables, operator definitions and the source bundle of ``spec``'s module."""
    text = _read(spec.path)
    module = parse_module(text, str(spec.path))
    defs = module.definitions()
    arity = {name: len(d.params) for name, d in defs.items() if isinstance(d, ast.OpDef)}
    ops = list(arity)
    return ModuleText(
        variables=module.variables(),
        unary=tuple(sorted(n for n in ops if arity[n] == 1)),
        nullary=frozenset(n for n in ops if arity[n] == 0),
        lines={name: d.span.line for name, d in defs.items()},
        bundle=(text, *_dependencies(spec, module)),
    )


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None


def _imports(module: ast.Module) -> list[str]:
    """The modules ``module`` EXTENDS or instantiates (named or not)."""
    names = list(module.extends)
    for u in module.units:
        if isinstance(u, ast.Instance):
            names.append(u.module)
        elif isinstance(u, ast.InstanceDef):
            names.append(u.instance.module)
    return names


def _dependencies(spec: ModuleSpec, module: ast.Module) -> list[str]:
    """The texts of every non-standard module ``module`` depends on (transitively)."""
    texts: list[str] = []
    seen = {spec.name}
    todo = [module]
    while todo:
        for name in _imports(todo.pop()):
            if name in seen:
                continue
            seen.add(name)
            found = next((d / f"{name}.tla" for d in spec.search_path
                          if (d / f"{name}.tla").is_file()), None)  # fmt: skip
            if found is None:
                if name not in STANDARD_MODULES:
                    raise UserError(
                        f"module {name} (used by {spec.name}) is not on the search path"
                    )
                continue
            text = _read(found)
            texts.append(text)
            todo.append(parse_module(text, str(found)))
    return texts


def root_module(
    spec: ModuleSpec, variables: tuple[str, ...], state: State, *, next_: str,
    extra: tuple[str, ...] = (), also: tuple[State, ...] = (),
) -> str:  # fmt: skip
    """The text of the root module: typed variables, the instance, ``Init`` pinning ``state``."""
    types = {v: _unify_all([infer(s[v]) for s in (state, *also)]) for v in variables}
    decls = ",\n".join(f"  \\* @type: {type_text(types[v])};\n  {v}" for v in variables)
    binds = ", ".join(
        f"{c} <- {literal(val, infer(val))}" for c, val in sorted(spec.constants.items())
    )
    init = "\n".join(f"  /\\ {v} = {literal(state[v], types[v])}" for v in variables)
    lines = [
        f"---- MODULE {ROOT} ----",
        "EXTENDS Apalache",
        f"VARIABLES\n{decls}",
        f"INSTANCE {spec.name}" + (f" WITH {binds}" if binds else ""),
        f"TlaconfInit ==\n{init}",
        f"TlaconfNext == {next_}",
        *extra,
        "====",
    ]
    return "\n\n".join(lines) + "\n"


def pinned_next(variables: tuple[str, ...], state: State, also: tuple[State, ...]) -> str:
    """``TlaconfNotTarget``: the action invariant FALSE exactly in steps that reach ``state``."""
    types = {v: _unify_all([infer(s[v]) for s in (state, *also)]) for v in variables}
    eqs = " /\\ ".join(f"{v}' = {literal(state[v], types[v])}" for v in variables)
    return f"TlaconfNotTarget == ~({eqs})"


# ---------------------------------------------------------------- the server


class _Client(JsonRpcClient):
    """The explorer client, with ``loadSpec`` from texts and errors raised, not logged."""

    def load_texts(
        self, texts: tuple[str, ...], init: str, next_: str, invariants: list[str]
    ) -> dict[str, int]:
        """Open a session; the numbers of init/next transitions and state/action invariants."""
        response = self._rpc_call(
            "loadSpec",
            {
                "sources": [base64.b64encode(t.encode()).decode("ascii") for t in texts],
                "init": init,
                "next": next_,
                "invariants": invariants,
                "exports": [],
            },
        )
        self.session_id = response["sessionId"]
        params = response["specParameters"]

        def count(kind: str) -> int:
            # newer servers list the transitions/invariants, older ones give counts
            listed = params.get(f"{kind}s")
            if isinstance(listed, list):
                return len(listed)
            return int(params.get(f"n{kind[0].upper()}{kind[1:]}s", 0))

        kinds = ("initTransition", "nextTransition", "stateInvariant", "actionInvariant")
        return {kind: count(kind) for kind in kinds}

    def check_invariant(self, inv_id: int, kind: str) -> InvariantStatus:
        response = self._rpc_call(
            "checkInvariant",
            {"sessionId": self.session_id, "invariantId": inv_id, "kind": kind,
             "timeoutSec": self.solver_timeout},
        )  # fmt: skip
        return self._decode_check_invariant(inv_id, response)


def find_apalache() -> tuple[str | None, str | None]:
    """``(server URL, None)`` from ``APALACHE_SERVER``, or ``(None, apalache-mc path)``."""
    url = os.environ.get("APALACHE_SERVER")
    if url:
        return url, None
    candidates = [os.environ.get("APALACHE_MC"), shutil.which("apalache-mc")]
    home = os.environ.get("APALACHE_HOME")
    if home:
        candidates.append(str(Path(home) / "bin" / "apalache-mc"))
    explicit = os.environ.get("APALACHE_MC")
    if explicit and not (Path(explicit).is_file() and os.access(explicit, os.X_OK)):
        raise UserError(f"APALACHE_MC={explicit} is not an executable file; {INSTALL_HINT}")
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return None, c
    raise UserError(f"apalache-mc not found; {INSTALL_HINT}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Server:
    """An ``apalache-mc server --server-type=explorer`` this process started."""

    def __init__(self, executable: str) -> None:
        self.port = _free_port()
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server
        self.process = subprocess.Popen(
            [executable, "server", "--server-type=explorer", f"--port={self.port}"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        atexit.register(self.stop)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                err = self.log.read().decode(errors="replace")
                raise UserError(f"{executable} server exited with {self.process.returncode}: "
                                f"{err.strip()[-500:]}")  # fmt: skip
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise UserError(f"{executable} server did not start listening within 120 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------- the backend


class ApalacheModule:
    """A conformance module checked by Apalache, one session per question."""

    def __init__(self, backend: ApalacheBackend, spec: ModuleSpec) -> None:
        self._backend = backend
        self._spec = spec
        info = read_module(spec)
        self._info = info
        self.name = spec.name
        self.variables: tuple[str, ...] = info.variables
        self.actions: tuple[str, ...] = info.unary
        for inv in spec.invariants:
            if inv not in info.nullary:
                raise UserError(
                    f"INVARIANT {inv} is not an operator without parameters of module {self.name}"
                )
        self._invariants: tuple[Any, dict[str, bool]] | None = None

    def _blame(self, text: str, reason: str, op: str, params: Any = None) -> BlameNode:
        line = self._info.lines.get(op, 0)
        bindings = () if params is None else (("p", to_tla(params)),)
        return BlameNode(text, reason, str(self._spec.path) if line else "", line, 1 if line else 0,
                         line, 1 if line else 0, bindings)  # fmt: skip

    def _session(self, root: str, invariants: list[str]) -> tuple[_Client, dict[str, int], int]:
        """A session whose current state is the pinned one: client, counts, its snapshot."""
        client = self._backend.client()
        try:
            counts = client.load_texts((root, *self._info.bundle), "TlaconfInit", "TlaconfNext",
                                       invariants)  # fmt: skip
            if not any(
                isinstance(client.assume_transition(i, True), TransitionEnabled)
                for i in range(counts["initTransition"])
            ):
                raise UserError("Apalache finds no initial state equal to the trace's state")
            snapshot = client.next_step()
        except BaseException:
            self._backend.dispose(client)
            raise
        return client, counts, snapshot

    def check_action(
        self, action: str, params: Any, state: State, next_state: State
    ) -> BlameNode | None:
        call = f"{action}({literal(params, infer(params, record=True))})"
        return self._check_step(call, action, params, state, next_state)

    @property
    def has_next(self) -> bool:
        return NEXT in self._info.nullary

    def check_next(self, state: State, next_state: State) -> BlameNode | None:
        return self._check_step(NEXT, NEXT, None, state, next_state)

    def _check_step(
        self, call: str, action: str, params: Any, state: State, next_state: State
    ) -> BlameNode | None:
        """None when some transition of ``call`` leads from ``state`` to ``next_state``."""
        also = (next_state,)
        root = root_module(self._spec, self.variables, state, next_=call, also=also,
                           extra=(pinned_next(self.variables, next_state, (state,)),))  # fmt: skip
        with self._backend.call(f"checking {action}"):
            client, counts, snapshot = self._session(root, ["TlaconfNotTarget"])
            try:
                for t in range(counts["nextTransition"]):
                    status = client.assume_transition(t, True)
                    if isinstance(status, TransitionDisabled):
                        continue
                    if not isinstance(status, TransitionEnabled):
                        raise UserError(f"Apalache cannot decide whether {action} is enabled "
                                        "(UNKNOWN: solver timeout?)")  # fmt: skip
                    result = client.check_invariant(0, "ACTION")
                    if isinstance(result, InvariantViolated):
                        return None
                    if not isinstance(result, InvariantSatisfied):
                        raise UserError(f"Apalache cannot decide whether {action} reaches the "
                                        "next state (UNKNOWN: solver timeout?)")  # fmt: skip
                    client.rollback(snapshot)
            finally:
                self._backend.dispose(client)
        text = action if params is None else f"{action}(p)"
        return self._blame(text, "is FALSE: no transition of it leads from s to s' "
                           "(Apalache)", action, params)  # fmt: skip

    def enabled(self, action: str, params: Any, state: State) -> bool:
        call = f"{action}({literal(params, infer(params, record=True))})"
        root = root_module(self._spec, self.variables, state, next_=call)
        with self._backend.call(f"checking ENABLED {action}"):
            client, counts, _ = self._session(root, [])
            try:
                for t in range(counts["nextTransition"]):
                    status = client.assume_transition(t, True)
                    if isinstance(status, TransitionEnabled):
                        return True
                    if not isinstance(status, TransitionDisabled):
                        raise UserError(f"Apalache cannot decide whether {action} is enabled "
                                        "(UNKNOWN: solver timeout?)")  # fmt: skip
            finally:
                self._backend.dispose(client)
        return False

    def start_trace(self) -> None:
        """Each Apalache query is its own session: nothing carries over between traces."""

    def check_invariant(self, name: str, state: State) -> BlameNode | None:
        key = tuple(sorted((v, to_tla(state[v])) for v in self.variables if v in state))
        if self._invariants is None or self._invariants[0] != key:
            self._invariants = (key, self._all_invariants(state))
        if self._invariants[1][name]:
            return None
        return self._blame(name, "is FALSE in this state (Apalache)", name)

    def _all_invariants(self, state: State) -> dict[str, bool]:
        invariants = list(self._spec.invariants)
        unchanged = "UNCHANGED <<" + ", ".join(self.variables) + ">>"
        root = root_module(self._spec, self.variables, state, next_=unchanged)
        out: dict[str, bool] = {}
        with self._backend.call("checking invariants"):
            client, counts, _ = self._session(root, invariants)
            try:
                if counts["stateInvariant"] != len(invariants):
                    raise UserError(f"Apalache sees {counts['stateInvariant']} state invariants, "
                                    f"expected {len(invariants)} ({', '.join(invariants)})")
                for i, inv in enumerate(invariants):
                    result = client.check_invariant(i, "STATE")
                    if not isinstance(result, InvariantSatisfied | InvariantViolated):
                        raise UserError(f"Apalache cannot decide invariant {inv} "
                                        "(UNKNOWN: solver timeout?)")  # fmt: skip
                    out[inv] = isinstance(result, InvariantSatisfied)
            finally:
                self._backend.dispose(client)
        return out


class _Call:
    """Turns JSON-RPC and connection errors into UserErrors naming what was being done."""

    def __init__(self, url: str, what: str) -> None:
        self.url = url
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if isinstance(exc, JsonRpcError):
            if exc.code == -3:
                raise UserError(f"cannot reach the Apalache server at {self.url}: {exc.message}")
            raise UserError(f"Apalache, {self.what}: {exc.message}") from None
        if isinstance(exc, KeyError | TypeError | ValueError) and not isinstance(exc, UserError):
            raise UserError(f"Apalache, {self.what}: unexpected answer ({exc!r})") from None


class ApalacheBackend:
    """Check steps with Apalache's explorer server (see the module docstring)."""

    name = "apalache"

    def __init__(self) -> None:
        self._url, self._executable = find_apalache()
        self._server: _Server | None = None
        timeout = os.environ.get("APALACHE_TIMEOUT", "600")
        if not timeout.isdigit():
            raise UserError(f"APALACHE_TIMEOUT={timeout} is not a number of seconds")
        self._timeout = int(timeout)

    @property
    def url(self) -> str:
        if self._url is None:
            assert self._executable is not None
            self._server = _Server(self._executable)
            self._url = f"http://127.0.0.1:{self._server.port}"
        return self._url

    def client(self) -> _Client:
        parsed = urlparse(self.url)
        if parsed.scheme != "http" or not parsed.hostname:
            raise UserError(f"APALACHE_SERVER={self.url} is not an http://host:port URL")
        return _Client(parsed.hostname, parsed.port or 8822, solver_timeout=self._timeout,
                       load_spec_timeout=self._timeout)  # fmt: skip

    def call(self, what: str) -> _Call:
        return _Call(self.url, what)

    @staticmethod
    def dispose(client: _Client) -> None:
        client.dispose_spec()
        client.close()

    def load(self, spec: ModuleSpec) -> ApalacheModule:
        return ApalacheModule(self, spec)

    def close(self) -> None:
        """Stop the server this backend started (if any); also done at exit."""
        if self._server is not None:
            self._server.stop()
