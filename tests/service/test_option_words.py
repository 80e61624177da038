"""The options typed after ``/open`` and ``/settings`` (bot.option_words), read alike by the console,
Discord's ``optionen`` and its autocomplete: a value runs up to the next ``key=``, so the joker names of
the rules page ("ALL IN", "Push your Pony") need no quotes."""

from __future__ import annotations

import pytest

from bot.option_words import parse_options
from bot.service.suggestions import options as completed


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        (
            "jokers=Rattenlord,ALL IN",
            {"jokers": "Rattenlord,ALL IN"},
        ),  # as docs/rules-verflixte6.md writes it
        ("jokers=Rattenlord, ALL IN order=shuffled", {"jokers": "Rattenlord, ALL IN", "order": "shuffled"}),
        ("order=shuffled jokers=Push your Pony", {"order": "shuffled", "jokers": "Push your Pony"}),
        ('jokers="Rattenlord,ALL IN" parallel', {"jokers": "Rattenlord,ALL IN", "parallel": "yes"}),
        ("parallel jokers=+Sekante", {"parallel": "yes", "jokers": "+Sekante"}),
        ("Language=fr", {"language": "fr"}),
        ('jokers="ALL IN', {"jokers": '"ALL IN'}),  # unpaired quotes: split at spaces, nothing lost
        ("", {}),
    ],
)
def test_a_value_runs_to_the_next_key(typed: str, read: dict[str, str]) -> None:
    assert parse_options(typed) == read


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("jokers=Rattenlord,ALL I", ['jokers="Rattenlord,ALL IN"']),
        ("jokers=Rattenlord,ALL IN order=sh", ['jokers="Rattenlord,ALL IN" order=shuffled']),
        ("order=shuffled pa", ["order=shuffled parallel=yes", "order=shuffled parallel=no"]),
        (
            'jokers="Rattenlord,ALL IN" par',
            ['jokers="Rattenlord,ALL IN" parallel=yes', 'jokers="Rattenlord,ALL IN" parallel=no'],
        ),
    ],
)
def test_autocomplete_reads_the_options_as_the_command_does(typed: str, offered: list[str]) -> None:
    shown = [suggestion.value for suggestion in completed("verflixte6", typed)]
    assert shown == offered
    for value in shown:  # each suggestion reads back as the game's options, no stray "IN" among them
        assert set(parse_options(value)) <= {"jokers", "order", "parallel"}
