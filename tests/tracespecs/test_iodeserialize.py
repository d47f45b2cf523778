"""``IODeserialize`` on files it cannot read as TLC wrote them: an evaluation error naming
the file and what is wrong, never a value.  (What it reads from files TLC's ``IOSerialize``
wrote is checked against TLC's printed values by ``test_modules.py``: ``IOTrace``.)"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from tlaconf.evaluate import Context, EvalError, load_text

MODULES = Path(__file__).parent / "modules"
LIB = Path(__file__).parents[1] / "library" / "data" / "lib"


@pytest.fixture(scope="module")
def ctx() -> Context:
    return load_text("---- MODULE Probe ----\nEXTENDS IOUtils, Sequences\n====\n", [LIB])


def test_the_log_tlc_wrote(ctx: Context) -> None:
    log = ctx.evaluate(f'IODeserialize("{MODULES / "IOTraceReject.bin"}", FALSE)')
    assert [e["by"] for e in log] == [1, 5, 3]
    assert ctx.evaluate(f'IODeserialize("{MODULES / "IOTrace.bin"}", TRUE)[3].op') == "dec"


@pytest.mark.parametrize(("data", "compressed", "message"), [
    (b"\x07\x00\x02\x01\x00\x00\x00", False, r"ends inside a value \(at byte 4\)"),
    (b"\x01\x00\x00\x00\x01", True, "not a compressed file"),
    (b"\x16\x00\x01", False, "holds a model value"),
    (b"\x0a", False, "holds an operator"),
    (b"\x07\x00\x01\x1a\x00\x05", False, "a reference to value 5, which the file has not given"),
])
def test_a_file_it_cannot_read_is_an_error(ctx: Context, tmp_path: Path, data: bytes,
                                           compressed: bool, message: str) -> None:
    path = tmp_path / "v.bin"
    path.write_bytes(data)
    flag = "TRUE" if compressed else "FALSE"
    with pytest.raises(EvalError, match=message):
        ctx.evaluate(f'IODeserialize("{path}", {flag})')


def test_a_missing_file_or_a_wrong_flag_is_an_error(ctx: Context, tmp_path: Path) -> None:
    with pytest.raises(EvalError, match="cannot read"):
        ctx.evaluate(f'IODeserialize("{tmp_path / "none.bin"}", TRUE)')
    path = tmp_path / "v.bin"
    path.write_bytes(gzip.compress(b"\x01\x00\x00\x00\x2a"))
    assert ctx.evaluate(f'IODeserialize("{path}", TRUE)') == 42
    with pytest.raises(EvalError, match="should be a boolean"):
        ctx.evaluate(f'IODeserialize("{path}", 1)')
