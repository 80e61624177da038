"""Which language the croupier speaks in a channel (bot/games.py ``language_of``)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from bot.games import language_of
from bot.store import ChannelSettings, ChannelState, GameRecord

SETTINGS = ChannelSettings(
    guild="g", channel="c", language=None, moderator_role=None, turn_timeout_seconds=60
)
NOW = datetime(2026, 3, 1, tzinfo=UTC)
KILLER_GAME = GameRecord(
    id=1,
    tournament_id=1,
    channel="c",
    kind="killer",
    number=1,
    options={},
    status="open",
    seed=b"s",
    commitment="c" * 64,
    dice_used=0,
    snapshot={},
    version=1,
    to_act=None,
    turn_deadline=None,
    opened_at=NOW,
    closed_at=None,
)


def test_the_channel_setting_wins() -> None:
    english = dataclasses.replace(SETTINGS, language="en")
    assert language_of(ChannelState(english, KILLER_GAME)) == "en"


def test_without_a_setting_the_open_game_speaks_its_own_language() -> None:
    assert language_of(ChannelState(SETTINGS, KILLER_GAME)) == "fr"


def test_without_setting_or_game_the_croupier_speaks_german() -> None:
    assert language_of(ChannelState(SETTINGS, None)) == "de"
