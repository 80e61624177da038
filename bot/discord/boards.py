"""A reply's :class:`~bot.replies.Board` as Discord buttons and selects, and the sign-up button under a
live table.

They are persistent :class:`discord.ui.DynamicItem` s: the custom id carries the game id, the game's
version when the board was drawn, and the index of the choice (``cr:<game>:<version>:b<index>`` for a
button, ``…:s<index>`` for a select whose options' values are indices). A press goes back to the
service with exactly that; the service checks the version and the player and applies the choice's
words, so a button can never do what typing could not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import texts
from bot.discord.embeds import clip
from bot.replies import Board, Button, Reply
from engine.numbers import digits

BUTTON_TEMPLATE = r"cr:(?P<game>[0-9]+):(?P<version>[0-9]+):b(?P<index>[0-9]+)"
SELECT_TEMPLATE = r"cr:(?P<game>[0-9]+):(?P<version>[0-9]+):s(?P<index>[0-9]+)"
JOIN_TEMPLATE = r"cr:join:(?P<game>[0-9]+):(?P<channel>[0-9]+)"  # the game, and the thread it is played in
ROWS_MAX = 5
BUTTONS_PER_ROW = 5
OPTIONS_MAX = 25
LABEL_MAX = 80
OPTION_LABEL_MAX = 100
PLACEHOLDER_MAX = 150

_STYLES = {
    "go": discord.ButtonStyle.primary,
    "halt": discord.ButtonStyle.danger,
    "good": discord.ButtonStyle.success,
}


@dataclass(frozen=True)
class Press:
    """What a player picked on a board: the game and version it was drawn for, and choice indices."""

    game: int
    version: int
    picked: tuple[int, ...]


class PressHandler(Protocol):
    async def press(self, interaction: discord.Interaction[Any], press: Press) -> None: ...

    async def join(self, interaction: discord.Interaction[Any], game: int, channel: int) -> None: ...


def live_view(reply: Reply, channel: int) -> discord.ui.View | None:
    """The sign-up button of a live table while the game takes sign-ups (the thread is ``channel``)."""
    live = reply.live
    if live is None or not live.joinable or live.finished or reply.game_id is None:
        return None
    view = discord.ui.View(timeout=None)
    label = clip(texts.render("discord.live.join", {}, reply.language), LABEL_MAX)
    view.add_item(JoinButton.make(reply.game_id, channel, label))
    return view


def build_board(board: Board | None) -> discord.ui.View | None:
    """A view with a button per ungrouped choice and a select per group (at most five rows)."""
    if board is None or not board.buttons:
        return None
    view = discord.ui.View(timeout=None)
    loose = [button for button in board.buttons if not button.group]
    groups: dict[str, list[Button]] = {}
    for button in board.buttons:
        if button.group:
            groups.setdefault(button.group, []).append(button)
    row = 0
    for start in range(0, len(loose), BUTTONS_PER_ROW):
        if row >= ROWS_MAX:
            break
        for button in loose[start : start + BUTTONS_PER_ROW]:
            view.add_item(ChoiceButton.make(board, button, row))
        row += 1
    for group, members in groups.items():
        if row >= ROWS_MAX:
            break
        view.add_item(ChoiceSelect.make(board, members[:OPTIONS_MAX], board.placeholder(group), row))
        row += 1
    return view


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_TEMPLATE):
    def __init__(self, item: discord.ui.Button[discord.ui.View], game: int, version: int, index: int) -> None:
        super().__init__(item)
        self.press_of = Press(game, version, (index,))

    @classmethod
    def make(cls, board: Board, button: Button, row: int) -> ChoiceButton:
        item: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=clip(button.label, LABEL_MAX),
            style=_STYLES.get(button.tone, discord.ButtonStyle.secondary),
            custom_id=f"cr:{board.game_id}:{board.version}:b{button.index}",
            row=row,
        )
        return cls(item, board.game_id, board.version, button.index)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ChoiceButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["game"]), int(match["version"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).press(interaction, self.press_of)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=SELECT_TEMPLATE):
    def __init__(self, item: discord.ui.Select[discord.ui.View], game: int, version: int) -> None:
        super().__init__(item)
        self.game = game
        self.version = version

    @classmethod
    def make(cls, board: Board, members: list[Button], placeholder: str, row: int) -> ChoiceSelect:
        first = members[0]
        most = min(len(members), first.limit or len(members)) if first.multi else 1
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"cr:{board.game_id}:{board.version}:s{first.index}",
            placeholder=clip(placeholder, PLACEHOLDER_MAX) or None,
            min_values=1,
            max_values=most,
            options=[
                discord.SelectOption(label=clip(button.label, OPTION_LABEL_MAX), value=str(button.index))
                for button in members
            ],
            row=row,
        )
        return cls(select, board.game_id, board.version)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ChoiceSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        picked = tuple(int(value) for value in self.item.values if digits(value))
        await _handler(interaction).press(interaction, Press(self.game, self.version, picked))


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=JOIN_TEMPLATE):
    """Sign up for the game of a live table: the same as ``/mitmachen`` typed in its thread."""

    def __init__(self, item: discord.ui.Button[discord.ui.View], game: int, channel: int) -> None:
        super().__init__(item)
        self.game = game
        self.channel = channel

    @classmethod
    def make(cls, game: int, channel: int, label: str) -> JoinButton:
        item: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.success, custom_id=f"cr:join:{game}:{channel}"
        )
        return cls(item, game, channel)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> JoinButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["game"]), int(match["channel"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).join(interaction, self.game, self.channel)


def _handler(interaction: discord.Interaction[Any]) -> PressHandler:
    handler: PressHandler = interaction.client.front
    return handler
