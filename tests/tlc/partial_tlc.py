"""The partial traces of ``traces/partial/`` exported as TLC trace specs, and TLC's
answers on them (``partial_tlc_answers.json``, recorded by ``python -m
tests.tlc.partial_tlc`` with ``TLC_JAR`` set), so that CI without Java still checks
that each export is the module TLC decided and that TLC's verdict was tlaconf's."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from tlaconf.cli.export import export_partial
from tlaconf.replay.tlc.partial_spec import decide_partial
from tlaconf.replay.tlc.process import find_tlc
from tlaconf.spec.lookup import module_spec, resolve_spec_dir

ROOT = Path(__file__).parents[2]
TRACES = ROOT / "traces" / "partial"
SPEC = ROOT / "spec"
ANSWERS = Path(__file__).with_name("partial_tlc_answers.json")
NAME = "PartialTrace"


def traces() -> list[Path]:
    return sorted(TRACES.glob("*.trace.jsonl"))


def export(trace: Path, folder: Path) -> tuple[Path, str]:
    """The export of ``trace`` in ``folder`` and the digest of what TLC reads of it (the
    module without its comment, which names local paths, and the ``.cfg``)."""
    out = folder / f"{NAME}.tla"
    cfg, _ = export_partial(trace, out, SPEC)
    text = out.read_text()
    body = text[text.index("EXTENDS"):] + cfg.read_text()
    return out, hashlib.sha256(body.encode()).hexdigest()


def answer(trace: Path) -> dict[str, Any]:
    """TLC's answer on the export of ``trace`` (its verdict, steps matched, depth), or
    how TLC failed."""
    from tlaconf.errors import CheckerFailed, UserError
    from tlaconf.trace.partial import read_partial

    with tempfile.TemporaryDirectory() as tmp:
        out, digest = export(trace, Path(tmp))
        t = read_partial(trace)
        h = t.header
        library = module_spec(resolve_spec_dir(SPEC), h.module, h.revision,
                              h.constants).search_path
        try:
            found = decide_partial(find_tlc(600), Path(tmp), NAME, library, len(t.steps),
                                   silent="trace_silent" in out.read_text())
        except (CheckerFailed, UserError) as err:
            return {"digest": digest, "failed": str(err).splitlines()[0]}
    return {"digest": digest, "verdict": found.verdict, "matched": found.matched,
            "depth": found.depth}


STACK = "-Xss64m"
"""TLC's Java thread stack for these runs: with the default, TLC sometimes ends in a
StackOverflowError on ZoneMembership's steps (the same run, now and then)."""


def main() -> int:
    os.environ["TLC_JAVA_OPTS"] = f"{os.environ.get('TLC_JAVA_OPTS', '')} {STACK}".strip()
    answers = {t.name: answer(t) for t in traces()}
    ANSWERS.write_text(json.dumps({"tlc": "TLC 1.8.0 (tlaplus/tlaplus cc6b616)",
                                   "traces": answers}, indent=1, sort_keys=True) + "\n")
    print(json.dumps(answers, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
