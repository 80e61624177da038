"""Moderator and admin answers that name the fix, and ids where they are the thing to type: /skip
without a name, /verify abc and /verify 99, /tournaments, ``croupier export --tournament`` by id, by
``#id``, by name and by an ambiguous name, ``croupier verify --durchgang`` for a missing game, /verify
naming each game by its own title and id, an undo listed with its game's title. Expectations are
rendered from the catalogues."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from typing import Any

import pytest

from bot import cli
from bot.console.terminal import Console
from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store
from bot.texts import CONSOLE_COMMANDS, LANGUAGES, render
from tests.service.helpers import Table

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


def says(key: str, lang: str, game: str | None = None, **facts: Any) -> str:
    """What the console says for ``key`` (its command spelling), in the game's scope if one is named."""
    return render(key, facts, lang, scope=scope_of(GAMES[game]) if game is not None else None)


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


async def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``croupier ARGV`` (it runs its own event loop, so on a thread of its own)."""
    return await asyncio.to_thread(_cli, argv)


@pytest.fixture
def console(store: Store) -> Console:
    croupier = Croupier(store=store, seed_source=seed_from_text("texts-moderator"))
    return Console(croupier, moderators=frozenset({"mod"}), admins=frozenset({"mod"}))


async def say(console: Console, line: str) -> tuple[bool, str]:
    answer = await console.handle(line)
    assert answer is not None
    return answer.ok, answer.text


async def lines(console: Console, *typed: str) -> None:
    for line in typed:
        ok, text = await say(console, line)
        assert ok, (line, text)


async def in_language(console: Console, lang: str) -> None:
    await lines(console, f"mod: /settings language={lang}")


async def durchgang(console: Console, *players: str) -> None:
    """A Durchgang opened, played (each player throws once and stops) and closed."""
    await lines(console, "mod: /open verflixte6", *(f"{p}: /join" for p in players))
    for player in players:
        await lines(console, f"{player}: weiter", f"{player}: stopp")
    await lines(console, "mod: /close")


def closed_games(store: Store) -> list[Any]:
    with store.transaction(read_only=True) as uow:
        return list(uow.games.list_closed())


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("verb", ["/skip", "/remove"])
async def test_skip_or_remove_without_a_name_says_which_name_is_missing(
    console: Console, lang: str, verb: str
) -> None:
    await in_language(console, lang)
    await lines(console, "mod: /open verflixte6", "anna: /join")
    assert await say(console, f"mod: {verb}") == (False, says("error.name_missing", lang, command=verb))


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("typed", ["/verify abc", "/verify 1 2", "/verify -3"])
async def test_verify_with_something_else_than_an_id_is_answered_with_the_form(
    console: Console, lang: str, typed: str
) -> None:
    await in_language(console, lang)
    assert await say(console, f"mod: {typed}") == (False, says("error.verify_usage", lang))


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_verify_of_a_missing_game_names_it_and_how_to_see_the_ids(console: Console, lang: str) -> None:
    await in_language(console, lang)
    await durchgang(console, "anna")
    ok, text = await say(console, "mod: /verify 99")
    assert (ok, text) == (False, says("error.verify_unknown_game", lang, id=99))
    assert CONSOLE_COMMANDS["verify"] in text  # it names the command that lists the ids


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_verify_names_each_game_by_its_own_title_and_its_id(
    console: Console, store: Store, lang: str
) -> None:
    """Durchgang numbers count Durchgänge only, Killer games their own; every line has the id to type,
    and a game without a die says so instead of "0 dice checked, all match"."""
    await in_language(console, lang)
    await durchgang(console, "anna")
    await lines(console, "mod: /open killer", "mod: /close", "mod: /open verflixte6", "mod: /close")
    ok, text = await say(console, "mod: /verify")
    assert ok
    games = closed_games(store)
    expected = []
    for game in games:
        title = says("game.round", lang, game.kind, number=game.number)
        facts = {"title": title, "id": game.id, "commitment": game.commitment[:16] + "…"}
        key = "common.verify_ok" if game.dice_used else "common.verify_no_dice"
        expected.append(says(key, lang, **facts, count=game.dice_used))
    assert text.splitlines() == expected
    assert [(g.kind, g.number) for g in games] == [("verflixte6", 1), ("killer", 1), ("verflixte6", 2)]
    [killer] = [g for g in games if g.kind == "killer"]
    assert says("game.round", lang, "killer", number=1) in text.splitlines()[1]
    assert f"{killer.id}" in text.splitlines()[1]


@SQLITE_ONLY
async def test_croupier_verify_for_a_missing_game_fails_with_one_line(console: Console, db_url: str) -> None:
    await durchgang(console, "anna")
    code, out, err = await run_cli(["verify", "--durchgang", "7", "--db", db_url])
    assert code != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "7" in err
    code, out, _ = await run_cli(["verify", "--db", db_url])
    assert code == 0
    assert len(out.strip().splitlines()) == 1  # one line per game, its id in it (not twice)


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_tournaments_lists_the_channels_tournaments_with_ids_and_dates(
    console: Console, store: Store, lang: str
) -> None:
    assert await say(console, "mod: /tournaments") == (True, says("common.no_tournament", lang="de"))
    await in_language(console, lang)
    await durchgang(console, "anna")
    ok, started = await say(console, "mod: /tournament Sommer scoring=placement")
    assert ok
    assert started == says("common.tournament_started", lang, name="Sommer", scoring="placement")
    assert says("scoring.placement", lang) in started  # the scoring in words, in the channel's language
    ok, listed = await say(console, "mod: /tournaments")
    assert ok
    with store.transaction(read_only=True) as uow:
        tournaments = uow.tournaments.list("console")
    entries = [
        says("common.tournament_entry", lang, id=t.id, name=t.name, date=f"{t.created_at:%Y-%m-%d}", games=n)
        for t, n in zip(tournaments, (1, 0), strict=True)
    ]
    assert listed.splitlines() == [says("common.tournaments", lang), *entries]


async def export(db_url: str, *args: str) -> tuple[int, str, str]:
    return await run_cli(["export", "--format", "json", "--db", db_url, *args])


@SQLITE_ONLY
async def test_export_takes_a_tournament_by_id_by_hash_id_or_by_name(
    console: Console, store: Store, db_url: str
) -> None:
    await lines(console, "mod: /tournament Frühling")
    await durchgang(console, "anna")
    await lines(console, "mod: /tournament Sommer")
    await durchgang(console, "ben")
    with store.transaction(read_only=True) as uow:
        spring, summer = uow.tournaments.list("console")
    for wanted, tournament, player in (
        (str(spring.id), spring, "anna"),
        (f"#{spring.id}", spring, "anna"),  # as /tournaments lists it
        ("frühling", spring, "anna"),  # a name, case ignored
        ("Sommer", summer, "ben"),
    ):
        code, out, err = await export(db_url, "--tournament", wanted)
        assert (code, err) == (0, ""), wanted
        exported = json.loads(out)
        assert exported["tournament"] == tournament.name
        assert [row["player"] for row in exported["rows"]] == [player]
    code, out, _ = await export(db_url)  # the current one
    assert json.loads(out)["tournament"] == summer.name


@SQLITE_ONLY
async def test_export_refuses_a_name_two_tournaments_carry_and_names_their_ids(
    console: Console, store: Store, db_url: str
) -> None:
    await lines(console, "mod: /tournament Sommer")
    other = Table(Croupier(store=store), channel="table-2")
    assert (await other.croupier.new_tournament(other.msg("mod"), "Sommer")).ok
    with store.transaction(read_only=True) as uow:
        ids = [t.id for t in uow.tournaments.named("Sommer")]
    assert len(ids) == 2
    code, out, err = await export(db_url, "--tournament", "Sommer")
    assert code != 0
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert all(str(i) in err for i in ids)
    code, out, _ = await export(db_url, "--tournament", f"#{ids[1]}")  # the id picks one
    assert code == 0
    assert json.loads(out)["tournament"] == "Sommer"
    code, _, err = await export(db_url, "--tournament", "Winter")
    assert code != 0
    assert "Winter" in err


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_an_undo_in_a_killer_game_is_listed_with_the_killer_games_title(
    console: Console, lang: str
) -> None:
    await in_language(console, lang)
    await lines(console, "mod: /open killer", "anna: /join", "ben: /join", "mod: /undo Versehen")
    ok, listed = await say(console, "mod: /corrections")
    assert ok
    killer = says("game.round", lang, "killer", number=1)
    assert killer in listed.splitlines()[1]
    durchgang_title = says("game.round", lang, "verflixte6", number=1)
    assert durchgang_title not in listed


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("typed", ["/adjust anna", "/adjust -2 Grund", "/adjust"])
async def test_adjust_without_a_name_and_points_is_answered_with_its_form(
    console: Console, lang: str, typed: str
) -> None:
    await in_language(console, lang)
    await durchgang(console, "anna")
    assert await say(console, f"mod: {typed}") == (False, says("error.adjust_usage", lang))


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_bare_open_asks_which_game_like_a_bare_skip(console: Console, lang: str) -> None:
    """Not "unknown game „“": which game, with the games to type (the default one first)."""
    await in_language(console, lang)
    games = ["verflixte6", "killer", "killer-classic"]
    assert await say(console, "mod: /open") == (False, says("error.game_missing", lang, games=games))


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_an_open_with_several_bad_options_names_every_one(console: Console, lang: str) -> None:
    """K5-S1 and the Durchgang's options: each bad option gets its line, not only the first found."""
    await in_language(console, lang)
    ok, text = await say(console, "mod: /open killer modes=zombie,foo dice=12 colour=red")
    assert not ok
    assert text.splitlines() == [
        says("error.killer_unknown_option", lang, "killer", option="colour", known=["dice", "modes"]),
        says("error.killer_too_many_dice", lang, "killer", dice=12, minimum=3, maximum=10),
        says(
            "error.killer_unknown_mode", lang, "killer", mode="foo", valid=["terminator", "zombie", "mythic"]
        ),
    ]
    ok, text = await say(console, "mod: /open verflixte6 order=x parallel=vielleicht")
    assert not ok
    assert text.splitlines() == [
        says(
            "error.bad_option_value",
            lang,
            "verflixte6",
            option="order",
            value="x",
            valid=["signup", "shuffled"],
        ),
        says(
            "error.bad_option_value",
            lang,
            "verflixte6",
            option="parallel",
            value="vielleicht",
            valid=["yes", "no"],
        ),
    ]


@SQLITE_ONLY
async def test_a_refused_open_speaks_the_channels_language_not_the_games(console: Console) -> None:
    """No language set: after a Durchgang the channel speaks German, so a refused Killer opening does
    too (as /help on the next line); once a Killer game was played, a refused Durchgang is French."""
    await durchgang(console, "anna")
    for typed, facts in (
        ("modes=foo", {"mode": "foo", "valid": ["terminator", "zombie", "mythic"]}),
        ("dice=2", {"dice": 2, "minimum": 3, "maximum": 10}),
    ):
        key = "error.killer_unknown_mode" if "mode" in facts else "error.killer_too_few_dice"
        assert await say(console, f"mod: /open killer {typed}") == (False, says(key, "de", "killer", **facts))
    ok, helped = await say(console, "mod: /help")
    assert ok
    assert helped.startswith(says("common.help", "de", commands="").strip())
    await lines(console, "mod: /open killer", "mod: /close")
    refused = says(
        "error.bad_option_value", "fr", "verflixte6", option="order", value="x", valid=["signup", "shuffled"]
    )
    assert await say(console, "mod: /open verflixte6 order=x") == (False, refused)


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_verify_of_a_running_game_says_its_seed_is_still_secret(
    console: Console, store: Store, lang: str
) -> None:
    """Like ``croupier verify``: the game runs, its seed is secret until the close — not "no closed
    game". Another server's running game stays unnamed."""
    await in_language(console, lang)
    await durchgang(console, "anna")
    await lines(console, "mod: /open killer", "anna: /join")
    with store.transaction(read_only=True) as uow:
        running = uow.games.open_in("console")
    assert running is not None
    title = says("game.round", lang, "killer", number=1)
    assert await say(console, f"mod: /verify {running.id}") == (
        False,
        says("error.verify_game_open", lang, id=running.id, title=title),
    )
    elsewhere = Table(Croupier(store=store))
    assert (await elsewhere.open("verflixte6")).ok
    with store.transaction(read_only=True) as uow:
        theirs = uow.games.open_in(elsewhere.channel)
    assert theirs is not None
    assert await say(console, f"mod: /verify {theirs.id}") == (
        False,
        says("error.verify_unknown_game", lang, id=theirs.id),
    )


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["verflixte6", "killer"])
async def test_an_undo_after_the_close_says_the_game_is_closed_and_points_at_adjust(
    console: Console, lang: str, kind: str
) -> None:
    await in_language(console, lang)
    nothing = says("error.undo_no_open_game", lang)
    assert await say(console, "mod: /undo Versehen") == (False, nothing)
    await lines(console, f"mod: /open {kind}", "anna: /join", "ben: /join", "mod: /close")
    closed = says("error.undo_game_closed", lang, title=says("game.round", lang, kind, number=1))
    assert await say(console, "mod: /undo Versehen") == (False, closed)
    assert "/adjust" in closed


@SQLITE_ONLY
@pytest.mark.parametrize("lang", [None, *LANGUAGES])
async def test_a_tournament_an_opening_starts_is_named_in_the_openings_language(
    console: Console, store: Store, lang: str | None
) -> None:
    """Not „Turnier“ in every language: the catalogue's name, in the language the opening speaks (the
    channel's, else the game's: a Killer game French). Once stored, the name stays whatever the
    channel speaks later."""
    if lang is not None:
        await in_language(console, lang)
    spoken = lang or "fr"
    name = says("common.default_tournament", spoken)
    ok, opened = await say(console, "mod: /open killer")
    assert ok
    assert opened.splitlines()[0] == says("game.opened", spoken, "killer", number=1, tournament=name)
    other = "de" if spoken != "de" else "en"
    await lines(console, "mod: /close", f"mod: /settings language={other}", "mod: /open verflixte6")
    with store.transaction(read_only=True) as uow:
        assert [t.name for t in uow.tournaments.list("console")] == [name]


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_standings_after_durchgang_killer_durchgang_have_no_gap_in_their_columns(
    console: Console, lang: str
) -> None:
    """Durchgang numbers count Durchgänge only: a Killer game between two of them takes no number, so
    the standings show the columns of Durchgang 1 and 2 side by side — no column for a third."""
    await in_language(console, lang)
    await durchgang(console, "anna")
    await lines(console, "mod: /open killer", "anna: /join", "ben: /join", "mod: /close")
    await durchgang(console, "anna")
    ok, text = await say(console, "mod: /standings")
    assert ok
    columns = [
        says("standings.column.rank", lang),
        says("standings.column.player", lang),
        says("standings.column.round", lang, number=1),
        says("standings.column.round", lang, number=2),
        says("standings.column.total", lang),
        says("standings.column.best", lang),
        says("standings.column.zombies", lang),
    ]
    header = next(line for line in text.splitlines() if line.startswith("| "))
    assert header == f"| {' | '.join(columns)} |"
    assert says("standings.column.round", lang, number=3) not in text
