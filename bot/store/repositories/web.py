"""``uow.web``: which channels are on the web, and the reads their pages need.

A channel is visible while its ``channel_settings`` row holds a web token (see migration 0005_web);
the token is the unguessable part of its address and is never inherited from the guild. The start
page lists only the channels whose ``web_listed`` a moderator switched on (migration 0008). The reads
here serve the read-only web pages: a tournament's games (open ones too), a game's log after a
cursor, and every die a tournament's games rolled, with who rolled it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from bot.store.records import GameRecord, LogEntry
from bot.store.repositories.games import Games
from bot.store.repositories.log import _log_entry
from bot.store.repositories.tables import games_t, log_t, select_games, settings_t
from bot.store.repositories.transaction import Transaction


@dataclass(frozen=True)
class VisibleChannel:
    """A channel whose pages are on the web, and the token of its address."""

    guild: str
    channel: str
    token: str


@dataclass(frozen=True)
class RolledDice:
    """The dice one logged message rolled, and who sent it."""

    game_id: int
    actor: str
    dice: tuple[int, ...]


class WebPages:
    """``uow.web``: web visibility per channel and the reads behind the pages."""

    def __init__(self, tx: Transaction, games: Games) -> None:
        self._tx = tx
        self._games = games

    # --- visibility ----------------------------------------------------------------------------------

    def token(self, guild: str, channel: str) -> str | None:
        """The channel's web token; None while it is not on the web."""
        statement = select(settings_t.c.web_token).where(
            settings_t.c.guild == guild, settings_t.c.channel == channel
        )
        return self._tx.execute(statement).scalar_one_or_none()

    def publish(self, guild: str, channel: str, token: str) -> None:
        """Put the channel on the web under ``token`` (replacing an earlier one)."""
        if not token or channel == "":
            raise ValueError("a web token belongs to one channel and is not empty")
        make_insert = postgresql_insert if self._tx.dialect == "postgresql" else sqlite_insert
        statement = make_insert(settings_t).values(guild=guild, channel=channel, web_token=token)
        statement = statement.on_conflict_do_update(
            index_elements=[settings_t.c.guild, settings_t.c.channel],
            set_={"web_token": statement.excluded.web_token},
        )
        self._tx.execute(statement)

    def hide(self, guild: str, channel: str) -> None:
        """Take the channel off the web: its address stops working."""
        self._tx.execute(
            update(settings_t)
            .where(settings_t.c.guild == guild, settings_t.c.channel == channel)
            .values(web_token=None)
        )

    def channel_of(self, token: str) -> VisibleChannel | None:
        """The visible channel with this token, if any."""
        row = self._tx.execute(
            select(settings_t.c.guild, settings_t.c.channel).where(settings_t.c.web_token == token)
        ).first()
        return None if row is None else VisibleChannel(row.guild, row.channel, token)

    def visible(self) -> tuple[VisibleChannel, ...]:
        """Every channel on the web."""
        rows = self._tx.execute(
            select(settings_t.c.guild, settings_t.c.channel, settings_t.c.web_token)
            .where(settings_t.c.web_token.is_not(None))
            .order_by(settings_t.c.guild, settings_t.c.channel)
        )
        return tuple(VisibleChannel(row.guild, row.channel, row.web_token) for row in rows)

    def listed(self) -> tuple[VisibleChannel, ...]:
        """The channels on the web whose moderators listed them on the start page."""
        rows = self._tx.execute(
            select(settings_t.c.guild, settings_t.c.channel, settings_t.c.web_token)
            .where(settings_t.c.web_token.is_not(None), settings_t.c.web_listed.is_(True))
            .order_by(settings_t.c.guild, settings_t.c.channel)
        )
        return tuple(VisibleChannel(row.guild, row.channel, row.web_token) for row in rows)

    def is_listed(self, guild: str, channel: str) -> bool:
        statement = select(settings_t.c.web_listed).where(
            settings_t.c.guild == guild, settings_t.c.channel == channel
        )
        return bool(self._tx.execute(statement).scalar_one_or_none())

    def set_listed(self, guild: str, channel: str, listed: bool) -> None:
        """List the channel's tournaments on the start page, or not (whether it is on the web or not
        yet: the choice holds for whenever it is)."""
        if channel == "":
            raise ValueError("listing belongs to one channel")
        make_insert = postgresql_insert if self._tx.dialect == "postgresql" else sqlite_insert
        statement = make_insert(settings_t).values(guild=guild, channel=channel, web_listed=listed)
        statement = statement.on_conflict_do_update(
            index_elements=[settings_t.c.guild, settings_t.c.channel],
            set_={"web_listed": statement.excluded.web_listed},
        )
        self._tx.execute(statement)

    # --- what the pages show -------------------------------------------------------------------------

    def games_in(self, tournament_id: int) -> tuple[GameRecord, ...]:
        """The tournament's games, open and closed, in number order, with participants."""
        statement = (
            select_games(self._tx.dialect)
            .where(games_t.c.tournament_id == tournament_id)
            .order_by(games_t.c.number, games_t.c.id)
        )
        return tuple(self._games.loaded(row) for row in self._tx.execute(statement))

    def log_after(self, game_id: int, after: int = 0) -> tuple[LogEntry, ...]:
        """A game's log entries with an id above ``after``, in the order they were written."""
        statement = select(log_t).where(log_t.c.game_id == game_id, log_t.c.id > after).order_by(log_t.c.id)
        return tuple(_log_entry(row) for row in self._tx.execute(statement))

    def dice_in(self, game_ids: Sequence[int]) -> tuple[RolledDice, ...]:
        """Every logged message of these games that rolled dice: the game, the sender, the faces."""
        if not game_ids:
            return ()
        statement = (
            select(log_t.c.game_id, log_t.c.actor, log_t.c.dice)
            .where(log_t.c.game_id.in_(list(game_ids)))
            .order_by(log_t.c.id)
        )
        found: list[RolledDice] = []
        for row in self._tx.execute(statement):
            dice: Any = row.dice or ()
            if dice:
                found.append(RolledDice(row.game_id, row.actor, tuple(int(face) for face in dice)))
        return tuple(found)
