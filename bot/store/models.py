"""The tables. Migrations create them; these classes describe them for queries and for autogenerate.

Only the repositories use these classes: the rest of the bot sees the frozen records of
:mod:`bot.store.records`, so no ORM object outlives its transaction.

Participant ids, channels and guilds are strings (Discord snowflakes, console names, ``replay:1``),
so every front end fits. Standings have no table: they are summed from closed games' participants
and the tournament's corrections.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from bot.store.types import BigKey, JSONDocument, UTCDateTime

# Explicit constraint names: migrations can address them, and SQLite batch mode can rebuild them.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID = String(64)  # a participant, channel or guild id
SCORINGS = ("sum", "placement")
GAME_STATUSES = ("open", "closed")
CORRECTION_KINDS = ("undo", "adjust", "disqualify", "reinstate")
OPEN_GAME_PER_CHANNEL = "uq_games_open_channel"
KIND_MAX = 32  # a game's stored name (its ``Game.name``)
UNCLOSED = (  # a finished game whose thread closing is not all done (see ``uow.forum.closings``)
    "status = 'closed' AND live_message IS NOT NULL"
    " AND (thread_closed_at IS NULL OR result_posted_at IS NULL)"
)


def _one_of(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class TournamentRow(Base):
    """A series of games in one channel whose results add up to standings."""

    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint(_one_of("scoring", SCORINGS), name="scoring"),
        Index("ix_tournaments_channel_id", "channel", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild: Mapped[str] = mapped_column(ID)  # the server, or a front end's scope ("console")
    channel: Mapped[str] = mapped_column(ID)
    name: Mapped[str] = mapped_column(String(200))
    scoring: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class GameRow(Base):
    """One Durchgang or Killer game: its engine snapshot, its dice seed and its optimistic version."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(_one_of("status", GAME_STATUSES), name="status"),
        CheckConstraint("version >= 1", name="version"),
        CheckConstraint("dice_used >= 0", name="dice_used"),
        UniqueConstraint("tournament_id", "kind", "number"),
        # At most one open game per channel; a partial index, understood by both stores.
        Index(
            OPEN_GAME_PER_CHANNEL,
            "channel",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
        Index("ix_games_status_turn_deadline", "status", "turn_deadline"),
        # Finished games whose thread still needs closing (or its home its result line): few, at start.
        Index(
            "ix_games_unclosed",
            "closed_at",
            sqlite_where=text(UNCLOSED),
            postgresql_where=text(UNCLOSED),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    channel: Mapped[str] = mapped_column(ID)
    kind: Mapped[str] = mapped_column(String(KIND_MAX))
    number: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    status: Mapped[str] = mapped_column(String(8))
    seed: Mapped[bytes] = mapped_column(LargeBinary)  # secret until the game is closed
    commitment: Mapped[str] = mapped_column(String(64))  # hex SHA-256 of the seed, public from the start
    dice_used: Mapped[int] = mapped_column(Integer)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    version: Mapped[int] = mapped_column(Integer)
    to_act: Mapped[str | None] = mapped_column(ID)
    turn_deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Where the live table is, "<channel>:<message>" (the first message of the game's thread); NULL:
    # none (threads off). When the player to act was reminded of the deadline (once per deadline).
    live_message: Mapped[str | None] = mapped_column(String(64))
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # A finished game's thread closing, step by step (migration 0007): when its thread was archived and
    # locked, when its home got the result line; NULL while still to do (for a game with a live table).
    thread_closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    result_posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ParticipantRow(Base):
    """A player's row in a game: seat, role and points, kept in step with the snapshot."""

    __tablename__ = "participants"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    position: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(32))
    points: Mapped[int] = mapped_column(Integer)


class CommandLogRow(Base):
    """Append-only: one row per handled message, keyed by the message id so a redelivery is refused."""

    __tablename__ = "command_log"
    __table_args__ = (
        # The answers still to deliver: few at any time, found at start and after a failed post.
        Index(
            "ix_command_log_pending",
            "delivery",
            sqlite_where=text("delivery = 'pending'"),
            postgresql_where=text("delivery = 'pending'"),
        ),
        # A game's entries (verify, export, undo); rows of no game — refusals, chat, settings — have
        # no entry to write (migration 0010).
        Index(
            "ix_command_log_game_id",
            "game_id",
            sqlite_where=text("game_id IS NOT NULL"),
            postgresql_where=text("game_id IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigKey, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(100), unique=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))  # indexed where not NULL
    channel: Mapped[str] = mapped_column(ID)
    actor: Mapped[str] = mapped_column(ID)
    text: Mapped[str] = mapped_column(Text)
    command: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument)
    events: Mapped[list[Any]] = mapped_column(JSONDocument)
    dice: Mapped[list[int]] = mapped_column(JSONDocument)  # every face rolled, in order
    dice_from: Mapped[int] = mapped_column(Integer)  # index of the first of those dice in the game
    reply: Mapped[Any | None] = mapped_column(JSONDocument)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # The correction (an undo) that voided this move; its dice stay consumed (migration 0003).
    voided_by: Mapped[int | None] = mapped_column(Integer)
    # Whether the answer reached its channel (migration 0006): "pending", "delivered", "undeliverable";
    # NULL where the front end answers in place (console, replay) or nothing was to be delivered.
    delivery: Mapped[str | None] = mapped_column(String(16))
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ChannelSettingsRow(Base):
    """Per-guild (channel ``""``) or per-channel overrides of the bot's defaults; NULL means inherit."""

    __tablename__ = "channel_settings"
    __table_args__ = (
        CheckConstraint("turn_timeout_seconds > 0", name="turn_timeout_seconds"),
        Index("ix_channel_settings_web_token", "web_token", unique=True),
    )

    guild: Mapped[str] = mapped_column(ID, primary_key=True)
    channel: Mapped[str] = mapped_column(ID, primary_key=True)
    language: Mapped[str | None] = mapped_column(String(8))
    moderator_role: Mapped[str | None] = mapped_column(String(100))
    turn_timeout_seconds: Mapped[int | None] = mapped_column(Integer)
    # The secret part of the channel's web address (``/t/<token>``); NULL: not on the web. Never inherited.
    web_token: Mapped[str | None] = mapped_column(String(64))
    # Whether a game opened in this text channel gets a thread of its own (NULL: inherit; on by default).
    threads: Mapped[bool | None] = mapped_column(Boolean)
    # Whether the site's start page lists the channel's tournaments (migration 0008); NULL or false:
    # unlisted, found only by whoever has the address. Never inherited, like the token.
    web_listed: Mapped[bool | None] = mapped_column(Boolean)


class BotStateRow(Base):
    """Small facts the bot keeps between starts, by key (the hash of the registered slash commands)."""

    __tablename__ = "bot_state"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChannelReadRow(Base):
    """How far a front end has read a game channel: its newest message handled with everything before
    it handled too (migration 0009). A catch-up after a restart starts there, or after the channel's
    last logged chat line if that is newer."""

    __tablename__ = "channel_reads"

    guild: Mapped[str] = mapped_column(ID, primary_key=True)
    channel: Mapped[str] = mapped_column(ID, primary_key=True)
    newest: Mapped[str] = mapped_column(ID)  # the front end's message id
    noted_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CorrectionRow(Base):
    """A moderator's correction of a tournament, kept for the audit trail: an undone move, a points
    adjustment, a disqualification or a reinstatement. Rows are only ever added."""

    __tablename__ = "corrections"
    __table_args__ = (
        CheckConstraint(_one_of("kind", CORRECTION_KINDS), name="kind"),
        Index("ix_corrections_tournament_id_id", "tournament_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    kind: Mapped[str] = mapped_column(String(16))
    player: Mapped[str | None] = mapped_column(ID)  # participant id (an undo: whose move it was)
    player_name: Mapped[str | None] = mapped_column(String(200))  # their display name at the time
    points: Mapped[int] = mapped_column(Integer)  # an adjustment's ± points; 0 for the other kinds
    reason: Mapped[str] = mapped_column(Text)
    moderator: Mapped[str] = mapped_column(ID)
    moderator_name: Mapped[str] = mapped_column(String(200))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    voided_entry: Mapped[int | None] = mapped_column(BigKey, ForeignKey("command_log.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    message_id: Mapped[str] = mapped_column(String(100), unique=True)
