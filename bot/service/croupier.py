"""The croupier service: the one path every front end (Discord, console, replay, web) goes through.

A typed line, a button press or a slash command is ONE unit of work: load the channel (its settings
and open game, one read), judge what the request asks (:mod:`bot.service.moves`, no I/O), perform it, render
the :class:`Reply` that already holds everything a front end draws, write everything the move changed
— snapshot, participants, log entry — and commit. A line that no game reads as a command never
reaches the store; one that the channel's game does not read takes no write lock (see
:class:`bot.service.open_kinds.OpenKinds`). A refusal changes no game. A message id that was handled before
is answered from the log and applied no second time; two processes racing on one game are kept apart
by the version column (the loser reloads and answers from the log or from the new state).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property, partial
from typing import Any, TypeVar

from bot import markup
from bot.exports import FORMATS, StandingsTable, to_markdown
from bot.games import DEFAULT_LANGUAGE, GAMES, language_of
from bot.observability import requests
from bot.replies import Attachment, Live, Reply
from bot.service import forum, odds_tables, topics
from bot.service.acknowledgements import Acknowledgements, flush, riding
from bot.service.actions import (
    ChangeSettings,
    Context,
    Done,
    ModeratorAction,
    NewTournament,
    OpenGame,
    Planned,
)
from bot.service.corrections import (
    Adjust,
    Audit,
    Disqualify,
    Reinstate,
    Undo,
    audit_in,
    corrections_reply,
    join_refusal,
)
from bot.service.keyed_locks import KeyedLocks
from bot.service.moves import (
    Applied,
    Chat,
    Found,
    Given,
    Judged,
    Outcome,
    Pressed,
    Query,
    Reading,
    Refusal,
    Request,
    Typed,
    answer,
    fields_of,
    judge,
    perform,
    read_line,
    reconsider,
)
from bot.service.once import OncePer
from bot.service.open_kinds import OpenKinds
from bot.service.rendering import Narrator, Table
from bot.service.standings import standings_of
from bot.service.suggestions import Suggestion, picked_line_in, suggestions_in
from bot.service.suggestions import options as suggested_options
from bot.service.thread_plans import ThreadPlans
from bot.service.verify import Report, verify_in
from bot.service.warm_channels import WarmChannels
from bot.store import (
    CatchUpPoint,
    ChannelSettings,
    ChannelState,
    Conflict,
    DuplicateMessage,
    GameRecord,
    GameSave,
    LogEntry,
    NewLogEntry,
    Store,
    StoreUnavailable,
    ThreadGame,
    Tournament,
    UnitOfWork,
)
from engine import dice as dice_mod
from engine.errors import IllegalCommand, InvalidCommand
from engine.game import Command, Game, Join, Seat, Timeout
from engine.numbers import ID_MAX, SNOWFLAKE_MAX, whole_number
from engine.records import evolve

log = logging.getLogger(__name__)

odds_tables.install()  # Killer's conseil and auto answer from the shipped tables (docs/killer-odds.md)

DiceFactory = Callable[[GameRecord], dice_mod.DiceSource]
Clock = Callable[[], datetime]
T = TypeVar("T")

_MAX_ATTEMPTS = 5
NOTHING_OPEN = "nothing_open"  # a game's word where no game is open: the refusal code of the hint
NOTHING_OPEN_EVERY = timedelta(minutes=5)  # … said to a player at most this often in a channel


@dataclass(frozen=True)
class Incoming:
    """A message from any front end, already stripped of its transport."""

    message_id: str  # Discord message / interaction id, console line id, …: the exactly-once key
    guild: str
    channel: str
    author: str  # participant id (Discord user id; the name on the console)
    author_name: str
    text: str = ""
    is_moderator: bool = False  # a moderator whatever the channel says (Manage Server, --moderator)
    is_admin: bool = False
    roles: tuple[tuple[str, str], ...] = ()  # (id, name) of the author's roles, for the moderator role
    parent: str = ""  # the channel a thread belongs to; "" when the message was typed in a channel
    # Where it was typed: "text" (a text channel), "forum" (a forum itself), "thread" (a thread of a text
    # channel), "post" (a forum post), "" (anywhere else: the console, a replay). Decides where a new
    # game is played (see :meth:`Croupier.plan_open`).
    place: str = ""
    tracked: bool = False  # the front end acknowledges each answer's delivery (command_log.delivery)

    @property
    def home(self) -> str:
        """Where the tournament, its settings and its standings live: a thread's parent channel, or
        the channel itself. Games live in ``channel`` (a Durchgang's thread)."""
        return self.parent or self.channel


def readings(text: str, first: str | None = None) -> dict[str, Reading]:
    """What each registered game reads in a chat line: a command, a refusal (malformed), or nothing.

    Parsing needs no store, so the service reads a line before it goes near one, and hands these
    readings on so the channel's game does not parse the line again. ``first``: the kind of game
    likely open in the channel (:class:`bot.service.open_kinds.OpenKinds`); when it reads the line, its
    reading is the only one (the unit of work parses for another game if the channel holds one).
    """
    known: dict[str, Reading] = {}
    if first is not None and first in GAMES:
        known[first] = read_line(GAMES[first], text)
        if known[first] is not None:
            return known
    return {kind: known[kind] if kind in known else read_line(game, text) for kind, game in GAMES.items()}


def might_be_command(text: str) -> bool:
    """Whether some registered game reads the line as a command (or as a malformed one), reading what
    :meth:`Croupier.handle_text` reads of it: its first :data:`~bot.service.moves.LINE_MAX` characters. The
    parsers' work grows with the line, and a front end asks this when the store is out, before it
    answers "try again" — a 4,000-character line costs no more than a Discord message."""
    return any(reading is not None for reading in readings(Typed.of(text).text).values())


def role_id_of(role_setting: str) -> str | None:
    """The role's id when the setting gives one (``1234``, ``<@&1234>``, ``@1234``); None for a name."""
    wanted = role_setting.strip()
    for prefix in ("<@&", "@"):
        if wanted.startswith(prefix):
            wanted = wanted[len(prefix) :].rstrip(">")
            break
    found = whole_number(wanted, SNOWFLAKE_MAX)
    return None if found is None else str(found)


def holds_role(msg: Incoming, role_setting: str | None) -> bool:
    """Whether the author carries the configured moderator role. Given by id (or mention) it is that
    role alone — a role *named* like the id is another role. Given by name it is any role of that
    name (case folded), which whoever may create roles can make: the start warns of it
    (:func:`bot.discord.client.warn_of_role_names`) and the deployment guide says to prefer the id."""
    if not role_setting:
        return False
    wanted = role_id_of(role_setting)
    if wanted is not None:
        return any(role_id == wanted for role_id, _ in msg.roles)
    folded = role_setting.strip().removeprefix("@").casefold()
    return any(name.casefold() == folded for _, name in msg.roles)


def moderates(msg: Incoming, settings: ChannelSettings) -> bool:
    return msg.is_moderator or holds_role(msg, settings.moderator_role)


@dataclass
class Croupier:
    """Stateless apart from the per-channel locks; many can share one database."""

    store: Store
    dice_factory: DiceFactory | None = None
    seed_source: Callable[[str, int, int], bytes] | None = None
    clock: Clock = field(default=lambda: datetime.now(UTC))
    web_base_url: str = "http://127.0.0.1:8080"  # where /settings web=on says the pages are (WEB_BASE_URL)
    boards: bool = True  # replies carry the board of the player to act; the console draws none
    _locks: KeyedLocks[str] = field(default_factory=KeyedLocks)
    _acks: Acknowledgements = field(default_factory=Acknowledgements)
    _open_kinds: OpenKinds = field(default_factory=OpenKinds)
    _warm: WarmChannels[_Playing] = field(default_factory=WarmChannels)
    _thread_plans: ThreadPlans = field(default_factory=ThreadPlans)
    _pointed: forum.Pointed = field(default_factory=forum.Pointed)
    _told_nothing_open: OncePer = field(default_factory=lambda: OncePer(NOTHING_OPEN_EVERY))

    @cached_property
    def narrator(self) -> Narrator:
        return Narrator(boards=self.boards)

    @property
    def verifiable(self) -> bool:
        """Dice come from the committed seed (not from a script), so commitments mean something."""
        return self.dice_factory is None

    # ------------------------------------------------------------------ moves

    async def handle_text(self, msg: Incoming) -> Reply:
        """A chat line: a command of the channel's open game, or chit-chat (answered with ``silent``).

        The games read at most :data:`~bot.service.moves.LINE_MAX` characters of a line (a Discord message's
        length): a longer line that holds a command is refused (``error.line_too_long``), a longer
        chit-chat line stays chit-chat.
        """
        request = Typed.of(msg.text)
        read = readings(request.text, first=self._open_kinds.get(msg.channel))
        if all(reading is None for reading in read.values()):
            if request.length or not any(game.near_miss(msg.text) for game in GAMES.values()):
                return Reply.nothing()  # chit-chat never reaches the store
            return await self.store.run(lambda uow: self._near_miss_in(uow, msg), read_only=True)
        request = evolve(request, readings=read)
        return await self._guarded(msg, lambda: self._move(msg, request))

    def _near_miss_in(self, uow: UnitOfWork, msg: Incoming) -> Reply:
        """A line close to a game word, from the player the channel's game waits for: "did you mean"
        (one read, nothing written); from anybody else, or with no game, it is chit-chat."""
        here = self._load(uow, msg)
        if isinstance(here, _Idle) or here.record.to_act != msg.author:
            return Reply.nothing()
        word = here.game.near_miss(msg.text, here.state)
        return Reply.nothing() if word is None else self._said(here, Chat(near=word))

    async def handle_command_text(self, msg: Incoming) -> Reply:
        """Words sent as a command (Discord's ``/zug``, ``/joker wählen``): like a chat line, but a
        line that holds no command, or a channel without a game, gets a refusal rather than silence."""
        request = Typed.of(msg.text, required=True)
        return await self._guarded(msg, lambda: self._move(msg, request))

    async def pick(self, msg: Incoming, what: str, picked: str) -> Reply:
        """A list picked from what the open game offers for ``what`` (Discord's ``/joker wählen``), sent
        as the line the game says it in (:func:`bot.service.suggestions.picked_line_in`)."""
        where = (msg.guild, msg.channel, msg.home)
        line = await self.store.run(lambda uow: picked_line_in(uow, *where, what, picked), read_only=True)
        return await self.handle_command_text(replace(msg, text=line))

    async def execute(self, msg: Incoming, command: Command) -> Reply:
        """Apply a command a front end built (a slash command, the console's /join …) exactly once."""
        return await self._guarded(msg, lambda: self._move(msg, Given(command)))

    async def press(self, msg: Incoming, game_id: int, version: int, picked: tuple[int, ...]) -> Reply:
        """A press on a board: checked against the game and version it was drawn for and the player to
        act, then applied as the picked choices' words."""
        return await self._guarded(msg, lambda: self._move(msg, Pressed(game_id, version, picked)))

    async def _move(self, msg: Incoming, request: Request) -> Reply:
        """One request, one unit of work: a writing one when the request is likely to change the game
        (:meth:`_writes`), else a reading one — run again for writing only if it finds a command. A
        command that needs slow preparation (``Game.prepare``) has it done first, off the event loop
        and outside any transaction, and is then judged again in a writing unit of work. A writing one
        also writes the waiting acknowledgements of delivered answers (:meth:`_riding`)."""
        writing, prepared = self._writes(msg, request), False
        while True:
            work = partial(self._move_in, msg=msg, request=request, writing=writing, prepared=prepared)
            done = await self.store.run(self._riding(work) if writing else work, read_only=not writing)
            if isinstance(done, _Prepare):
                await asyncio.to_thread(done.work)
                writing = prepared = True
            elif isinstance(done, _Writes):
                writing = True
            elif isinstance(done, forum.Elsewhere):  # a sign-up in a home, for the game of its thread
                there = replace(msg, channel=done.channel, parent=msg.home, place=done.place)
                reply = await self._guarded(there, partial(self._move, there, request))
                return replace(reply, elsewhere=done.channel)
            elif isinstance(done, _Asked):  # answered off the event loop and outside any transaction
                events = await asyncio.to_thread(answer, done.game, done.state, msg.author, done.query)
                return self.narrator.answer(done.table, events, done.lang)
            else:
                return done

    def _writes(self, msg: Incoming, request: Request) -> bool:
        """Whether a request's unit of work should take the write lock from the start. Presses, built
        commands and lines sent as commands are recorded even when refused, so they always write; a
        chat line only when the game last seen open in its channel (:class:`bot.service.open_kinds.OpenKinds`)
        reads it as a command that is no mere question."""
        if not isinstance(request, Typed) or request.required:
            return True
        kind = self._open_kinds.get(msg.channel)
        reading = request.readings.get(kind) if kind is not None else None
        return reading is not None and not (isinstance(reading, Command) and reading.query)

    def _move_in(
        self, uow: UnitOfWork, *, msg: Incoming, request: Request, writing: bool, prepared: bool
    ) -> Reply | _Asked | _Writes | _Prepare | forum.Elsewhere:
        """The whole unit of work of a request, run on a store thread: load, judge — and for a command,
        perform, render and save. A reading unit of work stops where the first write would be; one
        whose command needs preparing stops before it is performed."""
        here = self._load(uow, msg, writing=writing)
        if isinstance(here, _Idle):
            return self._without_game(uow, msg, request, here, writing=writing)
        judged = self._judge(msg, request, here)
        if isinstance(judged, Chat):
            return self._said(here, judged)
        if isinstance(judged, Query):  # nothing is written: the unit of work ends here
            return _Asked(here.game, here.state, judged, here.table(), here.lang)
        if isinstance(judged, Found) and not prepared:
            preparation = here.game.prepare(here.state, judged.command)
            if preparation is not None:
                return _Prepare(preparation)
        if not writing:
            return _WRITES
        outcome = self._perform(uow, msg, here, judged) if isinstance(judged, Found) else judged
        if isinstance(outcome, Refusal):
            outcome = reconsider(here.game, here.state, msg.author, request, outcome)
            refused = self._refuse(uow, msg, self._refusal(here, outcome))
            self._warm.keep(_key(msg), uow.mark(), here)  # a refusal changes no game
            return refused
        now, seats = self.clock(), here.game.table(outcome.state)
        reply = self._render(msg, here, outcome, now, seats)
        reply, saved = self._save(uow, msg, here, outcome, reply, now, seats)  # and commits
        finished = here.game.finished(outcome.state)
        after = (
            None
            if finished
            else evolve(here, channel=evolve(here.channel, game=saved), record=saved, state=outcome.state)
        )
        self._warm.keep(_key(msg), uow.mark(), after)
        self._open_kinds.saw(msg.channel, None if finished else here.record.kind)
        return reply

    def _load(self, uow: UnitOfWork, msg: Incoming, *, writing: bool = False) -> _Idle | _Playing:
        """The one read of a request: the channel's settings and open game, with the game's state —
        unless a writer finds the channel exactly as its own last move left it (see
        :mod:`bot.service.warm_channels`): then that is what it starts from, with nothing read."""
        if writing:
            warm = self._warm.get(_key(msg))
            if uow.unchanged_since(warm[0] if warm is not None else None, scope=msg.channel):
                assert warm is not None  # unchanged since no mark is never true
                here = warm[1]
                uow.games.remember(here.record)
                self._open_kinds.saw(msg.channel, here.record.kind)
                return here
        channel = uow.channels.state(msg.guild, msg.channel, msg.home)
        record, lang = channel.game, language_of(channel)
        self._open_kinds.saw(msg.channel, record.kind if record is not None else None)
        if record is None or record.kind not in GAMES:
            return _Idle(channel, lang)
        game = GAMES[record.kind]
        return _Playing(channel, lang, record, game, game.load(record.snapshot))

    def _without_game(
        self, uow: UnitOfWork, msg: Incoming, request: Request, here: _Idle, *, writing: bool
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
                return self._beside_thread(msg, seated, here)
            return self._nothing_open(msg, request, here, threaded)
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
            return self._refuse(uow, msg, forum.pointer(self.narrator, found, here.lang, private=private))
        refused = self.narrator.refusal(
            IllegalCommand("no_open_game"), here.lang, private=isinstance(request, Pressed)
        )
        return self._refuse(uow, msg, refused)

    def _beside_thread(self, msg: Incoming, seated: ThreadGame, here: _Idle) -> Reply:
        """A typed game word in a home, from a player seated in the game of one of its threads: a
        pointer to that thread the first time (per player and game), else nothing."""
        if not self._pointed.first(seated.game_id, msg.author):
            return Reply.nothing()
        return forum.pointer(self.narrator, seated, here.lang)

    def _nothing_open(
        self, msg: Incoming, request: Typed, here: _Idle, threaded: tuple[ThreadGame, ...]
    ) -> Reply:
        """A game's word typed where no game is open: once per player and :data:`NOTHING_OPEN_EVERY`,
        that none is and who opens one (in the words of the game that read it); else silence. Nothing
        is written, so the next line is free again. Where a game of that kind plays in a thread of this
        home (``threaded``), nobody is told that none is open."""
        if not self._told_nothing_open.first((msg.channel, msg.author), self.clock()):
            return Reply.nothing()
        kinds = [kind for kind, reading in request.readings.items() if reading is not None and kind in GAMES]
        kind = here.channel.last_kind if here.channel.last_kind in kinds else next(iter(kinds), None)
        if kind is None or any(found.kind == kind for found in threaded):
            return Reply.nothing()
        return self.narrator.refusal(IllegalCommand(NOTHING_OPEN), here.lang, game=GAMES[kind])

    def _judge(self, msg: Incoming, request: Request, here: _Playing) -> Judged:
        """What the request asks of the loaded game (:func:`bot.service.moves.judge`): no die rolled yet."""
        moderator = moderates(msg, here.channel.settings)
        game, record = here.game, here.record
        return judge(game, record.id, record.version, here.state, msg.author, request, moderator=moderator)

    def _perform(self, uow: UnitOfWork, msg: Incoming, here: _Playing, found: Found) -> Outcome:
        """The found command applied with the game's dice — unless its player is barred from the
        tournament (disqualified players may not join its games)."""
        if isinstance(found.command, Join):
            barred = join_refusal(uow, here.record, msg.author)
            if barred is not None:
                return Refusal(barred)
        return perform(here.game, here.state, msg.author, found, self._dice_for(here.record))

    def _said(self, here: _Playing, chat: Chat) -> Reply:
        """The answer to chit-chat: nothing, or the game word it probably meant (nothing is recorded)."""
        if chat.near is None:
            return Reply.nothing()
        meant = InvalidCommand("did_you_mean", word=chat.near)
        return self.narrator.refusal(meant, here.lang, game=here.game)

    def _refusal(self, here: _Playing, refusal: Refusal) -> Reply:
        return self.narrator.refusal(
            refusal.error,
            here.lang,
            game=here.game,
            state=here.state,
            game_id=here.record.id,
            private=refusal.private,
        )

    def _render(
        self, msg: Incoming, here: _Playing, move: Applied, now: datetime, seats: Sequence[Seat]
    ) -> Reply:
        """The move's reply: what happened, the table (``seats``) and board after it, and the turn's
        deadline."""
        record, game = here.record, here.game
        finished = game.finished(move.state)
        table = Table(game, record.id, record.number, record.version + 1, move.state)
        seed = record.seed if finished and self.verifiable else None
        deadline = self._deadline(here, move, now)
        reply = self.narrator.move(
            table,
            here.state,
            move.events,
            here.lang,
            actor=msg.author,
            seed=seed,
            deadline=deadline,
            seats=seats,
        )
        if not finished:
            return reply
        return replace(reply, result=self._result_line(record, game, move.state, reply.title, here.lang))

    def _deadline(self, here: _Playing, move: Applied, now: datetime) -> datetime | None:
        """When the player to act after the move runs out of time (the channel's turn timeout)."""
        timeout = here.channel.settings.turn_timeout_seconds
        if not timeout or here.game.finished(move.state) or here.game.to_act(move.state) is None:
            return None
        return now + timedelta(seconds=timeout)

    def _save(
        self,
        uow: UnitOfWork,
        msg: Incoming,
        here: _Playing,
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
                delivery=_delivery(msg),
            ),
            commit=True,
        )
        return evolve(reply, log_id=entry.id, live=self._live(saved, game, move.state)), saved

    def _refuse(self, uow: UnitOfWork, msg: Incoming, refused: Reply) -> Reply:
        """A refusal is recorded too (the message id and the answer, no game change), so a message is
        judged once: redelivered after the game moved on, it gets the same refusal, never a move."""
        entry = NewLogEntry(
            msg.message_id, msg.channel, msg.author, msg.text, self.clock(), reply=refused.to_log()
        )
        if uow.log.append_once(entry) is None:  # logged before: answered as then, nothing committed
            earlier = uow.log.find(msg.message_id)
            return refused if earlier is None else Reply.from_log(earlier.reply)
        uow.commit()
        return refused

    # ------------------------------------------------------------------ moderator actions

    async def new_tournament(self, msg: Incoming, name: str, scoring: str = "sum") -> Reply:
        return await self.moderate(msg, NewTournament(name, scoring))

    async def open_game(
        self, msg: Incoming, kind: str, options: Mapping[str, Any], *, live_message: str | None = None
    ) -> Reply:
        """Open a game where ``msg`` was typed — a thread the front end created for it after
        :meth:`plan_open`, whose first message (``live_message``) will show the live table."""
        return await self.moderate(msg, OpenGame(kind, dict(options), live_message))

    async def change_settings(self, msg: Incoming, options: Mapping[str, str]) -> Reply:
        return await self.moderate(msg, ChangeSettings(dict(options)))

    async def moderate(self, msg: Incoming, action: ModeratorAction) -> Reply:
        """The frame every moderator action shares: the right, the validation, exactly-once, and one
        logged transaction."""

        return await self._guarded(msg, lambda: self._moderated(msg, action), action=True)

    async def _moderated(self, msg: Incoming, action: ModeratorAction) -> Reply:
        """A plan (:meth:`plan_open`) in a home that planned threads before is made in a reading unit of
        work, run again for writing only if it opens in place or is refused
        (:mod:`bot.service.thread_plans`)."""
        planning = isinstance(action, OpenGame) and action.plan
        if planning and self._thread_plans.plans_thread((msg.guild, msg.home)):
            work = partial(self._moderate_in, msg=msg, action=action, writing=False)
            planned = await self.store.run(work, read_only=True)
            if not isinstance(planned, _Writes):
                return planned
        done = await self.store.run(self._riding(partial(self._moderate_in, msg=msg, action=action)))
        assert not isinstance(done, _Writes)  # a writing unit of work never asks for one
        if planning and done.ok and not done.duplicate:
            self._thread_plans.saw((msg.guild, msg.home), thread=bool(done.thread_title))
        return done

    def _moderate_in(
        self, uow: UnitOfWork, msg: Incoming, action: ModeratorAction, *, writing: bool = True
    ) -> Reply | _Writes:
        """A moderator action's unit of work. An action the store's contents refuse (a game already
        open) is recorded in a fresh transaction of the same unit of work: what the action wrote before
        it found the refusal (a tournament started on the spot) must not stay; on PostgreSQL a violated
        constraint (a game another process opened a moment ago) has already ended the transaction; and
        the fresh one sees the log entry of another process that handled this very message meanwhile."""
        channel = uow.channels.state(msg.guild, msg.channel, msg.home)
        lang = language_of(channel)
        allowed = moderates(msg, channel.settings)
        refusal = action.check() if allowed else Refusal(IllegalCommand("not_moderator"))
        if refusal is not None:  # in the channel's language: a game's own applies once it is open
            if not writing:
                return _WRITES
            return self._refuse(uow, msg, self.narrator.refusal(refusal.error, lang, game=refusal.about))
        earlier = uow.log.find(msg.message_id)
        if earlier is not None:
            return Reply.from_log(earlier.reply)
        ctx = self._context(msg, channel, lang)
        if not writing and not (isinstance(action, OpenGame) and action.plans(ctx)):
            return _WRITES
        outcome = action.apply(uow, ctx)
        if isinstance(outcome, Planned):  # nothing was written: there is nothing to commit or log
            return outcome.reply
        if isinstance(outcome, Refusal):
            if not writing:
                return _WRITES
            uow.rollback()
            return self._refuse(uow, msg, self.narrator.refusal(outcome.error, lang))
        entry = self._log_action(uow, msg, outcome)
        reply = replace(outcome.reply, log_id=entry.id, live=outcome.live)
        uow.commit()
        if isinstance(action, OpenGame):
            self._open_kinds.saw(msg.channel, GAMES.named(action.kind).name)
        return reply

    def _context(self, msg: Incoming, channel: ChannelState, lang: str) -> Context:
        return Context(
            guild=msg.guild,
            where=msg.channel,
            channel=channel,
            lang=lang,
            now=self.clock(),
            narrator=self.narrator,
            new_seed=self._new_seed,
            verifiable=self.verifiable,
            actor=msg.author,
            actor_name=msg.author_name,
            message_id=msg.message_id,
            web_base_url=self.web_base_url,
            place=msg.place,
        )

    def _log_action(self, uow: UnitOfWork, msg: Incoming, done: Done) -> LogEntry:
        return uow.log.append(
            message_id=msg.message_id,
            game_id=done.game_id,
            channel=msg.channel,
            actor=msg.author,
            text=msg.text,
            command=done.logged,
            dice_from=done.dice_from,
            reply=done.reply.to_log(),
            now=self.clock(),
            delivery=_delivery(msg),
        )

    # ---------------------------------------------------------- corrections (bot/service/corrections.py)

    async def undo(self, msg: Incoming, reason: str) -> Reply:
        """Void the last move of the channel's open game and rebuild it from its log; its dice stay
        used. A public note with the game as it stands again."""
        return await self.moderate(msg, Undo(reason))

    async def adjust(self, msg: Incoming, player: str, points: int, reason: str) -> Reply:
        """A points correction (± ``points``) for the player ``player`` names in the current tournament."""
        return await self.moderate(msg, Adjust(player, points, reason))

    async def disqualify(self, msg: Incoming, player: str, reason: str) -> Reply:
        """Take a player out of the current tournament's standings and its further games."""
        return await self.moderate(msg, Disqualify(player, reason))

    async def reinstate(self, msg: Incoming, player: str, reason: str) -> Reply:
        """Lift a player's disqualification from the current tournament."""
        return await self.moderate(msg, Reinstate(player, reason))

    async def corrections_reply(self, msg: Incoming) -> Reply:
        """Every correction of the current tournament — when, who, what, why — for everybody."""
        return await self.store.run(
            lambda uow: corrections_reply(uow, self.narrator, msg.guild, msg.channel, msg.home),
            read_only=True,
        )

    async def audit(self, game_id: int) -> Audit | None:
        """A game's whole log, voided entries with the undo that voided them (``croupier audit``)."""
        return await self.store.run(lambda uow: audit_in(uow, game_id), read_only=True)

    # ------------------------------------------------------ threads, live tables (bot/service/forum.py)

    async def plan_open(self, msg: Incoming, kind: str, options: Mapping[str, Any]) -> Reply:
        """A front end that makes threads asks here first: where the game wants a thread of its own,
        the answer carries ``thread_title`` and nothing is written — the front end creates the thread
        and calls :meth:`open_game` in it; where it does not (the channel's threads are off), the game
        opens right here, in this one transaction; or the refusal (no right, a bad option, a game of
        that kind already open in the home)."""
        return await self.moderate(msg, OpenGame(kind, dict(options), plan=True))

    async def due_reminders(self, guilds: Collection[str] | None = None) -> list[forum.Reminder]:
        """Remind each player to act whose deadline is near (once per deadline, across processes) —
        only in ``guilds`` when given: those the front end serves and has caught up with."""
        due = partial(forum.reminder_due, now=self.clock(), guilds=guilds)
        if not await self.store.run(due, read_only=True):
            return []  # the usual round: one read, no write lock
        return await self.store.run(
            self._riding(
                lambda uow: forum.reminders_in(uow, self.narrator, self.clock(), self.verifiable, guilds)
            )
        )

    async def catch_up_points(self) -> tuple[CatchUpPoint, ...]:
        """Every open game's channel and the last chat line logged there: where a front end that was
        away reads the channel's history from (each line then goes through :meth:`handle_text`)."""
        return await self.store.run(lambda uow: uow.forum.catch_up_points(), read_only=True)

    def note_reads_later(self, reads: Mapping[tuple[str, str], str]) -> None:
        """:meth:`note_reads` with the next write (or :meth:`flush_acknowledgements`), none of its own."""
        self._acks.note_reads(reads)

    async def note_reads(self, reads: Mapping[tuple[str, str], str]) -> int:
        """Keep how far a front end has read its channels — (guild, channel) → the newest message read
        with everything before it read too — where a game is open: a catch-up after a restart starts
        there (see :meth:`catch_up_points`). Answers how many were kept."""
        now = self.clock()

        def write(uow: UnitOfWork) -> int:
            kept = uow.forum.note_reads(reads, now)
            uow.commit()
            return kept

        return await self.store.run(write)

    def _live(self, record: GameRecord, game: Game[Any], state: Any) -> Live | None:
        return forum.live_of(record, game, state, self.verifiable)

    def _result_line(self, record: GameRecord, game: Game[Any], state: Any, title: str, lang: str) -> str:
        return forum.result_line(self.narrator, record, game, state, title, lang)

    # ------------------------------------------------------------------ delivery of answers

    def acknowledge(self, log_id: int) -> None:
        """The answer of this log entry reached its channel; written with the next write (or by
        :meth:`flush_acknowledgements`), never in a transaction of its own while there is work."""
        self._acks.add(log_id)

    @property
    def acknowledgements_waiting(self) -> int:
        return len(self._acks)

    def acknowledgements_due_in(self, period: float) -> float:
        """Seconds until the waiting acknowledgements need a transaction of their own (see
        :meth:`bot.service.acknowledgements.Acknowledgements.due_in`)."""
        return self._acks.due_in(period)

    async def flush_acknowledgements(self) -> int:
        """Write the waiting acknowledgements now (the bot is idle, or stopping); answers how many."""
        if not len(self._acks):
            return 0
        return await self.store.run(flush(self._acks, self.clock))

    async def undeliverable(self, log_id: int) -> None:
        """The answer can never be posted (its channel or thread is gone): stop trying."""
        now = self.clock()
        await self.store.run(self._riding(lambda uow: _marked(uow, log_id, "undeliverable", now)))

    async def pending_deliveries(self, before: datetime) -> list[forum.Pending]:
        """Answers logged before ``before`` (this process's start) whose delivery was never
        acknowledged, in log order — for the front end to check and post once."""
        return await self.store.run(
            lambda uow: forum.pending_in(uow, self.narrator, before, self.verifiable), read_only=True
        )

    async def pending_closings(self, before: datetime) -> list[forum.Closing]:
        """Finished games (ended before ``before``, this process's start) whose thread an earlier
        process did not finish closing, with what is left and their final reply — for the front end to
        redo (a thread closing is recorded step by step: :meth:`closing_done`)."""
        return await self.store.run(
            lambda uow: forum.closings_in(uow, self.narrator, before, self.verifiable), read_only=True
        )

    async def closing_done(self, game_id: int, step: str) -> None:
        """A step of a finished game's thread closing is done (``"thread"``: archived and locked;
        ``"result"``: the home's result line posted or not needed): no start redoes it."""
        now = self.clock()
        await self.store.run(self._riding(lambda uow: forum.closing_done(uow, game_id, step, now)))

    def _riding(self, work: Callable[[UnitOfWork], T]) -> Callable[[UnitOfWork], T]:
        """A writing unit of work that also writes the waiting acknowledgements before it commits."""
        return riding(self._acks, work, self.clock)

    # ------------------------------------------------------------------ turn timeouts

    async def apply_due_timeouts(
        self, *, tracked: bool = False, guilds: Collection[str] | None = None
    ) -> list[tuple[str, Reply]]:
        """Apply the turn-timeout rule to every game whose deadline has passed (exactly once each) —
        only in ``guilds`` when given: those the front end serves and has caught up with, so no player
        times out whose move another process has not read yet. Answers (channel, reply) for each
        (``tracked``: the front end acknowledges their delivery)."""
        due = await self.store.run(lambda uow: uow.forum.overdue(self.clock()), read_only=True)
        answered: list[tuple[str, Reply]] = []
        for game in due:
            if guilds is not None and game.guild not in guilds:
                continue
            msg = Incoming(
                message_id=f"timeout:{game.game_id}:{game.version}",
                guild=game.guild,
                channel=game.channel,
                parent=game.home if game.home != game.channel else "",
                author=game.to_act,
                author_name=game.to_act,
                is_moderator=True,
                tracked=tracked,
            )
            answered.append((game.channel, await self.execute(msg, Timeout())))
        return answered

    # ------------------------------------------------------------------ read-only answers

    async def standings_reply(self, msg: Incoming) -> Reply:
        """The running tournament table, for everybody."""

        def read(uow: UnitOfWork) -> tuple[str, StandingsTable | None]:
            lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
            return lang, self._standings(uow, msg.home, lang=lang)

        lang, table = await self.store.run(read, read_only=True)
        if table is None:
            return self.narrator.simple("common.no_tournament", {}, lang)
        if not table.rows:
            return self.narrator.simple("common.no_results", {"name": table.tournament}, lang)
        lines = tuple(markup.escaped(line) for line in to_markdown(table).rstrip().splitlines())
        title = markup.typed(table.tournament)
        return Reply(ok=True, lines=lines, title=title, language=lang, standings=table)

    async def standings_table(self, channel: str, tournament: str | None = None) -> StandingsTable | None:
        """A tournament's table (``croupier export``): the channel's current one, or the tournament
        given by id or by name; in the language set for its channel. LookupError for a name that
        several tournaments carry (the message lists their ids)."""

        def read(uow: UnitOfWork) -> StandingsTable | None:
            found = _tournament_named(uow, channel, tournament)
            if found is None:
                return None
            settings = uow.settings.get(found.guild, found.channel)
            return self._standings(uow, found.channel, found.id, settings.language or DEFAULT_LANGUAGE)

        return await self.store.run(read, read_only=True)

    def _standings(
        self, uow: UnitOfWork, channel: str, tournament_id: int | None = None, lang: str = "de"
    ) -> StandingsTable | None:
        tournament = (
            uow.tournaments.get(tournament_id)
            if tournament_id is not None
            else uow.tournaments.current(channel)
        )
        if tournament is None:
            return None
        corrections = uow.corrections.of_tournament(tournament.id)
        return standings_of(tournament, uow.games.closed_in(tournament.id), corrections, lang)

    async def tournaments_reply(self, msg: Incoming) -> Reply:
        """The channel's tournaments with their ids and dates (an id is what ``croupier export
        --tournament`` and the web page take), newest last."""

        def read(uow: UnitOfWork) -> tuple[str, list[tuple[Tournament, int]]]:
            lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
            return lang, [(t, uow.games.count_in(t.id)) for t in uow.tournaments.list(msg.home)]

        lang, found = await self.store.run(read, read_only=True)
        if not found:
            return self.narrator.simple("common.no_tournament", {}, lang)
        lines = [self.narrator.line("common.tournaments", {}, lang)]
        for tournament, games in found:
            facts = {"id": tournament.id, "name": tournament.name, "games": games}
            lines.append(
                self.narrator.line(
                    "common.tournament_entry", {**facts, "date": f"{tournament.created_at:%Y-%m-%d}"}, lang
                )
            )
        return Reply(ok=True, lines=tuple(lines), language=lang)

    async def export(self, msg: Incoming, fmt: str) -> Reply:
        """The standings as a paste-ready file; admins only."""

        def read(uow: UnitOfWork) -> tuple[str, StandingsTable | None]:
            lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
            return lang, self._standings(uow, msg.home, lang=lang)

        if not msg.is_admin or fmt not in FORMATS:
            lang = language_of(await self._channel(msg))
            if not msg.is_admin:
                return self.narrator.refusal(IllegalCommand("not_admin"), lang)
            error = InvalidCommand("unknown_format", format=fmt, valid=sorted(FORMATS))
            return self.narrator.refusal(error, lang)
        lang, table = await self.store.run(read, read_only=True)
        if table is None:
            return self.narrator.simple("common.no_tournament", {}, lang)
        text = FORMATS[fmt](table).rstrip("\n")
        note = self.narrator.line("discord.export_ready", {"name": table.tournament, "format": fmt}, lang)
        return Reply(
            ok=True,
            lines=tuple(markup.escaped(line) for line in text.splitlines()),
            title=note,
            language=lang,
            attachment=Attachment(table.tournament, fmt, text),
            private=True,
        )

    async def verify_reply(self, msg: Incoming, game_id: int | None = None) -> Reply:
        """Re-derive the dice of closed games from their revealed seeds and compare with the log."""

        def read(uow: UnitOfWork) -> tuple[str, list[Report], GameRecord | None]:
            lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
            reports = verify_in(uow, game_id, guild=msg.guild, home=msg.home)
            running = _running(uow, game_id, msg.guild) if not reports and game_id is not None else None
            return lang, reports, running

        lang, reports, running = await self.store.run(read, read_only=True)
        if running is not None and running.kind in GAMES:  # its seed is still secret
            game = GAMES[running.kind]
            title = self.narrator.line("game.round", {"number": running.number}, lang, game=game)
            return self.narrator.refusal(IllegalCommand("verify_game_open", id=running.id, title=title), lang)
        if not reports and game_id is not None:  # not this server's, or no such game
            return self.narrator.refusal(InvalidCommand("verify_unknown_game", id=game_id), lang)
        if not reports:
            return self.narrator.simple("common.verify_none", {}, lang)
        lines = tuple(self.report_line(report, lang) for report in reports)
        return Reply(ok=all(r.ok for r in reports), lines=lines, language=lang)

    def report_line(self, report: Report, lang: str) -> str:
        """One game's verification, the game named as its own catalogue names it."""
        game = GAMES.get(report.kind)
        facts = {"number": report.number, **report.facts}
        title = self.narrator.line("game.round", facts, lang, game=game) if game else str(report.number)
        return self.narrator.line(f"common.{report.key}", {**facts, "title": title}, lang)

    async def verify(self, game_id: int | None = None) -> list[Report]:
        """Every closed game's verification (``croupier verify``)."""
        return await self.store.run(lambda uow: verify_in(uow, game_id=game_id), read_only=True)

    async def help_reply(self, msg: Incoming) -> Reply:
        """The commands of this front end — those of topics the open game has not left out (no /joker wählen
        in a Killer game) — and the words of the open game."""
        channel = await self._channel(msg)
        lang = language_of(channel)
        game = self._game_of(channel)
        listing = markup.listing(None if game is None else [topic.name for topic in game.topics])
        lines = [self.narrator.line("common.help", {"commands": listing}, lang)]
        if game is not None:
            lines.append(self.narrator.line("help.words", {}, lang, game=game))
        return Reply(ok=True, lines=tuple(lines), language=lang)

    async def rules_reply(self, msg: Incoming) -> Reply:
        """A summary of the open game's rules (between games the last one's; at first the default game's)."""
        channel = await self._channel(msg)
        lang = language_of(channel)
        last = channel.last_kind
        game = self._game_of(channel) or (
            GAMES[last] if last is not None and last in GAMES else GAMES.default
        )
        return Reply(ok=True, lines=(self.narrator.line("help.rules", {}, lang, game=game),), language=lang)

    async def info_reply(self, msg: Incoming, topic: str = "") -> Reply:
        """The channel's game's topic (``/info odds``), or the list of its topics (:mod:`.topics`)."""
        where = (msg.guild, msg.channel, msg.home)
        return await self.store.run(
            lambda uow: topics.answer_in(uow, self.narrator, *where, topic), read_only=True
        )

    async def say_error(self, msg: Incoming, code: str, **facts: Any) -> Reply:
        """A refusal the front end found (an unknown command, a malformed line), in the channel's language."""
        lang = language_of(await self._channel(msg))
        return self.narrator.refusal(InvalidCommand(code, **facts), lang)

    async def final_state(self, guild: str, channel: str, game_id: int) -> tuple[dict[str, Any], int] | None:
        """A game's replay summary and the dice it used (``croupier replay``)."""
        record = await self.store.run(lambda uow: uow.games.get(game_id), read_only=True)
        if record is None or record.channel != channel or record.kind not in GAMES:
            return None
        game = GAMES[record.kind]
        return game.summary(game.load(record.snapshot)), record.dice_used

    # ------------------------------------------------------------------ suggestions while typing

    async def suggest(self, msg: Incoming, what: str, typed: str, *, kind: str = "") -> list[Suggestion]:
        """Choices for an option being typed (Discord's autocomplete), in the channel's language: the
        open game's seated players (``players``), the options of the game ``kind`` (``options``), the
        channel's game's topics (``topics``), or what the open game offers for ``what`` (``Game.suggest``;
        none where it offers nothing). Reads only."""
        if what == "options":
            return suggested_options(kind, typed)
        if what == "topics":
            where = (msg.guild, msg.channel, msg.home)
            return await self.store.run(
                lambda uow: topics.suggestions_in(uow, self.narrator, *where, typed), read_only=True
            )
        return await self.store.run(
            lambda uow: suggestions_in(uow, self.narrator, msg.guild, msg.channel, msg.home, what, typed),
            read_only=True,
        )

    # ------------------------------------------------------------------ facts kept between starts

    async def recall(self, key: str) -> str | None:
        """A fact a front end kept between starts (the hash of the registered slash commands)."""
        return await self.store.run(lambda uow: uow.bot_state.get(key), read_only=True)

    async def remember(self, key: str, value: str) -> None:
        """Keep a fact between starts, replacing what was kept under ``key``."""

        def write(uow: UnitOfWork) -> None:
            uow.bot_state.put(key, value, self.clock())
            uow.commit()

        await self.store.run(write)

    # ------------------------------------------------------------------ plumbing

    async def _channel(self, msg: Incoming) -> ChannelState:
        return await self.store.run(
            lambda uow: uow.channels.state(msg.guild, msg.channel, msg.home), read_only=True
        )

    def _game_of(self, channel: ChannelState) -> Game[Any] | None:
        record = channel.game
        return GAMES.get(record.kind) if record is not None else None

    async def _guarded(
        self, msg: Incoming, run: Callable[[], Awaitable[Reply]], *, action: bool = False
    ) -> Reply:
        """:meth:`_serialised`, the request counted and logged once it is settled (``action``: a
        moderator's, see :mod:`bot.observability.requests`)."""
        started = time.perf_counter()
        reply = await self._serialised(msg, run)
        requests.settled(msg, reply, started, action=action)
        return reply

    async def _serialised(self, msg: Incoming, run: Callable[[], Awaitable[Reply]]) -> Reply:
        """Serialise per channel, and retry a lost race (another process wrote first, or the database
        aborted one of two writers waiting for each other) or a unit of work that met a dead pooled
        connection. Retrying is safe: the message id makes it exactly-once."""
        async with self._locks.hold(msg.channel):
            reconnected = False
            for attempt in range(_MAX_ATTEMPTS):
                try:
                    return await run()
                except StoreUnavailable as error:
                    if not error.retryable or reconnected:
                        raise
                    log.info("a pooled connection was dead (%s); retrying with a fresh one", error.reason)
                    reconnected = True
                except DuplicateMessage:
                    earlier = await self._earlier(msg.message_id)
                    if earlier is not None:
                        return earlier
                except Conflict as error:  # StaleVersion, TransactionAborted, a number taken just now …
                    self._warm.keep(_key(msg), None, None)  # whatever this process kept of it is past
                    log.info(
                        "lost a race on channel %s (attempt %d: %s); reloading",
                        msg.channel,
                        attempt + 1,
                        error,
                    )
            lang = language_of(await self._channel(msg))
            return self.narrator.refusal(IllegalCommand("busy_try_again"), lang)

    async def _earlier(self, message_id: str) -> Reply | None:
        entry = await self.store.run(lambda uow: uow.log.find(message_id), read_only=True)
        return None if entry is None else Reply.from_log(entry.reply)

    def _dice_for(self, record: GameRecord) -> dice_mod.DiceSource:
        if self.dice_factory is not None:
            return self.dice_factory(record)
        return dice_mod.VerifiableDice(record.seed, record.id, record.dice_used)

    def _new_seed(self, channel: str, tournament_id: int, number: int) -> bytes:
        if self.seed_source is not None:
            return self.seed_source(channel, tournament_id, number)
        return secrets.token_bytes(32)


def _key(msg: Incoming) -> tuple[str, str, str]:
    """What a channel's warm entry is kept under: its settings depend on the guild and the home."""
    return (msg.guild, msg.channel, msg.home)


def _delivery(msg: Incoming) -> str | None:
    """What a logged answer's delivery starts as: pending when the front end acknowledges it."""
    return "pending" if msg.tracked else None


def _marked(uow: UnitOfWork, log_id: int, state: str, now: datetime) -> None:
    uow.delivery.mark([log_id], state, now)
    uow.commit()


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
class _Playing:
    """A channel and its open game, as a request's unit of work loaded them."""

    channel: ChannelState
    lang: str
    record: GameRecord
    game: Game[Any]
    state: Any

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


def _running(uow: UnitOfWork, game_id: int, guild: str) -> GameRecord | None:
    """Game ``game_id`` when it is still open and this guild's (another guild's games stay unnamed)."""
    record = uow.games.get(game_id)
    if record is None or not record.is_open:
        return None
    tournament = uow.tournaments.get(record.tournament_id)
    return record if tournament is not None and tournament.guild == guild else None


def _tournament_named(uow: UnitOfWork, channel: str, wanted: str | None) -> Tournament | None:
    if wanted is None:
        return uow.tournaments.current(channel)
    tournament_id = whole_number(wanted.strip().removeprefix("#"), ID_MAX)  # "3" or "#3", as listed
    if tournament_id is not None:
        return uow.tournaments.get(tournament_id)
    matches = uow.tournaments.named(wanted)
    if len(matches) > 1:
        ids = ", ".join(f"{t.id} ({t.channel}, {t.created_at:%Y-%m-%d})" for t in matches)
        raise LookupError(f"several tournaments are called {wanted!r}: {ids}; give the id instead")
    return matches[0] if matches else None


def seed_from_text(text: str) -> Callable[[str, int, int], bytes]:
    """Deterministic game seeds for demos and tests (``--dice-seed``); never for real tournaments."""

    def derive(channel: str, tournament_id: int, number: int) -> bytes:
        message = f"{channel}:{tournament_id}:{number}".encode()
        return hmac.new(text.encode(), message, hashlib.sha256).digest()

    return derive


__all__ = ["Croupier", "Incoming", "Reply", "holds_role", "might_be_command", "seed_from_text"]
