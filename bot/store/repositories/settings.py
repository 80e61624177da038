"""``uow.settings`` and ``uow.channels``: per-guild and per-channel settings, and the command path's
one read of a channel (its settings and its open game)."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import (
    BindParameter,
    Join,
    Label,
    Row,
    Select,
    bindparam,
    case,
    func,
    literal_column,
    select,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from bot.store.records import (
    ChannelDefaults,
    ChannelSettings,
    ChannelState,
)
from bot.store.repositories.games import Games
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import (
    IS_OPEN,
    SETTING_FIELDS,
    games_t,
    select_games,
    settings_t,
    tournaments_t,
)
from bot.store.repositories.transaction import Transaction


def _settings_layers() -> tuple[Join, list[Label[Any]]]:
    """One row whatever is stored: the channel's own settings row and its guild's, each field
    coalesced channel → guild (NULL: the bot's default applies)."""
    own = settings_t.alias("own_settings")
    guild_wide = settings_t.alias("guild_settings")
    guild: BindParameter[str] = bindparam("b_guild")
    anchor = select(literal_column("1").label("anchor")).subquery("anchor")
    layers = anchor.outerjoin(own, (own.c.guild == guild) & (own.c.channel == bindparam("b_home"))).outerjoin(
        guild_wide, (guild_wide.c.guild == guild) & (guild_wide.c.channel == literal_column("''"))
    )
    fields = [
        func.coalesce(own.c[field], guild_wide.c[field]).label(f"s_{field}") for field in SETTING_FIELDS
    ]
    return layers, fields


@cache
def _channel_settings() -> Select[Any]:
    layers, fields = _settings_layers()
    return select(*fields).select_from(layers)


@cache
def _channel_state(dialect: str) -> Prepared:
    """Settings and open game (NULL columns when there is none) in one row: the command path's read."""
    layers, fields = _settings_layers()
    with_game = layers.outerjoin(games_t, (games_t.c.channel == bindparam("b_channel")) & IS_OPEN)
    statement = select_games(dialect).add_columns(*fields, _last_kind()).select_from(with_game)
    return Prepared(statement, name="ChannelStateRow")


def _last_kind() -> Label[Any]:
    """Without an open game, the kind of the last game of the channel's current tournament: after a
    French Killer game, the channel still answers in French until a setting says otherwise."""
    newest = games_t.alias("newest")
    current = (
        select(func.max(tournaments_t.c.id))
        .where(tournaments_t.c.channel == bindparam("b_home"))
        .scalar_subquery()
    )
    kind = (
        select(newest.c.kind)
        .where(newest.c.tournament_id == current)
        .order_by(newest.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    return case((games_t.c.id.is_(None), kind), else_=None).label("last_kind")


class Channels:
    """``uow.channels``: what a command needs of its channel, in the one read of the command path."""

    def __init__(self, tx: Transaction, games: Games, defaults: ChannelDefaults) -> None:
        self._tx = tx
        self._games = games
        self._defaults = defaults

    def state(self, guild: str, channel: str, home: str | None = None) -> ChannelState:
        """The settings in force where a message was typed and the open game there (None when there is
        none). ``home`` is the channel whose settings apply — a thread's parent — when it is not
        ``channel`` itself."""
        home = home or channel
        parameters = {"b_guild": guild, "b_channel": channel, "b_home": home}
        row = self._tx.run(_channel_state(self._tx.dialect), parameters).one()
        settings = _resolved(guild, home, row, self._defaults)
        if row.id is None:
            return ChannelState(settings, None, last_kind=row.last_kind)
        return ChannelState(settings, self._games.loaded(row))


class ChannelSettingsRepository:
    """``uow.settings``: per-guild and per-channel overrides; a channel row beats its guild's row
    (stored with channel ``""``), which beats the bot's defaults. A NULL field inherits."""

    def __init__(self, tx: Transaction, defaults: ChannelDefaults) -> None:
        self._tx = tx
        self._defaults = defaults

    def get(self, guild: str, channel: str) -> ChannelSettings:
        row = self._tx.execute(_channel_settings(), {"b_guild": guild, "b_home": channel}).one()
        return _resolved(guild, channel, row, self._defaults)

    def set(self, guild: str, channel: str, **fields: Any) -> ChannelSettings:
        """Override some fields for a channel (``channel=""``: the whole guild); None clears one
        (``threads=False``: games opened in this text channel are played in it, not in a thread).
        Returns the settings now in force there."""
        unknown = set(fields) - set(SETTING_FIELDS)
        if unknown:
            raise TypeError(f"unknown channel settings: {', '.join(sorted(unknown))}")
        timeout = fields.get("turn_timeout_seconds")
        if timeout is not None and (not isinstance(timeout, int) or timeout <= 0):
            raise ValueError(f"turn_timeout_seconds must be a positive whole number, not {timeout!r}")
        threads = fields.get("threads")
        if threads is not None and not isinstance(threads, bool):
            raise ValueError(f"threads is on or off (a bool), not {threads!r}")
        make_insert = postgresql_insert if self._tx.dialect == "postgresql" else sqlite_insert
        statement = make_insert(settings_t).values(guild=guild, channel=channel, **fields)
        if fields:
            statement = statement.on_conflict_do_update(
                index_elements=[settings_t.c.guild, settings_t.c.channel],
                set_={field: statement.excluded[field] for field in fields},
            )
        else:
            statement = statement.on_conflict_do_nothing()
        self._tx.execute(statement)
        return self.get(guild, channel)


def _resolved(guild: str, channel: str, row: Row[Any], defaults: ChannelDefaults) -> ChannelSettings:
    """Settings from a row of :func:`_settings_layers`' coalesced fields, the defaults filling the gaps."""
    resolved = {field: getattr(row, f"s_{field}") for field in SETTING_FIELDS}
    for field, value in resolved.items():
        if value is None:
            resolved[field] = getattr(defaults, field)
    resolved["threads"] = bool(resolved["threads"])  # SQLite hands a coalesced boolean back as 0/1
    return ChannelSettings(guild=guild, channel=channel, **resolved)
