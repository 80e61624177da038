"""Moves: a typed line, a command a front end built, a press on a board — each one unit of work.

Load the channel (its settings and open game, one read — none when this process wrote it last, see
:mod:`bot.service.warm_channels`), judge what the request asks (:mod:`bot.service.moves`, no I/O),
perform it, render the :class:`Reply` and write everything the move changed — snapshot,
participants, log entry — in one commit. A line that no game reads as a command never reaches the
store; one that the channel's game does not read takes no write lock (see
:class:`bot.service.open_kinds.OpenKinds`). A line runs a second unit of work only when this process
guessed wrong which game is open in the channel (a reading one found a command), when the command
needs slow preparation first (done outside any transaction), or when a sign-up in a home joins the
game of its thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from bot.games import GAMES, language_of
from bot.replies import Live, Reply
from bot.service import forum
from bot.service.channels import delivery_of, key_of, moderates
from bot.service.corrections import join_refusal
from bot.service.moves import (
    LINE_MAX,
    Applied,
    Chat,
    Found,
    Given,
    Judged,
    Outcome,
    Pressed,
    Query,
    Refusal,
    Request,
    Typed,
    answer,
    fields_of,
    judge,
    perform,
    readings,
    reconsider,
)
from bot.service.rendering import Table
from bot.service.requests import NOTHING_OPEN, Handlers, Incoming, Line, Move, Pick, Press
from bot.service.suggestions import picked_line_in
from bot.store import ChannelState, GameRecord, GameSave, NewLogEntry, ThreadGame, UnitOfWork
from engine.errors import IllegalCommand, InvalidCommand
from engine.game import Command, Game, Join, Seat
from engine.records import evolve

if TYPE_CHECKING:
    from bot.service.croupier import Croupier

NOTHING_OPEN_EVERY = timedelta(minutes=5)  # "no game is open" said to a player at most this often


async def line(svc: Croupier, request: Line) -> Reply:
    """A chat line: a command of the channel's open game, or chit-chat (answered with ``silent``) —
    or words sent as a command (``required``), refused rather than silent when they hold none.

    The games read at most :data:`~bot.service.moves.LINE_MAX` characters of a line (a Discord
    message's length): a longer line that holds a command is refused (``error.line_too_long``), a
    longer chit-chat line stays chit-chat.
    """
    msg = request.msg
    if request.required:
        return await _move(svc, msg, Typed.of(msg.text, required=True))
    text = msg.text
    length = len(text) if len(text) > LINE_MAX else 0
    if length:
        text = text[:LINE_MAX]
    read = readings(text, first=svc.open_kinds.get(msg.channel))
    for reading in read.values():
        if reading is not None:  # the line holds a command: one Typed, as Typed.of would cut it
            return await _move(svc, msg, Typed(text, False, read, length))
    if length or not any(game.near_miss(msg.text) for game in GAMES.values()):
        return Reply.nothing()  # chit-chat never reaches the store
    return await svc.store.run(lambda uow: _near_miss_in(svc, uow, msg), read_only=True)


async def move(svc: Croupier, request: Move) -> Reply:
    """Apply a command a front end built (a slash command, the console's /join …) exactly once."""
    return await _move(svc, request.msg, Given(request.command))


async def press(svc: Croupier, request: Press) -> Reply:
    """A press on a board: checked against the game and version it was drawn for and the player to
    act, then applied as the picked choices' words."""
    return await _move(svc, request.msg, Pressed(request.game_id, request.version, request.picked))


async def pick(svc: Croupier, request: Pick) -> Reply:
    """A list picked from what the open game offers for ``what`` (Discord's ``/joker wählen``), sent
    as the line the game says it in (:func:`bot.service.suggestions.picked_line_in`)."""
    msg, what, picked = request.msg, request.what, request.picked
    where = (msg.guild, msg.channel, msg.home)
    said = await svc.store.run(lambda uow: picked_line_in(uow, *where, what, picked), read_only=True)
    return await line(svc, Line(replace(msg, text=said), required=True))


HANDLERS: Handlers = {Line: line, Move: move, Press: press, Pick: pick}


async def _move(svc: Croupier, msg: Incoming, request: Request) -> Reply:
    """One request, one unit of work: a writing one when the request is likely to change the game
    (:func:`_writes`), else a reading one — run again for writing only if it finds a command. A
    command that needs slow preparation (``Game.prepare``) has it done first, off the event loop
    and outside any transaction, and is then judged again in a writing unit of work. A writing one
    also writes the waiting acknowledgements of delivered answers (``Croupier.riding``)."""
    writing, prepared = _writes(svc, msg, request), False
    while True:
        work = partial(_move_in, svc, msg=msg, request=request, writing=writing, prepared=prepared)
        done = await svc.store.run(svc.riding(work) if writing else work, read_only=not writing)
        if isinstance(done, _Prepare):
            await asyncio.to_thread(done.work)
            writing = prepared = True
        elif isinstance(done, _Writes):
            writing = True
        elif isinstance(done, forum.Elsewhere):  # a sign-up in a home, for the game of its thread
            there = replace(msg, channel=done.channel, parent=msg.home, place=done.place)
            reply = await svc.framed(there, partial(_move, svc, there, request))
            return replace(reply, elsewhere=done.channel)
        elif isinstance(done, _Asked):  # answered off the event loop and outside any transaction
            events = await asyncio.to_thread(answer, done.game, done.state, msg.author, done.query)
            return svc.narrator.answer(done.table, events, done.lang)
        else:
            return done


def _writes(svc: Croupier, msg: Incoming, request: Request) -> bool:
    """Whether a request's unit of work should take the write lock from the start. Presses, built
    commands and lines sent as commands are recorded even when refused, so they always write; a
    chat line only when the game last seen open in its channel (:class:`bot.service.open_kinds.OpenKinds`)
    reads it as a command that is no mere question."""
    if not isinstance(request, Typed) or request.required:
        return True
    kind = svc.open_kinds.get(msg.channel)
    reading = request.readings.get(kind) if kind is not None else None
    return reading is not None and not (isinstance(reading, Command) and reading.query)


def _move_in(
    svc: Croupier, uow: UnitOfWork, *, msg: Incoming, request: Request, writing: bool, prepared: bool
) -> Reply | _Asked | _Writes | _Prepare | forum.Elsewhere:
    """The whole unit of work of a request, run on a store thread: load, judge — and for a command,
    perform, render and save. A reading unit of work stops where the first write would be; one
    whose command needs preparing stops before it is performed."""
    here = _load(svc, uow, msg, writing=writing)
    if isinstance(here, _Idle):
        return _without_game(svc, uow, msg, request, here, writing=writing)
    judged = _judge(svc, msg, request, here)
    if isinstance(judged, Chat):
        return _said(svc, here, judged)
    if isinstance(judged, Query):  # nothing is written: the unit of work ends here
        return _Asked(here.game, here.state, judged, here.table(), here.lang)
    if isinstance(judged, Found) and not prepared:
        preparation = here.game.prepare(here.state, judged.command)
        if preparation is not None:
            return _Prepare(preparation)
    if not writing:
        return _WRITES
    outcome = _perform(svc, uow, msg, here, judged) if isinstance(judged, Found) else judged
    if isinstance(outcome, Refusal):
        outcome = reconsider(here.game, here.state, msg.author, request, outcome)
        refused = svc.refuse(uow, msg, _refusal(svc, here, outcome))
        svc.warm.keep(key_of(msg), uow.mark(), here)  # a refusal changes no game
        return refused
    now, seats = svc.clock(), here.game.table(outcome.state)
    reply = _render(svc, msg, here, outcome, now, seats)
    reply, saved = _save(svc, uow, msg, here, outcome, reply, now, seats)  # and commits
    finished = here.game.finished(outcome.state)
    after = (
        None
        if finished
        else evolve(
            here,
            channel=evolve(here.channel, game=saved),
            record=saved,
            state=outcome.state,
            seats=tuple(seats),
        )
    )
    svc.warm.keep(key_of(msg), uow.mark(), after)
    svc.open_kinds.saw(msg.channel, None if finished else here.record.kind)
    return reply


def _load(svc: Croupier, uow: UnitOfWork, msg: Incoming, *, writing: bool = False) -> _Idle | Playing:
    """The one read of a request: the channel's settings and open game, with the game's state —
    unless a writer finds the channel exactly as its own last move left it (see
    :mod:`bot.service.warm_channels`): then that is what it starts from, with nothing read."""
    if writing:
        warm = svc.warm.get(key_of(msg))
        if uow.unchanged_since(warm[0] if warm is not None else None, scope=msg.channel):
            assert warm is not None  # unchanged since no mark is never true
            here = warm[1]
            uow.games.remember(here.record)
            svc.open_kinds.saw(msg.channel, here.record.kind)
            return here
    channel = uow.channels.state(msg.guild, msg.channel, msg.home)
    record, lang = channel.game, language_of(channel)
    svc.open_kinds.saw(msg.channel, record.kind if record is not None else None)
    if record is None or record.kind not in GAMES:
        return _Idle(channel, lang)
    game = GAMES[record.kind]
    return Playing(channel, lang, record, game, game.load(record.snapshot))


def _without_game(
    svc: Croupier, uow: UnitOfWork, msg: Incoming, request: Request, here: _Idle, *, writing: bool
) -> Reply | _Writes | forum.Elsewhere:
    """A request in a channel with no open game (or one of a game no longer installed). A home whose
    games are played in threads of their own knows them: a sign-up joins the game of its thread,
    anything else for a game is pointed there (see :mod:`bot.service.forum`)."""
    if isinstance(request, Typed) and not request.required:
        # A game's word with no game here — or the redelivery of the move that ended the game:
        # answer that as before.
        earlier = uow.log.find(msg.message_id)
        if earlier is not None:
            return Reply.from_log(earlier.reply)
        threaded = forum.in_threads(uow, msg.guild, msg.home)
        seated = forum.played_by(threaded, msg.author, request.readings)
        if seated is not None:  # a word beside the thread where the player's game is played
            return _beside_thread(svc, msg, seated, here)
        return _nothing_open(svc, msg, request, here, threaded)
    if not writing:
        return _WRITES
    threaded = forum.in_threads(uow, msg.guild, msg.home)
    if threaded:
        if isinstance(request, Given) and isinstance(request.command, Join):
            target = forum.sign_up_target(uow, threaded)
            if target is not None:
                return forum.Elsewhere(target.channel, forum.thread_place(msg.place))
        found = forum.played_by(threaded, msg.author) or threaded[0]
        private = isinstance(request, Pressed)
        return svc.refuse(uow, msg, forum.pointer(svc.narrator, found, here.lang, private=private))
    refused = svc.narrator.refusal(
        IllegalCommand("no_open_game"), here.lang, private=isinstance(request, Pressed)
    )
    return svc.refuse(uow, msg, refused)


def _beside_thread(svc: Croupier, msg: Incoming, seated: ThreadGame, here: _Idle) -> Reply:
    """A typed game word in a home, from a player seated in the game of one of its threads: a
    pointer to that thread the first time (per player and game), else nothing."""
    if not svc.pointed.first(seated.game_id, msg.author):
        return Reply.nothing()
    return forum.pointer(svc.narrator, seated, here.lang)


def _nothing_open(
    svc: Croupier, msg: Incoming, request: Typed, here: _Idle, threaded: tuple[ThreadGame, ...]
) -> Reply:
    """A game's word typed where no game is open: once per player and :data:`NOTHING_OPEN_EVERY`,
    that none is and who opens one (in the words of the game that read it); else silence. Nothing
    is written, so the next line is free again. Where a game of that kind plays in a thread of this
    home (``threaded``), nobody is told that none is open."""
    if not svc.told_nothing_open.first((msg.channel, msg.author), svc.clock()):
        return Reply.nothing()
    kinds = [kind for kind, reading in request.readings.items() if reading is not None and kind in GAMES]
    kind = here.channel.last_kind if here.channel.last_kind in kinds else next(iter(kinds), None)
    if kind is None or any(found.kind == kind for found in threaded):
        return Reply.nothing()
    return svc.narrator.refusal(IllegalCommand(NOTHING_OPEN), here.lang, game=GAMES[kind])


def _judge(svc: Croupier, msg: Incoming, request: Request, here: Playing) -> Judged:
    """What the request asks of the loaded game (:func:`bot.service.moves.judge`): no die rolled yet."""
    moderator = moderates(msg, here.channel.settings)
    game, record = here.game, here.record
    return judge(game, record.id, record.version, here.state, msg.author, request, moderator=moderator)


def _perform(svc: Croupier, uow: UnitOfWork, msg: Incoming, here: Playing, found: Found) -> Outcome:
    """The found command applied with the game's dice — unless its player is barred from the
    tournament (disqualified players may not join its games)."""
    if isinstance(found.command, Join):
        barred = join_refusal(uow, here.record, msg.author)
        if barred is not None:
            return Refusal(barred)
    return perform(here.game, here.state, msg.author, found, svc.dice_for(here.record))


def _said(svc: Croupier, here: Playing, chat: Chat) -> Reply:
    """The answer to chit-chat: nothing, or the game word it probably meant (nothing is recorded)."""
    if chat.near is None:
        return Reply.nothing()
    meant = InvalidCommand("did_you_mean", word=chat.near)
    return svc.narrator.refusal(meant, here.lang, game=here.game)


def _refusal(svc: Croupier, here: Playing, refusal: Refusal) -> Reply:
    return svc.narrator.refusal(
        refusal.error,
        here.lang,
        game=here.game,
        state=here.state,
        game_id=here.record.id,
        private=refusal.private,
    )


def _render(
    svc: Croupier, msg: Incoming, here: Playing, move: Applied, now: datetime, seats: Sequence[Seat]
) -> Reply:
    """The move's reply: what happened, the table (``seats``) and board after it, and the turn's
    deadline."""
    record, game = here.record, here.game
    finished = game.finished(move.state)
    table = Table(game, record.id, record.number, record.version + 1, move.state)
    seed = record.seed if finished and svc.verifiable else None
    deadline = _deadline(svc, here, move, now)
    reply = svc.narrator.move(
        table,
        here.state,
        move.events,
        here.lang,
        actor=msg.author,
        seed=seed,
        deadline=deadline,
        seats=seats,
        seats_before=here.seats,
    )
    if not finished:
        return reply
    return replace(reply, result=_result_line(svc, record, game, move.state, reply.title, here.lang))


def _deadline(svc: Croupier, here: Playing, move: Applied, now: datetime) -> datetime | None:
    """When the player to act after the move runs out of time (the channel's turn timeout)."""
    timeout = here.channel.settings.turn_timeout_seconds
    if not timeout or here.game.finished(move.state) or here.game.to_act(move.state) is None:
        return None
    return now + timedelta(seconds=timeout)


def _save(
    svc: Croupier,
    uow: UnitOfWork,
    msg: Incoming,
    here: Playing,
    move: Applied,
    reply: Reply,
    now: datetime,
    seats: Sequence[Seat],
) -> tuple[Reply, GameRecord]:
    """Write the move — game, participants (``seats``), log entry with its reply — in one go; the
    reply as the front end gets it (with its log entry, whose delivery it acknowledges, and the live
    table) and the game as stored now."""
    record, game = here.record, here.game
    finished = game.finished(move.state)
    saved, entry = uow.games.save_and_log(
        GameSave(
            record.id,
            expected_version=record.version,
            snapshot=game.dump(move.state),
            dice_used=record.dice_used + len(move.dice),
            to_act=game.to_act(move.state),
            turn_deadline=reply.deadline,
            participants=seats,
            status="closed" if finished else "open",
            closed_at=now if finished else None,
        ),
        NewLogEntry(
            message_id=msg.message_id,
            game_id=record.id,
            channel=msg.channel,
            actor=msg.author,
            text=msg.text or move.words,
            command={"type": type(move.command).__name__, **fields_of(move.command)},
            events=[event.to_json() for event in move.events],
            dice=list(move.dice),
            dice_from=record.dice_used,
            reply=reply.to_log(),
            now=now,
            delivery=delivery_of(msg),
        ),
        commit=True,
    )
    return evolve(reply, log_id=entry.id, live=_live(svc, saved, game, move.state)), saved


def _near_miss_in(svc: Croupier, uow: UnitOfWork, msg: Incoming) -> Reply:
    """A line close to a game word, from the player the channel's game waits for: "did you mean"
    (one read, nothing written); from anybody else, or with no game, it is chit-chat."""
    here = _load(svc, uow, msg)
    if isinstance(here, _Idle) or here.record.to_act != msg.author:
        return Reply.nothing()
    word = here.game.near_miss(msg.text, here.state)
    return Reply.nothing() if word is None else _said(svc, here, Chat(near=word))


def _live(svc: Croupier, record: GameRecord, game: Game[Any], state: Any) -> Live | None:
    return forum.live_of(record, game, state, svc.verifiable)


def _result_line(
    svc: Croupier, record: GameRecord, game: Game[Any], state: Any, title: str, lang: str
) -> str:
    return forum.result_line(svc.narrator, record, game, state, title, lang)


@dataclass(frozen=True)
class _Asked:
    """A query found in its unit of work, to be answered once that has ended."""

    game: Game[Any]
    state: Any
    query: Query
    table: Table
    lang: str


@dataclass(frozen=True)
class _Idle:
    """A channel with no open game (or one of a game no longer installed), as a request loaded it."""

    channel: ChannelState
    lang: str


@dataclass(frozen=True)
class Playing:
    """A channel and its open game, as a request's unit of work loaded them."""

    channel: ChannelState
    lang: str
    record: GameRecord
    game: Game[Any]
    state: Any
    seats: Sequence[Seat] | None = None  # the game's table of ``state``, once a move has worked it out

    def table(self) -> Table:
        record = self.record
        return Table(self.game, record.id, record.number, record.version, self.state)


class _Writes:
    """A reading unit of work's answer when the request turned out to change the game: run it again,
    for writing."""


_WRITES = _Writes()


@dataclass(frozen=True)
class _Prepare:
    """A unit of work's answer when its command needs slow work done first (``Game.prepare``): do it
    outside any transaction, then judge the request again."""

    work: Callable[[], object]
