"""Abuse through the service and the console: nobody gets further than the rules and their rights allow.

Non-moderators try every moderator action (typed in the console, and as every moderator-only command
of the engines sent to the service directly); non-admins try to export; participants and strangers
answer decisions that are not theirs and press the buttons of the player to act (the words of that
player's ``choices()``) at every step of the scripted Durchgänge. Every attempt is refused and the
store is left exactly as it was.
"""

from __future__ import annotations

import dataclasses
import itertools
import typing
from typing import Any

import pytest

import engine.killer
import engine.verflixte6  # noqa: F401  (their commands must be imported to be found below)
from bot.console.terminal import Console
from bot.games import GAMES
from bot.service.croupier import Croupier, Incoming
from bot.store import Store
from bot.texts import render
from engine.game import Choice, Command
from tests.faults import harness, worker
from tests.faults.scripts import KEULER, KILLER, ROBBERY, Script
from tests.service.helpers import open_game_view

STRANGER = "eve"


@pytest.fixture
async def table(store: Store) -> Console:
    """ROBBERY up to anna's first throw: a game open, four players seated, anna to act."""
    console = worker.console_for(store, ROBBERY)
    for line in ROBBERY.lines[:8]:
        await harness.answer(console, line)
    return console


def _not_moderator(lang: str = "de") -> tuple[bool, str]:
    return False, render("error.not_moderator", {}, lang)


MODERATOR_LINES = [
    "/tournament Sommercup",
    "/tournament Sommercup scoring=placement",
    "/open verflixte6",
    "/open killer",
    "/start",
    "/skip ben",
    "/remove ben",
    "/close",
    "/settings language=en",
    "/settings timeout=60",
]


async def test_non_moderators_are_refused_every_moderator_action(table: Console, store: Store) -> None:
    before = await harness.contents(store)
    for who, line in itertools.product(("anna", "ben", STRANGER), MODERATOR_LINES):
        assert await harness.answer(table, f"{who}: {line}") == _not_moderator(), f"{who}: {line}"
    added = harness.refusals_only(before, await harness.contents(store))
    assert len(added) == 3 * len(MODERATOR_LINES)  # each refusal recorded once, nothing else


async def test_only_admins_export(store: Store) -> None:
    croupier = Croupier(store=store)
    console = Console(croupier, moderators=frozenset({"mod"}), admins=frozenset({"boss"}))
    for line in ROBBERY.lines[:8]:  # the moderator "mod" is not an admin on this console
        await harness.answer(console, line)
    before = await harness.contents(store)
    refused = (False, render("error.not_admin", {}, "de"))
    for fmt in ("csv", "json", "markdown", "bbcode"):
        for who in ("anna", "mod", STRANGER):
            assert await harness.answer(console, f"{who}: /export {fmt}") == refused
        assert (await harness.answer(console, f"boss: /export {fmt}"))[0]
    assert await harness.contents(store) == before


def _all_commands() -> list[type[Command]]:
    found: list[type[Command]] = []
    todo = list(Command.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(found, key=lambda cls: (cls.__module__, cls.__name__))


def _instance(cls: type[Command]) -> Command:
    """The command with plausible field values (the moderator check comes before any of them matter)."""
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        hint = str(hints.get(field.name, ""))
        values[field.name] = 1 if "int" in hint else () if "tuple" in hint else "ben"
    return cls(**values)


MODERATOR_COMMANDS = [cls for cls in _all_commands() if cls.moderator_only]


def test_the_engines_have_the_moderator_commands_this_file_expects() -> None:
    assert {cls.__name__ for cls in MODERATOR_COMMANDS} >= {"Start", "Skip", "Remove", "Close", "Timeout"}


@pytest.mark.parametrize("command_type", MODERATOR_COMMANDS, ids=lambda cls: cls.__name__)
async def test_every_moderator_only_command_sent_to_the_service_by_a_player_is_refused(
    table: Console, store: Store, command_type: type[Command]
) -> None:
    before = await harness.contents(store)
    for number, who in enumerate(("anna", "ben", STRANGER)):
        msg = Incoming(f"abuse:{command_type.__name__}:{number}", "console", "console", who, who)
        reply = await table.croupier.execute(msg, _instance(command_type))
        assert not reply.ok
        assert reply.error_code == "not_moderator"
    assert len(harness.refusals_only(before, await harness.contents(store))) == 3


async def test_the_service_refuses_moderator_and_admin_actions_to_players(
    table: Console, store: Store
) -> None:
    croupier = table.croupier
    before = await harness.contents(store)
    ids = itertools.count()

    def msg(who: str) -> Incoming:
        return Incoming(f"abuse:service:{next(ids)}", "console", "console", who, who)

    for who in ("anna", STRANGER):
        refusals = [
            await croupier.open_game(msg(who), "killer", {}),
            await croupier.new_tournament(msg(who), "Sommercup", "placement"),
            await croupier.change_settings(msg(who), {"language": "fr"}),
        ]
        assert [reply.error_code for reply in refusals] == ["not_moderator"] * 3
        assert (await croupier.export(msg(who), "csv")).error_code == "not_admin"
    # The moderator actions' refusals are recorded; an export is a read and writes nothing.
    assert len(harness.refusals_only(before, await harness.contents(store))) == 6


# --- decisions and buttons that belong to someone else -------------------------------------------------


ANYONE = {"advice"}  # Killer's "conseil" (K5-P1): advice on the current roll, for whoever asks


def _words(choices: list[Choice]) -> list[tuple[str, str]]:
    """(action, words) that pressing each button, or filling each select, sends."""
    sent = [(choice.action, choice.words) for choice in choices if not choice.multi]
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        if choice.multi:
            groups.setdefault(choice.group, []).append(choice)
    for group in groups.values():
        limit = group[0].limit or len(group)
        sent.append((group[0].action, group[0].compose([choice.words for choice in group[:limit]])))
        sent.append((group[0].action, group[0].compose([group[-1].words])))
    return sent


def _game_rows(content: dict[str, Any]) -> list[dict[str, Any]]:
    """The games without their version (which any logged command, advice included, moves on)."""
    return [{key: value for key, value in game.items() if key != "version"} for game in content["games"]]


SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)  # rights do not depend on it


@SQLITE_ONLY
@pytest.mark.parametrize("script", [ROBBERY, KEULER, KILLER], ids=lambda script: script.name)
async def test_nobody_but_the_player_to_act_can_press_their_choices(store: Store, script: Script) -> None:
    console = worker.console_for(store, script)
    croupier = console.croupier
    ids = itertools.count()
    pressed = 0
    for step, line in enumerate(script.lines):
        view = await open_game_view(store, "console")
        if view is not None:
            record, state = view
            game = GAMES[record.kind]
            to_act = game.to_act(state)
            offered = _words(list(game.choices(state))) if to_act is not None else []
            seated = [p for p in script.players if p != to_act]
            others = [seated[step % len(seated)], STRANGER, "mod"]  # a player in turn, and outsiders
            before = await harness.contents(store)
            for (action, words), who in itertools.product(offered, others):
                reply = await croupier.handle_text(
                    Incoming(f"abuse:{next(ids)}", "console", "console", who, who, text=words)
                )
                pressed += 1
                if action in ANYONE:
                    assert reply.ok
                    continue
                assert not reply.ok, f"{who} pressed {to_act}'s {words!r} and it was accepted"
                assert reply.error_code, f"{who}: {words!r} was not refused with a reason"
            after = await harness.contents(store)
            if any(action in ANYONE for action, _ in offered):
                assert _game_rows(after) == _game_rows(before), f"advice changed the game at {line!r}"
            else:
                harness.refusals_only(before, after)  # someone else's choice changed nothing
        await harness.answer(console, line)
    assert pressed > 3 * len(script.lines)  # the choices were really tried, step after step
