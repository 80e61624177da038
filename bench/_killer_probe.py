"""One step of ``bench.killer_odds``, run as its own process so that every "first" is a fresh start.

It uses only what every revision of the croupier has (the service, the store, ``engine.killer.odds``),
so ``--against`` can run it on an older checkout: ``PYTHONPATH=<tree> python _killer_probe.py STEP …``.
Prints one JSON object.

* ``prepare DB DICE`` — a Killer game for DICE dice in the console's channel, opened, joined by two
  players and started (at the first setup roll); says who is to act;
* ``advance DB`` — ``auto`` and ``conseil`` through the service, each ``conseil`` after a new roll
  timed, until the game reaches a turn's keep phase; says who is to act there;
* ``engine DICE ROLLS`` — ``conseil``'s own work (best keep and the odds shown) without the service:
  the first call, then ROLLS random positions; and the resident memory it took;
* ``tables`` — the resident memory of every shipped table opened at once.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import sys
import time
from itertools import count
from typing import Any

from bot.service.croupier import Croupier, Incoming, seed_from_text
from bot.store import Store
from engine.game import Join, Start
from engine.killer import odds

CHANNEL = GUILD = "console"  # the console's channel: a console process plays on in it
ids = count(1)


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def message(author: str, text: str = "") -> Incoming:
    return Incoming(
        message_id=f"probe:{time.time_ns()}:{next(ids)}",
        guild=GUILD,
        channel=CHANNEL,
        author=author,
        author_name=author.capitalize(),
        text=text,
        is_moderator=author == "mod",
        is_admin=author == "mod",
    )


def turn(store: Store) -> dict[str, Any]:
    with store.transaction() as uow:
        record = uow.games.open_in(CHANNEL)
    assert record is not None
    return dict(record.snapshot["turn"] or {})


async def prepare(url: str, dice: int) -> dict[str, Any]:
    store = await Store.open(url)
    try:
        croupier = Croupier(store=store, seed_source=seed_from_text("bench-killer-odds"))
        assert (await croupier.open_game(message("mod"), "killer", {"dice": dice})).ok
        for name in ("anna", "ben"):
            assert (await croupier.execute(message(name), Join(name.capitalize()))).ok
        assert (await croupier.execute(message("mod"), Start())).ok
        now = turn(store)
        assert now["step"] == "setup", now
        return {"player": now["player"]}
    finally:
        await store.close()


async def advance(url: str) -> dict[str, Any]:
    store = await Store.open(url)
    try:
        croupier = Croupier(store=store)
        new_rolls: list[float] = []
        while (now := turn(store))["step"] != "keep":
            assert now["step"] == "setup", now
            assert (await croupier.handle_text(message(now["player"], "auto"))).ok
            now = turn(store)
            if now["step"] in ("setup", "keep"):
                started = time.perf_counter()
                assert (await croupier.handle_text(message(now["player"], "conseil"))).ok
                new_rolls.append((time.perf_counter() - started) * 1000)
        return {"player": now["player"], "new_rolls_ms": new_rolls}
    finally:
        await store.close()


def conseil_work(dice: int, kept: tuple[int, ...], roll: tuple[int, ...]) -> object:
    """What ``conseil`` works out for a roll in a turn: the keep and the figures it shows."""
    found = odds.advise(dice, kept, roll, "attack")
    result = found.odds
    return (result.p_attack, result.p_regeneration, result.p_loss, result.expected_loss, result.attack(1))


def engine(dice: int, rolls: int) -> dict[str, Any]:
    rng = random.Random(dice)

    def position() -> tuple[tuple[int, ...], tuple[int, ...]]:
        kept = tuple(rng.randint(1, 6) for _ in range(rng.randrange(dice)))
        return kept, tuple(rng.randint(1, 6) for _ in range(dice - len(kept)))

    gc.collect()
    before = rss_kib()
    started, cpu = time.perf_counter(), time.process_time()
    conseil_work(dice, (), tuple(rng.randint(1, 6) for _ in range(dice)))
    first_ms = (time.perf_counter() - started) * 1000
    first_cpu_ms = (time.process_time() - cpu) * 1000
    times = []
    for _ in range(rolls):
        kept, roll = position()
        started = time.perf_counter()
        conseil_work(dice, kept, roll)
        times.append((time.perf_counter() - started) * 1000)
    gc.collect()
    return {
        "first_ms": first_ms,
        "first_cpu_ms": first_cpu_ms,
        "rolls_ms": times,
        "rss_growth_kib": rss_kib() - before,
    }


def tables() -> dict[str, Any]:
    """Every shipped table opened at once: the resident memory holding them all costs (none shipped
    in a revision without them)."""
    source = getattr(odds.solver, "source", None)
    gc.collect()
    before = rss_kib()
    wanted = [(n, goal) for n in range(3, 11) for goal in ("attack", "low", "high", "sum")]
    opened = [] if source is None else [source(n, goal) for n, goal in wanted]
    gc.collect()
    return {"tables_opened": sum(table is not None for table in opened), "rss_growth_kib": rss_kib() - before}


def main(argv: list[str]) -> None:
    step, *args = argv
    if step == "prepare":
        result = asyncio.run(prepare(args[0], int(args[1])))
    elif step == "advance":
        result = asyncio.run(advance(args[0]))
    elif step == "engine":
        result = engine(int(args[0]), int(args[1]))
    else:
        result = tables()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
