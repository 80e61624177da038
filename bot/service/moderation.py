"""Moderation: a moderator's action — a tournament, a game opened, the channel's settings
(:mod:`bot.service.actions`), a correction (:mod:`bot.service.corrections`) — checked for the right,
validated, applied and logged in one transaction, exactly once per message."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from bot.games import GAMES, language_of
from bot.replies import Reply
from bot.service.actions import Context, Done, ModeratorAction, OpenGame, Planned
from bot.service.channels import delivery_of, moderates
from bot.service.moves import Refusal
from bot.service.requests import Handlers, Incoming, Moderate
from bot.store import ChannelState, LogEntry, UnitOfWork
from engine.errors import IllegalCommand

if TYPE_CHECKING:
    from bot.service.croupier import Croupier


class _Writes:
    """A reading unit of work's answer when the plan must be made for writing after all."""


_WRITES = _Writes()


async def moderate(svc: Croupier, request: Moderate) -> Reply:
    """A moderator action's one writing unit of work (the frame around it holds the channel) — but a
    plan (an opening asked by a front end that makes threads) in a home that planned threads before
    is made in a reading unit of work, run again for writing only if it opens in place or is refused
    (:mod:`bot.service.thread_plans`)."""
    msg, action = request.msg, request.act
    planning = isinstance(action, OpenGame) and action.plan
    if planning and svc.thread_plans.plans_thread((msg.guild, msg.home)):
        work = partial(_moderate_in, svc, msg=msg, action=action, writing=False)
        planned = await svc.store.run(work, read_only=True)
        if not isinstance(planned, _Writes):
            return planned
    done = await svc.store.run(svc.riding(partial(_moderate_in, svc, msg=msg, action=action)))
    assert not isinstance(done, _Writes)  # a writing unit of work never asks for one
    if planning and done.ok and not done.duplicate:
        svc.thread_plans.saw((msg.guild, msg.home), thread=bool(done.thread_title))
    return done


HANDLERS: Handlers = {Moderate: moderate}


def _moderate_in(
    svc: Croupier, uow: UnitOfWork, *, msg: Incoming, action: ModeratorAction, writing: bool = True
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
        return svc.refuse(uow, msg, svc.narrator.refusal(refusal.error, lang, game=refusal.about))
    earlier = uow.log.find(msg.message_id)
    if earlier is not None:
        return Reply.from_log(earlier.reply)
    ctx = _context(svc, msg, channel, lang)
    if not writing and not (isinstance(action, OpenGame) and action.plans(ctx)):
        return _WRITES
    outcome = action.apply(uow, ctx)
    if isinstance(outcome, Planned):  # nothing was written: there is nothing to commit or log
        return outcome.reply
    if isinstance(outcome, Refusal):
        if not writing:
            return _WRITES
        uow.rollback()
        return svc.refuse(uow, msg, svc.narrator.refusal(outcome.error, lang))
    entry = _log_action(svc, uow, msg, outcome)
    reply = replace(outcome.reply, log_id=entry.id, live=outcome.live)
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
