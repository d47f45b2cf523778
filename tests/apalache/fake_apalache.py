"""A fake Apalache explorer server (JSON-RPC over HTTP on 127.0.0.1) that answers like 0.62.1.

It behaves as the real server does in the exchanges recorded from Apalache
0.62.1 (``apalache-mc server --server-type=explorer``):

* ``loadSpec`` parses the sources; Apalache's type checker (Snowcat) refuses
  string concatenation (``\\o``: its strings are not sequences) and a definition
  that applies or accesses a parameter (``d.countAll``, ``f[x]``, ``DOMAIN p``)
  without a ``@type`` annotation ("Cannot apply d to the argument ...", then
  "Error when computing the type of D"), and the fake answers those with the
  real error's code and shape (code 120, ``Failed to load specification:
  PassFailure(TypeCheckerSnowcat,[["File.tla:l:c-l:c","message"], ...],120)``);
  the transitions and invariants are listed with their labels;
* ``assumeTransition`` with ``checkEnabled`` really decides (with tlaconf's
  evaluator, on the concrete states tlaconf's root modules pin): ENABLED,
  or DISABLED and back to the snapshot before; ``nextStep`` moves on;
* ``checkInvariant`` answers SATISFIED without looking at step 0, and for an
  ACTION invariant at step 1 (the real server's shortcut), otherwise decides; a STATE
  invariant is asked in the state of the last ``nextStep`` (tlaconf asks a rejected step's
  guard there, before the step); an invariant is split into its top-level conjuncts, one
  invariant each with the invariant's label, also through the operator it applies (a
  guard ``TlaconfG<k>:: (TlaconfGuard_A(p))`` is one invariant per conjunct of
  ``TlaconfGuard_A``'s body);
* ``rollback`` and ``disposeSpec`` as documented.

* more than one ``@type`` in the comments before a declaration (a left-out
  definition's annotation left behind) is refused, with the real (internal)
  error: ``type input error: Found 3 @type annotations in front of some
  declaration``;
* a parameter a method does not take is refused, with the real server's
  (Jackson's) message: ``loadSpec`` takes no ``timeoutSec``;
* an action whose ``@type`` has a row variable applied to a literal with an empty
  collection (``Observe([seat |-> "A", view |-> SetAsFun({})])``) is refused: Snowcat
  leaves the collection's type open, and the real server answers an internal error,
  ``Unexpected expressions in the specification`` (tlaconf sends such params as an
  annotated definition, ``TlaconfP<k>``).
* an ``UNCHANGED`` after ``Next`` in a transition (a step checked against ``Next``)
  is refused, with the real (internal) error: ``Assignment error: ...: Manual
  assignment is spurious, x is already assigned!`` (``Next`` assigns ``x'`` first);
* a ``LAMBDA`` that does not use a parameter (``MkSeq(n, LAMBDA k: S)``) is refused
  after Snowcat, as the real model checker refuses the type variable left for it:
  ``Internal error: Unexpected expressions in the specification``.

``unknown`` makes chosen questions answer UNKNOWN (a solver timeout): a set of
``(method, label or invariant index)``; ``hang`` makes chosen methods never
answer (a server stuck in Snowcat or the solver).  Run as a script
(``fake_apalache.py server --server-type=explorer --port=N``) it stands in for
the ``apalache-mc`` executable; it then appends ``{"cwd": ..., "pid": ...}`` (its
working folder and process id) to ``$FAKE_APALACHE_LOG`` when that is set, and
hangs on the methods of ``$FAKE_APALACHE_HANG`` (comma-separated; only the first
time when ``$FAKE_APALACHE_HANG_ONCE`` names a file to create).
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate import load_module
from tlaconf.replay.apalache.annotations import applied_uses, untyped
from tlaconf.tla import ast
from tlaconf.tla.parser import parse_module
from tlaconf.tla.visit import free_names, iter_nodes

HERE = Path(__file__).parent
_MODULE = re.compile(r"MODULE\s+([A-Za-z0-9_]+)")
_DISJUNCT = re.compile(r"^  \\/ (?:([A-Za-z0-9_]+):: )?(.*)$", re.M)
"""A disjunct of TlaconfNext: ``L:: Op`` (an operator of the root) or ``L:: (formula)``."""
_CONCAT = re.compile(r'\\o\s*"|"\s*\\o\b')
"""String concatenation (an operand is a string literal): Apalache's type checker refuses it."""


@dataclass
class Session:
    ctx: Any
    variables: tuple[str, ...]
    init: dict[str, str]
    transitions: list[tuple[str | None, str]]
    invariants: list[tuple[str, str | None, bool]]  # (name, label, is an action invariant)
    step: int = 0
    state: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    snapshots: dict[int, tuple[int, Any, Any]] = field(default_factory=dict)


PARAMS = {
    "loadSpec": ("LoadSpecParams", {"init", "next", "format", "sources", "exports", "invariants"}),
    "assumeTransition": ("AssumeTransitionParams",
                         {"sessionId", "transitionId", "checkEnabled", "timeoutSec"}),
    "nextStep": ("NextStepParams", {"sessionId"}),
    "checkInvariant": ("CheckInvariantParams",
                       {"sessionId", "invariantId", "kind", "timeoutSec"}),
    "rollback": ("RollbackParams", {"sessionId", "snapshotId"}),
    "disposeSpec": ("DisposeSpecParams", {"sessionId"}),
}  # fmt: skip
"""The fields each method takes; the real server refuses any other (Jackson's message)."""


def _check_params(method: str, params: dict[str, Any]) -> None:
    if method not in PARAMS:
        return
    cls, known = PARAMS[method]
    for name in params:
        if name not in known:
            listed = ", ".join(f'"{k}"' for k in sorted(known))
            raise RpcError(-32602, f'Parse error in {method}: Unrecognized field "{name}" (class '
                           f"com.github.apalachemc.apalache.jsonrpc.{cls}), not marked as "
                           f"ignorable ({len(known)} known properties: {listed}])")  # fmt: skip


PASSES = (
    "PASS #0: SanyParser", "PASS #1: TypeCheckerSnowcat", "PASS #2: ConfigurationPass",
    "PASS #3: DesugarerPass", "PASS #4: InlinePass", "PASS #5: TemporalPass",
    "PASS #6: InlinePass", "PASS #7: PrimingPass", "PASS #8: VCGen", "PASS #9: PreprocessingPass",
    "PASS #10: TransitionFinderPass", "PASS #11: OptimizationPass", "PASS #12: AnalysisPass",
    "PASS #13: BoundedChecker",
)  # fmt: skip
"""The passes the real server logs (on its standard output) while it loads a specification."""


class FakeApalache:
    """A JSON-RPC server; ``requests`` lists ``(method, params)`` in arrival order."""

    def __init__(self, port: int = 0) -> None:
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.sources: dict[str, list[str]] = {}
        self.labels: dict[str, list[str | None]] = {}
        """The label of each transition of each session (kept after ``disposeSpec``)."""
        self.sessions: dict[str, Session] = {}
        self.unknown: set[tuple[str, str]] = set()
        self.errors: dict[tuple[str, str], str] = {}
        """``(method, label or invariant name)`` -> the internal error (-32603) it answers: the
        real model checker's refusals, such as ``Expected a constant integer expression``."""
        self.hang: set[str] = set()
        """Methods that get no answer (until the fake is closed): a server that is stuck."""
        self.hang_once: Path | None = None
        """With ``hang``: hang only when this file does not exist yet (the fake creates it)."""
        self._closed = threading.Event()
        self.print_log = False
        """Print the passes of each ``loadSpec`` to stdout, as the real server does."""
        self._count = 0
        self._snapshot = 0
        self._folders: list[Path] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                request = json.loads(body)
                reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request["id"]}
                stuck = fake._stuck(request["method"])
                if request["method"] == "loadSpec":
                    fake.log(PASSES[:2] if stuck else PASSES)
                if stuck:
                    fake._closed.wait()  # as a server stuck in Snowcat or the solver
                    return
                try:
                    with fake._lock:
                        reply["result"] = fake.answer(request["method"], request["params"])
                except RpcError as err:
                    reply["error"] = {"code": err.code, "message": err.message}
                except Exception as err:  # the real server answers internal errors too
                    reply["error"] = {"code": -32603, "message": f"Internal error: {err}"}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def _stuck(self, method: str) -> bool:
        if method not in self.hang:
            return False
        if self.hang_once is not None:
            if self.hang_once.exists():
                return False
            self.hang_once.write_text(method)
        return True

    def log(self, lines: tuple[str, ...]) -> None:
        """What the real server prints while it loads a specification (its passes)."""
        if self.print_log:
            print("\n".join(lines), flush=True)

    def close(self) -> None:
        self._closed.set()
        self.server.shutdown()
        self.server.server_close()
        for folder in self._folders:  # the modules each session loaded
            shutil.rmtree(folder, ignore_errors=True)

    def methods(self) -> list[str]:
        return [m for m, _ in self.requests]

    def root(self, session: str | None = None) -> str:
        """The root module of ``session`` (default: the last one loaded)."""
        key = session or list(self.sources)[-1]
        return self.sources[key][0]

    def _take(self, s: Session) -> int:
        self._snapshot += 1
        s.snapshots[self._snapshot] = (s.step, s.state, s.pending)
        return self._snapshot

    # ------------------------------------------------------------------ methods

    def answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.requests.append((method, params))
        _check_params(method, params)
        if method == "loadSpec":
            return self._load(params)
        sid = params.get("sessionId")
        s = self.sessions.get(sid)  # type: ignore[arg-type]
        if s is None:
            raise RpcError(-32602, f"Invalid params: unknown session {sid}")
        if method == "assumeTransition":
            return self._assume(sid, s, int(params["transitionId"]), params["checkEnabled"])
        if method == "nextStep":
            if s.pending is None:
                raise RpcError(-32603, "nextStep without an enabled transition")
            s.state, s.pending, s.step = s.pending, None, s.step + 1
            return {"sessionId": sid, "snapshotId": self._take(s), "newStepNo": s.step}
        if method == "checkInvariant":
            return self._invariant(sid, s, int(params["invariantId"]), params["kind"])
        if method == "rollback":
            s.step, s.state, s.pending = s.snapshots[int(params["snapshotId"])]
            return {"sessionId": sid, "snapshotId": params["snapshotId"]}
        if method == "disposeSpec":
            del self.sessions[sid]  # type: ignore[arg-type]
            return {"sessionId": sid}
        raise RpcError(-32601, f"Method not found: {method}")

    def _load(self, params: dict[str, Any]) -> dict[str, Any]:
        texts = [base64.b64decode(t).decode() for t in params["sources"]]
        errors = []
        for text in texts:
            name = _MODULE.search(text).group(1)  # type: ignore[union-attr]
            for n, line in enumerate(text.split("\n"), start=1):
                for m in _CONCAT.finditer(line.split("\\*", 1)[0]):
                    errors.append(f'["{name}.tla:{n}:{m.start() + 1}-{n}:{m.end()}","An operator '
                                  "with the signature ((Seq(a1), Seq(a1)) => Seq(a1)) cannot be "
                                  'applied to the provided arguments of type Str and Str"]')
            errors += _untyped(name, text)
            crowded = _crowded(text)
            if crowded is not None:
                line, end, count = crowded
                raise RpcError(-32603, f"Internal error: {name}.tla:{line}:1-{end}: type input "
                               f"error: Found {count} @type annotations in front of some "
                               "declaration")  # fmt: skip
        if errors:
            raise RpcError(120, "Failed to load specification: PassFailure(TypeCheckerSnowcat,"
                           f"[{','.join(errors)}],120)")
        if _open_empty(texts):
            raise RpcError(-32603, "Internal error: Unexpected expressions in the specification "
                           "(see the error messages)")  # fmt: skip
        if any(_polymorphic_lambda(text) for text in texts):  # past Snowcat, in the model checker
            raise RpcError(-32603, "Internal error: Unexpected expressions in the specification "
                           "(see the error messages)")
        folder = Path(tempfile.mkdtemp(prefix="fake-apalache-"))
        self._folders.append(folder)
        for text in texts:
            name = _MODULE.search(text).group(1)  # type: ignore[union-attr]
            (folder / f"{name}.tla").write_text(text)
        root_name = _MODULE.search(texts[0]).group(1)  # type: ignore[union-attr]
        root = texts[0]
        next_text = root.split("TlaconfNext ==", 1)[1].split("\n====", 1)[0]
        bodies = dict(re.findall(r"^([A-Za-z0-9_]+) == (.*)$", root, re.M))
        transitions = [(label, bodies.get(d) or d.removeprefix("(").removesuffix(")"))
                       for label, d in _DISJUNCT.findall(next_text)]  # fmt: skip
        spurious = _spurious(root_name, root)
        if spurious is not None:
            raise RpcError(-32603, f"Internal error: Assignment error: {spurious}")
        ops = "\n".join(f"FakeT{i} == {body}" for i, (_, body) in enumerate(transitions))
        (folder / f"{root_name}.tla").write_text(root.replace("\n====", f"\n{ops}\n====", 1))
        try:
            ctx = load_module(folder / f"{root_name}.tla", (folder, HERE), {})
        except UserError as err:
            raise RpcError(
                120, f"Failed to load specification: PassFailure(SanyParser,{err},120)"
            ) from None
        init_text = root.split("TlaconfInit ==", 1)[1].split("\n\n", 1)[0]
        init = dict(part.split(" = ", 1) for part in (p.strip() for p in init_text.split(" /\\ ")))
        parts: list[list[tuple[str, str | None, bool]]] = []
        for name in params["invariants"]:
            if ctx.ns.lookup(name) is None:
                raise RpcError(120, f"Failed to load specification: operator {name} not found")
            label, count, action = _conjuncts(texts, name)
            parts.append([(name, label, action)] * count)
        # one state invariant per conjunct, interleaved (the real server's order for
        # invariants of 2 and 1 conjuncts is: 1st of the 1st, 1st of the 2nd, 2nd of the 1st)
        invariants = [p[k] for k in range(max(map(len, parts), default=0)) for p in parts
                      if k < len(p)]  # fmt: skip
        self._count += 1
        sid = format(self._count, "x")
        self.sources[sid] = texts
        self.labels[sid] = [label or None for label, _ in transitions]
        s = Session(ctx, tuple(ctx.variables), init, transitions, invariants)
        self.sessions[sid] = s
        spec = {
            "initTransitions": [{"index": 0, "labels": []}],
            "nextTransitions": [{"index": i, "labels": [label] if label else []}
                                for i, (label, _) in enumerate(transitions)],
            "stateInvariants": [{"index": i, "labels": [lb] if lb else []} for i, (_, lb, _)
                                in enumerate(i for i in invariants if not i[2])],
            "actionInvariants": [{"index": i, "labels": [lb] if lb else []} for i, (_, lb, _)
                                 in enumerate(i for i in invariants if i[2])],
        }  # fmt: skip
        return {"sessionId": sid, "snapshotId": self._take(s), "specParameters": spec}

    def _assume(self, sid: str, s: Session, t: int, check: bool) -> dict[str, Any]:
        before = self._take(s)
        if s.step == 0:
            successor: dict[str, Any] | None = {v: s.ctx.evaluate(e) for v, e in s.init.items()}
            label = "Init"
        else:
            label = s.transitions[t][0] or f"T{t}"
            successor = self._successor(s, t)
        if ("assumeTransition", label) in self.errors:
            raise RpcError(-32603, f"Internal error: {self.errors['assumeTransition', label]}")
        if ("assumeTransition", label) in self.unknown:
            s.pending = successor
            return {"sessionId": sid, "snapshotId": self._take(s), "transitionId": t,
                    "status": "UNKNOWN"}  # fmt: skip
        if successor is None:
            return {"sessionId": sid, "snapshotId": before, "transitionId": t,
                    "status": "DISABLED"}  # fmt: skip
        s.pending = successor
        return {"sessionId": sid, "snapshotId": self._take(s), "transitionId": t,
                "status": "ENABLED" if check else "UNKNOWN"}  # fmt: skip

    def _successor(self, s: Session, t: int) -> dict[str, Any] | None:
        """The state transition ``t`` leads to (pinned in its text), or None when disabled."""
        assert s.state is not None
        parts = [p.strip() for p in s.transitions[t][1].split(" /\\ ")]
        pinned = {p.split("' = ", 1)[0]: p.split("' = ", 1)[1] for p in parts
                  if re.match(r"[A-Za-z_][A-Za-z0-9_]*' = ", p)}  # fmt: skip
        target = {v: s.ctx.evaluate(pinned[v]) for v in s.variables if v in pinned}
        for p in parts:  # UNCHANGED <<x, y>> or UNCHANGED x (the stuttering TlaconfS0)
            if p.startswith("UNCHANGED "):
                kept = p.removeprefix("UNCHANGED ").strip("<>").split(",")
                target.update({v.strip(): s.state[v.strip()] for v in kept
                               if v.strip() in s.state and v.strip() not in target})  # fmt: skip
        if len(target) == len(s.variables):
            return target if s.ctx.holds(f"FakeT{t}", (), s.state, target) else None
        # not pinned (a probe): enabled is all that is asked; its successor is not used
        return {} if s.ctx.enabled(f"FakeT{t}", (), s.state) else None

    def _invariant(self, sid: str, s: Session, i: int, kind: str) -> dict[str, Any]:
        pool = [name for name, _, action in s.invariants if action == (kind == "ACTION")]
        name = pool[i]
        if s.step == 0 or (s.step == 1 and kind == "ACTION"):
            status = "SATISFIED"  # the real server answers this without solving
        elif ("checkInvariant", name) in self.errors:
            raise RpcError(-32603, f"Internal error: {self.errors['checkInvariant', name]}")
        elif ("checkInvariant", name) in self.unknown:
            status = "UNKNOWN"
        elif kind == "ACTION" and s.pending is None:  # asked after nextStep, as the real one says
            raise RpcError(-32603, f"Internal error: SubstRule: Variable {s.variables[0]}' is "
                           "not assigned a value")  # fmt: skip
        else:
            after = s.pending if kind == "ACTION" else None
            status = "SATISFIED" if s.ctx.holds(name, (), s.state, after) else "VIOLATED"
        trace = None if status != "VIOLATED" else {"vars": list(s.variables), "states": []}
        return {"sessionId": sid, "invariantStatus": status, "trace": trace}


def _where(module: str, span: ast.Span) -> str:
    return f"{module}.tla:{span.line}:{span.col}-{span.end_line}:{span.end_col}"


def _source(text: str, span: ast.Span) -> str:
    lines = text.split("\n")[span.line - 1 : span.end_line]
    lines[-1] = lines[-1][: span.end_col]
    lines[0] = lines[0][span.col - 1 :]
    return " ".join(" ".join(lines).split())


def _untyped(module: str, text: str) -> list[str]:
    """Snowcat's errors for the definitions that apply a parameter without a @type annotation."""
    try:
        tree = parse_module(text, f"{module}.tla")
    except UserError:
        return []  # the parser's error comes later
    out = []
    for unit, _ in untyped(tree, text, f"{module}.tla"):
        for param, node in applied_uses(unit):
            if isinstance(node, ast.Dot):
                arg, use = f'"{node.field_name}"', f'{param}["{node.field_name}"]'
            elif isinstance(node, ast.FnApp):
                arg = ", ".join(_source(text, a.span) for a in node.args)
                use = f"{param}[{arg}]"
            else:
                arg, use = param, _source(text, node.span)
            message = f"Cannot apply {param} to the argument {arg} in {use}."
            out.append(json.dumps([_where(module, node.span), message]))
        what = f"Error when computing the type of {unit.name}"
        out.append(json.dumps([_where(module, unit.span), what]))
    return out


def _conjuncts(texts: list[str], name: str) -> tuple[str | None, int, bool]:
    """``(label, conjuncts, has primes)`` of invariant ``name``: Apalache checks each top-level
    conjunct (operators inlined; the fake looks one name deep) as an invariant of its own."""
    body = next((d for d in (_definition(t, name) for t in texts) if d), "")
    labelled = re.fullmatch(r"\s*([A-Za-z0-9_]+):: \((.*)\)\s*", body, re.S)
    label, inner = (labelled.group(1), labelled.group(2)) if labelled else (None, body)
    called = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)(\(.*\))?\s*", inner, re.S)
    if called:  # an operator (a guard is an operator applied to the step's params)
        inner = next((d for d in (_definition(t, called.group(1)) for t in texts) if d), inner)
    lines = [line for line in inner.split("\n") if line.strip()]
    first = lines[0] if lines else ""
    count = _infix_conjuncts(inner) if len(lines) == 1 else 1
    if first.lstrip().startswith("/\\"):
        column = len(first) - len(first.lstrip())
        count = sum(1 for line in lines if line[column:].startswith("/\\")
                    and len(line) - len(line.lstrip()) == column)  # fmt: skip
    return label, count, _primed(texts, body + inner)


def _infix_conjuncts(text: str) -> int:
    """How many conjuncts ``a /\\ b /\\ c`` on one line has (outside brackets and strings)."""
    depth, count, quoted, i = 0, 1, False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            quoted = c != '"' or text[i - 1] == "\\"
        elif c == '"':
            quoted = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith("/\\", i):
            count += 1
        i += 1
    return count


def _primed(texts: list[str], text: str) -> bool:
    """Whether ``text`` or a definition it names, directly or not, has a prime or an
    ``UNCHANGED`` (Apalache
    inlines every operator: a step's ``TlaconfA<k>:: (Next)`` is an action invariant)."""
    seen: set[str] = set()
    todo = [text]
    while todo:
        body = todo.pop()
        if "'" in body or re.search(r"\bUNCHANGED\b", body):
            return True
        code = re.sub(r'"[^"]*"|\\\*[^\n]*', "", body)  # names, not strings or comments
        for name in set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", code)) - seen:
            seen.add(name)
            todo += [d for d in (_definition(t, name) for t in texts) if d]
    return False


_ROW = re.compile(r"^\\\* @type: \((.*, [a-z][A-Za-z0-9]*\}.*)\) => Bool;\n([A-Za-z0-9_]+)\(", re.M)
"""An action whose ``@type`` has a row variable (``{f: T, a}``)."""
_EMPTY = re.compile(r"\{\}|<<>>")


def _open_empty(texts: list[str]) -> bool:
    """Whether the root applies an action whose ``@type`` has a row variable to a literal
    holding an empty collection: Snowcat leaves the collection's type open ("Expected a
    non-polymorphic type ... You may need to annotate an empty collection"), and the real
    server refuses the specification with an internal error."""
    open_rows = {m.group(2) for t in texts[1:] for m in _ROW.finditer(t)}
    calls = re.findall(r"\b([A-Za-z0-9_]+)\((\[.*?\])\)\)?$", texts[0], re.M)
    return any(name in open_rows and _EMPTY.search(arg) for name, arg in calls)


def _polymorphic_lambda(text: str) -> bool:
    """Whether a ``LAMBDA`` does not use one of its parameters, or is the identity
    (``LAMBDA k: k``): Snowcat leaves that parameter's type a variable, and the model
    checker refuses it ("Expected a non-polymorphic type, found: ((a1158) => Set(Int))",
    "... found: ((a685) => a685)" in the server's log)."""
    try:
        tree = parse_module(text, "M.tla")
    except UserError:
        return False
    return any(isinstance(n, ast.Lambda)
               and (set(n.params) - {name for name, _ in free_names(n.body, set())}
                    or (isinstance(n.body, ast.Name) and n.body.name in n.params))
               for n in iter_nodes(tree))  # fmt: skip


def _crowded(text: str) -> tuple[int, str, int] | None:
    """The first declaration with more than one ``@type`` in the comments before it (since the
    previous one): ``(line, "end line:end column", count)``.  Snowcat refuses it."""
    lines = text.split("\n")
    count = 0
    for n, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("\\*") or stripped.startswith("(*"):
            count += len(re.findall(r"@type:", stripped))
            continue
        if count > 1 and re.match(r"[A-Za-z_][A-Za-z0-9_]*(\(.*\))?\s*==", line):
            return n, f"{n}:{len(line)}", count
        count = 0
    return None


def _spurious(module: str, root: str) -> str | None:
    """The real server's assignment error for an ``UNCHANGED`` after ``Next`` in a
    transition (``Next`` assigns every variable; ``UNCHANGED x`` is ``x' := x`` then)."""
    for n, line in enumerate(root.split("\n"), start=1):
        after = line.find(" /\\ Next /\\ ")
        m = re.compile(r"UNCHANGED <<([A-Za-z_][A-Za-z0-9_]*)[^>]*>>").search(line, after + 1)
        if after >= 0 and m is not None:
            return (f"{module}.tla:{n}:{m.start() + 1}-{n}:{m.end()}: Manual assignment is "
                    f"spurious, {m.group(1)} is already assigned! See "
                    "https://apalache-mc.org/docs/apalache/principles/assignments.html")
    return None


def _definition(text: str, name: str) -> str:
    found = re.search(rf"^{name}\b.*?==(.*?)(?=^\S|\Z)", text, re.M | re.S)
    return found.group(1) if found else ""


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def fake_executable(folder: Path) -> Path:
    """An ``apalache-mc`` in ``folder`` that runs this fake as its server (see the module doc)."""
    script = folder / "apalache-mc"
    script.write_text(f"#!{sys.executable}\nimport runpy, sys\nsys.path.insert(0, {str(HERE)!r})\n"
                      f"runpy.run_path({str(HERE / 'fake_apalache.py')!r}, run_name='__main__')\n")
    script.chmod(script.stat().st_mode | 0o100)
    return script


def started(log: Path) -> list[dict[str, Any]]:
    """The servers the fake executable started (``$FAKE_APALACHE_LOG``): cwd and pid of each."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


if __name__ == "__main__":
    port = next(int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--port="))
    log = os.environ.get("FAKE_APALACHE_LOG")
    if log:  # one line per server started: its working folder and process id
        with open(log, "a") as f:
            f.write(json.dumps({"cwd": os.getcwd(), "pid": os.getpid()}) + "\n")
    server = FakeApalache(port=port)
    server.hang = set(filter(None, os.environ.get("FAKE_APALACHE_HANG", "").split(",")))
    once = os.environ.get("FAKE_APALACHE_HANG_ONCE")
    server.hang_once = Path(once) if once else None
    server.print_log = True
    server._thread.join()
