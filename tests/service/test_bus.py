"""The service's one entry (issue 21): every request a front end may build has its handler, and a
request about a channel is answered in one frame — its answer handed on while the channel is still
held, so a front end queues answers in the order the moves were made."""

from __future__ import annotations

import asyncio
import inspect

from bot.replies import Reply
from bot.service import requests
from bot.service.croupier import HANDLERS, Croupier
from bot.service.requests import Help, InChannel, Line, Request, Tick
from bot.store import Store
from engine.game import Join, Start
from tests.dice import scripted
from tests.service.helpers import MODERATOR, Table


def test_every_request_a_front_end_may_build_has_its_handler() -> None:
    records = {
        value
        for value in vars(requests).values()
        if inspect.isclass(value)
        and issubclass(value, Request)
        and value not in (Request, InChannel)
        and value.__module__ == requests.__name__
    }
    assert records
    assert records - set(HANDLERS) == set()


async def test_an_answer_is_handed_on_while_its_channel_is_still_held(store: Store) -> None:
    croupier = Croupier(store=store, dice_factory=scripted([4, 5, 3, 2]))
    table = Table(croupier)
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do(MODERATOR, Start())
    held: list[tuple[str, bool, int]] = []

    def then(reply: Reply) -> None:
        # Whoever else asks about this channel now waits: the frame holds it until this returns.
        held.append((reply.text.splitlines()[0] if reply.text else "", reply.ok, len(croupier.locks)))

    first = croupier.handle(Line(table.msg("anna", "weiter")), then=then)
    second = croupier.handle(Line(table.msg("anna", "weiter")), then=then)
    replies = await asyncio.gather(first, second)
    assert [ok for _, ok, _ in held] == [reply.ok for reply in replies] == [True, True]
    assert [locks for _, _, locks in held] == [1, 1]  # the channel's lock, held (the second waited)
    assert len(croupier.locks) == 0  # and let go once answered


async def test_a_request_about_no_channel_is_answered_outside_any_frame(store: Store) -> None:
    croupier = Croupier(store=store)
    seen: list[int] = []
    assert await croupier.handle(Tick(), then=lambda answer: seen.append(len(croupier.locks))) == []
    assert seen == [0]


async def test_a_query_in_a_channel_waits_for_a_move_there(store: Store) -> None:
    """Help asked while a move is being made in the same channel is answered after it (one frame)."""
    croupier = Croupier(store=store, dice_factory=scripted([4, 5, 3, 2]))
    table = Table(croupier)
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do(MODERATOR, Start())
    order: list[str] = []
    move = croupier.handle(Line(table.msg("anna", "weiter")), then=lambda reply: order.append("move"))
    asked = croupier.handle(Help(table.msg("ben")), then=lambda reply: order.append("help"))
    await asyncio.gather(move, asked)
    assert order == ["move", "help"]
