"""Every catalogue — the shared ones beside bot/texts and each registered game's own — is complete in
every registered language (bot/texts/languages.py): the same keys as the German one, and each template
with the same placeholders (a sentence that names the player in one language names it in all). A
language that brings its catalogues in a package of its own is checked there
(tests/languages/test_fourth_language.py adds one)."""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import pytest

import bot.texts
from bot.games import GAMES
from bot.texts import LANGUAGES
from bot.texts.languages import Language

SHARED = Path(bot.texts.__file__).parent


def placeholders(template: str) -> set[str]:
    """The fact names a template uses (``{player}``, ``{n:plural:a:b}`` → n, ``{cmd[join]}`` → cmd)."""
    return {
        field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template) if field
    }


def catalogue_files(languages: Mapping[str, Language] = LANGUAGES) -> list[tuple[str, dict[str, Path]]]:
    """Each catalogue by name with its file per language: the shared ones and every game's, beside
    each layer and game or in a language's own package."""
    found: dict[str, dict[str, Path]] = {}

    def shared(folder: Path, only: str | None = None) -> None:
        for path in folder.glob("*.json"):
            name, lang = path.name.removesuffix(".json").rsplit(".", 1)
            if only in (None, lang):
                found.setdefault(f"bot/texts/{name}", {})[lang] = path

    def games(folder: Path, package: str, only: str | None = None) -> None:
        for path in folder.glob("*.json"):
            stem = path.name.removesuffix(".json")
            name, _, lang = stem.rpartition(".")
            if only in (None, lang or stem):
                found.setdefault(f"{package}/{name or 'texts'}", {})[lang or stem] = path

    shared(SHARED)
    packages = sorted({game.catalogue for game in GAMES.values()})
    for package in packages:
        games(Path(str(resources.files(package) / "texts")), package)
    for code, language in languages.items():
        if language.texts is not None:
            pack = Path(str(resources.files(language.texts)))
            shared(pack, code)
            for package in packages:
                games(pack / package, package, code)
    return sorted(found.items())


def assert_complete(name: str, files: dict[str, Path], languages: Mapping[str, Language]) -> None:
    """``name`` has a file in every language of ``languages``, with the German one's keys and each
    template's placeholders."""
    assert set(files) == set(languages), f"{name}: languages {sorted(files)}"
    texts = {lang: json.loads(path.read_text(encoding="utf-8")) for lang, path in files.items()}
    keys = {lang: set(entries) for lang, entries in texts.items()}
    for lang in languages:
        assert keys[lang] == keys["de"], f"{name}.{lang}: {sorted(keys[lang] ^ keys['de'])}"
    for key in keys["de"]:
        used = {lang: placeholders(texts[lang][key]) for lang in languages}
        assert all(found == used["de"] for found in used.values()), f"{name}: {key} uses {used}"
        assert all(texts[lang][key].strip() for lang in languages), f"{name}: {key} is empty somewhere"


CATALOGUES = catalogue_files()


def test_the_games_catalogues_are_found() -> None:
    names = {name for name, _ in CATALOGUES}
    shared = {"bot/texts/common", "bot/texts/discord"}
    assert shared | {"engine.verflixte6/texts", "engine.killer/texts"} <= names
    assert "engine.killer/killer-classic" in names


@pytest.mark.parametrize(("name", "files"), CATALOGUES, ids=[name for name, _ in CATALOGUES])
def test_every_catalogue_is_complete_in_every_language(name: str, files: dict[str, Path]) -> None:
    assert_complete(name, files, LANGUAGES)
