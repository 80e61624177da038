"""Fairness statistics: the exact χ² survival function for 5 degrees of freedom, the luck figure, the
words, ``croupier stats``, and the p-values of 100 simulated tournaments of the real verifiable dice."""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from collections.abc import Sequence
from typing import Any

import pytest

from bot.cli import main
from bot.service.fairness import (
    DiceMemo,
    chi2_sf_5,
    counts_of,
    face_test,
    luck_of,
    verdict,
)
from bot.service.requests import WebStats
from bot.texts import render
from bot.web.words import fairness_text, verdict_words
from engine.dice import derive_die
from tests.web.rooms import Room, durchgang


def chi2_sf_numeric(x: float, k: int = 5, steps: int = 200_000) -> float:
    """P(χ²ₖ ≥ x) by integrating the density from x to far out (the midpoint rule)."""
    norm = 2 ** (k / 2) * math.gamma(k / 2)
    upper = x + 200.0
    width = (upper - x) / steps
    total = 0.0
    for i in range(steps):
        t = x + (i + 0.5) * width
        total += t ** (k / 2 - 1) * math.exp(-t / 2)
    return total * width / norm


@pytest.mark.parametrize(
    ("x", "p"),
    [
        (0.0, 1.0),
        (1.6103, 0.90),
        (4.35146, 0.50),
        (9.23636, 0.10),
        (11.0705, 0.05),
        (15.0863, 0.01),
        (20.515, 0.001),
    ],
)
def test_the_chi2_survival_function_meets_the_tables(x: float, p: float) -> None:
    assert chi2_sf_5(x) == pytest.approx(p, abs=2e-5)


@pytest.mark.parametrize("x", [0.3, 2.0, 5.0, 8.8, 13.0, 25.0])
def test_the_closed_form_is_the_integral_of_the_density(x: float) -> None:
    assert chi2_sf_5(x) == pytest.approx(chi2_sf_numeric(x), rel=1e-6)


def test_face_test_and_luck() -> None:
    fair = face_test((10, 10, 10, 10, 10, 10))
    assert fair.chi2 == 0
    assert fair.p == 1.0
    assert fair.enough
    loaded = face_test((5, 5, 5, 5, 5, 35))
    assert loaded.chi2 == pytest.approx((5 * 5**2 + 25**2) / 10)
    assert loaded.p < 1e-13
    assert not face_test((1, 1, 1, 1, 1, 1)).enough
    luck = luck_of(counts_of([6] * 20 + [1] * 20))
    assert luck.mean == 3.5
    assert luck.z == 0
    assert luck.p == 1.0
    lucky = luck_of(counts_of([6] * 30))
    assert lucky.se == pytest.approx(math.sqrt(35 / 12 / 30))
    assert lucky.z == pytest.approx(2.5 / math.sqrt(35 / 12 / 30))
    assert lucky.p < 1e-6


def test_the_words_people_read() -> None:
    assert verdict(0.003, True) == "fair_unusual"
    assert verdict(0.3, True) == "fair_usual"
    assert verdict(0.003, False) == "fair_too_few"
    assert verdict_words(0.003, True, "en") == "unusual, p = 0.003"
    assert verdict_words(0.42, True, "en") == "nothing unusual (p = 0.42)"
    assert verdict_words(0.003, True, "de") == "ungewöhnlich, p = 0,003"
    assert verdict_words(0.42, True, "fr") == "rien d'inhabituel (p = 0,42)"
    assert verdict_words(0.42, False, "fr") == render("web.fair_too_few", {}, "fr")


async def test_croupier_stats_counts_every_die_of_the_tournament(
    room: Room, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    await room.say(*durchgang(["anna", "ben", "cleo"], throws=4))
    await room.say(*durchgang(["anna", "ben"], throws=3))
    with room.store.transaction(read_only=True) as uow:
        entries = [entry for game_id in (1, 2) for entry in uow.log.of_game(game_id) if entry.dice]
        tournament = uow.tournaments.current("console")
    assert tournament is not None
    logged = [face for entry in entries for face in entry.dice]
    rolled = sorted({entry.actor for entry in entries})
    assert len(rolled) >= 2
    stats = await room.console.croupier.handle(WebStats())
    assert stats is not None
    lang, _, fairness = stats
    assert lang == "de"
    assert fairness.faces.counts == counts_of(logged)
    assert sum(p.luck.n for p in fairness.players) == len(logged)  # every die was some player's move
    assert [p.name for p in fairness.players] == rolled
    for player in fairness.players:
        mine = [face for entry in entries if entry.actor == player.name for face in entry.dice]
        assert player.faces.counts == counts_of(mine)
        assert player.luck.mean == pytest.approx(sum(mine) / len(mine))
    text = fairness_text(tournament.name, lang, fairness)
    assert text.splitlines()[0] == f"{render('web.fairness', {}, 'de')} — {tournament.name}"

    # The command line opens the database itself (on a thread: it runs its own event loop).
    assert await asyncio.to_thread(main, ["stats", "--db", db_url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice"] == len(logged)
    assert data["faces"] == {str(face): logged.count(face) for face in range(1, 7)}
    assert data["p"] == pytest.approx(face_test(counts_of(logged)).p, abs=1e-6)
    assert [p["name"] for p in data["players"]] == rolled
    assert await asyncio.to_thread(main, ["stats", "--db", db_url]) == 0
    assert "χ²" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["stats", "--db", db_url, "--tournament", "99"]) == 1


TOURNAMENTS = 100
DICE = 10_000


def test_the_verifiable_dice_give_uniform_p_values(record_property: pytest.RecordProperty) -> None:
    """100 tournaments of 10,000 dice each, from the real recipe with independent seeds: the χ²
    p-values of fair dice are uniform on (0, 1), so their Kolmogorov–Smirnov distance to U(0, 1) stays
    below the 1 % critical value, and each tenth of (0, 1) holds about a tenth of them."""
    started = time.perf_counter()
    p_values = []
    tests = []
    for tournament in range(TOURNAMENTS):
        seed = hashlib.sha256(f"fairness-simulation:{tournament}".encode()).digest()
        faces = [derive_die(seed, tournament + 1, i) for i in range(DICE)]
        tests.append(face_test(counts_of(faces)))
        p_values.append(tests[-1].p)
    d = ks_uniform(p_values)
    critical = ks_critical_1_percent(TOURNAMENTS)
    deciles = [sum(1 for p in p_values if i / 10 <= p < (i + 1) / 10) for i in range(10)]
    deciles_chi2 = sum((count - TOURNAMENTS / 10) ** 2 / (TOURNAMENTS / 10) for count in deciles)
    elapsed = time.perf_counter() - started
    report = {
        "first_tournament": {
            "faces": list(tests[0].counts),
            "chi2": round(tests[0].chi2, 3),
            "p": round(tests[0].p, 4),
        },
        "unusual_below_1pct": sum(1 for p in p_values if p < 0.01),
        "ks": round(d, 4),
        "ks_critical_1pct": round(critical, 4),
        "deciles": deciles,
        "deciles_chi2_9df": round(deciles_chi2, 2),
        "p_min": round(min(p_values), 4),
        "p_median": round(sorted(p_values)[TOURNAMENTS // 2], 4),
        "p_max": round(max(p_values), 4),
        "seconds": round(elapsed, 1),
    }
    record_property("fairness_simulation", json.dumps(report))
    print("fairness simulation:", json.dumps(report))
    assert d < critical, report
    assert deciles_chi2 < 21.666, report  # the 1 % critical value of χ² with 9 degrees of freedom


async def test_a_tournaments_dice_are_read_again_once_any_game_moved(room: Room) -> None:
    await room.say(*durchgang(["anna", "ben"], throws=2))
    await room.say("mod: /open verflixte6", "anna: /join", "ben: /join", "mod: /start")
    memo = DiceMemo()
    reads: list[int] = []

    def games_and_read() -> tuple[Any, Any]:
        with room.store.transaction(read_only=True) as uow:
            tournament = uow.tournaments.current("console")
            assert tournament is not None
            games = uow.web.games_in(tournament.id)
            rolled = uow.web.dice_in([game.id for game in games])
        return games, lambda: reads.append(len(rolled)) or rolled

    names = {"anna": "anna", "ben": "ben"}
    games, read = games_and_read()
    first, counted = memo.get(games, read, names)
    again, _ = memo.get(*games_and_read(), names)
    assert again is first  # nothing moved: not read again
    assert len(reads) == 1
    (moved,) = await room.say("anna: weiter")
    assert moved.ok
    after, counted_after = memo.get(*games_and_read(), names)
    assert len(reads) == 2
    assert after.faces.n == first.faces.n + 1
    assert counted_after[games[-1].id] == counted.get(games[-1].id, 0) + 1


def ks_uniform(values: Sequence[float]) -> float:
    """The Kolmogorov–Smirnov statistic of ``values`` against U(0, 1)."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise ValueError("no values")
    return max(max((i + 1) / n - v, v - i / n) for i, v in enumerate(ordered))


def ks_critical_1_percent(n: int) -> float:
    """The asymptotic 1 % critical value of the one-sample KS statistic, 1.628 / √n."""
    return 1.6276 / math.sqrt(n)
