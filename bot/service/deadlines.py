"""The turn clock: a player who let the turn's time run out is timed out (the game's own rule,
applied as a move, once per game version across processes), and a player whose deadline is near is
reminded (once per deadline)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from bot.replies import Reply
from bot.service import forum
from bot.service.requests import Handlers, Incoming, Move, Remind, Tick
from engine.game import Timeout

if TYPE_CHECKING:
    from bot.service.croupier import Croupier


async def tick(svc: Croupier, request: Tick) -> list[tuple[str, Reply]]:
    """Apply the turn-timeout rule to every game whose deadline has passed — only in ``guilds`` when
    given: those the front end serves and has caught up with, so no player times out whose move
    another process has not read yet. Each is a move in the frame of its channel."""
    due = await svc.store.run(lambda uow: uow.forum.overdue(svc.clock()), read_only=True)
    answered: list[tuple[str, Reply]] = []
    for game in due:
        if request.guilds is not None and game.guild not in request.guilds:
            continue
        msg = Incoming(
            message_id=f"timeout:{game.game_id}:{game.version}",
            guild=game.guild,
            channel=game.channel,
            parent=game.home if game.home != game.channel else "",
            author=game.to_act,
            author_name=game.to_act,
            is_moderator=True,
            tracked=request.tracked,
        )
        answered.append((game.channel, await svc.handle(Move(msg, Timeout()))))
    return answered


async def remind(svc: Croupier, request: Remind) -> list[forum.Reminder]:
    """Remind each player to act whose deadline is near (once per deadline, across processes)."""
    due = partial(forum.reminder_due, now=svc.clock(), guilds=request.guilds)
    if not await svc.store.run(due, read_only=True):
        return []  # the usual round: one read, no write lock
    return await svc.store.run(
        svc.riding(
            lambda uow: forum.reminders_in(uow, svc.narrator, svc.clock(), svc.verifiable, request.guilds)
        )
    )


HANDLERS: Handlers = {Tick: tick, Remind: remind}
