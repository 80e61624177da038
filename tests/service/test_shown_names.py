"""Names as readers see them, remembered per set of names (bot.shown_names); what they look like is
pinned by tests/security/test_lookalikes.py."""

from __future__ import annotations

from bot.shown_names import distinguished

ANNAS = {"11": "Anna", "22": "\u0410nna"}  # Latin, Cyrillic А


def test_each_caller_gets_names_of_its_own() -> None:
    """What one caller does with its dict changes nothing for the next; the same names in another order
    are another question."""
    first = distinguished(ANNAS)
    first["11"] = "changed"
    again = distinguished(ANNAS)
    assert again["11"] != "changed"
    assert again == distinguished(dict(ANNAS))
    assert list(distinguished(dict(reversed(ANNAS.items())))) == ["22", "11"]
