"""``CroupierBot``: the discord.py client. It wires events to :class:`Front` and does nothing else.

Each shard catches up on its own (:mod:`bot.discord.catch_up`): a new session (``on_shard_connect``)
holds its guilds' live events, ``on_shard_ready`` — which discord.py fires for a shard that identified
again alone, where ``on_ready`` never fires again with two shards or more — reads what was typed
meanwhile (at the shard's first session, after what an earlier process left pending), and then lets
them go. A resumed session needs nothing read: Discord replays what it missed. The turn clock applies
a guild's deadlines only while its shard is connected and caught up (:mod:`bot.discord.readiness`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.discord import catch_up
from bot.discord.boards import ChoiceButton, ChoiceSelect, JoinButton
from bot.discord.command_ids import CommandIds
from bot.discord.command_sync import register
from bot.discord.failures import invalid_request_trace
from bot.discord.front import Front, front_of
from bot.discord.invite import invite_url
from bot.discord.mentions import nobody
from bot.discord.options import BotOptions
from bot.discord.slash import install
from bot.discord.translator import CatalogueTranslator
from bot.discord.turn_clock import TurnClock
from bot.discord.watch import GatewayWatch
from bot.service.croupier import Croupier, role_id_of

log = logging.getLogger(__name__)


def warn_of_role_names(role_setting: str | None, guilds: Iterable[discord.Guild]) -> None:
    """MODERATOR_ROLE given by name: any role of that name moderates, so whoever may create roles in a
    guild can make themself a moderator. It still works (a name is what older setups have), but never
    silently: the log says so at every start, with the ids that would replace it."""
    if not role_setting or role_id_of(role_setting) is not None:
        return
    name = role_setting.strip().removeprefix("@")
    ids = [
        f"{role.id} in guild {guild.id}"
        for guild in guilds
        for role in guild.roles
        if role.name.casefold() == name.casefold()
    ]
    log.warning(
        "MODERATOR_ROLE gives the role by its name, %r: any role of that name may moderate, and whoever "
        "may create roles can make one. Give the role's id instead (%s).",
        name,
        "; ".join(ids) if ids else "no guild has a role of that name yet",
    )


def intents(message_content: bool = True) -> discord.Intents:
    """Guilds, guild messages, and — unless switched off — message content, which is privileged:
    without it players use the buttons and ``/zug`` instead of typing (see docs/discord.md)."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.guild_messages = True
    chosen.message_content = message_content
    return chosen


class CroupierTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await front_of(interaction).failed(interaction, error)


class CroupierBot(discord.AutoShardedClient):
    def __init__(self, croupier: Croupier, options: BotOptions | None = None) -> None:
        self.options = options or BotOptions()
        # The slash commands' ids, once known: the front end names commands as mentions with them.
        self.command_ids = CommandIds()
        shards: dict[str, Any] = {}
        if self.options.shard_count is not None:
            shards["shard_count"] = self.options.shard_count
        if self.options.shard_ids is not None:
            shards["shard_ids"] = list(self.options.shard_ids)
        self.gateway_watch = GatewayWatch()  # shard states, for the operator (bot/discord/watch.py)
        self.front = Front(self, croupier, self.options)
        super().__init__(
            intents=intents(self.options.message_content),
            allowed_mentions=nobody(),
            guild_ready_timeout=self.options.guild_ready_timeout,
            http_trace=invalid_request_trace(self.front.delivery.ledger),
            **shards,
        )
        self.tree = CroupierTree(self)
        install(self.tree)
        seconds = self.options.turn_clock_seconds
        self.turn_clock = TurnClock(self.front.tick, seconds) if seconds else None
        self._connected_before = False

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ChoiceButton, ChoiceSelect, JoinButton)
        await self.tree.set_translator(CatalogueTranslator())
        if self.options.sync_commands:
            await self.sync_commands()
        if self.turn_clock is not None:
            self.turn_clock.start()

    async def sync_commands(self) -> None:
        """To the configured guilds at once, else globally (Discord may take a while to show those);
        only what changed since the last start, and only in the process that runs shard 0 — the
        others fetch the commands' ids (see :mod:`bot.discord.command_sync`)."""
        targets: list[discord.Object | None] = [discord.Object(g) for g in self.options.guild_ids] or [None]
        assert self.application_id is not None  # known once logged in, before setup_hook
        for guild in targets:
            where = f"guild {guild.id}" if guild is not None else "all guilds (global)"
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            try:
                done = await register(
                    self.tree,
                    self.front.croupier,
                    self.application_id,
                    guild,
                    may_sync=self.options.registers,
                )
            except discord.HTTPException as error:
                # A wrong guild id must not keep the bot from playing elsewhere; the log says what to fix.
                log.error(
                    "cannot register the slash commands in %s (%s %s): is the bot in that guild, and was "
                    "it invited with the applications.commands scope? (docs/discord.md)",
                    where,
                    error.status,
                    error.text or error.__class__.__name__,
                )
                continue
            self.command_ids.learn(guild.id if guild is not None else None, done.commands)
            if done.synced:
                log.info("registered %d slash commands in %s", len(done.commands), where)
            else:
                log.info("slash commands in %s as registered before (%d)", where, len(done.commands))

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        self.gateway_watch.saw(event, args)
        super().dispatch(event, *args, **kwargs)

    async def on_message(self, message: discord.Message) -> None:
        await self.front.on_message(message)

    async def on_ready(self) -> None:
        """Every shard of the process identified (at start, or all at once again): the shards caught
        up on their own, in ``on_shard_ready``."""
        log.info("logged in as %s on %d guild(s), %s shard(s)", self.user, len(self.guilds), self.shard_count)
        first, self._connected_before = not self._connected_before, True
        if first and self.application_id is not None:
            log.info(
                "invite link (with the permissions the croupier needs): %s", invite_url(self.application_id)
            )
        if first:
            warn_of_role_names(self.front.croupier.store.defaults.moderator_role, self.guilds)

    async def on_shard_connect(self, shard_id: int) -> None:
        self.front.caught_up.connecting(shard_id)  # before the new session's first event is handled

    async def on_shard_ready(self, shard_id: int) -> None:
        await catch_up.shard_ready(self.front, shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.front.caught_up.disconnected(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.front.caught_up.resumed(shard_id)  # Discord replayed what it missed: nothing to read

    # A held channel's posts are tried again when its permissions may have changed (docs/discord.md).

    async def on_guild_channel_update(self, before: Any, after: discord.abc.GuildChannel) -> None:
        self.front.delivery.holds.released(channel=after.id)

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        self.front.delivery.holds.released(channel=after.id)

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        self.front.delivery.holds.released(guild=after.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self.front.delivery.holds.released(guild=after.guild.id)

    async def on_guild_role_create(self, role: discord.Role) -> None:
        self.front.delivery.holds.released(guild=role.guild.id)

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        self.front.delivery.holds.released(guild=role.guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.front.delivery.holds.guild_joined(guild.id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.front.delivery.holds.guild_removed(guild.id)

    async def close(self) -> None:
        if self.turn_clock is not None:
            self.turn_clock.stop()
        if not self.is_closed():
            await self.front.shutdown()
        await super().close()
