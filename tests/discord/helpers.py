"""A Discord table for end-to-end tests: the emulator's guild, the real croupier client on a real store,
and scripted dice the test extends as it goes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot import texts
from bot.discord.client import CroupierBot
from bot.discord.command_ids import CommandIds
from bot.discord.commands import DiscordSpelling
from bot.discord.options import BotOptions
from bot.games import GAMES
from bot.service.croupier import Croupier
from bot.service.rendering import Narrator
from bot.store import GameRecord, LogEntry, Store
from bot.texts import LANGUAGES
from tests.dice import Dice
from tests.discord_emulator import (
    BotMessage,
    DiscordEmulator,
    InteractionResponse,
    SentInteraction,
    running_client,
)

READY_QUICKLY = 0.05
CATCH_UP_PATIENCE_S = 10.0  # a safety net: the start reads the store and the history of open games


class FastBot(CroupierBot):
    """The croupier client without discord.py's 5-second pause before a second IDENTIFY."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2024, 5, 1, 20, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now


@dataclass
class People:
    guild: int
    channel: int
    moni: int  # moderator through the configured role
    anna: int
    ben: int
    carl: int
    ada: int  # administrator
    eve: int  # nickname with @everyone in it
    moderators: int  # the role id


def in_place(store: Store, people: People) -> None:
    """The tests' channel plays in place (its ``threads`` setting off), as a channel did before games
    got threads of their own; tests of threads and forums use channels of their own."""
    with store.transaction() as uow:
        uow.settings.set(str(people.guild), str(people.channel), threads=False)
        uow.commit()


@dataclass
class Table:
    emu: DiscordEmulator
    store: Store
    people: People
    dice: Dice
    clock: Clock
    options: BotOptions

    def croupier(self) -> Croupier:
        return Croupier(store=self.store, dice_factory=self.dice.factory, clock=self.clock)

    def bot(self, croupier: Croupier | None = None) -> FastBot:
        return FastBot(croupier or self.croupier(), self.options)

    @contextlib.asynccontextmanager
    async def running(self, croupier: Croupier | None = None) -> AsyncIterator[FastBot]:
        bot = self.bot(croupier)
        async with running_client(bot, self.emu.token):
            await asyncio.wait_for(bot.front.caught_up.wait(), CATCH_UP_PATIENCE_S)  # its start is done
            yield bot

    # ------------------------------------------------------------------ what users do

    async def say(self, user: int, text: str, *, times: int = 1) -> int:
        return await self.emu.send_message(self.people.channel, user, text, times=times)

    async def answer_to(self, message_id: int) -> BotMessage:
        """The bot's reply to a chat line (a message referencing it)."""
        return await self.emu.next_message(
            self.people.channel,
            predicate=lambda m: (
                m.message_reference is not None and int(m.message_reference["message_id"]) == message_id
            ),
        )

    async def said(self, user: int, text: str) -> BotMessage:
        return await self.answer_to(await self.say(user, text))

    async def slash(
        self,
        user: int,
        name: str,
        options: Mapping[str, object] | None = None,
        *,
        subcommand: str | None = None,
        check_permissions: bool = True,
    ) -> tuple[SentInteraction, InteractionResponse]:
        sent = await self.emu.slash_command(
            self.people.guild,
            self.people.channel,
            user,
            name,
            options,
            subcommand=subcommand,
            check_permissions=check_permissions,
        )
        return sent, await self.emu.wait_for_response(sent)

    async def slash_message(
        self, user: int, name: str, options: Mapping[str, object] | None = None, **kw: Any
    ) -> BotMessage:
        """A slash command answered publicly: the message the bot posted for it."""
        sent, response = await self.slash(user, name, options, **kw)
        assert response.type == 4, response
        assert not response.ephemeral, response
        return await self.emu.next_message(
            self.people.channel, predicate=lambda m: m.interaction_id == sent.id
        )

    async def press(
        self, board: BotMessage | int, custom_id: str, user: int, values: list[str] | None = None
    ) -> tuple[SentInteraction, InteractionResponse]:
        sent = await self.emu.click(board, custom_id, user, values)
        return sent, await self.emu.wait_for_response(sent)

    async def pressed(
        self, board: BotMessage | int, custom_id: str, user: int, values: list[str] | None = None
    ) -> BotMessage:
        sent, response = await self.press(board, custom_id, user, values)
        assert response.type == 4, response
        assert not response.ephemeral, response
        return await self.emu.next_message(
            self.people.channel, predicate=lambda m: m.interaction_id == sent.id
        )

    # ------------------------------------------------------------------ what the store holds

    async def game(self) -> GameRecord | None:
        with self.store.transaction(read_only=True) as uow:
            return uow.games.open_in(str(self.people.channel))

    async def log(self, game_id: int) -> tuple[LogEntry, ...]:
        with self.store.transaction(read_only=True) as uow:
            return uow.log.of_game(game_id)

    # ------------------------------------------------------------------ what the croupier says here

    def says(self, key: str, lang: str = "de", game: str | None = "verflixte6", **facts: Any) -> str:
        """:func:`says` with the commands named as the guild's members see them once synced: as
        mentions carrying the ids the emulator gave them."""
        return says(key, lang, game, synced=synced_ids(self.emu, self.people.guild), **facts)

    def refusal(self, key: str, lang: str = "de", game: str | None = "verflixte6", **facts: Any) -> str:
        return f"⚠️ {self.says(key, lang, game, **facts)}"


def custom_id_for(message: BotMessage, label: str) -> str:
    """The custom id of the button labelled ``label`` on a board."""
    for row in message.components:
        for component in row.get("components", []):
            if component.get("type") == 2 and component.get("label") == label:
                return str(component["custom_id"])
    raise AssertionError(f"no button {label!r} on the board; it has {labels(message)}")


def select_of(message: BotMessage, placeholder_part: str = "") -> dict[str, Any]:
    for row in message.components:
        for component in row.get("components", []):
            if component.get("type") == 3 and placeholder_part in (component.get("placeholder") or ""):
                return dict(component)
    raise AssertionError(f"no select {placeholder_part!r} on the board; it has {labels(message)}")


def option_values(select: Mapping[str, Any], *labels_wanted: str) -> list[str]:
    by_label = {option["label"]: option["value"] for option in select["options"]}
    return [by_label[label] for label in labels_wanted]


def labels(message: BotMessage) -> list[str]:
    found = []
    for row in message.components:
        for component in row.get("components", []):
            if component.get("type") == 2:
                found.append(component.get("label"))
            elif component.get("type") == 3:
                found.append(f"select[{', '.join(o['label'] for o in component.get('options', []))}]")
    return found


def table_text(message: BotMessage) -> str:
    """The running-table field(s) of a game reply: the field titled as the catalogue names the table
    (in any language) and its untitled continuations."""
    titles = {says("discord.field.table", lang, None) for lang in LANGUAGES} | {BLANK_FIELD}
    fields = message.embeds[0].get("fields") or []
    return "\n".join(f["value"] for f in fields if f["name"] in titles)


def table_rows(message: BotMessage) -> list[str]:
    """The running table of a game reply, one line per seat (compare with :func:`row`)."""
    return table_text(message).splitlines()


def story(message: BotMessage) -> list[str]:
    """What happened, as the lines of a game reply's first embed (compare with :func:`says`); none for
    a message without embeds (a refusal)."""
    if not message.embeds:
        return []
    return (message.embeds[0].get("description") or "").splitlines()


def never_pings_broadly(message: BotMessage, allowed_users: AbstractSet[int] = frozenset()) -> None:
    """The message's allowed mentions forbid @everyone/@here and roles; only expected users are pinged."""
    allowed = message.allowed_mentions
    if message.action == "create" or allowed is not None:
        assert allowed is not None, f"{message.via} message {message.message_id} has no allowed_mentions"
        assert "everyone" not in (allowed.get("parse") or []), allowed
        assert "roles" not in (allowed.get("parse") or []), allowed
        assert "users" not in (allowed.get("parse") or []), allowed
        assert not allowed.get("roles"), allowed
        assert {int(u) for u in allowed.get("users") or []} <= allowed_users, allowed
    assert not message.pings.everyone, message.pings
    assert not message.pings.roles, message.pings
    assert set(message.pings.users) <= allowed_users, message.pings


def note(response: InteractionResponse) -> str:
    """The text of an interaction answer (e.g. an ephemeral refusal)."""
    assert response.data is not None, response
    return str(response.data.get("content") or "")


def embeds_of(response: InteractionResponse) -> list[dict[str, Any]]:
    assert response.data is not None, response
    return list(response.data.get("embeds") or [])


# ---------------------------------------------------------------------- what the croupier says
# Expected texts are rendered from the catalogues, never copied from the bot's output: a reworded
# sentence changes the catalogue alone, and a test still fails when the bot says the wrong thing.
# Facts naming players are given as display names ("Anna"): the helpers render with ``name_of=str``.

BLANK_FIELD = "\u200b"  # the name of an embed field that continues the one before it


def says(
    key: str,
    lang: str = "de",
    game: str | None = "verflixte6",
    *,
    synced: CommandIds | None = None,
    **facts: Any,
) -> str:
    """What the croupier says for a catalogue key on Discord (its command names, the game's catalogue):
    tests compare with this instead of copying the bot's output. ``game=None``: the shared catalogues
    only, as for answers about no game (settings, standings, refusals of moderator actions).
    ``synced``: the ids of the synced commands (see :meth:`Table.says`); without them, commands are
    named as before any sync."""
    said = Narrator().line(key, facts, lang, game=GAMES[game] if game is not None else None)
    return DiscordSpelling(synced).spell(said, lang)


def synced_ids(emu: DiscordEmulator, guild: int | None) -> CommandIds:
    """The ids of the slash commands as the emulator registered them for ``guild`` (None: global)."""
    ids = CommandIds()
    ids.learn_ids(guild, {c["name"]: int(c["id"]) for c in emu.synced_commands(guild) if c["type"] == 1})
    return ids


def drawn(key: str, lang: str = "de", *, synced: CommandIds | None = None, **facts: Any) -> str:
    """A line the Discord front end renders itself from the catalogue (field names, the live table's
    status, the thread pointer): its facts are already Discord text, so nothing is escaped.
    ``synced``: the ids of the synced commands, for a line that names one (see :func:`says`)."""
    return texts.render(key, facts, lang, commands=DiscordSpelling(synced).commands(lang))


def refusal(key: str, lang: str = "de", game: str | None = "verflixte6", **facts: Any) -> str:
    """A refusal as Discord shows it (see :func:`bot.discord.embeds.refusal_content`)."""
    return f"⚠️ {says(key, lang, game, **facts)}"


def row(
    name: str,
    role: str,
    points: int,
    *,
    to_act: bool = False,
    lang: str = "de",
    game: str = "verflixte6",
    jokers: Sequence[str] = (),
) -> str:
    """One seat of the running table as Discord draws it (``bot.discord.embeds.table_fields``): the
    marker of the player to act, the name, the role as the game's catalogue names it, the points, and
    the jokers still in hand."""
    marker = "▶" if to_act else "•"
    line = f"{marker} {name} — {says(f'role.{role}', lang, game)}: **{points}**"
    return f"{line} · {says('seat.details.jokers', lang, game, jokers=list(jokers))}" if jokers else line


def asked(player: str, *jokers: str, lang: str = "de") -> str:
    """What Die verflixte 6! asks after a throw: "weiter", "weiter mit Joker X" per joker, "stopp"."""
    valid = ["weiter", *(f"weiter mit Joker {joker}" for joker in jokers), "stopp"]
    return says("v6.move_asked", lang, player=player, valid=valid)


def title(number: int, lang: str = "de", game: str = "verflixte6") -> str:
    """The title of a game reply: the game's name for its round ``number``."""
    return says("game.round", lang, game, number=number)


def slash_name(lang: str, *path: str) -> str:
    """A slash command as a user of ``lang`` types it (``/durchgang eröffnen``), from the names in the
    Discord catalogue (``discord.cmd.durchgang.name``, ``discord.cmd.durchgang.oeffnen.name``)."""
    words = [says(f"discord.cmd.{'.'.join(path[: i + 1])}.name", lang, None) for i in range(len(path))]
    return "/" + " ".join(words)
