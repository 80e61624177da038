"""The ids Discord gave the slash commands, so replies can name a command as a clickable mention
(``</mitmachen:ID>``, ``</durchgang oeffnen:ID>``; Discord shows each reader the command's name in
their own language).

The ids come from the sync response or from fetching the registered commands at start and live in
this process's memory only. Replies are rendered without knowing the guild they go to, so only one
set of ids can be used: the global commands', or a single guild's when the commands are registered
in one guild. With several guilds (each has its own ids) replies name commands as plain text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from discord import AppCommandType
from discord.app_commands import AppCommand

Scope = int | None  # a guild id, or None for the global commands


class CommandIds:
    """Top-level command name → id, per scope. Written on the event loop, read by the service's
    worker threads: every change swaps in a new mapping, so a reader never sees half an update."""

    def __init__(self) -> None:
        self._scopes: Mapping[Scope, Mapping[str, int]] = MappingProxyType({})
        self.version = 0  # grows with every change, for caches of rendered names

    def learn(self, scope: Scope, commands: Iterable[AppCommand]) -> None:
        """The scope's slash commands as Discord answered them (context menus have no mentions)."""
        self.learn_ids(scope, {c.name: c.id for c in commands if c.type is AppCommandType.chat_input})

    def learn_ids(self, scope: Scope, ids: Mapping[str, int]) -> None:
        self._scopes = MappingProxyType({**self._scopes, scope: MappingProxyType(dict(ids))})
        self.version += 1

    def usable(self) -> Mapping[str, int]:
        """The ids replies may use: the global commands', else those of the only guild known."""
        scopes = self._scopes
        if None in scopes:
            return scopes[None]
        if len(scopes) == 1:
            return next(iter(scopes.values()))
        return MappingProxyType({})

    def mention(self, words: str) -> str | None:
        """``</durchgang oeffnen:ID>`` for the base words of a command; None while its id is unknown."""
        command_id = self.usable().get(words.split()[0])
        return None if command_id is None else f"</{words}:{command_id}>"
