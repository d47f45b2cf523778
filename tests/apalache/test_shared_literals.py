"""Large repeated literals of a root module are sent once, as annotated definitions.

``views/seat-views-7``'s root module was 362 KB of literal states and ``LeakCheck`` params
(every world holds the seat's whole view), and Snowcat was still typing it when its time
ran out.  :class:`~tlaconf.replay.apalache.shared.Pool` names each large composite value
once (``TlaconfV<j>``, with its ``@type``); every occurrence is that name, and the text,
evaluated with those definitions, is the value.
"""

from __future__ import annotations

from pathlib import Path

from tests.apalache.test_sequence_sets import HERE
from tlaconf.evaluate import load_module
from tlaconf.replay.apalache.shared import MIN_TEXT, Pool
from tlaconf.replay.apalache.types import infer, literal
from tlaconf.values import Fn, record

INT, STR = ("Int",), ("Str",)
ZONE_VIEW = ("Rec", (("count", INT), ("ids", ("Set", INT)), ("listed", ("Seq", INT))))
VIEW_TYPE = ("Fun", STR, ZONE_VIEW)
WORLD = ("Rec", (("faceUp", ("Set", INT)), ("view", VIEW_TYPE)))
TYPE = ("Rec", (("seat", STR), ("view", VIEW_TYPE), ("worlds", ("Seq", WORLD))))
VIEW = Fn({f"Zone{i}": record(count=i, ids=frozenset(range(1, i + 1)),
                              listed=tuple(range(1, i + 1))) for i in range(6)})
WORLDS = tuple(record(view=VIEW, faceUp=frozenset({k})) for k in range(3))
PARAMS = record(seat="SideA", view=VIEW, worlds=WORLDS)


def _evaluate(tmp_path: Path, definitions: list[str], text: str) -> object:
    body = "\n\n".join([*definitions, f"Value == {text}"])
    head = "---- MODULE Shared ----\nEXTENDS Integers, Sequences, FiniteSets, Apalache\n"
    (tmp_path / "Shared.tla").write_text(f"{head}{body}\n====\n")
    return load_module(tmp_path / "Shared.tla", (HERE,), {}).evaluate("Value")


def test_each_large_value_is_defined_once_and_named_everywhere(tmp_path: Path) -> None:
    pool = Pool()
    t = TYPE
    text = pool.literal(PARAMS, t)
    definitions = pool.definitions()
    plain = literal(PARAMS, t)
    assert len(text) + sum(len(d) for d in definitions) < len(plain) / 2
    view = next(d for d in definitions if "Zone5" in d and d.count("SetAsFun") == 1)
    name = view.split("\n")[1].split(" == ")[0]
    assert view.startswith("\\* @type: (Str -> {count: Int, ids: Set(Int), listed: Seq(Int)});")
    assert sum(d.count(name) for d in definitions) + text.count(name) == 1 + len(WORLDS) + 1
    assert _evaluate(tmp_path, definitions, text) == _evaluate(tmp_path, [], plain)
    assert pool.definitions() == []  # each is given once


def test_small_values_and_open_types_stay_literal() -> None:
    pool = Pool()
    small = record(count=1, ids=frozenset({1}))
    assert len(literal(small, infer(small, True))) < MIN_TEXT
    assert pool.literal(small, infer(small, True)) == literal(small, infer(small, True))
    assert pool.definitions() == []
    empty = record(**{f"field{i}": frozenset() for i in range(12)})  # element types unknown
    assert len(literal(empty, infer(empty, True))) >= MIN_TEXT
    assert pool.literal(empty, infer(empty, True)) == literal(empty, infer(empty, True))
    assert pool.definitions() == []
