"""Numbers and dates in a circle's history addresses are range-checked before they reach
the database: a member's odd page, player or date is a 404 or is ignored, never a 500
(PostgreSQL's integers overflow where SQLite's don't)."""

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.circles.support import Phone


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/games?page=922337203685477580", 404),
        ("/games?page=0", 404),
        ("/games?page=-1", 404),
        ("/games?page=1e9", 404),
        ("/games?player=99999999999999999999", 200),
        ("/games?player=-1", 200),
        ("/games?to=9999-12-31", 200),
        ("/games?from=0001-01-01&to=9999-12-31", 200),
        ("/games?from=2026-13-45", 200),
        ("/players/99999999999999999999", 404),
        ("/players/2147483648", 404),
        ("/players/0", 404),
    ],
)
def test_odd_numbers_in_a_circles_addresses(app: Flask, path: str, status: int) -> None:
    phone = Phone(app.test_client())
    circle = phone.make_circle()
    phone.new_game(["Ann", "Ben", "Cat"], circle=circle)
    response = phone.client.get(f"/circles/{circle}{path}")
    assert response.status_code == status, path


def test_the_old_whole_server_list_with_odd_numbers_leads_home(client: FlaskClient) -> None:
    response = client.get("/games?page=922337203685477580&player=99999999999999999999")
    assert response.status_code == 303 and response.headers["Location"] == "/"
