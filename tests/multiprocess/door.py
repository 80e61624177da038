"""A door per bot process: its own address for Discord's REST API, forwarding to the emulator.

The emulator cannot tell two bot processes apart (same token, same client library). Giving each process
its own ``DISCORD_API_BASE`` — a small forwarding server in the test process — makes every REST call
(channel posts, interaction answers, board edits) attributable to the process that made it, without any
help from the bot.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

import aiohttp
from aiohttp import web

from tests.discord_emulator import BotMessage, DiscordEmulator, Journal

# Headers that describe one hop, not the request; aiohttp sets its own.
_HOP = frozenset({"host", "content-length", "transfer-encoding", "connection", "keep-alive"})
_CHANNEL = re.compile(r"^/api/v\d+/channels/(\d+)(/|$)")
_CALLBACK = re.compile(r"^/api/v\d+/interactions/(\d+)/[^/]+/callback$")
_WEBHOOK = re.compile(r"^/api/v\d+/webhooks/\d+/([^/]+)(/|$)")


@dataclass(frozen=True)
class DoorCall:
    """One REST call a process made, as the emulator answered it."""

    door: str
    method: str
    path: str
    status: int
    body: Any
    answer: Any

    @property
    def interaction_id(self) -> int | None:
        hit = _CALLBACK.match(self.path)
        return int(hit.group(1)) if hit else None


class Door:
    """``async with Door("shard-0", emu) as door``; give the process ``door.api_base``."""

    def __init__(self, name: str, emu: DiscordEmulator, journal: Journal[DoorCall] | None = None) -> None:
        self.name = name
        self.emu = emu
        self.calls: list[DoorCall] = []
        self.journal = journal  # shared by several doors, to wait for calls from any of them
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._port = 0

    async def __aenter__(self) -> Self:
        self._session = aiohttp.ClientSession(auto_decompress=False)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = int(self._runner.addresses[0][1])
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self._port}/api/v10"

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        assert self._session is not None
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        async with self._session.request(
            request.method,
            f"{self.emu.base_url}{request.path_qs}",
            data=body or None,
            headers=headers,
            allow_redirects=False,
        ) as upstream:
            answer = await upstream.read()
            out_headers = {k: v for k, v in upstream.headers.items() if k.lower() not in _HOP}
            status = upstream.status
        call = DoorCall(self.name, request.method, request.path, status, _json(body), _json(answer))
        self.calls.append(call)
        if self.journal is not None:
            await self.journal.append(call)
        return web.Response(status=status, body=answer, headers=out_headers)

    def guild_of(self, call: DoorCall) -> int | None:
        """The guild a call acts in: its channel's, or its interaction's; None for the bot's own
        business (log-in, command registration, gateway discovery)."""
        world = self.emu.world
        if hit := _CHANNEL.match(call.path):
            channel = world.channels.get(int(hit.group(1)))
            return channel.guild_id if channel is not None else None
        if (interaction := call.interaction_id) is not None:
            state = self.emu.interactions.get(interaction)
            return state.sent.guild_id if state is not None else None
        if hit := _WEBHOOK.match(call.path):
            by_token = self.emu.interactions_by_token.get(hit.group(1))
            return by_token.sent.guild_id if by_token is not None else None
        return None

    def guilds_served(self) -> set[int]:
        return {guild for call in self.calls if (guild := self.guild_of(call)) is not None}


def _json(data: bytes) -> Any:
    if not data:
        return None
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None  # multipart uploads: the emulator's own record has them


def made_by(doors: Iterable[Door], message: BotMessage) -> list[str]:
    """The doors through which a successful call created this bot message (normally exactly one)."""
    return [door.name for door in doors for call in door.calls if _created(call, message)]


def _created(call: DoorCall, message: BotMessage) -> bool:
    if not 200 <= call.status < 300:
        return False
    if message.via == "interaction":
        return call.interaction_id == message.interaction_id
    return (
        message.via in ("channel", "followup")
        and call.method == "POST"
        and isinstance(call.answer, dict)
        and call.answer.get("id") == str(message.message_id)
    )
