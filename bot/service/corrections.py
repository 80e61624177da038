"""Moderator corrections with an audit trail: undo a move, adjust points, disqualify, reinstate.

Never a silent re-roll. ``/undo`` voids the last applied move of the channel's open game — its
command-log entry gets ``voided_by`` — and rebuilds the game by replaying its log: the opening's
options, then every move not voided, in order, each with the dice it logged. The voided move's dice
stay consumed (``games.dice_used`` does not go back), so the next roll is the next die of the
committed sequence and ``croupier verify`` still re-derives every die. Nothing but the log is kept to
undo with: no snapshot per move.

``/adjust``, ``/disqualify`` and ``/reinstate`` are rows of the tournament's ``corrections``; the
standings count them (:mod:`bot.service.standings`). Each correction is a moderator action like the others
(:mod:`bot.service.actions`): the service checks the right, applies it once per message id in one
transaction and logs it; its reply is a public note.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, ClassVar

from bot import markup
from bot.games import GAMES, language_of
from bot.replies import Reply
from bot.service.actions import Context, Done
from bot.service.forum import live_of
from bot.service.moves import Refusal
from bot.service.rendering import Narrator, Table, namer
from bot.shown_names import distinguished
from bot.store import (
    Correction,
    GameRecord,
    LogEntry,
    NewCorrection,
    Tournament,
    UnitOfWork,
)
from bot.texts import signed
from engine.commands import closest, fold
from engine.dice import ScriptedDice
from engine.errors import CroupierError, IllegalCommand, InvalidCommand
from engine.game import Command, Game

log = logging.getLogger(__name__)

MAX_ADJUSTMENT = 10_000  # points either way in one correction
MAX_REASON = 500  # characters kept of a reason
# A game's log entries that are not moves of it: its opening, and the undos that took moves back.
NOT_MOVES = frozenset({"Open", "Undo"})
_MENTION = re.compile(r"^<@!?(\w+)>$")


# --- the game's log, replayed -------------------------------------------------------------------------


class ReplayMismatch(Exception):
    """The log does not replay (an unknown command, a refusal, dice left over or missing)."""


def is_move(entry: LogEntry) -> bool:
    """Whether a game's log entry is a move (a player's or a lifecycle command), not its opening or
    an undo."""
    return entry.command is not None and entry.command.get("type") not in NOT_MOVES


def moves_of(entries: Iterable[LogEntry]) -> list[LogEntry]:
    """The moves that stand: a game's moves in log order, voided ones left out."""
    return [entry for entry in entries if is_move(entry) and not entry.voided]


def command_classes(game: Game[Any]) -> dict[str, type[Command]]:
    """The commands a game's log can name, by class name: the shared lifecycle commands
    (``engine.game``) and those defined in the game's own package."""
    package = game.catalogue
    found: dict[str, set[type[Command]]] = {}
    pending: list[type[Command]] = [Command]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            module = sub.__module__
            if module == "engine.game" or module == package or module.startswith(package + "."):
                found.setdefault(sub.__name__, set()).add(sub)
    return {name: next(iter(classes)) for name, classes in found.items() if len(classes) == 1}


def command_of(game: Game[Any], logged: Mapping[str, Any]) -> Command:
    """The command a log entry recorded (``{"type": "Rob", "target": "anna"}``), rebuilt."""
    cls = command_classes(game).get(str(logged.get("type")))
    if cls is None:
        raise ReplayMismatch(f"{game.name} has no command {logged.get('type')!r}")
    values = {}
    for spec in dataclasses.fields(cls):
        if spec.name in logged:
            value = logged[spec.name]
            values[spec.name] = tuple(value) if isinstance(value, list) else value
    try:
        return cls(**values)
    except TypeError as error:
        raise ReplayMismatch(f"cannot rebuild {logged!r}: {error}") from error


def replay_move(game: Game[Any], state: Any, entry: LogEntry) -> Any:
    """One logged move applied again, with exactly the dice it logged."""
    assert entry.command is not None
    dice = ScriptedDice(entry.dice)
    try:
        new_state, _ = game.apply(state, entry.actor, command_of(game, entry.command), dice)
    except CroupierError as error:
        raise ReplayMismatch(f"log entry {entry.id} is refused on replay: {error!r}") from error
    if dice.left:
        raise ReplayMismatch(f"log entry {entry.id} used {dice.position} of its {len(entry.dice)} dice")
    return new_state


def replay(game: Game[Any], options: Mapping[str, Any], moves: Sequence[LogEntry]) -> Any:
    """The state a game's log gives: its open options, then ``moves`` in order with their dice."""
    try:
        state = game.open(options)
    except CroupierError as error:
        raise ReplayMismatch(f"the options {dict(options)!r} are refused: {error!r}") from error
    for entry in moves:
        state = replay_move(game, state, entry)
    return state


def same_snapshot(game: Game[Any], state: Any, stored: Mapping[str, Any]) -> bool:
    """Whether ``state`` is what was stored (compared as the JSON the store keeps)."""
    return bool(_as_json(game.dump(state)) == _as_json(stored))


def _as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


# --- names --------------------------------------------------------------------------------------------


def resolve_player(players: Mapping[str, str], text: str) -> str | CroupierError:
    """The participant id ``text`` names among ``players`` (id → display name): an id or a mention
    exactly, else a display name or id folded like the engines fold them. Never guessed: an unknown
    or ambiguous name is refused with suggestions."""
    raw = text.strip()
    mention = _MENTION.match(raw)
    wanted = mention.group(1) if mention else raw.lstrip("@").strip()
    if wanted in players:
        return wanted
    key = fold(wanted)
    if key and not mention:
        by_id = [player for player in players if fold(player) == key]
        if len(by_id) == 1:
            return by_id[0]
        by_name = [player for player, name in players.items() if fold(name) == key]
        if len(by_name) == 1:
            return by_name[0]
        if len(by_name) > 1:
            shown = [f"{players[player]} ({player})" for player in by_name]
            return InvalidCommand("correction_ambiguous_player", name=raw, players=shown)
    suggestions = closest(wanted, players.values()) if key else []
    if suggestions:
        return InvalidCommand("correction_unknown_player_similar", name=raw, suggestions=suggestions)
    return InvalidCommand("correction_unknown_player", name=raw)


def _reason(reason: str) -> str:
    return " ".join(reason.split())[:MAX_REASON]


def _check_reason(reason: str) -> Refusal | None:
    return None if _reason(reason) else Refusal(InvalidCommand("correction_reason_missing"))


def _tournament(uow: UnitOfWork, ctx: Context) -> Tournament | Refusal:
    tournament = uow.tournaments.current(ctx.channel.settings.channel)
    if tournament is None:
        return Refusal(IllegalCommand("correction_no_tournament"))
    return tournament


def _player(uow: UnitOfWork, tournament: Tournament, text: str) -> tuple[str, str, str] | Refusal:
    """The player ``text`` names: id, stored name (what the correction keeps) and the name shown (a
    look-alike of another player's told apart)."""
    players = uow.corrections.players_in(tournament.id)
    found = resolve_player(players, text)
    if isinstance(found, CroupierError):
        return Refusal(found)
    return found, players[found], distinguished(players)[found]


def _new(ctx: Context, tournament_id: int, kind: str, reason: str, **fields: Any) -> NewCorrection:
    return NewCorrection(
        tournament_id=tournament_id,
        kind=kind,
        reason=_reason(reason),
        moderator=ctx.actor,
        moderator_name=ctx.actor_name or ctx.actor,
        message_id=ctx.message_id,
        now=ctx.now,
        **fields,
    )


# --- the actions --------------------------------------------------------------------------------------


def _nothing_open(uow: UnitOfWork, ctx: Context) -> IllegalCommand:
    """Why there is no move to undo: the game played here last — in this thread, or anywhere in the
    tournament when asked in its home — is closed (its results are corrected with /adjust), or there
    was none."""
    home = ctx.channel.settings.channel
    tournament = uow.tournaments.current(home)
    closed = uow.games.closed_in(tournament.id) if tournament is not None else ()
    here = [game for game in closed if ctx.where in (game.channel, home) and game.kind in GAMES]
    if not here:
        return IllegalCommand("undo_no_open_game")
    last = max(here, key=lambda game: game.id)
    title = ctx.narrator.line("game.round", {"number": last.number}, ctx.lang, game=GAMES[last.kind])
    return IllegalCommand("undo_game_closed", title=title)


@dataclass(frozen=True)
class Undo:
    """Void the last move of the channel's open game and rebuild the game from its log."""

    reason: str

    def check(self) -> Refusal | None:
        return _check_reason(self.reason)

    def apply(self, uow: UnitOfWork, ctx: Context) -> Done | Refusal:
        record = ctx.channel.game
        if record is None or record.kind not in GAMES:
            return Refusal(_nothing_open(uow, ctx))
        game = GAMES[record.kind]
        moves = moves_of(uow.log.of_game(record.id))
        if not moves:
            return Refusal(IllegalCommand("undo_nothing"))
        last = moves[-1]
        try:
            state = replay(game, record.options, moves[:-1])
            if not same_snapshot(game, replay_move(game, state, last), record.snapshot):
                raise ReplayMismatch(f"game {record.id}: its log does not replay to its stored state")
        except ReplayMismatch as mismatch:
            log.warning("undo refused: %s", mismatch)
            return Refusal(IllegalCommand("undo_unavailable"))
        current = game.load(record.snapshot)
        name_of = namer(game.table(state), game.table(current))
        correction = uow.corrections.add(
            _new(
                ctx,
                record.tournament_id,
                "undo",
                self.reason,
                player=last.actor,
                player_name=namer(game.table(state), game.table(current), shown=False)(last.actor),
                game_id=record.id,
                voided_entry=last.id,
            )
        )
        uow.corrections.void(last.id, correction.id)
        to_act = game.to_act(state)
        timeout = ctx.channel.settings.turn_timeout_seconds
        deadline = ctx.now + timedelta(seconds=timeout) if timeout and to_act else None
        uow.games.save(
            record.id,
            record.version,
            game.dump(state),
            record.dice_used,  # the voided move's dice stay used: the next roll is a new die
            to_act,
            deadline,
            game.table(state),
        )
        facts = {
            "player": last.actor,
            "move": last.text,
            "reason": correction.reason,
            "moderator": correction.moderator_name,
            "dice": list(last.dice),
        }
        key = "common.undone_dice" if last.dice else "common.undone"
        lines = [ctx.narrator.line(key, facts, ctx.lang, name_of=name_of)]
        # Like every move's answer, it ends with whose turn it is and what they may type now.
        for event in game.prompt(state):
            lines.append(ctx.narrator.line(event.kind(), event.facts(), ctx.lang, game=game, name_of=name_of))
        table = Table(game, record.id, record.number, record.version + 1, state)
        reply = replace(ctx.narrator.about(table, lines, ctx.lang, name_of=name_of), deadline=deadline)
        logged = {"type": "Undo", "reason": correction.reason, "voided": last.message_id}
        live = live_of(record, game, state, ctx.verifiable)  # what the save did not change, and the state
        return Done(reply, logged, record.id, dice_from=record.dice_used, live=live)


@dataclass(frozen=True)
class Adjust:
    """A points correction (a penalty or a bonus) for a player of the current tournament."""

    player: str
    points: int
    reason: str

    def check(self) -> Refusal | None:
        if not self.player.strip():
            return Refusal(InvalidCommand("correction_player_missing"))
        if self.points == 0 or abs(self.points) > MAX_ADJUSTMENT:
            return Refusal(InvalidCommand("adjust_bad_points", points=self.points, max=MAX_ADJUSTMENT))
        return _check_reason(self.reason)

    def apply(self, uow: UnitOfWork, ctx: Context) -> Done | Refusal:
        tournament = _tournament(uow, ctx)
        if isinstance(tournament, Refusal):
            return tournament
        found = _player(uow, tournament, self.player)
        if isinstance(found, Refusal):
            return found
        player, name, shown = found
        correction = uow.corrections.add(
            _new(
                ctx, tournament.id, "adjust", self.reason, player=player, player_name=name, points=self.points
            )
        )
        facts = {
            "name": shown,
            "points": signed(self.points),
            "reason": correction.reason,
            "moderator": correction.moderator_name,
            "tournament": tournament.name,
        }
        reply = ctx.narrator.simple("common.adjusted", facts, ctx.lang)
        logged = {"type": "Adjust", "player": player, "points": self.points, "reason": correction.reason}
        return Done(reply, logged)


@dataclass(frozen=True)
class _Standing:
    """A change of a player's standing in the tournament (``kind`` names it in the corrections)."""

    kind: ClassVar[str]
    player: str
    reason: str

    def check(self) -> Refusal | None:
        if not self.player.strip():
            return Refusal(InvalidCommand("correction_player_missing"))
        return _check_reason(self.reason)

    def apply(self, uow: UnitOfWork, ctx: Context) -> Done | Refusal:
        return _standing(uow, ctx, self.kind, self.player, self.reason)


@dataclass(frozen=True)
class Disqualify(_Standing):
    """Take a player out of the tournament's standings and its further games."""

    kind: ClassVar[str] = "disqualify"


@dataclass(frozen=True)
class Reinstate(_Standing):
    """Lift a player's disqualification."""

    kind: ClassVar[str] = "reinstate"


def _standing(uow: UnitOfWork, ctx: Context, kind: str, text: str, reason: str) -> Done | Refusal:
    tournament = _tournament(uow, ctx)
    if isinstance(tournament, Refusal):
        return tournament
    found = _player(uow, tournament, text)
    if isinstance(found, Refusal):
        return found
    player, name, shown = found
    barred = uow.corrections.disqualified(tournament.id).get(player)
    if kind == "disqualify" and barred is not None:
        return Refusal(IllegalCommand("already_disqualified", name=shown, reason=barred.reason))
    if kind == "reinstate" and barred is None:
        return Refusal(IllegalCommand("not_disqualified", name=shown))
    correction = uow.corrections.add(_new(ctx, tournament.id, kind, reason, player=player, player_name=name))
    facts = {
        "name": shown,
        "reason": correction.reason,
        "moderator": correction.moderator_name,
        "tournament": tournament.name,
    }
    key = "common.disqualified" if kind == "disqualify" else "common.reinstated"
    reply = ctx.narrator.simple(key, facts, ctx.lang)
    logged = {"type": kind.capitalize(), "player": player, "reason": correction.reason}
    return Done(reply, logged)


# --- what corrections mean elsewhere ------------------------------------------------------------------


def join_refusal(uow: UnitOfWork, record: GameRecord, actor: str) -> CroupierError | None:
    """Why ``actor`` may not join the game: a disqualification from its tournament (None: they may)."""
    barred = uow.corrections.disqualified(record.tournament_id).get(actor)
    if barred is None:
        return None
    return IllegalCommand("disqualified_cannot_join", name=barred.player_name or actor, reason=barred.reason)


def when(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%d %H:%M UTC")


def correction_line(narrator: Narrator, correction: Correction, lang: str, game: str = "–") -> str:
    """One correction as ``/corrections`` lists it: when, who, what, why; ``game`` is the title of an
    undo's game as its own catalogue names it ("Killer · Partie 1", "Die verflixte 6! · Durchgang 2")."""
    facts = {
        "game": game,
        "when": when(correction.created_at),
        "moderator": correction.moderator_name,
        "name": correction.player_name or correction.player or "–",
        "points": signed(correction.points),
        "reason": correction.reason,
        "number": correction.game_number if correction.game_number is not None else "–",
        "move": correction.voided_text or "–",
    }
    return narrator.line(f"common.correction.{correction.kind}", facts, lang)


def named_as_shown(corrections: Sequence[Correction], players: Mapping[str, str]) -> tuple[Correction, ...]:
    """The corrections with each player's name as readers see it beside the tournament's other
    ``players`` (id → stored name): look-alikes told apart (:func:`bot.shown_names.distinguished`)."""
    names = dict(players)
    for c in corrections:
        if c.player and c.player_name:
            names.setdefault(c.player, c.player_name)
    shown = distinguished(names)
    return tuple(replace(c, player_name=shown[c.player]) if c.player in shown else c for c in corrections)


def corrections_reply(uow: UnitOfWork, narrator: Narrator, guild: str, channel: str, home: str) -> Reply:
    """Every correction of the channel's current tournament, oldest first."""
    lang = language_of(uow.channels.state(guild, channel, home))
    tournament = uow.tournaments.current(home)
    if tournament is None:
        return narrator.simple("common.no_tournament", {}, lang)
    corrections = uow.corrections.of_tournament(tournament.id)
    if not corrections:
        return narrator.simple("common.corrections_none", {"name": tournament.name}, lang)
    lines = [narrator.line("common.corrections_title", {"name": tournament.name}, lang)]
    shown = named_as_shown(corrections, uow.corrections.players_in(tournament.id))
    lines += [correction_line(narrator, c, lang, _title(uow, narrator, c, lang)) for c in shown]
    return Reply(ok=True, lines=tuple(lines), title=markup.typed(tournament.name), language=lang)


def _title(uow: UnitOfWork, narrator: Narrator, correction: Correction, lang: str) -> str:
    record = uow.games.get(correction.game_id) if correction.game_id is not None else None
    if record is None or record.kind not in GAMES:
        return "–"
    return narrator.line("game.round", {"number": record.number}, lang, game=GAMES[record.kind])


# --- the audit of one game (``croupier audit``) -------------------------------------------------------


@dataclass(frozen=True)
class Audit:
    """A game's log in order, with the undos that voided some of its entries."""

    game: GameRecord
    entries: tuple[LogEntry, ...]
    undos: Mapping[int, Correction]  # by correction id


def audit_in(uow: UnitOfWork, game_id: int) -> Audit | None:
    record = uow.games.get(game_id)
    if record is None:
        return None
    undos = {correction.id: correction for correction in uow.corrections.of_game(game_id)}
    return Audit(record, uow.log.of_game(game_id), undos)


def audit_lines(audit: Audit, narrator: Narrator, lang: str = "en") -> list[str]:
    """The audit as text: a heading, then each entry — message id, actor, text, dice — and under a
    voided one the undo that voided it (its moderator, time and reason)."""
    game = audit.game
    facts = {
        "id": game.id,
        "kind": game.kind,
        "number": game.number,
        "status": game.status,
        "count": len(audit.entries),
    }
    lines = [narrator.line("common.audit_header", facts, lang)]
    for index, entry in enumerate(audit.entries, start=1):
        dice = " ".join(str(face) for face in entry.dice) or "–"
        shown = {
            "index": index,
            "message_id": entry.message_id,
            "actor": entry.actor,
            "text": entry.text,
            "dice": dice,
            "when": when(entry.created_at),
        }
        lines.append(narrator.line("common.audit_entry", shown, lang))
        undo = audit.undos.get(entry.voided_by) if entry.voided_by is not None else None
        if entry.voided:
            voided = {
                "moderator": undo.moderator_name if undo else "?",
                "reason": undo.reason if undo else "?",
                "when": when(undo.created_at) if undo else "?",
            }
            lines.append(narrator.line("common.audit_voided", voided, lang))
    return lines
