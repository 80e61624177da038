"""The tables. Migrations create them; these Core tables describe them for queries and for autogenerate.

Only the repositories use them: the rest of the bot sees the frozen records of :mod:`bot.store.records`.
They are plain Core tables, not ORM classes: the store runs Core statements only, and importing the ORM
(with its declarative classes) cost every start about 0.05 s of CPU.

Participant ids, channels and guilds are strings (Discord snowflakes, console names, ``replay:1``),
so every front end fits. Standings have no table: they are summed from closed games' participants
and the tournament's corrections.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

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


metadata = MetaData(naming_convention=NAMING_CONVENTION)

# A series of games in one channel whose results add up to standings.
tournaments_t = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("guild", ID, nullable=False),  # the server, or a front end's scope ("console")
    Column("channel", ID, nullable=False),
    Column("name", String(200), nullable=False),
    Column("scoring", String(16), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    CheckConstraint(_one_of("scoring", SCORINGS), name="scoring"),
    Index("ix_tournaments_channel_id", "channel", "id"),
)

# One Durchgang or Killer game: its engine snapshot, its dice seed and its optimistic version.
games_t = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("channel", ID, nullable=False),
    Column("kind", String(KIND_MAX), nullable=False),
    Column("number", Integer, nullable=False),
    Column("options", JSONDocument, nullable=False),
    Column("status", String(8), nullable=False),
    Column("seed", LargeBinary, nullable=False),  # secret until the game is closed
    Column("commitment", String(64), nullable=False),  # hex SHA-256 of the seed, public from the start
    Column("dice_used", Integer, nullable=False),
    Column("snapshot", JSONDocument, nullable=False),
    Column("version", Integer, nullable=False),
    Column("to_act", ID),
    Column("turn_deadline", UTCDateTime),
    Column("opened_at", UTCDateTime, nullable=False),
    Column("closed_at", UTCDateTime),
    # Where the live table is, "<channel>:<message>" (the first message of the game's thread); NULL:
    # none (threads off). When the player to act was reminded of the deadline (once per deadline).
    Column("live_message", String(64)),
    Column("reminded_at", UTCDateTime),
    # A finished game's thread closing, step by step (migration 0007): when its thread was archived and
    # locked, when its home got the result line; NULL while still to do (for a game with a live table).
    Column("thread_closed_at", UTCDateTime),
    Column("result_posted_at", UTCDateTime),
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

# A player's row in a game: seat, role and points, kept in step with the snapshot.
participants_t = Table(
    "participants",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("player", ID, primary_key=True),
    Column("name", String(200), nullable=False),
    Column("position", Integer, nullable=False),
    Column("role", String(32), nullable=False),
    Column("points", Integer, nullable=False),
)

# Append-only: one row per handled message, keyed by the message id so a redelivery is refused.
log_t = Table(
    "command_log",
    metadata,
    Column("id", BigKey, primary_key=True),
    Column("message_id", String(100), unique=True, nullable=False),
    Column("game_id", Integer, ForeignKey("games.id")),  # indexed where not NULL
    Column("channel", ID, nullable=False),
    Column("actor", ID, nullable=False),
    Column("text", Text, nullable=False),
    Column("command", JSONDocument),
    Column("events", JSONDocument, nullable=False),
    Column("dice", JSONDocument, nullable=False),  # every face rolled, in order
    Column("dice_from", Integer, nullable=False),  # index of the first of those dice in the game
    Column("reply", JSONDocument),
    Column("created_at", UTCDateTime, nullable=False),
    # The correction (an undo) that voided this move; its dice stay consumed (migration 0003).
    Column("voided_by", Integer),
    # Whether the answer reached its channel (migration 0006): "pending", "delivered", "undeliverable";
    # NULL where the front end answers in place (console, replay) or nothing was to be delivered.
    Column("delivery", String(16)),
    Column("delivered_at", UTCDateTime),
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

# Per-guild (channel "") or per-channel overrides of the bot's defaults; NULL means inherit.
settings_t = Table(
    "channel_settings",
    metadata,
    Column("guild", ID, primary_key=True),
    Column("channel", ID, primary_key=True),
    Column("language", String(8)),
    Column("moderator_role", String(100)),
    Column("turn_timeout_seconds", Integer),
    # The secret part of the channel's web address (``/t/<token>``); NULL: not on the web. Never inherited.
    Column("web_token", String(64)),
    # Whether a game opened in this text channel gets a thread of its own (NULL: inherit; on by default).
    Column("threads", Boolean),
    # Whether the site's start page lists the channel's tournaments (migration 0008); NULL or false:
    # unlisted, found only by whoever has the address. Never inherited, like the token.
    Column("web_listed", Boolean),
    CheckConstraint("turn_timeout_seconds > 0", name="turn_timeout_seconds"),
    Index("ix_channel_settings_web_token", "web_token", unique=True),
)

# Small facts the bot keeps between starts, by key (the hash of the registered slash commands).
bot_state_t = Table(
    "bot_state",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("value", Text, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

# How far a front end has read a game channel: its newest message handled with everything before it
# handled too (migration 0009). A catch-up after a restart starts there, or after the channel's last
# logged chat line if that is newer.
reads_t = Table(
    "channel_reads",
    metadata,
    Column("guild", ID, primary_key=True),
    Column("channel", ID, primary_key=True),
    Column("newest", ID, nullable=False),  # the front end's message id
    Column("noted_at", UTCDateTime, nullable=False),
)

# A moderator's correction of a tournament, kept for the audit trail: an undone move, a points
# adjustment, a disqualification or a reinstatement. Rows are only ever added.
corrections_t = Table(
    "corrections",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("player", ID),  # participant id (an undo: whose move it was)
    Column("player_name", String(200)),  # their display name at the time
    Column("points", Integer, nullable=False),  # an adjustment's ± points; 0 for the other kinds
    Column("reason", Text, nullable=False),
    Column("moderator", ID, nullable=False),
    Column("moderator_name", String(200), nullable=False),
    Column("game_id", Integer, ForeignKey("games.id"), index=True),
    Column("voided_entry", BigKey, ForeignKey("command_log.id")),
    Column("created_at", UTCDateTime, nullable=False),
    Column("message_id", String(100), unique=True, nullable=False),
    CheckConstraint(_one_of("kind", CORRECTION_KINDS), name="kind"),
    Index("ix_corrections_tournament_id_id", "tournament_id", "id"),
)
