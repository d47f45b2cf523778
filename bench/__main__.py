"""Run every benchmark module in this folder, or those named on the command line."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = str(Path(__file__).parent)
    names = argv or sorted(m.name for m in pkgutil.iter_modules([here]) if m.name[0] != "_")
    for name in names:
        print(f"== bench.{name}", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
