"""Shared helpers: evaluate an expression in the default context (Integers, Sequences,
FiniteSets, TLC, Bags), or load a module given as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from tlaconf.evaluate import Context, EvalError, load_text
from tlaconf.values import to_tla

_CTX: list[Context] = []


def context() -> Context:
    if not _CTX:
        _CTX.append(load_text(
            "---- MODULE Tests ----\nEXTENDS Integers, Sequences, FiniteSets, TLC, Bags\n====\n",
            filename="Tests.tla",
        ))
    return _CTX[0]


def ev(expr: str) -> Any:
    """The value of a constant expression."""
    return context().evaluate(expr)


def show(expr: str) -> str:
    """The value of a constant expression, printed in TLA+."""
    return to_tla(ev(expr))


def fails(expr: str, match: str) -> EvalError:
    """Evaluating ``expr`` raises an EvalError whose message matches ``match``."""
    with pytest.raises(EvalError, match=match) as info:
        ev(expr)
    return info.value


def module(text: str, constants: Mapping[str, Any] | None = None) -> Context:
    body = text if "MODULE" in text else f"---- MODULE M ----\n{text}\n====\n"
    return load_text(body, constants=constants, filename="M.tla")
