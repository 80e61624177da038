"""A whole game in each language: every sentence comes from that language's own catalogue.

``bot.texts.render`` never fails: a key missing in the asked language silently falls back on English,
then German, and a key missing everywhere shows as ``[key: facts]``. So a German channel could read an
English sentence and no other test would notice. Here, for each game and each language, a moderator
sets the channel's language, opens the game, three players join and play it to the end through the
service — pressing a sensible button of the board under each reply, or typing the same words — and
the game is closed. Every render during the game is recorded and must ask for the channel's language
and find its key in that language's own catalogue for the game; every reply must say it speaks that
language and show no fallback marker or unfilled placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot import replies, texts
from bot.games import GAMES, scope_of
from bot.replies import Board, Button, Reply
from bot.service import rendering
from bot.service.croupier import Croupier, seed_from_text
from bot.service.moves import words_for
from bot.service.requests import (
    ChangeSettings,
    Help,
    Info,
    Moderate,
    NewTournament,
    Press,
    Rules,
    Standings,
    Verify,
)
from bot.spelling import CONSOLE
from bot.store import Store
from bot.texts import LANGUAGES, Scope, catalogue
from bot.texts import render as real_render
from engine.game import Close, Join, Start
from engine.verflixte6.jokers import registry as joker_registry
from tests.service.helpers import MODERATOR, Table, open_game_view

KINDS = ("verflixte6", "killer", "killer-classic")
PLAYERS = ("anna", "ben", "cleo")
MOST_MOVES = 400  # a safety net: the policy below ends every game long before
TYPE_EVERY = 3  # every third move is typed as words instead of pressed
# Seeds of the croupier's dice (the same game in every language), picked so that each game meets many
# sentences: in this Durchgang a robbery, the jokers' duels and a bust; in the Killer games attacks,
# regenerations and deaths.
SEEDS = {
    "verflixte6": "languages-verflixte6-11",
    "killer": "languages-killer",
    "killer-classic": "languages-killer-classic",
}

FALLBACK_MARKER = re.compile(r"\[[\w-]+(\.[\w-]+)+(: [^\]]*)?\]")  # what render shows for a missing key
UNFILLED = re.compile(r"\{[a-z_]+(\[[a-z_]+\])?\}")  # what render leaves for a fact it was not given

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)  # languages are not stored


@dataclass(frozen=True)
class Rendered:
    key: str
    lang: str
    scope: Scope | None
    text: str


@dataclass
class Renders:
    """Every call of ``bot.texts.render`` while installed: what was asked for and what came out."""

    calls: list[Rendered] = field(default_factory=list)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def recording(
            key: str,
            facts: Mapping[str, Any],
            lang: str,
            name_of: Callable[[str], str] = str,
            commands: Mapping[str, str] | None = None,
            scope: Scope | None = None,
            *,
            neutral: bool = False,
        ) -> str:
            text = real_render(key, facts, lang, name_of, commands, scope, neutral=neutral)
            shown = CONSOLE.spell(text, lang) if neutral else text  # as the console prints it
            self.calls.append(Rendered(key, lang, scope, shown))
            return text

        monkeypatch.setattr(texts, "render", recording)
        # Sentences remembered from earlier tests would not be rendered (nor recorded) again.
        rendering._SAID.clear()
        rendering._ROWS.clear()
        replies._row_text.cache_clear()


@dataclass
class Policy:
    """A cautious but curious player: chooses jokers and uses them, robs, fights, asks for advice once,
    lets the croupier keep the best dice, attacks when it may — so a game touches many sentences — and
    stops after a few throws, so every game ends."""

    throws_before_stopping: int = 3
    continued: dict[str, int] = field(default_factory=dict)
    chose_jokers: list[str] = field(default_factory=list)  # the players who chose, in order
    advised: bool = False

    def pick(self, board: Board) -> tuple[int, ...]:
        """The indices of the buttons to press on ``board``."""
        by_action: dict[str, list[Button]] = {}
        for button in board.buttons:
            by_action.setdefault(button.action, []).append(button)
        if "choose_jokers" in by_action and board.player not in self.chose_jokers:
            self.chose_jokers.append(board.player)
            return self._jokers(by_action["choose_jokers"])
        if "advice" in by_action and not self.advised:
            self.advised = True
            return (by_action["advice"][0].index,)
        for action in ("freiwurf", "joker", "rob", "fight", "second_throw", "keep", "auto", "high", "attack"):
            if action in by_action:
                return (by_action[action][0].index,)
        if "continue" in by_action:
            throws = self.continued.get(board.player, 0)
            if throws < self.throws_before_stopping or "stop" not in by_action:
                self.continued[board.player] = throws + 1
                return (by_action["continue"][0].index,)
            return (by_action["stop"][0].index,)
        return (board.buttons[0].index,)

    def _jokers(self, options: Sequence[Button]) -> tuple[int, ...]:
        """Each player takes the next few jokers of the offer, so the game meets as many as it can."""
        count = options[0].limit or len(options)
        first = (len(self.chose_jokers) - 1) * count
        return tuple(options[(first + offset) % len(options)].index for offset in range(count))


def every_text(reply: Reply) -> Iterator[str]:
    """Every piece of text a front end may draw from a reply."""
    yield from reply.lines
    yield reply.title
    for row in reply.table:
        yield row.role_label
    if reply.board is not None:
        for button in reply.board.buttons:
            yield button.label
        for _group, placeholder in reply.board.placeholders:
            yield placeholder
    for card in reply.cards:
        yield card.title
        for _name, text in card.entries:
            yield text


async def english_labels_expected(store: Store, board: Board) -> list[str]:
    """The labels of ``board`` as the English catalogue of the open game renders its choices."""
    view = await open_game_view(store)
    assert view is not None
    record, state = view
    assert record.version == board.version
    game = GAMES[record.kind]
    names = {seat.player: seat.name for seat in game.table(state)}
    return [
        real_render(
            f"choice.{choice.action}", choice.facts, "en", lambda p: names.get(p, p), scope=scope_of(game)
        )
        for choice in game.choices(state)
    ]


async def play(table: Table, store: Store, reply: Reply, lang: str, replies: list[Reply]) -> None:
    """Play from ``reply`` to the end of the game: press, or type the pressed choice's words."""
    policy = Policy()
    for move in range(MOST_MOVES):
        board = reply.board
        if board is None:
            return
        if lang == "en" and reply.game_kind in ("killer", "killer-classic"):
            assert [b.label for b in board.buttons] == await english_labels_expected(store, board)
        picked = policy.pick(board)
        shown = reply
        if move % TYPE_EVERY == TYPE_EVERY - 1:
            view = await open_game_view(store)
            assert view is not None
            record, state = view
            words = words_for(GAMES[record.kind].choices(state), picked)
            assert words is not None, picked
            reply = await table.say(board.player, words)
        else:
            reply = await table.croupier.handle(
                Press(table.msg(board.player), board.game_id, board.version, picked)
            )
        assert reply.ok, reply.text
        replies.append(reply)
        if reply.private:  # a question (advice): the game did not move, its board still stands
            assert reply.board is None
            reply = shown
    raise AssertionError(f"the game did not end within {MOST_MOVES} moves")


async def whole_game(store: Store, kind: str, lang: str) -> list[Reply]:
    """Every reply of one game in a channel speaking ``lang``: settings, open, joins, the moves, the
    help and rules on the way, the close and the verification."""
    table = Table(Croupier(store=store, seed_source=seed_from_text(SEEDS[kind])))
    replies = [
        await table.croupier.handle(Moderate(table.msg(MODERATOR), ChangeSettings({"language": lang})))
    ]
    replies.append(await table.open(kind))
    for player in PLAYERS:
        replies.append(await table.do(player, Join(player.capitalize())))
    if kind != "verflixte6":
        replies.append(await table.do(MODERATOR, Start()))
    replies.append(await table.croupier.handle(Help(table.msg("anna"))))
    replies.append(await table.croupier.handle(Rules(table.msg("anna"))))
    if kind == "verflixte6":  # the jokers are Die verflixte 6!'s
        replies.append(await table.croupier.handle(Info(table.msg("anna"), "jokers")))
    assert all(reply.ok for reply in replies), [reply.text for reply in replies]
    last_with_a_board = next(reply for reply in reversed(replies) if reply.board is not None)
    await play(table, store, last_with_a_board, lang, replies)
    if await open_game_view(store) is not None:  # Die verflixte 6! waits for the moderator
        replies.append(await table.do(MODERATOR, Close()))
    assert await open_game_view(store) is None
    replies.append(await table.croupier.handle(Verify(table.msg("anna"))))
    assert all(reply.ok for reply in replies), [reply.text for reply in replies if not reply.ok]
    return replies


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_whole_game_speaks_only_the_channels_language(
    store: Store, kind: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No render asks for another language or finds its key only in a fallback; the replies say so too."""
    renders = Renders()
    renders.install(monkeypatch)
    replies = await whole_game(store, kind, lang)

    scope = scope_of(GAMES[kind])
    assert renders.calls
    assert {call.lang for call in renders.calls} == {lang}
    missing = sorted({call.key for call in renders.calls if call.key not in catalogue(lang, call.scope)})
    assert missing == [], f"rendered from another language's catalogue: {missing}"
    assert {call.scope for call in renders.calls} <= {None, scope}
    assert {reply.language for reply in replies} == {lang}
    shown = [text for reply in replies for text in every_text(reply)]
    assert [text for text in shown if FALLBACK_MARKER.search(text)] == []
    assert [text for text in shown if UNFILLED.search(text)] == []
    assert len({call.key for call in renders.calls}) >= 30  # the game said a good deal, not just hello


async def test_a_channel_keeps_its_last_games_language_between_games(store: Store) -> None:
    """A French Killer game ends; /standings, /help and /verify after it are French, not the German
    default, until the channel starts a new tournament (or sets a language)."""
    table = Table(Croupier(store=store, seed_source=seed_from_text("between-games")))
    assert (await table.croupier.handle(Help(table.msg("anna")))).language == "de"
    assert (await table.open("killer")).language == "fr"
    await table.do(MODERATOR, Close())
    after = [
        await table.croupier.handle(Standings(table.msg("anna"))),
        await table.croupier.handle(Help(table.msg("anna"))),
        await table.croupier.handle(Verify(table.msg("anna"))),
    ]
    assert [reply.language for reply in after] == ["fr", "fr", "fr"]
    assert after[1].lines[0].startswith(real_render("common.help", {"commands": ""}, "fr").strip())
    rules = await table.croupier.handle(Rules(table.msg("anna")))
    assert rules.lines == (real_render("help.rules", {}, "fr", scope=scope_of(GAMES["killer"])),)

    assert (await table.croupier.handle(Moderate(table.msg(MODERATOR), NewTournament("Printemps")))).ok
    assert (await table.croupier.handle(Help(table.msg("anna")))).language == "de"


# --- a whole session through the console -----------------------------------------------------------
#
# The same games typed into the console (bot/console/terminal.py) as people type them: a moderator and admin
# ("mod"), three players, and everything around the game — typos, refusals, moderator commands with
# missing or wrong arguments, corrections, the standings, every export, the tournaments, the
# verification. Besides the renders, the text itself is checked: every line the console prints must be
# made of rendered sentences (a sentence built in code, outside the catalogues, is left over), must
# hold no telling word of another language, French must put its space before a colon, and a Killer
# session must never say "Durchgang".

MODERATOR_LINES = {
    "before": [
        "anna: /open {kind}",  # not a moderator
        "mod: /open {kind} foo=bar",  # an unknown option
        "mod: /close",  # nothing open
        "mod: /undo Versehen",  # nothing to undo
        "mod: /verify",  # nothing closed yet
        "mod: /standings",
        "mod: /settings",
        "mod: /settings colour=red",
        "mod: /settings timeout=90",
        "mod: /tournament Frühling scoring=placement",
        "mod: /open {kind}",
        "anna: /join",
        "ben: /join",
        "cleo: /join",
        "mod: /skip",
        "mod: /remove",
        "mod: /remove zed",
        "mod: /start",
        "anna: /help",
        "anna: /rules",
        "anna: /jokers",
        "mod: /standings",
        "mod: /bogus",
    ],
    "after": [
        "mod: /adjust anna",  # no points: the form, in the channel's language
        "mod: /adjust anna -2 Regelverstoß",
        "mod: /adjust zed 3 Bonus",
        "mod: /disqualify cleo Absprache",
        "mod: /reinstate cleo Irrtum",
        "mod: /corrections",
        "mod: /standings",
        "mod: /export csv",
        "mod: /export markdown",
        "mod: /export bbcode",
        "mod: /export pdf",
        "zed: /export csv",
        "mod: /verify",
        "mod: /verify abc",
        "mod: /verify 99",
        "mod: /tournaments",
        "mod: /tournament Sommer",
        "mod: /tournaments",
        "mod: /standings",
        "mod: /corrections",
        "anna: /help",
    ],
}
KILLER_OPTIONS = ["mod: /open killer modes=foo", "mod: /open killer dice=2", "mod: /open killer dice=x"]
TYPOS = {"verflixte6": ("wieter", "weiter"), "killer": ("garde tou", "garde tout")}
KILLER_TYPOS = {"killer-classic": TYPOS["killer"]}

# Telling words only (not "die", an English die; not "partie", German too; not "NAME", German too).
TELLING = {
    "de": {"der", "das", "und", "ist", "mit", "nicht", "würfel", "zug", "kein", "wird", "dein", "noch"},
    "en": {"the", "and", "is", "with", "of", "your", "not", "reason", "value", "role", "seconds", "sum"},
    "fr": {"le", "la", "les", "est", "une", "pour", "avec", "pas", "qui", "au", "et", "vie", "nom", "motif"},
}
FOREIGN = {
    lang: set().union(*(words for other, words in TELLING.items() if other != lang)) for lang in TELLING
}
# What a sentence may quote or show in any language: the forum words and commands in quotes, code
# spans, console commands, options, URLs.
QUOTED = re.compile(r"„[^“]*“|“[^”]*”|« [^»]*»|\"[^\"]*\"|`[^`]*`|\S+=\S+|/\w+|https?://\S+|--\w+")


@dataclass
class Session:
    """One console session: every line typed and what the console printed for it."""

    lines: list[tuple[str, str]] = field(default_factory=list)

    def printed(self) -> list[str]:
        return [out for _, text in self.lines for out in text.splitlines()]


def policy_words(policy: Policy, record: Any, state: Any) -> tuple[str, str]:
    """Who acts and the words the cautious, curious player types (what pressing would send)."""
    game = GAMES[record.kind]
    choices = game.choices(state)
    player = game.to_act(state)
    assert player is not None
    buttons = tuple(
        Button(index=i, label="", action=c.action, group=c.group, multi=c.multi, limit=c.limit)
        for i, c in enumerate(choices)
    )
    words = words_for(choices, policy.pick(Board(record.id, record.version, player, buttons)))
    assert words is not None
    return player, words


async def console_session(store: Store, kind: str, lang: str) -> Session:
    from bot.console.terminal import Console

    croupier = Croupier(store=store, seed_source=seed_from_text(SEEDS[kind]))
    console = Console(croupier, moderators=frozenset({"mod"}), admins=frozenset({"mod"}))
    session = Session()

    async def type_(line: str) -> str:
        answer = await console.handle(line)
        assert answer is not None, line
        session.lines.append((line, answer.text))
        return answer.text

    await type_(f"mod: /settings language={lang}")
    if kind == "killer":
        for line in KILLER_OPTIONS:
            await type_(line)
    for line in MODERATOR_LINES["before"]:
        await type_(line.format(kind=kind))
    typo, meant = TYPOS.get(kind) or KILLER_TYPOS[kind]
    policy = Policy()
    undone = False
    for move in range(MOST_MOVES):
        view = await open_game_view(store, channel="console")
        if view is None or GAMES[view[0].kind].to_act(view[1]) is None:
            break  # over, or (Die verflixte 6!) everyone has played and the moderator closes
        record, state = view
        player, words = policy_words(policy, record, state)
        if move == 0:
            others = [p for p in PLAYERS if p != player]
            await type_(f"{player}: {typo}")  # from the player to act: "did you mean"
            await type_(f"{others[0]}: {typo}")  # from someone else: silence
            await type_(f"{others[0]}: {words}")  # not their turn
        await type_(f"{player}: {words}")
        if move == 1 and not undone:
            undone = True
            await type_("mod: /undo Versehen")
            await type_("mod: /corrections")
    else:
        raise AssertionError(f"the game did not end within {MOST_MOVES} moves")
    if await open_game_view(store, channel="console") is not None:
        await type_("mod: /close")
    for line in MODERATOR_LINES["after"]:
        await type_(line)
    assert any(meant in text for _, text in session.lines), "the typo was answered"
    return session


def leftovers(line: str, rendered: list[str], names: set[str]) -> str:
    """What remains of a printed line once every rendered sentence, name, number and bit of table or
    markup syntax is taken out: text built outside the catalogues."""
    for text in rendered:
        if text and text in line:
            line = line.replace(text, " ")
    line = without_names(QUOTED.sub(" ", line), names)
    line = re.sub(r"\[/?(b|table|tr|th|td|list|\*)\]", " ", line)
    return re.sub(r"[\s\d|:\-–—−+▶*#.,;()\[\]·…]+", "", line)


def without_names(line: str, names: set[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        line = re.sub(rf"(?i)(?<!\w){re.escape(name)}(?!\w)", " ", line)
    return line


def foreign_words(line: str, lang: str, names: set[str]) -> set[str]:
    words = set(re.findall(r"[^\W\d_]+", without_names(QUOTED.sub(" ", line), names).lower()))
    return words & FOREIGN[lang]


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_console_session_speaks_only_the_channels_language(
    store: Store, kind: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typos, refusals, moderator commands, standings, exports, tournaments and corrections too: every
    render in the channel's language from its own catalogue, and no printed text from anywhere else."""
    import bot.console.terminal
    import bot.exports
    import bot.replies

    renders = Renders()
    renders.install(monkeypatch)
    for module in (bot.console.terminal, bot.replies, bot.exports):
        monkeypatch.setattr(module, "render", texts.render)  # the recording one
    session = await console_session(store, kind, lang)

    scope = scope_of(GAMES[kind])
    assert {call.lang for call in renders.calls} == {lang}
    missing = sorted({call.key for call in renders.calls if call.key not in catalogue(lang, call.scope)})
    assert missing == [], f"rendered from another language's catalogue: {missing}"
    v6 = scope_of(GAMES["verflixte6"])  # the owner of the jokers says Killer has none
    assert {call.scope for call in renders.calls} <= {None, scope, v6}
    assert {call.key for call in renders.calls if call.scope == v6 != scope} <= {"info.jokers.elsewhere"}

    printed = session.printed()
    assert [line for line in printed if FALLBACK_MARKER.search(line) or UNFILLED.search(line)] == []
    rendered = sorted({call.text for call in renders.calls}, key=len, reverse=True)
    names = {*PLAYERS, "mod", "zed", "Turnier", "Frühling", "Sommer", "Versehen", "Regelverstoß"}
    names |= {"Absprache", "Irrtum", "Bonus", "pdf", "abc", "foo", "bogus", "colour", "red"}
    names |= {*joker_registry.NAMES, "Hirte der Spelunke"}  # proper names, the same in every language
    built_elsewhere = {line: rest for line in printed if (rest := leftovers(line, rendered, names))}
    assert built_elsewhere == {}, "text not from the catalogues"
    foreign = {line: found for line in printed if (found := foreign_words(line, lang, names))}
    assert foreign == {}, f"words of another language in a {lang} channel"
    if lang == "fr":
        glued = [line for line in printed if re.search(r"[^\s:]:(\s|$)", QUOTED.sub(" ", line))]
        assert glued == [], "French puts a space before a colon"
    if kind != "verflixte6":
        assert [line for line in printed if "Durchgang" in line or "Durchgäng" in line] == []
    assert len({call.key for call in renders.calls}) >= 60  # the session said a good deal
