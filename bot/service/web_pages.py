"""The web pages' questions: each answered by the read model of :mod:`bot.service.pages`, one
read-only unit of work apiece, outside any channel's frame (a page changes nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.fairness import Fairness
from bot.service.pages import GamePage, LiveGame, TournamentLink, TournamentPage
from bot.service.requests import (
    Handlers,
    StoreAddress,
    WebGame,
    WebIndex,
    WebLive,
    WebStats,
    WebTournament,
)
from bot.store import Tournament

if TYPE_CHECKING:
    from bot.service.croupier import Croupier


async def index(svc: Croupier, request: WebIndex) -> tuple[TournamentLink, ...]:
    return await svc.pages.index()


async def tournament(svc: Croupier, request: WebTournament) -> TournamentPage | None:
    return await svc.pages.tournament(request.token, request.tournament_id)


async def game(svc: Croupier, request: WebGame) -> GamePage | None:
    return await svc.pages.game(request.token, request.game_id)


async def live(svc: Croupier, request: WebLive) -> LiveGame | None:
    return await svc.pages.live(request.token, request.game_id, request.after)


async def stats(svc: Croupier, request: WebStats) -> tuple[str, Tournament, Fairness] | None:
    return await svc.pages.stats(request.channel, request.tournament_id)


async def store_address(svc: Croupier, request: StoreAddress) -> str:
    return svc.store.url


HANDLERS: Handlers = {
    WebIndex: index,
    WebTournament: tournament,
    WebGame: game,
    WebLive: live,
    WebStats: stats,
    StoreAddress: store_address,
}
