"""A game's thread is named from the service's title — plain text, one line, no mention syntax, at most
Discord's 100 characters — whatever a moderator called the tournament."""

from __future__ import annotations

from bot.discord.threads import NAME_MAX, thread_name


def test_a_thread_name_is_one_line_and_short_enough() -> None:
    name = thread_name("Die verflixte 6! · Durchgang 3 · Frühjahrs\nturnier " + "x" * 200)
    assert "\n" not in name
    assert len(name) == NAME_MAX
    assert name.endswith("…")
    assert name.startswith("Die verflixte 6! · Durchgang 3 · Frühjahrs turnier")


def test_a_tournament_name_cannot_make_the_thread_name_mention_anyone() -> None:
    name = thread_name("Durchgang 1 · @everyone <@123456789012345678> \u202eevil")
    assert "@everyone" not in name
    assert "<@123456789012345678>" not in name
    assert "\u202e" not in name
