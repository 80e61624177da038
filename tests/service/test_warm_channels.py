"""A writer that finds a channel as its own last move left it starts from that, reading nothing
(bot/service/warm_channels.py) — and the players cannot tell: the answers, the stored game and the log are
what a move that reads gives, and whatever anybody else writes is seen at once.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.service.channels import key_of
from bot.service.croupier import Croupier
from bot.service.warm_channels import WarmChannels
from bot.store import Store
from bot.store.repositories import Channels
from engine.game import Join, Start
from tests.dice import scripted
from tests.service.helpers import GUILD, Table

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)
FACES = [3, 4, 1, 2, 6, 5, 5, 2, 3, 1, 4, 4, 6, 2, 5, 3, 1, 6, 2, 2]
LINES = [
    ("anna", "weiter"),
    ("anna", "weiter"),
    ("ben", "weiter"),  # not ben's turn: refused, recorded, no game change
    ("anna", "weiter"),
    ("anna", "stopp"),
    ("ben", "weiter"),
    ("ben", "weiter"),
    ("ben", "raube anna"),
    ("ben", "weiter"),
    ("ben", "stopp"),
    ("cleo", "weiter"),
    ("cleo", "weiter"),
    ("cleo", "weiter"),
    ("cleo", "stopp"),
]


async def play(table: Table) -> list[str]:
    answers = [(await table.open()).text]
    for name in ("anna", "ben", "cleo"):
        answers.append((await table.do(name, Join(name.capitalize()))).text)
    answers.append((await table.do("mod", Start())).text)
    for name, line in LINES:
        answers.append((await table.say(name, line)).text)
    return answers


def stored(store: Store, channel: str) -> tuple[Any, ...]:
    with store.transaction(read_only=True) as uow:
        game = uow.games.open_in(channel)
        assert game is not None
        log = [(e.message_id, e.actor, e.text, e.dice, e.reply) for e in uow.log.of_game(game.id)]
    return game.version, game.snapshot, game.dice_used, game.participants, log


def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on every read of a channel's state is noted in the list this returns."""
    reads: list[str] = []
    read = Channels.state

    def counted_read(channels: Channels, *args: Any, **kwargs: Any) -> Any:
        reads.append(channels.__class__.__name__)
        return read(channels, *args, **kwargs)

    monkeypatch.setattr(Channels, "state", counted_read)
    return reads


@SQLITE_ONLY
async def test_moves_from_a_warm_channel_answer_and_store_what_moves_that_read_do(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warm = await Store.open(db_url)
    cold = await Store.open(f"sqlite:///{tmp_path}/cold.sqlite3")
    try:
        kept = Croupier(store=warm, dice_factory=scripted(FACES), clock=lambda: NOW)
        never = Croupier(
            store=cold, dice_factory=scripted(FACES), clock=lambda: NOW, warm=WarmChannels(capacity=0)
        )
        reads = counted_reads(monkeypatch)
        answers = await play(Table(kept))
        warm_reads, reads[:] = len(reads), []
        assert answers == await play(Table(never))
        assert stored(warm, Table(kept).channel) == stored(cold, Table(never).channel)
        moves = 4 + len(LINES)  # three sign-ups, the start and the lines; the opening reads anyway
        assert len(reads) >= moves  # every move of the croupier that keeps nothing read the channel …
        assert warm_reads <= 2  # … the other read it for the opening and its first sign-up only
    finally:
        await warm.close()
        await cold.close()


@SQLITE_ONLY
async def test_what_another_process_writes_is_seen_by_the_next_move(store: Store, db_url: str) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted(FACES)), sender="here")
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    await table.do("mod", Start())
    assert (await table.say("anna", "weiter")).language == "de"
    other = await Store.open(db_url)  # a second bot process on the same file
    try:
        there = Table(Croupier(store=other, dice_factory=scripted(FACES)), sender="there")
        await other.run(lambda uow: (uow.settings.set(GUILD, table.channel, language="en"), uow.commit()))
        assert (await there.say("anna", "stopp")).ok  # and plays anna's move
    finally:
        await other.close()
    moved_on = await table.say("ben", "weiter")  # this process kept the channel before both
    assert moved_on.ok  # ben's turn, as the other process left it — not "not your turn"
    assert moved_on.language == "en"


@SQLITE_ONLY
async def test_channels_played_in_turn_and_at_once_stay_warm(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two channels on one croupier, their moves interleaved and sent at once (so that the writer
    commits them together): each channel starts from what its own last move left, although the
    other channel committed in between — and the answers and stored games are those of a croupier
    that reads every time, playing the two channels one after the other."""
    warm = await Store.open(db_url)
    cold = await Store.open(f"sqlite:///{tmp_path}/cold.sqlite3")
    try:
        kept = Croupier(store=warm, dice_factory=scripted(FACES), clock=lambda: NOW)
        never = Croupier(
            store=cold, dice_factory=scripted(FACES), clock=lambda: NOW, warm=WarmChannels(capacity=0)
        )
        tables = [Table(kept, channel=f"room-{number}") for number in (1, 2)]
        for table in tables:
            await table.open()
            for name in ("anna", "ben", "cleo"):
                await table.do(name, Join(name.capitalize()))
            await table.do("mod", Start())
        reads = counted_reads(monkeypatch)
        answers: list[list[str]] = [[], []]
        for name, line in LINES:
            both = await asyncio.gather(*(table.say(name, line) for table in tables))
            for number, reply in enumerate(both):
                answers[number].append(reply.text)
        assert len(reads) <= 2  # each channel's first move after the moderator's start, no more
        for number in (1, 2):
            alone = Table(never, channel=f"room-{number}")
            await alone.open()
            for name in ("anna", "ben", "cleo"):
                await alone.do(name, Join(name.capitalize()))
            await alone.do("mod", Start())
            assert [(await alone.say(name, line)).text for name, line in LINES] == answers[number - 1]
            assert stored(warm, f"room-{number}")[:3] == stored(cold, f"room-{number}")[:3]
    finally:
        await warm.close()
        await cold.close()


@SQLITE_ONLY
async def test_a_kept_channel_keeps_the_table_of_the_state_it_keeps(store: Store) -> None:
    """The next move names players from the kept table instead of working it out again: it must be
    the table of the kept state, after a move and after a refusal alike."""
    croupier = Croupier(store=store, dice_factory=scripted(FACES), clock=lambda: NOW)
    table = Table(croupier)
    await table.open()
    for name in ("anna", "ben"):
        await table.do(name, Join(name.capitalize()))
    await table.do("mod", Start())
    for name, line in [("anna", "weiter"), ("ben", "weiter"), ("anna", "stopp")]:
        await table.say(name, line)
        kept = croupier.warm.get(key_of(table.msg(name)))
        assert kept is not None
        here = kept[1]
        assert here.seats == tuple(here.game.table(here.state))
