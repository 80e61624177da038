"""Run the benchmark modules in this folder: ``python -m bench [MODULE …]`` (all of them, in name order,
when none is named). Each prints one JSON line per figure.

A module that fails does not stop the others: its error is printed as a JSON line and the exit code
is 1 at the end. Modules skip PostgreSQL themselves (with a JSON line saying so) when it is unreachable.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import traceback
from pathlib import Path


def available() -> list[str]:
    folder = Path(__file__).parent
    return sorted(
        m.name
        for m in pkgutil.iter_modules([str(folder)])
        if not m.name.startswith("_") and m.name != "support"
    )


def main(argv: list[str] | None = None) -> int:
    names = list(sys.argv[1:] if argv is None else argv)
    known = available()
    unknown = [name for name in names if name not in known]
    if unknown:
        print(f"unknown benchmark {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    failed = False
    for module in names or known:
        runner = getattr(importlib.import_module(f"bench.{module}"), "main", None)
        if not callable(runner):
            continue
        try:
            runner()
        except Exception as error:  # one broken benchmark must not hide the others' figures
            failed = True
            traceback.print_exc()
            print(json.dumps({"bench": module, "error": f"{type(error).__name__}: {error}"}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
