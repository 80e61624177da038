"""Build the Killer odds tables the package ships (engine/killer/odds_tables.bin): every number of dice
the game allows, every goal a keep phase is played for. Run it after changing how a keep phase is
judged or played; tests/engine/killer/test_odds_tables.py checks the shipped file against the solver.

    python scripts/build_killer_odds_tables.py            # write the file (about a minute)
    python scripts/build_killer_odds_tables.py --check    # exit 1 when the shipped file is out of date
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.killer import odds, odds_tables  # noqa: E402  (the checkout's engine, not an installed one)
from engine.killer.rules import MAX_DICE, MIN_DICE  # noqa: E402

TARGET = ROOT / "engine" / "killer" / "odds_tables.bin"


def build(log: bool = True) -> bytes:
    started = time.perf_counter()

    def solvers() -> Iterator[odds.Solver]:
        for dice in range(MIN_DICE, MAX_DICE + 1):
            for goal in odds_tables.PLAY_GOALS:
                if log:
                    print(f"{time.perf_counter() - started:6.1f} s  {dice} dice, {goal}", file=sys.stderr)
                yield odds.Solver(dice, goal)

    return odds_tables.encode(solvers())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    parser.add_argument("--output", type=Path, default=TARGET, help=f"where to write (default {TARGET})")
    args = parser.parse_args(argv)
    data = build()
    if args.check:
        shipped = args.output.read_bytes() if args.output.exists() else b""
        same = shipped and same_tables(shipped, data)
        print("the shipped tables are current" if same else f"{args.output} is out of date", file=sys.stderr)
        return 0 if same else 1
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data):,} bytes)", file=sys.stderr)
    return 0


def same_tables(a: bytes, b: bytes) -> bool:
    """The same tables, whatever zlib's version made of them."""
    return odds_tables.unpacked(a) == odds_tables.unpacked(b)


if __name__ == "__main__":
    raise SystemExit(main())
