"""The standings chart's geometry: every Durchgang a point, labels that never crowd, corrections as a
last step so each line ends at the total the table shows."""

from __future__ import annotations

from bot.exports import StandingsRow, StandingsTable
from bot.web.chart import ADJUSTMENT_TICK, MOST_X_LABELS, chart_of


def table(rounds: int, adjustment: int = 0) -> StandingsTable:
    points = tuple(range(1, rounds + 1))
    rows = (
        StandingsRow(1, "a", "Anna", points, sum(points) + adjustment, rounds, 0, adjustment),
        StandingsRow(2, "b", "Ben", tuple(None for _ in points), 0, None, 0),
    )
    return StandingsTable("Cup", "sum", tuple(range(1, rounds + 1)), rows)


def test_a_short_tournament_labels_every_durchgang() -> None:
    chart = chart_of(table(4))
    assert [tick.label for tick in chart.x_ticks] == ["D1", "D2", "D3", "D4"]
    assert [len(series.dots) for series in chart.series] == [4, 4]
    assert [series.totals[-1] for series in chart.series] == [10, 0]


def test_a_long_tournament_labels_some_durchgaenge_and_the_last() -> None:
    chart = chart_of(table(58))
    labels = [tick.label for tick in chart.x_ticks]
    assert len(labels) <= MOST_X_LABELS + 1
    assert labels[-1] == "D58"
    assert labels[0] == "D5"
    gaps = {round(b.at - a.at, 1) for a, b in zip(chart.x_ticks, chart.x_ticks[1:-1], strict=False)}
    assert len(gaps) == 1  # evenly spaced
    assert [len(series.dots) for series in chart.series] == [58, 58]  # every Durchgang still drawn


def test_corrections_are_the_last_step() -> None:
    chart = chart_of(table(3, adjustment=-4))
    assert [tick.label for tick in chart.x_ticks] == ["D1", "D2", "D3", ADJUSTMENT_TICK]
    assert [series.totals for series in chart.series] == [(1, 3, 6, 2), (0, 0, 0, 0)]
