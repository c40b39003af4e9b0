"""Fixtures for the page tests: a scorer's browser (session) and a follower's, with CSRF
checks off; `test_csrf.py` turns them back on to prove a tokenless POST is refused."""

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.support import Pages


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def pages(client: FlaskClient) -> Pages:
    """The scorer's phone: creates games and so keeps score of them."""
    return Pages(client)


@pytest.fixture
def follower(app: Flask) -> Pages:
    """Another phone, with the view link only."""
    return Pages(app.test_client())


@pytest.fixture
def snapshot(app: Flask):  # type: ignore[no-untyped-def]
    """``snapshot(pid)``: everything stored about a game, to compare around a rejection."""
    from tests.web.support import stored

    def take(pid: str) -> tuple[object, ...]:
        with app.app_context():
            return stored(pid)

    return take
