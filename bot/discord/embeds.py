"""Replies as Discord embeds, within Discord's limits (a 6000-character message, 1024 per field).

The service already rendered every sentence; this module only arranges them: the lines of what
happened, the running table with each participant's role, the commitment or the revealed seed, and
the game's highlights (the chosen jokers) as cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

import discord

from bot import texts
from bot.discord import escape
from bot.discord.mentions import quiet
from bot.exports import StandingsTable, column
from bot.games import GAMES
from bot.replies import Card, Reply, Row
from bot.shown_names import shortened

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELD_MAX = 1024
FIELDS_MAX = 25
EMBED_TOTAL_MAX = 6000
EMBEDS_MAX = 10
CONTENT_MAX = 2000
ROUNDS_SHOWN = 12  # the standings (text and picture) show the last rounds; the total counts them all
BLANK = "\u200b"  # a field name Discord accepts but shows as nothing

NEUTRAL = discord.Colour(0x2F6F4F)


def colour_of(kind: str | None) -> discord.Colour:
    """A game's accent colour (its own ``colour``), neutral for answers about no game."""
    game = GAMES.get(kind) if kind is not None else None
    return discord.Colour(game.colour) if game is not None else NEUTRAL


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown_name(name: str) -> str:
    """A display name as embed text: no markdown, no link, no mention (see :mod:`bot.discord.escape`)."""
    return escape.name(name)


def game_embeds(reply: Reply) -> list[discord.Embed]:
    """The reply to a game command: the story, the running table, the commitment or seed, the cards."""
    lang = reply.language
    colour = colour_of(reply.game_kind)
    hashes = [h for h in (reply.commitment, reply.seed) if h]
    story = [quiet(line) for line in reply.lines if not any(h in line for h in hashes)]
    embed = discord.Embed(
        title=clip(escape.plain(reply.title), TITLE_MAX) or None,
        description=clip("\n".join(story), DESCRIPTION_MAX) or None,
        colour=colour,
    )
    for name, value in table_fields(reply.table, lang):
        embed.add_field(name=name, value=value, inline=False)
    turn = turn_field(reply)
    if turn is not None:
        embed.add_field(name=turn[0], value=turn[1], inline=False)
    for key, digest in (("commitment", reply.commitment), ("seed", reply.seed)):
        if digest:
            said = next((line for line in reply.lines if digest in line), f"`{digest}`")
            embed.add_field(name=texts.render(f"discord.field.{key}", {}, lang), value=clip(said, FIELD_MAX))
    if reply.game_id is not None:
        embed.set_footer(text=texts.render("discord.footer.game", {"id": reply.game_id}, lang))
    embeds = [embed, *(card_embed(card, colour) for card in reply.cards)]
    return fit(embeds[:EMBEDS_MAX])


def timestamp(when: datetime) -> str:
    """A moment as Discord shows it to each reader in their own time zone, relative ("in 3 hours")."""
    return f"<t:{int(when.timestamp())}:R>"


def turn_field(reply: Reply) -> tuple[str, str] | None:
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
    """A game's live table (the first message of its thread): its title and state — sign-up open,
    over — the running table, who acts until when, its options, its dice commitment and, once it is
    over, the seed it hid. No ping: the per-move replies wake the player to act."""
    live = reply.live
    assert live is not None
    lang = reply.language
    if live.finished:
        status = texts.render("discord.live.finished", {}, lang)
    elif live.joinable:
        status = texts.render("discord.live.open", {}, lang, commands=commands)
    else:
        status = ""
    embed = discord.Embed(
        title=clip(escape.plain(reply.title), TITLE_MAX) or None,
        description=status or None,
        colour=colour_of(reply.game_kind),
    )
    for name, value in table_fields(reply.table, lang):
        embed.add_field(name=name, value=value, inline=False)
    turn = turn_field(reply) if not live.finished else None
    if turn is not None:
        embed.add_field(name=turn[0], value=turn[1], inline=False)
    if live.options:
        shown = " · ".join(f"{escape.name(key)}={escape.name(value)}" for key, value in live.options)
        embed.add_field(name=texts.render("discord.field.options", {}, lang), value=clip(shown, FIELD_MAX))
    if live.commitment:
        field = texts.render("discord.field.commitment", {}, lang)
        embed.add_field(name=field, value=f"`{live.commitment}`", inline=False)
    if live.seed:  # once the game is over: anyone can check SHA-256(seed) against the commitment above
        field = texts.render("discord.field.seed", {}, lang)
        embed.add_field(name=field, value=f"`{live.seed}`", inline=False)
    if reply.game_id is not None:
        embed.set_footer(text=texts.render("discord.live.footer", {"id": reply.game_id}, lang))
    return fit([embed])


def table_fields(rows: Sequence[Row], lang: str) -> list[tuple[str, str]]:
    """The running table as fields of at most 1024 characters (the first one titled)."""
    lines = [table_line(row) for row in rows]
    title = texts.render("discord.field.table", {}, lang)
    return [(title if index == 0 else BLANK, chunk) for index, chunk in enumerate(_chunks(lines, FIELD_MAX))][
        : FIELDS_MAX - 3
    ]


def table_line(row: Row) -> str:
    """One seat: marker, name, role, points (a typographic minus), then its details, escaped like names."""
    marker, points = "▶" if row.to_act else "•", texts.number(row.points)
    line = f"{marker} {shown_name(row.name)} — {row.role_label}: **{points}**"
    return f"{line} · {shown_name(row.details)}" if row.details else line


def card_embed(card: Card, colour: discord.Colour) -> discord.Embed:
    """A highlight (a player's jokers) as its own embed: one field per entry."""
    embed = discord.Embed(title=clip(escape.plain(card.title), TITLE_MAX), colour=colour)
    for name, text in card.entries[:FIELDS_MAX]:
        embed.add_field(name=clip(name, TITLE_MAX), value=clip(text, FIELD_MAX), inline=False)
    return embed


def text_embeds(text: str, title: str = "", colour: discord.Colour = NEUTRAL) -> list[discord.Embed]:
    """Plain text (help, rules, verification) as one or more embeds, split at line ends."""
    chunks = _chunks(text.splitlines() or [""], DESCRIPTION_MAX) or [""]
    embeds = [
        discord.Embed(
            title=clip(title, TITLE_MAX) if index == 0 and title else None, description=chunk or None
        )
        for index, chunk in enumerate(chunks)
    ]
    for embed in embeds:
        embed.colour = colour
    return fit(embeds[:EMBEDS_MAX])


def refusal_content(reply: Reply) -> str:
    """A refusal as a short message: why, and (from the catalogue) what is valid now. Refusals hold no
    markup of their own, so all of it is literal text (it may repeat what a player typed) — but for
    the mentions of the commands it names."""
    return clip(f"⚠️ {escape.keeping_commands(reply.text)}", CONTENT_MAX)


def standings_embed(table: StandingsTable, lang: str) -> discord.Embed:
    """The tournament table as aligned monospace text (Discord has no table markup)."""
    header, rows = standings_cells(table, lang)
    widths = [max(len(cells[i]) for cells in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if index == 1 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    body = [line(header), *(line(cells) for cells in rows)]
    block = "\n".join(body)
    while len(block) + 8 > DESCRIPTION_MAX and len(body) > 2:
        body = [*body[:-2], "…"]
        block = "\n".join(body)
    return discord.Embed(title=standings_title(table, lang), description=f"```\n{block}\n```", colour=NEUTRAL)


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


def fit(embeds: list[discord.Embed]) -> list[discord.Embed]:
    """Keep a message within Discord's 6000 characters: trim descriptions, then drop trailing embeds."""
    while embeds and sum(len(embed) for embed in embeds) > EMBED_TOTAL_MAX:
        excess = sum(len(embed) for embed in embeds) - EMBED_TOTAL_MAX
        first = embeds[0]
        if len(embeds) > 1:
            embeds = embeds[:-1]
        elif first.description and len(first.description) > excess + 1:
            first.description = clip(first.description, len(first.description) - excess)
        elif first.fields:
            first.remove_field(len(first.fields) - 1)
        else:
            first.description = clip(first.description or "", 1)
    return embeds


def _chunks(lines: Iterable[str], limit: int) -> list[str]:
    """Lines joined into pieces of at most ``limit`` characters (a too long line is clipped)."""
    chunks: list[str] = []
    current = ""
    for raw in lines:
        line = clip(raw, limit)
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks
