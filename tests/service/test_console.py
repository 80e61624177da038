"""The console channel: line format, slash commands, permissions, JSON output."""

from __future__ import annotations

import argparse
import io
import json
import shlex
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import markup
from bot.console.terminal import (
    CHANNEL,
    GUILD,
    Answer,
    Console,
    _spelled_plainly,
    _words,
    console_text,
    run_console,
)
from bot.games import GAMES, scope_of
from bot.replies import Board, Card, Reply, Row
from bot.service.croupier import Croupier, seed_from_text
from bot.service.requests import Incoming, Line
from bot.spelling import CONSOLE, ConsoleSpelling
from bot.store import Store
from bot.texts import render
from tests.dice import scripted
from tests.service.helpers import open_game_view

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.fixture
def console(store: Store) -> Console:
    croupier = Croupier(store=store, seed_source=seed_from_text("console-test"))
    return Console(croupier, moderators=frozenset({"mod"}), admins=frozenset({"boss"}))


async def answers(console: Console, *lines: str) -> list[tuple[bool, str]]:
    result = []
    for line in lines:
        answer = await console.handle(line)
        assert answer is not None
        result.append((answer.ok, answer.text))
    return result


async def test_a_durchgang_can_be_played_closed_exported_and_verified(console: Console) -> None:
    replies = await answers(
        console,
        "mod: /tournament Wintercup",
        "mod: /open verflixte6",
        "anna: /join",
        "ben: /join",
        "cleo: /join",
        "anna: weiter",
        "anna: stopp",
        "ben: weiter",
        "ben: stopp",
        "cleo: weiter",
        "cleo: stopp",
        "mod: /close",
        "anna: /standings",
        "boss: /export bbcode",
        "anna: /verify",
    )
    assert all(ok for ok, _ in replies), replies
    assert "Wintercup" in replies[0][1]
    assert "[table]" in replies[13][1]
    assert "Wintercup" in replies[13][1]
    assert "✅" in replies[14][1]
    standings = replies[12][1]
    for name in ("anna", "ben", "cleo"):
        assert name in standings


@pytest.mark.parametrize(
    ("line", "code", "facts"),
    [
        ("anna: /open verflixte6", "not_moderator", {}),
        ("anna: /close", "not_moderator", {}),
        ("anna: /skip ben", "not_moderator", {}),
        ("mod: /export csv", "not_admin", {}),
        ("anna: /frobnicate", "unknown_command", {"command": "/frobnicate"}),
        ("no colon here", "bad_line", {}),
        ("boss: /export pdf", "unknown_format", {"format": "pdf", "valid": "bbcode, csv, json, markdown"}),
    ],
)
async def test_refusals_are_explained(console: Console, line: str, code: str, facts: dict[str, str]) -> None:
    await answers(console, "mod: /open verflixte6", "ben: /join")
    answer = await console.handle(line)
    assert answer is not None
    assert not answer.ok
    assert answer.text == render(f"error.{code}", facts, "de")


async def test_message_ids_make_lines_exactly_once(console: Console, store: Store) -> None:
    await answers(console, "#1 mod: /open verflixte6", "#2 anna: /join", "#3 anna: weiter")
    first = await console.handle("#3 anna: weiter")
    assert first is not None
    assert first.id == "3"
    with store.transaction() as uow:
        record = uow.games.open_in("console")
    assert record is not None
    assert record.dice_used == 1


async def test_json_output_is_one_object_per_line(console: Console) -> None:
    stdin = io.StringIO("mod: /open verflixte6\n\nanna: /join\nanna: Hallo!\n")
    stdout = io.StringIO()
    assert await run_console(console, stdin=stdin, stdout=stdout, as_json=True) == 0
    objects = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [o["id"] for o in objects] == ["1", "2", "3"]
    assert all(set(o) == {"id", "ok", "text"} for o in objects)
    assert objects[2] == {"id": "3", "ok": True, "text": ""}  # chit-chat: nothing to say


async def test_help_rules_and_jokers(console: Console) -> None:
    await answers(console, "mod: /open verflixte6 jokers=Rattenlord,Fumo")
    (help_ok, help_text), (rules_ok, rules_text), (jokers_ok, jokers_text) = await answers(
        console, "anna: /help", "anna: /rules", "anna: /jokers"
    )
    scope = scope_of(GAMES["verflixte6"])
    listing = ", ".join(ConsoleSpelling().listing("de"))
    assert help_ok
    assert help_text.splitlines() == [
        render("common.help", {"commands": listing}, "de"),
        render("help.words", {}, "de", scope=scope),  # the open game's words after the commands
    ]
    assert rules_ok
    assert rules_text == render("help.rules", {}, "de", scope=scope)
    assert jokers_ok
    assert "Rattenlord" in jokers_text
    assert "Fumo" in jokers_text
    assert "Anaconda" not in jokers_text


async def test_settings_switch_the_language(console: Console) -> None:
    replies = await answers(console, "mod: /settings language=en", "mod: /open verflixte6", "anna: /join")
    assert all(ok for ok, _ in replies)
    scope = scope_of(GAMES["verflixte6"])
    jungfrau = render("role.jungfrau", {}, "en", scope=scope)
    row = render("common.table_row", {"name": "anna", "role": jungfrau, "points": 0, "details": ""}, "en")
    assert f"▶ {row}" in replies[2][1].splitlines()  # the running table speaks English now
    tournament = render("common.default_tournament", {}, "en")  # started on the spot, named in English
    opened = render("game.opened", {"number": 1, "tournament": tournament}, "en", scope=scope)
    assert replies[1][1].splitlines()[0] == opened


def _scripted_console(store: Store, faces: list[int]) -> Console:
    return Console(Croupier(store=store, dice_factory=scripted(faces)), moderators=frozenset({"mod"}))


async def test_killer_plays_to_the_end_in_the_console(store: Store) -> None:
    script = json.loads((GOLDEN / "killer_seed_examples.json").read_text())
    console = _scripted_console(store, script["dice"])
    setup = await answers(console, "mod: /open killer dice=5", "anna: /join", "ben: /join", "mod: /start")
    assert all(ok for ok, _ in setup), setup
    played = await answers(console, *(f"{line['from']}: {line['text']}" for line in script["lines"]))
    assert all(ok for ok, _ in played), played
    assert "anna" in played[-1][1]
    view = await open_game_view(store, "console")
    assert view is None  # the game ended by itself: nobody needs to close it
    with store.transaction() as uow:
        (game,) = uow.games.list_closed()
    assert {p.player: p.role for p in game.participants} == {"anna": "alive", "ben": "dead"}


async def test_killer_classic_plays_to_the_end_in_the_console(store: Store) -> None:
    # Setup: anna keeps 6×6 (36 PDV), ben 6×1 (6 PDV); anna's strength 36 − 30 = 6; her attack rolls
    # three 6s: 18 damage, ben drops below 0 and is out at once.
    faces = [6] * 6 + [1] * 6 + [6] * 6 + [6, 6, 6, 1, 2, 3]
    console = _scripted_console(store, faces)
    replies = await answers(
        console,
        "mod: /open killer-classic",
        "anna: /join",
        "ben: /join",
        "mod: /start",
        "anna: garde tout",
        "ben: garde tout",
        "anna: garde tout",
        "anna: attaque ben",
    )
    assert all(ok for ok, _ in replies), replies
    with store.transaction() as uow:
        (game,) = uow.games.list_closed()
    roles = {p.player: (p.role, p.points) for p in game.participants}
    assert roles["anna"] == ("alive", 36)
    assert roles["ben"][0] == "dead"


async def test_lines_without_ids_in_a_new_session_are_new_messages(store: Store) -> None:
    croupier = Croupier(store=store, seed_source=seed_from_text("sessions"))
    first = Console(croupier, moderators=frozenset({"mod"}))
    await answers(first, "mod: /open verflixte6", "anna: /join", "anna: weiter")
    second = Console(croupier, moderators=frozenset({"mod"}))  # e.g. `make run` again the next day
    await answers(second, "ben: /join", "anna: hallo", "anna: weiter")
    with store.transaction() as uow:
        record = uow.games.open_in("console")
    assert record is not None
    assert {p.player for p in record.participants} == {"anna", "ben"}
    assert record.dice_used == 2  # the second session's "weiter" (its line 3) was applied too


async def test_a_console_without_moderators_says_how_to_name_one(store: Store) -> None:
    """Issue 12: a moderator command refused in a console nobody moderates names the option to use."""
    console = Console(Croupier(store=store, seed_source=seed_from_text("no-mod")))
    [(ok, text)] = await answers(console, "anna: /open verflixte6")
    assert not ok
    assert text == "\n".join(
        [render("error.not_moderator", {}, "de"), render("console.name_a_moderator", {"name": "anna"}, "de")]
    )
    [(ok, text)] = await answers(console, "anna: /export csv")
    assert not ok
    assert render("console.name_a_moderator", {"name": "anna"}, "de") in text


async def test_a_console_with_a_moderator_refuses_others_without_the_hint(console: Console) -> None:
    [(ok, text)] = await answers(console, "anna: /open verflixte6")
    assert not ok
    assert text == render("error.not_moderator", {}, "de")


def test_console_help_explains_moderator_and_admin(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    with pytest.raises(SystemExit):
        main(["console", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    options = console_options()
    for flag in ("--moderator", "--admin"):
        action = options[flag]
        assert action.metavar == "NAME"
        assert action.help is not None
        assert f"{flag} NAME {' '.join(action.help.split())}" in help_text  # the parser's own words …
        assert "NAME:" in action.help  # … say which typed lines the option is about
    assert "open" in options["--moderator"].help
    assert "export" in options["--admin"].help


def console_options() -> dict[str, argparse.Action]:
    """The options of ``croupier console`` as its parser defines them."""
    from bot.commands import _parser

    subparsers = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    console = subparsers.choices["console"]
    return {flag: action for action in console._actions for flag in action.option_strings}


async def test_the_console_draws_no_boards_yet_prints_and_logs_the_same(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A croupier that draws no boards (the console's: it prints none) prints and logs the same as one
    that draws them."""
    lines = ["mod: /open verflixte6", "anna: /join", "ben: /join", "anna: weiter", "anna: raube ben"]
    lines += ["anna: stopp", "ben: weiter mit Joker Rattenlrd", "ben: weiter", "ben: stopp", "mod: /close"]
    moment = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    printed: dict[bool, list[Answer | None]] = {}
    logged: dict[bool, list[object]] = {}
    boards: dict[bool, Board | None] = {}
    for draws in (True, False):
        path = tmp_path / f"boards-{draws}.sqlite3"
        shutil.copy(request.getfixturevalue("_sqlite_head"), path)
        store = await Store.open(f"sqlite:///{path}")
        try:
            croupier = Croupier(
                store=store, seed_source=seed_from_text("boards"), clock=lambda: moment, boards=draws
            )
            console = Console(croupier, moderators=frozenset({"mod"}), session="same")
            printed[draws] = [await console.handle(line) for line in lines[:4]]
            msg = Incoming("board", GUILD, CHANNEL, "anna", "anna", text="weiter")
            boards[draws] = (await croupier.handle(Line(msg))).board
            printed[draws] += [await console.handle(line) for line in lines[4:]]
            for number in range(1, len(lines) + 1):
                found = await store.run(
                    lambda uow, n=number: uow.log.find(f"console:same:{n}"), read_only=True
                )
                logged.setdefault(draws, []).append(None if found is None else found.reply)
        finally:
            await store.close()
    assert boards[True] is not None
    assert boards[True].buttons
    assert boards[False] is None
    assert printed[False] == printed[True]
    assert logged[False] == logged[True]
    assert None not in logged[True]  # every line was judged, and logged with its reply


def test_croupier_console_draws_no_boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.console.terminal
    from bot.cli import main

    seen: list[bool] = []

    async def run(console: Console, **options: object) -> int:
        seen.append(console.croupier.boards)
        return 0

    monkeypatch.setattr(bot.console.terminal, "run_console", run)
    assert main(["console", "--db", f"sqlite:///{tmp_path / 'console.sqlite3'}"]) == 0
    assert seen == [False]


# Characters that matter to shlex and to JSON: its quotes and escape, its whitespace and whitespace it
# does not split at, control characters, separators JSON leaves alone, letters beyond ASCII.
_TRICKY = st.text(alphabet=st.sampled_from(list("ab/=#'\"\\ \t\n\r\x0b\x0c\x00\x1f\x7fé\u00a0\u2028ß")))


@given(_TRICKY)
def test_slash_command_words_are_read_as_shlex_reads_them(text: str) -> None:
    try:
        expected = shlex.split(text)
    except ValueError:  # quotes that do not pair: split at whitespace
        expected = text.split()
    assert _words(text) == expected


@given(_TRICKY, st.booleans(), _TRICKY)
def test_json_answers_are_what_json_dumps_writes(line_id: str, ok: bool, text: str) -> None:
    answer = Answer(line_id, ok, text)
    expected = json.dumps({"id": line_id, "ok": ok, "text": text}, ensure_ascii=False)
    assert answer.as_json() == expected
    assert json.loads(answer.as_json()) == {"id": line_id, "ok": ok, "text": text}


# Neutral text: the markup's own characters, alone and in spans.
_PIECES = [*"ab |\\\n⟦⟧", "⟦cmd|join⟧", "⟦name|p1|Anna⟧", "⟦code|x⟧"]
_NEUTRAL = st.lists(st.sampled_from(_PIECES), max_size=6).map("".join)


@given(
    st.lists(_NEUTRAL, max_size=3),
    _NEUTRAL,
    st.lists(st.tuples(_NEUTRAL, st.booleans(), _NEUTRAL), max_size=3),
    st.lists(st.tuples(_NEUTRAL, _NEUTRAL), max_size=2),
    _NEUTRAL,
    st.sampled_from(["en", "de", "fr"]),
)
def test_the_console_text_is_the_spelled_reply_s_text(
    lines: list[str],
    title: str,
    rows: list[tuple[str, bool, str]],
    cards: list[tuple[str, str]],
    result: str,
    lang: str,
) -> None:
    """The console spells only what a reply's text shows (see ``console_text``): the same text."""
    table = tuple(
        Row(f"p{n}", name, "alive", "alive", n, to_act, details)
        for n, (name, to_act, details) in enumerate(rows)
    )
    reply = Reply(
        ok=True,
        lines=tuple(lines),
        title=title,
        table=table,
        cards=tuple(Card(title, (("Anna", text),)) for title, text in cards),
        result=result,
        language=lang,
        error_code="x",
        game_id=3,
    )
    assert console_text(reply) == reply.spelled(CONSOLE).text


def test_the_help_s_listing_of_commands_is_never_spelled_from_the_cache() -> None:
    """Spelled sentences are cached, but the listing names the games installed, which may change."""
    listing = Reply(ok=True, lines=(f"Commands: {markup.listing(None)}",))
    before = _spelled_plainly.cache_info()
    assert console_text(listing) == listing.spelled(CONSOLE).text
    after = _spelled_plainly.cache_info()
    assert (after.hits, after.misses) == (before.hits, before.misses)
