"""Moderator actions that change a channel rather than a move in a game: a new tournament, a new game,
the channel's settings.

Each is a small object: :meth:`check` validates what was asked without the store, :meth:`apply` makes
the change in the unit of work the service opened (which logs it and commits). Both answer a
:class:`~bot.service.moves.Refusal` instead of raising when the action cannot be done.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from bot.games import GAMES, numbered_with
from bot.replies import Live, Reply
from bot.service.forum import default_tournament, live_of, thread_title, wants_thread
from bot.service.moves import Refusal
from bot.service.rendering import Narrator, Table
from bot.settings_words import described, parse_settings
from bot.store import ChannelState, GameAlreadyOpen, Tournament, UnitOfWork
from engine import dice as dice_mod
from engine.errors import CroupierError, IllegalCommand, InvalidCommand
from engine.game import Game
from engine.standings import SCORINGS

SeedSource = Callable[[str, int, int], bytes]


@dataclass(frozen=True)
class Context:
    """What an action may use besides the unit of work: who asked where, when, and how to answer."""

    guild: str
    where: str  # the channel the message was typed in: a new game lives there
    channel: ChannelState  # its settings (those of its home: a thread's parent) and open game
    lang: str
    now: datetime
    narrator: Narrator
    new_seed: SeedSource
    verifiable: bool  # dice come from the committed seed (not a script): publish the commitment
    actor: str = ""  # who asked (participant id), for the audit trail of corrections
    actor_name: str = ""
    message_id: str = ""  # the message that asked: a correction is recorded once per message id
    web_base_url: str = ""  # where the web pages are reached: /settings web=on answers with an address
    place: str = ""  # what kind of channel ``where`` is (see ``Incoming.place``)


@dataclass(frozen=True)
class Done:
    reply: Reply
    logged: dict[str, Any]  # the command as the log keeps it
    game_id: int | None = None
    dice_from: int = 0  # where the game's dice stood (an undo logs it, like a move without dice)
    live: Live | None = None  # the game's live table after the action, drawn from what it wrote


class ModeratorAction(Protocol):
    def check(self) -> Refusal | None: ...

    def apply(self, uow: UnitOfWork, ctx: Context) -> Done | Refusal | Planned: ...


@dataclass(frozen=True)
class NewTournament:
    """Start a new tournament in the channel; later games and standings belong to it."""

    name: str
    scoring: str = "sum"

    @property
    def clean_name(self) -> str:
        return " ".join(self.name.split())[:80]

    def check(self) -> Refusal | None:
        if self.scoring not in SCORINGS:
            return Refusal(InvalidCommand("unknown_scoring", scoring=self.scoring, valid=list(SCORINGS)))
        if not self.clean_name:
            return Refusal(InvalidCommand("tournament_name_missing"))
        return None

    def apply(self, uow: UnitOfWork, ctx: Context) -> Done | Refusal:
        if ctx.channel.game is not None:
            return Refusal(IllegalCommand("game_still_open"))
        settings = ctx.channel.settings
        tournament = uow.tournaments.create(
            guild=ctx.guild, channel=settings.channel, name=self.clean_name, scoring=self.scoring, now=ctx.now
        )
        facts = {"name": tournament.name, "scoring": self.scoring}
        reply = ctx.narrator.simple("common.tournament_started", facts, ctx.lang)
        return Done(reply, {"type": "NewTournament", "name": self.clean_name, "scoring": self.scoring})


@dataclass(frozen=True)
class OpenGame:
    """Open a game in the channel and publish its dice commitment.

    ``plan``: asked by a front end that makes threads — when the game wants a thread of its own
    (:func:`bot.service.forum.wants_thread`), answer :class:`Planned` with the thread's title and write
    nothing;
    the front end makes the thread and opens the game there. ``live_message``: the game has that
    thread (the channel), whose first message shows its live table. A home has at most one open game
    of each kind (one Durchgang and one Killer game may run side by side, each in its thread).
    """

    kind: str
    options: Mapping[str, Any]
    live_message: str | None = None
    plan: bool = False

    def check(self) -> Refusal | None:
        try:
            game = GAMES.named(self.kind)
        except CroupierError as error:
            return Refusal(error)
        try:
            game.open(self.options)
        except CroupierError as error:  # a bad option: the game's own catalogue explains it
            return Refusal(error, about=game)
        return None

    def plans(self, ctx: Context) -> bool:
        """Whether :meth:`apply` only plans (reads, writes nothing): the game wants a thread of its own."""
        return (
            self.plan and self.live_message is None and wants_thread(ctx.place, ctx.channel.settings.threads)
        )

    def apply(self, uow: UnitOfWork, ctx: Context) -> Done | Refusal | Planned:
        game = GAMES.named(self.kind)
        state = game.open(self.options)
        lang = ctx.channel.settings.language or game.language
        home = ctx.channel.settings.channel
        if self.plans(ctx):
            return _planned(uow, ctx, game, lang)
        if ctx.channel.game is not None:
            return Refusal(IllegalCommand("game_already_open"))
        tournament = _current_tournament(uow, ctx, lang)
        if uow.forum.open_of_kind(ctx.guild, home, game.name, lock_tournament=tournament.id) is not None:
            return Refusal(IllegalCommand("game_already_open"))
        seed = ctx.new_seed(ctx.where, tournament.id, uow.games.count_in(tournament.id) + 1)
        try:
            record = uow.games.create(
                tournament_id=tournament.id,
                channel=ctx.where,
                kind=game.name,
                options=dict(self.options),
                seed=seed,
                commitment=dice_mod.commitment(seed),
                snapshot=game.dump(state),
                to_act=game.to_act(state),
                now=ctx.now,
                live_message=self.live_message,
                numbered_with=numbered_with(game),
            )
        except GameAlreadyOpen:
            return Refusal(IllegalCommand("game_already_open"))
        table = Table(game, record.id, record.number, record.version, state)
        commitment = record.commitment if ctx.verifiable else None
        reply = ctx.narrator.opened(table, tournament.name, commitment, lang)
        if self.live_message is not None:
            title = thread_title(ctx.narrator, game, record.number, tournament.name, lang)
            reply = replace(reply, thread_title=title)
        logged = {"type": "Open", "game": game.name, "options": dict(self.options)}
        return Done(reply, logged, record.id, live=live_of(record, game, state, ctx.verifiable))


@dataclass(frozen=True)
class Planned:
    """An action that only planned (nothing written, nothing logged): the reply says what next."""

    reply: Reply


def _planned(uow: UnitOfWork, ctx: Context, game: Game[Any], lang: str) -> Planned | Refusal:
    """The plan of a game opening in a thread of its own: refused if the home has a game of its kind
    open already, else the thread's title ("Durchgang 3 · Frühjahrsturnier")."""
    home = ctx.channel.settings.channel
    if uow.forum.open_of_kind(ctx.guild, home, game.name) is not None:
        return Refusal(IllegalCommand("game_already_open"))
    tournament = uow.tournaments.current(home)
    number = (
        uow.forum.next_number(tournament.id, game.name, numbered_with(game)) if tournament is not None else 1
    )
    name = tournament.name if tournament is not None else default_tournament(ctx.narrator, lang)
    title = thread_title(ctx.narrator, game, number, name, lang)
    return Planned(Reply(ok=True, language=lang, game_kind=game.name, thread_title=title))


@dataclass(frozen=True)
class ChangeSettings:
    """Per-channel settings: language, moderator role, turn timeout, threads (``threads=on|off``), and
    the web pages (``web=on|off``)."""

    options: Mapping[str, str]

    def check(self) -> Refusal | None:
        try:
            parse_settings(self.options)
        except CroupierError as error:
            return Refusal(error)
        return None

    def apply(self, uow: UnitOfWork, ctx: Context) -> Done | Refusal:
        fields = parse_settings(self.options)
        web = fields.pop("web", None)
        listed = fields.pop("listed", None)
        settings = ctx.channel.settings
        if fields or (web is None and listed is None):
            uow.settings.set(ctx.guild, settings.channel, **fields)
        shown = described(fields)  # as typed: timeout=90, not turn_timeout_seconds=90
        lang = fields.get("language") or ctx.lang
        lines = [ctx.narrator.line("common.settings_changed", {"settings": shown}, lang)] if fields else []
        if listed is not None:
            uow.web.set_listed(ctx.guild, settings.channel, listed)
        if web is not None:
            lines += _web_switch(uow, ctx, settings.channel, web, lang)
        if listed is not None:
            lines.append(_listing(uow, ctx, settings.channel, listed, lang))
        reply = Reply(ok=True, lines=tuple(lines), language=lang)
        switches = {"web": web, "listed": listed}
        logged = {"type": "Settings", **fields} | {k: v for k, v in switches.items() if v is not None}
        return Done(reply, logged)


def _web_switch(uow: UnitOfWork, ctx: Context, channel: str, on: bool, lang: str) -> list[str]:
    """``web=on``: the channel's pages go on the web under a new unguessable address (or stay under
    the one they have), unlisted unless a moderator listed them; ``web=off``: off the web, and the
    address stops working."""
    if not on:
        uow.web.hide(ctx.guild, channel)
        return [ctx.narrator.line("web.switched_off", {}, lang)]
    token = uow.web.token(ctx.guild, channel)
    if token is None:
        token = secrets.token_urlsafe(18)
        uow.web.publish(ctx.guild, channel, token)
    url = f"{ctx.web_base_url.rstrip('/')}/t/{token}"
    # The address is the croupier's own (WEB_BASE_URL and a token), not a player's text: shown as it
    # is, so that Discord makes it a link.
    lines = [ctx.narrator.line("web.switched_on", {"url": url}, lang, literal=True)]
    if not uow.web.is_listed(ctx.guild, channel):
        lines.append(ctx.narrator.line("web.unlisted_note", {}, lang))
    return lines


def _listing(uow: UnitOfWork, ctx: Context, channel: str, listed: bool, lang: str) -> str:
    """``listed=on``: the site's start page lists the channel's tournaments (once on the web);
    ``listed=off``: only whoever has the address finds them."""
    if not listed:
        return ctx.narrator.line("web.listed_off", {}, lang)
    on_the_web = uow.web.token(ctx.guild, channel) is not None
    return ctx.narrator.line("web.listed_on" if on_the_web else "web.listed_on_later", {}, lang)


def _current_tournament(uow: UnitOfWork, ctx: Context, lang: str) -> Tournament:
    """The channel's tournament, started on the spot when it has none yet, named in the opening's
    language ("Turnier", "Tournament", "Tournoi")."""
    channel = ctx.channel.settings.channel
    tournament = uow.tournaments.current(channel)
    if tournament is None:
        name = default_tournament(ctx.narrator, lang)
        tournament = uow.tournaments.create(
            guild=ctx.guild, channel=channel, name=name, scoring="sum", now=ctx.now
        )
    return tournament
