"""Replies as Discord embeds, each within Discord's limits by construction (:mod:`bot.discord.limits`).

The service already rendered every sentence; this module only arranges them: the lines of what
happened, the running table with each participant's role, the commitment or the revealed seed, and
the game's highlights (the chosen jokers) as cards. Nothing is cut: what does not fit one embed
continues in the next (:func:`bot.discord.limits.messages` then puts them into as many messages as
they need). The parts that must stay with the story — who acts until when, the dice commitment, the
seed — are laid out first; the table takes the room that is left, or continues below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import discord

from bot import texts
from bot.discord import escape
from bot.discord.limits import (
    CONTENT_MAX,
    DESCRIPTION_MAX,
    EMBED_TOTAL_MAX,
    EMBEDS_MAX,
    FIELD_MAX,
    FIELD_NAME_MAX,
    FIELDS_MAX,
    TITLE_MAX,
    chunks,
    clip,
)
from bot.discord.mentions import quiet
from bot.exports import StandingsTable, column, note_lines
from bot.games import GAMES
from bot.replies import Card, Reply, Row
from bot.shown_names import shortened
from engine.numbers import digits

__all__ = [
    "BLANK",
    "CONTENT_MAX",
    "DESCRIPTION_MAX",
    "EMBEDS_MAX",
    "EMBED_TOTAL_MAX",
    "FIELDS_MAX",
    "FIELD_MAX",
    "TITLE_MAX",
    "clip",
    "game_embeds",
    "live_embeds",
    "note_embeds",
    "refusal_content",
    "standings_embeds",
    "text_embeds",
]

ROUNDS_SHOWN = 12  # the standings (text and picture) show the last rounds; the total counts them all
BLANK = "\u200b"  # a field name Discord accepts but shows as nothing
MUST_MAX = 512  # a field that stays beside the story (turn, commitment, seed) holds at most this
FOOTER_MAX = 256  # our footers are one short line
CODE_BLOCK = 8  # "```\n" and "\n```" around a table

NEUTRAL = discord.Colour(0x2F6F4F)

Field = tuple[str, str]


def colour_of(kind: str | None) -> discord.Colour:
    """A game's accent colour (its own ``colour``), neutral for answers about no game."""
    game = GAMES.get(kind) if kind is not None else None
    return discord.Colour(game.colour) if game is not None else NEUTRAL


def shown_name(name: str) -> str:
    """A display name as embed text: no markdown, no link, no mention (see :mod:`bot.discord.escape`)."""
    return escape.name(name)


def continued(title: str | None, lang: str) -> str:
    """The title of an embed that continues another one."""
    if not title:
        return texts.render("discord.continued_untitled", {}, lang)
    return clip(texts.render("discord.continued", {"title": title}, lang), TITLE_MAX)


# ---------------------------------------------------------------------- a reply about a game


def story_of(reply: Reply) -> list[str]:
    """The lines of what happened, without those that carry the commitment or the seed (fields)."""
    hashes = [h for h in (reply.commitment, reply.seed) if h]
    return [quiet(line) for line in reply.lines if not any(h in line for h in hashes)]


def must_fields(reply: Reply) -> list[Field]:
    """Who acts until when, the commitment, the seed: never separated from the story."""
    lang = reply.language
    fields: list[Field] = []
    turn = turn_field(reply)
    if turn is not None:
        fields.append(turn)
    for key, digest in (("commitment", reply.commitment), ("seed", reply.seed)):
        if digest:
            said = next((line for line in reply.lines if digest in line), f"`{digest}`")
            fields.append((texts.render(f"discord.field.{key}", {}, lang), said))
    return [(clip(name, FIELD_NAME_MAX), clip(value, MUST_MAX)) for name, value in fields]


def game_embeds(reply: Reply) -> list[discord.Embed]:
    """The reply to a game command: the story, the running table, the commitment or seed, the cards —
    as many embeds as that takes, each within the limits; the first holds the story and the fields
    that belong to it, and the table when it fits beside them."""
    lang = reply.language
    colour = colour_of(reply.game_kind)
    title = clip(escape.plain(reply.title), TITLE_MAX) or None
    footer = (
        clip(texts.render("discord.footer.game", {"id": reply.game_id}, lang), FOOTER_MAX)
        if reply.game_id is not None
        else None
    )
    must = must_fields(reply)
    fixed = len(title or "") + len(footer or "") + sum(len(n) + len(v) for n, v in must)
    story = chunks(story_of(reply), min(DESCRIPTION_MAX, EMBED_TOTAL_MAX - fixed))
    main = discord.Embed(title=title, description=story[0] if story else None, colour=colour)
    table = table_fields(reply.table, lang)
    room = EMBED_TOTAL_MAX - fixed - len(main.description or "")
    beside = sum(len(n) + len(v) for n, v in table) <= room and len(table) + len(must) <= FIELDS_MAX
    for name, value in [*(table if beside else []), *must]:
        main.add_field(name=name, value=value, inline=False)
    if footer is not None:
        main.set_footer(text=footer)
    more = [
        discord.Embed(title=continued(title, lang), description=part, colour=colour) for part in story[1:]
    ]
    if not beside:
        more += field_embeds(table, continued(title, lang), colour)
    for card in reply.cards:
        more += card_embeds(card, colour, lang)
    return [main, *more]


def timestamp(when: datetime) -> str:
    """A moment as Discord shows it to each reader in their own time zone, relative ("in 3 hours")."""
    return f"<t:{int(when.timestamp())}:R>"


def turn_field(reply: Reply) -> Field | None:
    """Who acts and until when (``<t:…:R>``), for a reply whose player to act has a deadline."""
    acting = next((row for row in reply.table if row.to_act), None)
    if acting is None or reply.deadline is None:
        return None
    value = texts.render(
        "discord.live.turn",
        {"name": shown_name(acting.name), "deadline": timestamp(reply.deadline)},
        reply.language,
    )
    return texts.render("discord.field.turn", {}, reply.language), clip(value, FIELD_MAX)


def live_embeds(reply: Reply, commands: Mapping[str, str]) -> list[discord.Embed]:
    """A game's live table (the first message of its thread, edited in place, so ONE message): its
    title and state — sign-up open, over — who acts until when, its options, its dice commitment and,
    once it is over, the seed it hid, and the running table in the room that is left; rows beyond it
    are counted, not dropped unsaid ("… and 37 more": every move's answer shows them all). No ping:
    the per-move replies wake the player to act."""
    live = reply.live
    assert live is not None
    lang = reply.language
    embed = discord.Embed(
        title=clip(escape.plain(reply.title), TITLE_MAX) or None,
        description=clip(live_status(reply, commands), DESCRIPTION_MAX) or None,
        colour=colour_of(reply.game_kind),
    )
    after: list[Field] = []
    turn = turn_field(reply) if not live.finished else None
    if turn is not None:
        after.append(turn)
    if live.options:
        shown = " · ".join(f"{escape.name(key)}={escape.name(value)}" for key, value in live.options)
        after.append((texts.render("discord.field.options", {}, lang), clip(shown, MUST_MAX)))
    if live.commitment:
        after.append((texts.render("discord.field.commitment", {}, lang), f"`{live.commitment}`"))
    if live.seed:  # once the game is over: anyone can check SHA-256(seed) against the commitment above
        after.append((texts.render("discord.field.seed", {}, lang), f"`{live.seed}`"))
    footer = ""
    if reply.game_id is not None:
        footer = clip(texts.render("discord.live.footer", {"id": reply.game_id}, lang), FOOTER_MAX)
    room = EMBED_TOTAL_MAX - len(embed) - len(footer) - sum(len(n) + len(v) for n, v in after)
    for name, value in rows_within(reply.table, lang, room, FIELDS_MAX - len(after)):
        embed.add_field(name=name, value=value, inline=False)
    for name, value in after:
        embed.add_field(name=name, value=value, inline=False)
    if footer:
        embed.set_footer(text=footer)
    return [embed]


def live_status(reply: Reply, commands: Mapping[str, str]) -> str:
    live = reply.live
    assert live is not None
    if live.finished:
        return texts.render("discord.live.finished", {}, reply.language)
    if live.joinable:
        return texts.render("discord.live.open", {}, reply.language, commands=commands)
    return ""


def table_fields(rows: Sequence[Row], lang: str) -> list[Field]:
    """The running table as fields of at most 1024 characters (the first one titled), all of it."""
    title = texts.render("discord.field.table", {}, lang)
    lines = [table_line(row) for row in rows]
    return [(title if index == 0 else BLANK, chunk) for index, chunk in enumerate(chunks(lines, FIELD_MAX))]


def rows_within(rows: Sequence[Row], lang: str, room: int, fields: int) -> list[Field]:
    """As much of the running table as fits ``room`` characters in ``fields`` fields, in order; when
    rows are left over, the last line says how many ("… and 37 more")."""
    every = table_fields(rows, lang)
    if sum(len(n) + len(v) for n, v in every) <= room and len(every) <= fields:
        return every
    title = texts.render("discord.field.table", {}, lang)
    lines = [table_line(row) for row in rows]
    for shown in range(len(lines) - 1, -1, -1):
        more = texts.render("discord.table.more", {"count": len(lines) - shown}, lang)
        kept = [
            (title if i == 0 else BLANK, c) for i, c in enumerate(chunks([*lines[:shown], more], FIELD_MAX))
        ]
        if sum(len(n) + len(v) for n, v in kept) <= room and len(kept) <= fields:
            return kept
    return []


def table_line(row: Row) -> str:
    """One seat: marker, name, role, points (a typographic minus), then its details, escaped like names."""
    marker, points = "▶" if row.to_act else "•", texts.number(row.points)
    line = f"{marker} {shown_name(row.name)} — {row.role_label}: **{points}**"
    return f"{line} · {shown_name(row.details)}" if row.details else line


def field_embeds(
    fields: Sequence[Field],
    title: str | None,
    colour: discord.Colour,
    into: discord.Embed | None = None,
) -> list[discord.Embed]:
    """Fields laid out in as many embeds as they need (at most 25 each, 6,000 characters with the
    title) — filling ``into`` first, as far as it holds them; answers the embeds added."""
    embeds: list[discord.Embed] = []
    current = into
    for name, value in fields:
        if (
            current is None
            or len(current.fields) >= FIELDS_MAX
            or len(current) + len(name) + len(value) > EMBED_TOTAL_MAX
        ):
            current = discord.Embed(title=title, colour=colour)
            embeds.append(current)
        current.add_field(name=name, value=value, inline=False)
    return embeds


def card_embeds(card: Card, colour: discord.Colour, lang: str) -> list[discord.Embed]:
    """A highlight (a player's jokers) as its own embed, one field per entry (continued if long)."""
    title = clip(escape.plain(card.title), TITLE_MAX)
    fields = [(clip(name, FIELD_NAME_MAX), clip(text, FIELD_MAX)) for name, text in card.entries]
    embeds = field_embeds(fields, title, colour) or [discord.Embed(title=title, colour=colour)]
    for embed in embeds[1:]:
        embed.title = continued(title, lang)
    return embeds


# ---------------------------------------------------------------------- plain answers and tables


def text_embeds(
    text: str, title: str = "", colour: discord.Colour = NEUTRAL, lang: str = texts.DEFAULT
) -> list[discord.Embed]:
    """Plain text (help, rules, verification, lists) as embeds of up to 4,096 characters, split at
    line ends: all of it."""
    pieces = chunks(text.splitlines() or [""], DESCRIPTION_MAX) or [""]
    head = clip(title, TITLE_MAX) if title else None
    return [
        discord.Embed(
            title=head if index == 0 else (continued(head, lang) if head else None),
            description=piece or None,
            colour=colour,
        )
        for index, piece in enumerate(pieces)
    ]


def refusal_content(reply: Reply) -> str:
    """A refusal as a short message: why, and (from the catalogue) what is valid now. Refusals hold no
    markup of their own, so all of it is literal text (it may repeat what a player typed) — but for
    the mentions of the commands it names; one that points at a game's thread links it. Longer than a
    message it continues (see ``Outgoing``)."""
    text = f"⚠️ {escape.keeping_commands(reply.text)}"
    if digits(reply.elsewhere):
        text += " " + texts.render(
            "discord.thread.go_there", {"thread": f"<#{reply.elsewhere}>"}, reply.language
        )
    return text


def standings_embeds(
    table: StandingsTable, lang: str, *, title: str | None = None, notes: bool = True
) -> list[discord.Embed]:
    """The tournament table as aligned monospace text (Discord has no table markup), in as many code
    blocks as its rows need, each with the header line; then its notes (``notes``). ``title``: the
    first block's, when it continues a table shown otherwise (the picture)."""
    header, rows = standings_cells(table, lang)
    widths = [max(len(cells[i]) for cells in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if index == 1 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    head = line(header)
    body = [line(cells) for cells in rows] or [""]
    first = title or standings_title(table, lang)
    pages = chunks(body, DESCRIPTION_MAX - CODE_BLOCK - len(head) - 1)
    embeds = [
        discord.Embed(
            title=first if index == 0 else continued(standings_title(table, lang), lang),
            description=f"```\n{head}\n{page}\n```",
            colour=NEUTRAL,
        )
        for index, page in enumerate(pages)
    ]
    if not notes:
        return embeds
    return [*embeds, *note_embeds(table, continued(standings_title(table, lang), lang), into=embeds[-1])]


def note_embeds(
    table: StandingsTable, title: str | None, into: discord.Embed | None = None
) -> list[discord.Embed]:
    """The notes under the table — each points adjustment, each disqualified player with the reason —
    as fields of up to 1,024 characters under their heading, all of them: in ``into`` (the table's
    last embed) as far as it holds them, then in embeds of their own."""
    fields: list[Field] = []
    for heading, items in note_lines(table, escape.name):
        for index, piece in enumerate(chunks(items, FIELD_MAX)):
            fields.append((clip(heading, FIELD_NAME_MAX) if index == 0 else BLANK, piece))
    return field_embeds(fields, title, NEUTRAL, into)


def standings_title(table: StandingsTable, lang: str) -> str:
    """The title of the standings (text or picture): the tournament's name as literal text."""
    return clip(
        texts.render("discord.standings_title", {"name": escape.name(table.tournament)}, lang), TITLE_MAX
    )


def standings_cells(table: StandingsTable, lang: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the standings as strings (shared by the embed and the picture): at most the
    last :data:`ROUNDS_SHOWN` rounds (an ellipsis column stands for the earlier ones)."""
    hidden = max(0, len(table.durchgaenge) - ROUNDS_SHOWN)
    earlier = ["…"] if hidden else []
    header = [
        column("rank", lang),
        column("player", lang),
        *earlier,
        *(column("round", lang, number=number) for number in table.durchgaenge[hidden:]),
        column("total", lang),
    ]
    rows = [
        [
            str(row.rank),
            shortened(escape.one_line(row.name).replace("`", "ˋ"), 20),  # in a code block: no "```"
            *earlier,
            *("–" if points is None else str(points) for points in row.points[hidden:]),
            str(row.total),
        ]
        for row in table.rows
    ]
    return header, rows
