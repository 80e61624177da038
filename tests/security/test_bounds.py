"""Everything the Discord front end and the standings keep or draw from input has a bound: a bot in
many channels, or a tournament with many rounds, cannot make the process or a picture grow without end."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.discord import front as front_module
from bot.discord.embeds import DESCRIPTION_MAX, standings_embed
from bot.discord.front import RECENT_IDS, Front, Recent
from bot.discord.standings_image import standings_png
from bot.exports import StandingsRow, StandingsTable


class _Partial:
    def __init__(self, edits: list[int], message_id: int) -> None:
        self.edits = edits
        self.message_id = message_id

    async def edit(self, **kwargs: Any) -> None:
        self.edits.append(self.message_id)


class _Channel:
    def __init__(self, edits: list[int]) -> None:
        self.edits = edits

    def get_partial_message(self, message_id: int) -> _Partial:
        return _Partial(self.edits, message_id)


class _Client:
    def __init__(self) -> None:
        self.edits: list[int] = []

    def get_partial_messageable(self, channel_id: int) -> _Channel:
        return _Channel(self.edits)


def test_recent_event_ids_are_bounded_and_keep_the_newest() -> None:
    recent = Recent(100)
    for event in range(10_000):
        assert recent.first_time(event)
    assert len(recent._ids) == 100
    assert not recent.first_time(9_999)  # a redelivery of a recent event is still recognised
    assert recent.first_time(0)  # the oldest were forgotten
    assert RECENT_IDS <= 10_000


async def test_the_live_boards_are_bounded_by_channel(monkeypatch: pytest.MonkeyPatch) -> None:
    assert getattr(front_module, "BOARDS_MAX", 0) >= 1_000  # the real bound is generous
    monkeypatch.setattr(front_module, "BOARDS_MAX", 100, raising=False)
    client = _Client()
    front = Front(client, None)  # type: ignore[arg-type]
    for channel in range(1, 5_001):
        await front._board_moved(channel, channel * 10)
    assert len(front._boards) == 100
    assert front._boards[5_000] == 50_000  # the newest channels keep theirs
    await front._board_moved(5_000, 50_001)  # a new board in a remembered channel strips the old one
    assert client.edits == [50_000]


def _tournament(rounds: int, players: int) -> StandingsTable:
    rows = tuple(
        StandingsRow(
            rank=i + 1,
            player=str(i),
            name=f"Spieler {i} mit einem sehr langen Namen",
            points=tuple(range(rounds)),
            total=sum(range(rounds)),
            best=rounds - 1,
            zombies=0,
        )
        for i in range(players)
    )
    return StandingsTable("Dauerturnier " * 50, "sum", tuple(range(1, rounds + 1)), rows)


def test_the_standings_picture_has_a_bounded_size() -> None:
    picture = Image.open(io.BytesIO(standings_png(_tournament(rounds=400, players=500), "de")))
    width, height = picture.size
    assert width <= 2_000
    assert height <= 2_000


def test_the_standings_text_fits_one_embed_however_many_rounds() -> None:
    embed = standings_embed(_tournament(rounds=400, players=500), "de")
    assert len(embed.description or "") <= DESCRIPTION_MAX
    assert len(embed) <= 6_000
    lines = (embed.description or "").strip("`\n").splitlines()
    assert len(lines) > 10  # still a useful table, not just the header
