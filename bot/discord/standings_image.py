"""The tournament table as a PNG (``/tabelle bild:true``), drawn with Pillow from the same cells as the
text table, so both always agree."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from bot import texts
from bot.discord.embeds import clip, standings_cells
from bot.discord.escape import one_line
from bot.exports import StandingsTable

FONT_SIZE = 18
TITLE_SIZE = 24
PADDING = 16
COLUMN_GAP = 24
ROW_GAP = 8
BACKGROUND = (32, 34, 37)
HEADER = (235, 190, 90)
TEXT = (230, 230, 230)
STRIPE = (44, 47, 51)
MAX_ROWS = 60
TITLE_CHARS = 80  # the tournament's name in the picture: a long one must not make a huge image


def standings_png(table: StandingsTable, lang: str) -> bytes:
    """A PNG of the table: title, header and one striped row per player (the first 60)."""
    header, rows = standings_cells(table, lang)
    rows = rows[:MAX_ROWS]
    font = ImageFont.load_default(size=FONT_SIZE)
    title_font = ImageFont.load_default(size=TITLE_SIZE)
    name = clip(one_line(table.tournament), TITLE_CHARS)
    title = one_line(texts.render("discord.standings_title", {"name": name}, lang))
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))

    def width(text: str, face: ImageFont.ImageFont | ImageFont.FreeTypeFont) -> int:
        left, _, right, _ = probe.textbbox((0, 0), text, font=face)
        return int(right - left)

    widths = [max(width(cells[i], font) for cells in [header, *rows]) for i in range(len(header))]
    line_height = FONT_SIZE + ROW_GAP
    table_width = sum(widths) + COLUMN_GAP * (len(widths) - 1)
    image_width = max(table_width, width(title, title_font)) + 2 * PADDING
    image_height = PADDING * 3 + TITLE_SIZE + line_height * (len(rows) + 1)
    image = Image.new("RGB", (image_width, image_height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PADDING, PADDING), title, font=title_font, fill=HEADER)
    top = PADDING * 2 + TITLE_SIZE
    for number, cells in enumerate([header, *rows]):
        y = top + number * line_height
        if number % 2 == 0 and number > 0:
            draw.rectangle(
                (PADDING // 2, y - ROW_GAP // 2, image_width - PADDING // 2, y + FONT_SIZE + ROW_GAP // 2),
                fill=STRIPE,
            )
        x = PADDING
        for index, (cell, column) in enumerate(zip(cells, widths, strict=True)):
            offset = 0 if index == 1 else column - width(cell, font)  # names left, numbers right
            draw.text((x + offset, y), cell, font=font, fill=HEADER if number == 0 else TEXT)
            x += column + COLUMN_GAP
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
