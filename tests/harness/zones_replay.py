"""A minimal replay loop over the evaluator, used by the zones tests (not the product's replay).

It applies DESIGN.md's conformance rules: accepted steps satisfy the action,
rejected steps leave the state unchanged and are not ENABLED, every state
satisfies the module's .cfg invariants.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tlaconf.evaluate import load_module
from tlaconf.values import decode

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
SEARCH = [SPEC / "conformance", SPEC / "reference-profile" / "rev2", SPEC / "tcs"]


def invariants(module: str) -> list[str]:
    """The INVARIANT names of a conformance module's .cfg."""
    cfg = (SPEC / "conformance" / f"{module}.cfg").read_text(encoding="utf-8")
    names: list[str] = []
    section = ""
    for word in cfg.split():
        if word.isupper() and word.isalpha() and len(word) > 1:
            section = word
        elif section in ("INVARIANT", "INVARIANTS"):
            names.append(word)
    return names


def replay(path: Path) -> tuple[str, int | None, str | None]:
    """(verdict, failing step, innermost blamed text) of one trace."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    constants = {k: decode(v) for k, v in header["constants"].items()}
    module = header["module"]
    ctx = load_module(SPEC / "conformance" / f"{module}.tla", SEARCH, constants)
    invs = invariants(module)

    def broken(state: dict[str, Any]) -> str | None:
        for inv in invs:
            if not ctx.holds(inv, (), state):
                return ctx.explain(inv, (), state).innermost().text
        return None

    state = {k: decode(v) for k, v in json.loads(lines[1])["state"].items()}
    if (why := broken(state)) is not None:
        return "violation", 0, why
    for i, line in enumerate(lines[2:], 1):
        step = json.loads(line)
        after = {k: decode(v) for k, v in step["state"].items()}
        params = (decode(step["params"]),)
        action = step["action"]
        if step["outcome"] == "accepted":
            if not ctx.holds(action, params, state, after):
                return "violation", i, ctx.explain(action, params, state, after).innermost().text
        elif after != state:
            return "violation", i, "UNCHANGED state of a rejected step"
        elif ctx.enabled(action, params, state):
            return "violation", i, f"ENABLED {action}(p) (the rejected request was enabled)"
        if (why := broken(after)) is not None:
            return "violation", i, why
        state = after
    return "conforms", None, None
