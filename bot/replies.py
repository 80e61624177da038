"""What the croupier answers, built from engine facts: text for the console and replay, structured
parts (lines, running table, commitment) for Discord embeds. Every sentence comes from bot.texts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from bot import texts
from bot.games import GAMES, scope_of
from bot.store import GameRecord, Tournament
from engine.errors import CroupierError
from engine.game import Event, Game, Seat


@dataclass(frozen=True)
class Row:
    """One line of the running table as shown to people."""

    player: str
    name: str
    role: str  # role code
    role_label: str  # localised
    points: int
    to_act: bool


@dataclass(frozen=True)
class Reply:
    ok: bool
    text: str = ""
    lines: tuple[str, ...] = ()
    title: str = ""
    table: tuple[Row, ...] = ()
    game_id: int | None = None
    game_kind: str | None = None
    to_act: str | None = None
    commitment: str | None = None
    seed: str | None = None
    error_code: str | None = None
    silent: bool = False
    duplicate: bool = False
    events: tuple[dict[str, Any], ...] = field(default=())

    @classmethod
    def nothing(cls) -> Reply:
        """The answer to chit-chat: say nothing (the console shows a dim note)."""
        return cls(ok=True, silent=True)

    def to_log(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in _REPLY_FIELDS}
        data["lines"] = list(self.lines)
        data["table"] = [{name: getattr(row, name) for name in _ROW_FIELDS} for row in self.table]
        data["events"] = list(self.events)
        return data

    @classmethod
    def from_log(cls, data: Mapping[str, Any]) -> Reply:
        values = dict(data)
        values["lines"] = tuple(values.get("lines", ()))
        values["events"] = tuple(values.get("events", ()))
        values["table"] = tuple(Row(**row) for row in values.get("table", ()))
        values["duplicate"] = True
        return cls(**values)


# Every command logs its reply: plain loops over the field names, not dataclasses.asdict's deep copy.
_REPLY_FIELDS = tuple(field.name for field in fields(Reply))
_ROW_FIELDS = tuple(field.name for field in fields(Row))


class Replier:
    """Turns events, refusals and states into replies in one language."""

    def __init__(self, commands: Mapping[str, str] | None = None) -> None:
        self.commands = commands

    def render(
        self,
        key: str,
        facts: Mapping[str, Any],
        lang: str,
        name_of: Callable[[str], str] = str,
        game: Game[Any] | None = None,
    ) -> str:
        scope = scope_of(game) if game is not None else None
        return texts.render(key, facts, lang, name_of, self.commands, scope)

    def game_reply(
        self,
        game: Game[Any],
        record: GameRecord,
        state: Any,
        events: Sequence[Event],
        lang: str,
        revealed_seed: bytes | None = None,
        before: Any = None,
    ) -> Reply:
        seats = game.table(state)
        # Someone who left or was removed is still named in this reply's events.
        name_of = _namer([*game.table(before), *seats] if before is not None else seats)
        lines = [self.render(event.kind(), event.facts(), lang, name_of, game) for event in events]
        seed_hex = revealed_seed.hex() if revealed_seed is not None else None
        if seed_hex is not None:
            lines.append(self.render("common.seed_revealed", {"seed": seed_hex}, lang))
        return self._about_game(
            game, record, state, lines, lang, seed=seed_hex, events=tuple(e.to_json() for e in events)
        )

    def opened(
        self,
        game: Game[Any],
        record: GameRecord,
        tournament: Tournament,
        state: Any,
        lang: str,
        verifiable: bool = True,
    ) -> Reply:
        facts = {"number": record.number, "tournament": tournament.name, "commitment": record.commitment}
        lines = [self.render("game.opened", facts, lang, game=game)]
        if verifiable:
            lines.append(self.render("common.commitment", facts, lang))
        commitment = record.commitment if verifiable else None
        return self._about_game(game, record, state, lines, lang, commitment=commitment)

    def _about_game(
        self,
        game: Game[Any],
        record: GameRecord,
        state: Any,
        lines: Sequence[str],
        lang: str,
        **extra: Any,
    ) -> Reply:
        """A reply about a game: its lines, then the running table under the game's title."""
        title = self.render("game.round", {"number": record.number}, lang, game=game)
        rows = self.rows(game, game.table(state), lang)
        return Reply(
            ok=True,
            text=self._text(lines, title, rows, lang),
            lines=tuple(lines),
            title=title,
            table=rows,
            game_id=record.id,
            game_kind=game.name,
            to_act=game.to_act(state),
            **extra,
        )

    def simple(self, key: str, facts: Mapping[str, Any], lang: str) -> Reply:
        line = self.render(f"common.{key}", facts, lang)
        return Reply(ok=True, text=line, lines=(line,))

    def refusal(self, error: CroupierError, lang: str, record: GameRecord | None, state: Any | None) -> Reply:
        name_of = str
        game = GAMES.get(record.kind) if record is not None else None
        if game is not None and state is not None:
            name_of = _namer(game.table(state))
        line = self.render(f"error.{error.code}", dict(error.facts), lang, name_of, game)
        return Reply(
            ok=False,
            text=line,
            lines=(line,),
            error_code=error.code,
            game_id=record.id if record else None,
            game_kind=record.kind if record else None,
        )

    def rows(self, game: Game[Any], seats: Sequence[Seat], lang: str) -> tuple[Row, ...]:
        return tuple(
            Row(
                player=seat.player,
                name=seat.name,
                role=seat.role,
                role_label=self.render(f"role.{seat.role}", {}, lang, game=game),
                points=seat.points,
                to_act=seat.to_act,
            )
            for seat in seats
        )

    def _text(self, lines: Sequence[str], title: str, rows: Sequence[Row], lang: str) -> str:
        parts = list(lines)
        if rows:
            parts.append(f"— {title} —")
            for row in rows:
                marker = "▶ " if row.to_act else "  "
                parts.append(f"{marker}{row.name} ({row.role_label}): {row.points}")
        return "\n".join(parts)


def _namer(seats: Sequence[Seat]) -> Any:
    names = {seat.player: seat.name for seat in seats}
    return lambda player: names.get(player, player)
