"""The picture of a game (/games/<id>/picture.png): a phone-screen PNG of the standings,
the podium and the chart, kept per game version, for whoever holds the view link, with
nothing a follower may not see."""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.services import games as game_service
from scorekeeper.services import history as history_service
from scorekeeper.services import pagecache
from scorekeeper.services.circles import create_circle
from scorekeeper.web import picture
from tests.pdf.support import pdfinfo, pdftext
from tests.web.support import Pages, section

# As long as a name may be (40 characters), and a short one among them.
LONG_NAMES = [
    "Maximiliane-Charlotte Hohenzollern-Rhein",
    "Konstantin Alexander von Württemberg-Ost",
    "Adelheid Walpurga Schwarzenberg-Lindtal",
    "Ida",
    "Hieronymus Bartholomäus Gottfried Kranz",
    "Wilhelmine-Luise Dorothea Frankenthaler",
]
MAX_BYTES = 300 * 1024
LIGHT_PAPER = (0xF3, 0xED, 0xDC)  # static/css/picture.css, the two looks' --bg
CARD_TABLE = (0x0D, 0x33, 0x26)


def _play(app: Flask, names: list[str], rounds: int, **rules: object) -> str:
    """A game of ``names`` with ``rounds`` rounds scored (each: the dealer's left-hand
    neighbour takes every trick it bid); its public id."""
    with app.app_context(), transaction.atomic():
        game, _token = game_service.create_game(names, 0, RuleSet(**rules))  # type: ignore[arg-type]
        last = len(game_service.sheet_of(game).plan)
        for number in range(1, rounds + 1):
            taker = number % len(names)
            tricks = [number if seat == taker else 0 for seat in range(len(names))]
            bids = [number if seat == taker else (seat + number) % 2 for seat in range(len(names))]
            game_service.record_round(game, bids, tricks, None if number == last else "red")
        return game.public_id


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every picture actually drawn (not served from the cache or with 304): its look."""
    calls: list[str] = []
    real = picture.render

    def counting(game: object, look: str) -> bytes:
        calls.append(look)
        return real(game, look)  # type: ignore[arg-type]

    monkeypatch.setattr(picture, "render", counting)
    return calls


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("players", [3, 6])
def test_the_picture_is_a_phone_screen_png_under_300_kb(
    app: Flask, client: FlaskClient, players: int
) -> None:
    public_id = _play(app, LONG_NAMES[:players], 60 // players)  # every round: finished
    response = client.get(f"/games/{public_id}/picture.png")
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert len(response.data) <= MAX_BYTES
    image = _image(response.data)
    assert image.format == "PNG"
    assert image.size == (1080, 1920)
    disposition = response.headers["Content-Disposition"]
    assert re.match(r'inline; filename="wizard-\d{4}-\d\d-\d\d-maximiliane-charlotte', disposition)
    assert disposition.split(";")[1].strip().endswith('.png"')
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.cache_control.private and response.cache_control.no_cache


def test_long_names_keep_the_picture_to_one_page_with_its_chart(app: Flask) -> None:
    public_id = _play(app, LONG_NAMES, 10)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        document = picture.render_pdf(game_service.get_game(public_id), "light")
    assert pdfinfo(document)["Pages"] == "1"
    text = pdftext(document)
    assert "Endstand" in text and "Punktestand nach Runden" in text  # the reader's language
    assert "Runde" in text  # the chart's axis, drawn under the names


def _ground(data: bytes) -> str:
    """Which look's ground the picture's corner shows (the palette may move a colour by
    a unit or two)."""
    pixel = _image(data).convert("RGB").getpixel((5, 5))
    for name, colour in (("light", LIGHT_PAPER), ("dark", CARD_TABLE)):
        if all(abs(a - b) <= 3 for a, b in zip(pixel, colour, strict=True)):  # type: ignore[arg-type]
            return name
    raise AssertionError(f"neither look's ground: {pixel}")


def test_the_picture_wears_the_readers_look(app: Flask, client: FlaskClient) -> None:
    public_id = _play(app, ["Ann", "Ben", "Cat"], 4)
    url = f"/games/{public_id}/picture.png"
    assert _ground(client.get(url).data) == "light"  # "auto", no phone to ask: paper
    assert _ground(client.get(url + "?look=dark").data) == "dark"
    client.set_cookie("theme", "dark")
    assert _ground(client.get(url).data) == "dark"
    assert _ground(client.get(url + "?look=light").data) == "light"


def test_an_unknown_look_is_refused_in_words(app: Flask, client: FlaskClient) -> None:
    public_id = _play(app, ["Ann", "Ben", "Cat"], 1)
    response = client.get(f"/games/{public_id}/picture.png?look=purple")
    assert response.status_code == 400
    assert response.get_data(as_text=True) == (
        "There is no look called “purple”: choose light or dark."
    )
    german = client.get(
        f"/games/{public_id}/picture.png?look=purple", headers={"Accept-Language": "de"}
    )
    assert german.get_data(as_text=True) == (
        "Eine Ansicht „purple“ gibt es nicht: Wähle light oder dark."
    )


def test_kept_per_game_version_and_drawn_again_after_a_round(
    app: Flask, client: FlaskClient, renders: list[str]
) -> None:
    public_id = _play(app, ["Ann", "Ben", "Cat", "Dan"], 2)
    url = f"/games/{public_id}/picture.png"
    first = client.get(url)
    assert renders == ["light"]
    again = client.get(url)
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert renders == ["light"]  # kept: not drawn again
    with app.app_context():
        kept = [v for game, _version, v, _page in pagecache.kept_pages() if game == public_id]
    assert [v[:4] for v in kept] == ["png-"]
    not_modified = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert not_modified.status_code == 304 and not_modified.data == b""

    client.get(url + "?look=dark")  # another look: another picture of the same version
    assert renders == ["light", "dark"]

    with app.app_context(), transaction.atomic():
        game_service.record_round(game_service.get_game(public_id), [0, 1, 0, 1], [0, 1, 1, 1])
    newer = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert newer.status_code == 200  # a new round: a new picture
    assert newer.headers["ETag"] != first.headers["ETag"]
    assert newer.data != first.data
    assert renders == ["light", "dark", "light"]


def test_without_the_page_cache_every_request_draws(
    app: Flask, client: FlaskClient, renders: list[str]
) -> None:
    public_id = _play(app, ["Ann", "Ben", "Cat"], 1)
    app.config["PAGE_CACHE"] = False
    client.get(f"/games/{public_id}/picture.png")
    client.get(f"/games/{public_id}/picture.png")
    assert renders == ["light", "light"]


def test_the_scorer_and_a_follower_may_have_it_a_wrong_link_may_not(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    public_id = pages.new_game(["Ann", "Ben", "Cat"])
    scorer = pages.client.get(f"/games/{public_id}/picture.png")
    viewer = follower.client.get(f"/games/{public_id}/picture.png")
    assert scorer.status_code == viewer.status_code == 200
    assert scorer.data == viewer.data  # one picture: the scorer's shows no more
    for wrong in (public_id[:-1], public_id + "x", "no-such-game", "%00"):
        response = follower.client.get(f"/games/{wrong}/picture.png")
        assert response.status_code == 404
        assert b"Traceback" not in response.data


def test_a_deleted_game_has_no_picture(app: Flask, client: FlaskClient) -> None:
    public_id = _play(app, ["Ann", "Ben", "Cat"], 2)
    assert client.get(f"/games/{public_id}/picture.png").status_code == 200
    with app.app_context(), transaction.atomic():
        history_service.delete_game(game_service.get_game(public_id))
    assert client.get(f"/games/{public_id}/picture.png").status_code == 404


def test_a_circles_game_shows_no_circle_and_no_link(app: Flask) -> None:
    """A circle's name is for its members and the scorer; the view link is for whom it
    is sent to: the picture goes to a group chat, so it shows neither."""
    with app.test_request_context(), transaction.atomic():
        circle = create_circle("Donnerstagsrunde Zwölf")
        game, token = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, RuleSet(), circle_id=circle.id
        )
        game_service.record_round(game, [0, 1, 0], [0, 1, 0])
        text = pdftext(picture.render_pdf(game, "light"))
        public_id = game.public_id
    assert "Ann" in text and "After round 1 of 20" in text
    assert "Donnerstagsrunde" not in text
    assert public_id not in text and token not in text and "http" not in text


@pytest.mark.parametrize("bidding", ["hidden", "secret"])
def test_v3_v4_bids_of_the_round_being_entered_change_no_pixel(
    app: Flask, client: FlaskClient, bidding: str
) -> None:
    """V3/V4: bids not shown yet on the pad are not in the picture either: it shows the
    rounds scored, so bids entered for the next round leave every pixel as it was (the
    game's version moves on, so the picture is drawn again)."""
    from scorekeeper.engine import Bidding

    public_id = _play(app, ["Ann", "Ben", "Cat"], 1, bidding=Bidding(bidding))
    url = f"/games/{public_id}/picture.png"
    before = client.get(url)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(public_id)
        for seat, bid in ((2, 1), (0, 0), (1, 0)):  # round 2: Ben deals, Cat bids first
            game_service.set_bid(game, seat, bid)
    after = client.get(url)
    assert after.headers["ETag"] != before.headers["ETag"]
    assert after.data == before.data


# -- the button on the pages -------------------------------------------------------------------


def _share_link(body: str) -> str:
    found = re.search(r"<a [^>]*data-share-picture[^>]*>.*?</a>", body, re.S)
    assert found, "no picture link"
    return found.group(0)


def test_the_final_screen_offers_the_picture(app: Flask, pages: Pages, follower: Pages) -> None:
    public_id = _play(app, ["Ann", "Ben", "Cat"], 20)
    for phone in (pages, follower):
        body = phone.page(public_id).get_data(as_text=True)
        link = _share_link(section(body, "entry"))
        assert f'href="/games/{public_id}/picture.png"' in link
        assert re.search(r'download="wizard-\d{4}-\d\d-\d\d-ann-ben-cat\.png"', link)
        assert 'data-share-label="Share the picture"' in link
        assert ">Save the picture</a>" in link  # what the link does without JavaScript
        assert 'class="button secondary wide"' in link
        assert re.search(r'data-script="/static/js/share\.js\?v=\w+"', link)


def test_the_game_page_offers_it_once_a_round_is_scored(
    app: Flask, client: FlaskClient, pages: Pages
) -> None:
    public_id = pages.new_game(["Ann", "Ben", "Cat"])
    assert "data-share-picture" not in pages.whole_page(public_id).get_data(as_text=True)
    with app.app_context(), transaction.atomic():
        game_service.record_round(game_service.get_game(public_id), [0, 1, 0], [0, 1, 0])
    body = pages.whole_page(public_id).get_data(as_text=True)
    downloads = body.split('<section class="downloads"', 1)[1]
    assert f"/games/{public_id}/picture.png" in _share_link(downloads)
    # The page every phone loads for every game saves it: the share sheet's script comes
    # with the final screen and the story page only.
    assert "share.js" not in body
    story = client.get(f"/games/{public_id}/story").get_data(as_text=True)
    assert f"/games/{public_id}/picture.png" in _share_link(story)
    assert "/static/js/share.js" in _share_link(story)
    german = client.get(f"/games/{public_id}/story", headers={"Accept-Language": "de"})
    assert ">Bild speichern</a>" in _share_link(german.get_data(as_text=True))
