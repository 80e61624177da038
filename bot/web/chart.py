"""Each player's running total over the Durchgänge, as the geometry of a server-drawn SVG line chart.

Pure arithmetic over a :class:`~bot.exports.StandingsTable`: the template draws the lines, dots and
labels (so every name goes through the template's escaping). The drawing has a fixed ``viewBox`` and
scales to its container's width, so it stays readable on a phone; colours come from the stylesheet
(``series-0`` … ``series-7``, repeated with a dash pattern beyond eight players). When moderators
adjusted points, a last step "±" adds each player's adjustments, so every line ends at the total the
table shows; the caption under the chart says what "±" stands for.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.exports import StandingsTable

WIDTH = 360
HEIGHT = 220
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 12, 28
COLOURS = 8
MOST_X_LABELS = 12  # beyond that, only every n-th Durchgang is labelled (and the last), so none overlap


@dataclass(frozen=True)
class Series:
    name: str
    totals: tuple[int, ...]  # the running total after each Durchgang
    points: str  # the polyline's "x,y x,y …"
    dots: tuple[tuple[float, float, int], ...]  # (x, y, running total) per Durchgang
    css: str  # "series-3" (+ " dashed" from the ninth player on)


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero: float  # the y of the total 0
    left: int
    right: int  # x of the right edge of the plotting area
    adjusted: bool = False  # the last step is the corrections' (labelled ADJUSTMENT_TICK, explained below)

    @property
    def empty(self) -> bool:
        return not self.series or not self.x_ticks


def running_totals(points: tuple[int | None, ...]) -> tuple[int, ...]:
    """Totals after each Durchgang (a Durchgang the player was not in adds nothing)."""
    totals, total = [], 0
    for value in points:
        total += value or 0
        totals.append(total)
    return tuple(totals)


def nice_step(span: float, ticks: int = 5) -> int:
    """A round step (1, 2, 5 × 10ⁿ) that cuts ``span`` into about ``ticks`` parts."""
    raw = max(span / ticks, 1)
    magnitude: int = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


ADJUSTMENT_TICK = "±"


def chart_of(table: StandingsTable) -> Chart:
    adjusted = any(row.adjustment for row in table.rows)
    labels = [f"D{number}" for number in table.durchgaenge] + ([ADJUSTMENT_TICK] if adjusted else [])
    rounds = len(labels)
    totals = []
    for row in table.rows:
        running = running_totals(row.points)
        if adjusted:
            running += ((running[-1] if running else 0) + row.adjustment,)
        totals.append((row.name, running))
    values = [0, *(value for _, series in totals for value in series)]
    low, high = min(values), max(values)
    step = nice_step(high - low or 1)
    low = (low // step) * step
    high = -((-high) // step) * step
    if high == low:
        high = low + step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        # Durchgang 0 (the start, everybody at 0) on the left edge; the last on the right.
        return round(LEFT + plot_w * index / max(rounds, 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    series = []
    for position, (name, running) in enumerate(totals):
        dots = tuple((x(i + 1), y(v), v) for i, v in enumerate(running))
        line = " ".join(f"{px},{py}" for px, py in ((x(0), y(0)), *((dx, dy) for dx, dy, _ in dots)))
        css = f"series-{position % COLOURS}" + (" dashed" if position >= COLOURS else "")
        series.append(Series(name, running, line, dots, css))
    every = -(-rounds // MOST_X_LABELS)  # ceil
    x_ticks = tuple(
        Tick(x(i + 1), label)
        for i, label in enumerate(labels)
        if (i + 1) % every == 0 or i + 1 == rounds or every == 1
    )
    y_ticks = tuple(Tick(y(v), str(v)) for v in range(int(low), int(high) + 1, step))
    return Chart(WIDTH, HEIGHT, tuple(series), x_ticks, y_ticks, y(0), LEFT, WIDTH - RIGHT, adjusted)
