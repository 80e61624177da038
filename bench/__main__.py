"""Run the benchmark modules in this folder: ``python -m bench [MODULE …]`` (all of them, in name order,
when none is named), or ``python -m bench MODULE [OPTIONS …]`` to hand options (``--help`` too) to one
module, as ``python -m bench.MODULE`` would. Each prints one JSON line per figure.

A module that fails does not stop the others: its error is printed as a JSON line and the exit code
is 1 at the end. Modules skip PostgreSQL themselves (with a JSON line saying so) when it is unreachable.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

USAGE = (
    "usage: python -m bench [MODULE …]  |  python -m bench MODULE [OPTIONS …]  (MODULE --help: its options)"
)


class Usage(Exception):
    """Arguments the dispatcher cannot run: the message says why."""


def available() -> list[str]:
    folder = Path(__file__).parent
    return sorted(
        m.name
        for m in pkgutil.iter_modules([str(folder)])
        if not m.name.startswith("_") and m.name != "support"
    )


def runner_of(module: str) -> Callable[..., Any] | None:
    runner = getattr(importlib.import_module(f"bench.{module}"), "main", None)
    return runner if callable(runner) else None


def plan(argv: list[str]) -> list[tuple[str, list[str] | None]]:
    """The modules to run, each with the options it gets (None: none, as ``make bench`` runs them).

    Names come first; from the first argument that starts with ``-`` on, everything is options for the
    one module named — so ``python -m bench web_pages --help`` shows that module's help."""
    split = next((i for i, arg in enumerate(argv) if arg.startswith("-")), len(argv))
    names, options = argv[:split], argv[split:]
    known = available()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise Usage(f"unknown benchmark {', '.join(unknown)}; known: {', '.join(known)}")
    if not options:
        return [(name, None) for name in names or known]
    if len(names) != 1:
        raise Usage(f"options go to one benchmark: name exactly one before them ({', '.join(known)})")
    runner = runner_of(names[0])
    if runner is None or not inspect.signature(runner).parameters:
        raise Usage(f"{names[0]} takes no options")
    return [(names[0], options)]


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(f"{USAGE}\n\nmodules: {', '.join(available())}")
        return 0
    try:
        planned = plan(args)
    except Usage as error:
        print(f"{error}\n{USAGE}", file=sys.stderr)
        return 2
    failed = False
    for module, options in planned:
        runner = runner_of(module)
        if runner is None:
            continue
        try:
            runner() if options is None else runner(options)
        except Exception as error:  # one broken benchmark must not hide the others' figures
            failed = True
            traceback.print_exc()
            print(json.dumps({"bench": module, "error": f"{type(error).__name__}: {error}"}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
