"""Shared by the composition-helper tests: the profile modules through the embedded evaluator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tlaconf import evaluate
from tlaconf.values import from_python

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
SEARCH = (SPEC / "conformance", SPEC / "reference-profile" / "rev2")


def load(module: str, constants: dict[str, Any] | None = None) -> Any:
    """The evaluation context of profile module ``module``, its CONSTANTs bound to
    ``constants`` (plain Python data)."""
    bound = {k: from_python(v) for k, v in (constants or {}).items()}
    return evaluate.load_module(SPEC / "reference-profile" / "rev2" / f"{module}.tla", SEARCH,
                                bound)


def holds(ctx: Any, operator: str, *args: Any) -> bool:
    """``operator(args)`` in ``ctx``, the arguments given as plain Python data."""
    result: bool = ctx.holds(operator, tuple(from_python(a) for a in args), {})
    return result
