"""The catalogues' format specs write numbers, plurals, lists and names each language's way.

These pin :func:`bot.texts.fill` itself (the specs the catalogues use); what the catalogues say with
them is pinned by the tests that render real events (tests/engine/*/test_catalogue.py,
tests/service/test_texts_language.py).
"""

from __future__ import annotations

import pytest

from bot import texts
from bot.texts import MINUS, fill, render, signed, singular


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        ("fr", 0, "0 point"),
        ("fr", 1, "1 point"),
        ("fr", -1, f"{MINUS}1 point"),
        ("fr", 2, "2 points"),
        ("de", 0, "0 Punkte"),
        ("de", 1, "1 Punkt"),
        ("de", -7, f"{MINUS}7 Punkte"),
        ("en", 0, "0 points"),
        ("en", 1, "1 point"),
    ],
)
def test_plurals_follow_the_language(lang: str, count: int, expected: str) -> None:
    one, many = {"fr": ("point", "points"), "de": ("Punkt", "Punkte"), "en": ("point", "points")}[lang]
    assert fill(f"{{n:plural:{one}:{many}}}", {"n": count}, lang) == expected
    assert fill(f"{{n:pick:{one}:{many}}}", {"n": count}, lang) == expected.split()[-1]
    assert singular(lang, count) == (expected.split()[-1] == one)


def test_negative_numbers_take_a_typographic_minus_in_every_template() -> None:
    # the plain path (str.format_map) and the spec path write the same number
    assert fill("{total}", {"total": -5}, "de") == f"{MINUS}5"
    assert fill("{total} {n:plural:Auge:Augen}", {"total": -5, "n": -5}, "de") == f"{MINUS}5 {MINUS}5 Augen"
    assert fill("{faces}", {"faces": (3, -2)}, "en") == f"3, {MINUS}2"
    assert "-" not in fill("{delta:signed}", {"delta": -5}, "de")
    assert [signed(3), signed(-2), signed(0)] == ["+3", f"{MINUS}2", "±0"]
    assert fill("{delta:signed}", {"delta": 4}, "fr") == "+4"


@pytest.mark.parametrize(
    ("lang", "percent", "decimal"),
    [("de", "63,90 %", "1,25"), ("fr", "63,90 %", "1,25"), ("en", "63.90%", "1.25")],
)
def test_percentages_and_decimals_use_the_languages_marks(lang: str, percent: str, decimal: str) -> None:
    assert fill("{p:percent}", {"p": 63.9}, lang) == percent
    assert fill("{x:decimal}", {"x": 1.25}, lang) == decimal
    assert fill("{x:decimal:1}", {"x": 1.25}, lang) in ("1,2", "1.2")


@pytest.mark.parametrize(
    ("lang", "either", "both", "quoted"),
    [
        ("de", "cleo oder dora", "cleo und dora", "„weiter“, „stopp“ oder „raube nicht“"),
        ("en", "cleo or dora", "cleo and dora", "“weiter”, “stopp” or “raube nicht”"),
        (
            "fr",
            "cleo ou dora",
            "cleo et dora",
            "« weiter », « stopp » ou « raube nicht »",
        ),
    ],
)
def test_lists_are_joined_the_languages_way(lang: str, either: str, both: str, quoted: str) -> None:
    names = {"players": ("cleo", "dora")}
    assert fill("{players:or}", names, lang, str.lower) == either
    assert fill("{players:and}", names, lang) == both
    assert fill("{players}", names, lang) == "cleo, dora"
    assert fill("{valid:quoted_or}", {"valid": ("weiter", "stopp", "raube nicht")}, lang) == quoted
    single = fill("{valid:quoted_or}", {"valid": ("stopp",)}, lang)
    assert single in quoted
    assert single.strip("„“”«» ") == "stopp"


def test_an_empty_list_says_what_the_template_gives_instead() -> None:
    assert fill("({kept:list:aucun})", {"kept": ()}, "fr") == "(aucun)"
    assert fill("({kept:list:aucun})", {"kept": (6, 5)}, "fr") == "(6, 5)"
    assert fill("Modes : {modes:and:aucun}.", {"modes": ()}, "fr") == "Modes : aucun."


def test_player_names_become_display_names_before_any_spec() -> None:
    names = {"u1": "Anna", "u2": "Ben"}.__getitem__
    assert fill("{players:or}", {"players": ("u1", "u2")}, "de", names) == "Anna oder Ben"
    assert fill("{player}", {"player": "u2"}, "de", names) == "Ben"


@pytest.mark.parametrize(
    ("name", "expected"),
    [("anna", "d'anna"), ("Émile", "d'Émile"), ("hugo", "d'hugo"), ("ben", "de ben"), ("@x", "de @x")],
)
def test_french_elides_de_before_a_vowel(name: str, expected: str) -> None:
    assert fill("{player:elide:de}", {"player": name}, "fr") == expected


def test_a_fact_of_the_wrong_kind_is_shown_rather_than_failing() -> None:
    assert fill("{n:plural:a:b}", {"n": "viele"}, "de") == "viele"
    assert fill("{missing:signed}", {}, "de") == "{missing}"


def test_render_formats_in_the_language_the_template_was_found_in() -> None:
    # a key every catalogue has, in a language none has: the English fallback formats the English way
    assert render("common.help", {"commands": "x"}, "xx") == render("common.help", {"commands": "x"}, "en")


@pytest.mark.parametrize(
    "template",
    [
        "{n:plural:Auge:Augen} für {player!s}, {cold[0]}/{cold[1]} {{wörtlich}} {n:signed}",
        "{n:plural:a:b} {missing:signed} {n:>{width}}",  # a field in a spec: vformat fills it
        "{0} {n:signed}",  # a numbered field: no such argument, either way
        "{n:signed}{{",
        "{} {n:signed}",  # an unnamed field: vformat numbers it
    ],
)
def test_a_template_read_once_fills_as_vformat_does(template: str) -> None:
    """``fill`` reads a template's fields once and formats them as ``string.Formatter.vformat`` does."""
    formatter, facts = texts._formatter("de"), texts._Facts(n=3, player="anna", cold=(1, 4), width=5)
    try:
        expected = formatter.vformat(template, (), facts)
    except (IndexError, ValueError) as failed:
        with pytest.raises(type(failed)):
            formatter.fill(template, facts)
    else:
        assert formatter.fill(template, facts) == expected
