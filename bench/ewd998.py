"""EWD998ChanTrace (tlaplus/Examples) under ``tlaconf validate`` and under TLC.

Needs ``TLACONF_EXAMPLES`` (a tlaplus/Examples checkout) and
``TLACONF_COMMUNITY_JAR`` (a CommunityModules jar with its dependencies, the
``CommunityModules-deps.jar`` TLC users keep beside ``tla2tools.jar``; tlaconf reads
its ``.tla`` files, TLC its Java overrides), or a library path in ``TLACONF_LIBRARY``;
with ``TLC_JAR`` too, every log is also run through TLC in the same run and both
verdicts and times are printed, with the ratio.  The logs: the published one
and mutations of it (:func:`mutations`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Log = list[dict[str, Any]]
FOLDER = "specifications/ewd998"


def _recv_value(log: Log) -> Log:
    """The first token receive (after the initial one) logs a different ``q``."""
    i = next(i for i, e in enumerate(log) if i > 1 and e.get("event") == "<"
             and e["pkt"]["msg"]["type"] == "tok")
    log[i]["pkt"]["msg"]["q"] += 1
    return log


def _send_value(log: Log) -> Log:
    """The first token send logs a different ``q`` (the trace spec never compares it)."""
    i = next(i for i, e in enumerate(log) if e.get("event") == ">"
             and e["pkt"]["msg"]["type"] == "tok" and e["pkt"]["snd"] > 0)
    log[i]["pkt"]["msg"]["q"] += 1
    return log


def _delete(kind: str) -> Callable[[Log], Log]:
    def mutate(log: Log) -> Log:
        """The middle line of the given kind is deleted."""
        hits = [i for i, e in enumerate(log) if i > 0 and _kind(e) == kind]
        del log[hits[len(hits) // 2]]
        return log

    mutate.__doc__ = f"the middle {kind!r} line is deleted"
    return mutate


def _kind(e: dict[str, Any]) -> str:
    return e["event"] if e["event"] == "d" else e["event"] + e["pkt"]["msg"]["type"]


def _swap(log: Log) -> Log:
    """A node's deactivation and its next payload send swap their vector clocks, so the
    send is ordered after the deactivation (causally ordered events exchanged)."""
    by_time = {(e["node"], e["pkt"]["vc"][str(e["node"])]): i for i, e in enumerate(log) if i}
    for i, e in enumerate(log):
        if i and e["event"] == "d":
            t = e["pkt"]["vc"][str(e["node"])]
            j = by_time.get((e["node"], t - 1))
            if j is not None and _kind(log[j]) == ">pl":
                log[i]["pkt"]["vc"], log[j]["pkt"]["vc"] = log[j]["pkt"]["vc"], e["pkt"]["vc"]
                return log
    raise AssertionError("no deactivation right after a send")


def mutations() -> dict[str, Callable[[Log], Log] | None]:
    """Name -> how the log is changed (None: the published log)."""
    return {
        "original": None,
        "receive value changed": _recv_value,
        "send value changed": _send_value,
        "deletion (a payload receive)": _delete("<pl"),
        "deletion (a deactivation)": _delete("d"),
        "swap (deactivate/send)": _swap,
    }


def write_logs(examples: Path, out: Path) -> dict[str, Path]:
    """Every mutation of the published log, as files in ``out``."""
    src = examples / FOLDER / "EWD998ChanTrace.ndjson"
    lines = [json.loads(x) for x in src.read_text().splitlines() if x.strip()]
    paths: dict[str, Path] = {}
    for i, (name, mutate) in enumerate(mutations().items()):
        if mutate is None:
            paths[name] = src
            continue
        path = out / f"mutation{i}.ndjson"
        changed = mutate(json.loads(json.dumps(lines)))
        path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in changed))
        paths[name] = path
    return paths


def run_tlaconf(examples: Path, jar: Path | None, log: Path, *options: str
                ) -> tuple[int, float, dict[str, Any]]:
    """tlaconf's exit code, wall time and JSON report; ``jar`` goes on the library path
    (None: the library path is ``TLACONF_LIBRARY``'s)."""
    library = ["--library", str(jar)] if jar is not None else []
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "validate", "--json", *library,
         *options, "--env", f"JSON={log}", f"{FOLDER}/EWD998ChanTrace.tla"],
        cwd=examples, capture_output=True, text=True, timeout=900)
    seconds = time.perf_counter() - start
    try:
        report = json.loads(run.stdout) if run.stdout.strip() else {}
    except json.JSONDecodeError:
        report = {}
    if not report:
        report = {"error": run.stderr.strip().splitlines()[-1:] or ["?"]}
    return run.returncode, seconds, report


def run_tlc(examples: Path, tlc: Path, library: list[Path], log: Path) -> tuple[str, float]:
    """TLC's verdict: ``accepted`` (no error), ``rejected`` (POSTCONDITION or another
    violation) or ``error``, and its wall time; the jars of ``library`` on its class
    path, the folders in ``-DTLA-Library``."""
    jars = [str(p) for p in library if p.is_file()]
    folders = [str(p.resolve()) for p in library if not p.is_file()]
    with tempfile.TemporaryDirectory() as meta:
        start = time.perf_counter()
        run = subprocess.run(
            ["java", "-XX:+UseParallelGC", f"-DTLA-Library={os.pathsep.join(folders)}",
             "-cp", os.pathsep.join([str(tlc), *jars]), "tlc2.TLC",
             "-workers", "1", "-metadir", meta, "-config", f"{FOLDER}/EWD998ChanTrace.cfg",
             f"{FOLDER}/EWD998ChanTrace.tla"],
            cwd=examples, capture_output=True, text=True, timeout=900,
            env={**os.environ, "JSON": str(log)})
        seconds = time.perf_counter() - start
    out = run.stdout
    if "No error has been found" in out:
        return "accepted", seconds
    if "postcondition" in out.lower() or "Error: Invariant" in out or "Deadlock" in out:
        return "rejected", seconds
    return "error", seconds


def _verdict(code: int) -> str:
    return {0: "accepted", 1: "rejected", 2: "error", 3: "undecided"}.get(code, f"exit {code}")


def main() -> None:
    examples = os.environ.get("TLACONF_EXAMPLES")
    given = os.environ.get("TLACONF_COMMUNITY_JAR")
    library = [Path(given)] if given else [
        Path(p) for p in os.environ.get("TLACONF_LIBRARY", "").split(":") if p]
    if not examples or not library:
        print("  skipped: set TLACONF_EXAMPLES (a tlaplus/Examples checkout) and "
              "TLACONF_COMMUNITY_JAR (CommunityModules-deps.jar) or TLACONF_LIBRARY; TLC_JAR "
              "adds TLC's verdicts and times")
        return
    tlc = os.environ.get("TLC_JAR")
    jar = Path(given) if given else None
    with tempfile.TemporaryDirectory() as tmp:
        logs = write_logs(Path(examples), Path(tmp))
        total_ours = total_tlc = 0.0
        for name, log in logs.items():
            code, ours, report = run_tlaconf(Path(examples), jar, log)
            line = (f"  {name:30} tlaconf {_verdict(code):9} {ours:6.1f} s  "
                    f"entries {report.get('log', {}).get('entries_checked', '?')}"
                    f"/{report.get('log', {}).get('lines_read', '?')} read")
            unread = report.get("unconstrained_fields") or {}
            if report.get("warnings"):
                line += f"  ({len(report['warnings'])} warning(s)"
                line += f", {len(unread)} field(s) never read)" if unread else ")"
            if tlc:
                verdict, theirs = run_tlc(Path(examples), Path(tlc), library, log)
                same = "same" if verdict == _verdict(code) else "DIFFERENT"
                line += f" | TLC {verdict:9} {theirs:5.1f} s  {same}"
                total_tlc += theirs
            total_ours += ours
            print(line, flush=True)
        if tlc:
            print(f"  total: tlaconf {total_ours:.1f} s, TLC {total_tlc:.1f} s, "
                  f"ratio {total_ours / total_tlc:.2f}")


if __name__ == "__main__":
    main()
