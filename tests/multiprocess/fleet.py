"""Bot processes on one emulator and one database, each behind its own REST door."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tests.discord_emulator import DiscordEmulator, Journal
from tests.multiprocess.door import Door, DoorCall
from tests.multiprocess.processes import BotProcess
from tests.multiprocess.rooms import MODERATOR_ROLE


@dataclass
class Fleet:
    """Bot processes on one emulator and one database, each behind its own REST door."""

    emu: DiscordEmulator
    database: str
    workdir: Path
    stack: contextlib.AsyncExitStack
    bots: list[BotProcess] = field(default_factory=list)
    doors: dict[str, Door] = field(default_factory=dict)
    calls: Journal[DoorCall] = field(default_factory=lambda: Journal("REST call"))  # through any door

    async def start(self, name: str, guild_ids: list[int], **settings: str) -> BotProcess:
        door = await self.stack.enter_async_context(Door(name, self.emu, self.calls))
        self.doors[name] = door
        bot = await BotProcess.start(
            name,
            self.workdir,
            {
                "DISCORD_TOKEN": self.emu.token,
                "DISCORD_API_BASE": door.api_base,
                "DISCORD_GATEWAY_URL": self.emu.gateway_url,
                "DATABASE_URL": self.database,
                "DISCORD_GUILD_IDS": ",".join(str(g) for g in guild_ids),
                "MODERATOR_ROLE": MODERATOR_ROLE,
                **settings,
            },
        )
        self.bots.append(bot)
        return bot

    async def stop_all(self) -> dict[str, int]:
        """Stop every process (SIGTERM) and wait for it: afterwards nothing is in flight any more."""
        return {bot.name: await bot.stop() for bot in self.bots}

    def problems(self) -> Mapping[str, list[str]]:
        return {bot.name: found for bot in self.bots if (found := bot.problems())}
