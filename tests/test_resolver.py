"""The trick resolver page: taps are GET links (works without JavaScript) and htmx swaps."""

import html

from flask.testing import FlaskClient


def test_home_links_to_the_resolver(client: FlaskClient) -> None:
    body = client.get("/").get_data(as_text=True)
    assert "/resolver/" in body and "/digital/new" in body


def test_resolver_names_winner_reason_and_void_notes(client: FlaskClient) -> None:
    response = client.get("/resolver/?trump=blue&cards=R5+G13+B2+R13")
    assert response.status_code == 200
    body = html.unescape(response.get_data(as_text=True))
    assert "Player 3 wins" in body
    assert "the highest trump wins" in body
    assert "Only legal if player 2 had no red" in body
    assert "Only legal if player 3 had no red" in body
    # A card already in the trick can't be tapped again; the next tap appends to the trick.
    assert 'href="/resolver/?trump=blue&cards=R5+G13+B2+R13+R6"' in body
    assert 'href="/resolver/?trump=blue&cards=R5+G13+B2+R13+R5"' not in body


def test_resolver_htmx_returns_the_widget_only(client: FlaskClient) -> None:
    response = client.get("/resolver/?trump=none&cards=J+J+J", headers={"HX-Request": "true"})
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="resolver"')
    assert "only Jesters: the first Jester wins" in body
    assert "HX-Request" in response.headers["Vary"]


def test_resolver_survives_bad_input(client: FlaskClient) -> None:
    response = client.get("/resolver/?trump=purple&cards=X99")
    assert response.status_code == 200
    assert "is not a card" in html.unescape(response.get_data(as_text=True))
