"""Small builders for service tests: messages from named people in one channel."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.games import GAMES
from bot.replies import Reply
from bot.service.croupier import Croupier, Incoming
from bot.spelling import CONSOLE
from bot.store import GameRecord, Store
from engine.game import Command

CHANNEL = "table-1"
GUILD = "guild-1"
MODERATOR = "mod"


@dataclass
class Table:
    """A channel with a croupier; every helper call is one incoming message with a fresh id."""

    croupier: Croupier
    channel: str = CHANNEL
    sender: str = "front"  # distinguishes the message ids of two front ends on one channel
    ids: Any = field(default_factory=lambda: itertools.count(1))

    def msg(self, author: str, text: str = "", *, mid: str | None = None, admin: bool = False) -> Incoming:
        return Incoming(
            message_id=mid or f"{self.sender}:{self.channel}:{next(self.ids)}",
            guild=GUILD,
            channel=self.channel,
            author=author,
            author_name=author.capitalize(),
            text=text,
            is_moderator=author == MODERATOR,
            is_admin=admin or author == MODERATOR,
        )

    async def say(self, author: str, text: str, *, mid: str | None = None) -> Reply:
        return seen(await self.croupier.handle_text(self.msg(author, text, mid=mid)))

    async def do(self, author: str, command: Command, *, mid: str | None = None) -> Reply:
        return seen(await self.croupier.execute(self.msg(author, mid=mid), command))

    async def open(self, kind: str = "verflixte6", options: Mapping[str, Any] | None = None) -> Reply:
        return seen(await self.croupier.open_game(self.msg(MODERATOR), kind, options or {}))


def seen(reply: Reply) -> Reply:
    """A reply as the console shows it: the service's neutral form (bot.markup) spelled plainly."""
    return reply.spelled(CONSOLE)


async def snapshot_of(store: Store, channel: str = CHANNEL) -> tuple[Any, ...]:
    """Everything a refused command must leave alone: the open game's row and the log length."""
    with store.transaction() as uow:
        record = uow.games.open_in(channel)
        entries = uow.log.of_game(record.id) if record else ()
    if record is None:
        return (None, len(entries))
    return (record.version, record.snapshot, record.dice_used, record.participants, len(entries))


async def open_game_view(store: Store, channel: str = CHANNEL) -> tuple[GameRecord, Any] | None:
    """The channel's open game with its loaded state, read straight from the store (tests only: front
    ends see games through the replies)."""
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(channel)
    if record is None:
        return None
    return record, GAMES[record.kind].load(record.snapshot)
