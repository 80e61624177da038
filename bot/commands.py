"""The commands of ``croupier`` (:mod:`bot.cli` is its entry point, and lists them).

Every failure a user can cause (bad file, unreachable database, missing token) ends with one clear
line on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TextIO

from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot.observability.logs import JsonFormatter
from bot.redaction import RedactingFormatter
from bot.settings import Settings, get_settings, settings_problem
from bot.store import BadDatabaseURL, SchemaNotCurrent, Store, StoreUnavailable, store_url
from bot.urls import mask_url, mask_urls_in
from bot.web.errors import CannotServe
from engine.numbers import ID_MAX, whole_number

BANNER = """Croupier — console channel ({db})
Type lines as  NAME: TEXT.  The moderator here is "{mod}". Try:
  {mod}: /open verflixte6        anna: /join        ben: /join
  anna: Joker: Rattenlord, ALL IN        anna: weiter        anna: stopp
  {mod}: /close        {mod}: /standings        {mod}: /export bbcode        {mod}: /verify
/help lists every command; Ctrl-D ends the session (everything is saved)."""
WEB_BANNER = "\nThe tournament pages are on {url}/ — {mod}: /settings web=on puts this channel there."


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="croupier", description="The dice croupier for forum tournaments.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_db(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--db", metavar="URL", help="database URL (default: DATABASE_URL, else ./data SQLite)")
        return p

    with_db(sub.add_parser("start", help="console and web pages without a Discord token, the bot with one"))
    with_db(sub.add_parser("run", help="start the Discord bot"))

    console = with_db(sub.add_parser("console", help="play in the terminal"))
    console.add_argument(
        "--moderator",
        action="append",
        default=[],
        metavar="NAME",
        help="lines typed as NAME: may open, close and correct games (repeat for several; default: none)",
    )
    console.add_argument(
        "--admin",
        action="append",
        default=[],
        metavar="NAME",
        help="lines typed as NAME: may export the standings (repeat for several; default: none)",
    )
    console.add_argument("--dice-seed", metavar="TEXT", help="derive the seeds from TEXT (demos, tests)")
    console.add_argument("--json", action="store_true", help="one JSON object per input line")

    replay = sub.add_parser("replay", help="play a JSON script and print the final state")
    replay.add_argument("script", help="the script file, or - for stdin")

    export = with_db(sub.add_parser("export", help="print the standings"))
    export.add_argument("--format", default="markdown", choices=["csv", "json", "markdown", "bbcode"])
    export.add_argument(
        "--tournament", metavar="ID|NAME", help="a tournament by id or name (default: current)"
    )
    export.add_argument("--channel", default="console", help="whose current tournament (default: console)")

    verify = with_db(sub.add_parser("verify", help="re-derive the dice of closed games"))
    verify.add_argument("--durchgang", type=_database_id, metavar="ID", help="one game only")

    audit = with_db(sub.add_parser("audit", help="print a game's log, undone moves marked"))
    audit.add_argument(
        "--game", type=_database_id, required=True, metavar="ID", help="the game id (as verify shows it)"
    )

    with_db(sub.add_parser("migrate", help="upgrade the database schema to head"))
    with_db(
        sub.add_parser(
            "healthcheck",
            help="exit 0 when the running croupier is ready (HEALTH_PORT), else when the database is usable",
        )
    )

    web = with_db(sub.add_parser("web", help="serve the tournament web pages"))
    web.add_argument("--host", help="address to listen on (default: WEB_HOST, else 127.0.0.1)")
    web.add_argument("--port", type=_port, help="port (default: WEB_PORT, else 8080)")
    stats = with_db(sub.add_parser("stats", help="fairness of the dice: faces, χ² test, luck per player"))
    stats.add_argument("--tournament", type=_database_id, metavar="ID")
    stats.add_argument("--channel", default="console", help="whose current tournament (default: console)")
    stats.add_argument("--json", action="store_true", help="one JSON object")

    odds = sub.add_parser("odds", help="exact Killer odds for N dice")
    odds.add_argument("--dice", default="5", metavar="N", help="number of dice, 3 to 10 (default 5)")
    odds.add_argument("--json", action="store_true", help="one JSON object with exact fractions")
    odds.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="say how far it is on stderr (default: when stderr is a terminal)",
    )
    return parser


def _database_id(text: str) -> int:
    """A game's or tournament's id as argparse takes it: ASCII digits within the column's range."""
    value = whole_number(text, ID_MAX)
    if value is None:
        raise argparse.ArgumentTypeError(f"not an id: {text!r} (a whole number up to {ID_MAX})")
    return value


def _port(text: str) -> int:
    value = whole_number(text, 65535)
    if value is None:
        raise argparse.ArgumentTypeError(f"not a port: {text!r} (a whole number up to 65535)")
    return value


def started() -> None:
    """The command has started: what it built so far stays out of the cyclic garbage collector's sight
    (``gc.freeze``) and collection resumes (it was paused by :func:`bot.cli.main`)."""
    gc.freeze()
    gc.enable()


# Commands that call started() themselves once they are ready: the console, when its games are loaded.
STARTS_ITSELF = frozenset({"console", "start"})


def run(argv: Sequence[str] | None = None) -> int:
    """Run one command (``argv``, else the process's arguments); its exit code."""
    args = _parser().parse_args(argv)
    try:
        settings = get_settings()
    except (ValidationError, SettingsError) as error:
        return _fail(settings_problem(error), 2)
    except UnicodeDecodeError as error:  # environment variables are text already: it is the file
        return _fail(f"cannot read .env: not UTF-8 text (byte {error.start}); save it as UTF-8", 2)
    configure_logging(settings, events=_logs_events(args.command, settings))
    if args.command != "migrate":
        # The automatic first migration of a new SQLite file is routine, not news.
        logging.getLogger("alembic").setLevel(logging.WARNING)
    handler = _COMMANDS[args.command]
    if args.command not in STARTS_ITSELF:
        started()
    try:
        if "db" in vars(args):
            store_url(_db_url(args))  # a URL the store cannot use is refused before anything starts
        code = handler(args)
        sys.stdout.flush()  # here, where a reader that went away (``| head``) is caught below
        return code
    except BrokenPipeError:
        return _reader_gone()
    except BadDatabaseURL as error:
        return _fail(str(error), 2)
    except (StoreUnavailable, SchemaNotCurrent, CannotServe) as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        return 130


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(settings: Settings, *, events: bool = True) -> None:
    """Log to stderr at LOG_LEVEL — as text, or one JSON object per line (LOG_FORMAT=json) — every
    line without secrets (the token, passwords, interaction tokens) and without discord.py's routine
    notes (see :class:`RoutineNotes`). ``events``: a line per request the service settled
    (:mod:`bot.observability.requests`) at INFO; else only from LOG_LEVEL=DEBUG."""
    token = settings.discord_token.get_secret_value() if settings.discord_token is not None else ""
    handler = logging.StreamHandler()
    formatter: logging.Formatter
    if settings.log_format == "json":
        formatter = JsonFormatter(secrets=[token.strip()])
    else:
        formatter = RedactingFormatter(LOG_FORMAT, secrets=[token.strip()])
    handler.setFormatter(formatter)
    handler.addFilter(RoutineNotes(verbose=settings.log_level_number <= logging.DEBUG))
    logging.basicConfig(level=settings.log_level.upper(), handlers=[handler])
    quiet = not events and settings.log_level_number > logging.DEBUG
    logging.getLogger("croupier.events").setLevel(logging.WARNING if quiet else logging.NOTSET)


def _logs_events(command: str, settings: Settings) -> bool:
    """Whether a line per request is logged at INFO: by the bot, which runs for weeks with nobody
    watching; not by the console (its terminal is the players' screen) nor by a one-off command such
    as ``replay`` (its output is the answer) — unless JSON logs were asked for."""
    bot = command == "run" or (command == "start" and settings.discord_token is not None)
    return bot or settings.log_format == "json"


class RoutineNotes(logging.Filter):
    """Drops what discord.py says on every start: that voice needs PyNaCl and davey (the croupier has
    no voice) and that it logs in with a token (the croupier's own "logged in as …" follows). A start
    that fails then shows its one reason alone; LOG_LEVEL=DEBUG keeps them."""

    NOTES = ("voice will NOT be supported", "logging in using static token")

    def __init__(self, *, verbose: bool = False) -> None:
        super().__init__()
        self.verbose = verbose

    def filter(self, record: logging.LogRecord) -> bool:
        if self.verbose or not record.name.startswith("discord."):
            return True
        return not any(note in str(record.msg) for note in self.NOTES)


SIGPIPE_EXIT = 128 + 13  # what a shell reports for a process that SIGPIPE ended, as `cat | head` does


def _reader_gone() -> int:
    """The reader of stdout went away (``croupier stats --json | head``): stop quietly, as other command
    line tools do. Python ignores SIGPIPE, so the write raised instead; stdout now points at the null
    device, or the interpreter's last flush at exit would fail once more."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.stdout.fileno())
    finally:
        os.close(null)
    return SIGPIPE_EXIT


def _fail(message: str, code: int = 1, stream: TextIO | None = None) -> int:
    """One line on stderr; any URL in it is shown with its password masked."""
    print(f"croupier: {mask_urls_in(message)}", file=stream or sys.stderr)
    return code


def _db_url(args: argparse.Namespace) -> str:
    """The database URL to use, password and all (never print it: see :func:`mask_url`)."""
    return args.db or get_settings().database_url.get_secret_value()


def _with_store(args: argparse.Namespace, body: Callable[[Store], Awaitable[int]]) -> int:
    async def go() -> int:
        store = await Store.open(_db_url(args))
        try:
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(go())


def _start(args: argparse.Namespace) -> int:
    """``make run``: without a Discord token the console, with the web pages beside it on WEB_HOST:
    WEB_PORT (by default 127.0.0.1:8080), so the address ``/settings web=on`` answers is served."""
    settings = get_settings()
    if settings.discord_token is None:
        args.moderator, args.admin, args.dice_seed, args.json = ["mod"], ["mod"], None, False
        return _console(args, banner=True, web_by_default=True)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    started()  # (from ``croupier start``) the bot collects from here on
    settings = get_settings()
    problem = settings.token_problem()
    if problem is not None:
        return _fail(problem)
    from bot.discord.runner import run_bot
    from bot.web.commands import site_beside

    with site_beside(settings, _db_url(args)):
        return int(run_bot(settings, _db_url(args)))


def _console(args: argparse.Namespace, banner: bool = False, web_by_default: bool = False) -> int:
    from bot.console.terminal import Console, run_console
    from bot.games import GAMES
    from bot.observability.endpoint import serving
    from bot.observability.health import Health, StoreHealth
    from bot.service.croupier import Croupier, seed_from_text
    from bot.web.commands import site_beside_console

    settings = get_settings()

    async def body(store: Store) -> int:
        croupier = Croupier(
            store=store,
            seed_source=seed_from_text(args.dice_seed) if args.dice_seed else None,
            web_base_url=settings.public_web_url,
            boards=False,  # the console prints the story and the table, never a board
        )
        console = Console(croupier, moderators=frozenset(args.moderator), admins=frozenset(args.admin))
        GAMES.load()  # at start, as the bot's slash commands load them: the first line waits for nothing
        started()
        text = (
            BANNER.format(db=mask_url(_db_url(args)), mod=(args.moderator or ["mod"])[0]) if banner else None
        )
        health = Health()
        health.add("store", StoreHealth(store))
        async with (
            serving(health, settings.health_host, settings.health_port),
            site_beside_console(settings, _db_url(args), by_default=web_by_default) as site,
        ):
            if site is not None and text is not None:
                text += WEB_BANNER.format(url=settings.public_web_url, mod=(args.moderator or ["mod"])[0])
            return await run_console(console, as_json=args.json, banner=text)

    return _with_store(args, body)


def _web(args: argparse.Namespace) -> int:
    from bot.web.commands import serve_command

    return serve_command(get_settings(), _db_url(args), args.host, args.port)


def _stats(args: argparse.Namespace) -> int:
    from bot.web.commands import stats_command

    return _with_store(args, lambda store: stats_command(store, args.channel, args.tournament, args.json))


def _replay(args: argparse.Namespace) -> int:
    from bot.console.replay import ScriptError, dumps, load_script, read_script, run

    try:
        raw = read_script(getattr(sys.stdin, "buffer", sys.stdin) if args.script == "-" else args.script)
    except ScriptError as error:
        return _fail(f"cannot read {args.script}: {error}", error.exit_code)
    try:
        result = asyncio.run(run(load_script(raw)))
    except ScriptError as error:
        return _fail(str(error), error.exit_code)
    print(dumps(result))
    return 0


def _export(args: argparse.Namespace) -> int:
    from bot.exports import FORMATS
    from bot.service.croupier import Croupier
    from bot.service.requests import TableOf

    async def body(store: Store) -> int:
        try:
            table = await Croupier(store=store).handle(TableOf(args.channel, args.tournament))
        except LookupError as error:
            return _fail(str(error.args[0]))
        if table is None:
            return _fail(
                f"no tournament {args.tournament!r}" if args.tournament else "no tournament here yet"
            )
        sys.stdout.write(FORMATS[args.format](table))
        return 0

    return _with_store(args, body)


def _verify(args: argparse.Namespace) -> int:
    from bot.markup import plain
    from bot.service.croupier import Croupier
    from bot.service.requests import VerifyAll
    from bot.texts import render

    async def body(store: Store) -> int:
        reports = await Croupier(store=store).handle(VerifyAll(args.durchgang))
        if not reports and args.durchgang is not None:
            return _fail(f"no closed game with id {args.durchgang} (an open game's seed is still secret)")
        if not reports:
            print(render("common.verify_none", {}, "en"))
            return 0
        for _, line in reports:
            print(plain(line))  # the line names the game's id; the service's markup spelled plainly
        return 0 if all(ok for ok, _ in reports) else 1

    return _with_store(args, body)


def _audit(args: argparse.Namespace) -> int:
    from bot.markup import plain
    from bot.service.croupier import Croupier
    from bot.service.requests import AuditOf
    from bot.texts import render

    async def body(store: Store) -> int:
        lines = await Croupier(store=store).handle(AuditOf(args.game))
        if lines is None:
            return _fail(render("common.audit_unknown_game", {"id": args.game}, "en"))
        print("\n".join(plain(line) for line in lines))
        return 0

    return _with_store(args, body)


def _migrate(args: argparse.Namespace) -> int:
    from bot.store.errors import MigrationFailed
    from bot.store.migrate import upgrade

    url = _db_url(args)
    try:
        upgrade(url)
    except MigrationFailed as error:
        return _fail(str(error))
    print(f"croupier: {mask_url(url)} is at the newest schema revision")
    return 0


def _healthcheck(args: argparse.Namespace) -> int:
    """Ask the running croupier (HEALTH_PORT); when none answers there, or without HEALTH_PORT, check
    that the database answers and is migrated (see :mod:`bot.observability.probe`)."""
    from bot.observability.probe import ask

    url = get_settings().health_url
    if url is not None:
        asked = ask(url)
        if not asked.absent:
            return 0 if asked.ready else _fail(asked.problem)

    async def body(store: Store) -> int:
        if url is not None:
            print(f"croupier: no croupier answers on {url}; the database answers and is migrated")
        return 0

    return _with_store(args, body)


def _odds(args: argparse.Namespace) -> int:
    from bot.console.odds_report import main as odds_main

    shown = [] if args.progress is None else ["--progress" if args.progress else "--no-progress"]
    return odds_main(["--dice", str(args.dice), *(["--json"] if args.json else []), *shown])


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "start": _start,
    "run": _run,
    "console": _console,
    "replay": _replay,
    "export": _export,
    "verify": _verify,
    "audit": _audit,
    "migrate": _migrate,
    "healthcheck": _healthcheck,
    "odds": _odds,
    "web": _web,
    "stats": _stats,
}
