"""The story chart's legend: each player's key is a stretch of their line, in its colour
and its dash pattern, so colour is never the only way to tell the lines apart."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services import games as game_service
from scorekeeper.services.charts import running_totals
from tests.history.support import Fixture

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def _points(players: int, rounds: int = 6) -> list[list[int]]:
    return [[0] + [(seat + 1) * 10 * r for r in range(1, rounds + 1)] for seat in range(players)]


def _line_dashes(svg: str) -> dict[int, str]:
    """Each series' dash pattern as pygal draws the line (its stylesheet)."""
    return {
        int(n): dash
        for n, dash in re.findall(r"\.series\.serie-(\d+)\{[^}]*dasharray:([\d,]+)", svg)
    }


def _legend(svg: str) -> list[ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if "legend" in g.get("class", "").split()]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_legend_keys_have_the_lines_colour_and_dash_pattern(players: int) -> None:
    svg = running_totals(_points(players), NAMES[:players])
    lines = _line_dashes(svg)
    assert set(lines) == set(range(1, players))  # the first line is solid
    legend = _legend(svg)
    assert len(legend) == players
    colours = set()
    for seat, entry in enumerate(legend):
        assert entry.find(f"{SVG}rect") is None, "no colour square left"
        key = entry.find(f"{SVG}line")
        assert key is not None
        assert key.get("stroke-dasharray") == lines.get(seat)  # None: solid, as the line
        assert f"color-{seat}" in key.get("class", "").split()
        assert key.get("stroke-width") == "3"
        assert key.get("y1") == key.get("y2")
        length = float(key.get("x2", 0)) - float(key.get("x1", 0))
        pattern = [int(d) for d in (lines.get(seat) or "0").split(",")]
        assert length >= sum(pattern), "a whole period of the pattern shows"
        text = entry.find(f"{SVG}text")
        assert text is not None and text.text == NAMES[seat]
        assert float(text.get("x", 0)) > float(key.get("x2", 0)), "the name follows the key"
        colours.add(key.get("stroke"))
    assert len(colours) == players


def test_legend_dash_patterns_are_all_different() -> None:
    svg = running_totals(_points(6), NAMES)
    keys = [entry.find(f"{SVG}line") for entry in _legend(svg)]
    dashes = [key.get("stroke-dasharray") if key is not None else "?" for key in keys]
    assert len(set(dashes)) == 6 and dashes[0] is None


def test_a_long_name_is_shortened_in_the_legend_but_kept_as_its_title() -> None:
    names = ["Annegret", "Bartholomew", "Cat", "Dan", "Eve", "Friederike"]
    svg = running_totals(_points(6), names)
    legend = _legend(svg)
    shown = [entry.findtext(f"{SVG}text") for entry in legend]
    assert shown[2:5] == ["Cat", "Dan", "Eve"]
    assert shown[1] != "Bartholomew" and str(shown[1]).endswith("…")
    assert legend[1].findtext(f"{SVG}title") == "Bartholomew"
    # Three columns: each name ends before the next column's key begins.
    second_column = float(legend[1].find(f"{SVG}line").get("x1", 0))  # type: ignore[union-attr]
    first_text = legend[0].find(f"{SVG}text")
    assert first_text is not None
    assert float(first_text.get("x", 0)) + 15 * 0.55 * len(shown[0] or "") < second_column


def test_story_page_and_pad_show_the_keys(app: Flask, client: FlaskClient, fx: Fixture) -> None:
    body = client.get(f"/games/{fx.g2}/story").get_data(as_text=True)
    assert body.count('class="color-1 legend-key"') == 1
    assert 'stroke-dasharray="10,5"' in body
    with app.app_context():
        game = game_service.get_game(fx.g2)
        assert len(game.seats) == body.count("legend-key")


def test_a_narrow_chart_of_many_rounds_writes_its_round_numbers_whole(app: Flask) -> None:
    """A chart of 20 rounds in a phone's picture (380 units across) labels rounds 0, 5,
    10, 15 and 20, none shortened to "…"; and it carries no tooltip texts (<desc>), which
    nothing shows and WeasyPrint would spend a third of its time on."""
    with app.test_request_context():
        svg = running_totals(_points(3, rounds=20), NAMES[:3], size=(380, 500), legend=False)
    root = ElementTree.fromstring(svg)
    x_axis = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "axis x")
    labels = [t.text for t in x_axis.iter(f"{SVG}text")]
    assert [label for label in labels if label] == ["0", "5", "10", "15", "20"]
    assert "…" not in svg
    assert not list(root.iter(f"{SVG}desc"))
    assert not _legend(svg)  # the picture names each line's key beside the name
