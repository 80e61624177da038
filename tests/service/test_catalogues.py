"""Every catalogue — the shared ones beside bot/texts and each registered game's own — is complete in
German, English and French: the same keys in each language, and each template with the same
placeholders in each language (a sentence that names the player in one language names it in all)."""

from __future__ import annotations

import json
import string
from importlib import resources
from pathlib import Path

import pytest

import bot.texts
from bot.games import GAMES
from bot.texts import LANGUAGES

SHARED = Path(bot.texts.__file__).parent


def placeholders(template: str) -> set[str]:
    """The fact names a template uses (``{player}``, ``{n:plural:a:b}`` → n, ``{cmd[join]}`` → cmd)."""
    return {
        field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template) if field
    }


def catalogue_files() -> list[tuple[str, dict[str, Path]]]:
    """Each catalogue by name with its file per language: the shared ones and every game's."""
    found: dict[str, dict[str, Path]] = {}
    for path in SHARED.glob("*.json"):
        name, lang = path.name.removesuffix(".json").rsplit(".", 1)
        found.setdefault(f"bot/texts/{name}", {})[lang] = path
    for game in GAMES.values():
        folder = Path(str(resources.files(game.catalogue) / "texts"))
        for path in folder.glob("*.json"):
            stem = path.name.removesuffix(".json")
            name, _, lang = stem.rpartition(".")
            found.setdefault(f"{game.catalogue}/{name or 'texts'}", {})[lang or stem] = path
    return sorted(found.items())


CATALOGUES = catalogue_files()


def test_the_games_catalogues_are_found() -> None:
    names = {name for name, _ in CATALOGUES}
    shared = {"bot/texts/common", "bot/texts/discord"}
    assert shared | {"engine.verflixte6/texts", "engine.killer/texts"} <= names
    assert "engine.killer/killer-classic" in names


@pytest.mark.parametrize(("name", "files"), CATALOGUES, ids=[name for name, _ in CATALOGUES])
def test_every_catalogue_is_complete_in_every_language(name: str, files: dict[str, Path]) -> None:
    assert set(files) == set(LANGUAGES), f"{name}: languages {sorted(files)}"
    texts = {lang: json.loads(path.read_text(encoding="utf-8")) for lang, path in files.items()}
    keys = {lang: set(entries) for lang, entries in texts.items()}
    for lang in LANGUAGES:
        assert keys[lang] == keys["en"], f"{name}.{lang}: {sorted(keys[lang] ^ keys['en'])}"
    for key in keys["en"]:
        used = {lang: placeholders(texts[lang][key]) for lang in LANGUAGES}
        assert used["de"] == used["en"] == used["fr"], f"{name}: {key} uses {used}"
        assert all(texts[lang][key].strip() for lang in LANGUAGES), f"{name}: {key} is empty somewhere"
