"""Buttons and selects for the player to act, built from the game's ``choices(state)``.

They are persistent :class:`discord.ui.DynamicItem` s: the custom id carries the game id, the game's
version when the board was drawn, and the index of the choice (``cr:<game>:<version>:b<index>`` for a
button, ``…:s<index>`` for a select whose options' values are indices). A press re-reads the game
from the store; if its version moved on, the board is outdated. Nothing but words leaves a board: a
press sends the chosen choice's forum words through the same path as a typed line.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import texts
from bot.discord.embeds import clip
from bot.games import scope_of
from engine.game import Choice, Game

BUTTON_TEMPLATE = r"cr:(?P<game>\d+):(?P<version>\d+):b(?P<index>\d+)"
SELECT_TEMPLATE = r"cr:(?P<game>\d+):(?P<version>\d+):s(?P<index>\d+)"
ROWS_MAX = 5
BUTTONS_PER_ROW = 5
OPTIONS_MAX = 25
LABEL_MAX = 80
OPTION_LABEL_MAX = 100

_STYLES = {
    "continue": discord.ButtonStyle.primary,
    "stop": discord.ButtonStyle.danger,
    "fight": discord.ButtonStyle.success,
    "keep": discord.ButtonStyle.success,
}
_TONES = {
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


def choices_of(game: Game[Any], state: Any) -> Sequence[Choice]:
    """The game's choices for the player to act; none when the engine offers no ``choices`` yet."""
    offer = getattr(game, "choices", None)
    return tuple(offer(state)) if callable(offer) else ()


def words_for(choices: Sequence[Choice], picked: Sequence[int]) -> str | None:
    """The forum words a press sends; None when an index does not fit these choices."""
    if not picked or any(not 0 <= index < len(choices) for index in picked):
        return None
    chosen = [choices[index] for index in picked]
    first = chosen[0]
    if first.multi:
        if any(choice.group != first.group for choice in chosen):
            return None
        return first.compose([choice.words for choice in chosen])
    return first.words if len(chosen) == 1 else None


def label_of(choice: Choice, game: Game[Any], state: Any, lang: str) -> str:
    """What a choice shows: ``choice.<action>`` of the game's catalogue over the choice's facts."""
    if choice.label:
        return choice.label
    names = {seat.player: seat.name for seat in game.table(state)}
    key = f"choice.{choice.action}"
    return texts.render(key, choice.facts, lang, lambda p: names.get(p, p), scope=scope_of(game))


def build_board(game_id: int, version: int, game: Game[Any], state: Any, lang: str) -> discord.ui.View | None:
    """A view with a button per ungrouped choice and a select per group (at most five rows)."""
    choices = [
        dataclasses.replace(choice, label=label_of(choice, game, state, lang))
        for choice in choices_of(game, state)
    ]
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    buttons = [(index, choice) for index, choice in enumerate(choices) if not choice.group]
    groups: dict[str, list[tuple[int, Choice]]] = {}
    for index, choice in enumerate(choices):
        if choice.group:
            groups.setdefault(choice.group, []).append((index, choice))
    row = 0
    for start in range(0, len(buttons), BUTTONS_PER_ROW):
        if row >= ROWS_MAX:
            break
        for index, choice in buttons[start : start + BUTTONS_PER_ROW]:
            view.add_item(ChoiceButton.make(game_id, version, index, choice, row))
        row += 1
    for group, members in groups.items():
        if row >= ROWS_MAX:
            break
        view.add_item(ChoiceSelect.make(game_id, version, group, members[:OPTIONS_MAX], lang, row))
        row += 1
    return view


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_TEMPLATE):
    def __init__(self, item: discord.ui.Button[discord.ui.View], game: int, version: int, index: int) -> None:
        super().__init__(item)
        self.press_of = Press(game, version, (index,))

    @classmethod
    def make(cls, game: int, version: int, index: int, choice: Choice, row: int) -> ChoiceButton:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=clip(choice.label, LABEL_MAX),
            style=_TONES.get(choice.tone) or _STYLES.get(choice.action, discord.ButtonStyle.secondary),
            custom_id=f"cr:{game}:{version}:b{index}",
            row=row,
        )
        return cls(button, game, version, index)

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
    def make(
        cls,
        game: int,
        version: int,
        group: str,
        members: Sequence[tuple[int, Choice]],
        lang: str,
        row: int,
    ) -> ChoiceSelect:
        first = members[0][1]
        most = len(members) if not first.multi else min(len(members), first.limit or len(members))
        key = f"discord.select.{group}"
        placeholder = texts.render(key if texts.has(key, lang) else "discord.select.other", {}, lang)
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"cr:{game}:{version}:s{members[0][0]}",
            placeholder=clip(placeholder, 150),
            min_values=1,
            max_values=most if first.multi else 1,
            options=[
                discord.SelectOption(label=clip(choice.label, OPTION_LABEL_MAX), value=str(index))
                for index, choice in members
            ],
            row=row,
        )
        return cls(select, game, version)

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
        picked = tuple(int(value) for value in self.item.values if value.isdigit())
        await _handler(interaction).press(interaction, Press(self.game, self.version, picked))


def _handler(interaction: discord.Interaction[Any]) -> PressHandler:
    handler: PressHandler = interaction.client.front
    return handler
