"""``croupier odds --dice N [--json]``: the exact odds of one Killer keep phase, three ways.

* ``optimal`` — the play that maximises the probability of obtaining an attack (ties: more
  regenerations, then a smaller expected loss), as ``auto`` and ``conseil`` play;
* ``text_strategy`` — the strategy the rule text recommends (keep 1s or 6s, side chosen on the
  first roll), evaluated exactly;
* ``least_loss`` — the play that minimises the expected PDV lost (ties: more attacks);
* ``most_damage`` — the play that maximises Σ v·P(attack of v), i.e. the expected damage.

All figures come from :mod:`engine.killer.odds` (exact fractions, no simulation). In JSON every
probability is a ``"p/q"`` string, with a ``*_decimal`` float beside the main ones.

The best-odds column comes from the shipped tables; the others are worked out, which takes seconds for
nine or ten dice. Meanwhile a line on stderr says how far it is — on a terminal, by default (stdout
stays the report alone, JSON included); ``--progress`` asks for it elsewhere too (one line per step,
for a log), ``--no-progress`` never.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TextIO

from bot.games import scope_of
from bot.service import odds_tables
from bot.texts import render
from engine.errors import CroupierError
from engine.killer import KILLER, odds

OBJECTIVE = "maximise P(attack); ties: maximise P(regeneration), then minimise the expected loss"


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _block(result: odds.Odds) -> dict[str, Any]:
    return {
        "p_attack": _fraction(result.p_attack),
        "p_attack_decimal": float(result.p_attack),
        "p_regeneration": _fraction(result.p_regeneration),
        "p_regeneration_decimal": float(result.p_regeneration),
        "p_loss": _fraction(result.p_loss),
        "expected_loss": _fraction(result.expected_loss),
        "expected_loss_decimal": float(result.expected_loss),
        "expected_attack_value": _fraction(result.expected_attack_value),
        "expected_attack_value_decimal": float(result.expected_attack_value),
        "attack": {str(v): _fraction(result.attack(v)) for v in range(1, 7)},
        "attack_low": {str(v): _fraction(result.attack(v, "low")) for v in range(1, 7)},
        "attack_high": {str(v): _fraction(result.attack(v, "high")) for v in range(1, 7)},
        "loss": {str(v): _fraction(p) for v, p in result.losses.items()},
    }


STAGES = ("best odds", "least loss", "most damage", "rule text")


class Progress:
    """How far the report is, on ``stream``: on a terminal one line rewritten in place (drawn only once
    the work has taken a moment, and wiped at the end); elsewhere a line per step."""

    DELAY = 0.3  # seconds before a terminal line appears: a quick report shows none

    def __init__(
        self, stream: TextIO, dice: int, *, live: bool, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._stream = stream
        self._dice = dice
        self._live = live
        self._clock = clock
        self._started = clock()
        self._drawn = False
        self._last = ""
        self._tenth = -1

    def stage(self, name: str) -> odds.Progress:
        """The callback the engine tells as it goes through stage ``name``."""
        index = STAGES.index(name)

        def told(done: int, total: int) -> None:
            share = (index + done / total) / len(STAGES)
            elapsed = self._clock() - self._started
            line = f"croupier odds: {self._dice} dice, {name} {done}/{total} ({share:.0%}, {elapsed:.1f} s)"
            if not self._live:
                tenth = int(share * 10)
                if tenth != self._tenth or done == total:  # a line per tenth and per stage: a log
                    print(line, file=self._stream, flush=True)
                    self._tenth = tenth
            elif elapsed >= self.DELAY:
                self._stream.write("\r" + line.ljust(len(self._last)))
                self._stream.flush()
                self._drawn, self._last = True, line

        return told

    def done(self) -> None:
        if self._drawn:
            self._stream.write("\r" + " " * len(self._last) + "\r")
            self._stream.flush()


def report(dice: int, progress: Progress | None = None) -> dict[str, Any]:
    """The whole comparison for ``dice`` dice, as JSON-ready data."""

    def told(stage: str) -> Callable[[int, int], None] | None:
        return None if progress is None else progress.stage(stage)

    rules = KILLER.variant.rules({"dice": dice})
    optimal = odds.phase_odds(dice, "attack", told("best odds"))
    least_loss = odds.phase_odds(dice, "loss", told("least loss"))
    most_damage = odds.phase_odds(dice, "damage", told("most damage"))
    text = odds.text_strategy_odds(dice, told("rule text"))
    if progress is not None:
        progress.done()
    return {
        "dice": dice,
        "low": rules.low,
        "high": rules.high,
        "objective": OBJECTIVE,
        "optimal": _block(optimal),
        "text_strategy": _block(text),
        "least_loss": _block(least_loss),
        "most_damage": _block(most_damage),
        "text_strategy_is_optimal": text.p_attack == optimal.p_attack,
        "text_strategy_has_least_loss": text.expected_loss == least_loss.expected_loss,
    }


def _table(data: dict[str, Any]) -> str:
    columns = ("optimal", "text_strategy", "least_loss", "most_damage")
    heads = ("best odds", "rule text", "least loss", "most damage")
    lines = [
        f"Killer with {data['dice']} dice: attack below {data['low']} or above {data['high']}, "
        f"regeneration on exactly {data['low']} or {data['high']}.",
        "Exact odds of one keep phase (percent):",
        "",
        f"{'':<18}" + "".join(f"{head:>14}" for head in heads),
    ]

    def row(label: str, values: list[str]) -> None:
        cells = [f"{100 * float(Fraction(v)):>13.4f}%" for v in values]
        lines.append(f"{label:<18}" + "".join(cells))

    for value in range(1, 7):
        row(f"attack of {value}", [data[c]["attack"][str(value)] for c in columns])
    row("any attack", [data[c]["p_attack"] for c in columns])
    row("regeneration", [data[c]["p_regeneration"] for c in columns])
    losses = sorted({int(v) for c in columns for v in data[c]["loss"]})
    for value in losses:
        row(f"loss of {value}", [data[c]["loss"].get(str(value), "0") for c in columns])
    row("any loss", [data[c]["p_loss"] for c in columns])
    for label, key in (
        ("expected loss", "expected_loss_decimal"),
        ("mean attack value", "expected_attack_value_decimal"),
    ):
        lines.append(f"{label:<18}" + "".join(f"{data[c][key]:>14.4f}" for c in columns))
    lines += [
        "",
        f"P(attack), best odds:  {data['optimal']['p_attack']}",
        f"P(attack), rule text:  {data['text_strategy']['p_attack']}",
        "The rule text's strategy is "
        + ("" if data["text_strategy_is_optimal"] else "not ")
        + "the best for attacking with this many dice.",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="croupier odds", description="Exact odds of a Killer keep phase.")
    parser.add_argument("--dice", default="5", help="number of dice, 3 to 10 (default 5)")
    parser.add_argument("--json", action="store_true", help="one JSON object with exact fractions")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="say how far it is on stderr (default: when stderr is a terminal)",
    )
    if argv[:1] == ["--"]:  # "croupier odds -- --dice 6" when a wrapper passes the rest verbatim
        argv = argv[1:]
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help or a usage error: argparse has printed why
        return int(stop.code or 0)
    try:
        dice = KILLER.variant.rules({"dice": args.dice}).dice
    except CroupierError as error:
        print(render(f"error.{error.code}", error.facts, "en", scope=scope_of(KILLER)), file=sys.stderr)
        return 2
    odds_tables.install()
    live = sys.stderr.isatty()
    shown = live if args.progress is None else args.progress
    data = report(dice, Progress(sys.stderr, dice, live=live) if shown else None)
    print(json.dumps(data) if args.json else _table(data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
