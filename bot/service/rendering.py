"""Engine facts → the parts of a :class:`Reply`, in one language, from the catalogues only.

A :class:`Narrator` renders, for no medium in particular: the story from events, the running table, the
board of the player to act (labels from the game's ``choice.<action>`` templates), the cards of a
game's highlights, and refusals. Sentences (lines, titles, cards, results) are in the neutral form of
:mod:`bot.markup` — names, typed text and commands as spans each front end spells; what a front end
shows as typed (button labels, the table's cells, thread names) is plain text. Names come from the
seats (by participant id), never from the text of a message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot import markup, texts
from bot.games import scope_of
from bot.replies import Board, Button, Card, Reply, Row
from bot.shown_names import distinguished
from bot.texts import Scope
from engine.errors import CroupierError, InvalidOptions
from engine.game import Event, Game, Highlight, Seat

NameOf = Callable[[str], str]


@dataclass(frozen=True)
class Table:
    """A game as a reply shows it: the game, its stored identity, and a state of it."""

    game: Game[Any]
    game_id: int
    number: int
    version: int
    state: Any


def namer(*seatings: Sequence[Seat], shown: bool = True) -> NameOf:
    """Display names by participant id; later seatings win (someone who left keeps their name).
    ``shown``: as readers see them — invisible characters dropped, look-alikes told apart
    (:func:`bot.shown_names.distinguished`); else as stored, for what is kept."""
    names = {seat.player: seat.name for seats in seatings for seat in seats}
    if shown:
        names = distinguished(names)
    return lambda player: names.get(player, player)


class Narrator:
    """``boards``: whether replies about a game carry the board of the player to act; a front end
    that draws none (the console) spares rendering it — the log never keeps a board."""

    def __init__(self, *, boards: bool = True) -> None:
        self.boards = boards
        self._shown: tuple[Game[Any], Any, Sequence[Seat]] | None = None  # the last move's table

    def _table(self, game: Game[Any], state: Any) -> Sequence[Seat]:
        """``game.table(state)``, without working it out again for the state the last move left —
        the next move's ``before``, nearly always (a state never changes: the engine is pure)."""
        shown = self._shown
        if shown is not None and shown[0] is game and shown[1] is state:
            return shown[2]
        return game.table(state)

    def line(
        self,
        key: str,
        facts: Mapping[str, Any],
        lang: str,
        *,
        game: Game[Any] | None = None,
        name_of: NameOf = str,
        literal: bool = False,
    ) -> str:
        """A sentence in the neutral form. ``literal``: plain text, for what front ends show as typed
        (button labels, placeholders, table cells, thread names)."""
        scope = scope_of(game) if game is not None else None
        memo = _memo_key(key, facts, lang, scope, name_of, literal)
        if memo is None:
            return self._line(key, facts, lang, scope, name_of, literal)
        said = _SAID.get(memo)
        if said is None:
            said = self._line(key, facts, lang, scope, name_of, literal)
            if len(_SAID) >= _SAID_MAX:
                _SAID.clear()
            _SAID[memo] = said
        return said

    def _line(
        self,
        key: str,
        facts: Mapping[str, Any],
        lang: str,
        scope: Scope | None,
        name_of: NameOf,
        literal: bool,
    ) -> str:
        if literal:
            return texts.render(key, facts, lang, name_of, None, scope)
        safe = {k: _shown(k, v) for k, v in facts.items()}
        player = facts.get("player")
        if isinstance(player, str) and isinstance(facts.get("name"), str) and name_of(player) != player:
            # A sign-up names its player by the name they join with: shown as their seat shows it.
            safe["name"] = markup.name(player, name_of(player))
        said = texts.render(
            key, safe, lang, lambda p: markup.name(p, name_of(p)), markup.COMMANDS, scope, neutral=True
        )
        return markup.Neutral(said)

    # --- replies about a game ------------------------------------------------------------------------

    def move(
        self,
        table: Table,
        before: Any,
        events: Sequence[Event],
        lang: str,
        *,
        actor: str | None,
        seed: bytes | None = None,
        deadline: datetime | None = None,
        seats: Sequence[Seat] | None = None,
        seats_before: Sequence[Seat] | None = None,
    ) -> Reply:
        """What happened (``events`` turned ``before`` into ``table.state``) and where it left the game;
        ``deadline``: when the player to act then runs out of time; ``seats`` and ``seats_before``: the
        tables of ``table.state`` and ``before``, when the caller has them already."""
        game = table.game
        seats = game.table(table.state) if seats is None else seats
        name_of = namer(self._table(game, before) if seats_before is None else seats_before, seats)
        self._shown = (game, table.state, seats)
        lines = [self.line(event.kind(), event.facts(), lang, game=game, name_of=name_of) for event in events]
        seed_hex = seed.hex() if seed is not None else None
        if seed_hex is not None:
            lines.append(self.line("common.seed_revealed", {"seed": seed_hex}, lang))
        cards = tuple(
            self.card(highlight, lang, game, name_of)
            for highlight in game.highlights(before, table.state, events)
        )
        to_act = game.to_act(table.state)
        waiting = game.to_act(before)
        wake = to_act if to_act not in (None, actor, waiting) else None
        return self.about(
            table,
            lines,
            lang,
            name_of=name_of,
            seats=seats,
            seed=seed_hex,
            cards=cards,
            wake=wake,
            deadline=deadline,
        )

    def answer(self, table: Table, events: Sequence[Event], lang: str) -> Reply:
        """The answer to a question about a game (Killer's odds): for the asker alone, no table, no
        board — nothing about the game changed."""
        game = table.game
        name_of = namer(game.table(table.state))
        lines = tuple(
            self.line(event.kind(), event.facts(), lang, game=game, name_of=name_of) for event in events
        )
        return Reply(
            ok=True,
            lines=lines,
            title=self.line("game.round", {"number": table.number}, lang, game=game),
            language=lang,
            game_id=table.game_id,
            game_kind=game.name,
            version=table.version,
            private=True,
        )

    def opened(self, table: Table, tournament: str, commitment: str | None, lang: str) -> Reply:
        facts = {"number": table.number, "tournament": tournament, "commitment": commitment}
        lines = [self.line("game.opened", facts, lang, game=table.game)]
        if commitment is not None:
            lines.append(self.line("common.commitment", facts, lang))
        return self.about(table, lines, lang, commitment=commitment)

    def about(
        self,
        table: Table,
        lines: Sequence[str],
        lang: str,
        *,
        name_of: NameOf | None = None,
        seats: Sequence[Seat] | None = None,
        **extra: Any,
    ) -> Reply:
        """A reply about a game: its lines, then the running table and board under the game's title.
        ``seats``: the table of ``table.state``, when the caller has it already."""
        game = table.game
        seats = game.table(table.state) if seats is None else seats
        name_of = name_of or namer(seats)
        return Reply(
            ok=True,
            lines=tuple(lines),
            title=self.line("game.round", {"number": table.number}, lang, game=game),
            table=self.rows(game, seats, lang),
            board=self.board(table, lang, name_of) if self.boards else None,
            language=lang,
            game_id=table.game_id,
            game_kind=game.name,
            version=table.version,
            to_act=game.to_act(table.state),
            **extra,
        )

    def rows(self, game: Game[Any], seats: Sequence[Seat], lang: str) -> tuple[Row, ...]:
        names = distinguished({seat.player: seat.name for seat in seats})
        scope = scope_of(game)
        return tuple(self._row(game, seat, names[seat.player], lang, scope) for seat in seats)

    def _row(self, game: Game[Any], seat: Seat, name: str, lang: str, scope: Scope) -> Row:
        """One seat as its row shows it; remembered (see :data:`_ROWS`) when the seat holds only plain
        facts, so that an equal seat is the same seat."""
        memo = (seat, name, lang, scope) if _plain_seat(seat) else None
        if memo is not None and (row := _ROWS.get(memo)) is not None:
            return row
        row = Row(
            player=seat.player,
            name=name,
            role=seat.role,
            role_label=texts.constant(f"role.{seat.role}", lang, scope),  # as line(…, literal=True)
            points=seat.points,
            to_act=seat.to_act,
            details=self.details(game, seat, lang),
        )
        if memo is not None:
            if len(_ROWS) >= _SAID_MAX:
                _ROWS.clear()
            _ROWS[memo] = row
        return row

    def details(self, game: Game[Any], seat: Seat, lang: str) -> str:
        """A seat's details, each from the game's ``seat.details.<key>`` over ``{key: value}``."""
        return " · ".join(
            self.line(f"seat.details.{key}", {key: value}, lang, game=game, literal=True)
            for key, value in seat.details
        )

    def board(self, table: Table, lang: str, name_of: NameOf) -> Board | None:
        """The choices of the player to act, labelled from the game's catalogue."""
        game = table.game
        player = game.to_act(table.state)
        choices = game.choices(table.state) if player is not None and not game.finished(table.state) else ()
        if player is None or not choices:
            return None
        buttons = tuple(
            Button(
                index=index,
                label=self.line(
                    f"choice.{choice.action}", choice.facts, lang, game=game, name_of=name_of, literal=True
                ),
                action=choice.action,
                group=choice.group,
                multi=choice.multi,
                limit=choice.limit,
                tone=choice.tone,
            )
            for index, choice in enumerate(choices)
        )
        groups = dict.fromkeys(button.group for button in buttons if button.group)
        placeholders = tuple((group, self._placeholder(game, group, lang)) for group in groups)
        return Board(table.game_id, table.version, player, buttons, placeholders)

    def _placeholder(self, game: Game[Any], group: str, lang: str) -> str:
        """What a group's select menu says while nothing is picked: the game's own ``select.<group>``,
        else the neutral ``discord.select.other`` ("Choose …")."""
        own = f"select.{group}"
        if own in texts.game_catalogue(scope_of(game), lang):
            return self.line(own, {}, lang, game=game, literal=True)
        return self.line("discord.select.other", {}, lang, literal=True)

    def card(self, highlight: Highlight, lang: str, game: Game[Any], name_of: NameOf) -> Card:
        title = self.line(highlight.key, highlight.facts, lang, game=game, name_of=name_of)
        entries = tuple(
            (name, self.line(key, {}, lang, game=game, name_of=name_of)) for name, key in highlight.items
        )
        return Card(title, entries)

    # --- refusals and plain answers ------------------------------------------------------------------

    def refusal(
        self,
        error: CroupierError,
        lang: str,
        *,
        game: Game[Any] | None = None,
        state: Any = None,
        game_id: int | None = None,
        private: bool = False,
    ) -> Reply:
        """A refusal in ``lang``: one line, or one per refusal of several bad options at once."""
        name_of = namer(game.table(state)) if game is not None and state is not None else str
        each = error.errors if isinstance(error, InvalidOptions) else (error,)
        lines = tuple(
            self.line(f"error.{one.code}", dict(one.facts), lang, game=game, name_of=name_of) for one in each
        )
        return Reply(
            ok=False,
            lines=lines,
            language=lang,
            error_code=error.code,
            game_id=game_id,
            game_kind=game.name if game is not None else None,
            private=private,
        )

    def simple(self, key: str, facts: Mapping[str, Any], lang: str, **extra: Any) -> Reply:
        return Reply(ok=True, lines=(self.line(key, facts, lang),), language=lang, **extra)


# Sentences said before, by :func:`_memo_key`: a game's title, its prompts ("anna, wie geht's weiter?"),
# a seat's jokers come back move after move. Bounded; emptied when the catalogues are read again.
_SAID: dict[tuple[Any, ...], str] = {}
_SAID_MAX = 4096
# The rows of the running table by seat, shown name, language and game: from one move to the next
# most seats do not change. A row depends on nothing else (its labels come from the catalogues).
_ROWS: dict[tuple[Seat, str, str, Scope], Row] = {}
texts.LANGUAGES.on_refresh(_SAID.clear)
texts.LANGUAGES.on_refresh(_ROWS.clear)


def _plain_seat(seat: Seat) -> bool:
    """Whether a seat holds only facts whose equal values are written alike: text, whole numbers
    (not ``True`` for 1), None, and tuples of these — so two equal seats show the same row."""
    if type(seat.points) is not int or type(seat.to_act) is not bool:
        return False
    for _, value in seat.details:
        kind = type(value)
        if kind is tuple:
            if not all(type(item) in _PLAIN for item in value):
                return False
        elif kind not in _PLAIN:
            return False
    return True


_PLAIN = frozenset({str, int, type(None)})


def _memo_key(
    key: str, facts: Mapping[str, Any], lang: str, scope: Scope | None, name_of: NameOf, literal: bool
) -> tuple[Any, ...] | None:
    """Everything a sentence depends on, when that is few enough to compare: each fact's name, exact
    type and value — text, whole numbers, None, lists of these — and, for a participant id, the name
    ``name_of`` shows it by (the only thing a sentence takes from ``name_of``). None for a sentence
    with any other fact (a marked title, a bool, a float …): it is rendered each time."""
    said: list[Any] = [key, lang, scope, literal]
    for name, value in facts.items():
        kind = type(value)
        if kind is str:
            said.append((name, value, name_of(value) if name in texts.PLAYER_FIELDS else None))
        elif kind is int or value is None:
            said.append((name, kind, value))
        elif kind is tuple or kind is list:
            if name in texts.PLAYER_LIST_FIELDS:  # ids: each shown by its name
                if not all(type(item) is str for item in value):
                    return None
                said.append((name, kind, tuple(value), tuple(map(name_of, value))))
            elif all(type(item) in _PLAIN for item in value):  # words, numbers ("5/5" uses left)
                said.append((name, kind, tuple(value), None))
            else:
                return None
        else:
            return None
    return tuple(said)


def _shown(key: str, value: Any) -> Any:
    """A fact as a sentence holds it: text marked as outside text (a front end spells it literally);
    participant ids are left to ``name_of`` (which marks the names), numbers stay numbers, and text
    marked already (a listing, a title rendered before) stays as it is."""
    if (
        key in texts.PLAYER_FIELDS
        or key in texts.PLAYER_LIST_FIELDS
        or isinstance(value, (markup.Marked, markup.Neutral))
    ):
        return value
    if isinstance(value, str):
        return markup.outside(value)
    if isinstance(value, (list, tuple)):
        return [_shown(key, v) if isinstance(v, str) else v for v in value]
    return value
