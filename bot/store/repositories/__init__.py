"""Repositories: the queries the service needs, each on the unit of work's one connection.

They speak SQLAlchemy Core over the mapped tables and return the frozen records of
:mod:`bot.store.records`. None of them commits: the unit of work does, once, for the whole command.
One module per concern: ``log`` (the command log), ``games``, ``tournaments``, ``settings`` (channel
settings and the command path's one read of a channel), ``corrections`` (moderators' corrections),
``delivery`` (answers still to reach Discord), ``forum`` (games in threads: homes, reminders, catch-up),
``bot_state`` (facts the bot keeps between starts), over ``tables`` and ``transaction``.
"""

from bot.store.repositories.bot_state import BotState
from bot.store.repositories.corrections import Corrections
from bot.store.repositories.delivery import Deliveries
from bot.store.repositories.forum import Forum
from bot.store.repositories.games import Games
from bot.store.repositories.log import CommandLog
from bot.store.repositories.settings import Channels, ChannelSettingsRepository
from bot.store.repositories.tables import (
    PARTICIPANT_FIELDS,
    SETTING_FIELDS,
    corrections_t,
    games_t,
    log_t,
    participants_t,
    settings_t,
    tournaments_t,
)
from bot.store.repositories.tournaments import Tournaments
from bot.store.repositories.transaction import Transaction
from bot.store.repositories.web import RolledDice, VisibleChannel, WebPages

__all__ = [
    "PARTICIPANT_FIELDS",
    "SETTING_FIELDS",
    "BotState",
    "ChannelSettingsRepository",
    "Channels",
    "CommandLog",
    "Corrections",
    "Deliveries",
    "Forum",
    "Games",
    "RolledDice",
    "Tournaments",
    "Transaction",
    "VisibleChannel",
    "WebPages",
    "corrections_t",
    "games_t",
    "log_t",
    "participants_t",
    "settings_t",
    "tournaments_t",
]
