"""The Discord end-to-end fixtures (an emulator guild, the store, the croupier client) for the security
tests, shared with tests/discord, and the web tests' console room with its site."""

from __future__ import annotations

from tests.discord.conftest import (  # noqa: F401  (fixtures)
    _restored_endpoints,
    croupier_store,
    db_backend,
    people,
    table,
)
from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401  (the fixture)
from tests.web.conftest import client, room  # noqa: F401  (the console room and its site)
