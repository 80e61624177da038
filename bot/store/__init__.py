"""The bot's database: SQLite by default, PostgreSQL in production, one schema via Alembic.

The service uses :class:`Store` and its unit of work; everything it gets back is a frozen record.
"""

from bot.store.db import create_engine, mask_url, store_url
from bot.store.errors import (
    BadDatabaseURL,
    Conflict,
    DuplicateMessage,
    GameAlreadyOpen,
    SchemaNotCurrent,
    StaleVersion,
    StoreError,
    StoreUnavailable,
    TransactionAborted,
    UnknownGame,
    UnknownTournament,
)
from bot.store.marks import Mark
from bot.store.migrate import (
    check_schema,
    current_revision,
    downgrade,
    head_revision,
    migrate_command,
    upgrade,
)
from bot.store.records import (
    CatchUpPoint,
    ChannelDefaults,
    ChannelSettings,
    ChannelState,
    Correction,
    GameRecord,
    GameSave,
    LogEntry,
    NewCorrection,
    NewLogEntry,
    Overdue,
    ParticipantRecord,
    ThreadGame,
    Tournament,
    Unclosed,
    Unreminded,
)
from bot.store.uow import Store, UnitOfWork

__all__ = [
    "BadDatabaseURL",
    "CatchUpPoint",
    "ChannelDefaults",
    "ChannelSettings",
    "ChannelState",
    "Conflict",
    "Correction",
    "DuplicateMessage",
    "GameAlreadyOpen",
    "GameRecord",
    "GameSave",
    "LogEntry",
    "Mark",
    "NewCorrection",
    "NewLogEntry",
    "Overdue",
    "ParticipantRecord",
    "SchemaNotCurrent",
    "StaleVersion",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "ThreadGame",
    "Tournament",
    "TransactionAborted",
    "Unclosed",
    "UnitOfWork",
    "UnknownGame",
    "UnknownTournament",
    "Unreminded",
    "check_schema",
    "create_engine",
    "current_revision",
    "downgrade",
    "head_revision",
    "mask_url",
    "migrate_command",
    "store_url",
    "upgrade",
]
