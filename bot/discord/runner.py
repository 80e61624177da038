"""Starting the Discord bot: ``run_bot`` for ``croupier run``, ``serve`` inside a running event loop
(tests inject their own store, dice and options through the :class:`Croupier`).

Everything a user can get wrong — token, database, network — ends in one line on stderr and exit code 1,
never a traceback. A Message Content intent that Discord refuses is not fatal: the bot starts again
without it and says so in one log line (players then use the buttons and ``/zug``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import signal
import sys
from collections.abc import Callable

import aiohttp
import discord

from bot.discord.client import CroupierBot
from bot.discord.endpoint import use_endpoints
from bot.discord.options import BotOptions
from bot.discord.watch import DiscordHealth
from bot.observability.endpoint import CannotServeHealth, serving
from bot.observability.health import Health, StoreHealth
from bot.service.croupier import Croupier
from bot.settings import DEFAULT_BACKLOG_MAX, Settings
from bot.store import BadDatabaseURL, ChannelDefaults, SchemaNotCurrent, Store, StoreUnavailable
from bot.urls import mask_urls_in

log = logging.getLogger(__name__)

ClientFactory = Callable[[Croupier, BotOptions], CroupierBot]

LOGIN_REFUSED = (
    "Discord refused DISCORD_TOKEN (401 Unauthorized): the token is wrong or was reset; "
    "copy it again from the Developer Portal (Bot → Reset Token)."
)
INTENTS_REFUSED = (
    "Discord refused the bot's gateway intents (close code 4014) although it asks for no privileged "
    "one: check the application's Privileged Gateway Intents in the Developer Portal."
)
WITHOUT_MESSAGE_CONTENT = (
    "Discord refused the Message Content intent: running without it, so typed words are not read; "
    "players use the buttons and /zug (to read them, enable Bot → Privileged Gateway Intents → "
    "Message Content Intent in the Developer Portal; DISCORD_MESSAGE_CONTENT=false stops asking)"
)


def fail(message: str) -> int:
    """One line on stderr (any URL in it masked) and exit code 1."""
    print(f"croupier: {mask_urls_in(message)}", file=sys.stderr)
    return 1


def run_bot(settings: Settings, db_url: str) -> int:
    """Run the bot until it is stopped (Ctrl-C, SIGTERM); the exit code for ``croupier run``."""
    try:
        return asyncio.run(serve_settings(settings, db_url, handle_signals=True))
    except KeyboardInterrupt:
        return 130


async def serve_settings(
    settings: Settings,
    db_url: str,
    *,
    handle_signals: bool = False,
    client_factory: ClientFactory = CroupierBot,
) -> int:
    problem = settings.token_problem()
    if problem is not None or settings.discord_token is None:
        return fail(problem or "DISCORD_TOKEN is not set.")
    use_endpoints(settings.discord_api_base, settings.discord_gateway_url)
    try:
        store = await Store.open(db_url, defaults=ChannelDefaults.from_settings(settings))
    except (StoreUnavailable, SchemaNotCurrent, BadDatabaseURL) as error:
        return fail(str(error))
    health = Health()
    health.add("store", StoreHealth(store))
    try:
        async with serving(health, settings.health_host, settings.health_port):
            return await serve(
                Croupier(store=store, web_base_url=settings.public_web_url),  # what `web: an` hands out
                settings.discord_token.get_secret_value(),
                BotOptions.from_settings(settings),
                client_factory=client_factory,
                handle_signals=handle_signals,
                health=health,
                backlog_max=settings.health_backlog_max,
            )
    except CannotServeHealth as error:
        return fail(str(error))
    finally:
        await store.close()


async def serve(
    croupier: Croupier,
    token: str,
    options: BotOptions | None = None,
    *,
    client_factory: ClientFactory = CroupierBot,
    handle_signals: bool = False,
    health: Health | None = None,
    backlog_max: int = DEFAULT_BACKLOG_MAX,
) -> int:
    """Log in and run until the client is closed; 0 after a clean stop, 1 with a one-line reason.
    ``health``: the process's, to which the client adds its part (shards, catch-up, delivery)."""
    options = options or BotOptions()
    while True:
        client = client_factory(croupier, options)
        if health is not None:
            health.add("discord", DiscordHealth(client, backlog_max))
        try:
            return await _run(client, token, handle_signals)
        except discord.PrivilegedIntentsRequired:
            if not options.message_content:
                return fail(INTENTS_REFUSED)
            log.warning(WITHOUT_MESSAGE_CONTENT)
            options = dataclasses.replace(options, message_content=False)


async def _run(client: CroupierBot, token: str, handle_signals: bool) -> int:
    loop = asyncio.get_running_loop()
    if handle_signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(client.close()))
    try:
        async with client:
            await client.start(token)
    except discord.LoginFailure:
        return fail(LOGIN_REFUSED)
    except (discord.GatewayNotFound, aiohttp.ClientConnectionError, OSError) as error:
        return fail(f"cannot reach Discord ({discord.http.Route.BASE}): {error or type(error).__name__}")
    finally:
        if handle_signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGTERM)
    return 0
