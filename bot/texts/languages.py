"""The languages the croupier speaks, found through the ``croupier.languages`` entry-point group.

Each entry point names a :class:`Language`. Everything that lists or checks languages — the
catalogues, the settings (``CROUPIER_LANGUAGE``, ``/settings language=``), Discord's locale map and its
language choice, the web's Accept-Language — reads them from :data:`LANGUAGES`, so a language is its
catalogue files plus one entry (docs/adding-a-language.md).

Why an entry-point group rather than a table in this module: the games are registered the same way
(bot/games.py), and a translation, like a game, can then live in a distribution of its own and be
installed beside the croupier without an edit of this repository — which is how the tests add a fourth
language. The project's own languages are entries in its pyproject.toml.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "croupier.languages"
DEFAULT = "de"  # what a channel speaks that sets no language and never had a game (the forum's language)
SAFETY_NET = ("en", "de")  # where a key missing in a language is looked up: these must be complete


@dataclass(frozen=True)
class Language:
    """One language: ``code`` is the suffix of its catalogue files and the value of the settings;
    ``locale`` the CLDR locale whose plural and number rules it follows (Babel's spelling, ``pt_BR``);
    ``discord`` the Discord locales (``discord.Locale`` values) whose users get it; ``name`` its own
    name ("Deutsch"), shown where languages are offered; ``texts`` a package holding all its catalogues
    when they do not lie beside each layer and game (a language in a distribution of its own)."""

    code: str
    locale: str
    discord: tuple[str, ...]
    name: str
    texts: str | None = None


class LanguageRegistry(Mapping[str, Language]):
    """The registered languages by code, in code order; loaded on first use, :meth:`refresh` reads again
    (and tells whoever caches per language — the catalogues, the CLDR rules — to forget)."""

    def __init__(self) -> None:
        self._languages: dict[str, Language] | None = None
        self._by_discord: dict[str, str] = {}
        self._forget: list[Callable[[], None]] = []

    def refresh(self) -> None:
        self._languages = None
        for forget in self._forget:
            forget()

    def on_refresh(self, forget: Callable[[], None]) -> None:
        self._forget.append(forget)

    def of_discord(self, locale: str | None) -> str | None:
        """The language a Discord locale (``"en-GB"``) is answered in, None when none serves it."""
        self._loaded()
        return self._by_discord.get(str(locale or ""))

    def closest(self, locale: str | None) -> str:
        """The language for a Discord or browser locale: the one serving it, else the one whose code is
        its language part (``"de-AT"`` → ``de``), else :data:`DEFAULT`."""
        served = self.of_discord(locale)
        if served is not None:
            return served
        code = str(locale or "").replace("_", "-").split("-")[0].strip().lower()
        return code if code in self._loaded() else DEFAULT

    def __getitem__(self, code: str) -> Language:
        return self._loaded()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())

    def __contains__(self, code: object) -> bool:
        return code in self._loaded()

    def _loaded(self) -> dict[str, Language]:
        if self._languages is None:
            self._languages, self._by_discord = _load()
        return self._languages


def _load() -> tuple[dict[str, Language], dict[str, str]]:
    languages: dict[str, Language] = {}
    by_discord: dict[str, str] = {}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        language = point.load()
        if language.code in languages:
            log.warning("language %r is registered twice; keeping the first (%s)", language.code, point.value)
            continue
        languages[language.code] = language
        for locale in language.discord:
            by_discord.setdefault(locale, language.code)
    return dict(sorted(languages.items())), by_discord


LANGUAGES = LanguageRegistry()

# The project's own languages (named by the entry points in pyproject.toml).
GERMAN = Language("de", "de_DE", ("de",), "Deutsch")
ENGLISH = Language("en", "en_US", ("en-US", "en-GB"), "English")
FRENCH = Language("fr", "fr_FR", ("fr",), "Français")
