"""The /help listing names the /settings keys that /settings reads, from one place (bot/settings_words.py),
and the settings refusals list the keys a user types, not the stored field names."""

from __future__ import annotations

import re

import pytest

from bot.settings_words import KEYS, USAGE, parse_settings, usage
from bot.spelling import ConsoleSpelling
from bot.texts import LANGUAGES
from engine.errors import InvalidCommand

# a valid value per key
SAMPLES = {"language": "en", "moderator": "Croupier", "timeout": "90", "threads": "off"}


def settings_line() -> str:
    [line] = [line for line in ConsoleSpelling().listing("de") if line.startswith("/settings ")]
    return line


def test_the_help_lists_every_setting_as_settings_reads_it() -> None:
    assert settings_line() == f"/settings {usage()}"
    listed = dict(re.findall(r"(\w+)=(\S+)", settings_line()))
    assert list(listed) == list(KEYS)
    assert listed["language"] == "|".join(LANGUAGES)
    fields = set()
    for key in listed:
        fields |= set(parse_settings({key: SAMPLES[key]}))  # every listed key is accepted …
    # … and reaches every field
    assert fields == {"language", "moderator_role", "turn_timeout_seconds", "threads"}
    assert dict(USAGE) == listed


@pytest.mark.parametrize(
    ("options", "code"), [({}, "settings_missing"), ({"colour": "red"}, "unknown_setting")]
)
def test_settings_refusals_name_the_keys_a_user_types(options: dict[str, str], code: str) -> None:
    with pytest.raises(InvalidCommand) as caught:
        parse_settings(options)
    assert caught.value.code == code
    assert caught.value.facts["valid"] == list(KEYS)
    for key in caught.value.facts["valid"]:
        parse_settings({key: SAMPLES[key]})
