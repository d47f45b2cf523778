"""TLC on a trace-validation spec, as it is: ``tlaconf validate --cross-check tlc``.

TLC runs the spec under its ``.cfg`` in the spec's folder (where its relative paths
point), with the environment variables ``IOEnv`` reads, ``-workers 1`` (trace specs
assume one worker) and ``-tool`` output, the library's folders in ``-DTLA-Library`` and
its jars (the community modules with their Java overrides) on the class path.  Its
verdict is read from TLC's exit status and message codes:

* 0 with "no error" (2193): ``accepted``;
* 10 with a false ``POSTCONDITION`` (2404), 11 (deadlock), 12 (an invariant), 13 (a
  property): ``rejected``;
* anything else (an evaluation error, a parse error, a crash, a timeout): TLC did not
  decide; its first error message is kept.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tlaconf import signals
from tlaconf.errors import CheckerFailed
from tlaconf.replay.tlc.process import Tlc, depth_and_states, framed
from tlaconf.tla.library import is_jar
from tlaconf.trace.export import JAVA_OPTIONS

_REJECTED = {11, 12, 13}


@dataclass(frozen=True)
class TlcVerdict:
    """``verdict``: ``accepted``, ``rejected`` or ``failed`` (with TLC's ``message``)."""

    verdict: str
    depth: int | None
    distinct: int | None
    message: str = ""


def run_trace_spec(tlc: Tlc, tla: Path, cfg: Path | None, library: Sequence[Path],
                   env: Mapping[str, str], options: Sequence[str] = ()) -> TlcVerdict:
    """TLC's verdict on the trace spec ``tla`` under ``cfg`` (default: beside it)."""
    config = (cfg or tla.with_suffix(".cfg")).resolve()
    with tempfile.TemporaryDirectory(prefix="tlaconf-tlc-") as tmp:
        command = [
            tlc.java, *JAVA_OPTIONS, *tlc.java_options,
            "-DTLA-Library=" + os.pathsep.join(str(d.resolve()) for d in library
                                               if not is_jar(d)),
            "-cp", os.pathsep.join([str(tlc.jar), *(str(d.resolve()) for d in library
                                                    if is_jar(d))]),
            "tlc2.TLC", "-tool", "-workers", "1", "-metadir", str(Path(tmp) / "states"),
            *options, "-config", str(config), tla.name,
        ]  # fmt: skip
        try:
            done = signals.run(command, cwd=tla.resolve().parent, env={**os.environ, **env},
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, errors="replace",
                               timeout=tlc.timeout)
        except subprocess.TimeoutExpired:
            raise CheckerFailed(f"TLC gave no answer within {tlc.timeout:g} s "
                                "(TLC_TIMEOUT)") from None
        except OSError as err:
            raise CheckerFailed(f"cannot run {tlc.java}: {err.strerror}") from None
    return read_verdict(done.returncode, done.stdout, done.stderr)


def read_verdict(status: int, stdout: str, stderr: str = "") -> TlcVerdict:
    """TLC's verdict from its exit status and ``-tool`` output."""
    messages = framed(stdout)
    codes = {code for code, _, _ in messages}
    depth, distinct = depth_and_states(messages)
    errors = [body for code, cls, body in messages if cls == 1 and code != 2121]
    if status == 0 and 2193 in codes:
        return TlcVerdict("accepted", depth, distinct)
    if status in _REJECTED or (status == 10 and 2404 in codes):
        return TlcVerdict("rejected", depth, distinct, errors[0] if errors else "")
    said = errors[0] if errors else (stderr.strip().splitlines() or ["no message"])[-1]
    return TlcVerdict("failed", depth, distinct, f"exit status {status}: {said}")
