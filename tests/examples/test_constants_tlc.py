"""``tlaconf eval`` agrees with TLC on the constant parts of tlaplus/Examples.

TLC's answers (``tlc_constants.json``, written by ``generate_constants.py`` with real TLC)
are compared with tlaconf's for every closed constant definition (``ToString`` of its
value, or an error) and for the ASSUMEs of every manifest model (whether they hold under
the model's ``.cfg``, else the first that is FALSE or fails).  A module or ``.cfg`` whose
text is not the one recorded is skipped and counted.  The figures are in the docs
("TLA+ support").  Needs only ``TLACONF_EXAMPLES`` (``make test-examples``), not Java.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tlaconf.errors import UserError

from .constants import Answer, compare, digest, tlaconf_assumptions, tlaconf_definitions
from .corpus import examples_root

DATA = json.loads((Path(__file__).parent / "tlc_constants.json").read_text())
KNOWN: dict[str, str] = {}
"""``module path::definition`` or a model's ``.cfg`` path -> why tlaconf differs from TLC."""


def _ours(fn: object, *args: Path) -> Answer | dict[str, Answer]:
    try:
        return fn(*args)  # type: ignore[operator,no-any-return]
    except UserError as err:
        return ("error", str(err).splitlines()[0])


def test_constant_definitions_agree_with_tlc() -> None:
    root = examples_root()
    counts: Counter[str] = Counter()
    differ = []
    for rel, entry in sorted(DATA["modules"].items()):
        path = root / rel
        if not path.is_file() or digest(path) != entry["sha"]:
            counts["modules changed since recorded"] += 1
            continue
        counts["modules"] += 1
        ours = _ours(tlaconf_definitions, path)
        for name, tlc in sorted(entry["definitions"].items()):
            mine = ours.get(name, ("missing", "")) if isinstance(ours, dict) else ours
            verdict = compare(tuple(tlc), tuple(mine))  # type: ignore[arg-type]
            counts[verdict] += 1
            if verdict == "differ" and f"{rel}::{name}" not in KNOWN:
                differ.append(f"{rel}::{name}: TLC {tlc}, tlaconf {mine}")
    print(f"tlaplus/Examples constant definitions: {dict(counts)}")
    assert counts["modules"] > 50 and counts["agree"] > 100
    assert not differ, "\n".join(differ)


def test_model_assumptions_agree_with_tlc() -> None:
    root = examples_root()
    counts: Counter[str] = Counter()
    differ = []
    for cfg, entry in sorted(DATA["models"].items()):
        tla = root / entry["module"]
        if not (tla.is_file() and (root / cfg).is_file()) or (digest(tla), digest(root / cfg)) \
                != (entry["sha"], entry["cfg_sha"]):
            counts["models changed since recorded"] += 1
            continue
        tlc = tuple(entry["assumptions"])
        if tlc[0] == "refused":
            counts["TLC refuses the model"] += 1
            continue
        mine = _ours(tlaconf_assumptions, tla, root / cfg)
        verdict = "agree" if mine == tlc else "differ"
        if mine[0] == "budget":
            verdict = "tlaconf out of time"
        elif mine[0] == "error" and "is not supported" in mine[1]:
            verdict = "tlaconf refuses the .cfg"  # a feature of TLC's .cfg it does not read
        counts[verdict] += 1
        if verdict == "differ" and cfg not in KNOWN:
            differ.append(f"{cfg}: TLC {tlc}, tlaconf {mine}")
    print(f"tlaplus/Examples models' ASSUMEs: {dict(counts)}")
    assert counts["agree"] > 20
    assert not differ, "\n".join(differ)
