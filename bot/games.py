"""The games the croupier can run, found through the ``croupier.games`` entry-point group.

Each entry point names a :class:`engine.game.Game` object; the project registers its own games in
pyproject.toml, and a further game is one package plus one entry-point line (docs/adding-a-game.md).
Everything else — the service, help texts, replay validation, Discord's choices, the standings — reads
the games from here, so nothing else names a game.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points
from typing import Any

from bot import texts
from bot.store import ChannelState
from bot.texts import Scope
from engine.commands import fold
from engine.errors import InvalidCommand
from engine.game import Game

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "croupier.games"
DEFAULT_LANGUAGE = texts.DEFAULT


class GameRegistry(Mapping[str, Game[Any]]):
    """The registered games by their stored kind; loaded on first use, :meth:`refresh` reads again."""

    def __init__(self) -> None:
        self._games: dict[str, Game[Any]] | None = None
        self._spellings: dict[str, str] = {}

    def load(self) -> None:
        """Load the games and their words now (at start), so the first request waits for nothing."""
        self._loaded()

    def refresh(self) -> None:
        """Forget what was loaded (after a test registered a game, say)."""
        self._games = None

    def named(self, name: str) -> Game[Any]:
        """The game a moderator asked for by its name or an alias; InvalidCommand listing them otherwise
        (``game_missing`` when no name was given, the default game first)."""
        games = self._loaded()
        if not name.strip():  # a bare /open: which game, not "unknown game „“"
            first = self.default.name
            raise InvalidCommand("game_missing", games=[first, *(kind for kind in games if kind != first)])
        kind = self._spellings.get(_key(name))
        if kind is None:
            raise InvalidCommand("unknown_game", name=name, games=sorted(games))
        return games[kind]

    @property
    def default(self) -> Game[Any]:
        """The game a channel that never had one hears about (its rules): the one that declares itself
        ``default``, else the first registered."""
        games = self._loaded()
        return next((game for game in games.values() if game.default), next(iter(games.values())))

    def __getitem__(self, kind: str) -> Game[Any]:
        return self._loaded()[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())

    def _loaded(self) -> dict[str, Game[Any]]:
        if self._games is None:
            self._games, self._spellings = _load()
            texts.load(scope_of(game) for game in self._games.values())  # their words, read now
        return self._games


def _key(name: str) -> str:
    return "".join(ch for ch in fold(name) if ch.isalnum())


def _load() -> tuple[dict[str, Game[Any]], dict[str, str]]:
    games: dict[str, Game[Any]] = {}
    spellings: dict[str, str] = {}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        game = point.load()
        if game.name in games:
            log.warning("game %r is registered twice; keeping the first (%s)", game.name, point.value)
            continue
        if game.default and any(known.default for known in games.values()):
            log.warning("game %r declares itself the default too; the first one stays it", game.name)
        games[game.name] = game
        for spelling in (game.name, *game.aliases):
            spellings.setdefault(_key(spelling), game.name)
    return games, spellings


GAMES = GameRegistry()


def language_of(channel: ChannelState) -> str:
    """The language the croupier speaks in a channel: its setting, else its open game's (or, between
    games, the last one's), else German."""
    if channel.settings.language:
        return channel.settings.language
    kind = channel.game.kind if channel.game is not None else channel.last_kind
    return GAMES[kind].language if kind is not None and kind in GAMES else DEFAULT_LANGUAGE


def numbered_with(game: Game[Any]) -> tuple[str, ...]:
    """The other games whose games a tournament numbers together with ``game``'s: those sharing its
    catalogue, i.e. rule sets of one game (Killer and its older rules: "partie 1", "partie 2" — two
    "partie 1" could not be told apart)."""
    return tuple(
        kind for kind, other in GAMES.items() if other.catalogue == game.catalogue and other is not game
    )


def scope_of(game: Game[Any]) -> Scope:
    """Where a game's sentences are looked up (see :func:`bot.texts.catalogue`)."""
    return (game.catalogue, game.name)
