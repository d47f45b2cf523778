"""Size budgets: big inputs are checked or refused in seconds, in time linear in their size.

* ``replay`` of a trace whose states hold one large set of integers (12.5, 25 and 50 MB
  per state), and 50 MB states holding one set of records, one record of many fields and
  one long string, through the real CLI in a separate process: seconds, MB/s and peak RSS;
* ``eval -`` fed 10 MB of expressions on stdin (answered up to its limit of 10,000, the
  rest refused) and one 10 MB expression line (refused): seconds and peak RSS;
* a trace state nested 100,000 levels deep (refused before parsing).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEASURE = (  # VmHWM: this process's peak RSS (ru_maxrss would include the parent's)
    "import re, sys; from tlaconf.cli.main import main; code = main(sys.argv[1:]); "
    "hwm = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1); "
    "print(int(code), hwm, file=sys.stderr)"
)
MODULE = """---- MODULE BigSet ----
EXTENDS Integers, Sequences
VARIABLE s
Add(p) == /\\ p.x \\notin s
          /\\ s' = s \\cup {p.x}
Put(p) == s' = [s EXCEPT ![p.k] = p.x]
Grow(p) == s' = s \\o p.x
Next == \\E x \\in 0..10 : Add([x |-> x])
====
"""
HEADER = {"format": "tlaconf-trace", "version": 1, "module": "BigSet", "revision": "1",
          "constants": {}, "meta": {"bench": "budgets"}}


def run(args: list[str], stdin: bytes = b"") -> tuple[int, float, float, str]:
    """(exit code, seconds, peak RSS in MB, stderr) of ``tlaconf args`` in a new process
    (the CPU seconds it used, user and system, to its very end, the interpreter's exit
    included, are the last line of stderr: wall time on a shared machine also counts the
    others' work)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", MEASURE, *args], input=stdin,
                          capture_output=True, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    code, rss_kb = lines[-1].split()
    return int(code), seconds, int(rss_kb) / 1024, "\n".join([*lines[:-1], f"{cpu:.1f}"])


def big_set_trace(path: Path, megabytes: float) -> int:
    """A conforming trace: a state holding one set of about ``megabytes`` MB, then one
    step adding an element (a second state as large); its size in bytes."""
    n = int(megabytes * 1e6 / 9)  # 8-digit numbers and a comma
    first = 10_000_000
    elements = ",".join(map(str, range(first, first + n)))
    return _two_states(path, '{"#set": [' + elements + "]}", "Add", {"x": 7},
                       '{"#set": [7,' + elements + "]}")


def _two_states(path: Path, before: str, action: str, params: dict[str, object],
                after: str) -> int:
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(HEADER) + "\n")
        f.write('{"state": {"s": ' + before + "}}\n")
        f.write(f'{{"action": "{action}", "params": {json.dumps(params)}, '
                f'"outcome": "accepted", "state": {{"s": {after}}}}}\n')
    return path.stat().st_size


def set_of_records_trace(path: Path, megabytes: float) -> int:
    """A set of cards ``[id |-> i, zone |-> "hand"]`` of about ``megabytes`` MB; one added."""
    n = int(megabytes * 1e6 / 32)
    cards = ",".join(f'{{"id": {i}, "zone": "hand"}}' for i in range(10_000_000, 10_000_000 + n))
    card = {"id": 7, "zone": "deck"}
    return _two_states(path, '{"#set": [' + cards + "]}", "Add", {"x": card},
                       '{"#set": [' + json.dumps(card) + "," + cards + "]}")


def record_trace(path: Path, megabytes: float) -> int:
    """A record of about ``megabytes`` MB (fields ``f<i>``); one field changed."""
    n = int(megabytes * 1e6 / 19)
    fields = [f'"f{i}": {i}' for i in range(10_000_000, 10_000_000 + n)]
    after = ['"f10000000": -1', *fields[1:]]
    return _two_states(path, "{" + ",".join(fields) + "}", "Put", {"k": "f10000000", "x": -1},
                       "{" + ",".join(after) + "}")


def string_trace(path: Path, megabytes: float) -> int:
    """A string of about ``megabytes`` MB; one character appended."""
    text = "ab" * int(megabytes * 1e6 / 2)
    return _two_states(path, json.dumps(text), "Grow", {"x": "!"}, json.dumps(text + "!"))


def _replay(root: Path, name: str, size: int, trace: Path) -> None:
    # no evaluation budget: the figure is the check's time, even on a machine others share
    code, seconds, rss, err = run(["replay", "--eval-budget", "0", "--spec", str(root / "spec"),
                                   str(trace)])
    *said, cpu = err.splitlines()
    verdict = "conforms" if code == 0 else f"exit {code}: {' '.join(said)[-200:]}"
    print(f"replay, {name} ({size / 1e6:,.0f} MB file): {seconds:.1f} s ({cpu} s CPU), "
          f"{size / 1e6 / seconds:.0f} MB/s, peak RSS {rss:,.0f} MB, {verdict}", flush=True)
    trace.unlink()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-") as tmp:
        root = Path(tmp)
        spec = root / "spec" / "conformance"
        spec.mkdir(parents=True)
        (spec / "BigSet.tla").write_text(MODULE, encoding="utf-8")
        trace = root / "big.trace.jsonl"
        for mb in (12.5, 25, 50):
            _replay(root, f"one set of {mb:g} MB of integers per state", big_set_trace(trace, mb),
                    trace)
        for name, make in (("one set of 50 MB of records per state", set_of_records_trace),
                           ("one record of 50 MB per state", record_trace),
                           ("one string of 50 MB per state", string_trace)):
            _replay(root, name, make(trace, 50), trace)
        exprs = b"".join(b"%d + %d * 2\n" % (i, i) for i in range(800_000))[:10_000_000]
        _eval(f"{len(exprs) / 1e6:.0f} MB of expressions on stdin", exprs)
        line = b"{" + b",".join(b"%d" % i for i in range(1_500_000))[:10_000_000] + b"}\n"
        _eval("one 10 MB expression line", line)
        deep = root / "deep.trace.jsonl"
        deep.write_text(json.dumps(HEADER) + '\n{"state": {"s": ' + "[" * 100_000
                        + "]" * 100_000 + "}}\n", encoding="utf-8")
        code, seconds, rss, err = run(["replay", "--spec", str(root / "spec"), str(deep)])
        print(f"replay, a state nested 100,000 levels: exit {code} in {seconds:.1f} s "
              f"({err.splitlines()[-1]} s CPU), peak RSS {rss:,.0f} MB")


def _eval(name: str, stdin: bytes) -> None:
    code, seconds, rss, err = run(["eval", "-"], stdin)
    *said, cpu = err.splitlines()
    print(f"eval -, {name}: exit {code} in {seconds:.1f} s ({cpu} s CPU), peak RSS "
          f"{rss:,.0f} MB ({(said or [''])[-1][:90]})", flush=True)


if __name__ == "__main__":
    main()
