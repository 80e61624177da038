"""Run every benchmark module in this folder (``python -m bench``), in name order."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main() -> int:
    folder = Path(__file__).parent
    for module in sorted(m.name for m in pkgutil.iter_modules([str(folder)])):
        if module.startswith("_"):
            continue
        runner = getattr(importlib.import_module(f"bench.{module}"), "main", None)
        if callable(runner):
            runner()
    return 0


if __name__ == "__main__":
    sys.exit(main())
