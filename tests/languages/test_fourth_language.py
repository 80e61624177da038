"""A fourth language, added by docs/adding-a-language.md alone: Dutch lives in its own package
(tests/languages/nl — its catalogues and its registry entry) and is registered only through the
``croupier.languages`` entry-point group, as a translation installed beside the croupier would be.
Nothing else in the repository names it.

With it installed, a moderator switches a channel to Dutch and a whole Durchgang of Die verflixte 6! is
played through the console: every sentence comes from the Dutch catalogues, the lists say "of", and the
plural and number forms are CLDR's for Dutch ("1 oog", "0 ogen"; "63,90%", "0,42"). The settings, the
help, Discord's locale map and the web's words know it too; without the entry point there is no Dutch.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from discord import app_commands
from pydantic import ValidationError

from bot import texts
from bot.discord.context import language_of_locale
from bot.discord.translator import CatalogueTranslator, language_name
from bot.games import GAMES, scope_of
from bot.settings import Settings
from bot.settings_words import usage
from bot.store import Store
from bot.texts import LANGUAGES, catalogue, render
from bot.web.words import number, verdict_words
from engine.verflixte6.jokers import registry as joker_registry
from tests.languages.nl import DUTCH
from tests.languages.plugin import installed
from tests.service.test_catalogues import assert_complete, catalogue_files
from tests.service.test_languages import (
    FALLBACK_MARKER,
    PLAYERS,
    SQLITE_ONLY,
    TELLING,
    UNFILLED,
    Renders,
    console_session,
    every_text,
    foreign_words,
    leftovers,
    whole_game,
)
from tests.service.test_languages import FOREIGN as FOREIGN_WORDS

V6 = scope_of(GAMES["verflixte6"])
KILLER = scope_of(GAMES["killer"])
# Words that tell German, English or French, less those Dutch writes too ("is", "of" = or).
FOREIGN_TO_DUTCH = set().union(*TELLING.values()) - {"is", "of"}


@pytest.fixture
def dutch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Dutch installed: a distribution on the path whose entry point names :data:`DUTCH`."""
    monkeypatch.setitem(FOREIGN_WORDS, "nl", FOREIGN_TO_DUTCH)
    with installed(tmp_path) as site:
        yield site


def test_dutch_is_known_only_once_its_entry_point_is_installed(tmp_path: Path) -> None:
    assert "nl" not in LANGUAGES
    with pytest.raises(ValidationError, match="croupier_language"):
        Settings(croupier_language="nl")
    with installed(tmp_path):
        assert LANGUAGES["nl"] == DUTCH
        assert list(LANGUAGES) == ["de", "en", "fr", "nl"]
        assert Settings(croupier_language="NL").croupier_language == "nl"
        assert "language=de|en|fr|nl" in usage("nl")
        assert language_of_locale(discord.Locale.dutch) == "nl"
        assert language_of_locale("nl-BE") == "nl"  # no Discord locale, but Dutch all the same
        assert [language_name("nl", lang) for lang in LANGUAGES] == [
            "Niederländisch",
            "Dutch",
            "Néerlandais",
            "Nederlands",
        ]
    assert "nl" not in LANGUAGES
    assert language_of_locale(discord.Locale.dutch) == texts.DEFAULT


def test_a_sentence_remembered_before_dutch_was_installed_is_read_again(tmp_path: Path) -> None:
    """A role's label is rendered once per language (texts.constant): installing a language forgets
    what was rendered before, when "nl" fell back on English."""
    assert texts.constant("role.playing", "nl", V6) == "playing"
    with installed(tmp_path):
        assert texts.constant("role.playing", "nl", V6) == "aan de beurt"
    assert texts.constant("role.playing", "nl", V6) == "playing"


def test_every_dutch_catalogue_has_the_german_keys_and_placeholders(dutch: Path) -> None:
    files = catalogue_files(LANGUAGES)
    assert {name for name, _ in files} >= {
        "bot/texts/common",
        "bot/texts/discord",
        "bot/texts/web",
        "engine.verflixte6/texts",
        "engine.killer/texts",
        "engine.killer/killer-classic",
    }
    for name, by_language in files:
        assert by_language["nl"].is_relative_to(Path(__file__).parent / "nl"), name
        assert_complete(name, by_language, LANGUAGES)


def test_dutch_counts_and_numbers_the_cldr_way(dutch: Path) -> None:
    """Dutch: the singular for 1 alone (not for 0, as French has it); a decimal comma and no space
    before the percent sign (German puts one)."""
    stopped = [render("v6.stopped", {"player": "anna", "total": n}, "nl", scope=V6) for n in (0, 1, 2)]
    assert stopped == [
        "anna stopt en houdt 0 ogen – Prinzessin!",
        "anna stopt en houdt 1 oog – Prinzessin!",
        "anna stopt en houdt 2 ogen – Prinzessin!",
    ]
    odds = {"dice": 5, "attack_pct": 63.9, "p_attack": "0.639", "regeneration_pct": 4.25, "loss_pct": 31.85}
    odds["expected_loss"] = 1.5
    assert render("killer.phase_odds", odds, "nl", scope=KILLER) == (
        "Met 5 dobbelstenen en het beste spel geeft een beurt: aanval 63,90% (0.639), "
        "regeneratie 4,25%, verlies 31,85% (gemiddeld verlies 1,50 LP)."
    )
    assert render("killer.phase_odds", odds, "de", scope=KILLER).count(" %") == 3
    assert [number(3.62, "nl"), number(-0.5, "nl", 1)] == ["3,62", "−0,5"]
    assert verdict_words(0.42, True, "nl") == "niets bijzonders (p = 0,42)"
    assert verdict_words(0.00001, True, "nl") == "ongewoon, p = < 0,0001"


@SQLITE_ONLY
async def test_a_durchgang_is_played_in_dutch_through_the_console(
    dutch: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every render asks for Dutch and finds its key in the Dutch catalogues; every printed line is
    made of them; and a handful of lines, spelled out here, say what a Dutch reader expects."""
    import bot.console.terminal
    import bot.exports
    import bot.replies

    renders = Renders()
    renders.install(monkeypatch)
    for module in (bot.console.terminal, bot.replies, bot.exports):
        monkeypatch.setattr(module, "render", texts.render)  # the recording one
    session = await console_session(store, "verflixte6", "nl")

    assert {call.lang for call in renders.calls} == {"nl"}
    missing = sorted({call.key for call in renders.calls if call.key not in catalogue("nl", call.scope)})
    assert missing == []
    assert len({call.key for call in renders.calls}) >= 60
    printed = session.printed()
    assert [line for line in printed if FALLBACK_MARKER.search(line) or UNFILLED.search(line)] == []
    rendered = sorted({call.text for call in renders.calls}, key=len, reverse=True)
    names = {*PLAYERS, "mod", "zed", "Turnier", "Frühling", "Sommer", "Versehen", "Regelverstoß"}
    names |= {"Absprache", "Irrtum", "Bonus", "pdf", "abc", "foo", "bogus", "colour", "red"}
    names |= {*joker_registry.NAMES, "Hirte der Spelunke"}
    assert {line: rest for line in printed if (rest := leftovers(line, rendered, names))} == {}
    assert {line: found for line in printed if (found := foreign_words(line, "nl", names))} == {}

    said = {line for _, text in session.lines for line in text.splitlines()}
    assert {
        "⚙️ Instellingen gewijzigd: language=nl.",
        "🎲 Ronde 1 van het toernooi “Frühling” is geopend! Meld je aan met /join. "
        "De croupier gooit ALTIJD, de speler NOOIT.",
        "Alleen moderators mogen dat.",
        "Bedoelde je “weiter”?",
        "De ronde begint! Volgorde: anna, ben, cleo.",
        "De Kälteschutz van anna is op na 5 gebruiken.",
        "anna, jouw zet: “weiter”, “weiter mit Joker Oces Anaconda” of “stopp”.",
        "anna stopt en houdt 34 ogen – Prinzessin!",
    } <= said
    help_lines = next(text for line, text in session.lines if line == "anna: /help").splitlines()
    assert help_lines[0].startswith("Commando's: /tournament NAAM, /tournaments, ")
    assert "/settings language=de|en|fr|nl moderator=ROL timeout=SECONDEN" in help_lines[0]
    stops = [
        m
        for line in printed
        if (m := re.fullmatch(r"\w+ stopt en houdt (−?\d+) (oog|ogen) – Prinzessin!", line))
    ]
    assert stops
    assert all((m[2] == "oog") == (m[1] == "1") for m in stops)


@SQLITE_ONLY
@pytest.mark.parametrize("kind", ["verflixte6", "killer"])
async def test_a_whole_game_pressed_and_typed_speaks_dutch(
    dutch: Path, store: Store, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The buttons, their labels and the cards too: a game played to its end in Dutch."""
    renders = Renders()
    renders.install(monkeypatch)
    replies = await whole_game(store, kind, "nl")
    assert {call.lang for call in renders.calls} == {"nl"}
    assert sorted({call.key for call in renders.calls if call.key not in catalogue("nl", call.scope)}) == []
    assert {reply.language for reply in replies} == {"nl"}
    shown = [text for reply in replies for text in every_text(reply)]
    assert [text for text in shown if FALLBACK_MARKER.search(text) or UNFILLED.search(text)] == []


async def test_discord_users_with_the_dutch_locale_read_dutch_command_names(dutch: Path) -> None:
    translator = CatalogueTranslator()

    async def translated(
        text: str, key: str, location: app_commands.TranslationContextLocation
    ) -> str | None:
        context = app_commands.TranslationContext(location=location, data=None)
        return await translator.translate(
            app_commands.locale_str(text, key=key), discord.Locale.dutch, context
        )

    name = app_commands.TranslationContextLocation.command_name
    assert await translated("mitmachen", "discord.cmd.mitmachen.name", name) == "meedoen"
    assert await translated("durchgang", "discord.cmd.durchgang.name", name) == "ronde"
    choice = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.choice_name, data=None
    )
    german = app_commands.locale_str("Deutsch", language="de")
    assert await translator.translate(german, discord.Locale.dutch, choice) == "Duits"
    assert await translator.translate(german, discord.Locale.german, choice) == "Deutsch"
