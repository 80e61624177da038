"""Everything the Discord front end, the service, the parsers and the standings keep or draw from input
has a bound: a bot in many channels, a flood of answers, endless new words, or a tournament with many
rounds cannot make the process or a picture grow without end."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from PIL import Image

from bot.discord import front as front_module
from bot.discord.embeds import standings_embeds
from bot.discord.front import RECENT_IDS, Front, Recent
from bot.discord.limits import fits, messages
from bot.discord.outbox import QUEUE_MAX, Outbox
from bot.discord.standings_image import standings_png
from bot.exports import StandingsRow, StandingsTable
from bot.service.open_kinds import CAPACITY, OpenKinds
from bot.service.thread_plans import CAPACITY as THREAD_PLANS_CAPACITY
from bot.service.thread_plans import ThreadPlans
from bot.service.warm_channels import CAPACITY as WARM_CAPACITY
from bot.service.warm_channels import WarmChannels
from bot.store import Mark
from engine import commands
from engine.commands import closest, fold


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


def test_the_standings_text_fits_discords_limits_however_many_rounds_and_players() -> None:
    embeds = standings_embeds(_tournament(rounds=400, players=500), "de")
    pages = messages(embeds)
    assert all(fits(page) for page in pages)  # every message within Discord's limits …
    rows = [
        line
        for embed in embeds
        for line in (embed.description or "").strip("`\n").splitlines()[1:]  # … each page with its header
    ]
    assert len(rows) == 500  # … and every player on one of them: nothing cut


def test_the_open_game_hints_are_bounded_and_keep_the_newest_channels() -> None:
    kinds = OpenKinds()
    kind = ("verflixte6", "killer")
    for channel in range(CAPACITY + 1_000):
        kinds.saw(f"c{channel}", kind[channel % 2])
    assert len(kinds._kinds) == CAPACITY
    assert all(kinds.get(f"c{c}") == kind[c % 2] for c in range(1_000, CAPACITY + 1_000))
    assert kinds.get("c999") is None  # forgotten: the service reads the channel, as for one never seen
    kinds.saw("c999", None)  # a forgotten channel is learnt again, pushing out the oldest
    assert len(kinds._kinds) == CAPACITY
    assert "c999" in kinds._kinds
    assert kinds.get("c1000") is None
    assert kinds.get("c1001") == "killer"


def test_the_warm_channels_are_bounded_and_keep_the_most_recently_written() -> None:
    warm: WarmChannels[str] = WarmChannels()
    mark = Mark(connection=1, data_version=1, commits=1)
    for channel in range(WARM_CAPACITY + 500):
        warm.keep(("g", f"c{channel}", f"c{channel}"), mark, f"state {channel}")
    assert len(warm) == WARM_CAPACITY
    assert warm.get(("g", "c499", "c499")) is None  # forgotten: its next move reads the channel
    assert warm.get(("g", "c500", "c500")) == (mark, "state 500")
    warm.keep(("g", "c500", "c500"), None, None)  # a mark that cannot be trusted forgets the channel
    assert warm.get(("g", "c500", "c500")) is None


def test_the_homes_that_planned_threads_are_bounded_and_keep_the_most_recent() -> None:
    plans = ThreadPlans()
    for home in range(THREAD_PLANS_CAPACITY + 500):
        plans.saw(("g", f"h{home}"), thread=True)
    assert not plans.plans_thread(("g", "h499"))  # forgotten: its next plan runs as a writer again
    assert plans.plans_thread(("g", "h500"))
    plans.saw(("g", "h500"), thread=False)  # opened in place since: forgotten
    assert not plans.plans_thread(("g", "h500"))


async def test_a_channels_outbox_is_bounded_and_sends_what_it_took_in_order() -> None:
    outbox = Outbox()
    sent: list[tuple[int, int]] = []

    def post(channel: int, number: int) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            sent.append((channel, number))

        return job

    taken = [outbox.put(7, post(7, n)) for n in range(QUEUE_MAX + 100)]
    assert taken == [True] * QUEUE_MAX + [False] * 100  # the rest refused: their answers stay pending
    assert outbox.waiting(7) == QUEUE_MAX
    assert outbox.put(8, post(8, 0))  # another channel is not held up by a full one
    await outbox.idle()
    assert [n for channel, n in sent if channel == 7] == list(range(QUEUE_MAX))
    assert (8, 0) in sent
    assert outbox.put(7, post(7, QUEUE_MAX))  # drained: the channel takes answers again
    await outbox.idle()
    assert sent[-1] == (7, QUEUE_MAX)
    await outbox.close(0)


def test_the_folding_and_name_matching_caches_are_bounded() -> None:
    kept = commands._kept_fold
    kept.cache_clear()
    assert fold("Ö" * 5_000) == "oe" * 5_000
    assert kept.cache_info().currsize == 0  # a long text is folded afresh, never kept
    bound = kept.cache_info().maxsize
    assert bound is not None
    for n in range(bound + 500):
        assert fold(f"Wört {n}?") == f"woert {n}"
    assert kept.cache_info().currsize == bound
    assert fold("Wört 0?") == "woert 0"  # forgotten and folded again: the same answer

    matches = commands._closest
    matches.cache_clear()
    limit = matches.cache_info().maxsize
    assert limit is not None
    for n in range(limit + 100):
        assert closest(f"Anan{n}", ("Anna", "Ben")) == ["Anna"]
    assert matches.cache_info().currsize == limit
    assert closest("Bne", ("Anna", "Ben")) == ["Ben"]
