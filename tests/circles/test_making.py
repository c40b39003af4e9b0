"""Making a circle, its home page with the link to share, and opening that link."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Circle
from scorekeeper.web.access import qr_image
from tests.circles.support import Phone, alert, text_of


def _circles(app: Flask) -> list[tuple[str, str]]:
    with app.app_context():
        return [(c.public_id, c.name) for c in db.session.scalars(select(Circle))]


def test_a_name_is_enough(app: Flask, anna: Phone) -> None:
    form = anna.client.get("/circles/new")
    assert form.status_code == 200
    assert 'name="name"' in form.get_data(as_text=True)
    circle_id = anna.make_circle("  Thursday   Wizards ")
    assert _circles(app) == [(circle_id, "Thursday Wizards")]
    welcome = anna.client.get(f"/circles/{circle_id}?welcome=1")
    assert welcome.status_code == 200
    body = welcome.get_data(as_text=True)
    assert "<h1>Thursday Wizards</h1>" in body
    assert "Your circle is ready." in text_of(body)


def test_the_circle_page_shows_its_link_and_qr_code_and_nobody_keeps_them(
    anna: Phone,
) -> None:
    circle_id = anna.make_circle()
    home = anna.home_of(circle_id)
    assert home.headers["Cache-Control"] == "private, no-store"
    link = anna.link(circle_id)
    assert link.startswith(f"/c/{circle_id}/") and len(link.rsplit("/", 1)[1]) >= 32
    assert f'src="/circles/{circle_id}/qr.svg"' in home.get_data(as_text=True)
    qr = anna.client.get(f"/circles/{circle_id}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert qr.headers["Cache-Control"] == "private, no-store"
    # The QR code is the link's: what another phone's camera opens.
    assert qr.data == qr_image(f"http://localhost{link}")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Give the circle a name."),
        (" \t ", "Give the circle a name."),
        ("x" * 61, "A circle's name has at most 60 characters."),
        ("Thursday\x00Wizards", "Names can't contain control characters."),
        ("Thursday\x1b[31mWizards", "Names can't contain control characters."),
        ("Thursday\u202eWizards", "Names can't contain control characters."),
    ],
)
def test_a_bad_name_is_refused_with_a_message_and_nothing_stored(
    app: Flask, anna: Phone, name: str, message: str
) -> None:
    refused = anna.client.post("/circles", data={"name": name})
    assert refused.status_code == 422
    assert alert(refused) == message
    assert 'name="name"' in refused.get_data(as_text=True)  # the form again, to correct
    assert _circles(app) == []
    # The phone holds no circle either.
    assert "/circles/" not in anna.client.get("/").get_data(as_text=True).replace(
        'href="/circles/new"', ""
    )


def test_a_name_of_the_longest_length_is_kept_whole(app: Flask, anna: Phone) -> None:
    circle_id = anna.make_circle("x" * 60)
    assert _circles(app) == [(circle_id, "x" * 60)]


def test_the_link_opens_the_circle_on_another_phone(anna: Phone, ben: Phone) -> None:
    circle_id = anna.make_circle("Thursday Wizards")
    link = anna.link(circle_id)
    assert ben.home_of(circle_id).status_code == 404
    opened = ben.open(link)
    assert opened.status_code == 303
    assert opened.headers["Location"] == f"/circles/{circle_id}"
    home = ben.home_of(circle_id)
    assert home.status_code == 200 and "<h1>Thursday Wizards</h1>" in home.get_data(as_text=True)
    # From now on the phone finds the circle on its home page.
    assert f'href="/circles/{circle_id}"' in ben.client.get("/").get_data(as_text=True)


def test_a_wrong_link_is_the_same_404_as_no_circle(anna: Phone, stranger: Phone) -> None:
    circle_id = anna.make_circle()
    key = anna.link(circle_id).rsplit("/", 1)[1]
    answers = []
    for path in (
        f"/c/{circle_id}/{key[:-1]}{'A' if key[-1] != 'A' else 'B'}",
        f"/c/nosuchcircle00000/{key}",
        f"/c/{circle_id}/{key[:8]}",
        f"/circles/{circle_id}",
        "/circles/nosuchcircle00000",
    ):
        response = stranger.open(path)
        assert response.status_code == 404, path
        # The page names its own address (the language switch comes back to it): apart
        # from that, nothing tells a circle that exists from one that doesn't.
        answers.append(response.get_data(as_text=True).replace(path, "PATH"))
    assert len(set(answers)) == 1
