"""How pads are served (issue 4): headers, file names, the pad cache, bad requests."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import RuleSet
from scorekeeper.services import games, pagecache
from scorekeeper.web import pads
from scorekeeper.web.pads import file_names


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every blank pad actually rendered (not served from the cache or with 304)."""
    calls: list[object] = []
    real = pads.render_blank

    def counting(wanted: pads.BlankRequest) -> bytes:
        calls.append(wanted)
        return real(wanted)

    monkeypatch.setattr(pads, "render_blank", counting)
    return calls


def test_blank_pad_headers(client: FlaskClient) -> None:
    response = client.get("/pads/blank.pdf?players=3&plan=short&paper=letter")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        'inline; filename="wizard-pad-short-3-players.pdf"'
    )
    assert response.headers["ETag"]
    assert response.cache_control.public
    assert response.cache_control.max_age == 86400


def test_etag_and_cache(client: FlaskClient, renders: list[object]) -> None:
    first = client.get("/pads/blank.pdf?players=4&plan=full&paper=a4&names=Ann,Ben")
    etag = first.headers["ETag"]
    assert len(renders) == 1

    # The same pad asked differently: same normalised parameters, same ETag, no render.
    again = client.get("/pads/blank.pdf?names=Ann,+Ben,,&paper=A4&plan=FULL&players=4")
    assert again.status_code == 200
    assert again.headers["ETag"] == etag
    assert again.data == first.data
    assert len(renders) == 1

    started = time.perf_counter()
    cached = client.get(
        "/pads/blank.pdf?players=4&plan=full&paper=a4&names=Ann,Ben",
        headers={"If-None-Match": etag},
    )
    elapsed = time.perf_counter() - started
    assert cached.status_code == 304
    assert cached.data == b""
    assert cached.headers["ETag"] == etag
    assert cached.cache_control.public
    assert elapsed < 0.1  # the bench measures it properly; here: no render happened
    assert len(renders) == 1

    other = client.get("/pads/blank.pdf?players=4&plan=full&paper=letter&names=Ann,Ben")
    assert other.headers["ETag"] != etag
    assert len(renders) == 2


def test_etag_answers_without_the_cache(
    app: Flask, client: FlaskClient, renders: list[object]
) -> None:
    # The ETag is computed from the request, so a process that never rendered the pad
    # (another worker, or after a restart) still answers 304.
    etag = client.get("/pads/blank.pdf?players=5").headers["ETag"]
    app.config["PAGE_CACHE"] = False
    response = client.get("/pads/blank.pdf?players=5", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert len(renders) == 1


def test_blank_pads_are_kept_in_the_page_cache(
    app: Flask, client: FlaskClient, renders: list[object]
) -> None:
    """One cache for every PDF: a blank pad is kept beside the games' pages and pads (its
    bytes counted against the same limit), under its ETag; without the page cache every
    request renders it."""
    first = client.get("/pads/blank.pdf?players=3")
    with app.app_context():
        kept = {key: page.body for key, _version, _variant, page in pagecache.kept_pages()}
    assert kept == {pads.BLANK_KEY + first.headers["ETag"].strip('"'): first.data}
    app.config["PAGE_CACHE"] = False
    client.get("/pads/blank.pdf?players=3")
    client.get("/pads/blank.pdf?players=3")
    assert len(renders) == 3


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def test_game_pad_headers_and_etag(client: FlaskClient, ctx: None) -> None:
    game, _ = games.create_game(["Zoë", "Øyvind", "李雷"], 0, RuleSet())
    url = f"/games/{game.public_id}/pad.pdf"
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    day = game.created_at.strftime("%Y-%m-%d")
    assert response.headers["Content-Disposition"] == (
        f"inline; filename=\"wizard-{day}-zoe-oyvind.pdf\"; filename*=UTF-8''"
        f"wizard-{day}-zo%C3%AB-%C3%B8yvind-%E6%9D%8E%E9%9B%B7.pdf"
    )
    assert response.cache_control.private and response.cache_control.no_cache
    etag = response.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    games.record_round(game, [0, 0, 1], [0, 0, 1])
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


@pytest.mark.parametrize(
    ("parts", "ascii_name"),
    [
        (["wizard", "2026-11-21", "Ann", "Ben", "Cat"], "wizard-2026-11-21-ann-ben-cat.pdf"),
        (
            ["wizard", "2026-11-21", "Anne-Marie O'Neil", "José"],
            "wizard-2026-11-21-anne-marie-o-neil-jose.pdf",
        ),
        (["wizard", "2026-11-21", '"; x=y', "../../etc"], "wizard-2026-11-21-x-y-etc.pdf"),
        (["wizard", "2026-11-21", "李雷"], "wizard-2026-11-21.pdf"),
        (
            ["wizard", "2026-11-21", *["Maximilian Bartholomew"] * 6],
            "wizard-2026-11-21-maximilian-bartholomew-maximilian-bartholomew.pdf",
        ),
    ],
)
def test_file_names(parts: list[str], ascii_name: str) -> None:
    name, unicode_name = file_names(parts)
    assert name == ascii_name
    assert name.isascii() and len(name) <= pads.FILENAME_MAX + 4
    assert len(unicode_name) <= pads.FILENAME_MAX + 4


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("players=7", "Wizard is played by 3 to 6 players, not 7."),
        ("players=2", "Wizard is played by 3 to 6 players, not 2."),
        ("players=abc", "The number of players must be a whole number from 3 to 6."),
        ("players=4.5", "The number of players must be a whole number from 3 to 6."),
        ("players=-4", "The number of players must be a whole number from 3 to 6."),
        ("players=%EF%BC%94", "The number of players must be a whole number from 3 to 6."),
        ("plan=long", "There is no round plan called “long”: choose full, short or unicoloured."),
        ("paper=a3", "There is no paper called “a3”: choose a4 or letter."),
        (
            "players=5&plan=unicoloured",
            "The unicoloured game is for 3 or 4 players only. "
            "For 5 players, choose the full or short game.",
        ),
        ("players=4&names=A,B,C,D,E", "5 names for 4 players"),
        ("names=A,B,C,D,E,F,G", "7 names: Wizard has at most 6 players."),
        ("names=" + "x" * 41, "is too long: names have at most 40 characters."),
        ("names=" + ",".join(["abcdefghij" * 4] * 10), "The names are too long"),
        ("names=Ann%01", "Names can't contain control characters."),
    ],
)
def test_bad_blank_requests(
    client: FlaskClient, renders: list[object], query: str, message: str
) -> None:
    response = client.get(f"/pads/blank.pdf?{query}")
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert message.replace("'", "&#39;") in html
    assert "<form" in html  # the form again, to choose something that works
    assert renders == []


def test_bad_request_text_is_escaped(client: FlaskClient) -> None:
    response = client.get("/pads/blank.pdf?plan=<script>")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "<script>" not in html
    assert "&lt;script&gt;" in html


def test_unknown_game(client: FlaskClient) -> None:
    response = client.get("/games/no-such-game/pad.pdf")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_game_pad_bad_paper(client: FlaskClient, ctx: None) -> None:
    game, _ = games.create_game(["Ann", "Ben", "Cat"], 0, RuleSet())
    response = client.get(f"/games/{game.public_id}/pad.pdf?paper=a5")
    assert response.status_code == 400
    assert "choose a4 or letter" in response.get_data(as_text=True)


def test_form_page_and_home_link(client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)
    assert 'href="/pads"' in home
    page = client.get("/pads?players=5&plan=short&paper=letter&names=Ann")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'action="/pads/blank.pdf"' in html
    assert 'value="5" checked' in html and 'value="short" checked' in html
    assert 'value="letter" checked' in html and 'value="Ann"' in html
