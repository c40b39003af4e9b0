"""The running-totals chart: a totals axis that reads (a round step, labels apart, a real
minus sign) and reaches every total."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.services.charts import running_totals

FONT = 13  # the chart's label font size, in its own units

# Anna, Ben and Clara's short game (tests/web/test_final_standings.py): totals from −10
# up to 390, round by round.
TOTALS = [
    [0, -10, -10, 0, 20, 10, 60, 140, 220, 210, 390],
    [0, -10, 10, 20, 40, 50, 50, 90, 170, 350, 390],
    [0, 20, 60, 70, 40, 30, 130, 210, 260, 330, 370],
]


def y_labels(svg: str) -> list[tuple[str, float]]:
    """The totals axis's labels, top to bottom, with their heights in the drawing."""
    axis = svg[svg.index('class="axis y') : svg.index('class="axis x')]
    found = re.findall(r'<text x="[^"]*" y="([^"]*)"[^>]*>([^<]*)</text>', axis)
    return sorted(((text, float(y)) for y, text in found), key=lambda label: label[1])


def value(label: str) -> int:
    return int(label.replace("\N{MINUS SIGN}", "-"))


def chart(app: Flask, totals: list[list[int]], size: tuple[int, int] | None = None) -> str:
    """The chart as the story page draws it (for a phone), or at ``size`` (the PDF's)."""
    names = ["Anna", "Ben", "Clara"][: len(totals)]
    with app.test_request_context():
        if size is None:
            return running_totals(totals, names)
        return running_totals(totals, names, size=size)


# Four rounds in: totals from −20 to 90 (labels every 10 points piled up here).
EARLY = [[0, 20, -20, 50, 60], [0, 30, 40, 80, 90], [0, 10, 10, 20, 30]]


@pytest.mark.parametrize("totals", [EARLY, TOTALS], ids=["early", "end"])
@pytest.mark.parametrize("size", [None, (722, 740)], ids=["phone", "printed"])
def test_labels_are_a_round_step_apart_and_never_pile_up(
    app: Flask, size: tuple[int, int] | None, totals: list[list[int]]
) -> None:
    labels = y_labels(chart(app, totals, size))
    values = [value(text) for text, _y in labels]
    steps = {a - b for a, b in zip(values, values[1:], strict=False)}
    assert len(steps) == 1, values
    step = steps.pop()
    assert step in (10, 20, 25, 50, 100, 200, 250, 500), values
    gaps = [b - a for (_t, a), (_u, b) in zip(labels, labels[1:], strict=False)]
    # Two and a half lines of text at least between labels: never a pile.
    assert min(gaps) >= 2.5 * FONT, (values, gaps)
    assert 3 <= len(labels) <= 12, values


def test_the_axis_reaches_the_highest_and_the_lowest_total(app: Flask) -> None:
    values = [value(text) for text, _y in y_labels(chart(app, TOTALS))]
    assert max(values) >= 390  # it stopped at 360
    deep = [[0, -70, 120], [0, 30, 390]]
    values = [value(text) for text, _y in y_labels(chart(app, deep))]
    assert min(values) <= -70 and max(values) >= 390


def test_negative_labels_have_a_real_minus_sign(app: Flask) -> None:
    labels = [text for text, _y in y_labels(chart(app, [[0, -20, 10, 30], [0, 20, 40, 60]]))]
    assert "\N{MINUS SIGN}20" in labels
    assert not [text for text in labels if "-" in text]


@pytest.mark.parametrize(
    ("lowest", "highest", "most", "labels"),
    [
        (-10, 390, 6, [0, 100, 200, 300, 400]),
        (-20, 60, 6, [-20, 0, 20, 40, 60]),
        (-60, 390, 6, [-100, 0, 100, 200, 300, 400]),
        (-20, 390, 10, [-50, 0, 50, 100, 150, 200, 250, 300, 350, 400]),
        (0, 0, 6, [0, 10]),
        (-390, -20, 6, [-400, -300, -200, -100, 0]),
    ],
)
def test_totals_axis(lowest: int, highest: int, most: int, labels: list[int]) -> None:
    from scorekeeper.services.charts import totals_axis

    assert totals_axis(lowest, highest, most) == labels
