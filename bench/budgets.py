"""Size budgets: big inputs are checked or refused in seconds, in time linear in their size.

* ``replay`` of a trace whose states hold one large set (12.5, 25 and 50 MB per state),
  through the real CLI in a separate process: seconds, MB/s and peak RSS;
* ``eval -`` fed 10 MB of expressions on stdin (answered up to its limit of 10,000, the
  rest refused) and one 10 MB expression line (refused): seconds and peak RSS;
* a trace state nested 100,000 levels deep (refused before parsing).
"""

from __future__ import annotations

import json
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
EXTENDS Integers
VARIABLE s
Add(p) == /\\ p.x \\notin s
          /\\ s' = s \\cup {p.x}
Next == \\E x \\in 0..10 : Add([x |-> x])
====
"""
HEADER = {"format": "tlaconf-trace", "version": 1, "module": "BigSet", "revision": "1",
          "constants": {}, "meta": {"bench": "budgets"}}


def run(args: list[str], stdin: bytes = b"") -> tuple[int, float, float, str]:
    """(exit code, seconds, peak RSS in MB, stderr) of ``tlaconf args`` in a new process."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", MEASURE, *args], input=stdin,
                          capture_output=True, check=False)
    seconds = time.perf_counter() - start
    lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    code, rss_kb = lines[-1].split()
    return int(code), seconds, int(rss_kb) / 1024, "\n".join(lines[:-1])


def big_set_trace(path: Path, megabytes: float) -> int:
    """A conforming trace: a state holding one set of about ``megabytes`` MB, then one
    step adding an element (a second state as large); its size in bytes."""
    n = int(megabytes * 1e6 / 9)  # 8-digit numbers and a comma
    first = 10_000_000
    elements = ",".join(map(str, range(first, first + n)))
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(HEADER) + "\n")
        f.write('{"state": {"s": {"#set": [' + elements + "]}}}\n")
        f.write('{"action": "Add", "params": {"x": 7}, "outcome": "accepted", '
                '"state": {"s": {"#set": [7,' + elements + "]}}}\n")
    return path.stat().st_size


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-") as tmp:
        root = Path(tmp)
        spec = root / "spec" / "conformance"
        spec.mkdir(parents=True)
        (spec / "BigSet.tla").write_text(MODULE, encoding="utf-8")
        for mb in (12.5, 25, 50):
            trace = root / f"big-{mb}.trace.jsonl"
            size = big_set_trace(trace, mb)
            code, seconds, rss, err = run(["replay", "--spec", str(root / "spec"), str(trace)])
            verdict = "conforms" if code == 0 else f"exit {code}: {err[-200:]}"
            print(f"replay, one set of {mb:g} MB per state ({size / 1e6:,.0f} MB file): "
                  f"{seconds:.1f} s, {size / 1e6 / seconds:.0f} MB/s, peak RSS {rss:,.0f} MB, "
                  f"{verdict}")
            trace.unlink()
        exprs = b"".join(b"%d + %d * 2\n" % (i, i) for i in range(800_000))[:10_000_000]
        code, seconds, rss, err = run(["eval", "-"], exprs)
        print(f"eval -, {len(exprs) / 1e6:.0f} MB of expressions on stdin: exit {code} in "
              f"{seconds:.1f} s, peak RSS {rss:,.0f} MB ({err.splitlines()[-1][:90]})")
        line = b"{" + b",".join(b"%d" % i for i in range(1_500_000))[:10_000_000] + b"}\n"
        code, seconds, rss, err = run(["eval", "-"], line)
        print(f"eval -, one 10 MB expression line: exit {code} in {seconds:.1f} s, peak RSS "
              f"{rss:,.0f} MB ({err.splitlines()[-1][:90]})")
        deep = root / "deep.trace.jsonl"
        deep.write_text(json.dumps(HEADER) + '\n{"state": {"s": ' + "[" * 100_000
                        + "]" * 100_000 + "}}\n", encoding="utf-8")
        code, seconds, rss, _ = run(["replay", "--spec", str(root / "spec"), str(deep)])
        print(f"replay, a state nested 100,000 levels: exit {code} in {seconds:.1f} s, "
              f"peak RSS {rss:,.0f} MB")


if __name__ == "__main__":
    main()
