"""The HTML report in a real headless browser: the failing step and conjunct are on screen.

Needs Debian's chromium (``make test-browser`` installs it and sets
``TLACONF_REQUIRE_BROWSER=1``, so that a missing browser fails instead of skipping).
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from tlaconf.replay import get_backend, replay_trace
from tlaconf.report import write_html

ROOT = Path(__file__).resolve().parents[2]
TRACES = ("moved-to-wrong-zone", "rejected-but-enabled")
LEAF_RGB = (0xFF, 0x00, 0x66)
"""The background of the blamed leaf, in the blame tree and in the source."""
WIDTH, HEIGHT = 1280, 1400


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("TLACONF_REQUIRE_BROWSER"):
            pytest.fail("chromium is not installed (make test-browser installs it)")
        pytest.skip("chromium is not installed: run make test-browser")
    return found


def _run(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}",
         *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


def _pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB(A) rows of a PNG (8-bit, colour type 2 or 6)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 3
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", data[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += data
        pos += 12 + size
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line[j] for j in range(stride) if j % channels < 3))
        prev = line
    return width, height, rows


def test_the_failing_step_and_conjunct_are_visible(tmp_path: Path) -> None:
    browser = _chromium()
    paths = [ROOT / "traces" / "zones" / f"{name}.trace.jsonl" for name in TRACES]
    results = [replay_trace(p, ROOT / "spec", get_backend("embedded")) for p in paths]
    page = write_html(results, tmp_path / "report", "tlaconf replay")
    url = page.as_uri() + "#trace-0"

    dom = _run(browser, tmp_path / "profile", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    html = dom.stdout
    assert 'id="failing-step"' in html and 'class="leaf"' in html
    assert "after = [z \\in ZoneInstances4" in html  # the blamed conjunct's text
    assert "witness: a successor the specification allows from s" in html

    shot = tmp_path / "shot.png"
    taken = _run(browser, tmp_path / "profile", f"--screenshot={shot}", url)
    assert taken.returncode == 0 and shot.is_file(), taken.stderr[-2000:]
    width, height, rows = _pixels(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    leaf = bytes(LEAF_RGB)
    marked = sum(row[i:i + 3] == leaf for row in rows for i in range(0, len(row), 3))
    assert marked > 500, "the blamed conjunct is not highlighted on screen"
    colours = {row[i:i + 3] for row in rows[::20] for i in range(0, len(row), 60)}
    assert len(colours) > 5, "the screenshot is blank"
