"""Questions: the standings, the tournaments, an export, a verification, help, rules, a game's topic,
the corrections, suggestions while typing, a replay's final state. Each reads the channel (and what
it asks about) once and writes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot import markup
from bot.exports import FORMATS, StandingsTable, to_markdown
from bot.games import DEFAULT_LANGUAGE, GAMES, language_of
from bot.replies import Attachment, Reply
from bot.service import topics
from bot.service.corrections import audit_in, audit_lines, corrections_reply
from bot.service.requests import (
    AuditOf,
    Corrections,
    Defaults,
    Export,
    FinalState,
    Handlers,
    Help,
    Info,
    Refuse,
    Rules,
    Standings,
    Suggest,
    TableOf,
    Tournaments,
    Verify,
    VerifyAll,
)
from bot.service.standings import standings_of
from bot.service.suggestions import Suggestion, suggestions_in
from bot.service.suggestions import options as suggested_options
from bot.service.verify import Report, verify_in
from bot.store import ChannelDefaults, ChannelState, GameRecord, Tournament, UnitOfWork
from engine.errors import IllegalCommand, InvalidCommand
from engine.game import Game
from engine.numbers import ID_MAX, whole_number

if TYPE_CHECKING:
    from bot.service.croupier import Croupier


async def standings(svc: Croupier, request: Standings) -> Reply:
    """The running tournament table, for everybody."""
    msg = request.msg

    def read(uow: UnitOfWork) -> tuple[str, StandingsTable | None]:
        lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
        return lang, _standings(svc, uow, msg.home, lang=lang)

    lang, table = await svc.store.run(read, read_only=True)
    if table is None:
        return svc.narrator.simple("common.no_tournament", {}, lang)
    if not table.rows:
        return svc.narrator.simple("common.no_results", {"name": table.tournament}, lang)
    lines = tuple(markup.escaped(line) for line in to_markdown(table).rstrip().splitlines())
    title = markup.typed(table.tournament)
    return Reply(ok=True, lines=lines, title=title, language=lang, standings=table)


async def tournaments(svc: Croupier, request: Tournaments) -> Reply:
    """The channel's tournaments with their ids and dates (an id is what ``croupier export
    --tournament`` and the web page take), newest last."""
    msg = request.msg

    def read(uow: UnitOfWork) -> tuple[str, list[tuple[Tournament, int]]]:
        lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
        return lang, [(t, uow.games.count_in(t.id)) for t in uow.tournaments.list(msg.home)]

    lang, found = await svc.store.run(read, read_only=True)
    if not found:
        return svc.narrator.simple("common.no_tournament", {}, lang)
    lines = [svc.narrator.line("common.tournaments", {}, lang)]
    for tournament, games in found:
        facts = {"id": tournament.id, "name": tournament.name, "games": games}
        lines.append(
            svc.narrator.line(
                "common.tournament_entry", {**facts, "date": f"{tournament.created_at:%Y-%m-%d}"}, lang
            )
        )
    return Reply(ok=True, lines=tuple(lines), language=lang)


async def export(svc: Croupier, request: Export) -> Reply:
    """The standings as a paste-ready file; admins only."""
    msg, fmt = request.msg, request.format

    def read(uow: UnitOfWork) -> tuple[str, StandingsTable | None]:
        lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
        return lang, _standings(svc, uow, msg.home, lang=lang)

    if not msg.is_admin or fmt not in FORMATS:
        lang = language_of(await svc.channel(msg))
        if not msg.is_admin:
            return svc.narrator.refusal(IllegalCommand("not_admin"), lang)
        error = InvalidCommand("unknown_format", format=fmt, valid=sorted(FORMATS))
        return svc.narrator.refusal(error, lang)
    lang, table = await svc.store.run(read, read_only=True)
    if table is None:
        return svc.narrator.simple("common.no_tournament", {}, lang)
    text = FORMATS[fmt](table).rstrip("\n")
    note = svc.narrator.line("discord.export_ready", {"name": table.tournament, "format": fmt}, lang)
    return Reply(
        ok=True,
        lines=tuple(markup.escaped(line) for line in text.splitlines()),
        title=note,
        language=lang,
        attachment=Attachment(table.tournament, fmt, text),
        private=True,
    )


async def verify(svc: Croupier, request: Verify) -> Reply:
    """Re-derive the dice of closed games from their revealed seeds and compare with the log."""
    msg, game_id = request.msg, request.game_id

    def read(uow: UnitOfWork) -> tuple[str, list[Report], GameRecord | None]:
        lang = language_of(uow.channels.state(msg.guild, msg.channel, msg.home))
        reports = verify_in(uow, game_id, guild=msg.guild, home=msg.home)
        running = _running(uow, game_id, msg.guild) if not reports and game_id is not None else None
        return lang, reports, running

    lang, reports, running = await svc.store.run(read, read_only=True)
    if running is not None and running.kind in GAMES:  # its seed is still secret
        game = GAMES[running.kind]
        title = svc.narrator.line("game.round", {"number": running.number}, lang, game=game)
        return svc.narrator.refusal(IllegalCommand("verify_game_open", id=running.id, title=title), lang)
    if not reports and game_id is not None:  # not this server's, or no such game
        return svc.narrator.refusal(InvalidCommand("verify_unknown_game", id=game_id), lang)
    if not reports:
        return svc.narrator.simple("common.verify_none", {}, lang)
    lines = tuple(report_line(svc, report, lang) for report in reports)
    return Reply(ok=all(r.ok for r in reports), lines=lines, language=lang)


async def help_(svc: Croupier, request: Help) -> Reply:
    """The commands of this front end — those of topics the open game has not left out (no /joker wählen
    in a Killer game) — and the words of the open game."""
    msg = request.msg
    channel = await svc.channel(msg)
    lang = language_of(channel)
    game = _game_of(svc, channel)
    listing = markup.listing(None if game is None else [topic.name for topic in game.topics])
    lines = [svc.narrator.line("common.help", {"commands": listing}, lang)]
    if game is not None:
        lines.append(svc.narrator.line("help.words", {}, lang, game=game))
    return Reply(ok=True, lines=tuple(lines), language=lang)


async def rules(svc: Croupier, request: Rules) -> Reply:
    """A summary of the open game's rules (between games the last one's; at first the default game's)."""
    msg = request.msg
    channel = await svc.channel(msg)
    lang = language_of(channel)
    last = channel.last_kind
    game = _game_of(svc, channel) or (GAMES[last] if last is not None and last in GAMES else GAMES.default)
    return Reply(ok=True, lines=(svc.narrator.line("help.rules", {}, lang, game=game),), language=lang)


async def info(svc: Croupier, request: Info) -> Reply:
    """The channel's game's topic (``/info odds``), or the list of its topics (:mod:`.topics`)."""
    msg, topic = request.msg, request.topic
    where = (msg.guild, msg.channel, msg.home)
    return await svc.store.run(lambda uow: topics.answer_in(uow, svc.narrator, *where, topic), read_only=True)


async def refuse(svc: Croupier, request: Refuse) -> Reply:
    """A refusal the front end found (an unknown command, a malformed line), in the channel's language."""
    msg, code, facts = request.msg, request.code, request.facts
    lang = language_of(await svc.channel(msg))
    return svc.narrator.refusal(InvalidCommand(code, **dict(facts)), lang)


async def corrections(svc: Croupier, request: Corrections) -> Reply:
    """Every correction of the current tournament — when, who, what, why — for everybody."""
    msg = request.msg
    return await svc.store.run(
        lambda uow: corrections_reply(uow, svc.narrator, msg.guild, msg.channel, msg.home),
        read_only=True,
    )


async def suggest(svc: Croupier, request: Suggest) -> list[Suggestion]:
    """Choices for an option being typed (Discord's autocomplete), in the channel's language: the
    open game's seated players (``players``), the options of the game ``kind`` (``options``), the
    channel's game's topics (``topics``), or what the open game offers for ``what`` (``Game.suggest``;
    none where it offers nothing). Reads only."""
    msg, what, typed, kind = request.msg, request.what, request.typed, request.kind
    if what == "options":
        return suggested_options(kind, typed)
    if what == "topics":
        where = (msg.guild, msg.channel, msg.home)
        return await svc.store.run(
            lambda uow: topics.suggestions_in(uow, svc.narrator, *where, typed), read_only=True
        )
    return await svc.store.run(
        lambda uow: suggestions_in(uow, svc.narrator, msg.guild, msg.channel, msg.home, what, typed),
        read_only=True,
    )


async def table_of(svc: Croupier, request: TableOf) -> StandingsTable | None:
    """A tournament's table (``croupier export``): the channel's current one, or the tournament
    given by id or by name; in the language set for its channel. LookupError for a name that
    several tournaments carry (the message lists their ids)."""
    channel, tournament = request.channel, request.tournament

    def read(uow: UnitOfWork) -> StandingsTable | None:
        found = _tournament_named(uow, channel, tournament)
        if found is None:
            return None
        settings = uow.settings.get(found.guild, found.channel)
        return _standings(svc, uow, found.channel, found.id, settings.language or DEFAULT_LANGUAGE)

    return await svc.store.run(read, read_only=True)


async def final_state(svc: Croupier, request: FinalState) -> tuple[dict[str, Any], int] | None:
    """A game's replay summary and the dice it used (``croupier replay``)."""
    channel, game_id = request.channel, request.game_id
    record = await svc.store.run(lambda uow: uow.games.get(game_id), read_only=True)
    if record is None or record.channel != channel or record.kind not in GAMES:
        return None
    game = GAMES[record.kind]
    return game.summary(game.load(record.snapshot)), record.dice_used


def _standings(
    svc: Croupier, uow: UnitOfWork, channel: str, tournament_id: int | None = None, lang: str = "de"
) -> StandingsTable | None:
    tournament = (
        uow.tournaments.get(tournament_id) if tournament_id is not None else uow.tournaments.current(channel)
    )
    if tournament is None:
        return None
    corrections = uow.corrections.of_tournament(tournament.id)
    return standings_of(tournament, uow.games.closed_in(tournament.id), corrections, lang)


def report_line(svc: Croupier, report: Report, lang: str) -> str:
    """One game's verification, the game named as its own catalogue names it."""
    game = GAMES.get(report.kind)
    facts = {"number": report.number, **report.facts}
    title = svc.narrator.line("game.round", facts, lang, game=game) if game else str(report.number)
    return svc.narrator.line(f"common.{report.key}", {**facts, "title": title}, lang)


def _game_of(svc: Croupier, channel: ChannelState) -> Game[Any] | None:
    record = channel.game
    return GAMES.get(record.kind) if record is not None else None


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


async def verify_all(svc: Croupier, request: VerifyAll) -> list[tuple[bool, str]]:
    """Every closed game's verification (or game ``game_id``'s), one line each in English."""
    reports = await svc.store.run(lambda uow: verify_in(uow, game_id=request.game_id), read_only=True)
    return [(report.ok, report_line(svc, report, "en")) for report in reports]


async def audit(svc: Croupier, request: AuditOf) -> list[str] | None:
    """A game's whole log, voided entries with the undo that voided them (``croupier audit``)."""
    found = await svc.store.run(lambda uow: audit_in(uow, request.game_id), read_only=True)
    return None if found is None else audit_lines(found, svc.narrator)


async def defaults(svc: Croupier, request: Defaults) -> ChannelDefaults:
    return svc.store.defaults


HANDLERS: Handlers = {
    Defaults: defaults,
    Standings: standings,
    Tournaments: tournaments,
    Export: export,
    Verify: verify,
    Help: help_,
    Rules: rules,
    Info: info,
    Refuse: refuse,
    Corrections: corrections,
    Suggest: suggest,
    TableOf: table_of,
    VerifyAll: verify_all,
    AuditOf: audit,
    FinalState: final_state,
}
