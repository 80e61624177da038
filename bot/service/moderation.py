"""Moderation: a moderator's action — a tournament, a game opened, the channel's settings
(:mod:`bot.service.actions`), a correction (:mod:`bot.service.corrections`) — checked for the right,
validated, applied and logged in one transaction, exactly once per message."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.games import GAMES, language_of
from bot.replies import Live, Reply
from bot.service import forum
from bot.service.actions import Context, Done, ModeratorAction, OpenGame, Planned
from bot.service.channels import delivery_of, moderates
from bot.service.moves import Refusal
from bot.service.requests import Handlers, Incoming, Moderate
from bot.store import ChannelState, LogEntry, UnitOfWork
from engine.errors import IllegalCommand

if TYPE_CHECKING:
    from bot.service.croupier import Croupier


async def moderate(svc: Croupier, request: Moderate) -> Reply:
    """A moderator action's one writing unit of work (the frame around it holds the channel)."""
    msg, action = request.msg, request.act
    return await svc.store.run(svc.riding(lambda uow: _moderate_in(svc, uow, msg, action)))


HANDLERS: Handlers = {Moderate: moderate}


def _moderate_in(svc: Croupier, uow: UnitOfWork, msg: Incoming, action: ModeratorAction) -> Reply:
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
        return svc.refuse(uow, msg, svc.narrator.refusal(refusal.error, lang, game=refusal.about))
    earlier = uow.log.find(msg.message_id)
    if earlier is not None:
        return Reply.from_log(earlier.reply)
    outcome = action.apply(uow, _context(svc, msg, channel, lang))
    if isinstance(outcome, Planned):  # nothing was written: there is nothing to commit or log
        return outcome.reply
    if isinstance(outcome, Refusal):
        uow.rollback()
        return svc.refuse(uow, msg, svc.narrator.refusal(outcome.error, lang))
    entry = _log_action(svc, uow, msg, outcome)
    reply = replace(outcome.reply, log_id=entry.id, live=_live_after(svc, uow, outcome))
    uow.commit()
    if isinstance(action, OpenGame):
        svc.open_kinds.saw(msg.channel, GAMES.named(action.kind).name)
    return reply


def _context(svc: Croupier, msg: Incoming, channel: ChannelState, lang: str) -> Context:
    return Context(
        guild=msg.guild,
        where=msg.channel,
        channel=channel,
        lang=lang,
        now=svc.clock(),
        narrator=svc.narrator,
        new_seed=svc.new_seed,
        verifiable=svc.verifiable,
        actor=msg.author,
        actor_name=msg.author_name,
        message_id=msg.message_id,
        web_base_url=svc.web_base_url,
        place=msg.place,
    )


def _log_action(svc: Croupier, uow: UnitOfWork, msg: Incoming, done: Done) -> LogEntry:
    return uow.log.append(
        message_id=msg.message_id,
        game_id=done.game_id,
        channel=msg.channel,
        actor=msg.author,
        text=msg.text,
        command=done.logged,
        dice_from=done.dice_from,
        reply=done.reply.to_log(),
        now=svc.clock(),
        delivery=delivery_of(msg),
    )


def _live_after(svc: Croupier, uow: UnitOfWork, done: Done) -> Live | None:
    """The live table after a moderator action about a game (an opening, an undo)."""
    record = uow.games.get(done.game_id) if done.game_id is not None else None
    if record is None or record.live_message is None or record.kind not in GAMES:
        return None
    game = GAMES[record.kind]
    return forum.live_of(record, game, game.load(record.snapshot), svc.verifiable)
