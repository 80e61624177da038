"""The croupier service: the one path every front end (Discord, console, replay) goes through.

For every incoming message: take the channel's lock, load the game, let the engine apply the command
with the game's own dice, then write everything the command changed — log entry, snapshot, participants
— in ONE transaction, and only then render the reply from the events. A refused command writes
nothing. A message id that was already handled is answered from the log and applied no second time;
two processes racing on one game are kept apart by the version column (the loser reloads and answers
from the log or from the new state).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.exports import FORMATS, StandingsTable, to_markdown
from bot.games import GAMES, game_named, language_of
from bot.keyed_locks import KeyedLocks
from bot.replies import Replier, Reply
from bot.settings_words import parse_settings
from bot.standings import joker_keys, joker_names, standings_of
from bot.store import (
    DuplicateMessage,
    GameAlreadyOpen,
    GameRecord,
    GameSave,
    NewLogEntry,
    StaleVersion,
    Store,
    Tournament,
    UnitOfWork,
)
from bot.verify import verify_games
from engine import dice as dice_mod
from engine.errors import CroupierError, IllegalCommand, InvalidCommand
from engine.game import Command, Game, Timeout

log = logging.getLogger(__name__)

DiceFactory = Callable[[GameRecord], dice_mod.DiceSource]
Clock = Callable[[], datetime]

_MAX_ATTEMPTS = 5


@dataclass(frozen=True)
class Incoming:
    """A message from any front end, already stripped of its transport."""

    message_id: str  # Discord message / interaction id, console line id, …: the exactly-once key
    guild: str
    channel: str
    author: str  # participant id (Discord user id; the name on the console)
    author_name: str
    text: str = ""
    is_moderator: bool = False
    is_admin: bool = False
    # A button drawn for one version of the game acts only on that version (None: no such check).
    expected_version: int | None = None


@dataclass
class Croupier:
    """Stateless apart from the per-channel locks; many can share one database."""

    store: Store
    dice_factory: DiceFactory | None = None
    seed_source: Callable[[str, int, int], bytes] | None = None
    clock: Clock = field(default=lambda: datetime.now(UTC))
    command_names: Mapping[str, str] | None = None  # how the front end spells /join, /open … (console)
    _locks: KeyedLocks[str] = field(default_factory=KeyedLocks)

    # ------------------------------------------------------------------ chat and typed commands

    async def handle_text(self, msg: Incoming) -> Reply:
        """A chat line: a command of the channel's open game, or chit-chat (answered with ``silent``)."""
        return await self._guarded(msg, lambda: self._apply(msg, None))

    async def execute(self, msg: Incoming, command: Command) -> Reply:
        """Apply one typed command (from a button or a slash command) exactly once."""
        return await self._guarded(msg, lambda: self._apply(msg, command))

    async def _apply(self, msg: Incoming, command: Command | None) -> Reply:
        """Load, apply, persist and render in one unit of work; ``command`` None means: parse the text.

        There is no duplicate check up front: a message applied before fails on the log's unique
        message id at the end (or is refused by the moved-on game), and :meth:`_guarded` then answers
        from the log. That keeps the common path to one read of the game and one write.
        """
        async with self.store.unit_of_work() as uow:
            channel = await uow.channels.state(msg.guild, msg.channel)
            record, settings = channel.game, channel.settings
            if record is None and command is None:
                # Chit-chat — or the redelivery of the move that ended the game: answer that as before.
                earlier = await uow.log.find(msg.message_id)
                return Reply.nothing() if earlier is None else Reply.from_log(earlier.reply)
            if record is None:
                raise _Refused(IllegalCommand("no_open_game"), None, settings.language)
            game = GAMES[record.kind]
            lang = settings.language or game.language
            state = game.load(record.snapshot)
            if msg.expected_version is not None and msg.expected_version != record.version:
                raise _Refused(IllegalCommand("outdated_choice"), record, lang, state=state)
            if command is None:
                try:
                    command = game.parse(msg.text)
                except CroupierError as error:
                    raise _Refused(error, record, lang, state=state) from None
                if command is None:
                    return Reply.nothing()
            if command.moderator_only and not msg.is_moderator:
                raise _Refused(IllegalCommand("not_moderator"), record, lang)
            dice = dice_mod.RecordingDice(self._dice_for(record))
            try:
                new_state, events = game.apply(state, msg.author, command, dice)
            except CroupierError as error:
                raise _Refused(error, record, lang, state=state) from None
            now = self.clock()
            finished = game.finished(new_state)
            to_act = game.to_act(new_state)
            deadline = self._deadline(record, to_act, settings.turn_timeout_seconds, now, finished)
            seats = game.table(new_state)
            reply = self.replier.game_reply(
                game,
                record,
                new_state,
                events,
                lang,
                revealed_seed=record.seed if finished and self.verifiable else None,
                before=state,
            )
            await uow.games.save_and_log(
                GameSave(
                    record.id,
                    expected_version=record.version,
                    snapshot=game.dump(new_state),
                    dice_used=record.dice_used + len(dice.faces),
                    to_act=to_act,
                    turn_deadline=deadline,
                    participants=seats,
                    status="closed" if finished else "open",
                    closed_at=now if finished else None,
                ),
                NewLogEntry(
                    message_id=msg.message_id,
                    game_id=record.id,
                    channel=msg.channel,
                    actor=msg.author,
                    text=msg.text or _describe(command),
                    command={"type": type(command).__name__, **_fields(command)},
                    events=[event.to_json() for event in events],
                    dice=list(dice.faces),
                    dice_from=record.dice_used,
                    reply=reply.to_log(),
                    now=now,
                ),
            )
            await uow.commit()
            return reply

    # ------------------------------------------------------------------ moderator actions

    async def new_tournament(self, msg: Incoming, name: str, scoring: str = "sum") -> Reply:
        """Start a new tournament in the channel; later games and standings belong to it."""
        clean = " ".join(name.split())[:80]

        def check() -> None:
            if scoring not in ("sum", "placement"):
                raise InvalidCommand("unknown_scoring", scoring=scoring, valid=["sum", "placement"])
            if not clean:
                raise InvalidCommand("tournament_name_missing")

        async def act(uow: UnitOfWork, lang: str) -> tuple[Reply, int | None, dict[str, Any]]:
            if await uow.games.open_in(msg.channel) is not None:
                raise _Refused(IllegalCommand("game_still_open"), None, lang)
            tournament = await uow.tournaments.create(
                guild=msg.guild, channel=msg.channel, name=clean, scoring=scoring, now=self.clock()
            )
            reply = self.replier.simple(
                "tournament_started", {"name": tournament.name, "scoring": scoring}, lang
            )
            return reply, None, {"type": "NewTournament", "name": clean, "scoring": scoring}

        return await self._moderator_action(msg, check, act)

    async def open_game(self, msg: Incoming, kind: str, options: Mapping[str, Any]) -> Reply:
        """Open a Durchgang / Killer game in the channel and publish its dice commitment."""
        opened: list[tuple[Game[Any], Any]] = []

        def check() -> None:
            game = game_named(kind)
            opened.append((game, game.open(options)))

        async def act(uow: UnitOfWork, lang: str) -> tuple[Reply, int | None, dict[str, Any]]:
            game, state = opened[-1]
            channel = await uow.channels.state(msg.guild, msg.channel)
            lang = channel.settings.language or game.language
            if channel.game is not None:
                raise _Refused(IllegalCommand("game_already_open"), None, lang)
            tournament = await self._current_tournament(uow, msg)
            seed = self._new_seed(msg.channel, tournament.id, await uow.games.count_in(tournament.id) + 1)
            try:
                record = await uow.games.create(
                    tournament_id=tournament.id,
                    channel=msg.channel,
                    kind=game.name,
                    options=dict(options),
                    seed=seed,
                    commitment=dice_mod.commitment(seed),
                    snapshot=game.dump(state),
                    to_act=game.to_act(state),
                    now=self.clock(),
                )
            except GameAlreadyOpen:
                raise _Refused(IllegalCommand("game_already_open"), None, lang) from None
            reply = self.replier.opened(game, record, tournament, state, lang, self.verifiable)
            return reply, record.id, {"type": "Open", "game": game.name, "options": dict(options)}

        return await self._moderator_action(msg, check, act)

    async def _moderator_action(
        self,
        msg: Incoming,
        check: Callable[[], None],
        act: Callable[[UnitOfWork, str], Awaitable[tuple[Reply, int | None, dict[str, Any]]]],
    ) -> Reply:
        """The frame every moderator action shares: the right, the validation, exactly-once, one
        logged transaction. ``check`` validates without the store; ``act`` changes the store and
        returns the reply, the game it concerns and the command to log."""

        async def run() -> Reply:
            lang = await self._lang(msg)
            if not msg.is_moderator:
                raise _Refused(IllegalCommand("not_moderator"), None, lang)
            try:
                check()
            except CroupierError as error:
                raise _Refused(error, None, lang) from None
            async with self.store.unit_of_work() as uow:
                earlier = await uow.log.find(msg.message_id)
                if earlier is not None:
                    return Reply.from_log(earlier.reply)
                reply, game_id, command = await act(uow, lang)
                await uow.log.append(
                    message_id=msg.message_id,
                    game_id=game_id,
                    channel=msg.channel,
                    actor=msg.author,
                    text=msg.text,
                    command=command,
                    reply=reply.to_log(),
                    now=self.clock(),
                )
                await uow.commit()
                return reply

        return await self._guarded(msg, run)

    # ------------------------------------------------------------------ read-only views

    async def language(self, guild: str, channel: str) -> str:
        async with self.store.unit_of_work(read_only=True) as uow:
            state = await uow.channels.state(guild, channel)
        return language_of(state)

    async def open_game_view(self, channel: str) -> tuple[GameRecord, Any] | None:
        """The open game of a channel with its loaded state (for help texts and buttons)."""
        async with self.store.unit_of_work(read_only=True) as uow:
            record = await uow.games.open_in(channel)
        if record is None:
            return None
        return record, GAMES[record.kind].load(record.snapshot)

    async def apply_due_timeouts(self) -> list[tuple[GameRecord, Reply]]:
        """Apply the turn-timeout rule to every game whose deadline has passed (exactly once each)."""
        async with self.store.unit_of_work(read_only=True) as uow:
            due = await uow.games.due(self.clock())
            guilds = {}
            for record in due:
                tournament = await uow.tournaments.get(record.tournament_id)
                guilds[record.id] = tournament.guild if tournament else ""
        answered: list[tuple[GameRecord, Reply]] = []
        for record in due:
            if record.to_act is None:
                continue
            msg = Incoming(
                message_id=f"timeout:{record.id}:{record.version}",
                guild=guilds[record.id],
                channel=record.channel,
                author=record.to_act,
                author_name=record.to_act,
                is_moderator=True,
            )
            answered.append((record, await self.execute(msg, Timeout())))
        return answered

    async def standings_reply(self, msg: Incoming) -> Reply:
        """The running tournament table, for everybody."""
        table = await self.standings_table(msg.channel)
        lang = await self._lang(msg)
        if table is None:
            return self.replier.simple("no_tournament", {}, lang)
        if not table.rows:
            return self.replier.simple("no_results", {"name": table.tournament}, lang)
        return Reply(ok=True, text=to_markdown(table).rstrip(), lines=(), title=table.tournament)

    async def standings_table(self, channel: str, tournament_id: int | None = None) -> StandingsTable | None:
        """The tournament table (verflixte 6 Durchgänge), computed from the closed games."""
        async with self.store.unit_of_work(read_only=True) as uow:
            tournament = (
                await uow.tournaments.get(tournament_id)
                if tournament_id is not None
                else await uow.tournaments.current(channel)
            )
            if tournament is None:
                return None
            closed = await uow.games.closed_in(tournament.id)
        return standings_of(tournament, closed)

    async def export(self, msg: Incoming, fmt: str) -> Reply:
        """The standings in a paste-ready format; admins only."""
        lang = await self._lang(msg)
        if not msg.is_admin:
            return self.replier.refusal(IllegalCommand("not_admin"), lang, None, None)
        if fmt not in FORMATS:
            error = InvalidCommand("unknown_format", format=fmt, valid=sorted(FORMATS))
            return self.replier.refusal(error, lang, None, None)
        table = await self.standings_table(msg.channel)
        if table is None:
            return self.replier.simple("no_tournament", {}, lang)
        return Reply(ok=True, text=FORMATS[fmt](table).rstrip("\n"))

    async def verify_reply(self, msg: Incoming, game_id: int | None = None) -> Reply:
        """Re-derive the dice of closed games from their revealed seeds and compare with the log."""
        lang = await self._lang(msg)
        reports = await verify_games(self.store, game_id=game_id, channel=None if game_id else msg.channel)
        if not reports:
            return self.replier.simple("verify_none", {}, lang)
        lines = [self.replier.render(f"common.{r.key}", r.facts, lang) for r in reports]
        return Reply(ok=all(r.ok for r in reports), text="\n".join(lines), lines=tuple(lines))

    async def change_settings(self, msg: Incoming, options: Mapping[str, str]) -> Reply:
        """Per-channel settings: language, moderator role, turn timeout (moderators only)."""
        fields: dict[str, Any] = {}

        def check() -> None:
            fields.update(parse_settings(options))

        async def act(uow: UnitOfWork, lang: str) -> tuple[Reply, int | None, dict[str, Any]]:
            await uow.settings.set(msg.guild, msg.channel, **fields)
            shown = ", ".join(f"{k}={v}" for k, v in fields.items())
            reply = self.replier.simple(
                "settings_changed", {"settings": shown}, fields.get("language") or lang
            )
            return reply, None, {"type": "Settings", **fields}

        return await self._moderator_action(msg, check, act)

    async def help_reply(self, msg: Incoming, commands: Sequence[str]) -> Reply:
        lang = await self._lang(msg)
        kind = await self._open_game_kind(msg.channel)
        lines = [self.replier.render("common.help", {"commands": ", ".join(commands)}, lang)]
        if kind is not None:
            lines.append(self.replier.render("help.words", {}, lang, game=GAMES[kind]))
        return Reply(ok=True, text="\n".join(lines), lines=tuple(lines))

    async def rules_reply(self, msg: Incoming) -> Reply:
        lang = await self._lang(msg)
        kind = await self._open_game_kind(msg.channel) or "verflixte6"
        line = self.replier.render("help.rules", {}, lang, game=GAMES[kind])
        return Reply(ok=True, text=line, lines=(line,))

    async def jokers_reply(self, msg: Incoming) -> Reply:
        lang = await self._lang(msg)
        view = await self.open_game_view(msg.channel)
        enabled = joker_names(view[1]) if view is not None and view[0].kind == "verflixte6" else None
        v6 = GAMES["verflixte6"]
        lines = [
            self.replier.render(f"v6.joker_info.{key}", {}, lang, game=v6) for key in joker_keys(enabled)
        ]
        return Reply(ok=True, text="\n".join(lines), lines=tuple(lines))

    async def say_error(self, msg: Incoming, code: str, **facts: Any) -> Reply:
        lang = await self._lang(msg)
        return self.replier.refusal(InvalidCommand(code, **facts), lang, None, None)

    # ------------------------------------------------------------------ plumbing

    @property
    def verifiable(self) -> bool:
        """Dice come from the committed seed (not from a script), so commitments mean something."""
        return self.dice_factory is None

    @property
    def replier(self) -> Replier:
        return Replier(self.command_names)

    async def _guarded(self, msg: Incoming, run: Callable[[], Awaitable[Reply]]) -> Reply:
        """Serialise per channel, retry lost races, and turn refusals into replies."""
        async with self._locks.hold(msg.channel):
            for attempt in range(_MAX_ATTEMPTS):
                try:
                    return await run()
                except _Refused as refused:
                    # A redelivered message may be refused by the game it already moved on.
                    earlier = await self._earlier(msg.message_id)
                    if earlier is not None:
                        return earlier
                    return self.replier.refusal(refused.error, refused.lang, refused.record, refused.state)
                except DuplicateMessage:
                    earlier = await self._earlier(msg.message_id)
                    if earlier is not None:
                        return earlier
                    continue
                except StaleVersion:
                    # Another process applied a move first: reload and try again.
                    log.info("lost a race on channel %s (attempt %d); reloading", msg.channel, attempt + 1)
                    continue
            return self.replier.refusal(IllegalCommand("busy_try_again"), await self._lang(msg), None, None)

    async def answered(self, message_id: str) -> Reply | None:
        """The answer a message got when it was handled before (by any process), if it was."""
        return await self._earlier(message_id)

    async def _earlier(self, message_id: str) -> Reply | None:
        """The answer a message got when it was handled before, if it was."""
        async with self.store.unit_of_work(read_only=True) as uow:
            entry = await uow.log.find(message_id)
        return None if entry is None else Reply.from_log(entry.reply)

    async def _open_game_kind(self, channel: str) -> str | None:
        async with self.store.unit_of_work(read_only=True) as uow:
            record = await uow.games.open_in(channel)
        return record.kind if record else None

    async def _lang(self, msg: Incoming) -> str:
        return await self.language(msg.guild, msg.channel)

    async def _current_tournament(self, uow: Any, msg: Incoming) -> Tournament:
        tournament: Tournament | None = await uow.tournaments.current(msg.channel)
        if tournament is None:
            tournament = await uow.tournaments.create(
                guild=msg.guild, channel=msg.channel, name="Turnier", scoring="sum", now=self.clock()
            )
        return tournament

    def _dice_for(self, record: GameRecord) -> dice_mod.DiceSource:
        if self.dice_factory is not None:
            return self.dice_factory(record)
        return dice_mod.VerifiableDice(record.seed, record.id, record.dice_used)

    def _new_seed(self, channel: str, tournament_id: int, number: int) -> bytes:
        if self.seed_source is not None:
            return self.seed_source(channel, tournament_id, number)
        return secrets.token_bytes(32)

    def _deadline(
        self,
        record: GameRecord,
        to_act: str | None,
        timeout_seconds: int | None,
        now: datetime,
        finished: bool,
    ) -> datetime | None:
        if finished or to_act is None or not timeout_seconds:
            return None
        return now + timedelta(seconds=timeout_seconds)


def seed_from_text(text: str) -> Callable[[str, int, int], bytes]:
    """Deterministic Durchgang seeds for demos and tests (``--dice-seed``); never for real tournaments."""

    def derive(channel: str, tournament_id: int, number: int) -> bytes:
        message = f"{channel}:{tournament_id}:{number}".encode()
        return hmac.new(text.encode(), message, hashlib.sha256).digest()

    return derive


class _Refused(Exception):
    """Internal: a refusal leaving the unit of work (which then rolls back)."""

    def __init__(
        self, error: CroupierError, record: GameRecord | None, lang: str | None, state: Any = None
    ) -> None:
        super().__init__(error.code)
        self.error = error
        self.record = record
        self.lang = lang or "de"
        self.state = state


def _fields(command: Command) -> dict[str, Any]:
    """A command's fields as JSON values (commands are flat: strings, numbers, tuples of them)."""
    values = {spec.name: getattr(command, spec.name) for spec in fields(command)}
    return {key: list(value) if isinstance(value, tuple) else value for key, value in values.items()}


def _describe(command: Command) -> str:
    values = " ".join(str(v) for v in _fields(command).values() if v not in (None, "", []))
    return f"/{type(command).__name__.lower()}{' ' + values if values else ''}"


__all__ = ["Croupier", "Incoming", "Reply", "seed_from_text"]
