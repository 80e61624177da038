"""Point discord.py at a Discord-compatible server instead of discord.com.

discord.py hard-wires its REST base (`Route.BASE`, which interaction callbacks and webhook followups share)
and its first gateway address (`DiscordWebSocket.DEFAULT_GATEWAY`). A self-hosted Discord-compatible server,
or the local emulator the end-to-end tests start, needs both moved; everything else discord.py does stays as
is.
"""

from __future__ import annotations

import re
from typing import Any

import yarl
from discord import http
from discord.gateway import DiscordWebSocket

_DISCORD_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY
_original_from_client = DiscordWebSocket.from_client.__func__  # type: ignore[attr-defined]
_ask_server_for_gateway = False


def _versioned(api_base: str) -> str:
    base = api_base.rstrip("/")
    if re.search(r"/v\d+$", base):
        return base
    return f"{base}/v{http.INTERNAL_API_VERSION}"


async def _from_client(cls: type[DiscordWebSocket], client: Any, /, **options: Any) -> DiscordWebSocket:
    # discord.py's plain Client never asks GET /gateway/bot: it dials DEFAULT_GATEWAY. Without an explicit
    # gateway URL, ask the configured server where its gateway is, as the sharded client does.
    gateway = options.get("gateway")
    if _ask_server_for_gateway and (gateway is None or gateway == _DISCORD_GATEWAY):
        _, url, _ = await client.http.get_bot_gateway()
        options["gateway"] = yarl.URL(url)
    result: DiscordWebSocket = await _original_from_client(cls, client, **options)
    return result


def use_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Use `api_base` (e.g. "http://127.0.0.1:8080/api" or ".../api/v10") for REST and `gateway_url` for the
    gateway; with only `api_base`, the gateway comes from that server's GET /gateway/bot. Both None: no
    effect. Calling it again with the same values changes nothing."""
    global _ask_server_for_gateway
    if api_base is None and gateway_url is None:
        return
    if api_base is not None:
        http.Route.BASE = _versioned(api_base)
    if gateway_url is not None:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        _ask_server_for_gateway = False
    else:
        DiscordWebSocket.DEFAULT_GATEWAY = _DISCORD_GATEWAY
        _ask_server_for_gateway = True
    if not getattr(DiscordWebSocket.from_client, "_croupier_endpoint", False):
        patched = classmethod(_from_client)
        patched.__func__._croupier_endpoint = True  # type: ignore[attr-defined]
        DiscordWebSocket.from_client = patched  # type: ignore[method-assign,assignment]
