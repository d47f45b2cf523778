"""Running TLC: finding Java and ``tla2tools.jar``, one run on one module, its outcome.

TLC runs as ``java -XX:+UseParallelGC -DTLA-Library=<search path> -cp $TLC_JAR[:jars]
tlc2.TLC -tool -workers 1 -metadir <private dir> -config X.cfg X.tla`` in a
private temporary folder (the folders of the search path in ``-DTLA-Library``, its
jars on the class path, where TLC finds their modules and Java overrides).
``-tool`` makes TLC frame each message with its code, so the outcome is read from
message codes and TLC's documented exit statuses (``tlc2.output.EC.ExitStatus``), not
from English text:

* 0 and message 2193: no error;
* 11 (message 2114): deadlock, i.e. the next step of the exported trace has no successor;
* 12 (2107, 2110): an invariant is violated;
* 10, 13, 14, 75-77, 150, 151: a problem of the specification (an assumption or
  ``Assert`` is FALSE, an evaluation error, a parse or configuration error);
* anything else (153 system error, 255, a crash, a signal, no answer in
  ``TLC_TIMEOUT`` seconds): TLC failed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tlaconf import environment, signals
from tlaconf.errors import CheckerFailed, UserError
from tlaconf.files import too_long
from tlaconf.tla.library import is_jar
from tlaconf.trace.export import JAVA_OPTIONS

INSTALL_HINT = (
    "the tlc backend needs TLC: download tla2tools.jar from "
    "https://github.com/tlaplus/tlaplus/releases (or build it from the tlaplus sources) and "
    "set TLC_JAR=/path/to/tla2tools.jar; TLC needs Java 11+ (JAVA_HOME or java on PATH)"
)

SPEC_PROBLEMS = frozenset({10, 13, 14, 75, 76, 77, 150, 151})
"""TLC exit statuses that mean the specification (or the exported module) is at fault."""

_MESSAGE = re.compile(r"@!@!@STARTMSG (\d+):(\d+) @!@!@\n(.*?)@!@!@ENDMSG \1 @!@!@\n?", re.S)
_STEP = re.compile(r"^/\\ trace_step = (\d+)$", re.M)
_INVARIANT = re.compile(r"Invariant (\S+) is violated")


@dataclass(frozen=True)
class Tlc:
    """Where TLC is: the ``java`` executable and ``tla2tools.jar``."""

    java: str
    jar: Path
    timeout: float | None
    java_options: tuple[str, ...]


def find_tlc(timeout_s: float | None = None) -> Tlc:
    """TLC from ``TLC_JAR`` and Java from ``JAVA_HOME`` or ``PATH``; UserError saying how.

    ``timeout_s`` (``--checker-timeout``) overrides ``TLC_TIMEOUT``.
    """
    jar = os.environ.get("TLC_JAR")
    if not jar:
        raise UserError(f"TLC_JAR is not set; {INSTALL_HINT}")
    for name, path in (("TLC_JAR", jar), ("JAVA_HOME", os.environ.get("JAVA_HOME", ""))):
        long = too_long(path)
        if long is not None:
            raise UserError(f"{name}={path[:60]}...: it {long}")
    if not Path(jar).is_file():
        raise UserError(f"TLC_JAR={jar} is not a file; {INSTALL_HINT}")
    if not _holds_tlc(Path(jar)):
        raise UserError(f"TLC_JAR={jar} is not a jar holding TLC (tlc2/TLC.class); "
                        f"{INSTALL_HINT}")
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if not java or not (Path(java).is_file() and os.access(java, os.X_OK)):
        where = f"JAVA_HOME={home} has no bin/java" if home else "java is not on PATH"
        raise UserError(f"{where}; {INSTALL_HINT}")
    timeout = environment.seconds("TLC_TIMEOUT")
    extra = java_options(java)
    return Tlc(java, Path(jar).resolve(), timeout if timeout_s is None else timeout_s, extra)


JAVA_SETTINGS = ("TLC_JAVA_OPTS", "JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS")
"""The variables whose JVM options reach TLC's Java (the last two are Java's own)."""

NOT_FOR_TLC = frozenset({"-version", "--version", "-help", "--help", "-h", "-?", "-X",
                         "--help-extra", "--dry-run", "--list-modules", "--validate-modules",
                         "-jar", "-m", "--module", "-d", "--describe-module"})
"""Options of the ``java`` launcher that print and exit, or run another program, instead
of TLC."""

PROBE_SECONDS = 30.0
"""How long ``java OPTIONS -version`` may take to start."""


def java_options(java: str) -> tuple[str, ...]:
    """The words of ``TLC_JAVA_OPTS``, once Java has taken them with tlaconf's own options
    (``java OPTIONS -version``, run only when a variable of :data:`JAVA_SETTINGS` is set);
    UserError naming the variables and Java's message when it refuses them (``-Xmx0``,
    ``-XXbogus``, a word that is no option), which would otherwise fail every TLC run."""
    extra = tuple(os.environ.get("TLC_JAVA_OPTS", "").split())
    given = ", ".join(f"{name}={os.environ[name]}" for name in JAVA_SETTINGS
                      if os.environ.get(name))
    launcher = sorted(NOT_FOR_TLC.intersection(extra))
    if launcher:
        raise UserError(f"TLC_JAVA_OPTS={os.environ['TLC_JAVA_OPTS']}: {launcher[0]} is an "
                        "option of the java launcher that prints and exits or runs another "
                        "program, not a JVM option for TLC")
    if not given:
        return extra
    try:
        done = signals.run([java, *JAVA_OPTIONS, *extra, "-version"], timeout=PROBE_SECONDS,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        raise CheckerFailed(f"java {' '.join(extra)} -version gave no answer within "
                            f"{PROBE_SECONDS:g} s ({given})") from None
    except OSError as err:
        raise CheckerFailed(f"cannot run {java}: {err.strerror}") from None
    if done.returncode != 0:
        said = [ln.strip() for ln in (done.stderr + done.stdout).splitlines() if ln.strip()
                and not ln.startswith(("Error: A fatal exception", "Picked up "))]
        raise UserError(f"Java refuses the JVM options of {given} (given after tlaconf's "
                        f"own {' '.join(JAVA_OPTIONS)}): "
                        f"{'; '.join(said[:4]) or f'exit status {done.returncode}'}")
    return extra


def _holds_tlc(jar: Path) -> bool:
    """Whether ``jar`` is a zip file holding TLC's main class."""
    try:
        with zipfile.ZipFile(jar) as z:
            return "tlc2/TLC.class" in z.NameToInfo
    except (OSError, zipfile.BadZipFile):
        return False


@dataclass(frozen=True)
class TlcResult:
    """What one TLC run said.

    ``kind`` is ``ok``, ``deadlock`` or ``invariant``; ``last_step`` is the
    ``trace_step`` of the last state TLC printed (None when it printed none);
    ``invariant`` the violated invariant; ``text`` TLC's error messages; ``depth`` and
    ``distinct`` the search's depth and distinct states, when TLC printed them.
    """

    kind: Literal["ok", "deadlock", "invariant"]
    last_step: int | None = None
    invariant: str | None = None
    text: str = ""
    depth: int | None = None
    distinct: int | None = None


def run_tlc(tlc: Tlc, folder: Path, name: str, library: tuple[Path, ...]) -> TlcResult:
    """Check ``folder/name.tla`` with ``name.cfg``; UserError (spec) or CheckerFailed (TLC)."""
    command = [
        tlc.java, *JAVA_OPTIONS, *tlc.java_options,
        "-DTLA-Library=" + os.pathsep.join(str(d.resolve()) for d in library if not is_jar(d)),
        "-cp", os.pathsep.join([str(tlc.jar), *(str(d.resolve()) for d in library if is_jar(d))]),
        "tlc2.TLC", "-tool", "-workers", "1",
        "-metadir", str(folder / "states"), "-config", f"{name}.cfg", f"{name}.tla",
    ]  # fmt: skip
    try:
        done = signals.run(
            command, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, errors="replace", timeout=tlc.timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise CheckerFailed(f"TLC gave no answer within {tlc.timeout:g} s (--checker-timeout or "
                            "TLC_TIMEOUT)") from None  # fmt: skip
    except OSError as err:
        raise CheckerFailed(f"cannot run {tlc.java}: {err.strerror}") from None
    return read_outcome(done.returncode, done.stdout, done.stderr)


def framed(stdout: str) -> list[tuple[int, int, str]]:
    """TLC's ``-tool`` messages: (code, class, text)."""
    return [(int(code), int(cls), body.strip()) for code, cls, body in _MESSAGE.findall(stdout)]


def depth_and_states(messages: list[tuple[int, int, str]]) -> tuple[int | None, int | None]:
    """The depth of TLC's search and its distinct states, when it printed them."""
    return _number(messages, 2194, _DEPTH), _number(messages, 2199, _DISTINCT)


def read_outcome(status: int, stdout: str, stderr: str = "") -> TlcResult:
    """The outcome of a TLC run from its exit status and ``-tool`` output."""
    messages = framed(stdout)
    codes = {code for code, _, _ in messages}
    states = [body for code, _, body in messages if code in (2216, 2217, 2218)]
    last = _STEP.findall(states[-1]) if states else []
    last_step = int(last[-1]) if last else None
    errors = "\n".join(body for code, cls, body in messages if cls == 1 and code != 2121)
    depth, distinct = depth_and_states(messages)
    if status == 0 and 2193 in codes:
        return TlcResult("ok", depth=depth, distinct=distinct)
    if status == 11 and 2114 in codes:
        return TlcResult("deadlock", last_step, text=errors, depth=depth, distinct=distinct)
    if status == 12 and codes & {2107, 2110}:
        found = _INVARIANT.search(errors)
        at = 0 if 2107 in codes else last_step  # 2107: the initial state, printed in the message
        return TlcResult("invariant", at, found.group(1) if found else None, errors, depth,
                         distinct)
    outside = _MESSAGE.sub("", stdout).strip()
    detail = "\n".join(p for p in (errors, _sany_errors(outside), stderr.strip()) if p)
    if status in SPEC_PROBLEMS:
        where = "" if last_step is None else f" (after trace_step = {last_step})"
        raise UserError(f"TLC rejects the specification{where}: {_clip(detail)}")
    raise CheckerFailed(f"TLC failed (exit status {status}): {_clip(detail) or 'no message'}")


_DEPTH = re.compile(r"depth of the complete state graph search is (\d+)")
_DISTINCT = re.compile(r"([\d,]+) distinct states? found")


def _number(messages: list[tuple[int, int, str]], code: int, pattern: re.Pattern[str]
            ) -> int | None:
    """The number ``pattern`` finds in TLC's last message ``code``, if any."""
    found = [pattern.search(body) for c, _, body in messages if c == code]
    return int(found[-1].group(1).replace(",", "")) if found and found[-1] else None


def _sany_errors(text: str) -> str:
    """The parser's complaints, which TLC prints outside its framed messages."""
    keep = [ln for ln in text.splitlines()
            if ln.strip() and not ln.startswith(("Parsing file", "Semantic processing",
                                                  "Linting of module"))]  # fmt: skip
    return "\n".join(keep)


def _clip(text: str, limit: int = 1500) -> str:
    seen: list[str] = []  # TLC repeats the parser's report: keep each line once
    for line in text.strip().splitlines():
        if line not in seen or not line.strip():
            seen.append(line)
    text = "\n".join(seen).strip()
    return text if len(text) <= limit else text[:limit] + " ..."
