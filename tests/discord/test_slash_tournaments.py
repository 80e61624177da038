"""``/turniere`` (``/tournaments``, ``/tournois``): the channel's tournaments with their ids, start dates
and games, newest last, answered privately by the service in the channel's language — in the channel
and in a game's thread, whose tournaments are its parent channel's."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.discord import escape
from bot.store import Tournament
from tests.discord.helpers import Table, drawn, embeds_of, note, says, title
from tests.discord_emulator import InteractionResponse

HOSTILE = "[Sommer](https://evil.example) *Cup*"  # a tournament name that would be a link and emphasis


def tournaments_of(table: Table, channel: int) -> tuple[Tournament, ...]:
    """The channel's tournaments as the store holds them, oldest first (for their ids)."""
    with table.store.transaction(read_only=True) as uow:
        return uow.tournaments.list(str(channel))


def listing(tournaments: Sequence[tuple[Tournament, datetime, int]], lang: str) -> list[str]:
    """The answer's lines rendered from the catalogue: the heading, then each tournament with its id,
    the date it was started on and its number of games."""
    entries = [
        says("common.tournament_entry", lang, None, id=t.id, name=t.name, date=f"{day:%Y-%m-%d}", games=n)
        for t, day, n in tournaments
    ]
    return [says("common.tournaments", lang, None), *entries]


def lines_of(answer: InteractionResponse) -> list[str]:
    """A private answer's lines: its first embed's description, with no text beside it."""
    assert answer.ephemeral
    assert note(answer) == ""
    return str(embeds_of(answer)[0]["description"]).splitlines()


async def test_the_channels_tournaments_are_listed_with_ids_and_dates_in_its_language(table: Table) -> None:
    p, clock = table.people, table.clock
    spring, summer = datetime(2024, 3, 21, 9, 0, tzinfo=UTC), datetime(2024, 6, 21, 23, 30, tzinfo=UTC)
    async with table.running():
        _, nothing = await table.slash(p.anna, "turniere")
        assert lines_of(nothing) == [says("common.no_tournament", game=None)]
        clock.now = spring
        await table.slash_message(p.moni, "turnier", {"name": "Frühling"})
        clock.now = summer
        await table.slash_message(p.moni, "turnier", {"name": HOSTILE, "wertung": "placement"})
        first, second = tournaments_of(table, p.channel)
        assert first.id < second.id
        expected = [(first, spring, 0), (second, summer, 0)]
        _, listed = await table.slash(p.anna, "turniere")  # for everybody, not only moderators
        assert lines_of(listed) == listing(expected, "de")
        assert escape.name(HOSTILE) in lines_of(listed)[2]  # literal: no link, no emphasis
        assert "https://evil" not in lines_of(listed)[2]
        for lang in ("en", "fr"):
            await table.slash_message(p.moni, "einstellungen", {"sprache": lang})
            _, again = await table.slash(p.ben, "turniere")
            assert lines_of(again) == listing(expected, lang)
    assert tournaments_of(table, p.channel) == (first, second)  # a lookup changes nothing


async def test_in_a_games_thread_the_parent_channels_tournaments_are_listed(table: Table) -> None:
    p, emu, clock = table.people, table.emu, table.clock
    text = await emu.add_channel(p.guild, "tisch")  # threads on: each game gets a thread of its own
    started = clock.now
    async with table.running():
        await table.slash_message(p.moni, "turnier", {"name": "Ganz woanders"})  # another channel's
        sent = await emu.slash_command(p.guild, text, p.moni, "turnier", {"name": "Sommer"})
        await emu.wait_for_response(sent)
        sent = await emu.slash_command(
            p.guild, text, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        await emu.wait_for_response(sent)
        opening = await emu.next_message(text, predicate=lambda m: m.interaction_id == sent.id)
        thread = int(opening.content.split("<#")[1].split(">")[0])
        assert opening.content == drawn("discord.thread.opened", title=title(1), thread=f"<#{thread}>")
        assert emu.thread(thread)["parent_id"] == str(text)
        (summer,) = tournaments_of(table, text)
        inside = await emu.slash_command(p.guild, thread, p.anna, "turniere")
        listed = await emu.wait_for_response(inside)
        assert lines_of(listed) == listing([(summer, started, 1)], "de")  # the open game counts
        outside = await emu.slash_command(p.guild, text, p.anna, "turniere")
        assert lines_of(await emu.wait_for_response(outside)) == lines_of(listed)
    assert tournaments_of(table, thread) == ()  # no tournament of the thread's own was started
